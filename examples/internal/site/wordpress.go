package site

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/contentgen/wphost"
	"github.com/contentgen/contentgen/contentgen/wphost/wprest"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/templates"
)

// EnvWordPressPassword holds the application password of a WordPress
// site when no flag gives it, so that it need not appear in the process
// list.
const EnvWordPressPassword = "CONTENTGEN_WORDPRESS_APP_PASSWORD"

// WordPress names a real WordPress site to fill instead of the demo site.
// With DB set, content goes straight into the site's tables and the
// history, templates and state are kept there too; without it, content
// goes through the REST API and the rest is kept where -db says.
type WordPress struct {
	// URL is the site's address; User and AppPassword an administrator
	// and one of their application passwords.
	URL, User, AppPassword string
	// DB is the go-sql-driver/mysql DSN of the site's database, such as
	// root@tcp(127.0.0.1:3306)/wordpress; empty means the REST API only.
	DB string
	// Prefix is the site's table prefix; empty means "wp_".
	Prefix string
	// Uploads is the site's uploads directory, where images are written
	// in database mode; empty means media go through the REST API.
	Uploads string
}

// Enabled reports whether a WordPress site was named.
func (w WordPress) Enabled() bool { return w.URL != "" }

// Check reports the first missing or contradictory setting, naming the
// flag.
func (w WordPress) Check() error {
	switch {
	case w.User == "":
		return errors.New("-wordpress-user is required with -wordpress-url")
	case w.AppPassword == "":
		return errors.New("-wordpress-app-password is required with -wordpress-url")
	case w.DB == "" && w.Uploads != "":
		return errors.New("-wordpress-uploads needs -wordpress-db (without it, media go through the REST API)")
	}
	return nil
}

// OpenWordPress opens the WordPress site w names. In database mode
// everything lives in the site's database, but the jobs of runs, which
// OpenRuns keeps in the store dbFlag names; in REST mode the history,
// templates and state are kept in the store dbFlag names (as for Open;
// Memory keeps them until the process ends), and runs are refused.
func OpenWordPress(ctx context.Context, w WordPress, dbFlag string, log *slog.Logger) (*Site, error) {
	if err := w.Check(); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	noRegister := func(_ context.Context, pt contentgen.PostType) error {
		return fmt.Errorf("post type %q: a WordPress site registers its post types in PHP", pt.Name)
	}
	if w.DB != "" {
		wp, err := wphost.Open(ctx, &wphost.Options{
			URL: w.URL, User: w.User, AppPassword: w.AppPassword,
			DSN: w.DB, TablePrefix: w.Prefix, Uploads: w.Uploads, Logger: log,
		})
		if err != nil {
			return nil, fmt.Errorf("-wordpress-db %s: %w", Redact(w.DB), err)
		}
		db := wp.DB()
		s := &Site{
			Host: wp.Host(), History: db.History(), Templates: db.Templates(), State: db.State(),
			Register: noRegister, WordPress: true, Close: wp.Close,
			ledger: wp, runsDSN: dbFlag, log: log,
		}
		if dbFlag == Memory {
			s.noRuns = errRunsInMemory
		}
		return s, nil
	}
	h, err := wprest.New(ctx, &wprest.Options{URL: w.URL, User: w.User, AppPassword: w.AppPassword, Logger: log})
	if err != nil {
		return nil, fmt.Errorf("-wordpress-url %s: %w", w.URL, err)
	}
	s := &Site{Host: h, Register: noRegister, WordPress: true, Close: func() error { return nil }, noRuns: errRunsOverREST}
	if dbFlag == Memory {
		s.History, s.Templates, s.State = history.NewMemStore(nil), templates.NewMemStore(), memhost.NewStateStore()
		return s, nil
	}
	db, err := sqlstore.Open(ctx, dbFlag, &sqlstore.Options{Logger: log})
	if err != nil {
		return nil, fmt.Errorf("-db %s: %w", Redact(dbFlag), err)
	}
	s.History, s.Templates, s.State, s.Close = db.History(), db.Templates(), db.State(), db.Close
	return s, nil
}
