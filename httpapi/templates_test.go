package httpapi_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
	"github.com/contentgen/contentgen/templates/fields/acfjson"
)

// bookGroup is an ACF local JSON field group for books; extra adds
// fields.
func bookGroup(extra string) string {
	return `{
  "key": "group_book", "title": "Book details",
  "location": [[{"param": "post_type", "operator": "==", "value": "book"}]],
  "fields": [
    {"key": "field_isbn", "label": "ISBN", "name": "isbn", "type": "text", "required": 1},
    {"key": "field_price", "label": "Price", "name": "price", "type": "number", "min": "0.99", "max": "99.99", "step": "0.01"},
    {"key": "field_format", "label": "Format", "name": "format", "type": "select",
     "choices": {"hardcover": "Hardcover", "paperback": "Paperback", "ebook": "E-book"}, "return_format": "value"},
    {"key": "field_pages", "label": "Pages", "name": "pages", "type": "number", "min": 40, "max": 1200},
    {"key": "field_publisher", "label": "Publisher", "name": "publisher", "type": "post_object",
     "post_type": ["publisher"], "required": 1, "return_format": "id"}` + extra + `
  ]
}`
}

// fieldsEnv is an env whose book post type has ACF JSON field groups
// read from a directory the test can rewrite, and a publisher post type.
type fieldsEnv struct {
	*env
	dir string
}

func newFieldsEnv(t *testing.T) *fieldsEnv {
	t.Helper()
	dir := t.TempDir()
	writeGroup(t, dir, "")
	e := newEnvWith(t, func(c *contentgen.Config) {
		c.Templates = templates.NewMemStore()
		c.FieldAdapters = fields.NewRegistry(acfjson.New(os.DirFS(dir), &acfjson.Options{Primary: true}))
	}, nil)
	require.NoError(t, e.host.RegisterPostType(contentgen.PostType{
		Name: "publisher", Label: "Publishers", Public: true,
		Labels:   map[string]string{"name": "Publishers", "singular_name": "Publisher"},
		Supports: []string{"title", "editor"},
	}))
	return &fieldsEnv{env: e, dir: dir}
}

func writeGroup(t testing.TB, dir, extra string) {
	t.Helper()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "group_book.json"), []byte(bookGroup(extra)), 0o600))
}

var templateShape = map[string]string{
	"id": "number", "name": "string", "description": "string", "post_type": "string", "is_default": "boolean",
	"is_system": "boolean", "field_config": "object", "taxonomy_config": "object", "created_at": "string", "updated_at": "string",
}

// create makes a template and returns its id.
func (e *env) createTemplate(body map[string]any) int64 {
	e.t.Helper()
	status, out := e.do("POST", "/templates", body, asAdmin)
	require.Equal(e.t, http.StatusOK, status, out)
	return int64(out["template"].(map[string]any)["id"].(float64))
}

