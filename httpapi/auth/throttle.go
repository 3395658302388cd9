package auth

import (
	"container/list"
	"crypto/sha256"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ThrottleOptions configure how failed logins are slowed down.
//
// Failures are counted per pair of user name and client (the address
// Basic.ClientAddr reports), per client address whatever the user,
// and per user name whatever the client. Once a pair or an address has
// failed the allowed number of times, its further attempts are refused
// without checking the password until a delay has passed. The count of a
// user name whatever the client applies only to clients that have not
// signed in as that user before: a client that did is remembered as
// known for that user and keeps its way in, so that guesses from
// elsewhere cannot lock the real user out. The delay starts at BaseDelay
// and doubles with every further failure up to MaxDelay. A successful
// login resets its pair. Zero fields mean the defaults.
type ThrottleOptions struct {
	// UserFailures is how many failed logins of one user name from one
	// client are allowed before that client's attempts at that user name
	// are delayed; 0 means 5.
	UserFailures int
	// AddrFailures is how many failed logins from one client address,
	// whatever the user names, are allowed before attempts from it are
	// delayed; 0 means 20. It is higher than UserFailures because several
	// people may share an address.
	AddrFailures int
	// UserFailuresAnyClient is how many failed logins of one user name
	// from all clients together are allowed before attempts at that user
	// name from clients not known for it are delayed; 0 means 50. Known
	// clients are not delayed by it.
	UserFailuresAnyClient int
	// BaseDelay is the first delay; 0 means one second.
	BaseDelay time.Duration
	// MaxDelay caps the delay; 0 means one minute.
	MaxDelay time.Duration
	// ForgetAfter is how long a user, address or pair must go without an
	// attempt before its count is forgotten; 0 means 15 minutes. It must
	// not be shorter than MaxDelay.
	ForgetAfter time.Duration
	// RememberClients is how long a client that signed in as a user stays
	// known for that user after its last successful login; 0 means 30
	// days.
	RememberClients time.Duration
	// MaxEntries bounds how many user names, addresses, pairs and known
	// clients are tracked, each; 0 means 10,000 of each. When full, the
	// entry used least recently is forgotten.
	MaxEntries int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// ErrTooManyAttempts is matched by the errors of login attempts refused
// because of earlier failures (see ThrottledError).
var ErrTooManyAttempts = errors.New("auth: too many failed logins")

// ThrottledError is the error of a login attempt refused because of
// earlier failures, before any password was checked. It matches
// ErrTooManyAttempts with errors.Is, not ErrBadCredentials: the API
// answers it with 429 too_many_attempts and a Retry-After header, so that
// a lock-out does not look like a wrong password.
type ThrottledError struct {
	// RetryAfter is how long until the next attempt can be checked.
	RetryAfter time.Duration
}

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("auth: too many failed logins, retry after %s", e.RetryAfter)
}

// Unwrap returns ErrTooManyAttempts.
func (e *ThrottledError) Unwrap() error { return ErrTooManyAttempts }

// Seconds is the Retry-After value of the error: the delay in whole
// seconds, rounded up, at least one, as a refused login answers with it.
func (e *ThrottledError) Seconds() string {
	secs := int64((e.RetryAfter + time.Second - 1) / time.Second)
	return strconv.FormatInt(max(secs, 1), 10)
}

// loginThrottle counts failed logins per user-and-client pair, per
// address and per user in bounded trackers, and remembers the pairs that
// signed in. It is safe for concurrent use.
type loginThrottle struct {
	mu                               sync.Mutex
	now                              func() time.Time
	base, maxDelay, forget, remember time.Duration
	pairs, addrs, users              tracker
	// known are the pairs that signed in, with the time of their last
	// success.
	known tracker
	// ended is closed, and replaced, whenever an attempt ends, waking the
	// attempts that wait for a place.
	ended chan struct{}
}

func newLoginThrottle(opts *ThrottleOptions) (*loginThrottle, error) {
	var o ThrottleOptions
	if opts != nil {
		o = *opts
	}
	if o.UserFailures < 0 || o.AddrFailures < 0 || o.UserFailuresAnyClient < 0 || o.BaseDelay < 0 || o.MaxDelay < 0 ||
		o.ForgetAfter < 0 || o.RememberClients < 0 || o.MaxEntries < 0 {
		return nil, errors.New("auth: ThrottleOptions: no count, duration or bound may be negative")
	}
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	defDur := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.UserFailures, 5)
	def(&o.AddrFailures, 20)
	def(&o.UserFailuresAnyClient, 50)
	def(&o.MaxEntries, 10_000)
	defDur(&o.BaseDelay, time.Second)
	defDur(&o.MaxDelay, time.Minute)
	defDur(&o.ForgetAfter, 15*time.Minute)
	defDur(&o.RememberClients, 30*24*time.Hour)
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxDelay < o.BaseDelay {
		return nil, errors.New("auth: ThrottleOptions.MaxDelay must not be shorter than BaseDelay")
	}
	if o.ForgetAfter < o.MaxDelay {
		return nil, errors.New("auth: ThrottleOptions.ForgetAfter must not be shorter than MaxDelay")
	}
	t := &loginThrottle{now: o.Now, base: o.BaseDelay, maxDelay: o.MaxDelay, forget: o.ForgetAfter, remember: o.RememberClients,
		ended: make(chan struct{})}
	t.pairs.init(o.UserFailures, o.MaxEntries)
	t.addrs.init(o.AddrFailures, o.MaxEntries)
	t.users.init(o.UserFailuresAnyClient, o.MaxEntries)
	t.known.init(0, o.MaxEntries)
	return t, nil
}

