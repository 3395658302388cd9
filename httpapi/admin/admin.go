package admin

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/auth"
)

//go:embed assets pages
var files embed.FS

// Verifier checks a user name and password sent by the login form.
// *auth.Basic implements it with the passwords and the throttle of
// failed logins that the API's Basic authentication uses.
type Verifier interface {
	// Verify returns the principal of a valid login; ErrBadCredentials
	// for a wrong one; a *auth.ThrottledError when the throttle
	// refused the attempt; another error when the check could not be
	// made.
	Verify(r *http.Request, login, password string) (*auth.Principal, error)
}

// Options configure the admin page. Generator, Sessions, Verifier and
// APIBase are required.
type Options struct {
	// Generator is the one the API serves; the page reads the site's name
	// and language and the admin_locale setting from it.
	Generator *contentgen.Generator
	// Sessions is the session store of the API's auth.Cookie, so
	// that the API accepts the page's requests.
	Sessions *auth.Sessions
	// Verifier checks the login form, usually the API's *auth.Basic.
	Verifier Verifier
	// Users looks up the user of a session when the page loads, to check
	// that it still holds manage_options; nil means
	// auth.GeneratorDirectory(Generator).
	Users auth.Directory
	// APIBase is the address of the API's root as the browser reaches it:
	// a path such as "/contentgen/v1", or an absolute URL on the page's
	// own origin (the page sends its session cookie to no other).
	APIBase string
	// Logger receives failures that are not the client's; nil discards
	// them.
	Logger *slog.Logger
	// TrustedOrigins are origins ("scheme://host[:port]") besides the
	// page's own from which the login and logout forms may be posted,
	// such as the public address of a reverse proxy that rewrites the
	// Host header; the API's httpapi.Options.TrustedOrigins should match.
	TrustedOrigins []string
}

// handler serves the admin page.
type handler struct {
	o       Options
	mux     *http.ServeMux
	pages   *template.Template
	assets  map[string]asset
	csp     string
	formKey []byte
	cop     *http.CrossOriginProtection
}

// asset is an embedded file ready to serve.
type asset struct {
	body  []byte
	ctype string
	etag  string
}

// maxFormBytes bounds the body of the login and logout forms.
const maxFormBytes = 16 << 10

// loginTokenTTL is how long a login form may be left open.
const loginTokenTTL = time.Hour

// New returns the handler of the admin page; see the package
// documentation for its routes.
func New(opts *Options) (http.Handler, error) {
	if opts == nil {
		return nil, errors.New("admin: New: options are required")
	}
	o := *opts
	switch {
	case o.Generator == nil:
		return nil, errors.New("admin: New: Options.Generator is required")
	case o.Sessions == nil:
		return nil, errors.New("admin: New: Options.Sessions is required")
	case o.Verifier == nil:
		return nil, errors.New("admin: New: Options.Verifier is required")
	case o.APIBase == "":
		return nil, errors.New("admin: New: Options.APIBase is required")
	}
	o.APIBase = strings.TrimSuffix(o.APIBase, "/")
	connect := "'self'"
	if u, err := url.Parse(o.APIBase); err != nil {
		return nil, errors.New("admin: New: Options.APIBase is not a URL: " + err.Error())
	} else if u.IsAbs() {
		connect += " " + u.Scheme + "://" + u.Host
	}
	// Images come from this server and from the site's address, which
	// media URLs are built on and which may name the server differently.
	img := "'self' data: blob:"
	if site, err := o.Generator.Content().Site(context.Background()); err == nil {
		if u, err := url.Parse(site.URL); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
			img += " " + u.Scheme + "://" + u.Host
		}
	}
	if o.Users == nil {
		o.Users = auth.GeneratorDirectory(o.Generator)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	pages, err := template.ParseFS(files, "pages/*.html")
	if err != nil {
		return nil, err
	}
	assets, err := loadAssets()
	if err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	cop, err := auth.NewCrossOriginProtection(o.TrustedOrigins...)
	if err != nil {
		return nil, err
	}
	h := &handler{
		o: o, mux: http.NewServeMux(), pages: pages, assets: assets, formKey: key,
		cop: cop,
		csp: "default-src 'none'; script-src 'self'; style-src 'self'; img-src " + img + "; " +
			"connect-src " + connect + "; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
	}
	h.mux.HandleFunc("GET /{$}", h.page)
	h.mux.HandleFunc("GET /login", h.loginForm)
	h.mux.Handle("POST /login", h.cop.Handler(http.HandlerFunc(h.login)))
	h.mux.Handle("POST /logout", h.cop.Handler(http.HandlerFunc(h.logout)))
	h.mux.HandleFunc("GET /assets/{file...}", h.asset)
	return h, nil
}

