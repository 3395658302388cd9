package auth

import (
	"context"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/contentgen/contentgen/contentgen"
)

// Principal is an authenticated user and what it may do.
type Principal struct {
	UserID       int64
	Login        string
	Capabilities []string
	// Method names how the user authenticated: "application_password",
	// "account_password" or "cookie".
	Method string
	// Session is the session token of cookie authentication, "" otherwise.
	Session string
}

// Can reports whether the principal holds capability c.
func (p *Principal) Can(c string) bool { return p != nil && slices.Contains(p.Capabilities, c) }

// Authenticator turns a request into a principal.
//
// It returns (nil, nil) when the request carries no credentials of its
// kind, so that Chain can try the next one; a principal when the
// credentials are valid; and an error (ErrBadCredentials or a wrapped
// cause) when credentials are present but wrong. Authenticate must not
// read the request body.
type Authenticator interface {
	Authenticate(r *http.Request) (*Principal, error)
}

// ErrBadCredentials is returned by Authenticators for credentials that are
// present but invalid.
var ErrBadCredentials = errors.New("auth: invalid credentials")

// Chain returns an Authenticator that asks each in turn and returns the
// first principal or error.
func Chain(auths ...Authenticator) Authenticator { return chain(auths) }

type chain []Authenticator

func (c chain) Authenticate(r *http.Request) (*Principal, error) {
	for _, a := range c {
		p, err := a.Authenticate(r)
		if p != nil || err != nil {
			return p, err
		}
	}
	return nil, nil
}

// Directory resolves a login to the user and the capabilities of its
// roles, as they are now. GeneratorDirectory reads them from the host.
type Directory interface {
	// Lookup returns the principal for login, or ErrBadCredentials when
	// there is no such user.
	Lookup(ctx context.Context, login string) (*Principal, error)
}

// GeneratorDirectory returns a Directory over the users and roles of the
// Generator's host.
func GeneratorDirectory(g *contentgen.Generator) Directory { return genDirectory{g} }

type genDirectory struct{ g *contentgen.Generator }

func (d genDirectory) Lookup(ctx context.Context, login string) (*Principal, error) {
	u, err := d.g.Content().UserByLogin(ctx, login)
	if errors.Is(err, contentgen.ErrNotFound) {
		return nil, ErrBadCredentials
	}
	if err != nil {
		return nil, err
	}
	roles, err := d.g.Content().Roles(ctx)
	if err != nil {
		return nil, err
	}
	p := &Principal{UserID: u.ID, Login: u.Login}
	for _, role := range roles {
		if slices.Contains(u.Roles, role.Slug) {
			for _, c := range role.Capabilities {
				if !slices.Contains(p.Capabilities, c) {
					p.Capabilities = append(p.Capabilities, c)
				}
			}
		}
	}
	return p, nil
}

// Passwords keeps password hashes, never passwords: application passwords
// (several per user, each with a name) and account passwords. It is safe
// for concurrent use.
//
// Hashes are PBKDF2-SHA256 with a random salt. Application passwords made
// by NewAppPassword carry 142 bits of entropy, so they use fewer rounds
// than passwords chosen by people; comparison is in constant time.
//
// A failed check costs at least as many rounds as a chosen password's,
// whether the user exists or not and whatever kind of passwords it has,
// so that timing does not tell which logins exist. Only a bounded number
// of checks hash at once (PasswordOptions.MaxConcurrentHashes); the others
// wait their turn. The store also keeps the throttle of failed logins that
// Basic applies.
type Passwords struct {
	mu      sync.RWMutex
	app     map[string][]appPassword
	account map[string]hash
	// hashing holds a token per running check, bounding the CPU that
	// password guesses can take.
	hashing chan struct{}
	// derive computes a PBKDF2-SHA256 key; tests count its rounds.
	derive   func(password string, salt []byte, iter int) ([]byte, error)
	throttle *loginThrottle
	// verified remembers recent successful checks for a minute, keyed by
	// an HMAC of kind, login and password under a per-process key, so that
	// a client sending the same Basic credentials on every request pays
	// the slow hash once, not per request.
	cacheKey []byte
	verified map[string]time.Time
	now      func() time.Time
	// flights are the checks under way, by the same key as verified:
	// concurrent checks of the same credentials wait for one result.
	flightMu sync.Mutex
	flights  map[string]*flight
	// parked counts the checks waiting for another check's result or for
	// a place in the throttle, for tests.
	parked atomic.Int64
}

