// Command server runs the contentgen HTTP API on a demo site kept in SQLite.
//
//	go run ./examples/server [-addr 127.0.0.1:8080] [-base /contentgen/v1]
//	                         [-admin-password "xxxx xxxx xxxx xxxx xxxx xxxx"]
//	                         [-user name:password:role]... [-allow-account-passwords]
//	                         [-trusted-origin https://admin.example]...
//	                         [-acf-json DIR] [-db contentgen.db|postgres://...|memory] [-media DIR]
//	                         [-wordpress-url URL -wordpress-user USER -wordpress-app-password 'xxxx xxxx ...'
//	                          [-wordpress-db DSN] [-wordpress-prefix wp_] [-wordpress-uploads DIR]]
//	                         [-workers 1] [-rescue-after 0]
//
// The demo site starts like a fresh installation: post types post, page,
// book and publisher, the taxonomies category, post_tag and genre, one
// hand-made post, page and comment, and the administrator admin. Books and
// publishers have custom field groups (books point at their publisher),
// and every demo post type has a starter template. -acf-json adds the ACF
// local JSON field groups of a directory, which win over the built-in
// ones. The site is kept in the SQLite file contentgen.db (media files in
// contentgen.db.media) and survives restarts: content, history,
// templates, settings, AI keys and time saved. -db postgres://... keeps it
// in PostgreSQL, for several servers sharing one site; -db memory keeps it
// in memory until the server stops. The demo site is created only in a new
// database.
//
// -wordpress-url serves the API in front of a real WordPress site instead
// of the demo site (package contentgen/wphost): with -wordpress-db, content
// is written straight into the site's tables and the history, templates
// and state are kept in the same database; without it, everything goes
// through the site's REST API (package contentgen/wphost/wprest) and the
// history is kept where -db says.
//
// POST /runs generates any number of items as a run (package runs), in
// batches that survive a crash or a kill of the server: -workers sets how
// many batches this process works on at once (0: it submits and serves
// runs, for other servers on the same PostgreSQL database to work on),
// and -rescue-after how long a batch may take before it is cancelled, or
// taken as lost when its process died, and run again (0: a minute, or two
// seconds an item for batches that fetch images or AI text). Runs keep their jobs in the database of -db; with
// -wordpress-db the posts go into the site's database, which records
// each batch with its content, and the jobs stay where -db says (a
// SQLite file by default). A server in memory, or in front of WordPress
// through its REST API only, holds no runs and answers /runs with 503
// not_configured saying why.
//
// The admin page (package httpapi/admin) is served beside the API, at
// /contentgen/admin/ for the default -base; log in there with a user name
// and its application password.
//
// State-changing requests from web pages of other origins are refused
// (403 cross_origin_request), and request bodies must be sent as
// application/json. -trusted-origin names an origin whose pages may write
// nonetheless, such as the public address of a reverse proxy that
// rewrites the Host header.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"strings"
	"syscall"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/runs"
	"github.com/contentgen/contentgen/contentgen/secrets"
	"github.com/contentgen/contentgen/examples/internal/site"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/admin"
	"github.com/contentgen/contentgen/httpapi/auth"
	"github.com/contentgen/contentgen/httpapi/license"
	"github.com/contentgen/contentgen/providers/ai"
)

// userFlags collects repeated -user name:password:role flags.
type userFlags []userSpec

type userSpec struct{ name, password, role string }

// originFlags collects repeated -trusted-origin flags.
type originFlags []string

func (o *originFlags) String() string { return strings.Join(*o, ",") }

func (o *originFlags) Set(v string) error {
	if _, err := auth.NewCrossOriginProtection(v); err != nil {
		return errors.New(`want scheme://host[:port], such as "https://admin.example"`)
	}
	*o = append(*o, v)
	return nil
}

func (u *userFlags) String() string { return fmt.Sprint(len(*u), " users") }

