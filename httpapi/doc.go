// Package httpapi serves the contentgen HTTP/JSON API on any http.Handler.
//
// It owns HTTP concerns only: routing, authentication, decoding, response
// envelopes, status codes and the Server-Sent-Events stream. Every rule
// about content lives in package contentgen; a handler here decodes a
// request, calls the Generator and encodes what it returns.
//
// # Mounting
//
// New returns an http.Handler whose routes are relative to its root, so it
// works mounted under any prefix:
//
//	api, err := httpapi.New(gen, &httpapi.Options{Auth: auth})
//	mux.Handle("/contentgen/v1/", http.StripPrefix("/contentgen/v1", api))
//
// # Authentication
//
// Every request passes the Authenticator of Options before routing. The
// built-in ones cover the three methods of the specification: HTTP Basic
// with application passwords (BasicAuth), Basic with the account password
// when explicitly enabled for development (BasicAuth.AllowAccountPasswords)
// and a session cookie plus nonce header (CookieAuth). Chain combines
// them. Unauthenticated requests get 401 rest_not_logged_in; users without
// the manage_options capability get 403 rest_forbidden.
//
// # Errors
//
// Errors are written in the envelope {success: false, code, message}; one
// table maps codes to statuses. Causes are logged, never sent to clients;
// an error that is not a *contentgen.Error becomes a 500 with a generic
// message.
package httpapi