// flight is a check of credentials under way.
type flight struct {
	done chan struct{}
	// method and checked are set before done is closed: checked is false
	// when the check did not finish (its request ended, or the throttle
	// refused its client), so that waiters check for themselves.
	method  string
	checked bool
}

type appPassword struct {
	name string
	h    hash
}

type hash struct {
	salt []byte
	iter int
	sum  []byte
}

const (
	generatedIterations = 1_000
	chosenIterations    = 200_000
	// failedCheckIterations is the least a failed check costs, so that an
	// unknown login, or a login with only generated application
	// passwords, fails as slowly as one with a chosen password.
	failedCheckIterations = chosenIterations
)

// dummySalt salts the padding rounds of failed checks.
var dummySalt = make([]byte, 16)

// PasswordOptions configure a password store. Zero fields mean the
// defaults.
type PasswordOptions struct {
	// MaxConcurrentHashes bounds how many password checks compute hashes
	// at the same time, so that a flood of guesses cannot take every core
	// from the requests of users already signed in (whose recent checks
	// are remembered and need no hash). Further checks wait until a slot
	// is free or their request ends. 0 means half of GOMAXPROCS, at least
	// one.
	MaxConcurrentHashes int
	// Throttle configures how Basic slows down failed logins; nil
	// means the defaults of ThrottleOptions.
	Throttle *ThrottleOptions
	// Now is the clock of remembered checks and of the throttle (unless
	// Throttle.Now is set); nil means time.Now.
	Now func() time.Time
}

// NewPasswords returns an empty password store configured by opts; nil
// means the defaults.
func NewPasswords(opts *PasswordOptions) (*Passwords, error) {
	var o PasswordOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxConcurrentHashes < 0 {
		return nil, errors.New("auth: PasswordOptions.MaxConcurrentHashes must not be negative")
	}
	if o.MaxConcurrentHashes == 0 {
		o.MaxConcurrentHashes = max(1, runtime.GOMAXPROCS(0)/2)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	var to ThrottleOptions
	if o.Throttle != nil {
		to = *o.Throttle
	}
	if to.Now == nil {
		to.Now = o.Now
	}
	throttle, err := newLoginThrottle(&to)
	if err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return &Passwords{
		app:      map[string][]appPassword{},
		account:  map[string]hash{},
		hashing:  make(chan struct{}, o.MaxConcurrentHashes),
		derive:   pbkdf2Key,
		throttle: throttle,
		cacheKey: key,
		verified: map[string]time.Time{},
		now:      o.Now,
		flights:  map[string]*flight{},
	}, nil
}

func pbkdf2Key(password string, salt []byte, iter int) ([]byte, error) {
	return pbkdf2.Key(sha256.New, password, salt, iter, 32)
}

const verifiedTTL = time.Minute

func (s *Passwords) cacheID(kind, login, password string) string {
	m := hmac.New(sha256.New, s.cacheKey)
	fmt.Fprintf(m, "%s\x00%s\x00%s", kind, login, password)
	return string(m.Sum(nil))
}

// cached reports whether the check was recently successful.
func (s *Passwords) cached(id string) bool {
	s.mu.RLock()
	t, ok := s.verified[id]
	s.mu.RUnlock()
	return ok && s.now().Sub(t) < verifiedTTL
}

func (s *Passwords) remember(id string) {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.verified) > 10_000 {
		for k, t := range s.verified {
			if now.Sub(t) >= verifiedTTL {
				delete(s.verified, k)
			}
		}
	}
	s.verified[id] = now
}

// forget drops remembered checks, after a password change.
func (s *Passwords) forgetAllLocked() { clear(s.verified) }

