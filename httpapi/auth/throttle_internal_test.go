package auth

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"net/http"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakeClock is a clock that moves only when told.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func newTestThrottle(t *testing.T, clock *fakeClock, o ThrottleOptions) *loginThrottle {
	t.Helper()
	o.Now = clock.Now
	th, err := newLoginThrottle(&o)
	require.NoError(t, err)
	return th
}

// failN makes n failed attempts of user from addr, all admitted.
func failN(t *testing.T, th *loginThrottle, user, addr string, n int) {
	t.Helper()
	for i := range n {
		att, wait, busy := th.begin(user, addr)
		require.Zero(t, wait, "attempt %d of %s from %s refused", i+1, user, addr)
		require.Nil(t, busy, "attempt %d of %s from %s waits", i+1, user, addr)
		att.done(false)
	}
}

func TestThrottleBacksOffExponentiallyUpToTheCap(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	th := newTestThrottle(t, clock, ThrottleOptions{UserFailures: 3, BaseDelay: time.Second, MaxDelay: 8 * time.Second})

	failN(t, th, "admin", "10.0.0.1", 3)
	var waits []time.Duration
	for range 6 {
		_, wait, _ := th.begin("admin", "10.0.0.1")
		require.Positive(t, wait)
		waits = append(waits, wait)
		clock.Advance(wait)
		failN(t, th, "admin", "10.0.0.1", 1)
	}
	require.Equal(t, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 8 * time.Second}, waits)

	// A refused attempt does not prolong the delay.
	_, wait, _ := th.begin("admin", "10.0.0.1")
	require.Equal(t, 8*time.Second, wait)
	clock.Advance(time.Second)
	_, wait, _ = th.begin("admin", "10.0.0.1")
	require.Equal(t, 7*time.Second, wait)

	// The same user from another client is not affected, nor are other
	// users.
	att, wait, _ := th.begin("admin", "10.0.0.2")
	require.Zero(t, wait)
	att.done(true)
	att, wait, _ = th.begin("editor", "10.0.0.3")
	require.Zero(t, wait)
	att.done(true)
}

func TestThrottleSuccessResetsTheUser(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	th := newTestThrottle(t, clock, ThrottleOptions{UserFailures: 3})
	failN(t, th, "admin", "10.0.0.1", 3)
	_, wait, _ := th.begin("admin", "10.0.0.1")
	require.Equal(t, time.Second, wait)
	clock.Advance(wait)
	att, wait, _ := th.begin("admin", "10.0.0.1")
	require.Zero(t, wait)
	att.done(true)
	// The count starts afresh: three more failures before a delay.
	failN(t, th, "admin", "10.0.0.1", 3)
	_, wait, _ = th.begin("admin", "10.0.0.1")
	require.Equal(t, time.Second, wait)
}

func TestThrottleCountsAddresses(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	th := newTestThrottle(t, clock, ThrottleOptions{AddrFailures: 4})
	for i := range 4 {
		failN(t, th, fmt.Sprint("user", i), "10.0.0.1", 1)
	}
	_, wait, _ := th.begin("admin", "10.0.0.1")
	require.Equal(t, time.Second, wait, "a fresh user name from a failing address")
	att, wait, _ := th.begin("admin", "10.0.0.2")
	require.Zero(t, wait, "the same user from another address")
	att.done(true)
}

func TestThrottleCountsConcurrentAttempts(t *testing.T) {
	t.Parallel()
	th := newTestThrottle(t, newFakeClock(), ThrottleOptions{UserFailures: 3})
	var running []attempt
	for range 3 {
		att, wait, busy := th.begin("admin", "10.0.0.1")
		require.Zero(t, wait)
		require.Nil(t, busy)
		running = append(running, att)
	}
	_, wait, busy := th.begin("admin", "10.0.0.1")
	require.Zero(t, wait)
	require.NotNil(t, busy, "a fourth guess while three are being checked waits")
	select {
	case <-busy:
		t.Fatal("woken before a check ended")
	default:
	}
	running[0].abandon()
	<-busy
	att, wait, busy := th.begin("admin", "10.0.0.1")
	require.Zero(t, wait, "an abandoned attempt frees its place")
	require.Nil(t, busy)
	att.done(true)
	for _, a := range running[1:] {
		a.done(false)
	}
}

