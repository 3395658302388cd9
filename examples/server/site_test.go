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

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/secrets"
	"github.com/contentgen/contentgen/examples/internal/site"
)

// TestRestartKeepsTheSite builds the demo server on a SQLite file,
// generates content, settings and time saved, and builds it again on the
// same file, as a restart does.
func TestRestartKeepsTheSite(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "site.db")
	const pw = "abcd efgh ijkl mnop qrst uvwx"
	start := func() (http.Handler, func() error) {
		srv, _, closeSite, err := newServer(ctx, serverConfig{addr: "127.0.0.1:1", base: "/api", adminPassword: pw, db: db})
		require.NoError(t, err)
		return srv.Handler, closeSite
	}
	call := func(h http.Handler, method, path, body string) map[string]any {
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

	h, closeSite := start()
	gen := call(h, "POST", "/api/generate/posts", `{"count":3,"image_provider":"provider_local","image_width":200,"image_height":150,"auto_comments":true}`)
	require.EqualValues(t, 3, gen["count"])
	call(h, "POST", "/api/settings", `{"hourly_rate":90}`)
	before := call(h, "GET", "/api/history/stats", "")["stats"].(map[string]any)["total"]
	post := call(h, "GET", "/api/content/posts/"+jsonNumber(gen["ids"].([]any)[0]), "")["post"].(map[string]any)
	image := post["featured_media"].(map[string]any)["url"].(string)
	require.NoError(t, closeSite())

	h, closeSite = start()
	defer closeSite()
	require.Equal(t, before, call(h, "GET", "/api/history/stats", "")["stats"].(map[string]any)["total"], "history survives")
	require.EqualValues(t, 90, call(h, "GET", "/api/settings", "")["settings"].(map[string]any)["general"].(map[string]any)["hourly_rate"])
	ts := call(h, "GET", "/api/time-saved", "")["time_savings"].(map[string]any)["total"].(map[string]any)
	require.Positive(t, ts["total_seconds"])
	require.EqualValues(t, 4, call(h, "GET", "/api/content/posts?post_type=post", "")["total"], "three generated posts and the hand-made one, created once")
	require.EqualValues(t, 4, call(h, "GET", "/api/templates", "")["total"], "starter templates are not installed twice")

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", strings.TrimPrefix(image, "http://127.0.0.1:1"), nil))
	require.Equal(t, http.StatusOK, rec.Code, "the featured image is served after the restart")
	require.Equal(t, "image/jpeg", rec.Header().Get("Content-Type"))

	call(h, "DELETE", "/api/cleanup/all", "")
	require.EqualValues(t, 1, call(h, "GET", "/api/content/posts?post_type=post", "")["total"])
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", strings.TrimPrefix(image, "http://127.0.0.1:1"), nil))
	require.Equal(t, http.StatusNotFound, rec.Code, "cleanup removes the files too")
}

func jsonNumber(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestAdminPasswordIsKept: a restart without -admin-password keeps the
// administrator's password of the first start, stored encrypted with the
// site; -admin-password replaces it; another key makes a new one.
func TestAdminPasswordIsKept(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "site.db")
	kr, _, err := secrets.LoadOrCreateKeyFile(filepath.Join(dir, "key"))
	require.NoError(t, err)
	start := func(kr *secrets.Keyring, given string) (string, http.Handler) {
		t.Helper()
		srv, creds, closeSite, err := newServer(ctx, serverConfig{addr: "127.0.0.1:1", base: "/api", adminPassword: given, db: db, keyring: kr})
		require.NoError(t, err)
		require.NoError(t, closeSite())
		return creds[0].password, srv.Handler
	}
	first, _ := start(kr, "")
	require.Len(t, first, 29, "six groups of four")
	again, _ := start(kr, "")
	require.Equal(t, first, again, "a restart keeps the password")

	st, err := site.Open(ctx, db, "", contentgen.Site{}, nil)
	require.NoError(t, err)
	stored, err := st.State.Load(ctx, adminPasswordKey)
	require.NoError(t, err)
	require.NoError(t, st.Close())
	require.NotEmpty(t, stored)
	require.NotContains(t, string(stored), first, "kept encrypted")
	require.NotContains(t, string(stored), strings.ReplaceAll(first, " ", ""))

	chosen, _ := start(kr, "abcd efgh ijkl mnop qrst uvwx")
	require.Equal(t, "abcd efgh ijkl mnop qrst uvwx", chosen)
	kept, _ := start(kr, "")
	require.Equal(t, chosen, kept, "the password last chosen is kept")

	other, _, err := secrets.LoadOrCreateKeyFile(filepath.Join(dir, "other-key"))
	require.NoError(t, err)
	fresh, _ := start(other, "")
	require.NotEqual(t, chosen, fresh, "a key that cannot open it makes a new one")
}
