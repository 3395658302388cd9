package templates

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"time"
)

// MemStore is an in-memory Store, safe for concurrent use. The zero value
// is not usable; call NewMemStore.
type MemStore struct {
	now func() time.Time

	mu     sync.RWMutex
	byID   map[int64]*Template
	nextID int64
	mark   SyncMark
}

var _ Store = (*MemStore)(nil)

// NewMemStore returns an empty store whose timestamps come from now,
// truncated to the second; nil means time.Now.
func NewMemStore(now func() time.Time) *MemStore {
	if now == nil {
		now = time.Now
	}
	return &MemStore{now: now, byID: map[int64]*Template{}, nextID: 1}
}

func (s *MemStore) stamp() time.Time { return s.now().Round(0).Truncate(time.Second) }

func cloneTemplate(t *Template) Template {
	c := *t
	c.FieldConfig = t.FieldConfig.Clone()
	c.TaxonomyConfig = t.TaxonomyConfig.Clone()
	c.LinkedParents = slices.Clone(t.LinkedParents)
	c.FieldSignature = slices.Clone(t.FieldSignature)
	return c
}

// Get implements Store.
func (s *MemStore) Get(ctx context.Context, id int64) (Template, error) {
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.byID[id]
	if !ok {
		return Template{}, ErrNotFound
	}
	out := cloneTemplate(t)
	out.LinkedParents = []LinkedParent{}
	for p := s.byID[t.ParentID]; p != nil; p = s.byID[p.ParentID] {
		out.LinkedParents = append(out.LinkedParents, LinkedParent{ID: p.ID, Name: p.Name, PostType: p.PostType})
	}
	return out, nil
}

// Effective implements Store.
func (s *MemStore) Effective(ctx context.Context, id int64) (Template, error) {
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.byID[id]
	if !ok {
		return Template{}, ErrNotFound
	}
	out := cloneTemplate(t)
	out.FieldConfig, out.TaxonomyConfig = s.effectiveLocked(t)
	return out, nil
}

// effectiveLocked merges the chain of t's parents, root first.
func (s *MemStore) effectiveLocked(t *Template) (FieldConfig, TaxonomyConfig) {
	chain := []*Template{t}
	for p := s.byID[t.ParentID]; p != nil; p = s.byID[p.ParentID] {
		chain = append(chain, p)
	}
	fc := FieldConfig{}
	var tc TaxonomyConfig
	for i := len(chain) - 1; i >= 0; i-- {
		fc = MergeFieldConfig(fc, chain[i].FieldConfig)
		tc = MergeTaxonomyConfig(tc, chain[i].TaxonomyConfig)
	}
	return fc, tc
}