func TestThrottleIsBoundedAndCleansItself(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	th := newTestThrottle(t, clock, ThrottleOptions{MaxEntries: 8, ForgetAfter: time.Hour, MaxDelay: time.Minute})
	for i := range 1000 {
		failN(t, th, fmt.Sprint("user", i), fmt.Sprint("10.0.", i/250, ".", i%250), 1)
		require.LessOrEqual(t, th.users.len(), 8)
		require.LessOrEqual(t, th.addrs.len(), 8)
		require.Equal(t, th.users.len(), th.users.lru.Len())
	}
	// A very long user name costs no more than a short one.
	long := string(make([]byte, 1<<20))
	failN(t, th, long, "10.0.9.9", 1)
	for k := range th.users.m {
		require.LessOrEqual(t, len(k), 128)
	}

	// Entries not tried for ForgetAfter are dropped by the next attempt.
	clock.Advance(time.Hour)
	att, wait, _ := th.begin("admin", "10.1.0.1")
	require.Zero(t, wait)
	require.Equal(t, 1, th.users.len())
	require.Equal(t, 1, th.addrs.len())
	att.done(true)
	require.Zero(t, th.users.len())
	require.Zero(t, th.addrs.len())
}

func TestThrottleOptionsAreValidated(t *testing.T) {
	t.Parallel()
	for _, o := range []ThrottleOptions{
		{UserFailures: -1},
		{MaxEntries: -1},
		{BaseDelay: time.Minute, MaxDelay: time.Second},
		{MaxDelay: time.Hour, ForgetAfter: time.Minute},
	} {
		_, err := newLoginThrottle(&o)
		require.Error(t, err, "%+v", o)
	}
	_, err := NewPasswords(&PasswordOptions{MaxConcurrentHashes: -1})
	require.ErrorContains(t, err, "MaxConcurrentHashes")
}

func TestForwardedForTrustsOnlyListedProxies(t *testing.T) {
	t.Parallel()
	addr := ForwardedFor("X-Forwarded-For", netip.MustParsePrefix("10.0.0.0/8"))
	req := func(remote string, xff ...string) *http.Request {
		r, err := http.NewRequest("GET", "/", nil)
		require.NoError(t, err)
		r.RemoteAddr = remote
		for _, v := range xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		return r
	}
	require.Equal(t, "203.0.113.9", addr(req("203.0.113.9:4000", "198.51.100.1")), "a header from an untrusted peer is ignored")
	require.Equal(t, "198.51.100.1", addr(req("10.0.0.5:4000", "1.2.3.4, 198.51.100.1")), "the rightmost untrusted address")
	require.Equal(t, "198.51.100.1", addr(req("10.0.0.5:4000", "1.2.3.4", "198.51.100.1, 10.0.0.7")))
	require.Equal(t, "10.0.0.5", addr(req("10.0.0.5:4000")))
	require.Equal(t, "2001:db8:1:2::/64", addr(req("10.0.0.5:4000", "2001:db8:1:2::99")), "IPv6 by /64")
	require.Equal(t, "192.0.2.1", remoteAddr(req("[::ffff:192.0.2.1]:80")))
}

// countingPasswords is a store whose hash function is cheap and counts
// PBKDF2 rounds, and how many hashes run at once.
type countingPasswords struct {
	*Passwords
	rounds    atomic.Int64
	calls     atomic.Int64
	active    atomic.Int64
	maxActive atomic.Int64
	// block, when set, holds every hash until it is closed; entered
	// receives a value as each hash starts.
	block   chan struct{}
	entered chan struct{}
}

func newCountingPasswords(t testing.TB, o *PasswordOptions) *countingPasswords {
	t.Helper()
	s, err := NewPasswords(o)
	require.NoError(t, err)
	c := &countingPasswords{Passwords: s}
	s.derive = func(password string, salt []byte, iter int) ([]byte, error) {
		n := c.active.Add(1)
		defer c.active.Add(-1)
		for m := c.maxActive.Load(); n > m && !c.maxActive.CompareAndSwap(m, n); m = c.maxActive.Load() {
		}
		if c.entered != nil {
			c.entered <- struct{}{}
		}
		if c.block != nil {
			<-c.block
		}
		runtime.Gosched()
		c.rounds.Add(int64(iter))
		c.calls.Add(1)
		h := sha256.New()
		h.Write(salt)
		h.Write(binary.BigEndian.AppendUint64(nil, uint64(iter)))
		h.Write([]byte(password))
		return h.Sum(nil), nil
	}
	return c
}

