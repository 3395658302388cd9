package auth_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/auth"
)

// throttleEnv is a demo site over real HTTP whose Basic authentication
// counts hash rounds and reads the client address from X-Forwarded-For
// (the test client is the trusted proxy), on a fake clock.
type throttleEnv struct {
	t        *testing.T
	srv      *httptest.Server
	pw       *auth.CountingPasswords
	clock    *auth.FakeClock
	adminPW  string
	admin2PW string
}

func newThrottleEnv(t *testing.T) *throttleEnv {
	t.Helper()
	ctx := context.Background()
	host, err := demosite.New(nil)
	require.NoError(t, err)
	gen, err := contentgen.New(host, history.NewMemStore(nil), nil)
	require.NoError(t, err)
	_, err = host.CreateUsers(ctx, []contentgen.User{{Login: "admin2", Email: "admin2@example.com", DisplayName: "Second", Roles: []string{memhost.RoleAdministrator}}})
	require.NoError(t, err)

	clock := auth.NewFakeClock()
	pw := auth.NewCountingPasswords(t, &auth.PasswordOptions{Now: clock.Now})
	adminPW, err := pw.NewAppPassword("admin", "tests")
	require.NoError(t, err)
	require.NoError(t, pw.SetAppPassword("admin2", "tests", "correct horse battery staple"))
	api, err := httpapi.New(gen, &httpapi.Options{Auth: &auth.Basic{
		Passwords:  pw.Passwords,
		Users:      auth.GeneratorDirectory(gen),
		ClientAddr: auth.ForwardedFor("X-Forwarded-For", netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")),
	}})
	require.NoError(t, err)
	mux := http.NewServeMux()
	httpapi.Mount(mux, "/contentgen/v1", api)
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
	a.rounds = e.pw.RoundsOf(func() {
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
		require.Equal(t, int64(auth.ChosenIterations), wrong.rounds)
		require.Empty(t, wrong.retryAfter)
	}

	// The sixth attempt from that client is refused without hashing, as
	// too many attempts rather than wrong credentials, even with the
	// right password.
	for _, password := range []string{"wrong guess", e.adminPW} {
		got := e.get("admin", password, "192.0.2.1")
		require.Equal(t, http.StatusTooManyRequests, got.status)
		require.Equal(t, "too_many_attempts", got.body["code"])
		require.Equal(t, false, got.body["success"])
		require.Contains(t, got.body["message"], "Try again in 1 second.")
		require.Equal(t, "1", got.retryAfter)
		require.Zero(t, got.rounds, "a throttled attempt hashes nothing")
	}

	// Another client of the same user, and other users from the same
	// address, log in as before.
	ok := e.get("admin", e.adminPW, "198.51.100.7")
	require.Equal(t, http.StatusOK, ok.status, ok.body)
	ok = e.get("admin2", e.admin2PW, "192.0.2.1")
	require.Equal(t, http.StatusOK, ok.status, ok.body)

	// After the delay the right password works and resets the count.
	e.clock.Advance(time.Second)
	ok = e.get("admin", e.adminPW, "192.0.2.1")
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
	require.Equal(t, http.StatusTooManyRequests, got.status)
	require.Equal(t, "too_many_attempts", got.body["code"])
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

// An attack on a user name from many clients must not lock the user out
// of the clients it signed in from before; a client that never did is
// told to wait (429 with Retry-After), not that its password is wrong.
func TestAnAttackElsewhereDoesNotLockOutKnownClients(t *testing.T) {
	t.Parallel()
	e := newThrottleEnv(t)
	const known, fresh = "203.0.113.10", "203.0.113.99"
	ok := e.get("admin", e.adminPW, known)
	require.Equal(t, http.StatusOK, ok.status, ok.body)
	e.clock.Advance(2 * auth.VerifiedTTL) // the check is no longer remembered

	// Sixteen clients guess for eight seconds, each as fast as the
	// throttle lets it.
	refused := 0
	for range 8 {
		for c := range 16 {
			got := e.get("admin", "wrong guess", fmt.Sprintf("198.51.100.%d", c+1))
			switch got.status {
			case http.StatusUnauthorized:
			case http.StatusTooManyRequests:
				refused++
				require.NotEmpty(t, got.retryAfter)
			default:
				t.Fatalf("a guess answered %d: %v", got.status, got.body)
			}
		}
		e.clock.Advance(time.Second)
	}
	require.Positive(t, refused, "the attack was never slowed down")

	got := e.get("admin", e.adminPW, fresh)
	require.Equal(t, http.StatusTooManyRequests, got.status, "a new client during an attack on its user: %v", got.body)
	require.Equal(t, "too_many_attempts", got.body["code"])
	require.NotEmpty(t, got.retryAfter)
	require.Zero(t, got.rounds)

	got = e.get("admin", e.adminPW, known)
	require.Equal(t, http.StatusOK, got.status, "the client the user signed in from is locked out: %v", got.body)
	require.Equal(t, int64(auth.GeneratedIterations), got.rounds, "the password was checked")
}

// Requests with the right password that arrive together, before the
// password has been checked once, must all be served: they wait for one
// check instead of counting as running guesses.
func TestConcurrentValidLoginsAreNeverRefused(t *testing.T) {
	t.Parallel()
	e := newThrottleEnv(t)
	entered, release := e.pw.Hold()
	const n = 16
	answers := make(chan answer, n)
	send := func() {
		for range n {
			go func() {
				req, err := http.NewRequest("GET", e.srv.URL+"/contentgen/v1/cpts/all", nil)
				if err != nil {
					answers <- answer{status: -1}
					return
				}
				req.SetBasicAuth("admin2", e.admin2PW)
				req.Header.Set("X-Forwarded-For", "192.0.2.50")
				resp, err := e.srv.Client().Do(req)
				if err != nil {
					answers <- answer{status: -1}
					return
				}
				resp.Body.Close()
				answers <- answer{status: resp.StatusCode}
			}()
		}
	}

	rounds := e.pw.RoundsOf(func() {
		send()
		<-entered // the first check hashes, held until released
		// Wait until the other fifteen wait too, or one was answered
		// (refused) without waiting.
		for e.pw.Parked() < n-1 && len(answers) == 0 {
			runtime.Gosched()
		}
		release()
		for range n {
			a := <-answers
			require.Equal(t, http.StatusOK, a.status, "a valid login was refused")
		}
	})
	require.Equal(t, int64(auth.ChosenIterations), rounds, "the sixteen requests are checked once")

	// And again once the check is no longer remembered.
	e.clock.Advance(2 * auth.VerifiedTTL)
	send()
	for range n {
		a := <-answers
		require.Equal(t, http.StatusOK, a.status, "a valid login was refused")
	}
}

func TestUnknownUsersCostTheSameOverHTTP(t *testing.T) {
	t.Parallel()
	e := newThrottleEnv(t)
	known := e.get("admin", "wrong guess", "192.0.2.1")
	unknown := e.get("nosuchuser", "wrong guess", "192.0.2.2")
	chosen := e.get("admin2", "wrong guess", "192.0.2.3")
	require.Equal(t, known.body, unknown.body)
	require.Equal(t, int64(auth.ChosenIterations), known.rounds)
	require.Equal(t, known.rounds, unknown.rounds)
	require.Equal(t, known.rounds, chosen.rounds)
}
