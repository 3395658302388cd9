package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/contentgen/contentgen/contentgen"
)

const benchPostsBody = `{"post_type":"post","count":20,"post_status":"publish","image_provider":"provider_local",` +
	`"auto_comments":true,"comments_per_post_min":1,"comments_per_post_max":5,"seed":42,"locale":"en_US",` +
	`"template_id":3,"taxonomy_config":{"category":{"mode":"create","count_min":1,"count_max":3}},` +
	`"field_config":{"custom_fields":{"subtitle":{"mode":"create"}},"core_fields":{"post_title":{"mode":"create"}}}}`

// BenchmarkCheckRequest measures the check of one request against the
// document: a POST /generate/posts body of a dozen properties, and a
// GET /content/posts with four query parameters.
func BenchmarkCheckRequest(b *testing.B) {
	a := &API{maxBody: 1 << 20}
	if _, err := compiledSpec(); err != nil {
		b.Fatal(err)
	}
	b.Run("body", func(b *testing.B) {
		b.ReportAllocs()
		w := httptest.NewRecorder()
		for b.Loop() {
			r := httptest.NewRequest("POST", "/generate/posts", strings.NewReader(benchPostsBody))
			if err, _ := a.checkRequest(w, r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("query", func(b *testing.B) {
		b.ReportAllocs()
		w := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/content/posts?post_type=post&per_page=20&page=2&generated=true&search=garden", nil)
		for b.Loop() {
			if err, _ := a.checkRequest(w, r); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The floor: decoding the same body once more, as the handler does.
	b.Run("floor-decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := httptest.NewRequest("POST", "/generate/posts", strings.NewReader(benchPostsBody))
			var v map[string]any
			if err := json.NewDecoder(r.Body).Decode(&v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestCheckRequestBody: the compiled document refuses what its schemas
// forbid and names the parameter, and passes the benchmark's body.
func TestCheckRequestBody(t *testing.T) {
	t.Parallel()
	a := &API{maxBody: 1 << 20}
	cases := []struct {
		method, target, body string
		status               int
		param                string
	}{
		{"POST", "/generate/posts", benchPostsBody, 0, ""},
		{"POST", "/generate/posts", `{"count":null}`, 400, "count must not be null"},
		{"POST", "/generate/posts", `{"template_id":0}`, 400, "template_id must be at least 1"},
		{"POST", "/generate/posts", `{"field_config":{"custom_fields":{"a":{"mode":"create","bogus":1}}}}`, 400, "field_config.custom_fields.a.bogus"},
		{"POST", "/generate/posts", `{"field_config":{"core_fields":{"post_subtitle":{"mode":"create"}}}}`, 400, "field_config.core_fields.post_subtitle"},
		{"POST", "/generate/posts", `{"field_config":{"bogus":1}}`, 400, "field_config.bogus"},
		{"POST", "/settings", `{"default_post_count":501}`, 400, "default_post_count must be between 1 and 500"},
		{"POST", "/templates", `{"name":"","post_type":"post"}`, 400, "name must not be empty"},
		{"GET", "/content/posts?generated=1", "", 400, "generated must be true or false"},
		{"GET", "/content/posts?search=", "", 400, "search must not be empty"},
		{"PUT", "/templates/import", "", 405, "POST"},
		{"DELETE", "/history/stats", "", 405, "GET"},
		{"GET", "/templates/1/default", "", 405, "POST"},
	}
	for _, c := range cases {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(c.method, c.target, strings.NewReader(c.body))
		err, described := a.checkRequest(w, r)
		if !described {
			t.Fatalf("%s %s: not described by the document", c.method, c.target)
		}
		if c.status == 0 {
			if err != nil {
				t.Fatalf("%s %s: %v", c.method, c.target, err)
			}
			continue
		}
		if err == nil {
			t.Fatalf("%s %s %s: accepted", c.method, c.target, c.body)
		}
		if got := statusOf[codeOfErr(err)]; got != c.status {
			t.Fatalf("%s %s: status %d, want %d (%v)", c.method, c.target, got, c.status, err)
		}
		msg := err.Error()
		if c.status == http.StatusMethodNotAllowed {
			msg = w.Header().Get("Allow")
		}
		if !strings.Contains(msg, c.param) {
			t.Fatalf("%s %s: %q does not say %q", c.method, c.target, msg, c.param)
		}
	}
}

func codeOfErr(err error) contentgen.Code {
	var ce *contentgen.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}
