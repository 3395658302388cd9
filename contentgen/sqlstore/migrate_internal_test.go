package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/templates"
)

// testDSN returns the DSN and options of a fresh database of the engine:
// a SQLite file in a temporary directory, or a new PostgreSQL schema
// (dropped at the end of the test) when CONTENTGEN_TEST_POSTGRES is set.
func testDSN(t *testing.T, engine string) (string, *Options) {
	t.Helper()
	if engine == "sqlite" {
		return filepath.Join(t.TempDir(), "test.db"), nil
	}
	dsn := os.Getenv("CONTENTGEN_TEST_POSTGRES")
	if dsn == "" {
		t.Skip("set CONTENTGEN_TEST_POSTGRES to a PostgreSQL DSN to run the PostgreSQL tests")
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema := "cgtest_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		admin, err := sql.Open("pgx", dsn)
		require.NoError(t, err)
		defer admin.Close()
		_, err = admin.Exec("DROP SCHEMA IF EXISTS " + pgx.Identifier{schema}.Sanitize() + " CASCADE")
		require.NoError(t, err)
	})
	return dsn, &Options{Schema: schema, MaxConns: 4}
}

func TestMigrations(t *testing.T) {
	require.GreaterOrEqual(t, len(migrations), 2, "the upgrade test needs a later migration")
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			dsn, opts := testDSN(t, engine)

			// A database made by the first version only.
			old, err := open(ctx, dsn, opts, 1)
			require.NoError(t, err)
			v, err := old.SchemaVersion(ctx)
			require.NoError(t, err)
			require.Equal(t, 1, v)
			entries := []history.Entry{{ContentType: history.TypePost, ContentID: 7, ContentSubtype: "post", Meta: map[string]any{"locale": "de_DE"}}}
			require.NoError(t, old.History().Add(ctx, entries))
			_, err = old.Templates().List(ctx, templatesFilter())
			require.Error(t, err, "version 1 has no templates table")
			require.NoError(t, old.Close())

			// Opening it upgrades it and keeps its data.
			db, err := Open(ctx, dsn, opts)
			require.NoError(t, err)
			defer db.Close()
			v, err = db.SchemaVersion(ctx)
			require.NoError(t, err)
			require.Equal(t, len(migrations), v)
			got, err := db.History().Get(ctx, entries[0].ID)
			require.NoError(t, err)
			require.Equal(t, "de_DE", got.Meta["locale"])
			list, err := db.Templates().List(ctx, templatesFilter())
			require.NoError(t, err)
			require.Empty(t, list)
			require.NoError(t, db.State().Update(ctx, "k", func([]byte) ([]byte, error) { return []byte("v"), nil }))

			var n int
			require.NoError(t, db.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_version").Scan(&n))
			require.Equal(t, len(migrations), n, "one row per applied migration")

			// Opening again applies nothing.
			again, err := Open(ctx, dsn, opts)
			require.NoError(t, err)
			require.NoError(t, again.Close())

			// A database newer than this build is refused.
			_, err = db.w.ExecContext(ctx, db.d.rebind("INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)"), len(migrations)+1, "future", 0)
			require.NoError(t, err)
			_, err = Open(ctx, dsn, opts)
			require.ErrorContains(t, err, "newer than this build")
		})
	}
}

// TestConcurrentOpen opens one new database from many goroutines at once:
// the migrations run once, and every Open succeeds.
func TestConcurrentOpen(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			dsn, opts := testDSN(t, engine)
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for range 8 {
				wg.Go(func() {
					db, err := Open(context.Background(), dsn, opts)
					if err == nil {
						err = db.Close()
					}
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				require.NoError(t, err)
			}
			db, err := Open(context.Background(), dsn, opts)
			require.NoError(t, err)
			defer db.Close()
			var n int
			require.NoError(t, db.r.QueryRow("SELECT COUNT(*) FROM schema_version").Scan(&n))
			require.Equal(t, len(migrations), n)
		})
	}
}

func TestSplitStatements(t *testing.T) {
	got := splitStatements("-- comment;\nCREATE TABLE a (\n\tx INT\n);\nCREATE INDEX b ON a (x);\n\n")
	require.Equal(t, []string{"CREATE TABLE a (\n\tx INT\n)", "CREATE INDEX b ON a (x)"}, got)
}

func TestSplitSQLiteDSN(t *testing.T) {
	for _, c := range []struct {
		dsn, path, query string
		memory           bool
	}{
		{":memory:", "", "", true},
		{"file::memory:", "", "", true},
		{"file:x.db?mode=memory&cache=shared", "", "&mode=memory&cache=shared", true},
		{"data/contentgen.db", "data/contentgen.db", "", false},
		{"file:/tmp/a.db", "/tmp/a.db", "", false},
		{"file:a.db?_pragma=cache_size(-2000)", "a.db", "&_pragma=cache_size(-2000)", false},
	} {
		path, query, memory := splitSQLiteDSN(c.dsn)
		require.Equal(t, c.path, path, c.dsn)
		require.Equal(t, c.query, query, c.dsn)
		require.Equal(t, c.memory, memory, c.dsn)
	}
}

func templatesFilter() templates.Filter { return templates.Filter{} }
