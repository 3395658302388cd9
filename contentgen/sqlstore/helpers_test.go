package sqlstore_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// postgresEnv names the variable holding the DSN of the PostgreSQL the
// tests use, such as postgres://postgres@127.0.0.1:5432/test?sslmode=disable.
const postgresEnv = "CONTENTGEN_TEST_POSTGRES"

// engine makes fresh, isolated databases of one engine.
type engine struct {
	name string
	// fresh returns the DSN and options of a new, empty database that
	// goes away at the end of the test.
	fresh func(t testing.TB) (string, *sqlstore.Options)
}

// open opens a fresh database with opts (nil for the defaults), closed at
// the end of the test.
func (e engine) open(t testing.TB, opts *sqlstore.Options) *sqlstore.DB {
	t.Helper()
	dsn, o := e.fresh(t)
	if opts != nil {
		schema := o.Schema
		*o = *opts
		o.Schema = schema
	}
	return openAt(t, dsn, o)
}

// openAt opens dsn, closed at the end of the test.
func openAt(t testing.TB, dsn string, opts *sqlstore.Options) *sqlstore.DB {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), dsn, opts)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, db.Close()) })
	return db
}

// engines returns SQLite (always) and PostgreSQL (skipped unless
// postgresEnv is set).
func engines() []engine {
	return []engine{
		{"SQLite", freshSQLite},
		{"PostgreSQL", freshPostgres},
	}
}

// forEachEngine runs fn once per engine, as a subtest named after it.
func forEachEngine(t *testing.T, fn func(t *testing.T, e engine)) {
	t.Helper()
	for _, e := range engines() {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			fn(t, e)
		})
	}
}

// freshSQLite names a new SQLite file in a temporary directory.
func freshSQLite(t testing.TB) (string, *sqlstore.Options) {
	t.Helper()
	return filepath.Join(t.TempDir(), "test.db"), &sqlstore.Options{}
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

// freshPostgres names a new schema of the test PostgreSQL, dropped at the
// end of the test.
func freshPostgres(t testing.TB) (string, *sqlstore.Options) {
	t.Helper()
	dsn := postgresDSN(t)
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
	// Commits of a test need not wait for the disk.
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "synchronous_commit=off", &sqlstore.Options{Schema: schema, MaxConns: 4}
}
