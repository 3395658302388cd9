package main

import (
	"context"
	"database/sql"
	"fmt"
	mathrand "math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/examples/internal/pgtest"
)

// The size of TestRunSurvivesServerKills: posts of its run and kills of
// the server (default 1000 and 3; the figures are 20000 and 10).
const (
	envKillPosts = "CONTENTGEN_CRASH_POSTS"
	envKillKills = "CONTENTGEN_CRASH_KILLS"
)

// killRescue is -rescue-after of the servers the kill test starts: how
// long the batches a killed server was writing stay taken before a
// restarted one runs them again.
const killRescue = 5 * time.Second

// envNumber reads a positive number from the environment variable name,
// def when it is unset.
func envNumber(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	require.NoError(t, err, "%s must be a number", name)
	require.Positive(t, n, "%s must be positive", name)
	return n
}

// TestRunSurvivesServerKills builds the server, starts it on a SQLite
// file and on a PostgreSQL schema with -workers 2, submits a run of posts
// with two comments each over HTTP (POST /runs) and follows its events;
// it kills the server with SIGKILL at random moments spread over the run,
// each once the run reached a random share of its posts (every other
// time once the server is also writing a batch, as River's jobs say),
// and starts it again. Whenever the server is dead, the site holds
// exactly the posts the run counted, each with one history entry; at the
// end there are exactly the run's posts, each with one history entry and
// its two comments, every batch made once and counted once.
// CONTENTGEN_CRASH_POSTS and CONTENTGEN_CRASH_KILLS scale it (default
// 1000 posts and 3 kills), CONTENTGEN_CRASH_SEED picks other moments.
func TestRunSurvivesServerKills(t *testing.T) {
	bin := buildBinary(t)
	total := envNumber(t, envKillPosts, 1000)
	kills := envNumber(t, envKillKills, 3)
	seed := uint64(20261129)
	if s := os.Getenv(envCrashSeed); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		require.NoError(t, err, envCrashSeed)
		seed = v
	}
	batch := min(500, max(10, total/(4*(kills+1))))
	for _, e := range []struct {
		name string
		// open returns the -db of the server and the database to check.
		open func(t *testing.T) (string, *sql.DB)
		// runID extracts the run id of a history entry's meta.
		runID string
		// running counts the running batch jobs that the server of a
		// process id (%d) took: River names it host/pid.
		running string
	}{
		{"sqlite", func(t *testing.T) (string, *sql.DB) {
			path := filepath.Join(t.TempDir(), "site.db")
			return path, openSQLite(t, path)
		}, `json_extract(meta, '$.run_id')`,
			`SELECT COUNT(*) FROM river_job WHERE state = 'running' AND json(attempted_by) LIKE '%%/%d"%%'`},
		{"postgres", func(t *testing.T) (string, *sql.DB) {
			dsn := pgtest.Schema(t, "contentgen_kill_", "the server kill test on PostgreSQL")
			db, err := sql.Open("pgx", dsn)
			require.NoError(t, err)
			return dsn, db
		}, `(meta::jsonb ->> 'run_id')`,
			`SELECT COUNT(*) FROM river_job WHERE state = 'running' AND EXISTS (SELECT 1 FROM unnest(attempted_by) a WHERE a LIKE '%%/%d')`},
	} {
		t.Run(e.name, func(t *testing.T) {
			rng := mathrand.New(mathrand.NewPCG(seed, 3))
			dbFlag, check := e.open(t)
			t.Cleanup(func() { check.Close() })
			flags := []string{"-workers", "2", "-rescue-after", killRescue.String()}
			var p *serverProc
			t.Cleanup(func() {
				if p != nil {
					p.kill()
				}
			})
			p = startServer(t, bin, dbFlag, flags...)
			addr := p.addr

			start := time.Now()
			body := fmt.Sprintf(`{"kind":"posts","count":%d,"batch_size":%d,"set_featured_image":false,"auto_comments":true,"comments_per_post_min":2,"comments_per_post_max":2}`, total, batch)
			id := p.mustCall(t, "POST", "/runs", body)["id"].(string)
			// The deadline only guards against a hang.
			ctx, cancel := context.WithTimeout(t.Context(), time.Duration(30+total/200)*time.Minute)
			defer cancel()
			events := func() string { return p.base + "/runs/" + id + "/events" }
			writing := func(pid int) bool {
				return count(t, check, fmt.Sprintf(e.running, pid)) > 0
			}
			// counted checks, while no server runs, that the site holds
			// exactly the posts the run counted, each tracked once.
			counted := func(after string) int64 {
				var done int64
				require.NoError(t, check.QueryRow(`SELECT done FROM runs WHERE id = '`+id+`'`).Scan(&done))
				posts := count(t, check, `SELECT COUNT(*) FROM posts p JOIN meta m ON m.kind = 'post' AND m.object_id = p.id AND m.meta_key = '_svc_generated'`)
				require.Equal(t, done, posts, "%s: the posts in the site are those the run counted", after)
				for _, pr := range trackingProblems(t, check) {
					t.Errorf("%s: %s", after, pr)
				}
				return done
			}

			killed, midBatch := 0, 0
			var last runRecord
			for ; killed < kills; killed++ {
				lo, hi := int64(killed*total/(kills+1)), int64((killed+1)*total/(kills+1))
				target := max(last.Done+1, lo+1+rng.Int64N(max(1, hi-lo)))
				r, err := followRun(ctx, events(), testPassword, func(r runRecord) bool { return r.Done >= target })
				require.NoError(t, err, "following the run to %d posts", target)
				last = r
				if r.final() {
					break
				}
				pid := p.cmd.Process.Pid
				if killed%2 == 1 {
					for !writing(pid) {
						require.NoError(t, ctx.Err(), "the server never took a batch")
					}
				}
				p.kill()
				if writing(pid) {
					midBatch++
				}
				last.Done = counted(fmt.Sprintf("after kill %d", killed+1))
				p = startServerAt(t, addr, bin, dbFlag, flags...)
			}
			run, err := followRun(ctx, events(), testPassword, func(runRecord) bool { return false })
			require.NoError(t, err)
			elapsed := time.Since(start)
			p.stop(t)
			p = nil

			comments := count(t, check, `SELECT COUNT(*) FROM comments c JOIN meta m ON m.kind = 'comment' AND m.object_id = c.id AND m.meta_key = '_svc_generated'`)
			t.Logf("%s: %d posts and %d comments in %d batches of %d, %d kills (%d while a batch was being written), in %v; %d failed attempts; workers %d",
				e.name, run.Done, comments, run.Batches, batch, killed, midBatch, elapsed.Round(time.Second), run.Errors, len(run.Workers))

			require.Equal(t, "succeeded", run.Status, "%+v", run)
			require.EqualValues(t, total, run.Done)
			require.Equal(t, run.Batches, run.BatchesDone)
			var items int64
			for _, w := range run.Workers {
				items += w.Items
			}
			require.EqualValues(t, total, items, "every batch is counted once")
			require.EqualValues(t, total, counted("at the end"), "exactly the run's posts")
			for _, pr := range trackingProblems(t, check) {
				t.Errorf("at the end: %s", pr)
			}
			require.EqualValues(t, total, count(t, check, `SELECT COUNT(DISTINCT content_id) FROM history WHERE content_type = 'post'`))
			require.EqualValues(t, total, count(t, check, `SELECT COUNT(*) FROM history WHERE content_type = 'post'`), "one history entry a post")
			require.EqualValues(t, 2*total, comments, "two comments a post")
			require.EqualValues(t, 2*total, count(t, check, `SELECT COUNT(*) FROM history WHERE content_type = 'comment'`), "one history entry a comment")
			require.Zero(t, count(t, check, `SELECT COUNT(*) FROM posts p JOIN meta m ON m.kind = 'post' AND m.object_id = p.id AND m.meta_key = '_svc_generated'
				WHERE (SELECT COUNT(*) FROM comments c WHERE c.post_id = p.id) <> 2`), "each post has its two comments")
			// A batch is one generate call, whose entries share a run_id:
			// as many as the run has batches, each whole.
			require.EqualValues(t, run.Batches, count(t, check, `SELECT COUNT(DISTINCT `+e.runID+`) FROM history WHERE content_type = 'post'`), "each batch made once")
			short := int64(0)
			if total%batch != 0 {
				short = 1
			}
			require.Equal(t, short, count(t, check, fmt.Sprintf(`SELECT COUNT(*) FROM (SELECT %s AS r, COUNT(*) AS n FROM history WHERE content_type = 'post' GROUP BY 1) b WHERE b.n <> %d`, e.runID, batch)),
				"every batch whole but the last")
			require.EqualValues(t, run.Batches, count(t, check, `SELECT COUNT(*) FROM run_batches WHERE run_id = '`+id+`'`))
			if killed > 0 {
				require.Greater(t, len(run.Workers), 1, "the killed servers' batches stay theirs")
			}
		})
	}
}