// attempt is one login attempt admitted by begin; exactly one of done and
// abandon must be called when its check is over.
type attempt struct {
	t                *loginThrottle
	pair, user, addr string
}

// keys are the tracker keys of an attempt of user from addr.
func keys(user, addr string) (pair, u, a string) {
	return trackKey(strconv.Itoa(len(user)) + ":" + user + "\x00" + addr), trackKey(user), trackKey(addr)
}

// begin admits a login attempt of user from addr. When the attempt must
// wait for a delay, it returns how long; when as many checks are running
// as failures are left, it returns a channel that is closed when one of
// them ends, to try again then. Neither changes anything.
func (t *loginThrottle) begin(user, addr string) (attempt, time.Duration, <-chan struct{}) {
	pair, user, addr := keys(user, addr)
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if w, busy := t.blocked(pair, user, addr, now); w > 0 {
		return attempt{}, w, nil
	} else if busy {
		return attempt{}, 0, t.ended
	}
	t.pairs.touch(pair, now).inflight++
	t.addrs.touch(addr, now).inflight++
	t.users.touch(user, now).inflight++
	return attempt{t: t, pair: pair, user: user, addr: addr}, 0, nil
}

// delay returns how long an attempt of user from addr must wait for a
// delay, 0 when none applies. Checks already running do not count: it is
// for attempts that wait for the result of one of them.
func (t *loginThrottle) delay(user, addr string) time.Duration {
	pair, user, addr := keys(user, addr)
	t.mu.Lock()
	defer t.mu.Unlock()
	w, _ := t.blocked(pair, user, addr, t.now())
	return w
}

// blocked returns the longest delay that applies to the keys and whether
// running checks fill the failures left to one of them. t.mu is held.
func (t *loginThrottle) blocked(pair, user, addr string, now time.Time) (time.Duration, bool) {
	t.pairs.sweep(now, t.forget)
	t.addrs.sweep(now, t.forget)
	t.users.sweep(now, t.forget)
	t.known.sweep(now, t.remember)
	check := []struct {
		tr  *tracker
		key string
	}{{&t.pairs, pair}, {&t.addrs, addr}}
	if t.known.get(pair) == nil {
		check = append(check, struct {
			tr  *tracker
			key string
		}{&t.users, user})
	}
	var w time.Duration
	busy := false
	for _, c := range check {
		e := c.tr.get(c.key)
		switch {
		case e == nil:
		case now.Before(e.until):
			w = max(w, e.until.Sub(now))
		case e.inflight > 0 && e.failures+e.inflight >= c.tr.free:
			// As many checks are running as failures are left (after a
			// delay, one at a time): admitting more would let concurrent
			// guesses slip past the count, so this one waits for them.
			busy = true
		}
	}
	return w, busy
}

// done ends the attempt: a success resets its pair and makes its client
// known for the user; a failure adds to every count and may start delays.
func (a attempt) done(ok bool) {
	t := a.t
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.wake()
	now := t.now()
	t.pairs.release(a.pair)
	t.addrs.release(a.addr)
	t.users.release(a.user)
	if ok {
		t.pairs.remove(a.pair)
		t.known.touch(a.pair, now)
		t.addrs.removeIfClean(a.addr)
		t.users.removeIfClean(a.user)
		return
	}
	t.fail(&t.pairs, a.pair, now)
	t.fail(&t.addrs, a.addr, now)
	t.fail(&t.users, a.user, now)
}

// abandon ends an attempt whose check did not finish, such as when its
// request ended while it waited for a hashing slot.
func (a attempt) abandon() {
	t := a.t
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	defer t.wake()
	for _, k := range []struct {
		tr  *tracker
		key string
	}{{&t.pairs, a.pair}, {&t.addrs, a.addr}, {&t.users, a.user}} {
		k.tr.release(k.key)
		k.tr.removeIfClean(k.key)
	}
}

