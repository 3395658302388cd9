package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGenerateAsRun: a count above the per-request limit is made as a run
// with plain progress lines; --detach queues one that runs resume makes;
// runs list, show and cancel report them.
func TestGenerateAsRun(t *testing.T) {
	db := filepath.Join(t.TempDir(), "site.db")
	r := runCLI(t, false, "", "--db", db, "generate", "posts", "--count", "1200", "--set-featured-image=false", "--seed", "3")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, "succeeded, 1200 of 1200 posts (3 of 3 batches)")
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	require.Contains(t, lines[len(lines)-1], "1200 of 1200 posts")
	require.Len(t, inspect(t, db).posts, 1200+2, "the demo site's post and page, and the run's posts")

	r = runCLI(t, false, "", "--db", db, "--json", "generate", "users", "--count", "501", "--generate-avatars=false", "--detach", "--seed", "42")
	require.Equal(t, exitOK, r.code, r.stderr)
	var out struct {
		Run struct {
			ID                  string `json:"id"`
			Status              string `json:"status"`
			Total               int    `json:"total"`
			Seed                int64  `json:"seed"`
			BatchTimeoutSeconds int64  `json:"batch_timeout_seconds"`
		} `json:"run"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out))
	require.Equal(t, "queued", out.Run.Status)
	require.Equal(t, 501, out.Run.Total)
	require.EqualValues(t, 42, out.Run.Seed, "the run keeps the seed it was asked for")
	require.EqualValues(t, 60, out.Run.BatchTimeoutSeconds, "users without avatars are made offline: a minute a batch")

	r = runCLI(t, false, "", "--db", db, "runs", "list")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, out.Run.ID+"  queued     users  0/501")
	require.Contains(t, r.stdout, "succeeded  posts  1200/1200")

	r = runCLI(t, false, "", "--db", db, "runs", "resume", out.Run.ID)
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, "succeeded, 501 of 501 users (2 of 2 batches)")
	r = runCLI(t, false, "", "--db", db, "runs", "show", out.Run.ID)
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, "status:   succeeded")
	require.Contains(t, r.stdout, "batches, 501 items")
	require.Contains(t, r.stdout, "seed:     42\n")
	require.Contains(t, r.stdout, "batch timeout: 1m0s\n")
	r = runCLI(t, false, "", "--db", db, "runs", "cancel", out.Run.ID)
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, "succeeded", "a finished run stays as it is")

	// On a terminal: a bar of done/total with the rate.
	r = runCLI(t, true, "", "--db", db, "generate", "terms", "--taxonomy", "post_tag", "--count", "501", "--batch-size", "167")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stderr, "\r", "a bar redraws its line")
	require.Contains(t, r.stderr, "terms/s", "the bar shows the rate")
	require.Contains(t, r.stdout, "succeeded, 501 of 501 terms (3 of 3 batches)")

	// Options the generate command refuses are refused before the run
	// is recorded, named by their flag.
	r = runCLI(t, false, "", "--db", db, "generate", "posts", "--count", "1200", "--post-type", "spaceship")
	require.Equal(t, exitUsage, r.code, r.stderr)
	require.Contains(t, r.stderr, "--post-type")
	r = runCLI(t, false, "", "--db", db, "runs", "list")
	require.Equal(t, exitOK, r.code, r.stderr)
	require.NotContains(t, r.stdout, "spaceship")
	require.Len(t, strings.Split(strings.TrimSpace(r.stdout), "\n"), 3, "the three runs before")

	r = runCLI(t, false, "", "--db", db, "runs", "show", "no-such-run")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "run not found")
	r = runCLI(t, false, "", "--db", "memory", "generate", "posts", "--count", "501")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "runs keep their jobs in a database, and --db names memory")
}
