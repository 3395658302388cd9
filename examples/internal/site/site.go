// Package site opens the demo site that the example programs share: the
// server and the command line keep it in memory, in a SQLite file or in
// PostgreSQL, create the demo content in a new database, and build the
// Generator with the demo custom fields, starter templates and image
// providers, so that both work on the same site.
package site

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/contentgen/runs"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/templates"
)

// Memory is the database name that keeps the site in memory.
const Memory = "memory"

// Site is where the demo site keeps everything: the host, the history,
// the templates and the state, and the handler serving media files. For
// the SQL and WordPress database hosts, History, Templates and State are
// the host's own (see contentgen.Capabilities).
type Site struct {
	Host      contentgen.Host
	History   history.Store
	Templates templates.Store
	State     contentgen.StateStore
	// Files serves the media files under /uploads/; nil for a WordPress
	// site, which serves its own.
	Files http.Handler
	// Register registers a post type on the host (replacing one of the
	// same name).
	Register func(ctx context.Context, pt contentgen.PostType) error
	// Fresh is set when the demo content was just created.
	Fresh bool
	// WordPress is set for a real WordPress site (OpenWordPress): it has
	// none of the demo site's post types, custom fields or starters but
	// the posts and pages ones.
	WordPress bool
	// DB is the SQL database of a site kept in SQLite or PostgreSQL (nil
	// in memory and for WordPress): runs keep their jobs in it (see
	// OpenRuns).
	DB *sqlstore.DB
	// Close closes the database; it is a no-op in memory.
	Close func() error

	// For OpenRuns: the Ledger of a WordPress site written through its
	// database, with the DSN of the database of its runs' jobs and that
	// database once open; noRuns is why the site holds no runs.
	ledger  runs.Ledger
	runsDSN string
	runsDB  *sqlstore.DB
	noRuns  error
	log     *slog.Logger
}

// Open opens the store db names: Memory keeps everything in memory until
// the process ends; "postgres://..." a PostgreSQL database; anything else
// a SQLite file, with media files in mediaDir (default: the file's name
// plus ".media", or contentgen-media for PostgreSQL). A new database gets
// the demo site. Errors about the database name it as "-db", redacted.
func Open(ctx context.Context, dbFlag, mediaDir string, info contentgen.Site, log *slog.Logger) (*Site, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if dbFlag == Memory {
		h, err := demosite.New(&memhost.Options{Site: info})
		if err != nil {
			return nil, err
		}
		return &Site{
			Host: h, History: history.NewMemStore(nil), Templates: templates.NewMemStore(), State: memhost.NewStateStore(),
			Files:    h.FileHandler(),
			Register: func(_ context.Context, pt contentgen.PostType) error { return h.RegisterPostType(pt) },
			Fresh:    true, Close: func() error { return nil },
		}, nil
	}
	db, err := sqlstore.Open(ctx, dbFlag, &sqlstore.Options{Logger: log})
	if err != nil {
		return nil, fmt.Errorf("-db %s: %w", Redact(dbFlag), err)
	}
	if mediaDir == "" {
		mediaDir = "contentgen-media"
		if db.Engine() == "sqlite" {
			mediaDir = strings.TrimPrefix(dbFlag, "file:") + ".media"
			mediaDir, _, _ = strings.Cut(mediaDir, "?")
		}
	}
	h := db.Host(&sqlstore.HostOptions{Site: info, MediaDir: mediaDir, MediaURL: info.URL + "/uploads"})
	s := &Site{
		Host: h, History: db.History(), Templates: db.Templates(), State: db.State(),
		Files:    http.StripPrefix("/uploads", h.Files()),
		Register: h.RegisterPostType,
		DB:       db,
		Close:    db.Close,
	}
	// Finish or remove the files of transactions a server that died
	// before their file changes left behind.
	sw, err := h.SweepMedia(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	if sw != (sqlstore.MediaSweep{}) {
		log.Info("media files swept", "placed", sw.Placed, "removed", sw.Removed)
	}
	// A new database gets the demo site's types, roles and hand-made
	// content, once: servers started together on it take turns, and
	// those after the first find it made.
	err = db.InTxLocked(ctx, "demo site", func(ctx context.Context) error {
		s.Fresh = false
		types, err := h.PostTypes(ctx)
		if err != nil || len(types) > 0 {
			return err
		}
		pts, taxes := demosite.Types()
		for _, pt := range pts {
			if err := h.RegisterPostType(ctx, pt); err != nil {
				return err
			}
		}
		for _, t := range taxes {
			if err := h.RegisterTaxonomy(ctx, t); err != nil {
				return err
			}
		}
		for _, r := range memhost.StandardRoles() {
			if err := h.RegisterRole(ctx, r); err != nil {
				return err
			}
		}
		if err := demosite.SeedAt(ctx, h, time.Now().UTC().Truncate(time.Second)); err != nil {
			return err
		}
		s.Fresh = true
		return nil
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Redact hides the password of a database URL or MySQL driver DSN.
func Redact(dsn string) string {
	prefix, rest, ok := strings.Cut(dsn, "://")
	if ok {
		prefix += "://"
	} else {
		prefix, rest = "", dsn
	}
	// The credentials end at the last "@" (URLs, and the MySQL driver's
	// user:password@tcp(host)/db form); a password follows the first ":".
	at := strings.LastIndex(rest, "@")
	if at < 0 || !strings.Contains(rest[:at], ":") {
		return dsn
	}
	user, _, _ := strings.Cut(rest[:at], ":")
	return prefix + user + "@" + rest[at+1:]
}