// NewAppPassword generates an application password for login, stores its
// hash under name and returns the password: 24 letters and digits in six
// groups of four separated by spaces, which are part of the password.
func (s *Passwords) NewAppPassword(login, name string) (string, error) {
	pw, err := RandomAppPassword()
	if err != nil {
		return "", err
	}
	return pw, s.addApp(login, name, pw, generatedIterations)
}

// RandomAppPassword makes an application password as WordPress does: 24
// letters and digits, each equally likely, in six groups of four
// separated by spaces.
func RandomAppPassword() (string, error) {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	// Bytes from 248 up are drawn again, so that every letter keeps
	// the same chance (248 is 4 x 62).
	const limit = 256 - 256%len(alphabet)
	var b strings.Builder
	var raw [32]byte
	for n := 0; n < 24; {
		if _, err := rand.Read(raw[:]); err != nil {
			return "", err
		}
		for _, c := range raw {
			if int(c) >= limit || n == 24 {
				continue
			}
			if n > 0 && n%4 == 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(alphabet[int(c)%len(alphabet)])
			n++
		}
	}
	return b.String(), nil
}

// SetAppPassword stores an application password chosen by the caller.
func (s *Passwords) SetAppPassword(login, name, password string) error {
	if password == "" {
		return errors.New("auth: empty password")
	}
	return s.addApp(login, name, password, chosenIterations)
}

func (s *Passwords) addApp(login, name, password string, iter int) error {
	h, err := s.newHash(password, iter)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.app[login] = append(s.app[login], appPassword{name: name, h: h})
	return nil
}

// RevokeAppPasswords removes every application password of login.
func (s *Passwords) RevokeAppPasswords(login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.app, login)
	s.forgetAllLocked()
}

// SetAccountPassword stores the account password of login.
func (s *Passwords) SetAccountPassword(login, password string) error {
	if password == "" {
		return errors.New("auth: empty password")
	}
	h, err := s.newHash(password, chosenIterations)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.account[login] = h
	s.forgetAllLocked()
	return nil
}

// Kinds of password.
const (
	kindApp     = "app"
	kindAccount = "account"
)

// VerifyApp reports whether password is one of login's application
// passwords.
func (s *Passwords) VerifyApp(login, password string) bool {
	ok, _ := s.verify(context.Background(), kindApp, login, password)
	return ok
}

// VerifyAccount reports whether password is login's account password.
func (s *Passwords) VerifyAccount(login, password string) bool {
	ok, _ := s.verify(context.Background(), kindAccount, login, password)
	return ok
}

// verify reports whether password is one of login's passwords of kind,
// from the remembered checks or by hashing. It fails only when ctx ends
// while the check waits for a hashing slot.
func (s *Passwords) verify(ctx context.Context, kind, login, password string) (bool, error) {
	id := s.cacheID(kind, login, password)
	if s.cached(id) {
		return true, nil
	}
	ok, err := s.check(ctx, kind, login, password)
	if ok {
		s.remember(id)
	}
	return ok, err
}

// check hashes password against every hash of login of kind. A failed
// check is padded to failedCheckIterations rounds, so that it costs the
// same whether login exists or not.
func (s *Passwords) check(ctx context.Context, kind, login, password string) (bool, error) {
	var hashes []hash
	s.mu.RLock()
	switch kind {
	case kindApp:
		for _, ap := range s.app[login] {
			hashes = append(hashes, ap.h)
		}
	case kindAccount:
		if h, ok := s.account[login]; ok {
			hashes = append(hashes, h)
		}
	}
	s.mu.RUnlock()

	select {
	case s.hashing <- struct{}{}:
	case <-ctx.Done():
		return false, ctx.Err()
	}
	defer func() { <-s.hashing }()
	ok, spent := false, 0
	for _, h := range hashes {
		if s.matches(h, password) {
			ok = true
		}
		spent += h.iter
	}
	if !ok && spent < failedCheckIterations {
		_, _ = s.derive(password, dummySalt, failedCheckIterations-spent)
	}
	return ok, nil
}

