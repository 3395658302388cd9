package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/httpapi"
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

func TestSessionIdleTimeout(t *testing.T) {
	t.Parallel()
	clk := newClock()
	s, err := httpapi.NewSessionsWith(&httpapi.SessionOptions{IdleTimeout: 30 * time.Minute, MaxAge: -1, Now: clk.Now})
	require.NoError(t, err)
	c, err := s.Create("admin")
	require.NoError(t, err)

	// Every use restarts the idle timeout.
	for range 5 {
		clk.Advance(29 * time.Minute)
		login, ok := s.Lookup(c.Value)
		require.True(t, ok)
		require.Equal(t, "admin", login)
	}
	clk.Advance(30 * time.Minute)
	_, ok := s.Lookup(c.Value)
	require.False(t, ok, "a session unused for the idle timeout has ended")
	clk.Advance(-time.Hour)
	_, ok = s.Lookup(c.Value)
	require.False(t, ok, "an expired session is gone, not just hidden")
}

func TestSessionMaxAge(t *testing.T) {
	t.Parallel()
	clk := newClock()
	s, err := httpapi.NewSessionsWith(&httpapi.SessionOptions{IdleTimeout: time.Hour, MaxAge: 4 * time.Hour, Now: clk.Now})
	require.NoError(t, err)
	c, err := s.Create("admin")
	require.NoError(t, err)
	require.Equal(t, 4*60*60, c.MaxAge, "the cookie lives no longer than the session")
	require.True(t, c.HttpOnly)
	require.Equal(t, http.SameSiteLaxMode, c.SameSite)
	for range 7 {
		clk.Advance(30 * time.Minute)
		_, ok := s.Lookup(c.Value)
		require.True(t, ok)
	}
	clk.Advance(30 * time.Minute)
	_, ok := s.Lookup(c.Value)
	require.False(t, ok, "a busy session still ends at its maximum age")
}

func TestSessionDefaultsEndAndBound(t *testing.T) {
	t.Parallel()
	clk := newClock()
	s, err := httpapi.NewSessionsWith(&httpapi.SessionOptions{MaxSessions: 2, Now: clk.Now})
	require.NoError(t, err)
	a, err := s.Create("a")
	require.NoError(t, err)
	clk.Advance(time.Minute)
	b, err := s.Create("b")
	require.NoError(t, err)
	clk.Advance(time.Minute)
	_, ok := s.Lookup(a.Value) // a is now the most recently used
	require.True(t, ok)
	c, err := s.Create("c")
	require.NoError(t, err)
	_, ok = s.Lookup(b.Value)
	require.False(t, ok, "the store is full: the session used least recently made room")
	_, ok = s.Lookup(a.Value)
	require.True(t, ok)

	s.End(c.Value)
	_, ok = s.Lookup(c.Value)
	require.False(t, ok)
	_, ok = s.Lookup("")
	require.False(t, ok)

	// The default idle timeout is one hour.
	clk.Advance(time.Hour)
	_, ok = s.Lookup(a.Value)
	require.False(t, ok)

	_, err = httpapi.NewSessionsWith(&httpapi.SessionOptions{MaxSessions: -1})
	require.Error(t, err)
}

func TestExpiredCookieSessionIsRejected(t *testing.T) {
	t.Parallel()
	clk := newClock()
	sessions, err := httpapi.NewSessionsWith(&httpapi.SessionOptions{IdleTimeout: 10 * time.Minute, Now: clk.Now})
	require.NoError(t, err)
	e := newEnv(t)
	api, err := httpapi.New(e.gen, &httpapi.Options{
		Auth:     &httpapi.CookieAuth{Sessions: sessions, Users: httpapi.GeneratorDirectory(e.gen)},
		Sessions: sessions,
	})
	require.NoError(t, err)
	c, err := sessions.Create("admin")
	require.NoError(t, err)
	nonce := sessions.Nonce(&httpapi.Principal{Login: "admin", Session: c.Value})
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
