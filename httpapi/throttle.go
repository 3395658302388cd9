package httpapi

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

// ThrottleOptions configure how failed logins are slowed down. Failures
// are counted per user name and per client address; once a user or an
// address has failed the allowed number of times, further attempts are
// refused without checking the password until a delay has passed. The
// delay starts at BaseDelay and doubles with every further failure up to
// MaxDelay. A successful login resets its user's count. Zero fields mean
// the defaults.
type ThrottleOptions struct {
	// UserFailures is how many failed logins of one user name are allowed
	// before attempts are delayed; 0 means 5.
	UserFailures int
	// AddrFailures is how many failed logins from one client address are
	// allowed before attempts are delayed; 0 means 20. It is higher than
	// UserFailures because several people may share an address.
	AddrFailures int
	// BaseDelay is the first delay; 0 means one second.
	BaseDelay time.Duration
	// MaxDelay caps the delay; 0 means one minute.
	MaxDelay time.Duration
	// ForgetAfter is how long a user or address must go without an
	// attempt before its count is forgotten; 0 means 15 minutes. It must
	// not be shorter than MaxDelay.
	ForgetAfter time.Duration
	// MaxEntries bounds how many user names and, separately, how many
	// addresses are tracked; 0 means 10,000 of each. When full, the entry
	// tried least recently is forgotten.
	MaxEntries int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// ThrottledError is the error of a login attempt refused because of
// earlier failures, before any password was checked. It matches
// ErrBadCredentials with errors.Is, so that clients get the same answer as
// for wrong credentials, plus a Retry-After header.
type ThrottledError struct {
	// RetryAfter is how long until the next attempt can be checked.
	RetryAfter time.Duration
}

func (e *ThrottledError) Error() string {
	return fmt.Sprintf("httpapi: too many failed logins, retry after %s", e.RetryAfter)
}

// Unwrap returns ErrBadCredentials.
func (e *ThrottledError) Unwrap() error { return ErrBadCredentials }

// setRetryAfter sets the Retry-After header of a throttled attempt.
func setRetryAfter(w http.ResponseWriter, err error) {
	var te *ThrottledError
	if !errors.As(err, &te) {
		return
	}
	secs := int64((te.RetryAfter + time.Second - 1) / time.Second)
	w.Header().Set("Retry-After", strconv.FormatInt(max(secs, 1), 10))
}

// loginThrottle counts failed logins per user name and per address in two
// bounded trackers. It is safe for concurrent use.
type loginThrottle struct {
	mu                     sync.Mutex
	now                    func() time.Time
	base, maxDelay, forget time.Duration
	users, addrs           tracker
}

func newLoginThrottle(opts *ThrottleOptions) (*loginThrottle, error) {
	var o ThrottleOptions
	if opts != nil {
		o = *opts
	}
	if o.UserFailures < 0 || o.AddrFailures < 0 || o.BaseDelay < 0 || o.MaxDelay < 0 || o.ForgetAfter < 0 || o.MaxEntries < 0 {
		return nil, errors.New("httpapi: ThrottleOptions: UserFailures, AddrFailures, BaseDelay, MaxDelay, ForgetAfter and MaxEntries must not be negative")
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
	def(&o.MaxEntries, 10_000)
	defDur(&o.BaseDelay, time.Second)
	defDur(&o.MaxDelay, time.Minute)
	defDur(&o.ForgetAfter, 15*time.Minute)
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxDelay < o.BaseDelay {
		return nil, errors.New("httpapi: ThrottleOptions.MaxDelay must not be shorter than BaseDelay")
	}
	if o.ForgetAfter < o.MaxDelay {
		return nil, errors.New("httpapi: ThrottleOptions.ForgetAfter must not be shorter than MaxDelay")
	}
	t := &loginThrottle{now: o.Now, base: o.BaseDelay, maxDelay: o.MaxDelay, forget: o.ForgetAfter}
	t.users.init(o.UserFailures, o.MaxEntries)
	t.addrs.init(o.AddrFailures, o.MaxEntries)
	return t, nil
}

// attempt is one login attempt admitted by begin; exactly one of done and
// abandon must be called when its check is over.
type attempt struct {
	t          *loginThrottle
	user, addr string
}

// begin admits a login attempt of user from addr, or returns how long to
// wait when one of them has failed too often. A refused attempt changes
// nothing.
func (t *loginThrottle) begin(user, addr string) (attempt, time.Duration) {
	user, addr = trackKey(user), trackKey(addr)
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	t.users.sweep(now, t.forget)
	t.addrs.sweep(now, t.forget)
	eu, ea := t.users.get(user), t.addrs.get(addr)
	if w := max(t.wait(eu, t.users.free, now), t.wait(ea, t.addrs.free, now)); w > 0 {
		return attempt{}, w
	}
	t.users.touch(user, now).inflight++
	t.addrs.touch(addr, now).inflight++
	return attempt{t: t, user: user, addr: addr}, 0
}

// wait is how long an attempt of the entry e must wait.
func (t *loginThrottle) wait(e *entry, free int, now time.Time) time.Duration {
	switch {
	case e == nil:
		return 0
	case now.Before(e.until):
		return e.until.Sub(now)
	case e.inflight > 0 && e.failures+e.inflight >= free:
		// As many checks are running as failures are left (after a
		// delay, one at a time): admitting more would let concurrent
		// guesses slip past the count.
		return t.base
	}
	return 0
}

// done ends the attempt: a success resets the user's count, a failure
// adds to both counts and may start a delay.
func (a attempt) done(ok bool) {
	t := a.t
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	t.users.release(a.user)
	t.addrs.release(a.addr)
	if ok {
		t.users.remove(a.user)
		if e := t.addrs.get(a.addr); e != nil && e.failures == 0 && e.inflight == 0 {
			t.addrs.remove(a.addr)
		}
		return
	}
	t.fail(&t.users, a.user, now)
	t.fail(&t.addrs, a.addr, now)
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
	for _, k := range []struct {
		tr  *tracker
		key string
	}{{&t.users, a.user}, {&t.addrs, a.addr}} {
		k.tr.release(k.key)
		if e := k.tr.get(k.key); e != nil && e.failures == 0 && e.inflight == 0 {
			k.tr.remove(k.key)
		}
	}
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

// ForwardedFor returns a BasicAuth.ClientAddr for a server behind reverse
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
