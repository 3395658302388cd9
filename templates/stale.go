package templates

import (
	"context"
	"github.com/contentgen/contentgen/templates/fields"
	"maps"
	"slices"
	"strings"
	"time"
)

// Signature describes a post type's custom fields for stale detection: the
// sorted entries "name:type" (with "!" appended for required fields) of
// every field, sub-fields included (see Flatten). Two signatures are equal
// when the fields a template can configure are the same.
type Signature []string

// SignatureOf returns the signature of defs. It is never nil, so a post
// type without fields has an empty, recorded signature.
func SignatureOf(defs []fields.Field) Signature {
	flat := fields.Flatten(defs)
	sig := make(Signature, 0, len(flat))
	for _, f := range flat {
		e := f.Name + ":" + f.Type
		if f.Required {
			e += "!"
		}
		sig = append(sig, e)
	}
	slices.Sort(sig)
	return slices.Compact(sig)
}

// Equal reports whether s and o list the same entries.
func (s Signature) Equal(o Signature) bool { return slices.Equal(s, o) }

// Diff compares s (the saved signature) with cur (the current one) by field
// name: added are names only in cur, removed names only in s, changed
// names whose type or required flag differ. Each list is sorted.
func (s Signature) Diff(cur Signature) (added, removed, changed []string) {
	old, now := s.byName(), cur.byName()
	for name, e := range now {
		o, ok := old[name]
		switch {
		case !ok:
			added = append(added, name)
		case o != e:
			changed = append(changed, name)
		}
	}
	for name := range old {
		if _, ok := now[name]; !ok {
			removed = append(removed, name)
		}
	}
	slices.Sort(added)
	slices.Sort(removed)
	slices.Sort(changed)
	return added, removed, changed
}

func (s Signature) byName() map[string]string {
	m := make(map[string]string, len(s))
	for _, e := range s {
		name, _, _ := strings.Cut(e, ":")
		m[name] = e
	}
	return m
}

// StaleTemplate is a template whose post type's fields changed since it
// was saved.
type StaleTemplate struct {
	ID       int64
	Name     string
	PostType string
	// AddedFields, RemovedFields and ChangedFields name, sorted, the
	// fields that appeared, disappeared or changed type or required flag;
	// empty, not nil, when none did.
	AddedFields   []string
	RemovedFields []string
	ChangedFields []string
	// SavedAt is when the template was last saved.
	SavedAt time.Time
}

// Stale lists the templates whose recorded FieldSignature differs from
// current[post type], ordered by id; empty, not nil, when none is.
// Templates without a recorded signature, and post types missing from
// current, are never stale. A template becomes current again when it is
// saved with the new signature (LibraryOptions.Signature or
// Patch.FieldSignature).
func (l *Library) Stale(ctx context.Context, current map[string]Signature) ([]StaleTemplate, error) {
	list, err := l.List(ctx, Filter{})
	if err != nil {
		return nil, err
	}
	out := []StaleTemplate{}
	for _, t := range list {
		cur, ok := current[t.PostType]
		if !ok || t.FieldSignature == nil || t.FieldSignature.Equal(cur) {
			continue
		}
		added, removed, changed := t.FieldSignature.Diff(cur)
		out = append(out, StaleTemplate{
			ID: t.ID, Name: t.Name, PostType: t.PostType,
			AddedFields: nonNil(added), RemovedFields: nonNil(removed), ChangedFields: nonNil(changed),
			SavedAt: t.UpdatedAt,
		})
	}
	return out, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// SyncStatus says whether templates are in sync with their post types'
// fields, and whether a change is still waiting to be acknowledged. Its
// lists are sorted and empty, not nil, when they hold nothing.
type SyncStatus struct {
	// InSync is true when no template is stale.
	InSync bool
	// StaleCount counts stale templates.
	StaleCount int
	// ChangedPostTypes lists the post types with stale templates.
	ChangedPostTypes []string
	// HasUnseenChanges is true when a post type's fields differ from what
	// was last acknowledged with MarkSeen and it has stale templates: the
	// notice a user has not dismissed yet.
	HasUnseenChanges bool
	// UnseenPostTypes lists the post types behind HasUnseenChanges.
	UnseenPostTypes []string
	// LastSeen is when changes were last acknowledged, zero if never.
	LastSeen time.Time
	// Stale lists the stale templates.
	Stale []StaleTemplate
}

// Status computes the sync status of the templates against the current
// signatures of the post types' fields.
func (l *Library) Status(ctx context.Context, current map[string]Signature) (SyncStatus, error) {
	stale, err := l.Stale(ctx, current)
	if err != nil {
		return SyncStatus{}, err
	}
	mark, err := l.s.SyncMark(ctx)
	if err != nil {
		return SyncStatus{}, err
	}
	changed := map[string]bool{}
	for _, st := range stale {
		changed[st.PostType] = true
	}
	st := SyncStatus{
		InSync: len(stale) == 0, StaleCount: len(stale),
		ChangedPostTypes: nonNil(slices.Sorted(maps.Keys(changed))),
		UnseenPostTypes:  []string{},
		LastSeen:         mark.SeenAt,
		Stale:            stale,
	}
	for _, pt := range st.ChangedPostTypes {
		seen, ok := mark.Signatures[pt]
		if !ok || !seen.Equal(current[pt]) {
			st.UnseenPostTypes = append(st.UnseenPostTypes, pt)
		}
	}
	st.HasUnseenChanges = len(st.UnseenPostTypes) > 0
	return st, nil
}

// MarkSeen acknowledges the current field state of every post type in
// current (kept together with earlier acknowledgements of other post
// types) at the Library's clock, and returns the resulting status.
func (l *Library) MarkSeen(ctx context.Context, current map[string]Signature) (SyncStatus, error) {
	if err := ctx.Err(); err != nil {
		return SyncStatus{}, err
	}
	now := l.now()
	err := l.s.Atomic(ctx, func(ctx context.Context, s Store) error {
		mark, err := s.SyncMark(ctx)
		if err != nil {
			return err
		}
		sigs := make(map[string]Signature, len(mark.Signatures)+len(current))
		for pt, sig := range mark.Signatures {
			sigs[pt] = slices.Clone(sig)
		}
		for pt, sig := range current {
			sigs[pt] = slices.Clone(sig)
		}
		return s.SetSyncMark(ctx, SyncMark{Signatures: sigs, SeenAt: now})
	})
	if err != nil {
		return SyncStatus{}, err
	}
	return l.Status(ctx, current)
}
