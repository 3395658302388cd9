package templates

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"
)

// LibraryOptions configure a Library. A nil *LibraryOptions, and every
// zero field, mean the defaults.
type LibraryOptions struct {
	// Now is the clock of created_at, updated_at, export stamps and sync
	// marks; nil means time.Now. Template timestamps are truncated to the
	// second.
	Now func() time.Time
	// Check, when not nil, checks a template against the site: that
	// postType is a registered post type and that tc names taxonomies
	// and terms of it. It is called after the input passed its own
	// Validate, by Create (always), by Update and CreateVariant (when the
	// patch sets a TaxonomyConfig) and by Import (per item). Its error is
	// returned unchanged, so it may carry the embedder's own error codes.
	// Import reports an error that wraps a *ParamError (errors.As) for its
	// item, with the parameter prefixed by "templates[i].", and stops at
	// any other error.
	Check func(ctx context.Context, postType string, tc TaxonomyConfig) error
	// Signature, when not nil, returns the current field signature of
	// postType (nil when it cannot be known). Create, Update, EnsureSystem
	// and Import record it as the template's FieldSignature, replacing
	// the one the Input or Patch carries, so that saving a template marks
	// it in sync with its fields; a nil result on Update keeps the stored
	// signature.
	Signature func(ctx context.Context, postType string) Signature
}

// Library is the template library: it keeps templates in a Store and
// holds every rule about them, once for every backend. It validates input
// and reports a *ParamError naming the parameter (an id that is not a
// positive integer is one, before anything else is checked); unknown ids
// give ErrNotFound; a done ctx gives ctx.Err() and changes nothing. Each change
// that takes more than one write (a new default, a delete with variants,
// a duplicate, an import, ...) runs in one Store.Atomic unit, so at most
// one template per post type is the default also under concurrent use.
// A Library is safe for concurrent use when its Store is.
type Library struct {
	s         Store
	now       func() time.Time
	check     func(ctx context.Context, postType string, tc TaxonomyConfig) error
	signature func(ctx context.Context, postType string) Signature
}

// NewLibrary returns a Library over s. opts may be nil.
func NewLibrary(s Store, opts *LibraryOptions) *Library {
	l := &Library{s: s, now: time.Now}
	if opts != nil {
		if opts.Now != nil {
			l.now = opts.Now
		}
		l.check, l.signature = opts.Check, opts.Signature
	}
	return l
}

// stamp is the time of a save, kept to the second.
func (l *Library) stamp() time.Time { return l.now().Round(0).Truncate(time.Second) }

func (l *Library) sign(ctx context.Context, postType string, given Signature) Signature {
	if l.signature == nil {
		return slices.Clone(given)
	}
	return l.signature(ctx, postType)
}

// checkID rejects an id that cannot name a template, before anything
// else is looked at; param is the parameter that carries it.
func checkID(param string, id int64) error {
	if id <= 0 {
		return paramErr(param, "%s must be a positive integer, got %d", param, id)
	}
	return nil
}

func systemErr() error {
	return paramErr("id", "system templates cannot be changed or deleted; duplicate one to edit it")
}

// parents returns the chain of t's parents in s, nearest first. A parent
// that does not exist ends the chain.
func parents(ctx context.Context, s Store, t *Template) ([]Template, error) {
	var out []Template
	seen := map[int64]bool{t.ID: true}
	for id := t.ParentID; id != 0 && !seen[id]; {
		p, err := s.Get(ctx, id)
		if errors.Is(err, ErrNotFound) {
			break
		}
		if err != nil {
			return nil, err
		}
		seen[id] = true
		out = append(out, p)
		id = p.ParentID
	}
	return out, nil
}

// merged returns the configuration of chain[0] merged over its parents
// chain[1:], root first; zero for an empty chain.
func merged(chain []Template) (FieldConfig, TaxonomyConfig) {
	fc := FieldConfig{}
	var tc TaxonomyConfig
	for i := len(chain) - 1; i >= 0; i-- {
		fc = MergeFieldConfig(fc, chain[i].FieldConfig)
		tc = MergeTaxonomyConfig(tc, chain[i].TaxonomyConfig)
	}
	return fc, tc
}

