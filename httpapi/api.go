package httpapi

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/runs"
	"github.com/contentgen/contentgen/httpapi/addons"
	"github.com/contentgen/contentgen/httpapi/auth"
	"github.com/contentgen/contentgen/httpapi/license"
)

// Options configure an API. Auth is required.
type Options struct {
	// Auth authenticates every request: usually an *auth.Setup, or any
	// auth.Authenticator.
	Auth auth.Authenticator
	// Sessions, when set, provides the nonce reported by GET /urls; it
	// should be the store of the auth.Cookie in Auth (Setup.Sessions).
	Sessions *auth.Sessions
	// Logger receives request failures; nil discards them.
	Logger *slog.Logger
	// MaxBodyBytes limits JSON request bodies; 0 means 1 MiB.
	MaxBodyBytes int64
	// Realm is the Basic authentication realm announced on 401 responses;
	// empty means "contentgen".
	Realm string
	// URLs fills the fields of GET /urls that only the embedding program
	// knows; empty fields are derived from the site and the request.
	URLs URLs
	// License serves the licence endpoints; nil reports licensing as not
	// configured.
	License license.LicenseManager
	// Addons is the registry GET /addons lists; nil lists none.
	Addons *addons.Registry
	// StreamHeartbeat is how often an event stream sends the comment
	// line ": ping" to show it is alive while no event is due; 0 means 15
	// seconds, a negative value none.
	StreamHeartbeat time.Duration
	// StreamWriteTimeout bounds each write of an event stream: a client
	// that does not take an event or heartbeat within it is dropped and
	// its run stopped, so that a stalled client cannot hold a run; 0
	// means 30 seconds, a negative value no bound.
	StreamWriteTimeout time.Duration
	// TrustedOrigins are the origins ("scheme://host[:port]") of pages on
	// other sites that may send state-changing requests, such as an admin
	// page served on another host name. Without them only requests from
	// the API's own origin, and from programs that are not browsers, are
	// served (see "Running the API safely" in the package documentation).
	TrustedOrigins []string
	// Runs serves the /runs endpoints (runs of any size); nil answers them
	// with 503 not_configured, whose message is NoRuns (when empty, "runs
	// are not set up on this server"), such as why this server cannot
	// hold runs.
	Runs   *runs.Service
	NoRuns string
}

// URLs are the addresses reported by GET /urls. PluginURL, AdminURL,
// AjaxURL and LogoURL may be given as a path, such as
// "/contentgen/admin/", which is reported on the scheme and host the
// request reached. An empty AdminURL reports the site's admin address;
// other empty fields stay empty or are derived from the request.
type URLs struct {
	PluginURL  string `json:"plugin_url"`
	APIURL     string `json:"api_url"`
	AdminURL   string `json:"admin_url"`
	AjaxURL    string `json:"ajax_url"`
	LogoURL    string `json:"logo_url"`
	PluginDir  string `json:"plugin_dir"`
	PluginFile string `json:"plugin_file"`
	PluginName string `json:"plugin_name"`
}

// API is the http.Handler serving the endpoints. Its routes are relative
// to its root; mount it under a prefix with http.StripPrefix.
type API struct {
	g        *contentgen.Generator
	auth     auth.Authenticator
	sessions *auth.Sessions
	log      *slog.Logger
	maxBody  int64
	realm    string
	urls     URLs
	license  license.LicenseManager
	addons   *addons.Registry
	runs     *runs.Service
	noRuns   string
	mux      *http.ServeMux
	cop      *http.CrossOriginProtection
	// routes are the registered routes in registration order.
	routes []Route
	// Event streams: heartbeat interval and per-write timeout (0 for
	// none), and the source of heartbeat ticks.
	streamHeartbeat, streamWriteTimeout time.Duration
	tick                                ticker
	// lang is the language of the admin_locale setting last seen, used
	// for the answers to unauthenticated requests, which read nothing.
	lang atomic.Pointer[string]
}