func (e *env) template(id int64) map[string]any {
	e.t.Helper()
	status, out := e.do("GET", "/templates/"+itoa64(id), nil, asAdmin)
	require.Equal(e.t, http.StatusOK, status, out)
	return out["template"].(map[string]any)
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

func requireError(t *testing.T, status int, body map[string]any, wantStatus int, code, param string) {
	t.Helper()
	require.Equal(t, wantStatus, status, body)
	require.Equal(t, false, body["success"])
	require.Equal(t, code, body["code"])
	require.Contains(t, body["message"], param, "the message names the parameter")
}

func TestTemplateCRUD(t *testing.T) {
	t.Parallel()
	e := newFieldsEnv(t)
	status, body := e.do("POST", "/templates", map[string]any{
		"name": "Shop", "post_type": "book", "description": "For the shop",
		"field_config":    map[string]any{"custom_fields": map[string]any{"format": map[string]any{"mode": "choose", "choose": map[string]any{"values": []any{"ebook"}}}}},
		"taxonomy_config": map[string]any{"genre": map[string]any{"mode": "create", "count_min": 1, "count_max": 2}},
	}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "message": "string", "template": "object"})
	tmpl := body["template"].(map[string]any)
	requireShape(t, tmpl, templateShape)
	id := int64(tmpl["id"].(float64))
	require.Equal(t, false, tmpl["is_default"])
	require.Equal(t, false, tmpl["is_system"])

	got := e.template(id)
	requireShape(t, got, templateShape)
	requireShape(t, got, map[string]string{"linked_parents": "array"})
	require.Equal(t, "ebook", got["field_config"].(map[string]any)["custom_fields"].(map[string]any)["format"].(map[string]any)["choose"].(map[string]any)["values"].([]any)[0])

	status, body = e.do("GET", "/templates?post_type=book", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	requireShape(t, body, map[string]string{"success": "boolean", "templates": "array", "total": "number", "stale": "array", "adapter_info": "object"})
	require.EqualValues(t, 1, body["total"])
	listed := body["templates"].([]any)[0].(map[string]any)
	require.NotContains(t, listed, "field_config", "lists leave field_config out")
	require.NotContains(t, listed, "linked_parents")
	info := body["adapter_info"].(map[string]any)["book"].(map[string]any)
	require.Equal(t, map[string]any{
		"fields": []any{"isbn", "price", "format", "pages", "publisher"}, "taxonomies": []any{"genre"}, "adapters": []any{"acf"},
	}, info)
	_, body = e.do("GET", "/templates?is_system=true", nil, asAdmin)
	require.EqualValues(t, 0, body["total"])
	_, body = e.do("GET", "/templates?is_system=false", nil, asAdmin)
	require.EqualValues(t, 1, body["total"])

	// Only sent properties change.
	status, body = e.do("PUT", "/templates/"+itoa64(id), map[string]any{"name": "Shop books"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	upd := body["template"].(map[string]any)
	require.Equal(t, "Shop books", upd["name"])
	require.Equal(t, "For the shop", upd["description"])
	require.Equal(t, got["field_config"], upd["field_config"])
	require.Equal(t, got["taxonomy_config"], upd["taxonomy_config"])
	// Sending the same post_type is ignored; another one is rejected.
	status, _ = e.do("PUT", "/templates/"+itoa64(id), map[string]any{"post_type": "book"}, asAdmin)
	require.Equal(t, http.StatusOK, status)
	status, body = e.do("PUT", "/templates/"+itoa64(id), map[string]any{"post_type": "post"}, asAdmin)
	requireError(t, status, body, http.StatusBadRequest, "invalid_parameter", "post_type")
	require.Equal(t, "book", e.template(id)["post_type"])

	status, body = e.do("DELETE", "/templates/"+itoa64(id), nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "message": "string", "variants_deleted": "number"})
	status, body = e.do("GET", "/templates/"+itoa64(id), nil, asAdmin)
	requireError(t, status, body, http.StatusNotFound, "not_found", "")
}

func TestTemplateErrors(t *testing.T) {
	t.Parallel()
	e := newFieldsEnv(t)
	id := e.createTemplate(map[string]any{"name": "A", "post_type": "book"})
	missing := itoa64(id + 1000)
	cases := []struct {
		name, method, path string
		body               any
		status             int
		code, param        string
	}{
		{"missing name", "POST", "/templates", map[string]any{"post_type": "book"}, 400, "invalid_parameter", "name"},
		{"blank name", "POST", "/templates", map[string]any{"name": "  ", "post_type": "book"}, 400, "invalid_parameter", "name"},
		{"missing post type", "POST", "/templates", map[string]any{"name": "x"}, 400, "invalid_parameter", "post_type"},
		{"unknown post type", "POST", "/templates", map[string]any{"name": "x", "post_type": "spaceship"}, 400, "invalid_post_type", "post_type"},
		{"bad mode", "POST", "/templates", map[string]any{"name": "x", "post_type": "book", "field_config": map[string]any{"custom_fields": map[string]any{"isbn": map[string]any{"mode": "guess"}}}}, 400, "invalid_parameter", "field_config.custom_fields.isbn.mode"},
		{"foreign taxonomy", "POST", "/templates", map[string]any{"name": "x", "post_type": "book", "taxonomy_config": map[string]any{"category": map[string]any{"mode": "none"}}}, 400, "invalid_parameter", "taxonomy_config.category"},
		{"unknown taxonomy", "POST", "/templates", map[string]any{"name": "x", "post_type": "book", "taxonomy_config": map[string]any{"nope": map[string]any{"mode": "none"}}}, 400, "invalid_taxonomy", "taxonomy_config"},
		{"wrong type", "POST", "/templates", `{"name":"x","post_type":"book","is_default":"yes"}`, 400, "invalid_parameter", "is_default"},
		{"get unknown", "GET", "/templates/" + missing, nil, 404, "not_found", ""},
		{"get bad id", "GET", "/templates/abc", nil, 400, "invalid_parameter", "id"},
		{"put unknown", "PUT", "/templates/" + missing, map[string]any{"name": "x"}, 404, "not_found", ""},
		{"put empty name", "PUT", "/templates/" + itoa64(id), map[string]any{"name": ""}, 400, "invalid_parameter", "name"},
		{"delete unknown", "DELETE", "/templates/" + missing, nil, 404, "not_found", ""},
		{"delete bad heir", "DELETE", "/templates/" + itoa64(id) + "?new_default_id=x", nil, 400, "invalid_parameter", "new_default_id"},
		{"delete unknown heir", "DELETE", "/templates/" + itoa64(id) + "?new_default_id=" + missing, nil, 400, "invalid_parameter", "new_default_id"},
		{"default unknown", "POST", "/templates/" + missing + "/default", nil, 404, "not_found", ""},
		{"duplicate unknown", "POST", "/templates/" + missing + "/duplicate", nil, 404, "not_found", ""},
		{"variant unknown", "POST", "/templates/" + missing + "/variant", nil, 404, "not_found", ""},
		{"effective unknown", "GET", "/templates/" + missing + "/effective-config", nil, 404, "not_found", ""},
		{"effective bad id", "GET", "/templates/abc/effective-config", nil, 400, "invalid_parameter", "id"},
		{"unknown subresource", "GET", "/templates/" + itoa64(id) + "/nothing", nil, 404, "not_found", ""},
		{"export unknown id", "GET", "/templates/export?ids[]=" + missing, nil, 404, "not_found", "ids"},
		{"export bad id", "GET", "/templates/export?ids[]=x", nil, 400, "invalid_parameter", "ids"},
		{"import without templates", "POST", "/templates/import", map[string]any{"items": []any{}}, 400, "invalid_parameter", "templates"},
		{"import not json", "POST", "/templates/import", `{"templates":`, 400, "invalid_parameter", "templates"},
		{"fields unknown type", "GET", "/fields/spaceship", nil, 400, "invalid_post_type", "post_type"},
		{"template fields unknown type", "GET", "/templates/fields/spaceship", nil, 400, "invalid_post_type", "post_type"},
		{"template taxonomies unknown type", "GET", "/templates/taxonomies/spaceship", nil, 400, "invalid_post_type", "post_type"},
		{"dependencies unknown type", "GET", "/dependencies/spaceship", nil, 400, "invalid_post_type", "post_type"},
		{"schema unknown type", "GET", "/field-schema/hologram", nil, 400, "invalid_parameter", "field_type"},
		{"generate unknown template", "POST", "/generate/posts", map[string]any{"post_type": "book", "template_id": id + 1000}, 404, "not_found", "template_id"},
		{"generate foreign template", "POST", "/generate/posts", map[string]any{"post_type": "post", "template_id": id}, 400, "invalid_parameter", "template_id"},
		{"generate bad field mode", "POST", "/generate/posts", map[string]any{"post_type": "book", "field_config": map[string]any{"custom_fields": map[string]any{"x": map[string]any{"mode": "choose", "choose": map[string]any{"values": []any{}}}}}}, 400, "invalid_parameter", "field_config.custom_fields.x.choose.values"},
		{"generate related count", "POST", "/generate/posts", map[string]any{"post_type": "book", "related_cpt_options": map[string]any{"publisher": map[string]any{"count": -5}}}, 400, "invalid_parameter", "related_cpt_options.publisher.count"},
		{"generate related type", "POST", "/generate/posts", map[string]any{"post_type": "book", "related_cpt_options": map[string]any{"spaceship": map[string]any{}}}, 400, "invalid_parameter", "related_cpt_options"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := e.do(c.method, c.path, c.body, asAdmin)
			requireError(t, status, body, c.status, c.code, c.param)
			require.Len(t, body, 3, "error envelope is {success, code, message}")
		})
	}
	// Nothing was written by the rejected requests.
	_, body := e.do("GET", "/templates", nil, asAdmin)
	require.EqualValues(t, 1, body["total"])
	_, total, err := e.gen.History().List(context.Background(), contentgen.HistoryQuery{})
	require.NoError(t, err)
	require.Zero(t, total)
}

func TestTemplateDefaultIsUniquePerPostType(t *testing.T) {
	t.Parallel()
	e := newFieldsEnv(t)
	a := e.createTemplate(map[string]any{"name": "A", "post_type": "book", "is_default": true})
	other := e.createTemplate(map[string]any{"name": "P", "post_type": "post", "is_default": true})
	b := e.createTemplate(map[string]any{"name": "B", "post_type": "book", "is_default": true})
	require.Equal(t, false, e.template(a)["is_default"], "a new default unsets the previous one")
	require.Equal(t, true, e.template(b)["is_default"])
	require.Equal(t, true, e.template(other)["is_default"], "other post types keep theirs")

	status, body := e.do("POST", "/templates/"+itoa64(a)+"/default", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "message": "string", "template": "object"})
	require.Equal(t, true, body["template"].(map[string]any)["is_default"])
	require.Equal(t, false, e.template(b)["is_default"])

	_, body = e.do("PUT", "/templates/"+itoa64(b), map[string]any{"is_default": true}, asAdmin)
	require.Equal(t, true, body["template"].(map[string]any)["is_default"])
	require.Equal(t, false, e.template(a)["is_default"])

	// Deleting the default hands the flag to new_default_id.
	status, body = e.do("DELETE", "/templates/"+itoa64(b)+"?new_default_id="+itoa64(a), nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, true, e.template(a)["is_default"])
	// A template of another post type cannot inherit it.
	status, body = e.do("DELETE", "/templates/"+itoa64(a)+"?new_default_id="+itoa64(other), nil, asAdmin)
	requireError(t, status, body, http.StatusBadRequest, "invalid_parameter", "new_default_id")
	require.Equal(t, true, e.template(a)["is_default"], "a rejected delete deletes nothing")
}

