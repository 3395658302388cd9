package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAdminPathBesideTheAPI(t *testing.T) {
	t.Parallel()
	for base, want := range map[string]string{
		"/contentgen/v1": "/contentgen/admin/",
		"contentgen/v1/": "/contentgen/admin/",
		"/api":           "/admin/",
		"/":              "/admin/",
		"/a/b/v2":        "/a/b/admin/",
	} {
		require.Equal(t, want, adminPathOf(base), base)
	}
}

// TestAdminPageIsServedAtAdminURL checks that the address /urls reports
// as admin_url answers with the admin page, and that no dead ajax_url is
// advertised.
func TestAdminPageIsServedAtAdminURL(t *testing.T) {
	t.Parallel()
	const pw = "abcd efgh ijkl mnop qrst uvwx"
	srv, _, closeSite, err := newServer(context.Background(), serverConfig{addr: "127.0.0.1:1", base: "/contentgen/v1", adminPassword: pw, db: "memory"})
	require.NoError(t, err)
	defer closeSite()
	h := srv.Handler

	req := httptest.NewRequest("GET", "/contentgen/v1/urls", nil)
	req.SetBasicAuth("admin", pw)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	var body struct {
		URLs map[string]string `json:"urls"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body))
	adminURL := body.URLs["admin_url"]
	require.Equal(t, "http://example.com/contentgen/admin/", adminURL, "the admin page's address on the host the request reached")
	require.Empty(t, body.URLs["ajax_url"])

	path := strings.TrimPrefix(adminURL, "http://example.com")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	require.Equal(t, http.StatusSeeOther, rec.Code)
	require.Equal(t, "login", rec.Header().Get("Location"))
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", path+"login", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, rec.Body.String(), `<form method="post" action="login"`)
	require.NotEmpty(t, rec.Header().Get("Content-Security-Policy"))
}

// TestWritesFromOtherSitesAreRefused checks that neither the API nor
// /login can be driven by a page of another site through a browser that
// remembers the admin's Basic credentials, while the server's own pages,
// -trusted-origin and programs keep working.
func TestWritesFromOtherSitesAreRefused(t *testing.T) {
	t.Parallel()
	const pw = "abcd efgh ijkl mnop qrst uvwx"
	srv, _, closeSite, err := newServer(context.Background(), serverConfig{addr: "127.0.0.1:1", base: "/contentgen/v1", adminPassword: pw, db: "memory",
		trustedOrigins: []string{"https://admin.example"}})
	require.NoError(t, err)
	defer closeSite()
	send := func(method, path, contentType, body, origin, site string) int {
		t.Helper()
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.SetBasicAuth("admin", pw)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
			req.Header.Set("Sec-Fetch-Site", site)
		}
		rec := httptest.NewRecorder()
		srv.Handler.ServeHTTP(rec, req)
		return rec.Code
	}
	const evil = "https://evil.example"
	require.Equal(t, http.StatusForbidden, send("POST", "/login", "", "", evil, "cross-site"))
	require.Equal(t, http.StatusForbidden, send("POST", "/contentgen/v1/settings", "text/plain", `{"hourly_rate":1}`, evil, "cross-site"))
	require.Equal(t, http.StatusUnsupportedMediaType, send("POST", "/contentgen/v1/settings", "text/plain", `{"hourly_rate":1}`, "", ""))

	require.Equal(t, http.StatusOK, send("POST", "/login", "", "", "http://example.com", "same-origin"))
	require.Equal(t, http.StatusOK, send("POST", "/login", "", "", "https://admin.example", "cross-site"))
	require.Equal(t, http.StatusOK, send("POST", "/contentgen/v1/settings", "application/json", `{"hourly_rate":80}`, "https://admin.example", "cross-site"))
	require.Equal(t, http.StatusOK, send("POST", "/contentgen/v1/settings", "application/json", `{"hourly_rate":81}`, "", ""))
}

func TestTrustedOriginFlag(t *testing.T) {
	t.Parallel()
	var o originFlags
	require.NoError(t, o.Set("https://admin.example"))
	require.NoError(t, o.Set("http://127.0.0.1:9000"))
	require.Error(t, o.Set("admin.example"))
	require.Equal(t, originFlags{"https://admin.example", "http://127.0.0.1:9000"}, o)
}

// TestLoginLockOutIsNotAWrongPassword checks that /login answers a
// throttled attempt with 429 and Retry-After rather than 401.
func TestLoginLockOutIsNotAWrongPassword(t *testing.T) {
	t.Parallel()
	const pw = "abcd efgh ijkl mnop qrst uvwx"
	srv, _, closeSite, err := newServer(context.Background(), serverConfig{addr: "127.0.0.1:1", base: "/contentgen/v1", adminPassword: pw, db: "memory"})
	require.NoError(t, err)
	defer closeSite()
	login := func(password string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "/login", nil)
		req.SetBasicAuth("admin", password)
		rec := httptest.NewRecorder()
		srv.Handler.ServeHTTP(rec, req)
		return rec
	}
	for range 5 {
		require.Equal(t, http.StatusUnauthorized, login("wrong").Code)
	}
	rec := login(pw)
	require.Equal(t, http.StatusTooManyRequests, rec.Code)
	require.NotEmpty(t, rec.Header().Get("Retry-After"))
}