// contentTypes are the types of the embedded assets, by extension.
var contentTypes = map[string]string{
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
	".json": "application/json",
}

func loadAssets() (map[string]asset, error) {
	out := map[string]asset{}
	err := fs.WalkDir(files, "assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := files.ReadFile(p)
		if err != nil {
			return err
		}
		ctype, ok := contentTypes[path.Ext(p)]
		if !ok {
			return errors.New("admin: asset " + p + " has no known content type")
		}
		sum := sha256.Sum256(body)
		out[strings.TrimPrefix(p, "assets/")] = asset{body: body, ctype: ctype, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		return nil
	})
	return out, err
}

// ServeHTTP sets the security headers of every answer and routes.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", h.csp)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Referrer-Policy", "same-origin")
	if _, pattern := h.mux.Handler(r); pattern == "" {
		http.NotFound(w, r)
		return
	}
	h.mux.ServeHTTP(w, r)
}

func (h *handler) asset(w http.ResponseWriter, r *http.Request) {
	a, ok := h.assets[r.PathValue("file")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", a.ctype)
	w.Header().Set("ETag", a.etag)
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.body))
}

// language returns the language of the page, "en" or "de", and the site.
func (h *handler) language(r *http.Request) (lang string, site contentgen.Site) {
	site, err := h.o.Generator.Content().Site(r.Context())
	if err != nil {
		h.o.Logger.WarnContext(r.Context(), "admin: reading the site", "err", err)
	}
	code := "auto"
	if p, err := httpapi.LoadPreferences(r.Context(), h.o.Generator); err == nil {
		code = p.AdminLocale
	}
	if code == "" || code == "auto" {
		code = site.Locale
	}
	return langOf(code), site
}

// langOf maps a locale code to a language of the page.
func langOf(code string) string {
	if l, _, _ := strings.Cut(strings.ToLower(strings.ReplaceAll(code, "-", "_")), "_"); l == "de" {
		return "de"
	}
	return "en"
}

// noStore marks an answer that must not be cached: pages carry a nonce
// or a form token.
func noStore(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
}

// redirect answers 303 with a Location relative to the request's URL as
// the browser sent it, so that it works under any mount prefix.
func redirect(w http.ResponseWriter, to string) {
	w.Header().Set("Location", to)
	w.WriteHeader(http.StatusSeeOther)
}

// sessionOf returns the login and token of the request's live session.
func (h *handler) sessionOf(r *http.Request) (login, token string, ok bool) {
	c, err := r.Cookie(h.o.Sessions.CookieName)
	if err != nil || c.Value == "" {
		return "", "", false
	}
	login, ok = h.o.Sessions.Lookup(c.Value)
	return login, c.Value, ok
}

// pageData is what the page template shows.
type pageData struct {
	Lang, SiteLocale, SiteName string
	APIBase, Nonce, Login      string
	T                          text
}

func (h *handler) page(w http.ResponseWriter, r *http.Request) {
	login, token, ok := h.sessionOf(r)
	if !ok {
		redirect(w, "login")
		return
	}
	p, err := h.o.Users.Lookup(r.Context(), login)
	if err != nil && !errors.Is(err, auth.ErrBadCredentials) {
		h.fail(w, r, "looking up the session's user", err)
		return
	}
	if p == nil || !p.Can(contentgen.ManageOptions) {
		// The user is gone or lost the right to manage the site.
		h.o.Sessions.End(token)
		h.clearSession(w, r)
		redirect(w, "login")
		return
	}
	p.Session = token
	lang, site := h.language(r)
	noStore(w)
	h.render(w, r, http.StatusOK, "page.html", pageData{
		Lang: lang, SiteLocale: site.Locale, SiteName: site.Name,
		APIBase: h.o.APIBase, Nonce: h.o.Sessions.Nonce(p), Login: p.Login, T: texts[lang],
	})
}

