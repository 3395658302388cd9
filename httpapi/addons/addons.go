package addons

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Addon is one entry of GET /addons.
type Addon struct {
	// Name is the display name; required.
	Name string `json:"name"`
	// Slug identifies the addon; required and unique in a Registry.
	Slug string `json:"slug"`
	// Version is the addon's version, such as "1.2.0".
	Version string `json:"version"`
	// Active reports whether the addon is switched on.
	Active bool `json:"active"`
	// Description says what the addon does.
	Description string `json:"description"`
}

// ErrInvalid is returned by Register for an addon without slug or name.
var ErrInvalid = errors.New("addons: invalid addon")

// Registry holds addons in registration order. The zero value is an empty
// registry ready to use; it is safe for concurrent use and must not be
// copied after first use.
type Registry struct {
	mu     sync.RWMutex
	order  []string
	bySlug map[string]Addon
}

// NewRegistry returns a registry holding the given addons (see Register).
func NewRegistry(addons ...Addon) (*Registry, error) {
	r := &Registry{}
	for _, a := range addons {
		if err := r.Register(a); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Register adds a, or replaces the addon with the same slug keeping its
// position. Slug and Name are required (surrounding spaces are trimmed).
func (r *Registry) Register(a Addon) error {
	a.Slug, a.Name = strings.TrimSpace(a.Slug), strings.TrimSpace(a.Name)
	if a.Slug == "" {
		return fmt.Errorf("%w: slug is required", ErrInvalid)
	}
	if a.Name == "" {
		return fmt.Errorf("%w: name is required (slug %q)", ErrInvalid, a.Slug)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.bySlug == nil {
		r.bySlug = map[string]Addon{}
	}
	if _, ok := r.bySlug[a.Slug]; !ok {
		r.order = append(r.order, a.Slug)
	}
	r.bySlug[a.Slug] = a
	return nil
}

// Remove deletes the addon with slug and reports whether there was one.
func (r *Registry) Remove(slug string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.bySlug[slug]; !ok {
		return false
	}
	delete(r.bySlug, slug)
	for i, s := range r.order {
		if s == slug {
			r.order = append(r.order[:i], r.order[i+1:]...)
			break
		}
	}
	return true
}

// SetActive sets the active flag of the addon with slug and reports
// whether there was one.
func (r *Registry) SetActive(slug string, active bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	a, ok := r.bySlug[slug]
	if ok {
		a.Active = active
		r.bySlug[slug] = a
	}
	return ok
}

// Get returns the addon with slug.
func (r *Registry) Get(slug string) (Addon, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	a, ok := r.bySlug[slug]
	return a, ok
}

// List returns a copy of the addons in registration order; it is never
// nil, so it encodes as a JSON array even when empty.
func (r *Registry) List() []Addon {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Addon, 0, len(r.order))
	for _, s := range r.order {
		out = append(out, r.bySlug[s])
	}
	return out
}