// roundsOf returns the PBKDF2 rounds spent by f.
func (c *countingPasswords) roundsOf(f func()) int64 {
	before := c.rounds.Load()
	f()
	return c.rounds.Load() - before
}

func TestFailedChecksCostTheSameWhetherTheUserExistsOrNot(t *testing.T) {
	t.Parallel()
	c := newCountingPasswords(t, nil)
	_, err := c.NewAppPassword("generated", "t")
	require.NoError(t, err)
	require.NoError(t, c.SetAppPassword("chosen", "t", "people pick these"))
	require.NoError(t, c.SetAccountPassword("chosen", "people pick these"))
	require.NoError(t, c.SetAccountPassword("accountonly", "people pick these"))

	app := map[string]int64{}
	account := map[string]int64{}
	for _, login := range []string{"generated", "chosen", "accountonly", "nosuchuser"} {
		app[login] = c.roundsOf(func() { require.False(t, c.VerifyApp(login, "wrong guess")) })
		account[login] = c.roundsOf(func() { require.False(t, c.VerifyAccount(login, "wrong guess")) })
	}
	want := map[string]int64{"generated": chosenIterations, "chosen": chosenIterations, "accountonly": chosenIterations, "nosuchuser": chosenIterations}
	require.Equal(t, want, app, "rounds of a failed application password check")
	require.Equal(t, want, account, "rounds of a failed account password check")

	// Through Basic, with and without account passwords.
	for _, allowAccount := range []bool{false, true} {
		a := &Basic{Passwords: c.Passwords, Users: staticDirectory{}, AllowAccountPasswords: allowAccount}
		got := map[string]int64{}
		for i, login := range []string{"generated", "chosen", "nosuchuser"} {
			r, err := http.NewRequest("GET", "/", nil)
			require.NoError(t, err)
			r.RemoteAddr = fmt.Sprintf("192.0.2.%d:1000", i)
			r.SetBasicAuth(login, "wrong guess")
			got[login] = c.roundsOf(func() {
				_, err := a.Authenticate(r)
				require.ErrorIs(t, err, ErrBadCredentials)
			})
		}
		per := int64(chosenIterations)
		if allowAccount {
			per *= 2
		}
		require.Equal(t, map[string]int64{"generated": per, "chosen": per, "nosuchuser": per}, got, "AllowAccountPasswords %v", allowAccount)
	}

	// A correct generated password stays cheap.
	pw, err := c.NewAppPassword("fresh", "t")
	require.NoError(t, err)
	require.Equal(t, int64(generatedIterations), c.roundsOf(func() { require.True(t, c.VerifyApp("fresh", pw)) }))
	require.Zero(t, c.roundsOf(func() { require.True(t, c.VerifyApp("fresh", pw)) }), "a remembered check hashes nothing")
}

func TestHashingIsBounded(t *testing.T) {
	t.Parallel()
	for _, limit := range []int{1, 2} {
		c := newCountingPasswords(t, &PasswordOptions{MaxConcurrentHashes: limit})
		var wg sync.WaitGroup
		for i := range 16 {
			wg.Go(func() { c.VerifyApp(fmt.Sprint("user", i), "guess") })
		}
		wg.Wait()
		require.Equal(t, int64(16), c.calls.Load())
		require.LessOrEqual(t, c.maxActive.Load(), int64(limit))
	}
}

func TestWaitingForAHashEndsWithTheRequest(t *testing.T) {
	t.Parallel()
	c := newCountingPasswords(t, &PasswordOptions{MaxConcurrentHashes: 1})
	c.block, c.entered = make(chan struct{}), make(chan struct{}, 1)
	a := &Basic{Passwords: c.Passwords, Users: staticDirectory{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.VerifyApp("admin", "guess")
	}()
	<-c.entered // the only slot is taken

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := http.NewRequestWithContext(ctx, "GET", "/", nil)
	require.NoError(t, err)
	r.RemoteAddr = "192.0.2.1:1000"
	r.SetBasicAuth("admin", "guess")
	_, err = a.Authenticate(r)
	require.ErrorIs(t, err, context.Canceled)
	require.Zero(t, c.Passwords.throttle.users.len(), "an abandoned check is not counted")
	close(c.block)
	<-done
}

// staticDirectory knows every login as an administrator.
type staticDirectory struct{}

func (staticDirectory) Lookup(_ context.Context, login string) (*Principal, error) {
	return &Principal{Login: login, Capabilities: []string{"manage_options"}}, nil
}