func (h *handler) render(w http.ResponseWriter, r *http.Request, status int, name string, data any) {
	var buf bytes.Buffer
	if err := h.pages.ExecuteTemplate(&buf, name, data); err != nil {
		h.fail(w, r, "rendering "+name, err)
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// fail answers a failure that is not the client's and logs its cause.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, what string, err error) {
	h.o.Logger.ErrorContext(r.Context(), "admin: "+what, "err", err)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = w.Write([]byte("Internal server error.\n"))
}

// loginData is what the login template shows.
type loginData struct {
	Lang, SiteName, Token, Login string
	Error, Notice                string
	T                            text
}

// loginCookie is the name of the cookie that binds a login form to the
// browser that loaded it.
func (h *handler) loginCookie() string { return h.o.Sessions.CookieName + "_login" }

// formToken returns the hidden field of a login form for the value of
// the login cookie.
func (h *handler) formToken(cookie string) string {
	m := hmac.New(sha256.New, h.formKey)
	m.Write([]byte("login\x00" + cookie))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// showLogin renders the login form with a fresh token.
func (h *handler) showLogin(w http.ResponseWriter, r *http.Request, status int, d loginData) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		h.fail(w, r, "making a login token", err)
		return
	}
	cookie := base64.RawURLEncoding.EncodeToString(raw)
	http.SetCookie(w, &http.Cookie{
		Name: h.loginCookie(), Value: cookie, Path: "/", HttpOnly: true, Secure: r.TLS != nil,
		SameSite: http.SameSiteStrictMode, MaxAge: int(loginTokenTTL / time.Second),
	})
	lang, site := h.language(r)
	d.Lang, d.SiteName, d.Token, d.T = lang, site.Name, h.formToken(cookie), texts[lang]
	noStore(w)
	h.render(w, r, status, "login.html", d)
}

func (h *handler) loginForm(w http.ResponseWriter, r *http.Request) {
	if _, _, ok := h.sessionOf(r); ok {
		redirect(w, "./")
		return
	}
	d := loginData{}
	if r.URL.Query().Get("expired") != "" {
		d.Notice = "expired"
	}
	if r.URL.Query().Get("out") != "" {
		d.Notice = "loggedOut"
	}
	h.showLogin(w, r, http.StatusOK, d)
}

func (h *handler) login(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		h.showLogin(w, r, http.StatusBadRequest, loginData{Error: "badForm"})
		return
	}
	login, password := r.PostForm.Get("log"), r.PostForm.Get("pwd")
	c, err := r.Cookie(h.loginCookie())
	if err != nil || c.Value == "" ||
		subtle.ConstantTimeCompare([]byte(h.formToken(c.Value)), []byte(r.PostForm.Get("token"))) != 1 {
		h.showLogin(w, r, http.StatusForbidden, loginData{Login: login, Error: "staleForm"})
		return
	}
	if login == "" || password == "" {
		h.showLogin(w, r, http.StatusBadRequest, loginData{Login: login, Error: "missing"})
		return
	}
	p, err := h.o.Verifier.Verify(r, login, password)
	var te *auth.ThrottledError
	switch {
	case errors.As(err, &te):
		w.Header().Set("Retry-After", te.Seconds())
		h.showLogin(w, r, http.StatusTooManyRequests, loginData{Login: login, Error: "throttled"})
		return
	case errors.Is(err, auth.ErrBadCredentials) || (err == nil && p == nil):
		h.showLogin(w, r, http.StatusUnauthorized, loginData{Login: login, Error: "badCredentials"})
		return
	case err != nil:
		if r.Context().Err() != nil {
			return // the client went away while its check waited
		}
		h.fail(w, r, "checking a login", err)
		return
	case !p.Can(contentgen.ManageOptions):
		h.showLogin(w, r, http.StatusForbidden, loginData{Login: login, Error: "forbidden"})
		return
	}
	sc, err := h.o.Sessions.Create(p.Login)
	if err != nil {
		h.fail(w, r, "creating a session", err)
		return
	}
	sc.Secure = r.TLS != nil
	http.SetCookie(w, sc)
	http.SetCookie(w, &http.Cookie{Name: h.loginCookie(), Path: "/", MaxAge: -1, HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
	redirect(w, "./")
}

// clearSession tells the browser to forget the session cookie.
func (h *handler) clearSession(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: h.o.Sessions.CookieName, Path: "/", MaxAge: -1, HttpOnly: true,
		Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode})
}

func (h *handler) logout(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte("Bad request.\n"))
		return
	}
	login, token, ok := h.sessionOf(r)
	if ok {
		want := h.o.Sessions.Nonce(&auth.Principal{Login: login, Session: token})
		if subtle.ConstantTimeCompare([]byte(want), []byte(r.PostForm.Get("nonce"))) != 1 {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte("The logout form is not this session's; reload the page and try again.\n"))
			return
		}
		h.o.Sessions.End(token)
	}
	h.clearSession(w, r)
	redirect(w, "login?out=1")
}
