package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/templates"
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
	Success  bool               `json:"success"`
	Message  string             `json:"message,omitempty"`
	Template templates.Template `json:"template"`
}

func (a *API) listTemplates(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	tq := contentgen.TemplateQuery{PostType: q.str("post_type")}
	if q.has("is_system") {
		v := q.boolean("is_system", false)
		tq.IsSystem = &v
	}
	if q.err != nil {
		return q.err
	}
	list, err := a.g.ListTemplates(r.Context(), tq)
	if err != nil {
		return err
	}
	return ok(w, list)
}

func (a *API) getTemplate(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	t, err := a.g.Template(r.Context(), id)
	if err != nil {
		return err
	}
	return ok(w, templateBody{Success: true, Template: t})
}

func (a *API) createTemplate(w http.ResponseWriter, r *http.Request) error {
	var in templates.Input
	if err := decodeJSON(w, r, a.maxBody, &in); err != nil {
		return err
	}
	t, err := a.g.CreateTemplate(r.Context(), in)
	if err != nil {
		return err
	}
	return ok(w, templateBody{true, a.g.Messages(r.Context()).TemplateSaved(t.Name, true), t})
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
	t, err := a.g.UpdateTemplate(r.Context(), id, p)
	if err != nil {
		return err
	}
	return ok(w, templateBody{true, a.g.Messages(r.Context()).TemplateSaved(t.Name, false), t})
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
	res, err := a.g.DeleteTemplate(r.Context(), id, newDefault)
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success         bool   `json:"success"`
		Message         string `json:"message"`
		VariantsDeleted int    `json:"variants_deleted"`
	}{true, a.g.Messages(r.Context()).TemplateDeleted(res.VariantsDeleted), res.VariantsDeleted})
}

func (a *API) defaultTemplate(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	t, err := a.g.SetDefaultTemplate(r.Context(), id)
	if err != nil {
		return err
	}
	return ok(w, templateBody{true, a.g.Messages(r.Context()).TemplateDefault(t.Name, t.PostType), t})
}

func (a *API) duplicateTemplate(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	t, err := a.g.DuplicateTemplate(r.Context(), id)
	if err != nil {
		return err
	}
	return ok(w, templateBody{true, a.g.Messages(r.Context()).TemplateDuplicated(t.Name), t})
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
	t, err := a.g.CreateTemplateVariant(r.Context(), id, p)
	if err != nil {
		return err
	}
	return ok(w, templateBody{true, a.g.Messages(r.Context()).VariantCreated(t.Name), t})
}

func (a *API) templateSubresource(w http.ResponseWriter, r *http.Request) error {
	first, second := r.PathValue("first"), r.PathValue("second")
	switch {
	case first == "fields":
		info, err := a.g.TemplateFields(r.Context(), second)
		if err != nil {
			return err
		}
		return ok(w, info)
	case first == "taxonomies":
		return a.templateTaxonomies(w, r, second)
	case second == "effective-config":
		return a.effectiveConfig(w, r)
	}
	return contentgen.Errorf(contentgen.CodeNotFound, "", "%s", a.g.Messages(r.Context()).NoRoute())
}

func (a *API) effectiveConfig(w http.ResponseWriter, r *http.Request) error {
	id, err := pathIDOf(r, "first", "id")
	if err != nil {
		return err
	}
	t, err := a.g.EffectiveTemplate(r.Context(), id)
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
	pt, taxes, err := a.g.TemplateTaxonomies(r.Context(), postType)
	if err != nil {
		return err
	}
	out := make([]taxonomyOption, len(taxes))
	for i := range taxes {
		out[i] = taxonomyOption{newTaxonomyRecord(&taxes[i]), []string{templates.ModeNone, templates.ModeChoose, templates.ModeCreate}}
	}
	return ok(w, struct {
		Success    bool             `json:"success"`
		PostType   string           `json:"post_type"`
		Taxonomies []taxonomyOption `json:"taxonomies"`
		Count      int              `json:"count"`
	}{true, pt.Name, out, len(out)})
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
	exp, err := a.g.ExportTemplates(r.Context(), sel)
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
	res, err := a.g.ImportTemplates(r.Context(), body)
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success bool                         `json:"success"`
		Message string                       `json:"message"`
		Results []templates.ImportItemResult `json:"results"`
	}{res.Imported > 0 || res.Failed == 0, a.g.Messages(r.Context()).TemplatesImported(res.Imported, res.Failed), res.Results})
}

func (a *API) staleTemplates(w http.ResponseWriter, r *http.Request) error {
	stale, err := a.g.StaleTemplates(r.Context())
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success bool                      `json:"success"`
		Stale   []templates.StaleTemplate `json:"stale"`
		Count   int                       `json:"count"`
	}{true, stale, len(stale)})
}

func (a *API) customFields(w http.ResponseWriter, r *http.Request) error {
	info, err := a.g.CustomFields(r.Context(), r.PathValue("post_type"))
	if err != nil {
		return err
	}
	return ok(w, info)
}

func (a *API) fieldPlugins(w http.ResponseWriter, r *http.Request) error {
	info, err := a.g.FieldPlugins(r.Context())
	if err != nil {
		return err
	}
	return ok(w, info)
}

func (a *API) detectedPlugins(w http.ResponseWriter, r *http.Request) error {
	info, err := a.g.DetectedPlugins(r.Context())
	if err != nil {
		return err
	}
	return ok(w, info)
}

func (a *API) dependencies(w http.ResponseWriter, r *http.Request) error {
	info, err := a.g.Dependencies(r.Context(), r.PathValue("post_type"))
	if err != nil {
		return err
	}
	return ok(w, info)
}

func (a *API) fieldSchema(w http.ResponseWriter, r *http.Request) error {
	info, err := a.g.FieldSchema(r.PathValue("field_type"))
	if err != nil {
		return err
	}
	return ok(w, info)
}

// syncBody is the answer of the sync endpoints.
type syncBody struct {
	Success bool   `json:"success"`
	Message string `json:"message,omitempty"`
	templates.SyncStatus
}

func (a *API) syncStatus(w http.ResponseWriter, r *http.Request) error {
	st, err := a.g.SyncStatus(r.Context())
	if err != nil {
		return err
	}
	return ok(w, syncBody{Success: true, SyncStatus: st})
}

func (a *API) syncMarkSeen(w http.ResponseWriter, r *http.Request) error {
	st, err := a.g.MarkSyncSeen(r.Context())
	if err != nil {
		return err
	}
	return ok(w, syncBody{true, a.g.Messages(r.Context()).SyncSeen(), st})
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
	return bytes.TrimSpace(body), nil
}
