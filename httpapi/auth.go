package httpapi

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
	"slices"
	"strings"
	"sync"
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
var ErrBadCredentials = errors.New("httpapi: invalid credentials")

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
	users, err := d.g.Host().Users(ctx, contentgen.UserQuery{Login: login, Limit: 1})
	if err != nil {
		return nil, err
	}
	if len(users) == 0 {
		return nil, ErrBadCredentials
	}
	roles, err := d.g.Host().Roles(ctx)
	if err != nil {
		return nil, err
	}
	u := users[0]
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
type Passwords struct {
	mu      sync.RWMutex
	app     map[string][]appPassword
	account map[string]hash
	// verified remembers recent successful checks for a minute, keyed by
	// an HMAC of kind, login and password under a per-process key, so that
	// a client sending the same Basic credentials on every request pays
	// the slow hash once, not per request.
	cacheKey []byte
	verified map[string]time.Time
	now      func() time.Time
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
)

// NewPasswords returns an empty password store.
func NewPasswords() *Passwords {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return &Passwords{
		app:      map[string][]appPassword{},
		account:  map[string]hash{},
		cacheKey: key,
		verified: map[string]time.Time{},
		now:      time.Now,
	}
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
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var raw [24]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	var b strings.Builder
	for i, c := range raw {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteByte(alphabet[int(c)%len(alphabet)])
	}
	pw := b.String()
	return pw, s.addApp(login, name, pw, generatedIterations)
}

// SetAppPassword stores an application password chosen by the caller.
func (s *Passwords) SetAppPassword(login, name, password string) error {
	if password == "" {
		return errors.New("httpapi: empty password")
	}
	return s.addApp(login, name, password, chosenIterations)
}

func (s *Passwords) addApp(login, name, password string, iter int) error {
	h, err := newHash(password, iter)
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
		return errors.New("httpapi: empty password")
	}
	h, err := newHash(password, chosenIterations)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.account[login] = h
	s.forgetAllLocked()
	return nil
}

// VerifyApp reports whether password is one of login's application
// passwords.
func (s *Passwords) VerifyApp(login, password string) bool {
	id := s.cacheID("app", login, password)
	if s.cached(id) {
		return true
	}
	s.mu.RLock()
	list := slices.Clone(s.app[login])
	s.mu.RUnlock()
	ok := false
	if len(list) == 0 {
		// Same cost as a real check, so timing does not reveal logins.
		dummy := hash{salt: make([]byte, 16), iter: generatedIterations, sum: make([]byte, 32)}
		dummy.matches(password)
	}
	for _, ap := range list {
		if ap.h.matches(password) {
			ok = true
		}
	}
	if ok {
		s.remember(id)
	}
	return ok
}

// VerifyAccount reports whether password is login's account password.
func (s *Passwords) VerifyAccount(login, password string) bool {
	id := s.cacheID("account", login, password)
	if s.cached(id) {
		return true
	}
	s.mu.RLock()
	h, found := s.account[login]
	s.mu.RUnlock()
	if !found {
		// Spend the same time as a real check so that timing does not
		// tell which logins exist.
		h = hash{salt: make([]byte, 16), iter: chosenIterations, sum: make([]byte, 32)}
		h.matches(password)
		return false
	}
	if !h.matches(password) {
		return false
	}
	s.remember(id)
	return true
}

func newHash(password string, iter int) (hash, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return hash{}, err
	}
	sum, err := pbkdf2.Key(sha256.New, password, salt, iter, 32)
	if err != nil {
		return hash{}, err
	}
	return hash{salt: salt, iter: iter, sum: sum}, nil
}

func (h hash) matches(password string) bool {
	sum, err := pbkdf2.Key(sha256.New, password, h.salt, h.iter, 32)
	return err == nil && subtle.ConstantTimeCompare(sum, h.sum) == 1
}

// BasicAuth authenticates HTTP Basic credentials against application
// passwords and, only when AllowAccountPasswords is set, account passwords
// (for development: never enable it on a networked production server).
type BasicAuth struct {
	Passwords *Passwords
	Users     Directory
	// AllowAccountPasswords accepts the account password as well.
	AllowAccountPasswords bool
}

// Authenticate implements Authenticator.
func (a *BasicAuth) Authenticate(r *http.Request) (*Principal, error) {
	login, password, ok := r.BasicAuth()
	if !ok {
		return nil, nil
	}
	method := ""
	switch {
	case a.Passwords.VerifyApp(login, password):
		method = "application_password"
	case a.AllowAccountPasswords && a.Passwords.VerifyAccount(login, password):
		method = "account_password"
	default:
		return nil, ErrBadCredentials
	}
	p, err := a.Users.Lookup(r.Context(), login)
	if err != nil {
		return nil, err
	}
	p.Method = method
	return p, nil
}

// Sessions issues and checks session cookies and their nonces. Sessions
// are kept in memory; the nonce of a session is an HMAC of its token, so
// a page that knows the nonce cannot forge another session's.
type Sessions struct {
	// CookieName is the session cookie's name.
	CookieName string
	secret     []byte
	mu         sync.RWMutex
	byToken    map[string]string // token hash -> login
}

// NewSessions returns an empty session store with a random secret.
func NewSessions() (*Sessions, error) {
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, err
	}
	return &Sessions{CookieName: "contentgen_session", secret: secret, byToken: map[string]string{}}, nil
}

// Create starts a session for login and returns the cookie to set.
func (s *Sessions) Create(login string) (*http.Cookie, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	s.mu.Lock()
	s.byToken[s.key(token)] = login
	s.mu.Unlock()
	return &http.Cookie{Name: s.CookieName, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode}, nil
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

// login returns the login of a live session.
func (s *Sessions) login(token string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	l, ok := s.byToken[s.key(token)]
	return l, ok
}

// Nonce returns the nonce of a session or, for a principal without a
// session, of its login.
func (s *Sessions) Nonce(p *Principal) string {
	m := hmac.New(sha256.New, s.secret)
	fmt.Fprintf(m, "nonce\x00%s\x00%s", p.Login, p.Session)
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:12])
}

// CookieAuth authenticates a session cookie accompanied by its nonce in
// the X-Host-Nonce (or X-WP-Nonce) header. A cookie without a valid nonce
// is rejected, which protects cookie sessions against cross-site requests.
type CookieAuth struct {
	Sessions *Sessions
	Users    Directory
}

// Authenticate implements Authenticator.
func (a *CookieAuth) Authenticate(r *http.Request) (*Principal, error) {
	c, err := r.Cookie(a.Sessions.CookieName)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	login, ok := a.Sessions.login(c.Value)
	if !ok {
		return nil, ErrBadCredentials
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
