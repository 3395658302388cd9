// Package fetch downloads remote files on behalf of users without letting
// them reach the server's own network (server-side request forgery).
//
// A Client built here checks every address it connects to after DNS
// resolution, inside the dialer (net.Dialer.Control), so a host name that
// resolves, or is re-bound, to 127.0.0.1, a private range, a link-local or
// metadata address (169.254.169.254) and the like is refused at connect
// time; the same check runs for every redirect hop, because each hop dials
// anew. Only http and https are followed, redirects are bounded, the body
// is read up to a size cap and the whole request has a deadline. The
// client never uses a proxy from the environment, since a proxy would dial
// on its behalf and bypass the check.
//
// # Errors
//
// Fetcher.Get returns every failure as an *Error with one of a small set
// of kinds: ErrInvalidURL, ErrSchemeNotAllowed, ErrAddressNotAllowed,
// ErrTooManyRedirects, ErrTooLarge, ErrTimeout, ErrUnreachable,
// ErrBadStatus and ErrCanceled, matched with errors.Is. The message of an
// *Error is its kind's message, which names no address or host and may be
// shown to a client; the raw cause (a *AddressError, a *StatusError, a
// DNS or dial error that may name the internal resolver) is kept in
// Error.Err and reached with errors.As or errors.Is, for logs only.
//
// The media import endpoint (POST /media/upload-url) uses Fetcher.Get; the
// remote image providers use NewHTTPClient for their default client.
package fetch