// clearDefaults unsets the default flag of every template of postType but
// keep. It leaves their UpdatedAt alone.
func clearDefaults(ctx context.Context, s Store, postType string, keep int64) error {
	list, err := s.List(ctx, Filter{PostType: postType, DefaultOnly: true})
	if err != nil {
		return err
	}
	for _, o := range list {
		if o.ID == keep {
			continue
		}
		o.IsDefault = false
		if err := s.Put(ctx, o); err != nil {
			return err
		}
	}
	return nil
}

// insert stores t as a new template, as the only default of its post
// type when t is default.
func insert(ctx context.Context, s Store, t Template) (Template, error) {
	out, err := s.Insert(ctx, t)
	if err != nil {
		return Template{}, err
	}
	if out.IsDefault {
		if err := clearDefaults(ctx, s, out.PostType, out.ID); err != nil {
			return Template{}, err
		}
	}
	return out, nil
}

// withParents reads the template with id and its parents in one unit
// when it is a variant, so that the chain is consistent.
func (l *Library) withParents(ctx context.Context, id int64) (Template, []Template, error) {
	if err := checkID("id", id); err != nil {
		return Template{}, nil, err
	}
	if err := ctx.Err(); err != nil {
		return Template{}, nil, err
	}
	t, err := l.s.Get(ctx, id)
	if err != nil || t.ParentID == 0 {
		return t, nil, err
	}
	var chain []Template
	err = l.s.Atomic(ctx, func(ctx context.Context, s Store) error {
		if t, err = s.Get(ctx, id); err != nil {
			return err
		}
		chain, err = parents(ctx, s, &t)
		return err
	})
	if err != nil {
		return Template{}, nil, err
	}
	return t, chain, nil
}

// Get returns the template with id as stored (a variant's own overrides
// only) with LinkedParents set: its chain of parents, nearest first, empty
// (not nil) for a plain template. ErrNotFound when id is unknown.
func (l *Library) Get(ctx context.Context, id int64) (Template, error) {
	t, chain, err := l.withParents(ctx, id)
	if err != nil {
		return Template{}, err
	}
	t.LinkedParents = make([]LinkedParent, 0, len(chain))
	for _, p := range chain {
		t.LinkedParents = append(t.LinkedParents, LinkedParent{ID: p.ID, Name: p.Name, PostType: p.PostType})
	}
	return t, nil
}

// Effective returns the template with id with a variant's overrides
// merged over its parents' effective configuration: the configuration
// generation uses. For a plain template it equals its stored one; it
// carries no LinkedParents. ErrNotFound when id is unknown.
func (l *Library) Effective(ctx context.Context, id int64) (Template, error) {
	t, chain, err := l.withParents(ctx, id)
	if err != nil {
		return Template{}, err
	}
	t.FieldConfig, t.TaxonomyConfig = merged(append([]Template{t}, chain...))
	return t, nil
}

// List returns the templates matching f, ordered by id, without
// LinkedParents; an empty, non-nil slice when none match.
func (l *Library) List(ctx context.Context, f Filter) ([]Template, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	list, err := l.s.List(ctx, f)
	if err != nil {
		return nil, err
	}
	if list == nil {
		list = []Template{}
	}
	return list, nil
}

// Create validates in (Input.Validate, then the Check hook) and stores it
// as a new user template with a new id, CreatedAt and UpdatedAt set to
// the Library's clock and FieldSignature from the Signature hook. With
// IsDefault set it becomes the only default of its post type.
func (l *Library) Create(ctx context.Context, in Input) (Template, error) {
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	if err := in.Validate(); err != nil {
		return Template{}, err
	}
	if l.check != nil {
		if err := l.check(ctx, in.PostType, in.TaxonomyConfig); err != nil {
			return Template{}, err
		}
	}
	now := l.stamp()
	t := Template{
		Name: strings.TrimSpace(in.Name), Description: in.Description, PostType: in.PostType,
		IsDefault: in.IsDefault, FieldConfig: in.FieldConfig.Clone(), TaxonomyConfig: in.TaxonomyConfig.Clone(),
		FieldSignature: l.sign(ctx, in.PostType, in.FieldSignature), CreatedAt: now, UpdatedAt: now,
	}
	return l.atomic(ctx, func(ctx context.Context, s Store) (Template, error) {
		return insert(ctx, s, t)
	})
}

