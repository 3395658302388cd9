package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
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