func (u *userFlags) Set(v string) error {
	name, rest, ok1 := strings.Cut(v, ":")
	// The password may contain spaces and colons; the role is after the last colon.
	i := strings.LastIndex(rest, ":")
	if !ok1 || i < 0 || name == "" || rest[:i] == "" || rest[i+1:] == "" {
		return errors.New(`want name:password:role, such as "editor1:s3cret pass:editor"`)
	}
	*u = append(*u, userSpec{name, rest[:i], rest[i+1:]})
	return nil
}

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out *os.File) error {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	base := fs.String("base", "/contentgen/v1", "base path of the API")
	adminPassword := fs.String("admin-password", "", "application password of the user admin (when empty: the one kept with the site, made and printed at the first start)")
	allowAccount := fs.Bool("allow-account-passwords", false, "also accept account passwords over Basic auth (development only)")
	keyFile := fs.String("key-file", defaultKeyFile(), "file with the key that encrypts stored API keys (created with mode 0600 when missing; "+envSecretKey+" overrides it)")
	licenseKey := fs.String("license-public-key", "", "ed25519 public key (base64 or hex) that verifies licence keys ("+envLicenseKey+" when empty)")
	acfDir := fs.String("acf-json", "", "directory of ACF local JSON field groups (acf-json) to read custom fields from")
	dbFlag := fs.String("db", "contentgen.db", `where the site is kept: a SQLite file, a postgres:// URL, or "memory" (gone when the server stops); with -wordpress-db, where the jobs of runs are kept`)
	mediaDir := fs.String("media", "", "directory of media files (default: the SQLite file's name plus .media, or contentgen-media for PostgreSQL)")
	var wp site.WordPress
	fs.StringVar(&wp.URL, "wordpress-url", "", "fill this WordPress site instead of the demo site, such as http://127.0.0.1:8000")
	fs.StringVar(&wp.User, "wordpress-user", "", "an administrator of the WordPress site")
	fs.StringVar(&wp.AppPassword, "wordpress-app-password", "", "an application password of that user ("+site.EnvWordPressPassword+" when empty)")
	fs.StringVar(&wp.DB, "wordpress-db", "", "DSN of the site's database, such as root@tcp(127.0.0.1:3306)/wordpress: write straight into its tables and keep the history there (REST API only when empty)")
	fs.StringVar(&wp.Prefix, "wordpress-prefix", "wp_", "table prefix of the WordPress database")
	fs.StringVar(&wp.Uploads, "wordpress-uploads", "", "the site's uploads directory (wp-content/uploads), where images are written with -wordpress-db")
	aiBase := fs.String("ai-base-url", "", "base URL of an OpenAI-compatible endpoint that writes posts with text_source ai (ai_one), such as http://localhost:11434/v1 for Ollama; a key is optional ("+site.EnvAIAPIKey+")")
	aiModel := fs.String("ai-model", "", "model of -ai-base-url, such as llama3.2")
	rescueAfter := fs.Duration("rescue-after", 0, "how long a batch of a run may take before it is cancelled, or taken as lost when its process died, and run again, by this process or another; 0 chooses for each run: a minute, or 2s an item for batches that fetch images or AI text")
	workers := fs.Int("workers", 1, "batches of runs (POST /runs) this process works on at once; 0 submits and serves runs without working on them, for another process on the same PostgreSQL database to do")
	var users userFlags
	fs.Var(&users, "user", "add a user as name:password:role whose application password is password (repeatable)")
	var origins originFlags
	fs.Var(&origins, "trusted-origin", "an origin (scheme://host[:port]) whose web pages may send state-changing requests, besides the server's own (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}

	if wp.AppPassword == "" {
		wp.AppPassword = os.Getenv(site.EnvWordPressPassword)
	}
	var aiOne *ai.Options
	if opts, ok, err := site.AIEndpoint(*aiBase, *aiModel, os.Getenv(site.EnvAIAPIKey)); err != nil {
		return fmt.Errorf("-%w", err)
	} else if ok {
		aiOne = &opts
	}

	kr, keyNote, err := loadKeyring(*keyFile)
	if err != nil {
		return err
	}
	lic, err := licenseManager(*licenseKey)
	if err != nil {
		return err
	}
	srv, creds, closeSite, err := newServer(ctx, serverConfig{
		addr: *addr, base: *base, adminPassword: *adminPassword, users: users,
		allowAccount: *allowAccount, keyring: kr, license: lic, acfDir: *acfDir,
		db: *dbFlag, mediaDir: *mediaDir, wordpress: wp, trustedOrigins: origins, aiOne: aiOne,
		workers: *workers, rescueAfter: *rescueAfter,
	})
	if err != nil {
		return err
	}
	defer closeSite()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	apiBase := "http://" + ln.Addr().String() + "/" + strings.Trim(*base, "/")
	keptIn := site.Redact(*dbFlag)
	if wp.Enabled() {
		keptIn = "WordPress at " + wp.URL
		if wp.DB != "" {
			keptIn += ", database " + site.Redact(wp.DB)
			if *dbFlag != site.Memory {
				keptIn += "; runs' jobs in " + site.Redact(*dbFlag)
			}
		}
	}
	fmt.Fprintf(out, "contentgen demo site listening\n  API base URL: %s\n  admin page:   http://%s%s (log in as a user below)\n  site kept in: %s\n",
		apiBase, ln.Addr(), adminPathOf(*base), keptIn)
	for _, c := range creds {
		fmt.Fprintf(out, "  user %-12s application password %q (%s)\n", c.name, c.password, c.role)
	}
	if keyNote != "" {
		fmt.Fprintf(out, "  API key encryption key: %s\n", keyNote)
	}
	if aiOne != nil {
		fmt.Fprintf(out, "  AI text (ai_one): model %s at %s, for text_source ai\n", aiOne.Model, aiOne.BaseURL)
	}
	fmt.Fprintf(out, "Try:\n  curl -u 'admin:%s' %s/cpts/all\n", creds[0].password, apiBase)

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(shutdown)
	}
}

