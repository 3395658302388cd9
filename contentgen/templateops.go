package contentgen

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/contentgen/contentgen/templates"
)

// Template operations: thin wrappers over the template store that check
// post types and taxonomies against the site, record the current field
// signature on every save (so that stale detection works) and translate
// the store's errors into the error model.

// Templates returns the template store.
func (g *Generator) Templates() templates.Store { return g.tmpl }

// TemplateQuery selects templates for ListTemplates.
type TemplateQuery struct {
	// PostType keeps the templates of one post type; "" keeps all.
	PostType string
	// IsSystem keeps system (true) or user (false) templates; nil keeps
	// both.
	IsSystem *bool
}

// AdapterPostType is what ListTemplates reports about one post type: its
// custom field names, its taxonomies and the adapters defining it (the
// winning one first).
type AdapterPostType struct {
	Fields     []string `json:"fields"`
	Taxonomies []string `json:"taxonomies"`
	Adapters   []string `json:"adapters"`
}

// TemplateList is what GET /templates reports.
type TemplateList struct {
	Success bool `json:"success"`
	// Templates are the matching templates without their field_config.
	Templates []templates.Summary `json:"templates"`
	Total     int                 `json:"total"`
	// Stale lists the matching templates whose post type's fields changed
	// since they were saved.
	Stale []templates.StaleTemplate `json:"stale"`
	// AdapterInfo maps each content type (or the one asked for) to its
	// fields, taxonomies and adapters.
	AdapterInfo map[string]AdapterPostType `json:"adapter_info"`
}

// ListTemplates lists templates with the stale ones and what the field
// adapters define per post type.
func (g *Generator) ListTemplates(ctx context.Context, q TemplateQuery) (*TemplateList, error) {
	list, err := g.tmpl.List(ctx, templates.Filter{PostType: q.PostType, IsSystem: q.IsSystem})
	if err != nil {
		return nil, storeErr(err)
	}
	out := &TemplateList{Success: true, Templates: make([]templates.Summary, len(list)), Total: len(list),
		Stale: []templates.StaleTemplate{}, AdapterInfo: map[string]AdapterPostType{}}
	listed := map[int64]bool{}
	for i, t := range list {
		out.Templates[i] = templates.Summary(t)
		listed[t.ID] = true
	}
	types, err := g.host.PostTypes(ctx)
	if err != nil {
		return nil, failed(err, "listing post types")
	}
	defined := map[string][]string{}
	if g.adapters != nil {
		if defined, err = g.adapters.PostTypes(ctx); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			g.log.Warn("contentgen: field adapters could not list their post types", "err", err)
			defined = map[string][]string{}
		}
	}
	current := map[string]templates.Signature{}
	for i := range types {
		pt := &types[i]
		if pt.Internal || q.PostType != "" && pt.Name != q.PostType {
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
		fields := pf.Fields()
		current[pt.Name] = templates.SignatureOf(fields)
		if !pt.Public && len(defined[pt.Name]) == 0 {
			continue
		}
		info := AdapterPostType{Fields: []string{}, Taxonomies: slices.Clone(pt.Taxonomies), Adapters: slices.Clone(defined[pt.Name])}
		for _, f := range fields {
			info.Fields = append(info.Fields, f.Name)
		}
		if info.Taxonomies == nil {
			info.Taxonomies = []string{}
		}
		if info.Adapters == nil {
			info.Adapters = []string{}
		}
		out.AdapterInfo[pt.Name] = info
	}
	stale, err := templates.Stale(ctx, g.tmpl, current)
	if err != nil {
		return nil, storeErr(err)
	}
	for _, s := range stale {
		if listed[s.ID] {
			normalizeStale(&s)
			out.Stale = append(out.Stale, s)
		}
	}
	return out, nil
}

// checkTemplateID rejects ids that cannot name a template.
func checkTemplateID(id int64) error {
	if id <= 0 {
		return invalid("id", "id must be a positive integer, got %d", id)
	}
	return nil
}

// Template returns the template with id as stored, with its linked
// parents; CodeNotFound when there is none.
func (g *Generator) Template(ctx context.Context, id int64) (templates.Template, error) {
	if err := checkTemplateID(id); err != nil {
		return templates.Template{}, err
	}
	t, err := g.tmpl.Get(ctx, id)
	return t, storeErr(err)
}

