// Package auth authenticates the requests of the contentgen HTTP API:
// the three methods of the specification, the stores they check against
// and the throttle of failed logins. Package httpapi asks an
// Authenticator for the principal of every request; package
// httpapi/admin logs users in through the same stores.
//
// # Setting up
//
// New sets everything up in one call, over a Directory of users (usually
// GeneratorDirectory of the Generator the API serves):
//
//	authn, err := auth.New(auth.GeneratorDirectory(gen), nil)
//	pw, err := authn.Passwords.NewAppPassword("admin", "my laptop")
//	api, err := httpapi.New(gen, &httpapi.Options{Auth: authn, Sessions: authn.Sessions})
//	page, err := admin.New(&admin.Options{Generator: gen, Sessions: authn.Sessions,
//		Verifier: authn.Basic, Users: authn.Users, APIBase: "/contentgen/v1"})
//	mux.Handle("POST /login", authn.LoginHandler()) // optional: a session without the page
//
// The pieces can also be put together by hand: Basic (HTTP Basic with
// application passwords, and with the account password when
// AllowAccountPasswords is set, for development), Cookie (a session
// cookie plus its nonce in X-Host-Nonce or X-WP-Nonce) and Chain, over a
// Passwords and a Sessions store (NewPasswords, NewSessions; nil options
// mean the defaults).
//
// Sessions (see SessionOptions) end after an idle timeout (one hour) and
// a maximum age (twelve hours) on an injected clock, or when ended.
//
// # Password guessing
//
// Password guessing is bounded three ways. Basic counts failed logins
// per pair of user name and client, per client address and per user name
// (ThrottleOptions). After 5 failures of a user from one client, 20 from
// one address, or 50 of a user from all clients together, attempts are
// refused before any password is hashed with a *ThrottledError (the API
// answers 429 too_many_attempts with Retry-After, never the 401 of wrong
// credentials), for a delay that starts at one second and doubles up to a
// minute. The count of a user from all clients does not apply to clients
// that signed in as that user before (remembered for 30 days, 10,000 at
// most): an attack from elsewhere cannot lock the user out of them. A
// successful login resets its pair; credentials verified in the last
// minute are accepted without hashing, and concurrent checks of the same
// credentials wait for one result rather than counting as guesses, so a
// burst of valid requests is never refused; authenticated calls are never
// limited. The throttle tracks at most 10,000 entries of each kind and
// forgets those not tried for 15 minutes. Password checks hash on half the
// cores at most, one at least (PasswordOptions.MaxConcurrentHashes), so a
// flood of guesses leaves the rest to the API. And a failed check costs
// the same whether the user exists or not, so timing does not reveal
// logins.
//
// Clients are told apart by r.RemoteAddr. Behind a reverse proxy, set
// Options.ClientAddr (or Basic.ClientAddr) to ForwardedFor with the
// proxies' networks; otherwise every client shares the proxy's address.
//
// # Cross-site requests
//
// A browser sends remembered Basic credentials and session cookies with
// requests that pages of other sites make it send. NewCrossOriginProtection
// is the check the API applies before authentication; LoginHandler and
// the admin page's forms apply it too.
package auth
