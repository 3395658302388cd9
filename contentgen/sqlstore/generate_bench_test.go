package sqlstore_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// The tables a run of GeneratePosts writes to.
var contentTables = []string{"posts", "comments", "terms", "term_links", "users", "user_roles", "media", "meta", "history"}

// demoSite opens a fresh database of e holding the demo site and returns
// it with a Generator over it.
func demoSite(b testing.TB, e engine) (*sqlstore.DB, *contentgen.Generator, string, *sqlstore.Options) {
	b.Helper()
	ctx := context.Background()
	dsn, opts := e.fresh(b)
	db := openAt(b, dsn, opts)
	h := db.Host(nil)
	pts, taxes := demosite.Types()
	for _, pt := range pts {
		require.NoError(b, h.RegisterPostType(ctx, pt))
	}
	for _, t := range taxes {
		require.NoError(b, h.RegisterTaxonomy(ctx, t))
	}
	for _, r := range memhost.StandardRoles() {
		require.NoError(b, h.RegisterRole(ctx, r))
	}
	require.NoError(b, demosite.Seed(ctx, h))
	seed := int64(1)
	gen, err := contentgen.New(h, nil, &contentgen.Config{Seed: &seed})
	require.NoError(b, err)
	return db, gen, dsn, opts
}

// defaultPosts is the request of the benchmarks: 500 posts with the
// default options (full content, automatic taxonomies, custom fields,
// comments as the settings say) and no image provider.
func defaultPosts() contentgen.PostsRequest {
	return contentgen.PostsRequest{Count: new(500), SetFeaturedImage: new(false)}
}

// table is the rows of one table.
type table struct {
	name string
	cols []string
	rows [][]any
}

// dump reads every row of the content tables through a plain connection.
func dump(b testing.TB, conn *sql.DB, schema string) []table {
	b.Helper()
	out := make([]table, 0, len(contentTables))
	for _, name := range contentTables {
		q := "SELECT * FROM " + name
		if schema != "" {
			q = "SELECT * FROM " + schema + "." + name
		}
		rows, err := conn.Query(q)
		require.NoError(b, err)
		cols, err := rows.Columns()
		require.NoError(b, err)
		t := table{name: name, cols: cols}
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			require.NoError(b, rows.Scan(ptrs...))
			for i, v := range vals {
				if bs, ok := v.([]byte); ok {
					vals[i] = string(bs)
				}
			}
			t.rows = append(t.rows, vals)
		}
		require.NoError(b, rows.Err())
		require.NoError(b, rows.Close())
		out = append(out, t)
	}
	return out
}

// added returns the rows of after that are not in before, table by table.
func added(before, after []table) []table {
	out := make([]table, len(after))
	for i, t := range after {
		seen := map[string]bool{}
		for _, r := range before[i].rows {
			seen[fmt.Sprint(r...)] = true
		}
		out[i] = table{name: t.name, cols: t.cols}
		for _, r := range t.rows {
			if !seen[fmt.Sprint(r...)] {
				out[i].rows = append(out[i].rows, r)
			}
		}
	}
	return out
}

// plainConn opens the database of dsn with the bare driver, in schema.
func plainConn(b testing.TB, e engine, dsn string, opts *sqlstore.Options) *sql.DB {
	b.Helper()
	// The store's own settings: WAL with synchronous NORMAL on SQLite.
	driver := "sqlite"
	if e.name == "PostgreSQL" {
		driver = "pgx"
	} else {
		dsn = "file:" + dsn + "?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(10000)"
	}
	conn, err := sql.Open(driver, dsn)
	require.NoError(b, err)
	b.Cleanup(func() { conn.Close() })
	return conn
}

