package site

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/examples/internal/pgtest"
)

// mysqlEnv names the MySQL the tests use, such as
// root@tcp(127.0.0.1:3306)/test; its user needs CREATE and DROP.
const mysqlEnv = "CONTENTGEN_TEST_MYSQL"

// mysqlDatabase creates a new database on the server of mysqlEnv,
// dropped when the test ends, and returns its DSN. Without mysqlEnv it
// skips the test.
func mysqlDatabase(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv(mysqlEnv)
	if dsn == "" {
		t.Skip(mysqlEnv + " is not set: the MySQL test needs a DSN")
	}
	cfg, err := mysql.ParseDSN(dsn)
	require.NoError(t, err)
	admin := cfg.Clone()
	admin.DBName = ""
	conn, err := mysql.NewConnector(admin)
	require.NoError(t, err)
	db := sql.OpenDB(conn)
	t.Cleanup(func() { db.Close() })
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "cgtest_site_" + hex.EncodeToString(b[:])
	_, err = db.Exec("CREATE DATABASE " + name)
	require.NoError(t, err)
	t.Cleanup(func() {
		if _, err := db.Exec("DROP DATABASE " + name); err != nil {
			t.Errorf("dropping database %s: %v", name, err)
		}
	})
	c := cfg.Clone()
	c.DBName = name
	return c.FormatDSN()
}

// TestConcurrentOpensSeedOnce starts several sites on one new database at
// the same moment, as servers started together would: every Open
// succeeds, one of them creates the demo site, and it exists once.
func TestConcurrentOpensSeedOnce(t *testing.T) {
	const n = 6
	for _, tc := range []struct {
		name string
		dsn  func(t *testing.T) string
	}{
		{"SQLite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "site.db") }},
		{"PostgreSQL", func(t *testing.T) string { return pgtest.Schema(t, "cgsite_", "the concurrent Open test") }},
		{"MySQL", mysqlDatabase},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dsn := tc.dsn(t)
			media := t.TempDir()
			ctx := context.Background()
			sites := make([]*Site, n)
			errs := make([]error, n)
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					<-start
					sites[i], errs[i] = Open(ctx, dsn, media, contentgen.Site{Name: "demo", URL: "http://127.0.0.1:8080"}, nil)
				})
			}
			close(start)
			wg.Wait()
			fresh := 0
			for i := range n {
				if sites[i] != nil {
					t.Cleanup(func() { _ = sites[i].Close() })
				}
				require.NoError(t, errs[i], "Open %d", i)
				if sites[i].Fresh {
					fresh++
				}
			}
			require.Equal(t, 1, fresh, "sites that created the demo content")
			h := sites[0].Host
			users, err := h.Users(ctx, contentgen.UserQuery{})
			require.NoError(t, err)
			require.Len(t, users, 1, "users")
			posts, err := h.Posts(ctx, contentgen.PostQuery{Types: []string{"post", "page"}})
			require.NoError(t, err)
			require.Len(t, posts, 2, "demo post and page")
			types, err := h.PostTypes(ctx)
			require.NoError(t, err)
			names := map[string]int{}
			for _, pt := range types {
				names[pt.Name]++
			}
			for name, c := range names {
				require.Equal(t, 1, c, "post type %s", name)
			}
		})
	}
}
