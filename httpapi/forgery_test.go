package httpapi_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/auth"
)

// forged is a request as a browser or a program sends it.
type forged struct {
	name                 string
	method, path         string
	contentType, body    string
	origin, secFetchSite string
	anonymous            bool
	wantStatus           int
	wantCode             string
}

// sendForged sends f as admin (unless anonymous) and returns the status,
// the decoded answer and the WWW-Authenticate header.
func (e *env) sendForged(f forged) (int, map[string]any, string) {
	e.t.Helper()
	var rd io.Reader
	if f.body != "" {
		rd = bytes.NewReader([]byte(f.body))
	}
	req, err := http.NewRequest(f.method, e.srv.URL+base+f.path, rd)
	require.NoError(e.t, err)
	if f.contentType != "" {
		req.Header.Set("Content-Type", f.contentType)
	}
	if f.origin != "" {
		req.Header.Set("Origin", f.origin)
	}
	if f.secFetchSite != "" {
		req.Header.Set("Sec-Fetch-Site", f.secFetchSite)
	}
	if !f.anonymous {
		req.SetBasicAuth("admin", e.adminPW)
	}
	resp, err := e.srv.Client().Do(req)
	require.NoError(e.t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(e.t, err)
	var out map[string]any
	require.NoError(e.t, json.Unmarshal(raw, &out), "%s: %s", f.name, raw)
	return resp.StatusCode, out, resp.Header.Get("WWW-Authenticate")
}

// A page on another site must not be able to change anything through a
// browser that remembers the user's Basic credentials: neither with a
// form (text/plain, urlencoded, multipart) nor with fetch, whatever the
// credentials, and before any handler (or password check) runs.
func TestCrossSiteWritesAreRefusedBeforeAnyHandler(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, nil, func(o *httpapi.Options) { o.TrustedOrigins = []string{"https://admin.example"} })
	const evil = "https://evil.example"
	settings := `{"hourly_rate":1,"default_post_count":500}`
	for _, f := range []forged{
		{name: "text/plain form from another site", method: "POST", path: "/settings", contentType: "text/plain", body: settings, origin: evil, secFetchSite: "cross-site",
			wantStatus: http.StatusForbidden, wantCode: "cross_origin_request"},
		{name: "fetch with JSON from another site", method: "POST", path: "/settings", contentType: "application/json", body: settings, origin: evil, secFetchSite: "cross-site",
			wantStatus: http.StatusForbidden, wantCode: "cross_origin_request"},
		{name: "a sibling host name", method: "POST", path: "/settings", contentType: "application/json", body: settings, origin: "https://other.127.0.0.1.example", secFetchSite: "same-site",
			wantStatus: http.StatusForbidden, wantCode: "cross_origin_request"},
		{name: "an old browser sends only Origin", method: "POST", path: "/generate/posts", contentType: "text/plain", body: `{"count":3,"x":"="}`, origin: evil,
			wantStatus: http.StatusForbidden, wantCode: "cross_origin_request"},
		{name: "a body-less DELETE from another site", method: "DELETE", path: "/cleanup/all", origin: evil, secFetchSite: "cross-site",
			wantStatus: http.StatusForbidden, wantCode: "cross_origin_request"},
		{name: "without credentials too, so that no password prompt appears", method: "POST", path: "/settings", contentType: "text/plain", body: settings, origin: evil, secFetchSite: "cross-site", anonymous: true,
			wantStatus: http.StatusForbidden, wantCode: "cross_origin_request"},
		{name: "a multipart upload from another site", method: "POST", path: "/media/upload", contentType: "multipart/form-data; boundary=x", body: "--x--\r\n", origin: evil, secFetchSite: "cross-site",
			wantStatus: http.StatusForbidden, wantCode: "cross_origin_request"},
		{name: "JSON as text/plain", method: "POST", path: "/settings", contentType: "text/plain", body: settings,
			wantStatus: http.StatusUnsupportedMediaType, wantCode: "unsupported_media_type"},
		{name: "JSON as a urlencoded form", method: "POST", path: "/generate/posts", contentType: "application/x-www-form-urlencoded", body: `{"count":3}`,
			wantStatus: http.StatusUnsupportedMediaType, wantCode: "unsupported_media_type"},
		{name: "JSON without Content-Type", method: "POST", path: "/settings", body: settings,
			wantStatus: http.StatusUnsupportedMediaType, wantCode: "unsupported_media_type"},
		{name: "JSON as multipart where JSON is read", method: "PUT", path: "/templates/1", contentType: "multipart/form-data; boundary=x", body: settings,
			wantStatus: http.StatusUnsupportedMediaType, wantCode: "unsupported_media_type"},
		{name: "a wrong type before the credentials are checked", method: "POST", path: "/settings", contentType: "text/plain", body: settings, anonymous: true,
			wantStatus: http.StatusUnsupportedMediaType, wantCode: "unsupported_media_type"},
	} {
		status, body, challenge := e.sendForged(f)
		require.Equal(t, f.wantStatus, status, "%s: %v", f.name, body)
		require.Equal(t, f.wantCode, body["code"], f.name)
		require.Equal(t, false, body["success"], f.name)
		require.NotEmpty(t, body["message"], f.name)
		require.Empty(t, challenge, "%s: a refused request must not make the browser ask for a password", f.name)
	}
	status, body := e.do("GET", "/settings", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	general := body["settings"].(map[string]any)["general"].(map[string]any)
	require.EqualValues(t, 75, general["hourly_rate"], "a refused request changed the settings")
	require.EqualValues(t, 5, general["default_post_count"], "a refused request changed the settings")
	status, body = e.do("GET", "/content/posts?generated=true", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.EqualValues(t, 0, body["total"], "a refused request generated posts")

	// What a same-origin page, a trusted origin and programs send passes.
	for _, f := range []forged{
		{name: "the API's own origin", method: "POST", path: "/settings", contentType: "application/json", body: `{"hourly_rate":80}`, origin: e.srv.URL, secFetchSite: "same-origin"},
		{name: "a trusted origin", method: "POST", path: "/settings", contentType: "application/json", body: `{"hourly_rate":81}`, origin: "https://admin.example", secFetchSite: "cross-site"},
		{name: "Origin of the same host without Sec-Fetch-Site", method: "POST", path: "/settings", contentType: "application/json; charset=utf-8", body: `{"hourly_rate":82}`, origin: e.srv.URL},
		{name: "curl --json", method: "POST", path: "/settings", contentType: "application/json", body: `{"hourly_rate":83}`},
		{name: "a body-less DELETE", method: "DELETE", path: "/time-saved"},
		{name: "a body-less POST", method: "POST", path: "/history/cleanup"},
		{name: "a cross-site read", method: "GET", path: "/settings", origin: evil, secFetchSite: "cross-site"},
	} {
		status, body, _ := e.sendForged(f)
		require.Equal(t, http.StatusOK, status, "%s: %v", f.name, body)
	}
	status, body = e.do("GET", "/settings", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.EqualValues(t, 83, body["settings"].(map[string]any)["general"].(map[string]any)["hourly_rate"])

	// Multipart stays the upload's format.
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile("file", "notes.txt")
	require.NoError(t, err)
	_, err = fw.Write([]byte("plain notes\n"))
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	status, body = e.send("/media/upload", mw.FormDataContentType(), buf.Bytes())
	require.Equal(t, http.StatusOK, status, body)
}

func TestTrustedOriginsAreValidated(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, err := httpapi.New(e.gen, &httpapi.Options{Auth: auth.Chain(), TrustedOrigins: []string{"admin.example/path"}})
	require.ErrorContains(t, err, "TrustedOrigins")
	_, err = auth.NewCrossOriginProtection("https://admin.example", "http://127.0.0.1:9000")
	require.NoError(t, err)
}