// Update applies p to the template with id, records the field signature
// (from the Signature hook, or p.FieldSignature) and sets UpdatedAt. For
// a variant a new FieldConfig or TaxonomyConfig is stored as its
// difference from the parent's effective configuration. ErrNotFound for
// unknown ids; *ParamError for invalid input, a changed post_type, or a
// change of a system template's name, description or configuration (its
// default flag and field signature may change); the Check hook's error
// when p sets a TaxonomyConfig that fails it.
func (l *Library) Update(ctx context.Context, id int64, p Patch) (Template, error) {
	cur, err := l.checkPatch(ctx, id, &p)
	if err != nil {
		return Template{}, err
	}
	sig := l.sign(ctx, cur.PostType, p.FieldSignature)
	return l.atomic(ctx, func(ctx context.Context, s Store) (Template, error) {
		t, err := s.Get(ctx, id)
		if err != nil {
			return Template{}, err
		}
		if err := applyPatch(ctx, s, &t, &p); err != nil {
			return Template{}, err
		}
		if sig != nil {
			t.FieldSignature = sig
		}
		if p.IsDefault != nil {
			t.IsDefault = *p.IsDefault
			if t.IsDefault {
				if err := clearDefaults(ctx, s, t.PostType, id); err != nil {
					return Template{}, err
				}
			}
		}
		t.UpdatedAt = l.stamp()
		if err := s.Put(ctx, t); err != nil {
			return Template{}, err
		}
		return t, nil
	})
}

// checkPatch returns the template with id after checking p for it: its
// own validation, then the Check hook when p sets a TaxonomyConfig.
func (l *Library) checkPatch(ctx context.Context, id int64, p *Patch) (Template, error) {
	if err := checkID("id", id); err != nil {
		return Template{}, err
	}
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	t, err := l.s.Get(ctx, id)
	if err != nil {
		return Template{}, err
	}
	if err := p.Validate(); err != nil {
		return Template{}, err
	}
	if p.TaxonomyConfig != nil && l.check != nil {
		if err := l.check(ctx, t.PostType, p.TaxonomyConfig); err != nil {
			return Template{}, err
		}
	}
	return t, nil
}

// applyPatch applies the name, description and configurations p sets to
// t, storing a variant's configurations as its difference from its
// parents'. A changed post_type, and any of these on a system template,
// are refused.
func applyPatch(ctx context.Context, s Store, t *Template, p *Patch) error {
	if p.PostType != nil && *p.PostType != t.PostType {
		return paramErr("post_type", "post_type cannot be changed after a template is created")
	}
	if t.IsSystem && (p.Name != nil || p.Description != nil || p.FieldConfig != nil || p.TaxonomyConfig != nil) {
		return systemErr()
	}
	if p.Name != nil {
		t.Name = strings.TrimSpace(*p.Name)
	}
	if p.Description != nil {
		t.Description = *p.Description
	}
	if p.FieldConfig == nil && p.TaxonomyConfig == nil {
		return nil
	}
	chain, err := parents(ctx, s, t)
	if err != nil {
		return err
	}
	parentFC, parentTC := merged(chain)
	if p.FieldConfig != nil {
		t.FieldConfig = DiffFieldConfig(parentFC, *p.FieldConfig)
	}
	if p.TaxonomyConfig != nil {
		t.TaxonomyConfig = DiffTaxonomyConfig(parentTC, p.TaxonomyConfig)
	}
	return nil
}

// descendants returns id and all its variants among list, at any depth.
func descendants(id int64, list []Template) map[int64]bool {
	set := map[int64]bool{id: true}
	for grew := true; grew; {
		grew = false
		for _, c := range list {
			if !set[c.ID] && set[c.ParentID] {
				set[c.ID] = true
				grew = true
			}
		}
	}
	return set
}

