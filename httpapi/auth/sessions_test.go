package auth_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/httpapi/auth"
)

func TestSessionIdleTimeout(t *testing.T) {
	t.Parallel()
	clk := auth.NewFakeClock()
	s, err := auth.NewSessions(&auth.SessionOptions{IdleTimeout: 30 * time.Minute, MaxAge: -1, Now: clk.Now})
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
	clk := auth.NewFakeClock()
	s, err := auth.NewSessions(&auth.SessionOptions{IdleTimeout: time.Hour, MaxAge: 4 * time.Hour, Now: clk.Now})
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
	clk := auth.NewFakeClock()
	s, err := auth.NewSessions(&auth.SessionOptions{MaxSessions: 2, Now: clk.Now})
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

	_, err = auth.NewSessions(&auth.SessionOptions{MaxSessions: -1})
	require.Error(t, err)
}
