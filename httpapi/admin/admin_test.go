package admin_test

import (
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/admin"
	"github.com/contentgen/contentgen/httpapi/auth"
)

// verifierFunc adapts a function to admin.Verifier.
type verifierFunc func(r *http.Request, login, password string) (*auth.Principal, error)

func (f verifierFunc) Verify(r *http.Request, login, password string) (*auth.Principal, error) {
	return f(r, login, password)
}

var (
	tokenRe = regexp.MustCompile(`name="token" value="([^"]+)"`)
	nonceRe = regexp.MustCompile(`<meta name="contentgen-nonce" content="([^"]+)">`)
)

// get fetches a path of the site and returns the answer and its body.
func get(t *testing.T, c *http.Client, u string) (*http.Response, string) {
	t.Helper()
	resp, err := c.Get(u)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

// postForm posts a form with optional extra headers.
func postForm(t *testing.T, c *http.Client, u string, form url.Values, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("POST", u, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

// loginForm loads the login form and returns its token.
func (s *site) loginForm(t *testing.T, c *http.Client) string {
	t.Helper()
	resp, body := get(t, c, s.srv.URL+adminPath+"login")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	m := tokenRe.FindStringSubmatch(body)
	require.NotNil(t, m, "the login form carries a token: %s", body)
	return m[1]
}

// logIn submits the login form.
func (s *site) logIn(t *testing.T, c *http.Client, login, password string) (*http.Response, string) {
	t.Helper()
	token := s.loginForm(t, c)
	return postForm(t, c, s.srv.URL+adminPath+"login", url.Values{"token": {token}, "log": {login}, "pwd": {password}}, nil)
}

// page loads the admin page and returns its nonce.
func (s *site) page(t *testing.T, c *http.Client) string {
	t.Helper()
	resp, body := get(t, c, s.srv.URL+adminPath)
	require.Equal(t, http.StatusOK, resp.StatusCode, body)
	m := nonceRe.FindStringSubmatch(body)
	require.NotNil(t, m, "the page is handed its nonce")
	return m[1]
}

// apiStatus calls the API with the session cookie and nonce and returns
// the status and decoded answer.
func (s *site) apiStatus(t *testing.T, c *http.Client, path, nonce string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest("GET", s.srv.URL+apiBase+path, nil)
	require.NoError(t, err)
	if nonce != "" {
		req.Header.Set("X-Host-Nonce", nonce)
	}
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return resp.StatusCode, out
}

func requireSecurityHeaders(t *testing.T, resp *http.Response) {
	t.Helper()
	csp := resp.Header.Get("Content-Security-Policy")
	require.Contains(t, csp, "script-src 'self'")
	require.Contains(t, csp, "frame-ancestors 'none'")
	require.Contains(t, csp, "default-src 'none'")
	require.NotContains(t, csp, "unsafe-inline")
	require.NotContains(t, csp, "unsafe-eval")
	require.Contains(t, csp, "img-src 'self' data: blob: http://127.0.0.1:", "images from the site's address")
	require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
	require.Equal(t, "DENY", resp.Header.Get("X-Frame-Options"))
}

func TestPageNeedsALogin(t *testing.T) {
	t.Parallel()
	s := newSite(t, 0)
	c := s.client(t)
	resp, _ := get(t, c, s.srv.URL+adminPath)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	require.Equal(t, "login", resp.Header.Get("Location"), "relative, so that it works under any prefix")
	requireSecurityHeaders(t, resp)

	resp, body := get(t, c, s.srv.URL+adminPath+"login")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	requireSecurityHeaders(t, resp)
	require.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
	require.Contains(t, body, `action="login"`)
	require.NotContains(t, body, "contentgen-nonce", "no nonce before login")

	// Without the path's trailing slash the mux sends the browser to it.
	resp, _ = get(t, c, s.srv.URL+strings.TrimSuffix(adminPath, "/"))
	require.Equal(t, http.StatusTemporaryRedirect, resp.StatusCode)
	require.Equal(t, adminPath, resp.Header.Get("Location"))
	resp, _ = get(t, c, s.srv.URL+adminPath+"no-such-page")
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestLoginHandsThePageItsNonce(t *testing.T) {
	t.Parallel()
	s := newSite(t, 0)
	c := s.client(t)
	resp, _ := s.logIn(t, c, "admin", s.adminPW)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	require.Equal(t, "./", resp.Header.Get("Location"))
	var session *http.Cookie
	for _, ck := range resp.Cookies() {
		if ck.Name == s.sessions.CookieName {
			session = ck
		}
	}
	require.NotNil(t, session, "a session cookie is set")
	require.True(t, session.HttpOnly)
	require.Equal(t, http.SameSiteLaxMode, session.SameSite)
	require.False(t, session.Secure, "Secure is set only under TLS")

	nonce := s.page(t, c)
	status, body := s.apiStatus(t, c, "/settings", nonce)
	require.Equal(t, http.StatusOK, status, body)
	status, body = s.apiStatus(t, c, "/urls", nonce)
	require.Equal(t, http.StatusOK, status)
	urls := body["urls"].(map[string]any)
	require.Equal(t, nonce, urls["nonce"], "the page's nonce is the one /urls reports")
	require.Equal(t, s.srv.URL+adminPath, urls["admin_url"])

	status, _ = s.apiStatus(t, c, "/settings", "")
	require.Equal(t, http.StatusUnauthorized, status, "the cookie alone does not authenticate")
	status, _ = s.apiStatus(t, c, "/settings", "forged")
	require.Equal(t, http.StatusUnauthorized, status)

	// The nonce of one session fails on another session of the same user.
	other := s.client(t)
	resp, _ = s.logIn(t, other, "admin", s.adminPW)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	otherNonce := s.page(t, other)
	require.NotEqual(t, nonce, otherNonce)
	status, _ = s.apiStatus(t, other, "/settings", nonce)
	require.Equal(t, http.StatusUnauthorized, status, "a nonce from one session fails on another")
	status, _ = s.apiStatus(t, c, "/settings", otherNonce)
	require.Equal(t, http.StatusUnauthorized, status)
	status, _ = s.apiStatus(t, other, "/settings", otherNonce)
	require.Equal(t, http.StatusOK, status)

	// A logged-in user who opens the login form goes to the page.
	resp, _ = get(t, c, s.srv.URL+adminPath+"login")
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
}

func TestLoginSecureCookieUnderTLS(t *testing.T) {
	t.Parallel()
	s := newSite(t, 0)
	c := s.client(t)
	token := s.loginForm(t, c)
	req := httptest.NewRequest("POST", adminPath+"login", strings.NewReader(url.Values{"token": {token}, "log": {"admin"}, "pwd": {s.adminPW}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	u, err := url.Parse(s.srv.URL + adminPath)
	require.NoError(t, err)
	for _, ck := range c.Jar.Cookies(u) {
		req.AddCookie(ck)
	}
	req.TLS = &tls.ConnectionState{}
	rec := httptest.NewRecorder()
	s.mux.ServeHTTP(rec, req)
	resp := rec.Result()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	found := false
	for _, ck := range resp.Cookies() {
		if ck.Name == s.sessions.CookieName {
			found = true
			require.True(t, ck.Secure, "the session cookie of a page served over TLS is Secure")
			require.True(t, ck.HttpOnly)
		}
	}
	require.True(t, found)
}

func TestLoginFailures(t *testing.T) {
	t.Parallel()
	s := newSite(t, 0)
	c := s.client(t)

	resp, body := s.logIn(t, c, "admin", "wrong password")
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	require.Contains(t, body, "Unknown user name or wrong password.")
	require.Contains(t, body, `value="admin"`, "the user name is kept")
	requireSecurityHeaders(t, resp)

	resp, body = s.logIn(t, c, "editor1", s.editorPW)
	require.Equal(t, http.StatusForbidden, resp.StatusCode, "only users who may manage the site log in")
	require.Contains(t, body, "may not manage the site")

	resp, _ = s.logIn(t, c, "", "")
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)

	// A form without the token of this browser is refused: a page of
	// another site cannot log the browser in.
	resp, body = postForm(t, s.client(t), s.srv.URL+adminPath+"login", url.Values{"token": {"x"}, "log": {"admin"}, "pwd": {s.adminPW}}, nil)
	require.Equal(t, http.StatusForbidden, resp.StatusCode)
	require.Contains(t, body, "expired")
	// So is a cross-origin post, even with a token.
	token := s.loginForm(t, c)
	resp, _ = postForm(t, c, s.srv.URL+adminPath+"login", url.Values{"token": {token}, "log": {"admin"}, "pwd": {s.adminPW}},
		map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"})
	require.Equal(t, http.StatusForbidden, resp.StatusCode)

	// A huge form is a client mistake, not a server failure.
	token = s.loginForm(t, c)
	resp, _ = postForm(t, c, s.srv.URL+adminPath+"login", url.Values{"token": {token}, "log": {"admin"}, "pwd": {strings.Repeat("x", 1<<20)}}, nil)
	require.Equal(t, http.StatusBadRequest, resp.StatusCode)
}

func TestLoginIsThrottledLikeBasicAuth(t *testing.T) {
	t.Parallel()
	s := newSite(t, 0)
	c := s.client(t)
	for range 5 {
		resp, _ := s.logIn(t, c, "admin", "wrong password")
		require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	}
	resp, body := s.logIn(t, c, "admin", s.adminPW)
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "even the right password waits its turn")
	require.Contains(t, body, "Too many failed logins")
	require.NotEmpty(t, resp.Header.Get("Retry-After"))

	// The form and Basic authentication share one throttle.
	req, err := http.NewRequest("GET", s.srv.URL+apiBase+"/settings", nil)
	require.NoError(t, err)
	req.SetBasicAuth("admin", s.adminPW)
	apiResp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	apiResp.Body.Close()
	require.Equal(t, http.StatusTooManyRequests, apiResp.StatusCode)
	require.NotEmpty(t, apiResp.Header.Get("Retry-After"))

	s.clock.Advance(2 * time.Minute)
	resp, _ = s.logIn(t, c, "admin", s.adminPW)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode, "after the delay the right password works")
}

func TestSessionExpires(t *testing.T) {
	t.Parallel()
	s := newSite(t, 20*time.Minute)
	c := s.client(t)
	resp, _ := s.logIn(t, c, "admin", s.adminPW)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	nonce := s.page(t, c)

	s.clock.Advance(19 * time.Minute)
	status, _ := s.apiStatus(t, c, "/history/stats", nonce)
	require.Equal(t, http.StatusOK, status, "a used session stays alive")
	s.clock.Advance(19 * time.Minute)
	s.page(t, c)

	s.clock.Advance(21 * time.Minute)
	status, _ = s.apiStatus(t, c, "/history/stats", nonce)
	require.Equal(t, http.StatusUnauthorized, status, "an idle session ends")
	resp, _ = get(t, c, s.srv.URL+adminPath)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	require.Equal(t, "login", resp.Header.Get("Location"))
	_, body := get(t, c, s.srv.URL+adminPath+"login?expired=1")
	require.Contains(t, body, "Your session has expired")
}

func TestLogout(t *testing.T) {
	t.Parallel()
	s := newSite(t, 0)
	c := s.client(t)
	s.logIn(t, c, "admin", s.adminPW)
	nonce := s.page(t, c)

	// Without the nonce (a form posted by another site) nothing happens.
	resp, _ := postForm(t, c, s.srv.URL+adminPath+"logout", url.Values{"nonce": {"guess"}}, nil)
	require.Equal(t, http.StatusForbidden, resp.StatusCode)
	resp, _ = postForm(t, c, s.srv.URL+adminPath+"logout", url.Values{"nonce": {nonce}}, map[string]string{"Sec-Fetch-Site": "cross-site"})
	require.Equal(t, http.StatusForbidden, resp.StatusCode)
	status, _ := s.apiStatus(t, c, "/settings", nonce)
	require.Equal(t, http.StatusOK, status)

	resp, _ = postForm(t, c, s.srv.URL+adminPath+"logout", url.Values{"nonce": {nonce}}, nil)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	require.Equal(t, "login?out=1", resp.Header.Get("Location"))
	status, _ = s.apiStatus(t, c, "/settings", nonce)
	require.Equal(t, http.StatusUnauthorized, status, "the session has ended on the server")
	resp, _ = get(t, c, s.srv.URL+adminPath)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	_, body := get(t, c, s.srv.URL+adminPath+"login?out=1")
	require.Contains(t, body, "You are logged out.")
}

func TestAssets(t *testing.T) {
	t.Parallel()
	s := newSite(t, 0)
	c := s.client(t)
	s.logIn(t, c, "admin", s.adminPW)
	_, page := get(t, c, s.srv.URL+adminPath)
	require.NotRegexp(t, `<script(?:\s[^>]*)?>\s*[^<\s]`, page, "no inline script")
	require.NotContains(t, page, "style=", "no inline style")

	refs := regexp.MustCompile(`(?:src|href)="(assets/[^"]+)"`).FindAllStringSubmatch(page, -1)
	require.GreaterOrEqual(t, len(refs), 3)
	types := map[string]string{".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
	for _, ref := range refs {
		resp, body := get(t, c, s.srv.URL+adminPath+ref[1])
		require.Equal(t, http.StatusOK, resp.StatusCode, ref[1])
		ext := ref[1][strings.LastIndex(ref[1], "."):]
		require.Equal(t, types[ext], resp.Header.Get("Content-Type"), ref[1])
		require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
		require.NotEmpty(t, body)
		etag := resp.Header.Get("ETag")
		require.NotEmpty(t, etag)

		req, err := http.NewRequest("GET", s.srv.URL+adminPath+ref[1], nil)
		require.NoError(t, err)
		req.Header.Set("If-None-Match", etag)
		again, err := c.Do(req)
		require.NoError(t, err)
		again.Body.Close()
		require.Equal(t, http.StatusNotModified, again.StatusCode, "an unchanged asset is not sent again")
	}
	// The modules the page imports are served too.
	for _, name := range []string{"api.js", "dom.js", "i18n.js"} {
		resp, _ := get(t, c, s.srv.URL+adminPath+"assets/"+name)
		require.Equal(t, http.StatusOK, resp.StatusCode, name)
		require.Equal(t, "text/javascript; charset=utf-8", resp.Header.Get("Content-Type"))
	}
	// Settings that mean something only to a WordPress plugin (a
	// deactivation hook, telemetry that is never sent) are not offered.
	_, app := get(t, c, s.srv.URL+adminPath+"assets/app.js")
	for _, name := range []string{"telemetry_enabled", "delete_history_on_deactivate"} {
		require.NotContains(t, app, name)
	}
	resp, _ := get(t, c, s.srv.URL+adminPath+"assets/none.js")
	require.Equal(t, http.StatusNotFound, resp.StatusCode)
	resp, _ = get(t, c, s.srv.URL+adminPath+"assets/../pages/page.html")
	require.NotEqual(t, http.StatusOK, resp.StatusCode)
}

func TestPageSpeaksTheAdminLocale(t *testing.T) {
	t.Parallel()
	s := newSite(t, 0)
	c := s.client(t)
	_, body := get(t, c, s.srv.URL+adminPath+"login")
	require.Contains(t, body, `<html lang="en">`)
	require.Contains(t, body, "Log in")

	var prefs httpapi.Preferences
	_, err := s.gen.Settings().UpdateWith(t.Context(), &prefs, func(*contentgen.Settings) { prefs.AdminLocale = "de_DE" })
	require.NoError(t, err)
	_, body = get(t, c, s.srv.URL+adminPath+"login")
	require.Contains(t, body, `<html lang="de">`)
	require.Contains(t, body, "Anmelden")
	resp, body := s.logIn(t, c, "admin", "falsch")
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	require.Contains(t, body, "Unbekannter Benutzername oder falsches Passwort.")
}

func TestNewValidatesOptions(t *testing.T) {
	t.Parallel()
	s := newSite(t, 0)
	_, err := admin.New(nil)
	require.Error(t, err)
	_, err = admin.New(&admin.Options{Sessions: s.sessions, Verifier: verifierFunc(nil), APIBase: apiBase})
	require.ErrorContains(t, err, "Generator")
	_, err = admin.New(&admin.Options{Generator: s.gen, Verifier: verifierFunc(nil), APIBase: apiBase})
	require.ErrorContains(t, err, "Sessions")
	_, err = admin.New(&admin.Options{Generator: s.gen, Sessions: s.sessions, APIBase: apiBase})
	require.ErrorContains(t, err, "Verifier")
	_, err = admin.New(&admin.Options{Generator: s.gen, Sessions: s.sessions, Verifier: verifierFunc(nil)})
	require.ErrorContains(t, err, "APIBase")
}
