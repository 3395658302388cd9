package wphost

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/contentgen/wphost/wprest"
)

// ErrInvalid is wrapped by the errors of invalid input: an unknown post
// type, taxonomy, role or status, an empty name or login.
var ErrInvalid = errors.New("wphost: invalid input")

// ErrNoUploads is wrapped by the errors of StoreMedia and MediaBytes when
// Options.Uploads is empty; it wraps errors.ErrUnsupported.
var ErrNoUploads = fmt.Errorf("wphost: no uploads directory (Options.Uploads): %w", errors.ErrUnsupported)

// Options configures Open. URL, User, AppPassword and DSN are required.
type Options struct {
	// URL is the site's address, such as http://127.0.0.1:8080; User and
	// AppPassword are an administrator and one of their application
	// passwords, for the REST discovery of post types and taxonomies.
	URL, User, AppPassword string
	// DSN is the go-sql-driver/mysql DSN of the site's database, such as
	// root@tcp(127.0.0.1:3306)/wordpress.
	DSN string
	// TablePrefix is the site's $table_prefix; empty means "wp_".
	TablePrefix string
	// Uploads is the site's uploads directory (wp-content/uploads); empty
	// means media files are not stored: StoreMedia fails with
	// ErrNoUploads, and a Generator over the Host records generated
	// images by their URLs (see Host.Capabilities).
	Uploads string
	// UploadsURL is the address the uploads directory is served at; empty
	// means the upload_url_path option, else URL + "/wp-content/uploads".
	UploadsURL string
	// HTTPClient makes the discovery calls; nil means a client with a
	// 30-second timeout.
	HTTPClient *http.Client
	// Now is the clock of modification dates and trash times; nil means
	// time.Now.
	Now func() time.Time
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// prefixRe is what a table prefix may hold.
var prefixRe = regexp.MustCompile(`^[A-Za-z0-9_]{1,32}$`)

// withDefaults validates o and returns a copy with the defaults set.
func (o *Options) withDefaults() (Options, error) {
	if o == nil {
		return Options{}, fmt.Errorf("%w: Options are required (URL, User, AppPassword, DSN)", ErrInvalid)
	}
	c := *o
	if c.TablePrefix == "" {
		c.TablePrefix = "wp_"
	}
	if !prefixRe.MatchString(c.TablePrefix) {
		return c, fmt.Errorf("%w: Options.TablePrefix may hold only ASCII letters, digits and '_', at most 32", ErrInvalid)
	}
	if c.DSN == "" {
		return c, fmt.Errorf("%w: Options.DSN is required", ErrInvalid)
	}
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, fmt.Errorf("%w: Options.URL must be an http(s) address of the site", ErrInvalid)
	}
	c.URL = strings.TrimRight(c.URL, "/")
	if c.User == "" || c.AppPassword == "" {
		return c, fmt.Errorf("%w: Options.User and Options.AppPassword are required", ErrInvalid)
	}
	if c.Uploads != "" {
		st, err := os.Stat(c.Uploads)
		if err != nil || !st.IsDir() {
			return c, fmt.Errorf("%w: Options.Uploads %q is not a directory", ErrInvalid, c.Uploads)
		}
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c, nil
}

// Site is an open WordPress site: its database (which also holds the
// history, templates and state of contentgen, in tables named with the
// site's prefix and "contentgen_") and what PHP registers.
type Site struct {
	o   Options
	db  *sqlstore.DB
	t   tables
	loc *time.Location
	// info describes the site.
	info contentgen.Site
	// uploadsURL is the address of the uploads directory.
	uploadsURL string
	// consecutive is whether one multi-row INSERT gets consecutive ids.
	consecutive bool
	// ledgerID names the site's tables on their server (see LedgerID).
	ledgerID string
	// commentStatus and pingStatus are the site's defaults for new posts
	// (the options default_comment_status and default_ping_status).
	commentStatus, pingStatus string

	mu    sync.RWMutex
	types map[string]contentgen.PostType
	taxes map[string]contentgen.Taxonomy
	// typeList and taxList keep the discovery order.
	typeList []string
	taxList  []string

	host *Host
}

// tables are the names of the site's tables.
type tables struct {
	prefix                                         string
	posts, postmeta, terms, termmeta, termTaxonomy string
	termRels, users, usermeta, comments            string
	commentmeta, options, links, lock              string
	// runBatches records the batches of runs (runbatches.go).
	runBatches string
}

func newTables(p string) tables {
	return tables{
		prefix: p, posts: p + "posts", postmeta: p + "postmeta", terms: p + "terms", termmeta: p + "termmeta",
		termTaxonomy: p + "term_taxonomy", termRels: p + "term_relationships", users: p + "users",
		usermeta: p + "usermeta", comments: p + "comments", commentmeta: p + "commentmeta",
		options: p + "options", links: p + "links", lock: p + "contentgen_wplock",
		runBatches: p + "contentgen_run_batches",
	}
}

// Open connects to the site's database, creates the tables of contentgen
// there (history, templates, state, the record of the batches of runs:
// prefix + "contentgen_" + name) when missing, reads the site's options and discovers its post types and
// taxonomies through the REST API.
func Open(ctx context.Context, o *Options) (*Site, error) {
	c, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if !strings.Contains(c.DSN, "tcp(") && !strings.Contains(c.DSN, "unix(") && !strings.HasPrefix(c.DSN, "mysql://") {
		return nil, fmt.Errorf("%w: Options.DSN must be a MySQL DSN such as root@tcp(127.0.0.1:3306)/wordpress", ErrInvalid)
	}
	db, err := sqlstore.Open(ctx, c.DSN, &sqlstore.Options{TablePrefix: c.TablePrefix + "contentgen_", Now: c.Now, Logger: c.Logger})
	if err != nil {
		return nil, fmt.Errorf("wphost: opening the database: %w", err)
	}
	if db.Engine() != "mysql" {
		_ = db.Close()
		return nil, fmt.Errorf("%w: Options.DSN must name a MySQL or MariaDB database", ErrInvalid)
	}
	s := &Site{o: c, db: db, t: newTables(c.TablePrefix)}
	if err := s.load(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	s.host = &Host{s: s}
	return s, nil
}

// load reads the options, checks the tables and discovers the registry.
func (s *Site) load(ctx context.Context) error {
	q := s.db.Querier(ctx)
	opts, err := s.options(ctx, q, "blogname", "home", "siteurl", "WPLANG", "timezone_string", "gmt_offset", "upload_url_path",
		"default_comment_status", "default_ping_status")
	if err != nil {
		return fmt.Errorf("wphost: reading the site's options (is %q the table prefix?): %w", s.t.prefix, err)
	}
	if opts["home"] == "" {
		return fmt.Errorf("wphost: the database has no %soptions row 'home': not a WordPress site with prefix %q", s.t.prefix, s.t.prefix)
	}
	s.loc, err = siteLocation(opts["timezone_string"], opts["gmt_offset"])
	if err != nil {
		return fmt.Errorf("wphost: %w", err)
	}
	s.commentStatus, s.pingStatus = "open", "open"
	if opts["default_comment_status"] == "closed" {
		s.commentStatus = "closed"
	}
	if opts["default_ping_status"] == "closed" {
		s.pingStatus = "closed"
	}
	locale := opts["WPLANG"]
	if locale == "" {
		locale = "en_US"
	}
	siteURL := strings.TrimRight(opts["siteurl"], "/")
	if siteURL == "" {
		siteURL = strings.TrimRight(opts["home"], "/")
	}
	s.info = contentgen.Site{Name: opts["blogname"], URL: strings.TrimRight(opts["home"], "/"), AdminURL: siteURL + "/wp-admin/", Locale: locale}
	switch {
	case s.o.UploadsURL != "":
		s.uploadsURL = strings.TrimRight(s.o.UploadsURL, "/")
	case opts["upload_url_path"] != "":
		s.uploadsURL = strings.TrimRight(opts["upload_url_path"], "/")
	default:
		s.uploadsURL = siteURL + "/wp-content/uploads"
	}
	var mode, inc int64
	err = q.QueryEach(ctx, "SELECT @@innodb_autoinc_lock_mode, @@auto_increment_increment", nil, func(r *sql.Rows) error { return r.Scan(&mode, &inc) })
	if err != nil {
		return fmt.Errorf("wphost: reading the server's settings: %w", err)
	}
	var server, database string
	var port int64
	err = q.QueryEach(ctx, "SELECT @@hostname, @@port, DATABASE()", nil, func(r *sql.Rows) error { return r.Scan(&server, &port, &database) })
	if err != nil {
		return fmt.Errorf("wphost: reading the server's name: %w", err)
	}
	s.ledgerID = fmt.Sprintf("wordpress %s:%d/%s %s", server, port, database, s.t.prefix)
	// Modes 0 and 1 give a multi-row INSERT consecutive ids.
	s.consecutive = mode != 2 && inc == 1
	if _, err := q.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS "+s.t.lock+" (name VARCHAR(32) NOT NULL PRIMARY KEY) ENGINE=InnoDB"); err != nil {
		return fmt.Errorf("wphost: creating %s: %w", s.t.lock, err)
	}
	if _, err := q.ExecContext(ctx, "INSERT IGNORE INTO "+s.t.lock+" (name) VALUES ('write')"); err != nil {
		return fmt.Errorf("wphost: filling %s: %w", s.t.lock, err)
	}
	if _, err := q.ExecContext(ctx, runBatchesDDL(s.t.runBatches)); err != nil {
		return fmt.Errorf("wphost: creating %s: %w", s.t.runBatches, err)
	}
	return s.Refresh(ctx)
}

// Refresh discovers the post types and taxonomies again, after a plugin
// registered or removed some. They are read from the REST API through
// the client of contentgen/wphost/wprest.
func (s *Site) Refresh(ctx context.Context) error {
	c, err := wprest.NewClient(&wprest.Options{
		URL: s.o.URL, User: s.o.User, AppPassword: s.o.AppPassword,
		HTTPClient: s.o.HTTPClient, Logger: s.o.Logger, MaxResponseBytes: maxDiscoveryBytes,
	})
	if err != nil {
		return fmt.Errorf("wphost: discovery: %w", err)
	}
	types, err := c.PostTypes(ctx)
	if err != nil {
		return fmt.Errorf("wphost: discovery: %w", err)
	}
	taxes, err := c.Taxonomies(ctx)
	if err != nil {
		return fmt.Errorf("wphost: discovery: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.types, s.taxes = map[string]contentgen.PostType{}, map[string]contentgen.Taxonomy{}
	s.typeList, s.taxList = nil, nil
	for _, pt := range types {
		s.types[pt.Name] = pt.PostType
		s.typeList = append(s.typeList, pt.Name)
	}
	for _, tx := range taxes {
		s.taxes[tx.Name] = tx.Taxonomy
		s.taxList = append(s.taxList, tx.Name)
	}
	return nil
}

// postType returns the registered post type name.
func (s *Site) postType(name string) (contentgen.PostType, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	pt, ok := s.types[name]
	return pt, ok
}

// taxonomy returns the registered taxonomy name.
func (s *Site) taxonomy(name string) (contentgen.Taxonomy, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	tx, ok := s.taxes[name]
	return tx, ok
}

// linked reports whether taxonomy tax is registered for post type pt.
func (s *Site) linked(pt, tax string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, t := range s.types[pt].Taxonomies {
		if t == tax {
			return true
		}
	}
	for _, p := range s.taxes[tax].PostTypes {
		if p == pt {
			return true
		}
	}
	return false
}

// options reads options by name; missing ones are "".
func (s *Site) options(ctx context.Context, q sqlstore.Querier, names ...string) (map[string]string, error) {
	out := map[string]string{}
	args := make([]any, len(names))
	for i, n := range names {
		args[i] = n
	}
	err := q.QueryEach(ctx, "SELECT option_name, option_value FROM "+s.t.options+" WHERE option_name IN ("+marks(len(names))+")", args,
		func(r *sql.Rows) error {
			var k, v string
			if err := r.Scan(&k, &v); err != nil {
				return err
			}
			out[k] = v
			return nil
		})
	return out, err
}

// Host returns the contentgen.Host over the site's tables.
func (s *Site) Host() *Host { return s.host }

// DB returns the database of the site as a sqlstore.DB: its stores
// (History, Templates, State) are contentgen's tables in the site's
// database, and its transactions are the Host's.
func (s *Site) DB() *sqlstore.DB { return s.db }

// Location returns the site's time zone.
func (s *Site) Location() *time.Location { return s.loc }

// Close closes the database connections.
func (s *Site) Close() error { return s.db.Close() }

// maxDiscoveryBytes bounds the answers of the REST discovery calls.
const maxDiscoveryBytes = 8 << 20