// generatedRows runs one GeneratePosts of defaultPosts on a fresh demo
// site of e and returns the rows it added, with a database holding the
// demo site only and its DSN and options.
func generatedRows(b *testing.B, e engine) ([]table, string, *sqlstore.Options) {
	b.Helper()
	_, gen, dsn, opts := demoSite(b, e)
	conn := plainConn(b, e, dsn, opts)
	before := dump(b, conn, opts.Schema)
	_, err := gen.GeneratePosts(context.Background(), defaultPosts())
	require.NoError(b, err)
	rows := added(before, dump(b, conn, opts.Schema))
	_, _, dsn, opts = demoSite(b, e)
	return rows, dsn, opts
}

// benchEngines is SQLite and, when postgresEnv is set, PostgreSQL.
func benchEngines() []engine {
	out := []engine{{"SQLite", freshSQLite}}
	if os.Getenv(postgresEnv) != "" {
		out = append(out, engine{"PostgreSQL", freshPostgres})
	}
	return out
}

// BenchmarkGeneratePosts500 generates 500 default posts with their
// history through a Generator into a demo site kept in each engine; the
// posts of an iteration are deleted again, outside the timer, before the
// next. BenchmarkGeneratePosts500Floor inserts the same rows with the
// cheapest code for the engine.
func BenchmarkGeneratePosts500(b *testing.B) {
	for _, e := range benchEngines() {
		b.Run(e.name, func(b *testing.B) {
			ctx := context.Background()
			_, gen, _, _ := demoSite(b, e)
			b.ReportAllocs()
			for b.Loop() {
				res, err := gen.GeneratePosts(ctx, defaultPosts())
				require.NoError(b, err)
				require.Len(b, res.IDs, 500)
				b.StopTimer()
				_, err = gen.DeleteAll(ctx)
				require.NoError(b, err)
				b.StartTimer()
			}
			b.ReportMetric(float64(b.N*500)/b.Elapsed().Seconds(), "posts/s")
		})
	}
}

// BenchmarkGeneratePosts500Floor is the floor of BenchmarkGeneratePosts500:
// the rows one of its runs adds (posts, their meta, term links, comments,
// users, terms and history entries, ids included), inserted into the demo
// site in one transaction: on SQLite with prepared multi-row INSERTs, on
// PostgreSQL with COPY; deleted again outside the timer.
func BenchmarkGeneratePosts500Floor(b *testing.B) {
	for _, e := range benchEngines() {
		b.Run(e.name, func(b *testing.B) {
			ctx := context.Background()
			tables, dsn, opts := generatedRows(b, e)
			var insert func() error
			conn := plainConn(b, e, dsn, opts)
			if e.name == "PostgreSQL" {
				cfg, err := pgx.ParseConfig(dsn)
				require.NoError(b, err)
				cfg.RuntimeParams["search_path"] = opts.Schema
				pc, err := pgx.ConnectConfig(ctx, cfg)
				require.NoError(b, err)
				b.Cleanup(func() { pc.Close(ctx) })
				insert = func() error { return copyRows(ctx, pc, tables) }
			} else {
				insert = func() error { return insertRows(ctx, conn, tables) }
			}
			before := dump(b, conn, opts.Schema)
			n := 0
			for _, t := range tables {
				n += len(t.rows)
			}
			b.ReportAllocs()
			for b.Loop() {
				require.NoError(b, insert())
				b.StopTimer()
				removeRows(b, conn, opts.Schema, before, tables)
				b.StartTimer()
			}
			b.ReportMetric(float64(n), "rows")
			b.ReportMetric(float64(b.N*500)/b.Elapsed().Seconds(), "posts/s")
		})
	}
}

