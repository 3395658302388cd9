package sqlstore_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// postgresEnv names the variable holding the DSN of the PostgreSQL the
// tests use, such as postgres://postgres@127.0.0.1:5432/test?sslmode=disable.
const postgresEnv = "CONTENTGEN_TEST_POSTGRES"

// engine opens fresh, isolated databases of one engine.
type engine struct {
	name string
	open func(t testing.TB, opts *sqlstore.Options) *sqlstore.DB
}

// engines returns SQLite (always) and PostgreSQL (when postgresEnv is set).
func engines() []engine {
	return []engine{
		{"SQLite", openSQLite},
		{"PostgreSQL", openPostgres},
	}
}

// forEachEngine runs fn once per engine, as a subtest named after it.
func forEachEngine(t *testing.T, fn func(t *testing.T, e engine)) {
	t.Helper()
	for _, e := range engines() {
		t.Run(e.name, func(t *testing.T) { fn(t, e) })
	}
}

// openSQLite opens a new SQLite file in a temporary directory.
func openSQLite(t testing.TB, opts *sqlstore.Options) *sqlstore.DB {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"), opts)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db
}

// postgresDSN returns the DSN of the test PostgreSQL, skipping the test
// when there is none.
func postgresDSN(t testing.TB) string {
	t.Helper()
	dsn := os.Getenv(postgresEnv)
	if dsn == "" {
		t.Skipf("set %s to a PostgreSQL DSN (such as postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run the PostgreSQL tests", postgresEnv)
	}
	return dsn
}

// newSchema returns a new schema name and drops the schema at the end of
// the test.
func newSchema(t testing.TB, dsn string) string {
	t.Helper()
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
	return schema
}

// openPostgres opens the test PostgreSQL in a schema of its own, dropped
// at the end of the test.
func openPostgres(t testing.TB, opts *sqlstore.Options) *sqlstore.DB {
	t.Helper()
	dsn := postgresDSN(t)
	o := sqlstore.Options{}
	if opts != nil {
		o = *opts
	}
	o.Schema = newSchema(t, dsn)
	if o.MaxConns == 0 {
		o.MaxConns = 4
	}
	db, err := sqlstore.Open(context.Background(), dsn, &o)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db
}
