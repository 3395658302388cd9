// Package httpapi serves the contentgen HTTP/JSON API on any http.Handler.
//
// It owns HTTP concerns only: routing, authentication, decoding, response
// envelopes, status codes and the Server-Sent-Events stream. Every rule
// about content lives in package contentgen; a handler here decodes a
// request, calls the Generator and encodes what it returns. The library's
// types carry no wire format: every answer is a record built here from
// them (wire.go, records.go, wire_templates.go for templates, sync and
// dependencies), so a change of the JSON the API answers with goes there.
// Handlers never reach the Host: what exists on the site (the /content
// endpoints, post types, taxonomies, roles, users and terms lists, the
// site) is read through Generator.Content, which filters, counts and
// pages; a new filter of a read endpoint is decoded here and belongs to
// contentgen.ContentQuery.
//
// # Mounting
//
// New returns an http.Handler whose routes are relative to its root, so it
// works mounted under any prefix:
//
//	authn, err := auth.New(auth.GeneratorDirectory(gen), nil) // package httpapi/auth
//	api, err := httpapi.New(gen, &httpapi.Options{Auth: authn, Sessions: authn.Sessions})
//	mux.Handle("/contentgen/v1/", http.StripPrefix("/contentgen/v1", api))
//
// # Authentication
//
// Every request passes the Authenticator of Options before routing; the
// authenticators, the password and session stores and the throttle of
// failed logins live in package httpapi/auth, whose New sets them all up
// in one call. Unauthenticated requests get 401 rest_not_logged_in; users
// without the manage_options capability get 403 rest_forbidden; a login
// the throttle refuses gets 429 too_many_attempts with Retry-After (never
// the 401 of wrong credentials). A 401 carries a Basic challenge, except
// to requests that send a nonce: those come from a page of a cookie
// session, where the challenge would make the browser prompt for a
// password. Package httpapi/admin serves the admin page that logs users
// in to such sessions.
//
// # Running the API safely
//
// Serve the API with NewServer rather than a bare http.Server:
//
//	srv := httpapi.NewServer(":8080", mux, nil)
//	err := srv.ListenAndServe()
//
// It bounds how long a client may take to send its headers (10 s) and its
// body (1 min, counted per request and lifted once the body is read), how
// long an idle connection is kept (2 min) and the size of headers (64 KiB),
// so that slow or silent clients cannot hold connections. It sets no
// whole-request read or write timeout, which would end event streams;
// ServerOptions changes each limit. Request bodies are further limited in
// size by Options.MaxBodyBytes.
//
// A browser that remembers Basic credentials sends them with requests
// that pages of other sites make it send, so before authentication and
// whatever the credentials, the API refuses every request other than GET,
// HEAD and OPTIONS that the browser marks as coming from another origin
// (Sec-Fetch-Site, or an Origin naming another host) with 403
// cross_origin_request, and every request body that is not sent as
// application/json (multipart only where a file is uploaded) with 415
// unsupported_media_type, which no cross-site form can send without a
// CORS preflight. Programs that are not browsers send neither header and
// are not affected. Options.TrustedOrigins lists the origins of pages on
// other hosts that may write nonetheless; auth.NewCrossOriginProtection
// gives handlers beside the API, such as a login endpoint, the same check.
//
// How password guessing is bounded (per user and client, per address,
// per user for unknown clients, with remembered clients and bounded
// hashing) is described in package httpapi/auth.
//
// # Event streams
//
// POST /generate/posts/stream answers with Server-Sent Events. While a run
// is slow (images, AI), the comment line ": ping" is sent every
// Options.StreamHeartbeat (15 s), so that proxies do not close the
// connection as idle. Every write of the stream has a deadline,
// Options.StreamWriteTimeout (30 s): a client that stops reading is
// dropped and its run stopped, like one that goes away, instead of
// holding the run in a blocked write. Both are logged at INFO, as what
// they are; neither is an error of the server.
//
// # API reference
//
// OpenAPI returns the OpenAPI 3.1 document of every endpoint (the file
// openapi.json of this package), which the API also serves at
// GET /openapi.json. The package's tests keep it and the routes in step
// and validate every request and answer they make against it. The API
// itself checks every request against it before the handler runs: another
// method on a documented path is 405 with Allow, and a query parameter or
// JSON property the document's schema forbids (wrong type, null, out of
// range, empty, unknown where additionalProperties is false) is 400
// invalid_parameter naming it.
//
// # Settings
//
// GET and POST /settings serve the Generator's settings
// (contentgen.GeneralSettings) and the admin page's Preferences in one
// "general" object. Both are defined once, as tagged struct fields: the
// wire names, the stored form and the partial update of POST /settings
// (the body decoded over the current values, then validated by the tags)
// all derive from them.
//
// # Errors
//
// Errors are written in the envelope {success: false, code, message}; one
// table maps codes to statuses. Causes are logged, never sent to clients;
// an error that is not a *contentgen.Error becomes a 500 with a generic
// message. A panic while serving a request is recovered, logged with its
// stack and answered the same way; a response already under way, such as
// an event stream, is cut off instead. A request ended by its client is
// logged at INFO.
package httpapi
