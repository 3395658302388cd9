package main

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"
)

// envPostgres names the PostgreSQL URL the PostgreSQL tests use.
const envPostgres = "CONTENTGEN_TEST_POSTGRES"

// TestPostgres generates into a PostgreSQL site, each run opening it
// anew, and cleans it up back to the hand-made site.
func TestPostgres(t *testing.T) {
	dsn := os.Getenv(envPostgres)
	if dsn == "" {
		t.Skip(envPostgres + " is not set: the PostgreSQL test of the command line needs a PostgreSQL URL")
	}
	t.Parallel()
	admin, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	t.Cleanup(func() { admin.Close() })
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "contentgen_cli_" + hex.EncodeToString(b[:])
	_, err = admin.Exec("CREATE SCHEMA " + schema)
	require.NoError(t, err)
	t.Cleanup(func() {
		if _, err := admin.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
		}
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	media := filepath.Join(t.TempDir(), "media")
	db, base := newSite(t, dsn+sep+"search_path="+schema, media)

	r := runCLI(t, false, "", "generate", "posts", "--db", db, "--media", media, "--count", "3", "--json",
		"--image-provider", "provider_local", "--image-width", "120", "--image-height", "100")
	require.Equal(t, 0, r.code, r.stderr)
	var got struct {
		IDs []int64 `json:"ids"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	now := inspectMedia(t, db, media)
	require.ElementsMatch(t, got.IDs, added(now.posts, base.posts))
	require.Len(t, added(now.media, base.media), 3)
	files, err := os.ReadDir(media)
	require.NoError(t, err)
	require.NotEmpty(t, files, "the images are stored under --media")

	r = runCLI(t, false, "", "cleanup", "--db", db, "--media", media, "--yes")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "Deleted 3 posts")
	require.Equal(t, base, inspectMedia(t, db, media))
}
