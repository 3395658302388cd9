package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/examples/internal/site"
	"github.com/contentgen/contentgen/internal/wptest"
)

// TestServerInFrontOfWordPress serves the API in front of a real
// WordPress site (database mode): discovery shows what PHP registered,
// generation and cleanup act on the site's own tables, and the history is
// kept in its database.
func TestServerInFrontOfWordPress(t *testing.T) {
	s := wptest.Get(t, wptest.EnvDB, wptest.EnvUploads)
	wptest.Exclusive(t, s)
	const pw = "abcd efgh ijkl mnop qrst uvwx"
	srv, _, closeSite, err := newServer(context.Background(), serverConfig{
		addr: "127.0.0.1:1", base: "/api", adminPassword: pw, db: "memory",
		wordpress: site.WordPress{URL: s.URL, User: s.User, AppPassword: s.AppPassword, DB: s.DB, Uploads: s.Uploads},
	})
	require.NoError(t, err)
	defer closeSite()
	h := srv.Handler
	call := func(method, path, body string) map[string]any {
		t.Helper()
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth("admin", pw)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		require.Less(t, rec.Code, 300, rec.Body.String())
		var out map[string]any
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out))
		return out
	}

	var names []string
	for _, pt := range call("GET", "/api/cpts/all", "")["result"].([]any) {
		names = append(names, pt.(map[string]any)["name"].(string))
	}
	require.Subset(t, names, []string{"post", "book"}, "the types WordPress registers, the test site's book included")

	gen := call("POST", "/api/generate/posts", `{"count":5,"post_type":"book","image_provider":"provider_local","image_width":200,"image_height":150}`)
	require.EqualValues(t, 5, gen["count"])
	id := jsonNumber(gen["ids"].([]any)[0])
	post := call("GET", "/api/content/posts/"+id, "")["post"].(map[string]any)
	image := post["featured_media"].(map[string]any)["url"].(string)
	require.True(t, strings.HasPrefix(image, s.URL+"/wp-content/uploads/"), image)
	resp, err := http.Get(image)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "WordPress serves the image")

	resp, err = http.Get(s.URL + "/?p=" + id)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "and the post's page")

	require.Positive(t, call("GET", "/api/history/stats", "")["stats"].(map[string]any)["total"])
	call("DELETE", "/api/cleanup/all", "")
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/api/content/posts/"+id, nil)
	req.SetBasicAuth("admin", pw)
	h.ServeHTTP(rec, req)
	require.Equal(t, http.StatusNotFound, rec.Code, "cleanup removed the post from the site")
}

// TestServerInFrontOfWordPressWithoutUploads serves a WordPress site in
// database mode without its uploads directory: a run asking for featured
// images drawn locally, which can be neither written into the site nor
// recorded by a URL, makes its posts without them and says so in a
// warning, instead of failing.
func TestServerInFrontOfWordPressWithoutUploads(t *testing.T) {
	s := wptest.Get(t, wptest.EnvDB)
	wptest.Exclusive(t, s)
	const pw = "abcd efgh ijkl mnop qrst uvwx"
	srv, _, closeSite, err := newServer(context.Background(), serverConfig{
		addr: "127.0.0.1:1", base: "/api", adminPassword: pw, db: "memory",
		wordpress: site.WordPress{URL: s.URL, User: s.User, AppPassword: s.AppPassword, DB: s.DB},
	})
	require.NoError(t, err)
	defer closeSite()
	call := func(method, path, body string) (int, map[string]any) {
		t.Helper()
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth("admin", pw)
		rec := httptest.NewRecorder()
		srv.Handler.ServeHTTP(rec, req)
		var out map[string]any
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out), rec.Body.String())
		return rec.Code, out
	}
	defer call("DELETE", "/api/cleanup/all", "")

	code, gen := call("POST", "/api/generate/posts", `{"count":3,"set_featured_image":true,"image_provider":"provider_local"}`)
	require.Equal(t, http.StatusOK, code, "%v", gen)
	require.EqualValues(t, 3, gen["count"])
	require.Len(t, gen["ids"], 3)
	require.Equal(t, []any{"3 images from provider_local were left out: the site keeps no media files, and these images have no URL to be recorded by"}, gen["warnings"])
	require.EqualValues(t, 3, gen["variation_stats"].(map[string]any)["without_featured_image"])
	for _, id := range gen["ids"].([]any) {
		code, post := call("GET", "/api/content/posts/"+jsonNumber(id), "")
		require.Equal(t, http.StatusOK, code, "%v", post)
		require.Nil(t, post["post"].(map[string]any)["featured_media"], "the post is made without an image")
	}
}

// TestRunsInFrontOfWordPress: in front of a WordPress site written
// through its database, POST /runs makes its posts in the site, the jobs
// kept where -db says, and the run is followed to its end over its
// events; in front of one reached through its REST API only, /runs
// answers 503 not_configured saying why.
func TestRunsInFrontOfWordPress(t *testing.T) {
	s := wptest.Get(t, wptest.EnvDB)
	wptest.Exclusive(t, s)
	wp := site.WordPress{URL: s.URL, User: s.User, AppPassword: s.AppPassword, DB: s.DB}
	base := newTestServer(t, serverConfig{
		addr: "127.0.0.1:1", base: "/api", adminPassword: testPassword, workers: 2,
		db: filepath.Join(t.TempDir(), "runs.db"), wordpress: wp,
	})
	call := func(method, path, body string) (int, map[string]any) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, base+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth("admin", testPassword)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var out map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		return resp.StatusCode, out
	}
	defer call("DELETE", "/cleanup/all", "")
	_, before := call("GET", "/history/stats", "")
	code, out := call("POST", "/runs", `{"kind":"posts","count":260,"batch_size":100,"set_featured_image":false,"auto_comments":true,"comments_per_post_min":1,"comments_per_post_max":1}`)
	require.Equal(t, http.StatusAccepted, code, "%v", out)
	id := out["id"].(string)
	run, err := followRun(t.Context(), base+"/runs/"+id+"/events", testPassword, func(runRecord) bool { return false })
	require.NoError(t, err)
	require.Equal(t, "succeeded", run.Status, "%+v", run)
	require.EqualValues(t, 260, run.Done)
	require.EqualValues(t, 3, run.BatchesDone)
	_, after := call("GET", "/history/stats", "")
	count := func(stats map[string]any, typ string) int {
		n, _ := stats["stats"].(map[string]any)["by_type"].(map[string]any)[typ].(float64)
		return int(n)
	}
	require.Equal(t, 260, count(after, "post")-count(before, "post"), "the run's posts are in the site, tracked")
	require.Equal(t, 260, count(after, "comment")-count(before, "comment"), "with their comments")

	rest := newTestServer(t, serverConfig{
		addr: "127.0.0.1:1", base: "/api", adminPassword: testPassword, workers: 1,
		db: filepath.Join(t.TempDir(), "history.db"), wordpress: site.WordPress{URL: s.URL, User: s.User, AppPassword: s.AppPassword},
	})
	req, err := http.NewRequestWithContext(t.Context(), "POST", rest+"/runs", strings.NewReader(`{"kind":"posts","count":600}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth("admin", testPassword)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	require.Equal(t, "not_configured", out["code"])
	require.Contains(t, out["message"], "REST API")
	require.Contains(t, out["message"], "-wordpress-db")
}
