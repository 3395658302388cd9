package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/templates"
)

// testDSN returns the DSN and options of a fresh database of the engine:
// a SQLite file in a temporary directory, a new PostgreSQL schema when
// CONTENTGEN_TEST_POSTGRES is set, or a new MySQL database when
// CONTENTGEN_TEST_MYSQL is set (both dropped at the end of the test).
func testDSN(t *testing.T, engine string) (string, *Options) {
	t.Helper()
	if engine == "sqlite" {
		return filepath.Join(t.TempDir(), "test.db"), nil
	}
	if engine == "mysql" {
		return testMySQLDSN(t), &Options{MaxConns: 4}
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
	for _, engine := range []string{"sqlite", "postgres", "mysql"} {
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
	for _, engine := range []string{"sqlite", "postgres", "mysql"} {
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

// TestSQLiteJournalMode checks that a SQLite file is opened in WAL mode,
// which lets reads run beside the one writer, and that a DSN naming its
// own journal mode keeps it.
func TestSQLiteJournalMode(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ query, want string }{{"", "wal"}, {"?_pragma=journal_mode(DELETE)", "delete"}} {
		db, err := Open(ctx, "file:"+filepath.Join(t.TempDir(), "test.db")+c.query, nil)
		require.NoError(t, err)
		var mode string
		require.NoError(t, db.r.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode))
		require.Equal(t, c.want, mode, "DSN query %q", c.query)
		require.NoError(t, db.Close())
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

// testMySQLDSN returns the DSN of a new database of the test MySQL,
// dropped at the end of the test; it skips the test when
// CONTENTGEN_TEST_MYSQL is unset.
func testMySQLDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("CONTENTGEN_TEST_MYSQL")
	if dsn == "" {
		t.Skip("set CONTENTGEN_TEST_MYSQL to a MySQL DSN to run the MySQL tests")
	}
	cfg, err := mysql.ParseDSN(strings.TrimPrefix(dsn, "mysql://"))
	require.NoError(t, err)
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	name := "cgtest_" + hex.EncodeToString(b)
	admin := cfg.Clone()
	admin.DBName = ""
	conn, err := mysql.NewConnector(admin)
	require.NoError(t, err)
	adb := sql.OpenDB(conn)
	t.Cleanup(func() {
		_, err := adb.Exec("DROP DATABASE IF EXISTS " + name)
		require.NoError(t, err)
		require.NoError(t, adb.Close())
	})
	_, err = adb.Exec("CREATE DATABASE " + name)
	require.NoError(t, err)
	cfg.DBName = name
	return cfg.FormatDSN()
}

// TestMySQLMigrationsMatch checks that the MySQL migrations are the same
// versions as the generic ones and make, version by version, the same
// tables with the same columns, but for the ones only MySQL needs.
func TestMySQLMigrationsMatch(t *testing.T) {
	require.Equal(t, len(migrations), len(mysqlMigrations))
	for i := range migrations {
		require.Equal(t, migrations[i].version, mysqlMigrations[i].version)
		require.Equal(t, migrations[i].name, mysqlMigrations[i].name)
	}
	ctx := context.Background()
	mysqlDSN := testMySQLDSN(t)
	extra := map[string]bool{"unit_locks": true, "id_blocks": true, "users.email_key": true}
	for v := 1; v <= len(migrations); v++ {
		lite, err := open(ctx, filepath.Join(t.TempDir(), "test.db"), nil, v)
		require.NoError(t, err)
		want := columnsOf(t, lite, "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'")
		require.NoError(t, lite.Close())
		my, err := open(ctx, mysqlDSN, &Options{MaxConns: 2}, v)
		require.NoError(t, err)
		got := columnsOf(t, my, "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = DATABASE()")
		require.NoError(t, my.Close())
		for c := range got {
			table, _, _ := strings.Cut(c, ".")
			if extra[c] || extra[table] {
				delete(got, c)
			}
		}
		require.Equal(t, want, got, "version %d", v)
	}
}

// columnsOf returns the "table.column" of the database's tables.
func columnsOf(t *testing.T, db *DB, query string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	err := queryEach(context.Background(), db.r, query, nil, func(rows *sql.Rows) error {
		var table, col string
		err := rows.Scan(&table, &col)
		out[table+"."+col] = true
		return err
	})
	require.NoError(t, err)
	return out
}

func TestIsMySQLDSN(t *testing.T) {
	for dsn, want := range map[string]bool{
		"root@tcp(127.0.0.1:3306)/test":                 true,
		"user:p@ss/word@tcp(db:3306)/wp?parseTime=true": true,
		"wp@unix(/run/mysqld/mysqld.sock)/wordpress":    true,
		"tcp(localhost)/test":                           true,
		"mysql://root@tcp(127.0.0.1:3306)/test":         true,
		"mysql://root@/test":                            true,
		"postgres://postgres@localhost/test":            false,
		"data/contentgen.db":                            false,
		"file:tcp(x).db":                                false,
		"dir@tcp(1)/x.db":                               true,
		":memory:":                                      false,
	} {
		require.Equal(t, want, isMySQLDSN(dsn), dsn)
	}
}

// TestMigrationsNameTablesWithThePrefix checks the migrations of every
// engine after their tokens are replaced: no token is left, and every
// table and index they create, and every table they name, is one of the
// package's with the prefix.
func TestMigrationsNameTablesWithThePrefix(t *testing.T) {
	created := regexp.MustCompile(`\b(?:TABLE|INDEX|ON|INTO|FROM|JOIN|UPDATE)\s+(\w+)`)
	for _, c := range []struct {
		d    dialect
		migs []migration
	}{
		{sqliteDialect{}, migrations},
		{postgresDialect{}, migrations},
		{mysqlDialect{collation: "utf8mb4_bin"}, mysqlMigrations},
	} {
		tb := newTables("wp_cg_")
		known := map[string]bool{}
		for _, n := range []string{tb.schemaVersion, tb.history, tb.templates, tb.templateSyncMark, tb.state, tb.hostRegistry,
			tb.posts, tb.terms, tb.termLinks, tb.users, tb.userRoles, tb.comments, tb.media, tb.meta, tb.postCounts, tb.idBlocks, tb.unitLocks} {
			require.True(t, strings.HasPrefix(n, "wp_cg_"), n)
			known[n] = true
		}
		names := 0
		for _, m := range c.migs {
			for _, stmt := range splitStatements(tb.ddl(c.d.ddl(m.sql))) {
				require.NotContains(t, stmt, "${", "%s %s", c.d.name(), m.name)
				if !strings.HasPrefix(stmt, "CREATE TABLE") && !strings.HasPrefix(stmt, "CREATE INDEX") && !strings.HasPrefix(stmt, "CREATE UNIQUE INDEX") {
					continue
				}
				// The name the statement creates, and the table of an
				// index, come first; MySQL's inline indexes are named per
				// table and need no prefix.
				head, _, _ := strings.Cut(stmt, "(")
				for _, sm := range created.FindAllStringSubmatch(head, -1) {
					names++
					n := sm[1]
					require.True(t, strings.HasPrefix(n, "wp_cg_"), "%s %s: %s in %q", c.d.name(), m.name, n, head)
					if !strings.Contains(head, "INDEX "+n) {
						require.True(t, known[n], "%s %s: table %s", c.d.name(), m.name, n)
					}
				}
			}
		}
		require.Greater(t, names, 10, c.d.name())
	}
}

// TestInTxLockedSeedsOnce opens one new database from many goroutines at
// once, as servers started together would, and has each fill it under
// InTxLocked when it is empty: every Open and fill succeeds, and the
// content is made exactly once.
func TestInTxLockedSeedsOnce(t *testing.T) {
	const n = 12
	for _, engine := range []string{"sqlite", "postgres", "mysql"} {
		t.Run(engine, func(t *testing.T) {
			dsn, opts := testDSN(t, engine)
			ctx := context.Background()
			var seeded atomic.Int32
			start := make(chan struct{})
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					<-start
					db, err := Open(ctx, dsn, opts)
					if err != nil {
						errs[i] = err
						return
					}
					defer db.Close()
					h := db.Host(nil)
					errs[i] = db.InTxLocked(ctx, "seed", func(ctx context.Context) error {
						roles, err := h.Roles(ctx)
						if err != nil || len(roles) > 0 {
							return err
						}
						if err := h.RegisterRole(ctx, contentgen.Role{Slug: "administrator", Name: "Administrator"}); err != nil {
							return err
						}
						if _, err := h.CreateUsers(ctx, []contentgen.User{{Login: "admin", Email: "admin@example.com", Roles: []string{"administrator"}}}); err != nil {
							return err
						}
						seeded.Add(1)
						return nil
					})
				})
			}
			close(start)
			wg.Wait()
			for i, err := range errs {
				require.NoError(t, err, "opener %d", i)
			}
			require.EqualValues(t, 1, seeded.Load(), "fills")
			db, err := Open(ctx, dsn, opts)
			require.NoError(t, err)
			defer db.Close()
			users, err := db.Host(nil).Users(ctx, contentgen.UserQuery{})
			require.NoError(t, err)
			require.Len(t, users, 1)
		})
	}
}

