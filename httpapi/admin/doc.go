// Package admin serves the contentgen admin page: a browser interface
// over the HTTP API of package httpapi that shows what exists and what
// was generated, generates posts (with a live progress bar), terms, users
// and comments, starts runs of any size (the /runs endpoints) and follows
// and cancels them, browses the generated content as a reader would see
// it, and manages history, templates and settings.
//
// New returns an http.Handler that serves, relative to where it is
// mounted:
//
//	GET  /          the page (redirects to login without a live session)
//	GET  /login     the login form
//	POST /login     checks the user name and password and starts a session
//	POST /logout    ends the session
//	GET  /assets/…  the page's script, style sheet and translations
//
// Mount it under a path that ends in a slash, for example
//
//	mux.Handle("/contentgen/admin/", http.StripPrefix("/contentgen/admin", h))
//
// # Authentication
//
// The login form checks the user name and password with the Verifier of
// Options (usually the API's *auth.Basic, so the same passwords
// and the same throttle of failed logins apply) and starts a cookie
// session in the API's *auth.Sessions. Only users with the
// manage_options capability may log in. The page is handed the session's
// nonce when it loads and sends it as X-Host-Nonce on every API call, so
// the API's auth.Cookie accepts them. The login form carries a
// token bound to a SameSite=Strict cookie and the logout form the nonce,
// and both refuse cross-origin posts, so neither can be forged from
// another site. Sessions expire as configured in auth.SessionOptions;
// the page then returns to the login form.
//
// # The page
//
// The page is plain HTML, CSS and JavaScript modules embedded in the
// binary: nothing is downloaded or built at run time. It speaks English
// and German, following the admin_locale setting ("auto" follows the site
// language), one of the page's preferences (httpapi.Preferences) that the
// API stores beside the Generator's settings and serves with them on
// /settings. Every answer carries a Content-Security-Policy that allows
// scripts and styles only from the page's own origin and images only from
// it and the site's address, forbids framing, and comes with
// X-Content-Type-Options: nosniff.
package admin