// Delete removes the template with id and all its variants. When the
// deleted template (or one of its variants) was its post type's default
// and newDefaultID is not 0, that template becomes the default. A
// newDefaultID that does not exist, belongs to another post type or is
// deleted along gives a *ParamError for "new_default_id" and deletes
// nothing. A system template gives a *ParamError for "id".
func (l *Library) Delete(ctx context.Context, id int64, newDefaultID int64) (DeleteResult, error) {
	if err := checkID("id", id); err != nil {
		return DeleteResult{}, err
	}
	if newDefaultID < 0 {
		return DeleteResult{}, checkID("new_default_id", newDefaultID)
	}
	if err := ctx.Err(); err != nil {
		return DeleteResult{}, err
	}
	var res DeleteResult
	err := l.s.Atomic(ctx, func(ctx context.Context, s Store) error {
		t, err := s.Get(ctx, id)
		if err != nil {
			return err
		}
		if t.IsSystem {
			return systemErr()
		}
		list, err := s.List(ctx, Filter{PostType: t.PostType})
		if err != nil {
			return err
		}
		doomed := descendants(id, list)
		var heir Template
		if newDefaultID != 0 {
			heir, err = s.Get(ctx, newDefaultID)
			switch {
			case errors.Is(err, ErrNotFound):
				return paramErr("new_default_id", "new_default_id %d names no template", newDefaultID)
			case err != nil:
				return err
			case doomed[newDefaultID]:
				return paramErr("new_default_id", "new_default_id %d is deleted along with template %d", newDefaultID, id)
			case heir.PostType != t.PostType:
				return paramErr("new_default_id", "new_default_id %d is a template of post type %q, not %q", newDefaultID, heir.PostType, t.PostType)
			}
		}
		wasDefault := false
		ids := make([]int64, 0, len(doomed))
		for _, o := range list {
			if doomed[o.ID] {
				ids = append(ids, o.ID)
				wasDefault = wasDefault || o.IsDefault
			}
		}
		if err := s.Delete(ctx, ids); err != nil {
			return err
		}
		res = DeleteResult{VariantsDeleted: len(ids) - 1}
		if wasDefault && newDefaultID != 0 {
			if err := clearDefaults(ctx, s, heir.PostType, heir.ID); err != nil {
				return err
			}
			heir.IsDefault = true
			heir.UpdatedAt = l.stamp()
			if err := s.Put(ctx, heir); err != nil {
				return err
			}
			res.NewDefaultID = heir.ID
		}
		return nil
	})
	if err != nil {
		return DeleteResult{}, err
	}
	return res, nil
}

// SetDefault makes the template with id its post type's only default. It
// is harmless on the default itself. ErrNotFound when id is unknown.
func (l *Library) SetDefault(ctx context.Context, id int64) (Template, error) {
	if err := checkID("id", id); err != nil {
		return Template{}, err
	}
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	return l.atomic(ctx, func(ctx context.Context, s Store) (Template, error) {
		t, err := s.Get(ctx, id)
		if err != nil {
			return Template{}, err
		}
		if err := clearDefaults(ctx, s, t.PostType, id); err != nil {
			return Template{}, err
		}
		if !t.IsDefault {
			t.IsDefault = true
			t.UpdatedAt = l.stamp()
			if err := s.Put(ctx, t); err != nil {
				return Template{}, err
			}
		}
		return t, nil
	})
}

// Duplicate copies the template with id into a new user template named
// name + " (Copy)" that is not default. A variant's copy is a variant of
// the same parent with the same overrides. ErrNotFound when id is
// unknown.
func (l *Library) Duplicate(ctx context.Context, id int64) (Template, error) {
	if err := checkID("id", id); err != nil {
		return Template{}, err
	}
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	return l.atomic(ctx, func(ctx context.Context, s Store) (Template, error) {
		c, err := s.Get(ctx, id)
		if err != nil {
			return Template{}, err
		}
		c.Name += " (Copy)"
		c.IsDefault, c.IsSystem = false, false
		c.CreatedAt = l.stamp()
		c.UpdatedAt = c.CreatedAt
		return s.Insert(ctx, c)
	})
}

