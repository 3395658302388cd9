package sqlstore_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// postgresEnv names the variable holding the DSN of the PostgreSQL the
// tests use, such as postgres://postgres@127.0.0.1:5432/test?sslmode=disable.
const postgresEnv = "CONTENTGEN_TEST_POSTGRES"

// mysqlEnv names the variable holding the DSN of the MySQL or MariaDB the
// tests use, such as root@tcp(127.0.0.1:3306)/test. The tests make their
// own databases there (cgtest_...), so its user needs CREATE and DROP.
const mysqlEnv = "CONTENTGEN_TEST_MYSQL"

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

// engines returns SQLite (always), PostgreSQL (skipped unless
// postgresEnv is set) and MySQL (skipped unless mysqlEnv is set).
func engines() []engine {
	return []engine{
		{"SQLite", freshSQLite},
		{"PostgreSQL", freshPostgres},
		{"MySQL", freshMySQL},
	}
}

// forEachEngine runs fn once per engine, as a subtest named after it.
func forEachEngine(t *testing.T, fn func(t *testing.T, e engine)) {
	t.Helper()
	for _, e := range engines() {
		t.Run(e.name, func(t *testing.T) {
			switch e.name {
			case "PostgreSQL":
				postgresDSN(t) // skips the whole engine when there is no server
			case "MySQL":
				mysqlDSN(t)
			}
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

// schemas keeps the PostgreSQL schemas of this test process: a schema is
// made and migrated once, emptied when its test ends and handed to the
// next test, and dropped by TestMain. Creating and dropping the tables of
// every subtest would cost far more than emptying them.
var schemas struct {
	mu   sync.Mutex
	free []string
	all  []string
}

// freshPostgres names an empty schema of the test PostgreSQL, emptied
// again at the end of the test.
func freshPostgres(t testing.TB) (string, *sqlstore.Options) {
	t.Helper()
	dsn := postgresDSN(t)
	schemas.mu.Lock()
	var schema string
	if n := len(schemas.free); n > 0 {
		schema, schemas.free = schemas.free[n-1], schemas.free[:n-1]
	} else {
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		schema = "cgtest_" + hex.EncodeToString(b)
		schemas.all = append(schemas.all, schema)
	}
	schemas.mu.Unlock()
	t.Cleanup(func() {
		if err := emptySchema(dsn, schema); err != nil {
			t.Errorf("emptying schema %s: %v", schema, err)
			return
		}
		schemas.mu.Lock()
		schemas.free = append(schemas.free, schema)
		schemas.mu.Unlock()
	})
	// Commits of a test need not wait for the disk.
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "synchronous_commit=off", &sqlstore.Options{Schema: schema, MaxConns: 4}
}

// emptySchema removes the rows of every table of schema but the schema
// versions (of every table prefix), and restarts the identity sequences.
func emptySchema(dsn, schema string) error {
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		return err
	}
	defer admin.Close()
	rows, err := admin.Query("SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename NOT LIKE '%schema\\_version'", schema)
	if err != nil {
		return err
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, pgx.Identifier{schema, name}.Sanitize())
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(tables) == 0 {
		return err
	}
	_, err = admin.Exec("TRUNCATE " + strings.Join(tables, ", ") + " RESTART IDENTITY")
	return err
}

// mysqlDSN returns the parsed DSN of the test MySQL, skipping the test
// when there is none.
func mysqlDSN(t testing.TB) *mysql.Config {
	t.Helper()
	dsn := os.Getenv(mysqlEnv)
	if dsn == "" {
		t.Skipf("set %s to a MySQL or MariaDB DSN (such as root@tcp(127.0.0.1:3306)/test) to run the MySQL tests", mysqlEnv)
	}
	cfg, err := mysql.ParseDSN(strings.TrimPrefix(dsn, "mysql://"))
	require.NoError(t, err, mysqlEnv)
	return cfg
}

// mysqlDatabases keeps the MySQL databases of this test process, as
// schemas does the PostgreSQL schemas: a database is made and migrated
// once, emptied when its test ends and handed to the next test, and
// dropped by TestMain.
var mysqlDatabases struct {
	mu   sync.Mutex
	free []string
	all  []string
}

// freshMySQL names an empty database of the test MySQL, emptied again at
// the end of the test.
func freshMySQL(t testing.TB) (string, *sqlstore.Options) {
	t.Helper()
	cfg := mysqlDSN(t)
	mysqlDatabases.mu.Lock()
	var name string
	if n := len(mysqlDatabases.free); n > 0 {
		name, mysqlDatabases.free = mysqlDatabases.free[n-1], mysqlDatabases.free[:n-1]
		mysqlDatabases.mu.Unlock()
	} else {
		b := make([]byte, 6)
		_, _ = rand.Read(b)
		name = "cgtest_" + hex.EncodeToString(b)
		mysqlDatabases.all = append(mysqlDatabases.all, name)
		mysqlDatabases.mu.Unlock()
		require.NoError(t, mysqlAdmin(cfg, "CREATE DATABASE "+name))
	}
	t.Cleanup(func() {
		if err := emptyMySQL(cfg, name); err != nil {
			t.Errorf("emptying database %s: %v", name, err)
			return
		}
		mysqlDatabases.mu.Lock()
		mysqlDatabases.free = append(mysqlDatabases.free, name)
		mysqlDatabases.mu.Unlock()
	})
	c := cfg.Clone()
	c.DBName = name
	return c.FormatDSN(), &sqlstore.Options{MaxConns: 4}
}

// mysqlAdmin runs statements on the test MySQL, outside any database.
func mysqlAdmin(cfg *mysql.Config, stmts ...string) error {
	c := cfg.Clone()
	c.DBName = ""
	conn, err := mysql.NewConnector(c)
	if err != nil {
		return err
	}
	admin := sql.OpenDB(conn)
	defer admin.Close()
	for _, s := range stmts {
		if _, err := admin.Exec(s); err != nil {
			return err
		}
	}
	return nil
}

// emptyMySQL deletes the rows of every table of database name but the
// schema versions. It leaves AUTO_INCREMENT counters alone (resetting one
// is DDL, which costs a hundred times as much), so ids go on from where
// the last test left them, as they would after a delete.
func emptyMySQL(cfg *mysql.Config, name string) error {
	c := cfg.Clone()
	c.DBName = name
	conn, err := mysql.NewConnector(c)
	if err != nil {
		return err
	}
	admin := sql.OpenDB(conn)
	defer admin.Close()
	tables, err := mysqlStrings(admin, "SELECT table_name FROM information_schema.tables WHERE table_schema = ? AND table_name NOT LIKE '%schema_version'", name)
	if err != nil || len(tables) == 0 {
		return err
	}
	parts := make([]string, len(tables))
	for i, t := range tables {
		parts[i] = "SELECT '" + t + "' FROM DUAL WHERE EXISTS (SELECT 1 FROM `" + t + "`)"
	}
	full, err := mysqlStrings(admin, strings.Join(parts, " UNION ALL "))
	if err != nil {
		return err
	}
	for _, t := range full {
		if _, err := admin.Exec("DELETE FROM `" + t + "`"); err != nil {
			return err
		}
	}
	return nil
}

// mysqlStrings returns the first column of the rows of query.
func mysqlStrings(db *sql.DB, query string, args ...any) ([]string, error) {
	rows, err := db.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// TestMain drops the PostgreSQL schemas and MySQL databases the tests
// made.
func TestMain(m *testing.M) {
	code := m.Run()
	if dsn := os.Getenv(mysqlEnv); dsn != "" && len(mysqlDatabases.all) > 0 {
		if cfg, err := mysql.ParseDSN(strings.TrimPrefix(dsn, "mysql://")); err == nil {
			for _, name := range mysqlDatabases.all {
				if err := mysqlAdmin(cfg, "DROP DATABASE IF EXISTS "+name); err != nil {
					fmt.Fprintf(os.Stderr, "dropping database %s: %v\n", name, err)
				}
			}
		}
	}
	if dsn := os.Getenv(postgresEnv); dsn != "" && len(schemas.all) > 0 {
		if admin, err := sql.Open("pgx", dsn); err == nil {
			for _, s := range schemas.all {
				if _, err := admin.Exec("DROP SCHEMA IF EXISTS " + pgx.Identifier{s}.Sanitize() + " CASCADE"); err != nil {
					fmt.Fprintf(os.Stderr, "dropping schema %s: %v\n", s, err)
				}
			}
			_ = admin.Close()
		}
	}
	os.Exit(code)
}
