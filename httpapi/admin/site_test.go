package admin_test

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/admin"
	"github.com/contentgen/contentgen/httpapi/auth"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/local"
)

const (
	apiBase   = "/contentgen/v1"
	adminPath = "/contentgen/admin/"
)

// clock is a settable clock shared by the sessions and the throttle.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// site is a demo site with the API and the admin page on a real HTTP
// server, the way examples/server mounts them.
type site struct {
	srv      *httptest.Server
	mux      *http.ServeMux
	host     *memhost.Host
	gen      *contentgen.Generator
	sessions *auth.Sessions
	clock    *clock
	// adminPW is the application password of the administrator;
	// editorPW that of an editor, who may not manage the site.
	adminPW, editorPW string
	// logs receives the messages the API logs.
	logs chan string
	// images is the site's image provider, which a test can hold.
	images *gatedImages
}

// gatedImages is an image provider whose images wait, while it is held,
// until it is released or their run ends: a run in progress stays in
// progress for as long as a test needs it.
type gatedImages struct {
	providers.ImageProvider
	mu   sync.Mutex
	gate chan struct{} // nil when not held
}

// hold makes the images asked for from now on wait.
func (g *gatedImages) hold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gate == nil {
		g.gate = make(chan struct{})
	}
}

// release lets the waiting images and all later ones through.
func (g *gatedImages) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gate != nil {
		close(g.gate)
		g.gate = nil
	}
}

func (g *gatedImages) Image(ctx context.Context, req providers.ImageRequest) (*providers.Image, error) {
	g.mu.Lock()
	gate := g.gate
	g.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return g.ImageProvider.Image(ctx, req)
}

// chanHandler is a slog.Handler that sends each message to a channel,
// dropping it when the channel is full.
type chanHandler chan string

func (h chanHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h chanHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h chanHandler) WithGroup(string) slog.Handler            { return h }
func (h chanHandler) Handle(_ context.Context, r slog.Record) error {
	select {
	case h <- r.Message:
	default:
	}
	return nil
}

// newSite starts a site whose sessions end after idle of inactivity.
func newSite(t *testing.T, idle time.Duration) *site {
	t.Helper()
	ctx := context.Background()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	siteURL := "http://" + ln.Addr().String()
	host, err := demosite.New(&memhost.Options{Site: contentgen.Site{Name: "Test site", URL: siteURL, Locale: "en_US"}})
	require.NoError(t, err)
	_, err = host.CreateUsers(ctx, []contentgen.User{{Login: "editor1", Email: "editor1@example.com", DisplayName: "Editor", Roles: []string{"editor"}}})
	require.NoError(t, err)
	local, err := local.New(nil)
	require.NoError(t, err)
	img := &gatedImages{ImageProvider: local}
	seed := int64(11)
	gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed, ImageProviders: []providers.ImageProvider{img}})
	require.NoError(t, err)

	clk := &clock{now: time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)}
	passwords, err := auth.NewPasswords(&auth.PasswordOptions{Now: clk.Now})
	require.NoError(t, err)
	adminPW, err := passwords.NewAppPassword("admin", "tests")
	require.NoError(t, err)
	editorPW, err := passwords.NewAppPassword("editor1", "tests")
	require.NoError(t, err)
	sessions, err := auth.NewSessions(&auth.SessionOptions{IdleTimeout: idle, Now: clk.Now})
	require.NoError(t, err)
	dir := auth.GeneratorDirectory(gen)
	basic := &auth.Basic{Passwords: passwords, Users: dir}
	logs := make(chan string, 100)
	api, err := httpapi.New(gen, &httpapi.Options{
		Auth:     auth.Chain(basic, &auth.Cookie{Sessions: sessions, Users: dir}),
		Sessions: sessions,
		URLs:     httpapi.URLs{AdminURL: adminPath},
		Logger:   slog.New(chanHandler(logs)),
	})
	require.NoError(t, err)
	page, err := admin.New(&admin.Options{Generator: gen, Sessions: sessions, Verifier: basic, APIBase: apiBase})
	require.NoError(t, err)

	mux := http.NewServeMux()
	httpapi.Mount(mux, apiBase, api)
	mux.Handle(adminPath, http.StripPrefix("/contentgen/admin", page))
	mux.Handle("/uploads/", host.FileHandler())
	srv := httptest.NewUnstartedServer(mux)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return &site{srv: srv, mux: mux, host: host, gen: gen, sessions: sessions, clock: clk, adminPW: adminPW, editorPW: editorPW, logs: logs, images: img}
}

// client returns an HTTP client with a cookie jar that does not follow
// redirects, so that tests see them.
func (s *site) client(t *testing.T) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}
