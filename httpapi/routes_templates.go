package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
)

// templateRoutes registers the template, custom field, dependency and
// sync endpoints.
func (a *API) templateRoutes() {
	a.handle("GET /templates", a.listTemplates)
	a.handle("POST /templates", a.createTemplate)
	a.handle("GET /templates/export", a.exportTemplates)
	a.handle("POST /templates/import", a.importTemplates)
	a.handle("GET /templates/stale", a.staleTemplates)
	a.handle("GET /templates/{id}", a.getTemplate)
	a.handle("PUT /templates/{id}", a.updateTemplate)
	a.handle("DELETE /templates/{id}", a.deleteTemplate)
	a.handle("POST /templates/{id}/default", a.defaultTemplate)
	a.handle("POST /templates/{id}/duplicate", a.duplicateTemplate)
	a.handle("POST /templates/{id}/variant", a.variantTemplate)
	// GET /templates/{id}/effective-config, /templates/fields/{post_type}
	// and /templates/taxonomies/{post_type} overlap as patterns; one route
	// tells them apart.
	a.handle("GET /templates/{first}/{second}", a.templateSubresource)

	a.handle("GET /fields/{post_type}", a.customFields)
	a.handle("GET /field-plugins", a.fieldPlugins)
	a.handle("GET /detected-plugins", a.detectedPlugins)
	a.handle("GET /dependencies/{post_type}", a.dependencies)
	a.handle("GET /field-schema/{field_type}", a.fieldSchema)
	a.handle("GET /sync/status", a.syncStatus)
	a.handle("POST /sync/mark-seen", a.syncMarkSeen)
}

// templateBody is the answer of the endpoints that return one template.
type templateBody struct {
	Success  bool           `json:"success"`
	Message  string         `json:"message,omitempty"`
	Template templateRecord `json:"template"`
}

// adapterPostType is what GET /templates reports about one post type:
// its custom field names, its taxonomies and the adapters defining it
// (the winning one first).
type adapterPostType struct {
	Fields     []string `json:"fields"`
	Taxonomies []string `json:"taxonomies"`
	Adapters   []string `json:"adapters"`
}

func (a *API) listTemplates(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	f := templates.Filter{PostType: q.str("post_type")}
	if q.has("is_system") {
		v := q.boolean("is_system", false)
		f.IsSystem = &v
	}
	if q.err != nil {
		return q.err
	}
	ctx := r.Context()
	list, err := a.g.Templates().List(ctx, f)
	if err != nil {
		return err
	}
	sync, err := a.g.Templates().Sync(ctx)
	if err != nil {
		return err
	}
	listed := map[int64]bool{}
	summaries := make([]templateRecord, len(list))
	for i := range list {
		summaries[i] = newTemplateSummary(&list[i])
		listed[list[i].ID] = true
	}
	stale := []staleRecord{}
	for i := range sync.Stale {
		if listed[sync.Stale[i].ID] {
			stale = append(stale, newStaleRecord(&sync.Stale[i]))
		}
	}
	info, err := a.adapterInfo(r, f.PostType)
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success     bool                       `json:"success"`
		Templates   []templateRecord           `json:"templates"`
		Total       int                        `json:"total"`
		Stale       []staleRecord              `json:"stale"`
		AdapterInfo map[string]adapterPostType `json:"adapter_info"`
	}{true, summaries, len(list), stale, info})
}

// adapterInfo maps each post type (or the one asked for) that is public or
// defined by a field adapter to its fields, taxonomies and adapters.
func (a *API) adapterInfo(r *http.Request, only string) (map[string]adapterPostType, error) {
	ctx := r.Context()
	types, err := a.g.Content().PostTypes(ctx)
	if err != nil {
		return nil, err
	}
	reg := a.g.Templates().Adapters()
	defined := map[string][]string{}
	if reg != nil {
		if defined, err = reg.PostTypes(ctx); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			a.log.WarnContext(ctx, "httpapi: field adapters could not list their post types", "err", err)
			defined = map[string][]string{}
		}
	}
	out := map[string]adapterPostType{}
	for i := range types {
		pt := &types[i]
		if pt.Internal || only != "" && pt.Name != only || !pt.Public && len(defined[pt.Name]) == 0 {
			continue
		}
		info := adapterPostType{Fields: []string{}, Taxonomies: nonNil(slices.Clone(pt.Taxonomies)), Adapters: nonNil(slices.Clone(defined[pt.Name]))}
		if reg != nil {
			pf, err := reg.Fields(ctx, pt.Name)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				a.log.WarnContext(ctx, "httpapi: custom fields could not be read", "post_type", pt.Name, "err", err)
				continue
			}
			for _, fl := range pf.Fields() {
				info.Fields = append(info.Fields, fl.Name)
			}
		}
		out[pt.Name] = info
	}
	return out, nil
}

