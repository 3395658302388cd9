package sqlstore_test

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/templates"
)

// TestTablePrefix opens one database with two table prefixes and none:
// each holds a store of its own, and every table a prefixed store makes
// carries its prefix.
func TestTablePrefix(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := t.Context()
		dsn, o := e.fresh(t)
		at := func(prefix string) *sqlstore.DB {
			return openAt(t, dsn, &sqlstore.Options{Schema: o.Schema, MaxConns: o.MaxConns, TablePrefix: prefix})
		}
		a, b, plain := at("wp_contentgen_"), at("other_"), at("")

		require.NoError(t, a.State().Update(ctx, "k", func([]byte) ([]byte, error) { return []byte("a"), nil }))
		require.NoError(t, a.History().Add(ctx, []history.Entry{{ContentType: history.TypePost, ContentID: 1, ContentSubtype: "post"}}))
		ha, hb := newHost(t, a), newHost(t, b)
		ids, err := ha.CreatePosts(ctx, []contentgen.Post{{Type: "article", Title: "In a"}})
		require.NoError(t, err)
		idsB, err := hb.CreatePosts(ctx, []contentgen.Post{{Type: "article", Title: "In b"}})
		require.NoError(t, err)
		require.Equal(t, ids, idsB, "each prefix has its own ids")

		for _, other := range []*sqlstore.DB{b, plain} {
			v, err := other.State().Load(ctx, "k")
			require.NoError(t, err)
			require.Nil(t, v)
			_, total, err := other.History().List(ctx, history.Filter{})
			require.NoError(t, err)
			require.Zero(t, total)
		}
		posts, err := hb.Posts(ctx, contentgen.PostQuery{})
		require.NoError(t, err)
		require.Len(t, posts, 1)
		require.Equal(t, "In b", posts[0].Title)

		// Opened again, a prefix finds its store.
		again := at("wp_contentgen_")
		v, err := again.State().Load(ctx, "k")
		require.NoError(t, err)
		require.Equal(t, []byte("a"), v)
		posts, err = newHost(t, again).Posts(ctx, contentgen.PostQuery{})
		require.NoError(t, err)
		require.Len(t, posts, 1)
		require.Equal(t, "In a", posts[0].Title)

		// Every table (and index) is one of the three stores', and the
		// prefixed ones are as many as the plain ones.
		names := catalog(t, e, dsn, o.Schema)
		count := map[string]int{}
		for _, n := range names {
			switch {
			case strings.HasPrefix(n, "wp_contentgen_"):
				count["wp_contentgen_"]++
			case strings.HasPrefix(n, "other_"):
				count["other_"]++
			default:
				count[""]++
			}
		}
		require.NotZero(t, count[""], names)
		require.Equal(t, count[""], count["wp_contentgen_"], names)
		require.Equal(t, count[""], count["other_"], names)
	})
}

// TestTablePrefixKeepsToItsTables uses the stores of two prefixes in one
// database: clearing the history, reading its statistics, counting posts
// and terms by type and keeping the templates' sync mark touch the
// tables of the store's own prefix only.
func TestTablePrefixKeepsToItsTables(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := t.Context()
		dsn, o := e.fresh(t)
		at := func(prefix string) *sqlstore.DB {
			return openAt(t, dsn, &sqlstore.Options{Schema: o.Schema, MaxConns: o.MaxConns, TablePrefix: prefix})
		}
		a, plain := at("wp_contentgen_"), at("")
		for _, db := range []*sqlstore.DB{a, plain} {
			require.NoError(t, db.History().Add(ctx, []history.Entry{{ContentType: history.TypePost, ContentID: 1, ContentSubtype: "article"}}))
		}
		ha, hp := newHost(t, a), newHost(t, plain)
		_, err := hp.CreatePosts(ctx, []contentgen.Post{{Type: "article", Title: "Plain"}, {Type: "article", Title: "Plain too"}})
		require.NoError(t, err)
		_, err = hp.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "label", Name: "Plain"}})
		require.NoError(t, err)
		mark := templates.SyncMark{SeenAt: time.UnixMicro(1_700_000_000_000_000).UTC()}
		require.NoError(t, plain.Templates().SetSyncMark(ctx, mark))

		st, err := a.History().Stats(ctx, time.Time{})
		require.NoError(t, err)
		require.Equal(t, 1, st.Total)
		types, err := ha.PostTypes(ctx)
		require.NoError(t, err)
		require.Empty(t, types[0].Count, "the plain store's posts are not the prefixed store's")
		taxes, err := ha.Taxonomies(ctx)
		require.NoError(t, err)
		for _, tx := range taxes {
			require.Zero(t, tx.Count, tx.Name)
		}
		got, err := a.Templates().SyncMark(ctx)
		require.NoError(t, err)
		require.True(t, got.SeenAt.IsZero(), "the plain store's sync mark is not the prefixed store's")
		require.NoError(t, a.Templates().SetSyncMark(ctx, templates.SyncMark{}))

		require.NoError(t, a.History().Clear(ctx))
		_, total, err := plain.History().List(ctx, history.Filter{})
		require.NoError(t, err)
		require.Equal(t, 1, total, "clearing the prefixed history leaves the plain one")
		_, total, err = a.History().List(ctx, history.Filter{})
		require.NoError(t, err)
		require.Zero(t, total)
		got, err = plain.Templates().SyncMark(ctx)
		require.NoError(t, err)
		require.Equal(t, mark.SeenAt, got.SeenAt.UTC())
	})
}