// List implements Store.
func (s *MemStore) List(ctx context.Context, f Filter) ([]Template, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := []Template{}
	for _, t := range s.byID {
		if f.Matches(t) {
			out = append(out, cloneTemplate(t))
		}
	}
	slices.SortFunc(out, func(a, b Template) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// insertLocked stores t under a new id, clearing the other defaults of its
// post type when t is default.
func (s *MemStore) insertLocked(t Template) Template {
	t.ID = s.nextID
	s.nextID++
	if t.IsDefault {
		s.clearDefaultsLocked(t.PostType, t.ID)
	}
	s.byID[t.ID] = &t
	return cloneTemplate(&t)
}

func (s *MemStore) clearDefaultsLocked(postType string, keep int64) {
	for id, o := range s.byID {
		if id != keep && o.PostType == postType && o.IsDefault {
			o.IsDefault = false
		}
	}
}

// Create implements Store.
func (s *MemStore) Create(ctx context.Context, in Input) (Template, error) {
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	if err := in.Validate(); err != nil {
		return Template{}, err
	}
	now := s.stamp()
	t := Template{
		Name: strings.TrimSpace(in.Name), Description: in.Description, PostType: in.PostType,
		IsDefault: in.IsDefault, FieldConfig: in.FieldConfig.Clone(), TaxonomyConfig: in.TaxonomyConfig.Clone(),
		FieldSignature: slices.Clone(in.FieldSignature), CreatedAt: now, UpdatedAt: now,
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.insertLocked(t), nil
}

func systemErr() error {
	return paramErr("id", "system templates cannot be changed or deleted; duplicate one to edit it")
}

// Update implements Store.
func (s *MemStore) Update(ctx context.Context, id int64, p Patch) (Template, error) {
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.byID[id]
	if !ok {
		return Template{}, ErrNotFound
	}
	if err := p.Validate(); err != nil {
		return Template{}, err
	}
	if p.PostType != nil && *p.PostType != t.PostType {
		return Template{}, paramErr("post_type", "post_type cannot be changed after a template is created")
	}
	if t.IsSystem && (p.Name != nil || p.Description != nil || p.FieldConfig != nil || p.TaxonomyConfig != nil) {
		return Template{}, systemErr()
	}
	next := cloneTemplate(t)
	if p.Name != nil {
		next.Name = strings.TrimSpace(*p.Name)
	}
	if p.Description != nil {
		next.Description = *p.Description
	}
	var parentFC FieldConfig
	var parentTC TaxonomyConfig
	if parent := s.byID[t.ParentID]; parent != nil {
		parentFC, parentTC = s.effectiveLocked(parent)
	}
	if p.FieldConfig != nil {
		next.FieldConfig = DiffFieldConfig(parentFC, *p.FieldConfig)
	}
	if p.TaxonomyConfig != nil {
		next.TaxonomyConfig = DiffTaxonomyConfig(parentTC, p.TaxonomyConfig)
	}
	if p.FieldSignature != nil {
		next.FieldSignature = slices.Clone(p.FieldSignature)
	}
	if p.IsDefault != nil {
		next.IsDefault = *p.IsDefault
		if next.IsDefault {
			s.clearDefaultsLocked(t.PostType, id)
		}
	}
	next.UpdatedAt = s.stamp()
	*t = next
	return cloneTemplate(t), nil
}

// descendantsLocked returns id and all its variants, at any depth.
func (s *MemStore) descendantsLocked(id int64) map[int64]bool {
	set := map[int64]bool{id: true}
	for grew := true; grew; {
		grew = false
		for cid, c := range s.byID {
			if !set[cid] && set[c.ParentID] {
				set[cid] = true
				grew = true
			}
		}
	}
	return set
}

// Delete implements Store.
func (s *MemStore) Delete(ctx context.Context, id int64, newDefaultID int64) (DeleteResult, error) {
	if err := ctx.Err(); err != nil {
		return DeleteResult{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.byID[id]
	if !ok {
		return DeleteResult{}, ErrNotFound
	}
	if t.IsSystem {
		return DeleteResult{}, systemErr()
	}
	doomed := s.descendantsLocked(id)
	var heir *Template
	if newDefaultID != 0 {
		heir = s.byID[newDefaultID]
		switch {
		case heir == nil:
			return DeleteResult{}, paramErr("new_default_id", "new_default_id %d names no template", newDefaultID)
		case doomed[newDefaultID]:
			return DeleteResult{}, paramErr("new_default_id", "new_default_id %d is deleted along with template %d", newDefaultID, id)
		case heir.PostType != t.PostType:
			return DeleteResult{}, paramErr("new_default_id", "new_default_id %d is a template of post type %q, not %q", newDefaultID, heir.PostType, t.PostType)
		}
	}
	wasDefault := false
	for did := range doomed {
		wasDefault = wasDefault || s.byID[did].IsDefault
		delete(s.byID, did)
	}
	res := DeleteResult{VariantsDeleted: len(doomed) - 1}
	if wasDefault && heir != nil {
		s.clearDefaultsLocked(heir.PostType, heir.ID)
		heir.IsDefault = true
		heir.UpdatedAt = s.stamp()
		res.NewDefaultID = heir.ID
	}
	return res, nil
}

// SetDefault implements Store.
func (s *MemStore) SetDefault(ctx context.Context, id int64) (Template, error) {
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.byID[id]
	if !ok {
		return Template{}, ErrNotFound
	}
	s.clearDefaultsLocked(t.PostType, id)
	if !t.IsDefault {
		t.IsDefault = true
		t.UpdatedAt = s.stamp()
	}
	return cloneTemplate(t), nil
}

// Duplicate implements Store.
func (s *MemStore) Duplicate(ctx context.Context, id int64) (Template, error) {
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.byID[id]
	if !ok {
		return Template{}, ErrNotFound
	}
	c := cloneTemplate(t)
	c.Name = t.Name + " (Copy)"
	c.IsDefault, c.IsSystem = false, false
	c.CreatedAt = s.stamp()
	c.UpdatedAt = c.CreatedAt
	return s.insertLocked(c), nil
}

// CreateVariant implements Store.
func (s *MemStore) CreateVariant(ctx context.Context, parentID int64, p Patch) (Template, error) {
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	if err := p.Validate(); err != nil {
		return Template{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	parent, ok := s.byID[parentID]
	if !ok {
		return Template{}, ErrNotFound
	}
	if p.PostType != nil && *p.PostType != parent.PostType {
		return Template{}, paramErr("post_type", "a variant has its parent's post type %q", parent.PostType)
	}
	now := s.stamp()
	v := Template{
		Name: parent.Name + " (Variant)", PostType: parent.PostType, ParentID: parentID,
		FieldSignature: slices.Clone(parent.FieldSignature), CreatedAt: now, UpdatedAt: now,
	}
	if p.Name != nil {
		v.Name = strings.TrimSpace(*p.Name)
	}
	if p.Description != nil {
		v.Description = *p.Description
	}
	if p.IsDefault != nil {
		v.IsDefault = *p.IsDefault
	}
	if p.FieldSignature != nil {
		v.FieldSignature = slices.Clone(p.FieldSignature)
	}
	pfc, ptc := s.effectiveLocked(parent)
	if p.FieldConfig != nil {
		v.FieldConfig = DiffFieldConfig(pfc, *p.FieldConfig)
	}
	if p.TaxonomyConfig != nil {
		v.TaxonomyConfig = DiffTaxonomyConfig(ptc, p.TaxonomyConfig)
	}
	return s.insertLocked(v), nil
}

// EnsureSystem implements Store.
func (s *MemStore) EnsureSystem(ctx context.Context, ins []Input) ([]Template, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i := range ins {
		if err := ins[i].Validate(); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.stamp()
	postTypes := map[string]bool{}
	for _, in := range ins {
		postTypes[in.PostType] = true
		name := strings.TrimSpace(in.Name)
		exists, hasDefault := false, false
		for _, t := range s.byID {
			exists = exists || t.IsSystem && t.PostType == in.PostType && t.Name == name
			hasDefault = hasDefault || t.PostType == in.PostType && t.IsDefault
		}
		if exists {
			continue
		}
		s.insertLocked(Template{
			Name: name, Description: in.Description, PostType: in.PostType, IsSystem: true,
			IsDefault: in.IsDefault && !hasDefault, FieldConfig: in.FieldConfig.Clone(),
			TaxonomyConfig: in.TaxonomyConfig.Clone(), FieldSignature: slices.Clone(in.FieldSignature),
			CreatedAt: now, UpdatedAt: now,
		})
	}
	out := []Template{}
	for _, t := range s.byID {
		if t.IsSystem && postTypes[t.PostType] {
			out = append(out, cloneTemplate(t))
		}
	}
	slices.SortFunc(out, func(a, b Template) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// SyncMark implements Store.
func (s *MemStore) SyncMark(ctx context.Context) (SyncMark, error) {
	if err := ctx.Err(); err != nil {
		return SyncMark{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return cloneMark(s.mark), nil
}

// SetSyncMark implements Store.
func (s *MemStore) SetSyncMark(ctx context.Context, m SyncMark) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mark = cloneMark(m)
	return nil
}

func cloneMark(m SyncMark) SyncMark {
	out := SyncMark{SeenAt: m.SeenAt}
	if m.Signatures != nil {
		out.Signatures = make(map[string]Signature, len(m.Signatures))
		for k, v := range m.Signatures {
			out.Signatures[k] = slices.Clone(v)
		}
	}
	return out
}
