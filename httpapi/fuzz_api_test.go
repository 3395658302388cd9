package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/templates"
)

// tinyImages is an image provider that answers at once with the same
// small PNG, so that fuzzing reaches the image paths without their cost.
type tinyImages struct{ data []byte }

func newTinyImages(t testing.TB) *tinyImages {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, providers.MinImageSize, providers.MinImageSize))))
	return &tinyImages{data: buf.Bytes()}
}

func (p *tinyImages) Info() providers.Info {
	return providers.Info{Slug: providers.Random, Name: "Tiny", Configured: true}
}

func (p *tinyImages) Image(context.Context, providers.ImageRequest) (*providers.Image, error) {
	return &providers.Image{Data: p.data, MIMEType: "image/png", Ext: "png", Width: providers.MinImageSize, Height: providers.MinImageSize}, nil
}

// fuzzFamilies are the JSON endpoint families the fuzz target sends
// requests to, by route prefix.
var fuzzFamilies = []string{
	"/generate/", "/history", "/cleanup/", "/time-saved", "/settings", "/templates", "/media/download",
}

// fuzzRoutes returns the routes of api in the fuzzed families. The event
// stream answers in SSE, not JSON, and has its own tests.
func fuzzRoutes(api *httpapi.API) []httpapi.Route {
	var out []httpapi.Route
	for _, r := range api.Routes() {
		if r.Pattern == "/generate/posts/stream" {
			continue
		}
		for _, prefix := range fuzzFamilies {
			if strings.HasPrefix(r.Pattern, prefix) {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// newFuzzAPI returns an API over the demo site with small limits, so that
// every fuzzed request is quick, and some generated content and a
// template for the requests to find.
func newFuzzAPI(t testing.TB, images *tinyImages) *httpapi.API {
	t.Helper()
	ctx := context.Background()
	host, err := demosite.New(nil)
	require.NoError(t, err)
	seed := int64(3)
	gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{
		Seed: &seed, MaxCount: 3, ImageProviders: []providers.ImageProvider{images},
	})
	require.NoError(t, err)
	_, err = gen.GeneratePosts(ctx, contentgen.PostsRequest{
		Count: new(2), ImageProvider: providers.Random, AutoComments: true, CommentsPerPostMin: new(1), CommentsPerPostMax: new(1),
	})
	require.NoError(t, err)
	_, err = gen.Templates().Create(ctx, templates.Input{Name: "Fuzz", PostType: "post"})
	require.NoError(t, err)
	api, err := httpapi.New(gen, &httpapi.Options{Auth: allowAll{}, MaxBodyBytes: 64 << 10})
	require.NoError(t, err)
	return api
}

// FuzzAPI sends authenticated requests with arbitrary bodies, queries and
// path values to every route of the JSON endpoint families and requires
// an answer in the envelope: a JSON object with a boolean success, and
// for an error a message and no 5xx. Every input gets a site of its own,
// so that it fails or passes alone and the site stays small. The seed
// corpus, the f.Add calls and testdata/fuzz/FuzzAPI, is replayed by go
// test.
func FuzzAPI(f *testing.F) {
	images := newTinyImages(f)
	routes := fuzzRoutes(newFuzzAPI(f, images))
	require.GreaterOrEqual(f, len(routes), 25)
	index := map[string]uint8{}
	for i, r := range routes {
		index[r.String()] = uint8(i)
	}
	seed := func(route, value, query, body string) {
		i, ok := index[route]
		require.True(f, ok, "no fuzzed route %s", route)
		f.Add(i, value, query, []byte(body))
	}
	seed("POST /generate/posts", "", "", `{"count":2,"set_featured_image":true,"image_provider":"provider_random","auto_comments":true}`)
	seed("POST /generate/posts", "", "", `{"count":1,"post_type":"book","taxonomy_config":{"genre":{"mode":"create","count_min":1,"count_max":2}}}`)
	seed("POST /generate/terms", "", "", `{"taxonomy":"genre","count":2,"generate_hierarchy":true,"depth":2,"breadth":1}`)
	seed("POST /generate/users", "", "", `{"count":2,"role":"author","generate_avatars":true}`)
	seed("POST /generate/comments", "", "", `{"post_type":"post","comments_per_post_min":1,"comments_per_post_max":3,"reply_probability":100}`)
	seed("DELETE /generate/delete", "", "", `{"type":"post","ids":[1,2,3,4,5,-1,9223372036854775807]}`)
	seed("DELETE /generate/delete", "", "", `{"type":"comment","ids":[1],"force":true}`)
	seed("POST /generate/posts/delete", "", "", `{"post_type":"post","delete_scope":"current_type","delete_related_media":true,"delete_related_terms":true}`)
	seed("GET /history", "", "type=post&limit=2&offset=1", ``)
	seed("GET /history", "", "limit=-1&offset=99999999999999999999", ``)
	seed("DELETE /history/{id}", "no-such-entry", "delete_content=maybe", `{"delete_content":true}`)
	seed("DELETE /history/{id}", "%00", "", ``)
	seed("DELETE /history/clear", "", "", ``)
	seed("POST /history/cleanup", "", "", ``)
	seed("DELETE /cleanup/all", "", "", ``)
	seed("GET /time-saved", "", "", ``)
	seed("POST /settings", "", "", `{"hourly_rate":1e308,"default_post_count":3,"locale":"de_DE","admin_locale":"fr_FR"}`)
	seed("POST /settings/ai", "", "", `{"provider":"ai_one","api_key":"k","enabled":true}`)
	seed("POST /settings/ai/test", "", "", `{"provider":"nope"}`)
	seed("POST /templates", "", "", `{"name":"T","post_type":"post","field_config":{"custom_fields":{"x":{"mode":"create"}}},"taxonomy_config":{"category":{"mode":"choose","term_ids":[1]}}}`)
	seed("PUT /templates/{id}", "1", "", `{"name":"","is_default":true}`)
	seed("POST /templates/{id}/variant", "1", "", `{"name":"V"}`)
	seed("POST /templates/import", "", "", `{"version":1,"templates":[{"name":"I","post_type":"page"}]}`)
	seed("GET /templates/export", "", "ids[]=1&ids[]=x", ``)
	seed("GET /templates/{first}/{second}", "1", "", ``)
	seed("DELETE /templates/{id}", "1", "new_default=2", ``)
	seed("POST /media/download", "", "", `{"count":2,"provider":"provider_random","width":100,"aspect_ratio":"1:1"}`)
	seed("POST /media/download", "", "", `{"count":21,"provider":"provider_curated","width":5000}`)

	f.Fuzz(func(t *testing.T, which uint8, value, query string, body []byte) {
		route := routes[int(which)%len(routes)]
		// A value with a slash would select another route.
		value = strings.ReplaceAll(value, "/", "")
		if value == "" {
			value = "1"
		}
		path := wildcard.ReplaceAllLiteralString(route.Pattern, value)
		req := httptest.NewRequestWithContext(context.Background(), route.Method, "/", bytes.NewReader(body))
		req.URL.Path, req.URL.RawQuery = path, query
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		newFuzzAPI(t, images).ServeHTTP(rec, req)
		requireEnvelope(t, route, rec, query, body)
	})
}

// requireEnvelope checks that an answer is in the envelope and not a
// server error.
func requireEnvelope(t *testing.T, route httpapi.Route, rec *httptest.ResponseRecorder, query string, body []byte) {
	t.Helper()
	where := route.String() + " ?" + query + " " + string(body)
	require.Less(t, rec.Code, 500, "%s gave %d: %s", where, rec.Code, rec.Body)
	require.Equal(t, "application/json; charset=utf-8", rec.Header().Get("Content-Type"), where)
	var out map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out), "%s: the answer is not a JSON object: %s", where, rec.Body)
	success, ok := out["success"].(bool)
	require.True(t, ok, "%s: no boolean success in %s", where, rec.Body)
	if rec.Code >= http.StatusBadRequest {
		require.False(t, success, where)
		require.NotEmpty(t, out["message"], where)
	}
}

// TestHugeHourlyRateKeepsTimeSavedEncodable is the first finding of
// FuzzAPI: an hourly rate near the largest float made the money saved
// overflow to +Inf, which JSON cannot carry, and GET /time-saved failed
// with 500. Such a rate is now refused, and the largest one accepted
// still gives an answer that encodes.
func TestHugeHourlyRateKeepsTimeSavedEncodable(t *testing.T) {
	t.Parallel()
	api := newFuzzAPI(t, newTinyImages(t))
	send := func(method, path, body string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		req := httptest.NewRequestWithContext(context.Background(), method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		api.ServeHTTP(rec, req)
		return rec
	}
	rec := send("POST", "/settings", `{"hourly_rate":1e308}`)
	require.Equal(t, http.StatusBadRequest, rec.Code)
	require.Contains(t, rec.Body.String(), "hourly_rate")
	require.Equal(t, http.StatusOK, send("POST", "/settings", `{"hourly_rate":1000000}`).Code)
	require.Equal(t, http.StatusOK, send("POST", "/generate/users", `{"count":2,"generate_avatars":false}`).Code)
	rec = send("GET", "/time-saved", "")
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	var out struct {
		TimeSavings struct {
			MoneySaved struct{ Amount float64 } `json:"money_saved"`
		} `json:"time_savings"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out))
	require.Positive(t, out.TimeSavings.MoneySaved.Amount)
}
