package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/auth"
)

// clock is a settable clock for tests.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func TestExpiredCookieSessionIsRejected(t *testing.T) {
	t.Parallel()
	clk := newClock()
	sessions, err := auth.NewSessions(&auth.SessionOptions{IdleTimeout: 10 * time.Minute, Now: clk.Now})
	require.NoError(t, err)
	e := newEnv(t)
	api, err := httpapi.New(e.gen, &httpapi.Options{
		Auth:     &auth.Cookie{Sessions: sessions, Users: auth.GeneratorDirectory(e.gen)},
		Sessions: sessions,
	})
	require.NoError(t, err)
	c, err := sessions.Create("admin")
	require.NoError(t, err)
	nonce := sessions.Nonce(&auth.Principal{Login: "admin", Session: c.Value})
	get := func() int {
		req := httptest.NewRequest("GET", "/settings", nil)
		req.AddCookie(c)
		req.Header.Set("X-Host-Nonce", nonce)
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, req)
		return rec.Code
	}
	require.Equal(t, http.StatusOK, get())
	clk.Advance(9 * time.Minute)
	require.Equal(t, http.StatusOK, get())
	clk.Advance(10 * time.Minute)
	require.Equal(t, http.StatusUnauthorized, get(), "the session expired while idle")

	// The page of an ended session is not asked for Basic credentials,
	// which would make the browser prompt for a password over it; other
	// clients are.
	req := httptest.NewRequest("GET", "/settings", nil)
	req.AddCookie(c)
	req.Header.Set("X-Host-Nonce", nonce)
	rec := httptest.NewRecorder()
	api.ServeHTTP(rec, req)
	require.Equal(t, http.StatusUnauthorized, rec.Code)
	require.Empty(t, rec.Header().Get("WWW-Authenticate"))
	rec = httptest.NewRecorder()
	api.ServeHTTP(rec, httptest.NewRequest("GET", "/settings", nil))
	require.Equal(t, http.StatusUnauthorized, rec.Code)
	require.Contains(t, rec.Header().Get("WWW-Authenticate"), "Basic")
}

func TestURLsReportPathsOnTheRequestHost(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, nil, func(o *httpapi.Options) { o.URLs.AdminURL = "/contentgen/admin/" })
	status, body := e.do("GET", "/urls", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	urls := body["urls"].(map[string]any)
	require.Equal(t, e.srv.URL+"/contentgen/admin/", urls["admin_url"])
	require.Equal(t, "", urls["ajax_url"], "no address is advertised that nothing serves")
}