// New returns the API for g.
func New(g *contentgen.Generator, opts *Options) (*API, error) {
	if g == nil {
		return nil, errors.New("httpapi: New: generator is nil")
	}
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Auth == nil {
		return nil, errors.New("httpapi: New: Options.Auth is required (every endpoint needs authentication)")
	}
	if o.MaxBodyBytes < 0 {
		return nil, errors.New("httpapi: New: Options.MaxBodyBytes must not be negative")
	}
	if _, err := compiledSpec(); err != nil {
		return nil, fmt.Errorf("httpapi: New: the embedded OpenAPI document: %w", err)
	}
	cop, err := auth.NewCrossOriginProtection(o.TrustedOrigins...)
	if err != nil {
		return nil, fmt.Errorf("httpapi: New: Options.TrustedOrigins: %w", err)
	}
	a := &API{
		g:        g,
		auth:     o.Auth,
		sessions: o.Sessions,
		log:      o.Logger,
		maxBody:  o.MaxBodyBytes,
		realm:    o.Realm,
		urls:     o.URLs,
		license:  o.License,
		addons:   o.Addons,
		runs:     o.Runs,
		noRuns:   o.NoRuns,
		mux:      http.NewServeMux(),
		cop:      cop,
		tick:     realTicker,
	}
	a.streamHeartbeat = durationOption(o.StreamHeartbeat, defaultStreamHeartbeat)
	a.streamWriteTimeout = durationOption(o.StreamWriteTimeout, defaultStreamWriteTimeout)
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	if a.maxBody == 0 {
		a.maxBody = 1 << 20
	}
	if a.realm == "" {
		a.realm = "contentgen"
	}
	a.messages(context.Background())
	a.coreRoutes()
	a.aiRoutes()
	a.mediaRoutes()
	a.templateRoutes()
	a.contentRoutes()
	a.runRoutes()
	return a, nil
}

// durationOption applies the convention of Options' durations: 0 means
// def, a negative value none (0).
func durationOption(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// Mount registers api on mux under base, such as "/contentgen/v1".
func Mount(mux *http.ServeMux, base string, api http.Handler) {
	base = "/" + strings.Trim(base, "/")
	if base == "/" {
		mux.Handle("/", api)
		return
	}
	mux.Handle(base+"/", http.StripPrefix(base, api))
}

// handlerFunc is an endpoint: it writes a success response or returns an
// error for the one error writer.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

func (a *API) handle(pattern string, h handlerFunc) {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok {
		panic("httpapi: route " + pattern + " has no method")
	}
	a.routes = append(a.routes, Route{Method: method, Pattern: path})
	a.mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			a.writeError(w, r, err)
		}
	}))
}

// Route is an endpoint of the API: a method and a path pattern of
// net/http.ServeMux, relative to the API's root, such as
// {Method: "DELETE", Pattern: "/history/{id}"}.
type Route struct {
	Method  string
	Pattern string
}

// String returns the route as a ServeMux pattern, "DELETE /history/{id}".
func (r Route) String() string { return r.Method + " " + r.Pattern }

// Routes returns every route the API serves, in registration order. The
// slice is new on every call.
func (a *API) Routes() []Route { return slices.Clone(a.routes) }

// ServeHTTP refuses requests a page of another site may have made (see
// "Running the API safely" in the package documentation), authenticates
// the request, checks the manage_options
// capability and routes it.
//
// A panic while serving is recovered and logged with its stack: a request
// whose answer has not started gets 500 in the error envelope; one whose
// answer has started (an event stream) is aborted, so that the client
// sees the answer cut short rather than complete. http.ErrAbortHandler is
// passed on untouched.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sw := &startWriter{ResponseWriter: w}
	defer a.recoverPanic(sw, r)
	a.serve(sw, r)
}