// catalog returns the names of the tables and named indexes of the
// database of e at dsn (in schema on PostgreSQL).
func catalog(t *testing.T, e engine, dsn, schema string) []string {
	t.Helper()
	var driver, query string
	var args []any
	switch e.name {
	case "SQLite":
		driver, query = "sqlite", "SELECT name FROM sqlite_master WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%'"
	case "PostgreSQL":
		driver, query = "pgx", "SELECT tablename FROM pg_tables WHERE schemaname = $1 UNION ALL SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key'"
		args = []any{schema}
	case "MySQL":
		driver, query = "mysql", "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()"
	}
	db, err := sql.Open(driver, dsn)
	require.NoError(t, err)
	defer db.Close()
	rows, err := db.QueryContext(context.Background(), query, args...)
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		require.NoError(t, rows.Scan(&n))
		out = append(out, n)
	}
	require.NoError(t, rows.Err())
	slices.Sort(out)
	return out
}

func TestTablePrefixInvalid(t *testing.T) {
	for _, p := range []string{"wp-", "a b", "x;DROP", strings.Repeat("p", 33)} {
		_, err := sqlstore.Open(t.Context(), ":memory:", &sqlstore.Options{TablePrefix: p})
		require.ErrorContains(t, err, "TablePrefix", p)
	}
}

// TestIDsNeverHandedOutTwice creates posts from concurrent transactions,
// deletes them and creates more: no id is handed out twice.
func TestIDsNeverHandedOutTwice(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := t.Context()
		h := newHost(t, e.open(t, nil))
		var mu sync.Mutex
		seen := map[int64]bool{}
		take := func(ids []int64) {
			mu.Lock()
			defer mu.Unlock()
			for _, id := range ids {
				require.False(t, seen[id], "id %d handed out twice", id)
				seen[id] = true
			}
		}
		var wg sync.WaitGroup
		errs := make(chan error, 4)
		for range 4 {
			wg.Go(func() {
				for range 5 {
					ids, err := h.CreatePosts(ctx, []contentgen.Post{{Type: "article", Title: "a"}, {Type: "article", Title: "b"}, {Type: "article", Title: "c"}})
					if err != nil {
						errs <- err
						return
					}
					take(ids)
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			require.NoError(t, err)
		}
		require.Len(t, seen, 60)
		all := make([]int64, 0, len(seen))
		for id := range seen {
			all = append(all, id)
		}
		require.NoError(t, h.DeletePosts(ctx, all))
		ids, err := h.CreatePosts(ctx, []contentgen.Post{{Type: "article", Title: "after"}})
		require.NoError(t, err)
		take(ids)
		require.Greater(t, ids[0], slices.Max(all))
	})
}

// TestBatchLargerThanAStatement creates, in one call, posts whose text
// together exceeds what MySQL accepts in one statement (16 MiB by
// default on MariaDB): they are written in several.
func TestBatchLargerThanAStatement(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 20 MiB per engine")
	}
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := t.Context()
		h := newHost(t, e.open(t, nil))
		posts := make([]contentgen.Post, 20)
		for i := range posts {
			posts[i] = contentgen.Post{Type: "article", Title: "big", Content: strings.Repeat(string(rune('a'+i)), 1<<20)}
		}
		ids, err := h.CreatePosts(ctx, posts)
		require.NoError(t, err)
		got, err := h.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(ids...)})
		require.NoError(t, err)
		require.Len(t, got, len(posts))
		for i, p := range got {
			require.Equal(t, posts[i].Content, p.Content)
		}
	})
}

// TestMySQLOwnSQLMode opens MySQL with a DSN that sets its own sql_mode:
// searches, whose LIKE escapes with a backslash, still work.
func TestMySQLOwnSQLMode(t *testing.T) {
	dsn, o := freshMySQL(t)
	db := openAt(t, dsn+"?sql_mode=%27TRADITIONAL%27", o)
	h := newHost(t, db)
	_, err := h.CreatePosts(t.Context(), []contentgen.Post{{Type: "article", Title: `50% off C:\Temp`}, {Type: "article", Title: "500 off"}})
	require.NoError(t, err)
	got, err := h.Posts(t.Context(), contentgen.PostQuery{Search: `0% OFF c:\t`})
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.Equal(t, `50% off C:\Temp`, got[0].Title)
}