// EffectiveTemplate returns the template with id with a variant's
// overrides merged over its parents: the configuration generation uses.
func (g *Generator) EffectiveTemplate(ctx context.Context, id int64) (templates.Template, error) {
	if err := checkTemplateID(id); err != nil {
		return templates.Template{}, err
	}
	t, err := g.tmpl.Effective(ctx, id)
	return t, storeErr(err)
}

// signature returns the current field signature of postType, nil (no
// signature recorded) when its fields cannot be read.
func (g *Generator) signature(ctx context.Context, postType string) templates.Signature {
	pf, err := g.postTypeFields(ctx, postType)
	if err != nil {
		g.log.Warn("contentgen: custom fields could not be read; template saved without field signature", "post_type", postType, "err", err)
		return nil
	}
	return templates.SignatureOf(pf.Fields())
}

// CreateTemplate validates in against the site and stores it as a new
// user template, recording the post type's current field signature.
// Missing or invalid properties give invalid_parameter naming them; an
// unregistered post type gives invalid_post_type.
func (g *Generator) CreateTemplate(ctx context.Context, in templates.Input) (templates.Template, error) {
	if err := in.Validate(); err != nil {
		return templates.Template{}, storeErr(err)
	}
	pt, err := g.postType(ctx, in.PostType)
	if err != nil {
		return templates.Template{}, err
	}
	if err := g.checkTaxonomyConfig(ctx, pt, in.TaxonomyConfig); err != nil {
		return templates.Template{}, err
	}
	in.FieldSignature = g.signature(ctx, pt.Name)
	t, err := g.tmpl.Create(ctx, in)
	return t, storeErr(err)
}

// UpdateTemplate applies the properties p sets to the template with id
// and records the post type's current field signature, so that the
// template is no longer stale. Changing post_type is rejected.
func (g *Generator) UpdateTemplate(ctx context.Context, id int64, p templates.Patch) (templates.Template, error) {
	if err := checkTemplateID(id); err != nil {
		return templates.Template{}, err
	}
	cur, err := g.tmpl.Get(ctx, id)
	if err != nil {
		return templates.Template{}, storeErr(err)
	}
	if err := p.Validate(); err != nil {
		return templates.Template{}, storeErr(err)
	}
	if p.TaxonomyConfig != nil {
		if pt, err := g.postType(ctx, cur.PostType); err == nil {
			if err := g.checkTaxonomyConfig(ctx, pt, p.TaxonomyConfig); err != nil {
				return templates.Template{}, err
			}
		}
	}
	p.FieldSignature = g.signature(ctx, cur.PostType)
	t, err := g.tmpl.Update(ctx, id, p)
	return t, storeErr(err)
}

// DeleteTemplate deletes the template with id and its variants. When it
// was its post type's default, newDefaultID (if not 0) becomes the
// default.
func (g *Generator) DeleteTemplate(ctx context.Context, id, newDefaultID int64) (templates.DeleteResult, error) {
	if err := checkTemplateID(id); err != nil {
		return templates.DeleteResult{}, err
	}
	if newDefaultID < 0 {
		return templates.DeleteResult{}, invalid("new_default_id", "new_default_id must be a positive integer, got %d", newDefaultID)
	}
	res, err := g.tmpl.Delete(ctx, id, newDefaultID)
	return res, storeErr(err)
}

// SetDefaultTemplate makes the template with id its post type's only
// default.
func (g *Generator) SetDefaultTemplate(ctx context.Context, id int64) (templates.Template, error) {
	if err := checkTemplateID(id); err != nil {
		return templates.Template{}, err
	}
	t, err := g.tmpl.SetDefault(ctx, id)
	return t, storeErr(err)
}

// DuplicateTemplate copies the template with id into a new user template
// named name + " (Copy)" that is not the default.
func (g *Generator) DuplicateTemplate(ctx context.Context, id int64) (templates.Template, error) {
	if err := checkTemplateID(id); err != nil {
		return templates.Template{}, err
	}
	t, err := g.tmpl.Duplicate(ctx, id)
	return t, storeErr(err)
}

// CreateTemplateVariant creates a variant of the template parentID. p may
// name it and set the overrides it stores; the zero Patch gives a variant
// named after its parent that overrides nothing.
func (g *Generator) CreateTemplateVariant(ctx context.Context, parentID int64, p templates.Patch) (templates.Template, error) {
	if err := checkTemplateID(parentID); err != nil {
		return templates.Template{}, err
	}
	parent, err := g.tmpl.Get(ctx, parentID)
	if err != nil {
		return templates.Template{}, storeErr(err)
	}
	if err := p.Validate(); err != nil {
		return templates.Template{}, storeErr(err)
	}
	if p.TaxonomyConfig != nil {
		if pt, err := g.postType(ctx, parent.PostType); err == nil {
			if err := g.checkTaxonomyConfig(ctx, pt, p.TaxonomyConfig); err != nil {
				return templates.Template{}, err
			}
		}
	}
	t, err := g.tmpl.CreateVariant(ctx, parentID, p)
	return t, storeErr(err)
}

