package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/auth"
)

const base = "/contentgen/v1"

// env is a demo site served over real HTTP with real authentication.
type env struct {
	t        *testing.T
	srv      *httptest.Server
	host     *memhost.Host
	gen      *contentgen.Generator
	sessions *auth.Sessions
	adminPW  string
	editorPW string
	// db is the SQL store of a runs env (nil otherwise).
	db *sqlstore.DB
}

func newEnv(t *testing.T) *env { return newEnvWith(t, nil, nil) }

// newEnvWith is newEnv with changes to the Generator's and the API's
// configuration.
func newEnvWith(t *testing.T, cfg func(*contentgen.Config), opts func(*httpapi.Options)) *env {
	t.Helper()
	ctx := context.Background()
	host, err := demosite.New(nil)
	require.NoError(t, err)
	seed := int64(7)
	config := &contentgen.Config{Seed: &seed}
	if cfg != nil {
		cfg(config)
	}
	gen, err := contentgen.New(host, history.NewMemStore(nil), config)
	require.NoError(t, err)
	_, err = host.CreateUsers(ctx, []contentgen.User{{Login: "editor1", Email: "editor1@example.com", DisplayName: "Editor", Roles: []string{"editor"}}})
	require.NoError(t, err)

	authn, err := auth.New(auth.GeneratorDirectory(gen), nil)
	require.NoError(t, err)
	adminPW, err := authn.Passwords.NewAppPassword("admin", "tests")
	require.NoError(t, err)
	editorPW, err := authn.Passwords.NewAppPassword("editor1", "tests")
	require.NoError(t, err)
	sessions := authn.Sessions
	options := &httpapi.Options{Auth: authn, Sessions: sessions}
	if opts != nil {
		opts(options)
	}
	api, err := httpapi.New(gen, options)
	require.NoError(t, err)
	mux := http.NewServeMux()
	httpapi.Mount(mux, base, api)
	srv := httptest.NewServer(checkContract(t, mux))
	t.Cleanup(srv.Close)
	return &env{t: t, srv: srv, host: host, gen: gen, sessions: sessions, adminPW: adminPW, editorPW: editorPW}
}

// who names the credentials of a request.
type who int

const (
	asAdmin who = iota
	asEditor
	asNobody
	asWrongPassword
)

// do sends a request and decodes the JSON answer.
func (e *env) do(method, path string, body any, as who) (int, map[string]any) {
	e.t.Helper()
	status, raw := e.raw(method, path, body, as)
	var out map[string]any
	require.NoError(e.t, json.Unmarshal(raw, &out), "response of %s %s is not a JSON object: %s", method, path, raw)
	return status, out
}

func (e *env) raw(method, path string, body any, as who) (int, []byte) {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		require.NoError(e.t, err)
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, e.srv.URL+base+path, rd)
	require.NoError(e.t, err)
	req.Header.Set("Content-Type", "application/json")
	switch as {
	case asAdmin:
		req.SetBasicAuth("admin", e.adminPW)
	case asEditor:
		req.SetBasicAuth("editor1", e.editorPW)
	case asWrongPassword:
		req.SetBasicAuth("admin", "abcd efgh ijkl mnop qrst uvwx")
	}
	resp, err := e.srv.Client().Do(req)
	require.NoError(e.t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(e.t, err)
	return resp.StatusCode, raw
}

// requireShape checks that obj has exactly these JSON types at these keys
// ("string", "number", "boolean", "array", "object", "null", or
// alternatives joined by "|").
func requireShape(t *testing.T, obj map[string]any, shape map[string]string) {
	t.Helper()
	for key, want := range shape {
		v, ok := obj[key]
		require.True(t, ok, "missing field %q in %v", key, obj)
		got := jsonType(v)
		require.Contains(t, strings.Split(want, "|"), got, "field %q has JSON type %s, want %s", key, got, want)
	}
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	paths := []struct{ method, path string }{
		{"GET", "/cpts/all"},
		{"POST", "/generate/posts"},
		{"DELETE", "/cleanup/all"},
		{"GET", "/settings"},
		{"GET", "/no/such/route"},
	}
	for _, p := range paths {
		t.Run(p.method+p.path, func(t *testing.T) {
			status, body := e.do(p.method, p.path, nil, asNobody)
			require.Equal(t, http.StatusUnauthorized, status)
			require.Equal(t, map[string]any{"success": false, "code": "rest_not_logged_in", "message": body["message"]}, body)

			status, body = e.do(p.method, p.path, nil, asWrongPassword)
			require.Equal(t, http.StatusUnauthorized, status)
			require.Equal(t, "rest_not_logged_in", body["code"])

			status, body = e.do(p.method, p.path, nil, asEditor)
			require.Equal(t, http.StatusForbidden, status)
			require.Equal(t, "rest_forbidden", body["code"])
		})
	}
	// Nothing was generated by the rejected requests.
	_, total, err := e.gen.History().List(context.Background(), contentgen.HistoryQuery{})
	require.NoError(t, err)
	require.Zero(t, total)
}

func TestApplicationPasswordSpacesArePartOfIt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	require.Contains(t, e.adminPW, " ")
	req, err := http.NewRequest("GET", e.srv.URL+base+"/cpts/all", nil)
	require.NoError(t, err)
	req.SetBasicAuth("admin", strings.ReplaceAll(e.adminPW, " ", ""))
	resp, err := e.srv.Client().Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}

func TestCookieAndNonce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cookie, err := e.sessions.Create("admin")
	require.NoError(t, err)

	// The nonce comes from GET /urls of the same session.
	send := func(nonceHeader, nonce string) (int, map[string]any) {
		req, err := http.NewRequest("GET", e.srv.URL+base+"/urls", nil)
		require.NoError(t, err)
		req.AddCookie(cookie)
		if nonceHeader != "" {
			req.Header.Set(nonceHeader, nonce)
		}
		resp, err := e.srv.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var out map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		return resp.StatusCode, out
	}
	status, _ := send("", "")
	require.Equal(t, http.StatusUnauthorized, status, "a cookie without nonce must not authenticate")
	status, _ = send("X-Host-Nonce", "forged")
	require.Equal(t, http.StatusUnauthorized, status)

	nonce := e.sessions.Nonce(&auth.Principal{Login: "admin", Session: cookie.Value})
	for _, h := range []string{"X-Host-Nonce", "X-WP-Nonce"} {
		status, body := send(h, nonce)
		require.Equal(t, http.StatusOK, status, h)
		urls := body["urls"].(map[string]any)
		require.Equal(t, nonce, urls["nonce"])
	}
}

func jsonDecode(resp *http.Response, v any) error { return json.NewDecoder(resp.Body).Decode(v) }
