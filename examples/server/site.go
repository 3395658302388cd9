package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/templates"
)

// site is where the demo site keeps everything: the host, the history,
// the templates and the state, and the handler serving media files.
type site struct {
	host      contentgen.Host
	history   history.Store
	templates templates.Store
	state     contentgen.StateStore
	files     http.Handler
	// register registers a post type on the host (replacing one of the
	// same name).
	register func(ctx context.Context, pt contentgen.PostType) error
	// fresh is set when the demo content was just created.
	fresh bool
	close func() error
}

// openSite opens the store dbFlag names: "memory" keeps everything in
// memory until the server stops; "postgres://..." a PostgreSQL database;
// anything else a SQLite file, with media files in mediaDir (default: the
// file's name plus ".media"). A new database gets the demo site.
func openSite(ctx context.Context, dbFlag, mediaDir string, info contentgen.Site, log *slog.Logger) (*site, error) {
	if dbFlag == "memory" {
		h, err := memhost.NewDemo(&memhost.Options{Site: info})
		if err != nil {
			return nil, err
		}
		return &site{
			host: h, history: history.NewMemStore(nil), templates: templates.NewMemStore(), state: memhost.NewStateStore(),
			files:    h.FileHandler(),
			register: func(_ context.Context, pt contentgen.PostType) error { return h.RegisterPostType(pt) },
			fresh:    true, close: func() error { return nil },
		}, nil
	}
	db, err := sqlstore.Open(ctx, dbFlag, &sqlstore.Options{Logger: log})
	if err != nil {
		return nil, fmt.Errorf("-db %s: %w", redact(dbFlag), err)
	}
	if mediaDir == "" {
		mediaDir = "contentgen-media"
		if !strings.Contains(dbFlag, "://") {
			mediaDir = strings.TrimPrefix(dbFlag, "file:") + ".media"
			mediaDir, _, _ = strings.Cut(mediaDir, "?")
		}
	}
	h := db.Host(&sqlstore.HostOptions{Site: info, MediaDir: mediaDir, MediaURL: info.URL + "/uploads"})
	s := &site{
		host: h, history: db.History(), templates: db.Templates(), state: db.State(),
		files:    http.StripPrefix("/uploads", h.Files()),
		register: h.RegisterPostType,
		close:    db.Close,
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
	types, err := h.PostTypes(ctx)
	if err != nil {
		db.Close()
		return nil, err
	}
	if len(types) > 0 {
		return s, nil
	}
	// A new database: the demo site's types, roles and hand-made content.
	pts, taxes := memhost.DemoTypes()
	for _, pt := range pts {
		if err := h.RegisterPostType(ctx, pt); err != nil {
			db.Close()
			return nil, err
		}
	}
	for _, t := range taxes {
		if err := h.RegisterTaxonomy(ctx, t); err != nil {
			db.Close()
			return nil, err
		}
	}
	for _, r := range memhost.StandardRoles() {
		if err := h.RegisterRole(ctx, r); err != nil {
			db.Close()
			return nil, err
		}
	}
	if err := memhost.SeedDemo(ctx, h); err != nil {
		db.Close()
		return nil, err
	}
	s.fresh = true
	return s, nil
}

// redact hides the password of a database URL.
func redact(dsn string) string {
	scheme, rest, ok := strings.Cut(dsn, "://")
	if !ok {
		return dsn
	}
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		user, _, _ := strings.Cut(rest[:at], ":")
		return scheme + "://" + user + "@" + rest[at+1:]
	}
	return dsn
}
