package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
)

// throttleEnv is a demo site over real HTTP whose Basic authentication
// counts hash rounds and reads the client address from X-Forwarded-For
// (the test client is the trusted proxy), on a fake clock.
type throttleEnv struct {
	t        *testing.T
	srv      *httptest.Server
	pw       *countingPasswords
	clock    *fakeClock
	adminPW  string
	admin2PW string
}

func newThrottleEnv(t *testing.T) *throttleEnv {
	t.Helper()
	ctx := context.Background()
	host, err := memhost.NewDemo(nil)
	require.NoError(t, err)
	gen, err := contentgen.New(host, history.NewMemStore(nil), nil)
	require.NoError(t, err)
	_, err = host.CreateUsers(ctx, []contentgen.User{{Login: "admin2", Email: "admin2@example.com", DisplayName: "Second", Roles: []string{memhost.RoleAdministrator}}})
	require.NoError(t, err)

	clock := newFakeClock()
	pw := newCountingPasswords(t, &PasswordOptions{Now: clock.Now})
	adminPW, err := pw.NewAppPassword("admin", "tests")
	require.NoError(t, err)
	require.NoError(t, pw.SetAppPassword("admin2", "tests", "correct horse battery staple"))
	api, err := New(gen, &Options{Auth: &BasicAuth{
		Passwords:  pw.Passwords,
		Users:      GeneratorDirectory(gen),
		ClientAddr: ForwardedFor("X-Forwarded-For", netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")),
	}})
	require.NoError(t, err)
	mux := http.NewServeMux()
	Mount(mux, "/contentgen/v1", api)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &throttleEnv{t: t, srv: srv, pw: pw, clock: clock, adminPW: adminPW, admin2PW: "correct horse battery staple"}
}

type answer struct {
	status     int
	retryAfter string
	body       map[string]any
	rounds     int64
}

// get sends GET /cpts/all as login from addr and reports the answer and
// the hash rounds it cost.
func (e *throttleEnv) get(login, password, addr string) answer {
	e.t.Helper()
	var a answer
	a.rounds = e.pw.roundsOf(func() {
		req, err := http.NewRequest("GET", e.srv.URL+"/contentgen/v1/cpts/all", nil)
		require.NoError(e.t, err)
		req.SetBasicAuth(login, password)
		req.Header.Set("X-Forwarded-For", addr)
		resp, err := e.srv.Client().Do(req)
		require.NoError(e.t, err)
		defer resp.Body.Close()
		raw, err := io.ReadAll(resp.Body)
		require.NoError(e.t, err)
		require.NoError(e.t, json.Unmarshal(raw, &a.body), "%s", raw)
		a.status, a.retryAfter = resp.StatusCode, resp.Header.Get("Retry-After")
	})
	return a
}

func TestFailedLoginsAreThrottledOverHTTP(t *testing.T) {
	t.Parallel()
	e := newThrottleEnv(t)

	var wrong answer
	for range 5 {
		wrong = e.get("admin", "wrong guess", "192.0.2.1")
		require.Equal(t, http.StatusUnauthorized, wrong.status)
		require.Equal(t, int64(chosenIterations), wrong.rounds)
		require.Empty(t, wrong.retryAfter)
	}

	// The sixth attempt is refused without hashing, in the same envelope,
	// even from another address and with the right password.
	for _, try := range []struct{ password, addr string }{
		{"wrong guess", "192.0.2.1"},
		{"wrong guess", "198.51.100.7"},
		{e.adminPW, "198.51.100.7"},
	} {
		got := e.get("admin", try.password, try.addr)
		require.Equal(t, http.StatusUnauthorized, got.status)
		require.Equal(t, wrong.body, got.body)
		require.Equal(t, "1", got.retryAfter)
		require.Zero(t, got.rounds, "a throttled attempt hashes nothing")
	}

	// Other users log in as before, from the same address too.
	ok := e.get("admin2", e.admin2PW, "192.0.2.1")
	require.Equal(t, http.StatusOK, ok.status, ok.body)

	// After the delay the right password works and resets the count.
	e.clock.Advance(time.Second)
	ok = e.get("admin", e.adminPW, "198.51.100.7")
	require.Equal(t, http.StatusOK, ok.status, ok.body)
	got := e.get("admin", "wrong guess", "192.0.2.1")
	require.Equal(t, http.StatusUnauthorized, got.status)
	require.Positive(t, got.rounds, "after a success, a failure is checked again")
	require.Empty(t, got.retryAfter)
}

func TestFailingAddressesAreThrottledOverHTTP(t *testing.T) {
	t.Parallel()
	e := newThrottleEnv(t)
	// Twenty guesses at different user names from one address.
	for i := range 20 {
		got := e.get("user"+string(rune('a'+i)), "guess", "203.0.113.5")
		require.Equal(t, http.StatusUnauthorized, got.status)
		require.Positive(t, got.rounds)
	}
	got := e.get("admin2", e.admin2PW, "203.0.113.5")
	require.Equal(t, http.StatusUnauthorized, got.status)
	require.Equal(t, "1", got.retryAfter)
	require.Zero(t, got.rounds)

	ok := e.get("admin2", e.admin2PW, "203.0.113.6")
	require.Equal(t, http.StatusOK, ok.status, ok.body)
	// Credentials checked a moment ago pass without hashing, even from
	// the throttled address.
	ok = e.get("admin2", e.admin2PW, "203.0.113.5")
	require.Equal(t, http.StatusOK, ok.status, ok.body)
	require.Zero(t, ok.rounds)
}

func TestUnknownUsersCostTheSameOverHTTP(t *testing.T) {
	t.Parallel()
	e := newThrottleEnv(t)
	known := e.get("admin", "wrong guess", "192.0.2.1")
	unknown := e.get("nosuchuser", "wrong guess", "192.0.2.2")
	chosen := e.get("admin2", "wrong guess", "192.0.2.3")
	require.Equal(t, known.body, unknown.body)
	require.Equal(t, int64(chosenIterations), known.rounds)
	require.Equal(t, known.rounds, unknown.rounds)
	require.Equal(t, known.rounds, chosen.rounds)
}