// matches reports in constant time whether password has hash h.
func (s *Passwords) matches(h hash, password string) bool {
	sum, err := s.derive(password, h.salt, h.iter)
	return err == nil && subtle.ConstantTimeCompare(sum, h.sum) == 1
}

func (s *Passwords) newHash(password string, iter int) (hash, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return hash{}, err
	}
	sum, err := s.derive(password, salt, iter)
	if err != nil {
		return hash{}, err
	}
	return hash{salt: salt, iter: iter, sum: sum}, nil
}

// Basic authenticates HTTP Basic credentials against application
// passwords and, only when AllowAccountPasswords is set, account passwords
// (for development: never enable it on a networked production server).
//
// Failed logins are throttled with the throttle of Passwords (see
// ThrottleOptions) per user-and-client pair, per client address and, for
// clients that have not signed in as the user before, per user name:
// once one of them has failed too often, attempts are refused with a
// *ThrottledError, which matches ErrTooManyAttempts, without hashing the
// password. Credentials checked successfully within the last minute are
// accepted without hashing and without consulting the throttle, and
// concurrent checks of the same credentials wait for one result, so that
// a burst of requests of a user is never refused.
type Basic struct {
	Passwords *Passwords
	Users     Directory
	// AllowAccountPasswords accepts the account password as well.
	AllowAccountPasswords bool
	// ClientAddr returns the address failed logins of a request are
	// counted under; nil means the IP of r.RemoteAddr (IPv6 addresses by
	// their /64 network). Behind a reverse proxy use ForwardedFor.
	ClientAddr func(r *http.Request) string
}

// Authenticate implements Authenticator.
func (a *Basic) Authenticate(r *http.Request) (*Principal, error) {
	login, password, ok := r.BasicAuth()
	if !ok {
		return nil, nil
	}
	return a.Verify(r, login, password)
}

// Verify checks a user name and password that request r carries in
// another form than a Basic header (a login form, for example) exactly
// as Authenticate checks Basic credentials: the same passwords, the same
// throttle of failed logins counted under the same client address, and
// the same errors (ErrBadCredentials, or a *ThrottledError matching
// ErrTooManyAttempts). It returns the principal of a valid login.
func (a *Basic) Verify(r *http.Request, login, password string) (*Principal, error) {
	method := a.remembered(login, password)
	if method == "" {
		var err error
		if method, err = a.checkOnce(r, login, password); err != nil {
			return nil, err
		}
		if method == "" {
			return nil, ErrBadCredentials
		}
	}
	p, err := a.Users.Lookup(r.Context(), login)
	if err != nil {
		return nil, err
	}
	p.Method = method
	return p, nil
}

// checkOnce checks the credentials, joining a check of the same
// credentials already under way instead of starting another: a joined
// check is neither hashed again nor counted by the throttle, whose delays
// still apply to the client. It returns the method the credentials are
// valid for, "" when they are not.
func (a *Basic) checkOnce(r *http.Request, login, password string) (string, error) {
	s := a.Passwords
	addr := ""
	if a.ClientAddr != nil {
		addr = a.ClientAddr(r)
	} else {
		addr = remoteAddr(r)
	}
	kind := "basic"
	if a.AllowAccountPasswords {
		kind = "basic+account"
	}
	id := s.cacheID(kind, login, password)
	ctx := r.Context()
	for {
		s.flightMu.Lock()
		f, running := s.flights[id]
		if !running {
			f = &flight{done: make(chan struct{})}
			s.flights[id] = f
		}
		s.flightMu.Unlock()
		if !running {
			method, checked, err := a.lead(ctx, login, password, addr)
			s.flightMu.Lock()
			delete(s.flights, id)
			s.flightMu.Unlock()
			f.method, f.checked = method, checked
			close(f.done)
			return method, err
		}
		if wait := s.throttle.delay(login, addr); wait > 0 {
			return "", &ThrottledError{RetryAfter: wait}
		}
		s.parked.Add(1)
		select {
		case <-f.done:
		case <-ctx.Done():
		}
		s.parked.Add(-1)
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if f.checked {
			return f.method, nil
		}
	}
}