// CreateVariant creates a variant of parentID. p may name the variant and
// set overrides, given in full and stored as their difference from the
// parent's effective configuration; the zero Patch gives a variant named
// parent name + " (Variant)" that overrides nothing. The variant inherits
// the parent's post type and field signature (unless p sets one); with
// p.IsDefault it becomes its post type's only default. ErrNotFound when
// parentID is unknown; *ParamError for invalid input or a post_type other
// than the parent's; the Check hook's error when p sets a TaxonomyConfig
// that fails it.
func (l *Library) CreateVariant(ctx context.Context, parentID int64, p Patch) (Template, error) {
	parent, err := l.checkPatch(ctx, parentID, &p)
	if err != nil {
		return Template{}, err
	}
	if p.PostType != nil && *p.PostType != parent.PostType {
		return Template{}, paramErr("post_type", "a variant has its parent's post type %q", parent.PostType)
	}
	return l.atomic(ctx, func(ctx context.Context, s Store) (Template, error) {
		parent, err := s.Get(ctx, parentID)
		if err != nil {
			return Template{}, err
		}
		now := l.stamp()
		v := Template{
			Name: parent.Name + " (Variant)", PostType: parent.PostType, ParentID: parentID,
			FieldSignature: parent.FieldSignature, CreatedAt: now, UpdatedAt: now,
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
		if p.FieldConfig != nil || p.TaxonomyConfig != nil {
			chain, err := parents(ctx, s, &parent)
			if err != nil {
				return Template{}, err
			}
			pfc, ptc := merged(append([]Template{parent}, chain...))
			if p.FieldConfig != nil {
				v.FieldConfig = DiffFieldConfig(pfc, *p.FieldConfig)
			}
			if p.TaxonomyConfig != nil {
				v.TaxonomyConfig = DiffTaxonomyConfig(ptc, p.TaxonomyConfig)
			}
		}
		return insert(ctx, s, v)
	})
}

// EnsureSystem stores the starter templates in ins as system templates,
// skipping those whose post type and name match an existing system
// template, so it can run at every start. A starter with IsDefault
// becomes the default only when its post type has none. Every input must
// pass Input.Validate (the first *ParamError is returned and nothing
// stored); the Check hook is not called, so the caller checks the post
// types against the site. FieldSignature comes from the Signature hook.
// It returns the system templates of ins's post types, ordered by id
// (empty, not nil, for an empty ins).
func (l *Library) EnsureSystem(ctx context.Context, ins []Input) ([]Template, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i := range ins {
		if err := ins[i].Validate(); err != nil {
			return nil, err
		}
	}
	sigs := make([]Signature, len(ins))
	for i, in := range ins {
		sigs[i] = l.sign(ctx, in.PostType, in.FieldSignature)
	}
	var out []Template
	err := l.s.Atomic(ctx, func(ctx context.Context, s Store) error {
		now := l.stamp()
		postTypes := map[string]bool{}
		for i, in := range ins {
			postTypes[in.PostType] = true
			name := strings.TrimSpace(in.Name)
			list, err := s.List(ctx, Filter{PostType: in.PostType})
			if err != nil {
				return err
			}
			exists, hasDefault := false, false
			for _, t := range list {
				exists = exists || t.IsSystem && t.Name == name
				hasDefault = hasDefault || t.IsDefault
			}
			if exists {
				continue
			}
			if _, err := s.Insert(ctx, Template{
				Name: name, Description: in.Description, PostType: in.PostType, IsSystem: true,
				IsDefault: in.IsDefault && !hasDefault, FieldConfig: in.FieldConfig.Clone(),
				TaxonomyConfig: in.TaxonomyConfig.Clone(), FieldSignature: sigs[i],
				CreatedAt: now, UpdatedAt: now,
			}); err != nil {
				return err
			}
		}
		system, err := s.List(ctx, Filter{IsSystem: Ptr(true)})
		if err != nil {
			return err
		}
		out = []Template{}
		for _, t := range system {
			if postTypes[t.PostType] {
				out = append(out, t)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// atomic runs fn in one transaction of the store and returns the
// template it made or changed.
func (l *Library) atomic(ctx context.Context, fn func(ctx context.Context, s Store) (Template, error)) (Template, error) {
	var out Template
	err := l.s.Atomic(ctx, func(ctx context.Context, s Store) error {
		var err error
		out, err = fn(ctx, s)
		return err
	})
	if err != nil {
		return Template{}, err
	}
	return out, nil
}
