package admin_test

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/contentgen/runs"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
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
	// runs is the runs service of a site made by newRunsSite; without
	// it, noRuns is why the site has none.
	runs   *runs.Service
	noRuns string
}

// gatedImages is an image provider whose images wait, while it is held,
// until it is released or their run ends: a run in progress stays in
// progress for as long as a test needs it.
type gatedImages struct {
	providers.ImageProvider
	mu   sync.Mutex
	gate chan struct{} // nil when not held
	when func() bool   // nil: hold every image
}

// hold makes the images asked for from now on wait.
func (g *gatedImages) hold() { g.holdWhen(nil) }

// holdWhen makes the images asked for from now on wait when when, asked
// at each image, returns true; nil holds them all.
func (g *gatedImages) holdWhen(when func() bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gate == nil {
		g.gate = make(chan struct{})
	}
	g.when = when
}

// release lets the waiting images and all later ones through.
func (g *gatedImages) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gate != nil {
		close(g.gate)
		g.gate = nil
		g.when = nil
	}
}

func (g *gatedImages) Image(ctx context.Context, req providers.ImageRequest) (*providers.Image, error) {
	g.mu.Lock()
	gate, when := g.gate, g.when
	g.mu.Unlock()
	if gate != nil && (when == nil || when()) {
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
	img := newGatedImages(t)
	seed := int64(11)
	gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed, ImageProviders: []providers.ImageProvider{img}})
	require.NoError(t, err)
	s := &site{host: host, gen: gen, images: img, noRuns: "runs are not available here: this site is kept in memory"}
	s.serve(t, ln, idle, host.FileHandler())
	return s
}

// newRunsSite starts the demo site kept in a SQLite file, as the example
// server keeps it, with a runs service of one worker that the test
// starts (s.runs.Start) when its runs are to be worked on; until then
// they wait in the queue.
func newRunsSite(t *testing.T) *site {
	t.Helper()
	ctx := t.Context()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	db, err := sqlstore.Open(ctx, filepath.Join(t.TempDir(), "site.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	host := db.Host(&sqlstore.HostOptions{
		Site:     contentgen.Site{Name: "Test site", URL: "http://" + ln.Addr().String(), Locale: "en_US"},
		MediaDir: filepath.Join(t.TempDir(), "media"),
	})
	pts, taxes := demosite.Types()
	for _, pt := range pts {
		require.NoError(t, host.RegisterPostType(ctx, pt))
	}
	for _, tx := range taxes {
		require.NoError(t, host.RegisterTaxonomy(ctx, tx))
	}
	for _, r := range memhost.StandardRoles() {
		require.NoError(t, host.RegisterRole(ctx, r))
	}
	require.NoError(t, demosite.Seed(ctx, host))
	_, err = host.CreateUsers(ctx, []contentgen.User{{Login: "editor1", Email: "editor1@example.com", DisplayName: "Editor", Roles: []string{"editor"}}})
	require.NoError(t, err)
	img := newGatedImages(t)
	seed := int64(11)
	gen, err := contentgen.New(host, nil, &contentgen.Config{Seed: &seed, ImageProviders: []providers.ImageProvider{img}})
	require.NoError(t, err)
	rs, err := runs.New(ctx, db, gen, &runs.Options{WorkerName: "test-worker", PollInterval: 20 * time.Millisecond})
	require.NoError(t, err)
	t.Cleanup(func() {
		img.release()
		require.NoError(t, rs.Stop(context.Background()))
	})
	s := &site{gen: gen, images: img, runs: rs}
	s.serve(t, ln, 0, host.Files())
	return s
}

// newGatedImages is the local image provider behind a gate.
func newGatedImages(t *testing.T) *gatedImages {
	t.Helper()
	local, err := local.New(nil)
	require.NoError(t, err)
	return &gatedImages{ImageProvider: local}
}

// serve serves the API (with s.runs) and the admin page of s.gen on ln,
// the way examples/server mounts them, and files (when not nil) under
// /uploads/.
func (s *site) serve(t *testing.T, ln net.Listener, idle time.Duration, files http.Handler) {
	t.Helper()
	clk := &clock{now: time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)}
	passwords, err := auth.NewPasswords(&auth.PasswordOptions{Now: clk.Now})
	require.NoError(t, err)
	adminPW, err := passwords.NewAppPassword("admin", "tests")
	require.NoError(t, err)
	editorPW, err := passwords.NewAppPassword("editor1", "tests")
	require.NoError(t, err)
	sessions, err := auth.NewSessions(&auth.SessionOptions{IdleTimeout: idle, Now: clk.Now})
	require.NoError(t, err)
	dir := auth.GeneratorDirectory(s.gen)
	basic := &auth.Basic{Passwords: passwords, Users: dir}
	logs := make(chan string, 100)
	api, err := httpapi.New(s.gen, &httpapi.Options{
		Auth:     auth.Chain(basic, &auth.Cookie{Sessions: sessions, Users: dir}),
		Sessions: sessions,
		URLs:     httpapi.URLs{AdminURL: adminPath},
		Logger:   slog.New(chanHandler(logs)),
		Runs:     s.runs,
		NoRuns:   s.noRuns,
	})
	require.NoError(t, err)
	page, err := admin.New(&admin.Options{Generator: s.gen, Sessions: sessions, Verifier: basic, APIBase: apiBase})
	require.NoError(t, err)

	mux := http.NewServeMux()
	httpapi.Mount(mux, apiBase, api)
	mux.Handle(adminPath, http.StripPrefix("/contentgen/admin", page))
	if files != nil {
		mux.Handle("/uploads/", files)
	}
	srv := httptest.NewUnstartedServer(mux)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	s.srv, s.mux, s.sessions, s.clock = srv, mux, sessions, clk
	s.adminPW, s.editorPW, s.logs = adminPW, editorPW, logs
}

// client returns an HTTP client with a cookie jar that does not follow
// redirects, so that tests see them.
func (s *site) client(t *testing.T) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}
