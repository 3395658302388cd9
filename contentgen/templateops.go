package contentgen

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/contentgen/contentgen/templates"
)

// TemplatesService keeps saved templates and describes the custom fields
// they configure. It checks templates against the site (post types,
// taxonomies), records the fields each was saved with so that Sync
// notices when a post type's fields change, and reports every failure as
// an *Error.
type TemplatesService struct {
	g   *Generator
	lib *templates.Library
}

// newTemplates returns the templates service over the configured store.
func newTemplates(g *Generator) *TemplatesService {
	t := &TemplatesService{g: g}
	t.lib = templates.NewLibrary(g.cfg.Templates, &templates.LibraryOptions{
		Now:       g.now,
		Check:     t.check,
		Signature: t.signature,
	})
	return t
}

// check is the Library's site check: a registered post type, and a
// taxonomy configuration that names its taxonomies and existing terms.
// A fault of the template is a *templates.ParamError wrapping the *Error
// that found it, so that an import reports it per item and storeErr
// gives back that *Error unchanged.
func (t *TemplatesService) check(ctx context.Context, postType string, tc templates.TaxonomyConfig) error {
	pt, err := t.g.postType(ctx, postType)
	if err == nil {
		err = t.g.checkTaxonomyConfig(ctx, pt, tc)
	}
	var ce *Error
	if errors.As(err, &ce) && ce.Code != CodeGenerationFailed && ce.Code != CodeInternal {
		return &templates.ParamError{Param: ce.Param, Message: ce.Message, Err: ce}
	}
	return err
}

// The methods below are the boundary of the template library: it holds
// every rule about templates (ids, validation, defaults, variants), and
// storeErr turns its errors into *Error values, once, on the way out.

// storeResult returns v and err translated by storeErr.
func storeResult[T any](v T, err error) (T, error) { return v, storeErr(err) }

// List returns the templates f selects, ordered by id.
func (t *TemplatesService) List(ctx context.Context, f templates.Filter) ([]templates.Template, error) {
	return storeResult(t.lib.List(ctx, f))
}

// Get returns the template with id as stored, with its linked parents;
// CodeNotFound when there is none.
func (t *TemplatesService) Get(ctx context.Context, id int64) (templates.Template, error) {
	return storeResult(t.lib.Get(ctx, id))
}

// Effective returns the template with id with a variant's overrides
// merged over its parents: the configuration generation uses.
func (t *TemplatesService) Effective(ctx context.Context, id int64) (templates.Template, error) {
	return storeResult(t.lib.Effective(ctx, id))
}

// effective is Effective returning a pointer, for generation.
func (t *TemplatesService) effective(ctx context.Context, id int64) (*templates.Template, error) {
	tm, err := t.Effective(ctx, id)
	if err != nil {
		return nil, err
	}
	return &tm, nil
}

// defaultOf returns the effective default template of postType, nil when
// it has none.
func (t *TemplatesService) defaultOf(ctx context.Context, postType string) (*templates.Template, error) {
	list, err := t.List(ctx, templates.Filter{PostType: postType, DefaultOnly: true})
	if err != nil || len(list) == 0 {
		return nil, err
	}
	return t.effective(ctx, list[0].ID)
}

// signature returns the current field signature of postType, nil (no
// signature recorded) when its fields cannot be read.
func (t *TemplatesService) signature(ctx context.Context, postType string) templates.Signature {
	pf, err := t.g.postTypeFields(ctx, postType)
	if err != nil {
		t.g.log.Warn("contentgen: custom fields could not be read; template saved without field signature", "post_type", postType, "err", err)
		return nil
	}
	return templates.SignatureOf(pf.Fields())
}

// Create validates in against the site and stores it as a new user
// template, recording the post type's current field signature. Missing or
// invalid properties give invalid_parameter naming them; an unregistered
// post type gives invalid_post_type.
func (t *TemplatesService) Create(ctx context.Context, in templates.Input) (templates.Template, error) {
	return storeResult(t.lib.Create(ctx, in))
}

// Update applies the properties p sets to the template with id and
// records the post type's current field signature, so that the template
// is no longer stale. Changing post_type is rejected.
func (t *TemplatesService) Update(ctx context.Context, id int64, p templates.Patch) (templates.Template, error) {
	return storeResult(t.lib.Update(ctx, id, p))
}