func (a *API) getTemplate(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	t, err := a.g.Templates().Get(r.Context(), id)
	if err != nil {
		return err
	}
	return ok(w, templateBody{Success: true, Template: newTemplateRecord(&t)})
}

func (a *API) createTemplate(w http.ResponseWriter, r *http.Request) error {
	var in templates.Input
	if err := decodeJSON(w, r, a.maxBody, &in); err != nil {
		return err
	}
	t, err := a.g.Templates().Create(r.Context(), in)
	if err != nil {
		return err
	}
	return ok(w, templateBody{true, a.messages(r.Context()).TemplateSaved(t.Name, true), newTemplateRecord(&t)})
}

func (a *API) updateTemplate(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var p templates.Patch
	if err := decodeJSON(w, r, a.maxBody, &p); err != nil {
		return err
	}
	t, err := a.g.Templates().Update(r.Context(), id, p)
	if err != nil {
		return err
	}
	return ok(w, templateBody{true, a.messages(r.Context()).TemplateSaved(t.Name, false), newTemplateRecord(&t)})
}

func (a *API) deleteTemplate(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	q := newQuery(r)
	heir := q.int64Ptr("new_default_id")
	if q.err != nil {
		return q.err
	}
	// The parameter may also come in a JSON body.
	body := struct {
		NewDefaultID *int64 `json:"new_default_id"`
	}{}
	if err := decodeJSON(w, r, a.maxBody, &body); err != nil {
		return err
	}
	if heir == nil {
		heir = body.NewDefaultID
	}
	var newDefault int64
	if heir != nil {
		if *heir <= 0 {
			return paramError("new_default_id", "new_default_id must be a positive integer, got %d", *heir)
		}
		newDefault = *heir
	}
	variants, err := a.g.Templates().Delete(r.Context(), id, newDefault)
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success         bool   `json:"success"`
		Message         string `json:"message"`
		VariantsDeleted int    `json:"variants_deleted"`
	}{true, a.messages(r.Context()).TemplateDeleted(variants), variants})
}

func (a *API) defaultTemplate(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	t, err := a.g.Templates().SetDefault(r.Context(), id)
	if err != nil {
		return err
	}
	return ok(w, templateBody{true, a.messages(r.Context()).TemplateDefault(t.Name, t.PostType), newTemplateRecord(&t)})
}

func (a *API) duplicateTemplate(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	t, err := a.g.Templates().Duplicate(r.Context(), id)
	if err != nil {
		return err
	}
	return ok(w, templateBody{true, a.messages(r.Context()).TemplateDuplicated(t.Name), newTemplateRecord(&t)})
}

// variantTemplate creates a variant; a body, when sent, may name it and
// set its overrides like an update.
func (a *API) variantTemplate(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	var p templates.Patch
	if err := decodeJSON(w, r, a.maxBody, &p); err != nil {
		return err
	}
	t, err := a.g.Templates().CreateVariant(r.Context(), id, p)
	if err != nil {
		return err
	}
	return ok(w, templateBody{true, a.messages(r.Context()).VariantCreated(t.Name), newTemplateRecord(&t)})
}

func (a *API) templateSubresource(w http.ResponseWriter, r *http.Request) error {
	first, second := r.PathValue("first"), r.PathValue("second")
	switch {
	case first == "fields":
		return a.templateFields(w, r, second)
	case first == "taxonomies":
		return a.templateTaxonomies(w, r, second)
	case second == "effective-config":
		return a.effectiveConfig(w, r)
	}
	return contentgen.Errorf(contentgen.CodeNotFound, "", "%s", a.messages(r.Context()).NoRoute())
}

func (a *API) effectiveConfig(w http.ResponseWriter, r *http.Request) error {
	id, err := pathIDOf(r, "first", "id")
	if err != nil {
		return err
	}
	t, err := a.g.Templates().Effective(r.Context(), id)
	if err != nil {
		return err
	}
	tc := t.TaxonomyConfig
	if tc == nil {
		tc = templates.TaxonomyConfig{}
	}
	return ok(w, struct {
		Success        bool                     `json:"success"`
		TemplateID     int64                    `json:"template_id"`
		PostType       string                   `json:"post_type"`
		IsVariant      bool                     `json:"is_variant"`
		ParentID       *int64                   `json:"parent_id"`
		FieldConfig    templates.FieldConfig    `json:"field_config"`
		TaxonomyConfig templates.TaxonomyConfig `json:"taxonomy_config"`
	}{true, t.ID, t.PostType, t.ParentID != 0, optionalID(t.ParentID), t.FieldConfig, tc})
}