// lead checks the credentials under the throttle, waiting while as many
// checks of the client or user are running as failures are left. checked
// reports whether the check was made.
func (a *Basic) lead(ctx context.Context, login, password, addr string) (method string, checked bool, err error) {
	for {
		att, wait, busy := a.Passwords.throttle.begin(login, addr)
		if wait > 0 {
			return "", false, &ThrottledError{RetryAfter: wait}
		}
		if busy != nil {
			a.Passwords.parked.Add(1)
			select {
			case <-busy:
			case <-ctx.Done():
			}
			a.Passwords.parked.Add(-1)
			if ctx.Err() != nil {
				return "", false, ctx.Err()
			}
			continue
		}
		method, err := a.check(ctx, login, password)
		if err != nil {
			att.abandon()
			return "", false, err
		}
		att.done(method != "")
		return method, true, nil
	}
}

// remembered returns the method of credentials checked successfully in
// the last minute, "" otherwise.
func (a *Basic) remembered(login, password string) string {
	s := a.Passwords
	switch {
	case s.cached(s.cacheID(kindApp, login, password)):
		return "application_password"
	case a.AllowAccountPasswords && s.cached(s.cacheID(kindAccount, login, password)):
		return "account_password"
	}
	return ""
}

// check hashes the credentials and returns the method they are valid
// for, "" when they are not.
func (a *Basic) check(ctx context.Context, login, password string) (string, error) {
	ok, err := a.Passwords.verify(ctx, kindApp, login, password)
	if err != nil || ok {
		return "application_password", err
	}
	if !a.AllowAccountPasswords {
		return "", nil
	}
	ok, err = a.Passwords.verify(ctx, kindAccount, login, password)
	if err != nil || ok {
		return "account_password", err
	}
	return "", nil
}

// Sessions issues and checks session cookies and their nonces. Sessions
// are kept in memory; the nonce of a session is an HMAC of its token, so
// a page that knows the nonce cannot forge another session's.
//
// A session ends when it has not been used for the idle timeout, when it
// has lived for its maximum age, or when End is called, whichever comes
// first (see SessionOptions). The store holds a bounded number of
// sessions: when it is full, the session used least recently is ended to
// make room. It is safe for concurrent use.
type Sessions struct {
	// CookieName is the session cookie's name.
	CookieName string
	secret     []byte
	now        func() time.Time
	idle, age  time.Duration
	limit      int
	mu         sync.Mutex
	byToken    map[string]*session // token hash -> session
}

// session is a live session.
type session struct {
	login             string
	created, lastSeen time.Time
}