// ExportTemplates exports the selected templates in the "1.0" format,
// stamped with the Generator's clock. An unknown id gives CodeNotFound
// naming ids.
func (g *Generator) ExportTemplates(ctx context.Context, sel templates.ExportSelection) (templates.Export, error) {
	for _, id := range sel.IDs {
		if id <= 0 {
			return templates.Export{}, invalid("ids", "ids must be positive integers, got %d", id)
		}
	}
	exp, err := templates.ExportTemplates(ctx, g.tmpl, sel, g.now())
	if err != nil {
		err = storeErr(err)
		if CodeOf(err) == CodeNotFound {
			return templates.Export{}, Errorf(CodeNotFound, "ids", "ids names a template that does not exist")
		}
		return templates.Export{}, err
	}
	return exp, nil
}

// ImportTemplates imports the templates array of an export (the body of
// POST /templates/import). Each item is checked in full, including its
// post type and taxonomies against the site, and imported whole or not at
// all; the result reports every item. A body without a templates array
// gives invalid_parameter naming templates.
func (g *Generator) ImportTemplates(ctx context.Context, body []byte) (templates.ImportResult, error) {
	items, err := templates.ParseImport(body)
	if err != nil {
		return templates.ImportResult{}, storeErr(err)
	}
	sigs := map[string]templates.Signature{}
	for i := range items {
		it := &items[i]
		if it.Err != nil {
			continue
		}
		param := fmt.Sprintf("templates[%d]", i)
		pt, err := g.postType(ctx, it.Template.PostType)
		if err != nil {
			if CodeOf(err) != CodeInvalidPostType {
				return templates.ImportResult{}, err
			}
			if it.Template.PostType == "" {
				continue // the store's validation reports the missing post_type
			}
			it.Err = &templates.ParamError{Param: param + ".post_type", Message: fmt.Sprintf("post_type %q is not a registered post type", it.Template.PostType)}
			continue
		}
		if err := it.Template.TaxonomyConfig.Validate(); err == nil {
			if err := g.checkTaxonomyConfig(ctx, pt, it.Template.TaxonomyConfig); err != nil {
				var ce *Error
				if !errors.As(err, &ce) || ce.Code == CodeGenerationFailed {
					return templates.ImportResult{}, err
				}
				it.Err = &templates.ParamError{Param: param + "." + ce.Param, Message: ce.Message}
				continue
			}
		}
		if _, ok := sigs[pt.Name]; !ok {
			sigs[pt.Name] = g.signature(ctx, pt.Name)
		}
	}
	res, err := templates.ImportTemplates(ctx, g.tmpl, items, func(pt string) templates.Signature { return sigs[pt] })
	if err != nil {
		return res, storeErr(err)
	}
	return res, nil
}