func optionalID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// taxonomyOption is a taxonomy a template can configure, with the modes
// of its setting.
type taxonomyOption struct {
	taxonomyRecord
	Modes []string `json:"modes"`
}

func (a *API) templateTaxonomies(w http.ResponseWriter, r *http.Request, postType string) error {
	pt, err := a.postType(r, postType)
	if err != nil {
		return err
	}
	taxes, err := a.g.Content().Taxonomies(r.Context())
	if err != nil {
		return err
	}
	out := []taxonomyOption{}
	for i := range taxes {
		t := &taxes[i]
		if slices.Contains(pt.Taxonomies, t.Name) || slices.Contains(t.PostTypes, pt.Name) {
			out = append(out, taxonomyOption{newTaxonomyRecord(t), []string{templates.ModeNone, templates.ModeChoose, templates.ModeCreate}})
		}
	}
	return ok(w, struct {
		Success    bool             `json:"success"`
		PostType   string           `json:"post_type"`
		Taxonomies []taxonomyOption `json:"taxonomies"`
		Count      int              `json:"count"`
	}{true, pt.Name, out, len(out)})
}

// customFieldGroup is the custom fields of one adapter.
type customFieldGroup struct {
	GroupTitle string                `json:"group_title"`
	Fields     []templates.FieldInfo `json:"fields"`
}

// templateFields answers GET /templates/fields/{post_type}: the core and
// custom fields a template of the post type can configure, with their
// modes and default settings.
func (a *API) templateFields(w http.ResponseWriter, r *http.Request, postType string) error {
	pt, err := a.postType(r, postType)
	if err != nil {
		return err
	}
	pf, defs, err := a.g.Templates().Fields(r.Context(), pt.Name)
	if err != nil {
		return err
	}
	core := map[string]templates.FieldInfo{}
	for _, f := range fields.SupportedCoreFields(pt.Supports) {
		core[f.Name] = templates.DescribeField(&f)
	}
	custom := map[string]customFieldGroup{}
	if len(defs) > 0 {
		titles := make([]string, 0, len(pf.Groups))
		for _, gr := range pf.Groups {
			if gr.Title != "" && !slices.Contains(titles, gr.Title) {
				titles = append(titles, gr.Title)
			}
		}
		grp := customFieldGroup{GroupTitle: strings.Join(titles, ", "), Fields: make([]templates.FieldInfo, len(defs))}
		for i := range defs {
			grp.Fields[i] = templates.DescribeField(&defs[i])
		}
		custom[pf.Adapter.Slug] = grp
	}
	return ok(w, struct {
		Success      bool                           `json:"success"`
		PostType     string                         `json:"post_type"`
		CoreFields   map[string]templates.FieldInfo `json:"core_fields"`
		CustomFields map[string]customFieldGroup    `json:"custom_fields"`
	}{true, pt.Name, core, custom})
}

func (a *API) exportTemplates(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	var sel templates.ExportSelection
	for _, s := range q.list("ids") {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			return paramError("ids", "ids must be positive integers, got %q", s)
		}
		sel.IDs = append(sel.IDs, id)
	}
	sel.PostType = q.str("post_type")
	exp, err := a.g.Templates().Export(r.Context(), sel)
	if err != nil {
		return err
	}
	b, err := json.Marshal(exp)
	if err != nil {
		return err
	}
	// The export record with the success flag of the envelope in front.
	body := append([]byte(`{"success":true,`), b[1:]...)
	return ok(w, json.RawMessage(body))
}

func (a *API) importTemplates(w http.ResponseWriter, r *http.Request) error {
	body, err := readBody(w, r, a.maxBody)
	if err != nil {
		return err
	}
	res, err := a.g.Templates().Import(r.Context(), body)
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success bool               `json:"success"`
		Message string             `json:"message"`
		Results []importItemRecord `json:"results"`
	}{res.Imported > 0 || res.Failed == 0, a.messages(r.Context()).TemplatesImported(res.Imported, res.Failed), newImportItemRecords(res.Results)})
}

