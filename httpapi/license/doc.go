// Package license verifies licence keys offline and keeps the activation
// state of the service behind GET /license and POST /license/activate,
// /license/deactivate and /license/refresh.
//
// # Keys
//
// A licence key is a signed token "CGL1.<payload>.<signature>": payload is
// the base64url (unpadded) JSON of [Claims] (plan, site, issued, expires,
// id) and signature the base64url ed25519 signature of "CGL1.<payload>".
// The embedding program configures the public key ([ParsePublicKey]); the
// vendor issues keys with the private key ([Issue]). [Verify] checks a key
// without any network access.
//
// # Activation
//
// [LicenseManager] is the seam the HTTP layer uses. The default, [Manager],
// verifies keys offline, keeps the activated key and site through a small
// [Store] (in memory by default, [MemStore]) and, when given a
// [RemoteVerifier], also asks a licence server on Refresh. Activate fails
// with errors that match [ErrMalformed] or [ErrForged] (a bad request),
// [ErrExpired] (with the expiry date in the message) or [ErrSiteMismatch].
//
// The embedding program passes a LicenseManager in httpapi.Options.License;
// nothing but the HTTP API uses licences, so the package lives beside it.
// It imports only the standard library (and an internal in-memory store).
package license