// insertRows inserts tables in one SQLite transaction with prepared
// INSERTs of up to 100 rows each.
func insertRows(ctx context.Context, conn *sql.DB, tables []table) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var args []any
	for _, t := range tables {
		per := min(100, 32000/len(t.cols))
		for lo := 0; lo < len(t.rows); lo += per {
			rows := t.rows[lo:min(lo+per, len(t.rows))]
			one := "(" + strings.TrimSuffix(strings.Repeat("?,", len(t.cols)), ",") + ")"
			q := "INSERT INTO " + t.name + " (" + strings.Join(t.cols, ",") + ") VALUES " +
				strings.TrimSuffix(strings.Repeat(one+",", len(rows)), ",")
			args = args[:0]
			for _, r := range rows {
				args = append(args, r...)
			}
			if _, err := tx.ExecContext(ctx, q, args...); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}

// copyRows copies tables into PostgreSQL in one transaction.
func copyRows(ctx context.Context, conn *pgx.Conn, tables []table) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	for _, t := range tables {
		if len(t.rows) == 0 {
			continue
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{t.name}, t.cols, pgx.CopyFromRows(t.rows)); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// removeRows deletes the rows of tables again, leaving before.
func removeRows(b *testing.B, conn *sql.DB, schema string, before, tables []table) {
	b.Helper()
	prefix := ""
	if schema != "" {
		prefix = schema + "."
	}
	for i, t := range tables {
		if len(t.rows) == 0 {
			continue
		}
		_, err := conn.Exec("DELETE FROM " + prefix + t.name)
		require.NoError(b, err)
		if len(before[i].rows) == 0 {
			continue
		}
		one := "(" + strings.TrimSuffix(strings.Repeat("?,", len(t.cols)), ",") + ")"
		if schema != "" {
			var parts []string
			for j := range t.cols {
				parts = append(parts, fmt.Sprintf("$%d", j+1))
			}
			one = "(" + strings.Join(parts, ",") + ")"
		}
		for _, r := range before[i].rows {
			_, err := conn.Exec("INSERT INTO "+prefix+t.name+" ("+strings.Join(t.cols, ",")+") VALUES "+one, r...)
			require.NoError(b, err)
		}
	}
}

// BenchmarkGeneratePosts10000 generates 10,000 default posts in 20 runs
// of 500 into one database of each engine, and reports the bytes
// allocated by the first and by the last run: memory stays flat when the
// site grows.
func BenchmarkGeneratePosts10000(b *testing.B) {
	for _, e := range benchEngines() {
		b.Run(e.name, func(b *testing.B) {
			ctx := context.Background()
			var first, last uint64
			for b.Loop() {
				b.StopTimer()
				_, gen, _, _ := demoSite(b, e)
				b.StartTimer()
				for run := range 20 {
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					_, err := gen.GeneratePosts(ctx, defaultPosts())
					require.NoError(b, err)
					runtime.ReadMemStats(&after)
					switch run {
					case 0:
						first = after.TotalAlloc - before.TotalAlloc
					case 19:
						last = after.TotalAlloc - before.TotalAlloc
					}
				}
			}
			b.ReportMetric(float64(first)/500, "B/post-first")
			b.ReportMetric(float64(last)/500, "B/post-last")
			b.ReportMetric(float64(b.N*10000)/b.Elapsed().Seconds(), "posts/s")
		})
	}
}

// TestMemoryFlatAsTheSiteGrows checks what BenchmarkGeneratePosts10000
// reports, on a smaller scale: over 20 runs of 100 posts into one site,
// the last run allocates no more than 1.5 times the second (the first
// warms caches).
func TestMemoryFlatAsTheSiteGrows(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: generates 2,000 posts")
	}
	_, gen, _, _ := demoSite(t, engine{"SQLite", freshSQLite})
	ctx := context.Background()
	var allocs []uint64
	for range 20 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(100), SetFeaturedImage: new(false)})
		require.NoError(t, err)
		runtime.ReadMemStats(&after)
		allocs = append(allocs, after.TotalAlloc-before.TotalAlloc)
	}
	t.Logf("bytes allocated per run of 100 posts: %v", allocs)
	require.LessOrEqual(t, float64(allocs[19]), 1.5*float64(allocs[1]),
		"the 20th run allocates at most 1.5x the 2nd: %v", allocs)
}