func TestTemplateDuplicateAndVariants(t *testing.T) {
	t.Parallel()
	e := newFieldsEnv(t)
	parent := e.createTemplate(map[string]any{
		"name": "Base", "post_type": "book", "is_default": true,
		"field_config": map[string]any{"custom_fields": map[string]any{
			"format": map[string]any{"mode": "choose", "choose": map[string]any{"values": []any{"hardcover"}}},
			"pages":  map[string]any{"mode": "create", "create": map[string]any{"min": 100, "max": 200}},
		}},
	})

	status, body := e.do("POST", "/templates/"+itoa64(parent)+"/duplicate", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	dup := body["template"].(map[string]any)
	require.Equal(t, "Base (Copy)", dup["name"])
	require.Equal(t, false, dup["is_default"])
	require.Equal(t, e.template(parent)["field_config"], dup["field_config"])
	require.NotEqual(t, float64(parent), dup["id"])

	status, body = e.do("POST", "/templates/"+itoa64(parent)+"/variant", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	variant := int64(body["template"].(map[string]any)["id"].(float64))
	status, body = e.do("PUT", "/templates/"+itoa64(variant), map[string]any{
		"field_config": map[string]any{"custom_fields": map[string]any{
			"format": map[string]any{"mode": "choose", "choose": map[string]any{"values": []any{"ebook"}}},
			"pages":  map[string]any{"mode": "create", "create": map[string]any{"min": 100, "max": 200}},
		}},
	}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)

	stored := e.template(variant)
	require.Equal(t, []any{map[string]any{"id": float64(parent), "name": "Base", "post_type": "book"}}, stored["linked_parents"])
	own := stored["field_config"].(map[string]any)["custom_fields"].(map[string]any)
	require.Len(t, own, 1, "a variant stores only what it overrides: %v", own)
	require.Contains(t, own, "format")

	status, body = e.do("GET", "/templates/"+itoa64(variant)+"/effective-config", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "template_id": "number", "post_type": "string", "is_variant": "boolean", "field_config": "object", "taxonomy_config": "object"})
	require.Equal(t, true, body["is_variant"])
	eff := body["field_config"].(map[string]any)["custom_fields"].(map[string]any)
	require.Equal(t, []any{"ebook"}, eff["format"].(map[string]any)["choose"].(map[string]any)["values"], "the variant's override wins")
	require.Contains(t, eff, "pages", "the parent's other settings are merged in")
	_, body = e.do("GET", "/templates/"+itoa64(parent)+"/effective-config", nil, asAdmin)
	require.Equal(t, e.template(parent)["field_config"], body["field_config"], "a plain template's effective config is its own")
	require.Equal(t, false, body["is_variant"])

	// Generation with the variant uses the merged configuration.
	status, body = e.do("POST", "/generate/posts", map[string]any{"post_type": "book", "count": 3, "template_id": variant, "set_featured_image": false}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	for _, id := range body["ids"].([]any) {
		m, err := e.host.Meta(context.Background(), contentgen.KindPost, int64(id.(float64)))
		require.NoError(t, err)
		require.Equal(t, "ebook", m["format"])
		pages, err := strconv.Atoi(m["pages"])
		require.NoError(t, err)
		require.True(t, pages >= 100 && pages <= 200)
	}

	// Variants die with their parent.
	status, body = e.do("DELETE", "/templates/"+itoa64(parent), nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.EqualValues(t, 1, body["variants_deleted"])
	status, _ = e.do("GET", "/templates/"+itoa64(variant), nil, asAdmin)
	require.Equal(t, http.StatusNotFound, status)
}

func TestTemplateExportImport(t *testing.T) {
	t.Parallel()
	e := newFieldsEnv(t)
	a := e.createTemplate(map[string]any{"name": "A", "post_type": "book", "description": "first",
		"field_config":    map[string]any{"custom_fields": map[string]any{"pages": map[string]any{"mode": "create", "create": map[string]any{"min": 1, "max": 9}}}},
		"taxonomy_config": map[string]any{"genre": map[string]any{"mode": "create", "count_min": 1, "count_max": 1}}})
	b := e.createTemplate(map[string]any{"name": "B", "post_type": "post", "is_default": true})

	status, exp := e.do("GET", "/templates/export?ids[]="+itoa64(a)+"&ids[]="+itoa64(b)+"&post_type=page", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, exp)
	requireShape(t, exp, map[string]string{"success": "boolean", "templates": "array", "count": "number", "version": "string", "exported": "string"})
	require.Equal(t, "1.0", exp["version"])
	require.Regexp(t, `^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`, exp["exported"])
	require.EqualValues(t, 2, exp["count"], "post_type is ignored when ids is given")
	for _, it := range exp["templates"].([]any) {
		item := it.(map[string]any)
		requireShape(t, item, map[string]string{"name": "string", "description": "string", "post_type": "string", "field_config": "object", "taxonomy_config": "object"})
		require.NotContains(t, item, "id")
		require.NotContains(t, item, "is_default")
	}
	_, byType := e.do("GET", "/templates/export?post_type=post", nil, asAdmin)
	require.EqualValues(t, 1, byType["count"])

	// Round trip into another site.
	f := newFieldsEnv(t)
	status, body := f.do("POST", "/templates/import", map[string]any{"templates": exp["templates"]}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "message": "string", "results": "array"})
	require.Equal(t, true, body["success"])
	require.Contains(t, body["message"], "2")
	for _, r := range body["results"].([]any) {
		res := r.(map[string]any)
		requireShape(t, res, map[string]string{"success": "boolean", "name": "string", "id": "number"})
		require.Equal(t, true, res["success"])
	}
	id := int64(body["results"].([]any)[0].(map[string]any)["id"].(float64))
	imported := f.template(id)
	original := e.template(a)
	for _, k := range []string{"name", "description", "post_type", "field_config", "taxonomy_config"} {
		require.Equal(t, original[k], imported[k], k)
	}
	require.Equal(t, false, f.template(int64(body["results"].([]any)[1].(map[string]any)["id"].(float64)))["is_default"], "imports are never default")

	// Invalid items are reported; valid ones are imported whole; nothing
	// is half-imported.
	status, body = f.do("POST", "/templates/import", map[string]any{"templates": []any{
		map[string]any{"name": "Good", "post_type": "book"},
		map[string]any{"name": "No type"},
		map[string]any{"name": "Alien", "post_type": "spaceship"},
		map[string]any{"name": "Bad mode", "post_type": "book", "field_config": map[string]any{"custom_fields": map[string]any{"isbn": map[string]any{"mode": "guess"}}}},
		map[string]any{"name": "Bad terms", "post_type": "book", "taxonomy_config": map[string]any{"genre": map[string]any{"mode": "choose", "term_ids": []any{987654}}}},
		"not an object",
	}}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	results := body["results"].([]any)
	require.Len(t, results, 6)
	require.Equal(t, true, results[0].(map[string]any)["success"])
	for _, r := range results[1:] {
		res := r.(map[string]any)
		require.Equal(t, false, res["success"], res)
		require.EqualValues(t, 0, res["id"])
		require.NotEmpty(t, res["error"])
	}
	require.Contains(t, body["message"], "5 failed")
	_, list := f.do("GET", "/templates", nil, asAdmin)
	var names []string
	for _, it := range list["templates"].([]any) {
		names = append(names, it.(map[string]any)["name"].(string))
	}
	require.ElementsMatch(t, []string{"A", "B", "Good"}, names)

	_, body = f.do("POST", "/templates/import", map[string]any{"templates": []any{map[string]any{"name": "x"}}}, asAdmin)
	require.Equal(t, false, body["success"], "an import where everything failed is not a success")
}

func TestStaleTemplatesAfterFieldChange(t *testing.T) {
	t.Parallel()
	e := newFieldsEnv(t)
	id := e.createTemplate(map[string]any{"name": "Books", "post_type": "book"})
	other := e.createTemplate(map[string]any{"name": "Posts", "post_type": "post"})

	_, body := e.do("GET", "/templates/stale", nil, asAdmin)
	require.Equal(t, map[string]any{"success": true, "stale": []any{}, "count": float64(0)}, body)
	status, body := e.do("GET", "/sync/status", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	requireShape(t, body, map[string]string{
		"success": "boolean", "in_sync": "boolean", "stale_count": "number", "changed_post_types": "array",
		"has_unseen_changes": "boolean", "unseen_post_types": "array", "last_seen": "string", "stale": "array",
	})
	require.Equal(t, true, body["in_sync"])

	writeGroup(t, e.dir, `,
    {"key": "field_weight", "label": "Weight", "name": "weight", "type": "number"}`)
	_, body = e.do("GET", "/templates/stale", nil, asAdmin)
	require.EqualValues(t, 1, body["count"])
	st := body["stale"].([]any)[0].(map[string]any)
	require.EqualValues(t, id, st["id"])
	require.Equal(t, []any{"weight"}, st["added_fields"])
	require.Equal(t, []any{}, st["removed_fields"])
	_, body = e.do("GET", "/templates", nil, asAdmin)
	require.Len(t, body["stale"], 1)
	_, body = e.do("GET", "/templates?post_type=post", nil, asAdmin)
	require.Empty(t, body["stale"], "the list reports the stale templates it lists")
	require.Contains(t, body["adapter_info"], "post")
	require.NotContains(t, body["adapter_info"], "book")
	_ = other

	_, body = e.do("GET", "/sync/status", nil, asAdmin)
	require.Equal(t, false, body["in_sync"])
	require.Equal(t, true, body["has_unseen_changes"])
	require.Equal(t, []any{"book"}, body["changed_post_types"])
	status, body = e.do("POST", "/sync/mark-seen", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, false, body["has_unseen_changes"])
	require.NotEmpty(t, body["message"])
	require.NotEmpty(t, body["last_seen"])
	_, body = e.do("GET", "/sync/status", nil, asAdmin)
	require.Equal(t, false, body["has_unseen_changes"])
	require.EqualValues(t, 1, body["stale_count"])

	// Saving the template resyncs it.
	status, _ = e.do("PUT", "/templates/"+itoa64(id), map[string]any{"description": "now with weight"}, asAdmin)
	require.Equal(t, http.StatusOK, status)
	_, body = e.do("GET", "/templates/stale", nil, asAdmin)
	require.EqualValues(t, 0, body["count"])
	_, body = e.do("GET", "/sync/status", nil, asAdmin)
	require.Equal(t, true, body["in_sync"])
}

func TestFieldInformationEndpoints(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newFieldsEnv(t)

	status, body := e.do("GET", "/fields/book", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "post_type": "string", "fields": "array", "count": "number"})
	require.EqualValues(t, 5, body["count"])
	defs := map[string]map[string]any{}
	for _, f := range body["fields"].([]any) {
		fm := f.(map[string]any)
		requireShape(t, fm, map[string]string{"key": "string", "name": "string", "label": "string", "type": "string", "required": "boolean", "instructions": "string", "detected_type": "string"})
		defs[fm["name"].(string)] = fm
	}
	require.Equal(t, "isbn", defs["isbn"]["detected_type"])
	require.Equal(t, "price", defs["price"]["detected_type"])
	require.Equal(t, 0.99, defs["price"]["min"])
	require.Equal(t, true, defs["publisher"]["required"])
	_, body = e.do("GET", "/fields/post", nil, asAdmin)
	require.Equal(t, []any{}, body["fields"], "a post type without field groups has no fields")

	status, body = e.do("DELETE", "/field-detections/book", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.EqualValues(t, 5, body["deleted"], "one cached detection per field")
	_, body = e.do("DELETE", "/field-detections", nil, asAdmin)
	require.EqualValues(t, 0, body["deleted"])

	_, body = e.do("GET", "/field-plugins", nil, asAdmin)
	requireShape(t, body, map[string]string{"success": "boolean", "adapters": "array", "primary": "string"})
	ad := body["adapters"].([]any)[0].(map[string]any)
	requireShape(t, ad, map[string]string{"name": "string", "slug": "string", "version": "string", "active": "boolean", "primary": "boolean"})
	require.Equal(t, "acf", ad["slug"])
	require.Equal(t, ad["name"], body["primary"])

	_, body = e.do("GET", "/detected-plugins", nil, asAdmin)
	requireShape(t, body, map[string]string{"success": "boolean", "plugins": "array", "summary": "object"})
	require.Equal(t, map[string]any{"total": float64(1), "active": float64(1), "inactive": float64(0)}, body["summary"])
	requireShape(t, body["plugins"].([]any)[0].(map[string]any), map[string]string{"name": "string", "slug": "string", "version": "string", "active": "boolean"})

	// Dependencies with live counts of published posts and the default
	// template of the target.
	_, err := e.host.CreatePosts(ctx, []contentgen.Post{
		{Type: "publisher", Status: contentgen.StatusPublish, Title: "Acme"},
		{Type: "publisher", Status: contentgen.StatusDraft, Title: "Draft Press"},
	})
	require.NoError(t, err)
	e.createTemplate(map[string]any{"name": "Publisher starter", "post_type": "publisher", "is_default": true})
	status, body = e.do("GET", "/dependencies/book", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "post_type": "string", "dependencies": "array", "unique_targets": "object", "count": "number"})
	require.EqualValues(t, 1, body["count"])
	dep := body["dependencies"].([]any)[0].(map[string]any)
	require.Equal(t, map[string]any{
		"field_name": "publisher", "field_type": "post_object", "target_post_types": []any{"publisher"},
		"target_labels": map[string]any{"publisher": "Publisher"}, "is_multiple": false, "source": "field",
		"cardinality": "many_to_one", "required": true,
	}, dep)
	require.Equal(t, map[string]any{
		"label": "Publisher", "plural_label": "Publishers", "existing_count": float64(1), "has_template": true,
		"template_name": "Publisher starter", "is_required": true, "required_by_fields": []any{"publisher"},
	}, body["unique_targets"].(map[string]any)["publisher"])

	status, body = e.do("GET", "/field-schema/number", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	requireShape(t, body, map[string]string{"success": "boolean", "field_type": "string", "category": "string", "modes": "array", "methods": "array", "options": "array", "selection_modes": "array", "semantic": "boolean"})
	var opts []string
	for _, o := range body["options"].([]any) {
		opts = append(opts, o.(map[string]any)["name"].(string))
	}
	require.Equal(t, []string{"min", "max", "decimal_places"}, opts)
	for _, ft := range fields.Types() {
		status, _ := e.do("GET", "/field-schema/"+ft, nil, asAdmin)
		require.Equal(t, http.StatusOK, status, ft)
	}

	status, body = e.do("GET", "/templates/fields/book", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "post_type": "string", "core_fields": "object", "custom_fields": "object"})
	core := body["core_fields"].(map[string]any)
	require.Contains(t, core, "post_title")
	require.Contains(t, core, "post_excerpt")
	requireShape(t, core["post_title"].(map[string]any), map[string]string{"name": "string", "label": "string", "type": "string", "category": "string", "required": "boolean", "modes": "array", "default": "object"})
	group := body["custom_fields"].(map[string]any)["acf"].(map[string]any)
	require.Equal(t, "Book details", group["group_title"])
	require.Len(t, group["fields"], 5)
	requireShape(t, group["fields"].([]any)[0].(map[string]any), map[string]string{"key": "string", "name": "string", "label": "string", "type": "string", "category": "string", "required": "boolean", "modes": "array", "default": "object"})
	_, body = e.do("GET", "/templates/fields/publisher", nil, asAdmin)
	require.NotContains(t, body["core_fields"], "post_excerpt", "core fields follow the post type's supports")
	require.Equal(t, map[string]any{}, body["custom_fields"])

	status, body = e.do("GET", "/templates/taxonomies/book", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "post_type": "string", "taxonomies": "array", "count": "number"})
	tax := body["taxonomies"].([]any)[0].(map[string]any)
	requireShape(t, tax, map[string]string{"name": "string", "label": "string", "hierarchical": "boolean", "modes": "array"})
	require.Equal(t, "genre", tax["name"])
}

func TestGenerateWithTemplatesEndToEnd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newFieldsEnv(t)
	id := e.createTemplate(map[string]any{
		"name": "Catalogue", "post_type": "book",
		"field_config": map[string]any{
			"core_fields":   map[string]any{"post_excerpt": map[string]any{"mode": "none"}},
			"custom_fields": map[string]any{"format": map[string]any{"mode": "choose", "choose": map[string]any{"values": []any{"hardcover", "paperback"}, "selection_mode": "rotate"}}},
		},
		"taxonomy_config": map[string]any{"genre": map[string]any{"mode": "create", "count_min": 1, "count_max": 1}},
	})
	status, body := e.do("POST", "/generate/posts", map[string]any{
		"post_type": "book", "count": 4, "template_id": id, "set_featured_image": false,
		"field_config":        map[string]any{"custom_fields": map[string]any{"pages": map[string]any{"mode": "create", "create": map[string]any{"min": 500, "max": 505}}}},
		"related_cpt_options": map[string]any{"publisher": map[string]any{"count": 3}},
	}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, postsResultShape)
	auto := body["auto_created"].(map[string]any)
	require.EqualValues(t, 3, auto["related_posts"])
	require.Equal(t, map[string]any{"publisher": float64(3)}, auto["related_per_cpt"])
	require.EqualValues(t, 4, auto["terms"].(map[string]any)["genre"], "one new term per post")

	publishers, err := e.host.Posts(ctx, contentgen.PostQuery{Types: []string{"publisher"}})
	require.NoError(t, err)
	var formats []string
	for _, raw := range body["ids"].([]any) {
		pid := int64(raw.(float64))
		posts, err := e.host.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(pid)})
		require.NoError(t, err)
		p := posts[0]
		formats = append(formats, p.Meta["format"])
		require.Empty(t, p.Excerpt)
		require.Len(t, p.Terms["genre"], 1)
		pages, err := strconv.Atoi(p.Meta["pages"])
		require.NoError(t, err)
		require.True(t, pages >= 500 && pages <= 505)
		pub, err := strconv.ParseInt(p.Meta["publisher"], 10, 64)
		require.NoError(t, err)
		found := false
		for _, x := range publishers {
			found = found || x.ID == pub
		}
		require.True(t, found, "publisher %d is a real publisher", pub)

		_, pm := e.do("GET", "/post-meta/"+itoa64(pid), nil, asAdmin)
		require.Equal(t, map[string]any{"is_generated": true, "template_id": float64(id)}, pm)
	}
	require.Equal(t, []string{"hardcover", "paperback", "hardcover", "paperback"}, formats)

	_, hist := e.do("GET", "/history?type=post", nil, asAdmin)
	byType := map[string]int{}
	for _, it := range hist["history"].([]any) {
		entry := it.(map[string]any)
		byType[entry["content_subtype"].(string)]++
		if entry["content_subtype"] == "book" {
			require.Equal(t, "Catalogue", entry["template_name"])
			require.Equal(t, true, entry["meta"].(map[string]any)["custom_fields_populated"])
		}
	}
	require.Equal(t, map[string]int{"book": 4, "publisher": 3}, byType)

	status, body = e.do("POST", "/generate/posts/delete", map[string]any{"post_type": "book", "delete_related_cpts": true, "delete_related_terms": true}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.EqualValues(t, 4, body["deleted_count"])
	require.Equal(t, map[string]any{"publisher": float64(3)}, body["deleted_related_cpts"])
	left, err := e.host.Posts(ctx, contentgen.PostQuery{Types: []string{"publisher", "book"}})
	require.NoError(t, err)
	require.Empty(t, left)
}