func (a *API) staleTemplates(w http.ResponseWriter, r *http.Request) error {
	st, err := a.g.Templates().Sync(r.Context())
	if err != nil {
		return err
	}
	stale := newStaleRecords(st.Stale)
	return ok(w, struct {
		Success bool          `json:"success"`
		Stale   []staleRecord `json:"stale"`
		Count   int           `json:"count"`
	}{true, stale, len(stale)})
}

func (a *API) customFields(w http.ResponseWriter, r *http.Request) error {
	pt := r.PathValue("post_type")
	_, defs, err := a.g.Templates().Fields(r.Context(), pt)
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success  bool           `json:"success"`
		PostType string         `json:"post_type"`
		Fields   []fields.Field `json:"fields"`
		Count    int            `json:"count"`
	}{true, pt, defs, len(defs)})
}

func (a *API) fieldPlugins(w http.ResponseWriter, r *http.Request) error {
	out := struct {
		Success  bool                 `json:"success"`
		Adapters []fields.AdapterInfo `json:"adapters"`
		Primary  *string              `json:"primary"`
	}{Success: true, Adapters: []fields.AdapterInfo{}}
	if reg := a.g.Templates().Adapters(); reg != nil {
		out.Adapters = append(out.Adapters, reg.Adapters()...)
		if p, ok := reg.Primary(); ok {
			out.Primary = &p.Name
		}
	}
	return ok(w, out)
}

// detectedPlugin is a field plugin found on the site, active or not.
type detectedPlugin struct {
	Name    string `json:"name"`
	Slug    string `json:"slug"`
	Version string `json:"version"`
	Active  bool   `json:"active"`
}

func (a *API) detectedPlugins(w http.ResponseWriter, r *http.Request) error {
	plugins := []detectedPlugin{}
	var summary struct {
		Total    int `json:"total"`
		Active   int `json:"active"`
		Inactive int `json:"inactive"`
	}
	if reg := a.g.Templates().Adapters(); reg != nil {
		for _, ad := range reg.Adapters() {
			plugins = append(plugins, detectedPlugin{Name: ad.Name, Slug: ad.Slug, Version: ad.Version, Active: ad.Active})
			if ad.Active {
				summary.Active++
			} else {
				summary.Inactive++
			}
		}
	}
	summary.Total = len(plugins)
	return ok(w, struct {
		Success bool             `json:"success"`
		Plugins []detectedPlugin `json:"plugins"`
		Summary any              `json:"summary"`
	}{true, plugins, summary})
}

func (a *API) dependencies(w http.ResponseWriter, r *http.Request) error {
	rep, err := a.g.Templates().Dependencies(r.Context(), r.PathValue("post_type"))
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success bool `json:"success"`
		dependencyReport
	}{true, newDependencyReport(&rep)})
}

func (a *API) fieldSchema(w http.ResponseWriter, r *http.Request) error {
	ft := r.PathValue("field_type")
	s, found := templates.SchemaFor(ft)
	if !found {
		return paramError("field_type", "field_type %q is not supported; supported types: %s", ft, strings.Join(fields.Types(), ", "))
	}
	return ok(w, struct {
		Success bool `json:"success"`
		templates.FieldSchema
	}{true, s})
}

// syncBody is the answer of the sync endpoints.
type syncBody struct {
	Success bool   `json:"success"`
	Message string `json:"message,omitempty"`
	syncRecord
}

func (a *API) syncStatus(w http.ResponseWriter, r *http.Request) error {
	st, err := a.g.Templates().Sync(r.Context())
	if err != nil {
		return err
	}
	return ok(w, syncBody{Success: true, syncRecord: newSyncRecord(&st)})
}

func (a *API) syncMarkSeen(w http.ResponseWriter, r *http.Request) error {
	st, err := a.g.Templates().MarkSeen(r.Context())
	if err != nil {
		return err
	}
	return ok(w, syncBody{true, a.messages(r.Context()).SyncSeen(), newSyncRecord(&st)})
}

// pathIDOf parses the numeric path segment name, reporting errors under
// param.
func pathIDOf(r *http.Request, name, param string) (int64, error) {
	s := r.PathValue(name)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, paramError(param, "%s must be a positive integer, got %q", param, s)
	}
	return n, nil
}

// readBody reads a size-limited request body for decoders that need the
// raw bytes.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, contentgen.Errorf(codeTooLarge, "body", "request body is larger than %d bytes", mbe.Limit)
		}
		return nil, paramError("body", "request body could not be read")
	}
	body = bytes.TrimSpace(body)
	if err := bodyNUL(body); err != nil {
		return nil, err
	}
	return body, nil
}
