package templates

import (
	"context"
	"strings"
	"time"
)

// Template is a saved generation configuration for one post type. Its JSON
// form is the spec's template record (see MarshalJSON).
type Template struct {
	ID          int64
	Name        string
	Description string
	// PostType is set on create and never changes afterwards.
	PostType string
	// IsDefault is true for at most one template per post type.
	IsDefault bool
	// IsSystem marks service-provided starter templates (see
	// Store.EnsureSystem); they cannot be updated or deleted.
	IsSystem       bool
	FieldConfig    FieldConfig
	TaxonomyConfig TaxonomyConfig
	// ParentID is the parent of a variant, 0 for a plain template. A
	// variant's FieldConfig and TaxonomyConfig hold only the settings it
	// overrides; Store.Effective merges them over the parent's.
	ParentID int64
	// LinkedParents is the chain of templates a variant inherits from,
	// nearest first. Store.Get sets it (empty, not nil, for a plain
	// template); List leaves it nil, and MarshalJSON writes linked_parents
	// only when it is not nil, as the spec shows it on single reads only.
	LinkedParents []LinkedParent
	// FieldSignature is the signature of the post type's custom fields
	// when the template was last saved with one; nil when unknown. Stale
	// compares it with the current signature. It is not part of the JSON
	// record.
	FieldSignature Signature
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// LinkedParent names one template in a variant's chain of parents.
type LinkedParent struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	PostType string `json:"post_type"`
}

// Filter selects templates. Zero fields do not filter.
type Filter struct {
	PostType string
	// IsSystem, when set, keeps system (true) or user (false) templates.
	IsSystem *bool
	// DefaultOnly keeps only default templates.
	DefaultOnly bool
}

// Matches reports whether t is selected by f. Store implementations may
// use it to share the filter semantics.
func (f Filter) Matches(t *Template) bool {
	if f.PostType != "" && t.PostType != f.PostType {
		return false
	}
	if f.IsSystem != nil && t.IsSystem != *f.IsSystem {
		return false
	}
	return !f.DefaultOnly || t.IsDefault
}

// Input is the body of a template create request.
type Input struct {
	Name           string         `json:"name"`
	Description    string         `json:"description"`
	PostType       string         `json:"post_type"`
	IsDefault      bool           `json:"is_default"`
	FieldConfig    FieldConfig    `json:"field_config"`
	TaxonomyConfig TaxonomyConfig `json:"taxonomy_config"`
	// FieldSignature is the post type's current field signature, recorded
	// for stale detection; nil records none.
	FieldSignature Signature `json:"-"`
}

// Validate checks the input: name and post_type are required (after
// trimming spaces), post_type holds no spaces, and both configurations
// pass their own Validate. It returns a *ParamError.
func (in *Input) Validate() error {
	if strings.TrimSpace(in.Name) == "" {
		return paramErr("name", "name is required")
	}
	if err := checkPostType(in.PostType); err != nil {
		return err
	}
	if err := in.FieldConfig.Validate(); err != nil {
		return err
	}
	return in.TaxonomyConfig.Validate()
}

func checkPostType(pt string) error {
	if strings.TrimSpace(pt) == "" {
		return paramErr("post_type", "post_type is required")
	}
	if strings.ContainsAny(pt, " \t\r\n") || len(pt) > 64 {
		return paramErr("post_type", "post_type %q is not a post type slug", pt)
	}
	return nil
}

// Patch is the body of a template update request: nil fields keep their
// value, so only sent properties change. A non-nil PostType that differs
// from the template's is rejected (post_type is immutable); one equal to it
// is ignored. A nil TaxonomyConfig keeps the stored one; a non-nil empty
// one clears it.
type Patch struct {
	Name           *string        `json:"name"`
	Description    *string        `json:"description"`
	PostType       *string        `json:"post_type"`
	IsDefault      *bool          `json:"is_default"`
	FieldConfig    *FieldConfig   `json:"field_config"`
	TaxonomyConfig TaxonomyConfig `json:"taxonomy_config"`
	// FieldSignature, when not nil, records the post type's current field
	// signature: saving a template marks it in sync with the fields.
	FieldSignature Signature `json:"-"`
}

