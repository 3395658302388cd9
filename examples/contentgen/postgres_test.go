package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/examples/internal/pgtest"
)

// TestPostgres generates into a PostgreSQL site, each run opening it
// anew, and cleans it up back to the hand-made site.
func TestPostgres(t *testing.T) {
	siteDSN := pgtest.Schema(t, "contentgen_cli_", "the PostgreSQL test of the command line")
	t.Parallel()
	media := filepath.Join(t.TempDir(), "media")
	db, base := newSite(t, siteDSN, media)

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