func TestTemplateRoutesUnderPrefixOnly(t *testing.T) {
	t.Parallel()
	e := newFieldsEnv(t)
	// Template endpoints need authentication and manage_options like all
	// others.
	for _, p := range []struct{ method, path string }{{"GET", "/templates"}, {"POST", "/templates"}, {"GET", "/fields/book"}, {"POST", "/sync/mark-seen"}} {
		status, body := e.do(p.method, p.path, nil, asEditor)
		require.Equal(t, http.StatusForbidden, status, p.path)
		require.Equal(t, "rest_forbidden", body["code"])
		status, _ = e.do(p.method, p.path, nil, asNobody)
		require.Equal(t, http.StatusUnauthorized, status, p.path)
	}
	status, body := e.do("PATCH", "/templates/1", nil, asAdmin)
	require.Equal(t, http.StatusMethodNotAllowed, status)
	require.True(t, strings.Contains(body["message"].(string), "PUT"), body["message"])
}

// FuzzTemplateBodies sends arbitrary bodies to the template endpoints and
// to field-aware generation: a client mistake is never answered with a
// 500.
func FuzzTemplateBodies(f *testing.F) {
	seeds := map[string][]string{
		"POST /templates": {
			`{}`, `{"name":"a","post_type":"book"}`, `{"name":"a","post_type":"book","is_default":true}`,
			`{"name":"a","post_type":"book","field_config":{"custom_fields":{"pages":{"mode":"create","create":{"min":9,"max":1}}}}}`,
			`{"name":"a","post_type":"book","field_config":{"core_fields":{"":{"mode":"none"}}}}`,
			`{"name":"a","post_type":"book","taxonomy_config":{"genre":{"mode":"choose","term_ids":[-1]}}}`,
			`{"name":"a","post_type":"book","field_config":[]}`, `{"name":1e999}`,
		},
		"PUT /templates/1":          {`{"post_type":"post"}`, `{"taxonomy_config":null}`, `{"field_config":{"custom_fields":null}}`, `{"name":""}`},
		"POST /templates/1/variant": {`{}`, `{"name":"v","field_config":{"custom_fields":{"x":{"mode":"choose","choose":{"values":[[1],{"a":2}]}}}}}`},
		"POST /templates/import": {
			`{"templates":[]}`, `{"templates":[1,"x",null,{}]}`, `{"templates":{"name":"x"}}`,
			`{"templates":[{"name":"a","post_type":"book","field_config":{"custom_fields":{"isbn":{"mode":"none"}}}}]}`,
		},
		"POST /generate/posts": {
			`{"post_type":"book","count":2,"set_featured_image":false}`,
			`{"post_type":"book","count":2,"field_config":{"core_fields":{"post_date":{"mode":"choose","choose":{"values":["2020-01-01 10:00:00"]}}}}}`,
			`{"post_type":"book","count":2,"field_config":{"core_fields":{"post_author":{"mode":"choose","choose":{"values":["1"]}}}}}`,
			`{"post_type":"book","count":2,"field_config":{"custom_fields":{"price":{"mode":"create","create":{"min":-1e308,"max":1e308,"decimal_places":9}}}}}`,
			`{"post_type":"book","count":2,"related_cpt_options":{"publisher":{"count":20,"template_id":1}}}`,
			`{"post_type":"book","count":1,"template_id":1,"field_config":{"custom_fields":{"format":{"mode":"choose","choose":{"values":[null]}}}}}`,
		},
	}
	for route, bodies := range seeds {
		for _, b := range bodies {
			f.Add(route, []byte(b))
		}
	}
	dir := f.TempDir()
	writeGroup(f, dir, "")
	host, err := demosite.New(nil)
	require.NoError(f, err)
	require.NoError(f, host.RegisterPostType(contentgen.PostType{Name: "publisher", Label: "Publishers", Public: true}))
	gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{
		MaxCount:      20,
		FieldAdapters: fields.NewRegistry(acfjson.New(os.DirFS(dir), nil)),
	})
	require.NoError(f, err)
	_, err = gen.Templates().Create(context.Background(), templates.Input{Name: "Seed", PostType: "book"})
	require.NoError(f, err)
	api, err := httpapi.New(gen, &httpapi.Options{Auth: allowAll{}})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, route string, body []byte) {
		method, path, ok := strings.Cut(route, " ")
		if !ok || seeds[route] == nil {
			return
		}
		req := httptest.NewRequestWithContext(context.Background(), method, path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, req)
		requireNoServerError(t, rec, body)
	})
}