// currentSignatures returns the field signature of every registered post
// type whose fields can be read.
func (g *Generator) currentSignatures(ctx context.Context) (map[string]templates.Signature, error) {
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

// StaleTemplates lists the templates whose post type's custom fields
// changed since they were last saved.
func (g *Generator) StaleTemplates(ctx context.Context) ([]templates.StaleTemplate, error) {
	cur, err := g.currentSignatures(ctx)
	if err != nil {
		return nil, err
	}
	stale, err := templates.Stale(ctx, g.tmpl, cur)
	if err != nil {
		return nil, storeErr(err)
	}
	if stale == nil {
		stale = []templates.StaleTemplate{}
	}
	for i := range stale {
		normalizeStale(&stale[i])
	}
	return stale, nil
}

// SyncStatus reports whether templates are in sync with the post types'
// fields and whether changes are waiting to be acknowledged.
func (g *Generator) SyncStatus(ctx context.Context) (templates.SyncStatus, error) {
	cur, err := g.currentSignatures(ctx)
	if err != nil {
		return templates.SyncStatus{}, err
	}
	st, err := templates.Status(ctx, g.tmpl, cur)
	return normalizeStatus(st), storeErr(err)
}

// MarkSyncSeen acknowledges the current fields of every post type, so
// that HasUnseenChanges turns false until they change again, and returns
// the resulting status.
func (g *Generator) MarkSyncSeen(ctx context.Context) (templates.SyncStatus, error) {
	cur, err := g.currentSignatures(ctx)
	if err != nil {
		return templates.SyncStatus{}, err
	}
	st, err := templates.MarkSeen(ctx, g.tmpl, cur, g.now())
	return normalizeStatus(st), storeErr(err)
}

// normalizeStatus turns nil lists into empty ones for JSON.
func normalizeStatus(st templates.SyncStatus) templates.SyncStatus {
	if st.ChangedPostTypes == nil {
		st.ChangedPostTypes = []string{}
	}
	if st.UnseenPostTypes == nil {
		st.UnseenPostTypes = []string{}
	}
	if st.Stale == nil {
		st.Stale = []templates.StaleTemplate{}
	}
	for i := range st.Stale {
		normalizeStale(&st.Stale[i])
	}
	return st
}

func normalizeStale(s *templates.StaleTemplate) {
	for _, l := range []*[]string{&s.AddedFields, &s.RemovedFields, &s.ChangedFields} {
		if *l == nil {
			*l = []string{}
		}
	}
}

// sortedNames returns the keys of m in order.
func sortedNames[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

// TemplateSaved confirms the creation (created true) or an update of a
// template.
func (m Messages) TemplateSaved(name string, created bool) string {
	switch {
	case m.de() && created:
		return fmt.Sprintf("Vorlage %q erstellt.", name)
	case m.de():
		return fmt.Sprintf("Vorlage %q gespeichert.", name)
	case created:
		return fmt.Sprintf("Template %q created.", name)
	}
	return fmt.Sprintf("Template %q updated.", name)
}

// TemplateDeleted confirms the deletion of a template and its variants.
func (m Messages) TemplateDeleted(variants int) string {
	if m.de() {
		if variants > 0 {
			return fmt.Sprintf("Vorlage gelöscht, dazu %s.", count(variants, "Variante", "Varianten"))
		}
		return "Vorlage gelöscht."
	}
	if variants > 0 {
		return fmt.Sprintf("Template deleted with %s.", count(variants, "variant", "variants"))
	}
	return "Template deleted."
}

// TemplateDefault confirms that a template became its post type's
// default.
func (m Messages) TemplateDefault(name, postType string) string {
	if m.de() {
		return fmt.Sprintf("%q ist jetzt die Standardvorlage für %s.", name, postType)
	}
	return fmt.Sprintf("%q is now the default template of %s.", name, postType)
}

// TemplateDuplicated confirms a duplicate.
func (m Messages) TemplateDuplicated(name string) string {
	if m.de() {
		return fmt.Sprintf("Vorlage als %q dupliziert.", name)
	}
	return fmt.Sprintf("Template duplicated as %q.", name)
}

// VariantCreated confirms a new variant.
func (m Messages) VariantCreated(name string) string {
	if m.de() {
		return fmt.Sprintf("Variante %q erstellt.", name)
	}
	return fmt.Sprintf("Variant %q created.", name)
}

// TemplatesImported summarises an import.
func (m Messages) TemplatesImported(imported, failed int) string {
	if m.de() {
		return fmt.Sprintf("%s importiert, %d fehlgeschlagen.", count(imported, "Vorlage", "Vorlagen"), failed)
	}
	return fmt.Sprintf("Imported %s, %d failed.", count(imported, "template", "templates"), failed)
}

// SyncSeen confirms POST /sync/mark-seen.
func (m Messages) SyncSeen() string {
	if m.de() {
		return "Feldänderungen als gesehen markiert."
	}
	return "Field changes marked as seen."
}

// EnsureSystemTemplates installs starter templates as system templates
// (see templates.Store.EnsureSystem), each with its post type's current
// field signature, skipping those already installed, so that it can run
// at every start. Every post type must be registered.
func (g *Generator) EnsureSystemTemplates(ctx context.Context, ins []templates.Input) ([]templates.Template, error) {
	ins = slices.Clone(ins)
	for i := range ins {
		if err := ins[i].Validate(); err != nil {
			return nil, storeErr(err)
		}
		if _, err := g.postType(ctx, ins[i].PostType); err != nil {
			return nil, err
		}
		ins[i].FieldSignature = g.signature(ctx, ins[i].PostType)
	}
	out, err := g.tmpl.EnsureSystem(ctx, ins)
	return out, storeErr(err)
}