// Delete deletes the template with id and its variants and returns how
// many variants went with it. When it was its post type's default,
// newDefaultID (if not 0) becomes the default.
func (t *TemplatesService) Delete(ctx context.Context, id, newDefaultID int64) (variants int, err error) {
	res, err := t.lib.Delete(ctx, id, newDefaultID)
	return res.VariantsDeleted, storeErr(err)
}

// SetDefault makes the template with id its post type's only default.
func (t *TemplatesService) SetDefault(ctx context.Context, id int64) (templates.Template, error) {
	return storeResult(t.lib.SetDefault(ctx, id))
}

// Duplicate copies the template with id into a new user template named
// name + " (Copy)" that is not the default.
func (t *TemplatesService) Duplicate(ctx context.Context, id int64) (templates.Template, error) {
	return storeResult(t.lib.Duplicate(ctx, id))
}

// CreateVariant creates a variant of the template parentID. p may name it
// and set the overrides it stores; the zero Patch gives a variant named
// after its parent that overrides nothing.
func (t *TemplatesService) CreateVariant(ctx context.Context, parentID int64, p templates.Patch) (templates.Template, error) {
	return storeResult(t.lib.CreateVariant(ctx, parentID, p))
}

// Export exports the selected templates in the "1.0" format, stamped with
// the Generator's clock. An unknown id gives CodeNotFound naming ids.
func (t *TemplatesService) Export(ctx context.Context, sel templates.ExportSelection) (templates.Export, error) {
	exp, err := t.lib.Export(ctx, sel)
	switch err = storeErr(err); {
	case err == nil:
		return exp, nil
	case codeOf(err) == CodeNotFound:
		err = Errorf(CodeNotFound, "ids", "ids names a template that does not exist")
	}
	return templates.Export{}, err
}

// Import imports the templates array of an export document. Each item is
// checked in full, including its post type and taxonomies against the
// site, and imported whole or not at all; the result reports every item.
// A document without a templates array gives invalid_parameter naming
// templates.
func (t *TemplatesService) Import(ctx context.Context, body []byte) (templates.ImportResult, error) {
	items, err := templates.ParseImport(body)
	if err != nil {
		return templates.ImportResult{}, storeErr(err)
	}
	return storeResult(t.lib.Import(ctx, items))
}

// currentSignatures returns the field signature of every registered post
// type whose fields can be read.
func (t *TemplatesService) currentSignatures(ctx context.Context) (map[string]templates.Signature, error) {
	g := t.g
	types, err := g.host.PostTypes(ctx)
	if err != nil {
		return nil, failed(err, "listing post types")
	}
	out := make(map[string]templates.Signature, len(types))
	for _, pt := range types {
		if pt.Internal {
			continue
		}
		pf, err := g.postTypeFields(ctx, pt.Name)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			g.log.Warn("contentgen: custom fields could not be read", "post_type", pt.Name, "err", err)
			continue
		}
		out[pt.Name] = templates.SignatureOf(pf.Fields())
	}
	return out, nil
}

// Sync reports whether templates are in sync with the post types' fields:
// the templates saved with other fields (Stale) and whether changes are
// waiting to be acknowledged.
func (t *TemplatesService) Sync(ctx context.Context) (templates.SyncStatus, error) {
	cur, err := t.currentSignatures(ctx)
	if err != nil {
		return templates.SyncStatus{}, err
	}
	return storeResult(t.lib.Status(ctx, cur))
}

// MarkSeen acknowledges the current fields of every post type, so that
// HasUnseenChanges turns false until they change again, and returns the
// resulting status.
func (t *TemplatesService) MarkSeen(ctx context.Context) (templates.SyncStatus, error) {
	cur, err := t.currentSignatures(ctx)
	if err != nil {
		return templates.SyncStatus{}, err
	}
	return storeResult(t.lib.MarkSeen(ctx, cur))
}

// EnsureSystem installs starter templates as system templates, each with
// its post type's current field signature, skipping those already
// installed, so that it can run at every start. Every post type must be
// registered.
func (t *TemplatesService) EnsureSystem(ctx context.Context, ins []templates.Input) ([]templates.Template, error) {
	for i := range ins {
		if err := ins[i].Validate(); err != nil {
			return nil, storeErr(err)
		}
		if _, err := t.g.postType(ctx, ins[i].PostType); err != nil {
			return nil, err
		}
	}
	return storeResult(t.lib.EnsureSystem(ctx, ins))
}

// sortedNames returns the keys of m in order.
func sortedNames[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