// SessionOptions configure a session store. Zero fields mean the
// defaults.
type SessionOptions struct {
	// CookieName is the name of the session cookie; "" means
	// "contentgen_session".
	CookieName string
	// IdleTimeout ends a session that has not been used for that long; 0
	// means one hour, a negative value never.
	IdleTimeout time.Duration
	// MaxAge ends a session that long after it was created, however busy
	// it is; 0 means twelve hours, a negative value never.
	MaxAge time.Duration
	// MaxSessions bounds how many sessions are kept; 0 means 10,000.
	MaxSessions int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// NewSessions returns an empty session store with a random secret,
// configured by opts; nil means the defaults.
func NewSessions(opts *SessionOptions) (*Sessions, error) {
	var o SessionOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxSessions < 0 {
		return nil, errors.New("auth: SessionOptions.MaxSessions must not be negative")
	}
	if o.CookieName == "" {
		o.CookieName = "contentgen_session"
	}
	if o.MaxSessions == 0 {
		o.MaxSessions = 10_000
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	return &Sessions{
		CookieName: o.CookieName,
		secret:     secret,
		now:        o.Now,
		idle:       durationOption(o.IdleTimeout, time.Hour),
		age:        durationOption(o.MaxAge, 12*time.Hour),
		limit:      o.MaxSessions,
		byToken:    map[string]*session{},
	}, nil
}

// Create starts a session for login and returns the cookie to set: Path
// "/", HttpOnly and SameSite=Lax. The caller sets Secure when the page is
// served over TLS.
func (s *Sessions) Create(login string) (*http.Cookie, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	now := s.now()
	s.mu.Lock()
	if len(s.byToken) >= s.limit {
		s.makeRoomLocked(now)
	}
	s.byToken[s.key(token)] = &session{login: login, created: now, lastSeen: now}
	s.mu.Unlock()
	c := &http.Cookie{Name: s.CookieName, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode}
	if s.age > 0 {
		c.MaxAge = int(s.age / time.Second)
	}
	return c, nil
}

// makeRoomLocked drops expired sessions and, when none has expired, the
// one used least recently.
func (s *Sessions) makeRoomLocked(now time.Time) {
	oldest, oldestKey := time.Time{}, ""
	for k, ss := range s.byToken {
		if s.expired(ss, now) {
			delete(s.byToken, k)
			continue
		}
		if oldestKey == "" || ss.lastSeen.Before(oldest) {
			oldest, oldestKey = ss.lastSeen, k
		}
	}
	if len(s.byToken) >= s.limit && oldestKey != "" {
		delete(s.byToken, oldestKey)
	}
}

// expired reports whether ss has ended by time at now.
func (s *Sessions) expired(ss *session, now time.Time) bool {
	return (s.idle > 0 && now.Sub(ss.lastSeen) >= s.idle) || (s.age > 0 && now.Sub(ss.created) >= s.age)
}

// End ends the session with token.
func (s *Sessions) End(token string) {
	s.mu.Lock()
	delete(s.byToken, s.key(token))
	s.mu.Unlock()
}

// key is what the store keeps instead of the token itself.
func (s *Sessions) key(token string) string {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte("session\x00" + token))
	return string(m.Sum(nil))
}

// Lookup returns the login of the live session with token and counts the
// call as a use of the session, which restarts its idle timeout. It
// returns false for an unknown, ended or expired session.
func (s *Sessions) Lookup(token string) (string, bool) {
	if token == "" {
		return "", false
	}
	k := s.key(token)
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.byToken[k]
	if !ok {
		return "", false
	}
	if s.expired(ss, now) {
		delete(s.byToken, k)
		return "", false
	}
	ss.lastSeen = now
	return ss.login, true
}

// Nonce returns the nonce of a session or, for a principal without a
// session, of its login.
func (s *Sessions) Nonce(p *Principal) string {
	m := hmac.New(sha256.New, s.secret)
	fmt.Fprintf(m, "nonce\x00%s\x00%s", p.Login, p.Session)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:12])
}

// Cookie authenticates a session cookie accompanied by its nonce in
// the X-Host-Nonce (or X-WP-Nonce) header. A cookie without a valid nonce
// is rejected, which protects cookie sessions against cross-site requests.
type Cookie struct {
	Sessions *Sessions
	Users    Directory
}

// Authenticate implements Authenticator.
func (a *Cookie) Authenticate(r *http.Request) (*Principal, error) {
	c, err := r.Cookie(a.Sessions.CookieName)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	nonce := r.Header.Get("X-Host-Nonce")
	if nonce == "" {
		nonce = r.Header.Get("X-WP-Nonce")
	}
	if nonce == "" {
		// A cookie alone does not authenticate (the request may be
		// cross-site); treat it as no credentials.
		return nil, nil
	}
	login, ok := a.Sessions.Lookup(c.Value)
	if !ok {
		return nil, ErrBadCredentials
	}
	p, err := a.Users.Lookup(r.Context(), login)
	if err != nil {
		return nil, err
	}
	p.Method, p.Session = "cookie", c.Value
	if subtle.ConstantTimeCompare([]byte(nonce), []byte(a.Sessions.Nonce(p))) != 1 {
		return nil, ErrBadCredentials
	}
	return p, nil
}

// durationOption applies the convention of the options' durations: 0
// means def, a negative value none (0).
func durationOption(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}