// wake lets the attempts waiting for a place try again. t.mu is held.
func (t *loginThrottle) wake() {
	close(t.ended)
	t.ended = make(chan struct{})
}

func (t *loginThrottle) fail(tr *tracker, key string, now time.Time) {
	e := tr.touch(key, now)
	e.failures++
	if n := e.failures - tr.free; n >= 0 {
		d := t.maxDelay
		if n < 30 {
			d = min(t.base<<n, t.maxDelay)
		}
		e.until = now.Add(d)
	}
}

// tracker is a bounded map of entries with the least recently tried last
// in a list, so that stale entries are swept and, when full, the oldest
// is evicted in constant time.
type tracker struct {
	free, maxEntries int
	m                map[string]*list.Element
	lru              list.List // of *entry, most recently tried first
}

type entry struct {
	key      string
	failures int
	inflight int
	until    time.Time // attempts are refused before
	seen     time.Time // last admitted attempt or failure
}

func (tr *tracker) init(free, maxEntries int) {
	tr.free, tr.maxEntries = free, maxEntries
	tr.m = make(map[string]*list.Element)
	tr.lru.Init()
}

func (tr *tracker) len() int { return len(tr.m) }

func (tr *tracker) get(key string) *entry {
	if el, ok := tr.m[key]; ok {
		return el.Value.(*entry)
	}
	return nil
}

// touch returns the entry of key, created if needed, marked as just tried.
func (tr *tracker) touch(key string, now time.Time) *entry {
	if el, ok := tr.m[key]; ok {
		tr.lru.MoveToFront(el)
		e := el.Value.(*entry)
		e.seen = now
		return e
	}
	for len(tr.m) >= tr.maxEntries {
		tr.evict(tr.lru.Back())
	}
	e := &entry{key: key, seen: now}
	tr.m[key] = tr.lru.PushFront(e)
	return e
}

func (tr *tracker) release(key string) {
	if e := tr.get(key); e != nil && e.inflight > 0 {
		e.inflight--
	}
}

// removeIfClean removes the entry of key when it has neither failures
// nor running checks.
func (tr *tracker) removeIfClean(key string) {
	if e := tr.get(key); e != nil && e.failures == 0 && e.inflight == 0 {
		tr.remove(key)
	}
}

func (tr *tracker) remove(key string) {
	if el, ok := tr.m[key]; ok {
		tr.evict(el)
	}
}

func (tr *tracker) evict(el *list.Element) {
	delete(tr.m, el.Value.(*entry).key)
	tr.lru.Remove(el)
}

// sweep forgets entries not tried for forget. It looks only at the
// oldest entries, so its cost is paid by the entries it removes.
func (tr *tracker) sweep(now time.Time, forget time.Duration) {
	for el := tr.lru.Back(); el != nil; el = tr.lru.Back() {
		e := el.Value.(*entry)
		if e.inflight > 0 || now.Sub(e.seen) < forget || now.Before(e.until) {
			return
		}
		tr.evict(el)
	}
}

// trackKey bounds the size of a key a client chooses.
func trackKey(s string) string {
	if len(s) <= 128 {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + string(sum[:])
}

// remoteAddr is the default client address of a request: the IP of
// r.RemoteAddr, IPv6 addresses reduced to their /64 network, which one
// client usually holds whole.
func remoteAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return clientKey(host)
}

func clientKey(s string) string {
	ip, err := netip.ParseAddr(strings.TrimSpace(s))
	if err != nil {
		return s
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// ForwardedFor returns a Basic.ClientAddr for a server behind reverse
// proxies. When a request comes from one of the trusted networks, the
// client is read from header (such as "X-Forwarded-For"), taking its
// addresses from the right and skipping those of trusted proxies; other
// requests are counted by their own remote address. Trusting a header
// lets whoever can reach the server directly from a trusted network
// choose the address their failures are counted under, so list only the
// proxies themselves.
func ForwardedFor(header string, trusted ...netip.Prefix) func(*http.Request) string {
	isTrusted := func(s string) bool {
		ip, err := netip.ParseAddr(strings.TrimSpace(s))
		if err != nil {
			return false
		}
		ip = ip.Unmap()
		for _, p := range trusted {
			if p.Contains(ip) {
				return true
			}
		}
		return false
	}
	return func(r *http.Request) string {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		if !isTrusted(host) {
			return clientKey(host)
		}
		values := r.Header.Values(header)
		for i := len(values) - 1; i >= 0; i-- {
			parts := strings.Split(values[i], ",")
			for j := len(parts) - 1; j >= 0; j-- {
				a := strings.TrimSpace(parts[j])
				if a == "" || isTrusted(a) {
					continue
				}
				return clientKey(a)
			}
		}
		return clientKey(host)
	}
}