// serverConfig is what newServer needs from the command line.
type serverConfig struct {
	addr, base, adminPassword string
	users                     userFlags
	allowAccount              bool
	keyring                   *secrets.Keyring
	license                   license.LicenseManager
	acfDir                    string
	db, mediaDir              string
	wordpress                 site.WordPress
	trustedOrigins            []string
	// aiOne configures ai_one (-ai-base-url, -ai-model); nil means the
	// environment's.
	aiOne *ai.Options
	// workers is -workers: batches of runs worked on at once, 0 none;
	// rescueAfter is -rescue-after (0: runs' default).
	workers     int
	rescueAfter time.Duration
}

// newServer opens the demo site (creating it in a new database), its
// users and the HTTP server. It returns the credentials to print, admin
// first, and what closes the site's store.
func newServer(ctx context.Context, c serverConfig) (_ *http.Server, _ []userSpec, closeSite func() error, err error) {
	srv, creds, st, err := buildServer(ctx, c)
	if st != nil {
		closeSite = st.Close
		if err != nil {
			st.Close()
		}
	}
	return srv, creds, closeSite, err
}

func buildServer(ctx context.Context, c serverConfig) (*http.Server, []userSpec, *site.Site, error) {
	addr, base, adminPassword, users, allowAccount := c.addr, c.base, c.adminPassword, c.users, c.allowAccount
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	siteURL := "http://" + addr
	var st *site.Site
	var err error
	if c.wordpress.Enabled() {
		st, err = site.OpenWordPress(ctx, c.wordpress, c.db, logger)
	} else {
		st, err = site.Open(ctx, c.db, c.mediaDir, contentgen.Site{
			Name:     "contentgen demo",
			URL:      siteURL,
			AdminURL: siteURL + "/admin",
			Locale:   "en_US",
		}, logger)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	host := st.Host
	gen, err := st.Generator(ctx, site.GeneratorOptions{
		Logger: logger, AIKeyring: c.keyring, AIProviders: aiProviders(c.aiOne), ACFDir: c.acfDir,
	})
	if err != nil {
		return nil, nil, st, err
	}

	authn, err := auth.New(auth.GeneratorDirectory(gen), &auth.Options{
		AllowAccountPasswords: allowAccount, TrustedOrigins: c.trustedOrigins,
	})
	if err != nil {
		return nil, nil, st, err
	}
	passwords := authn.Passwords
	var creds []userSpec
	if adminPassword, err = keptAdminPassword(ctx, st.State, c.keyring, adminPassword); err != nil {
		return nil, nil, st, err
	}
	if err := passwords.SetAppPassword("admin", "demo", adminPassword); err != nil {
		return nil, nil, st, err
	}
	creds = append(creds, userSpec{"admin", adminPassword, "administrator"})
	for i, u := range users {
		if err := addUser(ctx, host, u, i); err != nil {
			return nil, nil, st, err
		}
		if err := passwords.SetAppPassword(u.name, "demo", u.password); err != nil {
			return nil, nil, st, err
		}
		if allowAccount {
			if err := passwords.SetAccountPassword(u.name, u.password); err != nil {
				return nil, nil, st, err
			}
		}
		creds = append(creds, u)
	}

	rs, noRuns, err := startRuns(ctx, st, gen, c.workers, c.rescueAfter, logger)
	if err != nil {
		return nil, nil, st, err
	}
	adminPath := adminPathOf(base)
	api, err := httpapi.New(gen, &httpapi.Options{
		Runs:           rs,
		NoRuns:         noRuns,
		Auth:           authn,
		Sessions:       authn.Sessions,
		Logger:         logger,
		License:        c.license,
		URLs:           httpapi.URLs{AdminURL: adminPath},
		TrustedOrigins: c.trustedOrigins,
	})
	if err != nil {
		return nil, nil, st, err
	}
	adminPage, err := admin.New(&admin.Options{
		Generator: gen, Sessions: authn.Sessions, Verifier: authn.Basic, Users: authn.Users,
		APIBase: "/" + strings.Trim(base, "/"), Logger: logger, TrustedOrigins: c.trustedOrigins,
	})
	if err != nil {
		return nil, nil, st, err
	}

	mux := http.NewServeMux()
	httpapi.Mount(mux, base, api)
	mux.Handle(adminPath, http.StripPrefix(strings.TrimSuffix(adminPath, "/"), adminPage))
	if st.Files != nil {
		mux.Handle("GET /uploads/", st.Files)
	}
	mux.Handle("POST /login", authn.LoginHandler())
	return httpapi.NewServer(addr, mux, nil), creds, st, nil
}

// startRuns starts the runs service of the site (see site.OpenRuns),
// working on workers batches at once, and makes st.Close stop it first.
// A site that cannot hold runs (in memory, or WordPress through its REST
// API) gets none, and the reason, for the answers of the /runs endpoints.
func startRuns(ctx context.Context, st *site.Site, gen *contentgen.Generator, workers int, rescueAfter time.Duration, logger *slog.Logger) (*runs.Service, string, error) {
	if workers < 0 {
		return nil, "", fmt.Errorf("-workers must not be negative, got %d", workers)
	}
	if rescueAfter < 0 {
		return nil, "", fmt.Errorf("-rescue-after must not be negative, got %v", rescueAfter)
	}
	if workers == 0 {
		workers = runs.NoWorkers
	}
	rs, err := st.OpenRuns(ctx, gen, &runs.Options{Workers: workers, RescueAfter: rescueAfter, Logger: logger})
	if errors.Is(err, site.ErrNoRuns) {
		return nil, err.Error(), nil
	}
	if err != nil {
		return nil, "", err
	}
	if err := rs.Start(context.WithoutCancel(ctx)); err != nil {
		return nil, "", err
	}
	closeDB := st.Close
	st.Close = func() error {
		// Batches being written get a few seconds to commit; those
		// cancelled then run again at the next start.
		stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := rs.Stop(stop); err != nil {
			logger.Error("stopping runs", "err", err)
		}
		return closeDB()
	}
	return rs, "", nil
}

// adminPathOf is where the admin page is served for an API under base:
// beside it, "/contentgen/admin/" for "/contentgen/v1".
func adminPathOf(base string) string {
	return path.Join(path.Dir("/"+strings.Trim(base, "/")), "admin") + "/"
}

// addUser creates a hand-made demo user with a role, unless a user of
// that login exists (a site kept in a database remembers its users).
func addUser(ctx context.Context, host contentgen.Host, u userSpec, i int) error {
	if found, err := host.Users(ctx, contentgen.UserQuery{Login: u.name, Limit: 1}); err != nil || len(found) > 0 {
		return err
	}
	roles, err := host.Roles(ctx)
	if err != nil {
		return err
	}
	known := false
	for _, r := range roles {
		known = known || r.Slug == u.role
	}
	if !known {
		return fmt.Errorf("-user %s: unknown role %q", u.name, u.role)
	}
	_, err = host.CreateUsers(ctx, []contentgen.User{{
		Login:       u.name,
		Email:       fmt.Sprintf("%s@example.com", u.name),
		DisplayName: u.name,
		Roles:       []string{u.role},
		Registered:  time.Now(),
	}})
	if err != nil {
		return fmt.Errorf("-user %s: %w", u.name, err)
	}
	return nil
}

// adminPasswordKey is the state key of the administrator's application
// password, sealed with the keyring as the AI keys are.
const adminPasswordKey = "demo_server.admin_password"

// keptAdminPassword returns the application password of admin: given,
// when -admin-password names one; else the one kept with the site from an
// earlier start; else a new random one. The password returned is kept
// with the site's state, encrypted with kr, so that a restart without
// -admin-password keeps it. Without a keyring nothing is kept and every
// start without -admin-password makes a new one.
func keptAdminPassword(ctx context.Context, state contentgen.StateStore, kr *secrets.Keyring, given string) (string, error) {
	if kr == nil || state == nil {
		if given != "" {
			return given, nil
		}
		return auth.RandomAppPassword()
	}
	const purpose, subject = "admin_password", "admin"
	pw := given
	err := state.Update(ctx, adminPasswordKey, func(old []byte) ([]byte, error) {
		if given == "" && len(old) > 0 {
			if kept, err := kr.OpenString(string(old), purpose, subject); err == nil {
				pw = kept
				return old, nil
			}
			// Sealed with a key this keyring does not have: a new one.
		}
		if given == "" {
			p, err := auth.RandomAppPassword()
			if err != nil {
				return nil, err
			}
			pw = p
		}
		return []byte(kr.SealString(pw, purpose, subject)), nil
	})
	if err != nil {
		return "", fmt.Errorf("keeping the admin password: %w", err)
	}
	return pw, nil
}