// TestPostCountsMigrationCountsExistingPosts checks that the migration
// adding post_counts counts the posts a database already holds.
func TestPostCountsMigrationCountsExistingPosts(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "test.db")
	old, err := open(ctx, path, nil, 4)
	require.NoError(t, err)
	for id := int64(1); id <= 2100; id++ {
		_, err := old.w.ExecContext(ctx, "INSERT INTO posts (id, type, status, title, content, excerpt, author_id, parent_id, date, featured_media_id) VALUES (?, 'post', ?, '', '', '', 0, 0, 0, 0)",
			id, map[bool]string{true: "draft", false: "publish"}[id%4 == 0])
		require.NoError(t, err)
		if id%3 == 0 {
			_, err := old.w.ExecContext(ctx, "INSERT INTO meta (kind, object_id, meta_key, meta_value) VALUES ('post', ?, ?, ?)", id, contentgen.MarkerKey, contentgen.MarkerValue)
			require.NoError(t, err)
		}
	}
	require.NoError(t, old.Close())

	db, err := Open(ctx, path, nil)
	require.NoError(t, err)
	defer db.Close()
	h := db.Host(nil)
	require.NoError(t, h.RegisterPostType(ctx, contentgen.PostType{Name: "post", Public: true}))
	for q, want := range map[*contentgen.Listing]int{
		{}: 2100, {Statuses: []string{"draft"}}: 525, {Origin: contentgen.OnlyGenerated}: 700,
		{Origin: contentgen.NotGenerated, Statuses: []string{"publish"}}: 2100 - 525 - 700 + 175,
	} {
		ids, total, err := h.List(ctx, contentgen.KindPost, *q)
		require.NoError(t, err)
		require.Equal(t, want, total, "%+v", *q)
		require.Len(t, ids, want)
	}
}
