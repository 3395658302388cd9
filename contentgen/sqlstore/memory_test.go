package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/hosttest"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/history/historytest"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/templatetest"
)

// TestMemory runs the suites on SQLite databases in memory.
func TestMemory(t *testing.T) {
	open := func(t *testing.T, opts *sqlstore.Options) *sqlstore.DB { return openAt(t, ":memory:", opts) }
	t.Run("History", func(t *testing.T) {
		historytest.RunWithClock(t, func(t *testing.T, now func() time.Time) history.Store {
			return open(t, &sqlstore.Options{Now: now}).History()
		})
	})
	t.Run("Templates", func(t *testing.T) {
		templatetest.Run(t, func(t *testing.T) templates.Store { return open(t, nil).Templates() })
	})
	t.Run("State", func(t *testing.T) {
		hosttest.RunStateStore(t, func(t *testing.T) contentgen.StateStore { return open(t, nil).State() })
	})
	// A database holding only prefixed tables, as a WordPress database
	// does: a statement naming a table without the prefix fails.
	prefixed := func(o sqlstore.Options) *sqlstore.Options { o.TablePrefix = "wp_contentgen_"; return &o }
	t.Run("PrefixedHistory", func(t *testing.T) {
		historytest.RunWithClock(t, func(t *testing.T, now func() time.Time) history.Store {
			return open(t, prefixed(sqlstore.Options{Now: now})).History()
		})
	})
	t.Run("PrefixedTemplates", func(t *testing.T) {
		templatetest.Run(t, func(t *testing.T) templates.Store { return open(t, prefixed(sqlstore.Options{})).Templates() })
	})
	t.Run("PrefixedState", func(t *testing.T) {
		hosttest.RunStateStore(t, func(t *testing.T) contentgen.StateStore { return open(t, prefixed(sqlstore.Options{})).State() })
	})
	t.Run("PrefixedHost", func(t *testing.T) {
		hosttest.Run(t, func(t *testing.T) contentgen.Host { return newHost(t, open(t, prefixed(sqlstore.Options{}))) })
	})
	t.Run("Private", func(t *testing.T) {
		a, b := open(t, nil), open(t, nil)
		require.NoError(t, a.History().Add(context.Background(), batch(2)))
		_, total, err := b.History().List(context.Background(), history.Filter{})
		require.NoError(t, err)
		require.Zero(t, total, "every :memory: database is its own")
	})
}

func TestEngine(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		want := map[string]string{"SQLite": "sqlite", "PostgreSQL": "postgres", "MySQL": "mysql"}[e.name]
		require.Equal(t, want, e.open(t, nil).Engine())
	})
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	_, err := sqlstore.Open(ctx, "", nil)
	require.Error(t, err)
	_, err = sqlstore.Open(ctx, ":memory:", &sqlstore.Options{MaxConns: -1})
	require.ErrorContains(t, err, "MaxConns")
	_, err = sqlstore.Open(ctx, t.TempDir()+"/missing/dir/x.db", nil)
	require.Error(t, err, "a SQLite file in a directory that does not exist")
	_, err = sqlstore.Open(ctx, "postgres://%zz", nil)
	require.Error(t, err)
}
