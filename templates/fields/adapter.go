package fields

import (
	"context"
	"maps"
	"slices"
)

// AdapterInfo describes a field adapter; its JSON form is the spec's field
// plugin adapter record.
type AdapterInfo struct {
	Name    string `json:"name"`
	Slug    string `json:"slug"`
	Version string `json:"version"`
	// Active adapters are consulted; inactive ones are listed only.
	Active bool `json:"active"`
	// Primary, as an adapter reports it, is its claim to win when several
	// adapters define the same post type; in Registry.Adapters it is the
	// registry's decision.
	Primary bool `json:"primary"`
}

// Adapter reads custom field definitions from one source (a field
// plugin's data, code, files). Implementations must be safe for concurrent
// use and return ctx.Err() (possibly wrapped) when ctx is done.
type Adapter interface {
	// Info describes the adapter.
	Info() AdapterInfo
	// PostTypes returns the post types the adapter defines field groups or
	// relations for, sorted; empty when none.
	PostTypes(ctx context.Context) ([]string, error)
	// FieldGroups returns the field groups that apply to postType, in the
	// adapter's order; empty (not an error) when none do.
	FieldGroups(ctx context.Context, postType string) ([]Group, error)
	// Relations returns the relation definitions whose source is
	// postType; empty when none.
	Relations(ctx context.Context, postType string) ([]Relation, error)
}

// Registry combines field adapters. When several active adapters define
// the same post type, the primary adapter's definitions win; among the
// others, the one registered first. The primary adapter is the first
// active one that claims to be primary, else the first active one. A
// Registry is immutable and safe for concurrent use.
type Registry struct {
	adapters []Adapter
}

// NewRegistry returns a registry of adapters, in priority order. Nil
// adapters are skipped.
func NewRegistry(adapters ...Adapter) *Registry {
	r := &Registry{}
	for _, a := range adapters {
		if a != nil {
			r.adapters = append(r.adapters, a)
		}
	}
	return r
}

// ordered returns the active adapters, primary first, with their infos.
func (r *Registry) ordered() ([]Adapter, []AdapterInfo) {
	var as []Adapter
	var infos []AdapterInfo
	primary := -1
	for _, a := range r.adapters {
		info := a.Info()
		if !info.Active {
			continue
		}
		if primary < 0 && info.Primary {
			primary = len(as)
		}
		as = append(as, a)
		infos = append(infos, info)
	}
	if primary > 0 {
		p, pi := as[primary], infos[primary]
		as = slices.Insert(slices.Delete(as, primary, primary+1), 0, p)
		infos = slices.Insert(slices.Delete(infos, primary, primary+1), 0, pi)
	}
	for i := range infos {
		infos[i].Primary = i == 0
	}
	return as, infos
}

// Adapters lists every adapter in registration order, inactive ones too,
// with Primary set on the registry's primary adapter only.
func (r *Registry) Adapters() []AdapterInfo {
	_, active := r.ordered()
	out := make([]AdapterInfo, 0, len(r.adapters))
	for _, a := range r.adapters {
		info := a.Info()
		info.Primary = len(active) > 0 && info.Active && info.Slug == active[0].Slug
		out = append(out, info)
	}
	return out
}

// Primary returns the primary adapter's info; false when no adapter is
// active.
func (r *Registry) Primary() (AdapterInfo, bool) {
	_, infos := r.ordered()
	if len(infos) == 0 {
		return AdapterInfo{}, false
	}
	return infos[0], true
}

// Adapter returns the adapter with slug, active or not.
func (r *Registry) Adapter(slug string) (Adapter, bool) {
	for _, a := range r.adapters {
		if a.Info().Slug == slug {
			return a, true
		}
	}
	return nil, false
}