// recoverPanic answers a panic of serve; it must be deferred directly.
func (a *API) recoverPanic(w *startWriter, r *http.Request) {
	v := recover()
	if v == nil {
		return
	}
	if v == http.ErrAbortHandler {
		panic(v)
	}
	a.log.ErrorContext(r.Context(), "httpapi: panic serving request", "method", r.Method, "path", r.URL.Path,
		"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
	if w.started {
		panic(http.ErrAbortHandler)
	}
	clear(w.Header())
	writeJSON(w, http.StatusInternalServerError, errorBody{Code: contentgen.CodeInternal, Message: "Internal server error."})
}

// startWriter records whether the answer has started, so that a panic
// is answered only when no status has been sent yet. Unwrap keeps
// http.ResponseController working through it.
type startWriter struct {
	http.ResponseWriter
	started bool
}

func (w *startWriter) WriteHeader(status int) {
	if status >= 200 || status == http.StatusSwitchingProtocols {
		w.started = true
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *startWriter) Write(b []byte) (int, error) {
	w.started = true
	return w.ResponseWriter.Write(b)
}

// FlushError flushes the answer and reports a failed write, for
// http.ResponseController.
func (w *startWriter) FlushError() error {
	w.started = true
	return http.NewResponseController(w.ResponseWriter).Flush()
}

// Flush serves callers that assert http.Flusher.
func (w *startWriter) Flush() { _ = w.FlushError() }

func (w *startWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// serve is ServeHTTP without the recovery.
func (a *API) serve(w http.ResponseWriter, r *http.Request) {
	if err := a.checkForgery(r); err != nil {
		a.writeError(w, r, err)
		return
	}
	p, err := a.auth.Authenticate(r)
	switch {
	case errors.Is(err, auth.ErrTooManyAttempts):
		retry := ""
		var te *auth.ThrottledError
		if errors.As(err, &te) {
			retry = te.Seconds()
			w.Header().Set("Retry-After", retry)
		}
		a.writeError(w, r, contentgen.Errorf(codeTooManyAttempts, "", "%s", a.lastMessages().TooManyAttempts(retry)))
		return
	case errors.Is(err, auth.ErrBadCredentials):
		a.writeError(w, r, contentgen.Errorf(contentgen.CodeNotLoggedIn, "", "%s", a.lastMessages().BadCredentials()))
		return
	case err != nil:
		a.writeError(w, r, err)
		return
	case p == nil:
		a.writeError(w, r, contentgen.Errorf(contentgen.CodeNotLoggedIn, "", "%s", a.lastMessages().NotLoggedIn()))
		return
	case !p.Can(contentgen.ManageOptions):
		a.writeError(w, r, contentgen.Errorf(contentgen.CodeForbidden, "", "%s", a.lastMessages().Forbidden()))
		return
	}
	r = r.WithContext(withPrincipal(r.Context(), p))
	if err := queryNUL(r.URL.RawQuery); err != nil {
		a.writeError(w, r, err)
		return
	}
	if err, _ := a.checkRequest(w, r); err != nil {
		a.writeError(w, r, err)
		return
	}
	if _, pattern := a.mux.Handler(r); pattern == "" {
		a.noRoute(w, r)
		return
	}
	a.mux.ServeHTTP(w, r)
}

// noRoute answers requests no route matches: 405 when the path exists for
// other methods, 404 otherwise, both in the error envelope.
func (a *API) noRoute(w http.ResponseWriter, r *http.Request) {
	var allowed []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := a.mux.Handler(probe); pattern != "" {
			allowed = append(allowed, m)
		}
	}
	if len(allowed) > 0 {
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		a.writeError(w, r, contentgen.Errorf(codeMethodNotAllowed, "", "Method %s is not allowed here; use %s.", r.Method, strings.Join(allowed, " or ")))
		return
	}
	a.writeError(w, r, contentgen.Errorf(contentgen.CodeNotFound, "", "%s", a.messages(r.Context()).NoRoute()))
}
