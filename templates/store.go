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
	// Library.EnsureSystem); they cannot be updated or deleted.
	IsSystem       bool
	FieldConfig    FieldConfig
	TaxonomyConfig TaxonomyConfig
	// ParentID is the parent of a variant, 0 for a plain template. A
	// variant's FieldConfig and TaxonomyConfig hold only the settings it
	// overrides; Library.Effective merges them over the parent's.
	ParentID int64
	// LinkedParents is the chain of templates a variant inherits from,
	// nearest first. Library.Get sets it (empty, not nil, for a plain
	// template); List leaves it nil, and a Store never keeps it.
	// MarshalJSON writes linked_parents only when it is not nil, as the
	// spec shows it on single reads only.
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

// Matches reports whether t is selected by f: the semantics of
// Store.List, which implementations may use to share them.
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
	// for stale detection; nil records none. LibraryOptions.Signature,
	// when set, replaces it.
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
	// LibraryOptions.Signature, when set, replaces it.
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
	VariantsDeleted int
	// NewDefaultID is the template that became default, 0 if none did.
	NewDefaultID int64
}

// SyncMark is the field state a user last acknowledged (POST
// /sync/mark-seen): the signature of each post type's fields at that time.
type SyncMark struct {
	Signatures map[string]Signature
	SeenAt     time.Time
}

// Store is the storage seam of templates: it keeps Template records and
// the SyncMark, and nothing else. It validates nothing and knows no rule
// about variants, defaults or system templates; Library holds those, once,
// over any Store. MemStore keeps templates in memory; a SQL backend maps
// Atomic to a transaction. The templatetest package checks the contract.
//
// Every implementation must be safe for concurrent use, and:
//   - returns ctx.Err() (possibly wrapped) and writes nothing when ctx is
//     done, from every method;
//   - never hands out or keeps memory it shares with a caller: the values
//     it returns are copies, and it copies what it is given;
//   - keeps every field of a Template except LinkedParents, which it
//     neither stores nor returns (Get and List leave it nil); a nil
//     FieldSignature (none recorded) stays distinct from an empty one, and
//     timestamps keep at least whole seconds (compare them with
//     time.Time.Equal);
//   - reports an unknown id with ErrNotFound (errors.Is), and translates
//     its own not-found errors (sql.ErrNoRows) to it.
type Store interface {
	// Get returns the template with id as stored (a variant holds only
	// its overrides), without LinkedParents. ErrNotFound when id is
	// unknown, including 0.
	Get(ctx context.Context, id int64) (Template, error)
	// List returns the templates f selects (see Filter.Matches), ordered
	// by id, without LinkedParents; an empty, non-nil slice when none
	// match. The zero Filter selects all.
	List(ctx context.Context, f Filter) ([]Template, error)
	// Insert stores t as a new template under a new id, greater than 0 and
	// never used before by this store (t.ID is ignored), and returns it as
	// stored. It stores the zero Template as it is.
	Insert(ctx context.Context, t Template) (Template, error)
	// Put replaces the stored template with t.ID by t. ErrNotFound when
	// t.ID is unknown (or 0); nothing is then written.
	Put(ctx context.Context, t Template) error
	// Delete removes the templates with ids. Unknown ids are ignored, so a
	// nil or empty ids removes nothing and returns nil. It removes no
	// other template: variants are the caller's business.
	Delete(ctx context.Context, ids []int64) error

	// SyncMark returns the last acknowledged field state; the zero
	// SyncMark when none was recorded.
	SyncMark(ctx context.Context) (SyncMark, error)
	// SetSyncMark records m as the acknowledged field state, replacing
	// the previous one; the zero SyncMark clears it.
	SetSyncMark(ctx context.Context, m SyncMark) error

	// Atomic runs fn as one unit of work over the Store it passes to fn,
	// which fn must use for all its reads and writes (calling the outer
	// Store from fn may deadlock, and its writes would not be part of the
	// unit). Either all of fn's writes are kept or none is: none when fn
	// returns an error (returned as is), when fn panics (the panic goes
	// on), or when ctx is done by the time fn returns (ctx.Err() is
	// returned). When ctx is done before fn would start, fn is not called.
	// fn's reads see its own writes; concurrent units, also of other
	// processes sharing the same database, never interleave: each behaves
	// as if it ran alone, and reads outside a unit never see part of one.
	//
	// The Store fn receives is valid only until fn returns and only on
	// fn's goroutine. Calling its Atomic runs a nested unit: its writes are
	// undone when its own fn fails, and kept only when the outer unit's
	// are.
	Atomic(ctx context.Context, fn func(ctx context.Context, s Store) error) error
}

// Ptr returns a pointer to v, for the optional fields of Patch and the
// option structs.
func Ptr[T any](v T) *T { return &v }