// PostTypeFields is what the winning adapter defines for a post type.
type PostTypeFields struct {
	// Adapter is the adapter the definitions come from; zero when no
	// active adapter defines the post type.
	Adapter   AdapterInfo
	Groups    []Group
	Relations []Relation
	// Also lists the other active adapters that define the post type too,
	// and lost to Adapter.
	Also []AdapterInfo
}

// Fields returns the fields of all groups, in group order.
func (p *PostTypeFields) Fields() []Field {
	var out []Field
	for _, g := range p.Groups {
		out = append(out, g.Fields...)
	}
	return out
}

// Fields returns the definitions of postType from the winning adapter: the
// first active adapter in priority order that returns field groups or
// relations for it. An adapter error stops the search and is returned.
func (r *Registry) Fields(ctx context.Context, postType string) (PostTypeFields, error) {
	as, infos := r.ordered()
	var out PostTypeFields
	for i, a := range as {
		if err := ctx.Err(); err != nil {
			return PostTypeFields{}, err
		}
		groups, err := a.FieldGroups(ctx, postType)
		if err != nil {
			return PostTypeFields{}, err
		}
		rels, err := a.Relations(ctx, postType)
		if err != nil {
			return PostTypeFields{}, err
		}
		if len(groups) == 0 && len(rels) == 0 {
			continue
		}
		if out.Adapter.Slug != "" {
			out.Also = append(out.Also, infos[i])
			continue
		}
		out.Adapter, out.Groups, out.Relations = infos[i], groups, rels
	}
	return out, nil
}

// PostTypes maps every post type an active adapter defines to the slugs
// of the adapters defining it, winner first.
func (r *Registry) PostTypes(ctx context.Context) (map[string][]string, error) {
	as, infos := r.ordered()
	out := map[string][]string{}
	for i, a := range as {
		pts, err := a.PostTypes(ctx)
		if err != nil {
			return nil, err
		}
		for _, pt := range pts {
			if !slices.Contains(out[pt], infos[i].Slug) {
				out[pt] = append(out[pt], infos[i].Slug)
			}
		}
	}
	return out, nil
}

// CodeAdapter is a Adapter over field groups and relations registered
// in code, for example by a site's own setup or a test fixture. It is
// immutable and safe for concurrent use.
type CodeAdapter struct {
	info      AdapterInfo
	groups    []Group
	relations []Relation
}

var _ Adapter = (*CodeAdapter)(nil)

// NewCodeAdapter returns an adapter over copies of groups and relations.
// An empty info.Slug becomes "code" and an empty info.Name "Code".
func NewCodeAdapter(info AdapterInfo, groups []Group, relations []Relation) *CodeAdapter {
	if info.Slug == "" {
		info.Slug = "code"
	}
	if info.Name == "" {
		info.Name = "Code"
	}
	a := &CodeAdapter{info: info}
	for _, g := range groups {
		a.groups = append(a.groups, g.Clone())
	}
	for _, rel := range relations {
		a.relations = append(a.relations, rel.Clone())
	}
	return a
}

// Info implements Adapter.
func (a *CodeAdapter) Info() AdapterInfo { return a.info }

// PostTypes implements Adapter.
func (a *CodeAdapter) PostTypes(ctx context.Context) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	set := map[string]bool{}
	for _, g := range a.groups {
		for _, pt := range g.PostTypes {
			set[pt] = true
		}
	}
	for _, rel := range a.relations {
		set[rel.From] = true
	}
	return slices.Sorted(maps.Keys(set)), nil
}

// FieldGroups implements Adapter.
func (a *CodeAdapter) FieldGroups(ctx context.Context, postType string) ([]Group, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []Group
	for _, g := range a.groups {
		if g.AppliesTo(postType) {
			out = append(out, g.Clone())
		}
	}
	return out, nil
}

// Relations implements Adapter.
func (a *CodeAdapter) Relations(ctx context.Context, postType string) ([]Relation, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []Relation
	for _, rel := range a.relations {
		if rel.From == postType {
			out = append(out, rel.Clone())
		}
	}
	return out, nil
}
