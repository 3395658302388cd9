package auth

import (
	"errors"
	"fmt"
	"net/http"
)

// Options configure New. Zero fields mean the defaults.
type Options struct {
	// Passwords configures the password store and its throttle of failed
	// logins; nil means the defaults of PasswordOptions.
	Passwords *PasswordOptions
	// Sessions configures the session store; nil means the defaults of
	// SessionOptions.
	Sessions *SessionOptions
	// AllowAccountPasswords accepts account passwords over Basic
	// authentication as well (for development: never enable it on a
	// networked production server).
	AllowAccountPasswords bool
	// ClientAddr returns the address failed logins of a request are
	// counted under; nil means the IP of r.RemoteAddr (IPv6 addresses by
	// their /64 network). Behind a reverse proxy use ForwardedFor.
	ClientAddr func(r *http.Request) string
	// TrustedOrigins are origins ("scheme://host[:port]") besides the
	// server's own whose pages may post to LoginHandler; the API's
	// httpapi.Options.TrustedOrigins should match.
	TrustedOrigins []string
	// Realm is the Basic authentication realm LoginHandler announces on
	// 401 answers; "" means "contentgen".
	Realm string
}

// Setup is the authentication of one API, set up in one call: a password
// store, a session store, Basic and Cookie authenticators over them and
// the users of Users. It is itself the Authenticator of the API (Basic,
// then Cookie): pass it as httpapi.Options.Auth, with Sessions as
// httpapi.Options.Sessions, and Sessions, Basic and Users to the admin
// page. Add users' passwords through Passwords.
//
// The fields are ready when New returns; change them only before the
// Setup serves requests.
type Setup struct {
	Passwords *Passwords
	Sessions  *Sessions
	Users     Directory
	Basic     *Basic
	Cookie    *Cookie

	login http.Handler
}

var _ Authenticator = (*Setup)(nil)

// New returns the authentication over users configured by opts; nil
// means the defaults. users is required; GeneratorDirectory reads the
// users and roles of a Generator's site.
func New(users Directory, opts *Options) (*Setup, error) {
	if users == nil {
		return nil, errors.New("auth: New: users is required")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Realm == "" {
		o.Realm = "contentgen"
	}
	passwords, err := NewPasswords(o.Passwords)
	if err != nil {
		return nil, fmt.Errorf("auth: New: %w", err)
	}
	sessions, err := NewSessions(o.Sessions)
	if err != nil {
		return nil, fmt.Errorf("auth: New: %w", err)
	}
	cop, err := NewCrossOriginProtection(o.TrustedOrigins...)
	if err != nil {
		return nil, fmt.Errorf("auth: New: Options.TrustedOrigins: %w", err)
	}
	s := &Setup{
		Passwords: passwords,
		Sessions:  sessions,
		Users:     users,
		Basic:     &Basic{Passwords: passwords, Users: users, AllowAccountPasswords: o.AllowAccountPasswords, ClientAddr: o.ClientAddr},
		Cookie:    &Cookie{Sessions: sessions, Users: users},
	}
	s.login = cop.Handler(login(s.Basic, sessions, o.Realm))
	return s, nil
}

// Authenticate implements Authenticator: Basic credentials first, then a
// session cookie with its nonce.
func (s *Setup) Authenticate(r *http.Request) (*Principal, error) {
	return Chain(s.Basic, s.Cookie).Authenticate(r)
}

// LoginHandler starts a cookie session for a user who proves a password
// over Basic authentication, for programs and pages that talk to the API
// with a session rather than a password. It answers {"nonce": "..."},
// the nonce that cookie requests must send in X-Host-Nonce, and sets the
// session cookie (Secure over TLS). Wrong credentials get 401 with a
// Basic challenge; a login the throttle refuses gets 429 with
// Retry-After. State-changing requests from pages of other origins than
// the server's own and Options.TrustedOrigins are refused with 403, like
// the API's.
func (s *Setup) LoginHandler() http.Handler { return s.login }

func login(basic *Basic, sessions *Sessions, realm string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := basic.Authenticate(r)
		var te *ThrottledError
		if errors.As(err, &te) {
			w.Header().Set("Retry-After", te.Seconds())
			http.Error(w, "too many failed logins", http.StatusTooManyRequests)
			return
		}
		if err != nil || p == nil {
			w.Header().Set("WWW-Authenticate", `Basic realm="`+realm+`"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		c, err := sessions.Create(p.Login)
		if err != nil {
			http.Error(w, "session could not be created", http.StatusInternalServerError)
			return
		}
		c.Secure = r.TLS != nil
		http.SetCookie(w, c)
		p.Session = c.Value
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, "{\"nonce\":%q}\n", sessions.Nonce(p))
	})
}
