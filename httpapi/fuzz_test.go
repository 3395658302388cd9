package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-faker/faker/v4"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/auth"
)

// allowAll authenticates every request as an administrator, so the fuzz
// targets reach the decoders.
type allowAll struct{}

func (allowAll) Authenticate(*http.Request) (*auth.Principal, error) {
	return &auth.Principal{Login: "admin", Capabilities: []string{contentgen.ManageOptions}}, nil
}

func newInProcess(t testing.TB) http.Handler {
	t.Helper()
	host, err := demosite.New(nil)
	require.NoError(t, err)
	gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{MaxCount: 20})
	require.NoError(t, err)
	api, err := httpapi.New(gen, &httpapi.Options{Auth: allowAll{}})
	require.NoError(t, err)
	return api
}

// requireNoServerError checks that a response is a JSON object and, when
// it is an error, a client error in the envelope.
func requireNoServerError(t testing.TB, rec *httptest.ResponseRecorder, body []byte) {
	t.Helper()
	require.Less(t, rec.Code, 500, "input %q gave %d: %s", body, rec.Code, rec.Body)
	var out map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out), "response to %q is not JSON: %s", body, rec.Body)
	if rec.Code >= 400 {
		require.Equal(t, false, out["success"])
		require.NotEmpty(t, out["message"])
	}
}

func FuzzGenerateBodies(f *testing.F) {
	for _, seed := range []string{
		``, `{}`, `null`, `[]`, `{"count":3}`, `{"count":"3"}`, `{"count":1e400}`, `{"count":-1}`,
		`{"post_type":"book","count":2,"post_status":"random","auto_comments":true}`,
		`{"taxonomy_config":{"category":{"mode":"choose","term_ids":[1,2]}}}`,
		`{"taxonomy_config":{"category":{"mode":"create","count_min":3,"count_max":1}}}`,
		`{"field_config":{"custom_fields":{"x":{"mode":"choose","choose":{"values":[]}}}}}`,
		`{"locale":"de-AT"}`, `{"seed":18446744073709551615}`, `{"image_width":100.5}`,
		`{"related_cpt_options":{"book":{"count":-5}}}`, `{"content_format":"markdown","count":2}`, `{"content_format":"blocks","field_config":{"content_format":"markdown"}}`,
		`{"content_format":null}`, `{"field_config":{"content_format":7}}`, `{"comments_per_post_min":9,"comments_per_post_max":2,"auto_comments":true}`,
	} {
		f.Add("/generate/posts", []byte(seed))
	}
	f.Add("/generate/terms", []byte(`{"taxonomy":"category","generate_hierarchy":true,"depth":2,"breadth":2}`))
	f.Add("/generate/users", []byte(`{"count":2,"allowed_roles":["editor",""]}`))
	f.Add("/generate/comments", []byte(`{"post_ids":[0,-1]}`))
	f.Add("/generate/posts/delete", []byte(`{"post_type":"post","delete_scope":"all"}`))
	f.Add("/settings", []byte(`{"hourly_rate":"NaN","locale":"xx"}`))
	api := newInProcess(f)
	f.Fuzz(func(t *testing.T, path string, body []byte) {
		switch path {
		case "/generate/posts", "/generate/terms", "/generate/users", "/generate/comments", "/generate/posts/delete", "/settings":
		default:
			return
		}
		req := httptest.NewRequestWithContext(context.Background(), "POST", path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, req)
		requireNoServerError(t, rec, body)
	})
}

// postsBody mirrors the JSON of a posts request, with every field typed so
// that faker fills it with arbitrary values.
type postsBody struct {
	PostType         string            `json:"post_type"`
	Count            int               `json:"count"`
	PostStatus       string            `json:"post_status"`
	SetFeatured      bool              `json:"set_featured_image"`
	ImageProvider    string            `json:"image_provider"`
	ImageWidth       int               `json:"image_width"`
	ImageHeight      int               `json:"image_height"`
	AutoComments     bool              `json:"auto_comments"`
	CommentsMin      int               `json:"comments_per_post_min"`
	CommentsMax      int               `json:"comments_per_post_max"`
	ReplyProbability int               `json:"comment_reply_probability"`
	VariationProfile string            `json:"variation_profile"`
	Locale           string            `json:"locale"`
	ContentFormat    string            `json:"content_format"`
	TemplateID       int64             `json:"template_id"`
	DeleteScope      string            `json:"delete_scope"`
	TaxonomyConfig   map[string]string `json:"taxonomy_config"`
}

// TestArbitraryRequestsNeverFail500 sends requests filled with arbitrary
// values (go-faker draws them from its own global source, so each run
// tries other values; a failure prints the input).
func TestArbitraryRequestsNeverFail500(t *testing.T) {
	t.Parallel()
	api := newInProcess(t)
	for i := 0; i < 200; i++ {
		var b postsBody
		require.NoError(t, faker.FakeData(&b))
		body, err := json.Marshal(b)
		require.NoError(t, err)
		req := httptest.NewRequestWithContext(context.Background(), "POST", "/generate/posts", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, req)
		requireNoServerError(t, rec, body)
	}
}