// Validate checks the properties the patch sets. It returns a *ParamError.
func (p *Patch) Validate() error {
	if p.Name != nil && strings.TrimSpace(*p.Name) == "" {
		return paramErr("name", "name must not be empty")
	}
	if p.FieldConfig != nil {
		if err := p.FieldConfig.Validate(); err != nil {
			return err
		}
	}
	return p.TaxonomyConfig.Validate()
}

// DeleteResult reports what a delete removed.
type DeleteResult struct {
	// VariantsDeleted counts the variants (at any depth) deleted with the
	// template.
	VariantsDeleted int `json:"variants_deleted"`
	// NewDefaultID is the template that became default, 0 if none did.
	NewDefaultID int64 `json:"-"`
}

// SyncMark is the field state a user last acknowledged (POST
// /sync/mark-seen): the signature of each post type's fields at that time.
type SyncMark struct {
	Signatures map[string]Signature
	SeenAt     time.Time
}

// Store keeps templates. Implementations must be safe for concurrent use,
// return ctx.Err() (possibly wrapped) without changing anything when ctx is
// done, return ErrNotFound for unknown ids, *ParamError for invalid input,
// and never hand out memory they keep (returned values are copies). The
// templatetest package checks the whole contract.
type Store interface {
	// Get returns the template with id as stored (a variant's own
	// overrides only) with LinkedParents set, or ErrNotFound.
	Get(ctx context.Context, id int64) (Template, error)
	// Effective returns the template with id with a variant's overrides
	// merged over its parents' effective configuration; for plain
	// templates it equals Get. ErrNotFound when id is unknown.
	Effective(ctx context.Context, id int64) (Template, error)
	// List returns the templates matching f, ordered by id, without
	// LinkedParents.
	List(ctx context.Context, f Filter) ([]Template, error)

	// Create validates in and stores a new user template with a new id,
	// CreatedAt and UpdatedAt set to the store's clock. With IsDefault set
	// it becomes the only default of its post type.
	Create(ctx context.Context, in Input) (Template, error)
	// Update applies p to the template with id and sets UpdatedAt. For a
	// variant a new FieldConfig or TaxonomyConfig is stored as its
	// difference from the parent's effective configuration. ErrNotFound
	// for unknown ids; *ParamError for invalid input, a changed post_type,
	// or a change of a system template's name, description or
	// configuration (its default flag and field signature may change).
	Update(ctx context.Context, id int64, p Patch) (Template, error)
	// Delete removes the template with id and all its variants. When the
	// deleted template was its post type's default and newDefaultID is not
	// 0, that template becomes the default. A newDefaultID that does not
	// exist, belongs to another post type or is deleted along gives a
	// *ParamError for "new_default_id" and deletes nothing.
	Delete(ctx context.Context, id int64, newDefaultID int64) (DeleteResult, error)
	// SetDefault makes the template with id its post type's only default.
	SetDefault(ctx context.Context, id int64) (Template, error)
	// Duplicate copies the template with id into a new user template named
	// name + " (Copy)" that is not default. A variant's copy is a variant
	// of the same parent.
	Duplicate(ctx context.Context, id int64) (Template, error)
	// CreateVariant creates a variant of parentID. p may name the variant
	// and set overrides; the zero Patch gives a variant named
	// parent name + " (Variant)" that overrides nothing. The variant
	// inherits the parent's post type and field signature.
	CreateVariant(ctx context.Context, parentID int64, p Patch) (Template, error)
	// EnsureSystem stores the starter templates in ins as system templates,
	// skipping those whose post type and name match an existing system
	// template, so it can run at every start. It returns the system
	// templates of ins's post types, ordered by id.
	EnsureSystem(ctx context.Context, ins []Input) ([]Template, error)

	// SyncMark returns the last acknowledged field state; the zero
	// SyncMark when none was recorded.
	SyncMark(ctx context.Context) (SyncMark, error)
	// SetSyncMark records m as the acknowledged field state.
	SetSyncMark(ctx context.Context, m SyncMark) error
}

// Ptr returns a pointer to v, for the optional fields of Patch and the
// option structs.
func Ptr[T any](v T) *T { return &v }
