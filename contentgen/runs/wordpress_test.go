//go:build unix

package runs_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/runs"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/contentgen/wphost"
	"github.com/contentgen/contentgen/internal/wptest"
)

// Environment of the WordPress crash test's child processes, set by the
// test: the run's database, and whether the child stops right after the
// site's commit of its first batch (and says so on file descriptor 3).
const (
	wpChildDSNEnv    = "CONTENTGEN_RUNS_WP_CHILD_DSN"
	wpChildSchemaEnv = "CONTENTGEN_RUNS_WP_CHILD_SCHEMA"
	wpChildStallEnv  = "CONTENTGEN_RUNS_WP_CHILD_STALL"
)

// openWordPress opens the test site (wptest), closed when the test ends.
func openWordPress(t *testing.T, s wptest.Site) *wphost.Site {
	t.Helper()
	wp, err := wphost.Open(context.Background(), &wphost.Options{URL: s.URL, User: s.User, AppPassword: s.AppPassword, DSN: s.DB})
	require.NoError(t, err)
	t.Cleanup(func() { _ = wp.Close() })
	return wp
}

// wordpress takes the test site for t and returns it open, with a
// Generator over it, with no generated content at the start nor the end.
func wordpress(t *testing.T) (*wphost.Site, *contentgen.Generator) {
	t.Helper()
	s := wptest.Get(t, wptest.EnvDB)
	wptest.Exclusive(t, s)
	wp := openWordPress(t, s)
	seed := int64(7)
	gen, err := contentgen.New(wp.Host(), nil, &contentgen.Config{Seed: &seed})
	require.NoError(t, err)
	_, err = gen.DeleteAll(t.Context())
	require.NoError(t, err)
	t.Cleanup(func() {
		_, err := gen.DeleteAll(context.Background())
		require.NoError(t, err, "deleting the run's posts")
	})
	return wp, gen
}

// wpCount runs a query of one integer on the site's database.
func wpCount(t *testing.T, wp *wphost.Site, query string, args ...any) int64 {
	t.Helper()
	var n int64
	require.NoError(t, wp.DB().ReadPool().QueryRowContext(context.Background(), query, args...).Scan(&n), query)
	return n
}

// checkWordPressRun checks a finished run of total posts into the site:
// succeeded and counted once, exactly total generated posts in
// WordPress, each with one history entry, and each of the run's batches
// recorded once in the site with the items the run counted.
func checkWordPressRun(t *testing.T, wp *wphost.Site, r *runs.Run, total int64) {
	t.Helper()
	require.Equal(t, runs.StatusSucceeded, r.Status)
	require.EqualValues(t, total, r.Done)
	require.Equal(t, r.Batches, r.BatchesDone)
	var items int64
	for _, w := range r.Workers {
		items += w.Items
	}
	require.EqualValues(t, total, items, "every batch is counted once")
	require.EqualValues(t, total, wpCount(t, wp, `SELECT COUNT(*) FROM wp_posts p JOIN wp_postmeta m ON m.post_id = p.ID AND m.meta_key = ?`, contentgen.MarkerKey),
		"exactly the run's posts in WordPress")
	require.EqualValues(t, total, wpCount(t, wp, `SELECT COUNT(*) FROM wp_contentgen_history WHERE content_type = 'post'`), "one history entry a post")
	require.EqualValues(t, total, wpCount(t, wp, `SELECT COUNT(DISTINCT h.content_id) FROM wp_contentgen_history h
		JOIN wp_postmeta m ON m.post_id = h.content_id AND m.meta_key = ? WHERE h.content_type = 'post'`, contentgen.MarkerKey),
		"each history entry is a generated post of its own")
	require.EqualValues(t, r.Batches, wpCount(t, wp, `SELECT COUNT(*) FROM wp_contentgen_run_batches WHERE run_id = ?`, r.ID), "each batch recorded once in the site")
	require.EqualValues(t, total, wpCount(t, wp, `SELECT COALESCE(SUM(items), 0) FROM wp_contentgen_run_batches WHERE run_id = ?`, r.ID))
	for _, w := range r.Workers {
		require.EqualValues(t, w.Items, wpCount(t, wp, `SELECT COALESCE(SUM(items), 0) FROM wp_contentgen_run_batches WHERE run_id = ? AND worker = ?`, r.ID, w.Name),
			"the site and the run agree on what worker %s made", w.Name)
	}
}

// TestRunWordPress: a run into a real WordPress site written through its
// database, with its jobs in SQLite or PostgreSQL, makes its posts once
// with one history entry each, records each batch once in the site, and
// runs nothing twice when a worker dies between the site's commit of a
// batch and the run's.
func TestRunWordPress(t *testing.T) {
	wp, gen := wordpress(t)
	for _, e := range engines() {
		t.Run(e.name, func(t *testing.T) {
			jobs := e.open(t)
			var crashed atomic.Bool
			ledger := newHookLedger(wp, func(b int64) {
				if b == 2 && crashed.CompareAndSwap(false, true) {
					panic("the process dies between the commit of the site and the one of the run")
				}
			})
			s := service(t, jobs, gen, &runs.Options{Workers: 1, WorkerName: "w1", Ledger: ledger})
			start(t, s)
			r, err := s.Submit(t.Context(), runs.Request{Kind: runs.KindPosts, Count: 230, BatchSize: 50,
				Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false), Seed: new(int64(3))}})
			require.NoError(t, err)
			r = follow(t, s, r.ID)
			require.True(t, crashed.Load(), "batch 2 died between its commits")
			checkWordPressRun(t, wp, r, 230)
			_, err = gen.DeleteAll(t.Context())
			require.NoError(t, err)
		})
	}
}

// TestWordPressCrashChild is the worker process of
// TestRunWordPressSurvivesKills: it works on the runs of the database its
// environment names, into the test site, until it is killed.
func TestWordPressCrashChild(t *testing.T) {
	dsn := os.Getenv(wpChildDSNEnv)
	if dsn == "" {
		t.Skip("a worker process of TestRunWordPressSurvivesKills; runs only as its child")
	}
	var o *sqlstore.Options
	if s := os.Getenv(wpChildSchemaEnv); s != "" {
		o = &sqlstore.Options{Schema: s, MaxConns: 4}
	}
	jobs := openDB(t, dsn, o)
	wp := openWordPress(t, wptest.Get(t, wptest.EnvDB))
	seed := int64(7)
	gen, err := contentgen.New(wp.Host(), nil, &contentgen.Config{Seed: &seed})
	require.NoError(t, err)
	var ledger runs.Ledger = wp
	if os.Getenv(wpChildStallEnv) != "" {
		// Say which batch the site committed, then stop there, before
		// the run counts it, until killed.
		told := os.NewFile(3, "told")
		ledger = newHookLedger(wp, func(b int64) {
			_, _ = told.WriteString(strconv.FormatInt(b, 10) + "\n")
			select {}
		})
	}
	s, err := runs.New(t.Context(), jobs, gen, &runs.Options{
		WorkerName: "child-" + strconv.Itoa(os.Getpid()), RescueAfter: crashRescue, PollInterval: 50 * time.Millisecond, Ledger: ledger,
	})
	require.NoError(t, err)
	require.NoError(t, s.Start(t.Context()))
	select {} // until killed
}

// wpChild is a worker process of the WordPress crash test.
type wpChild struct {
	cmd *exec.Cmd
	// told gives the batch a stalling child stopped after, then closes.
	told <-chan string
}

// startWPChild starts a worker process (TestWordPressCrashChild) on the
// run's database of dsn and schema; stall makes it stop after the site's
// commit of its first batch.
func startWPChild(t *testing.T, dsn, schema string, stall bool) *wpChild {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestWordPressCrashChild$", "-test.timeout=30m")
	cmd.Env = append(os.Environ(), wpChildDSNEnv+"="+dsn, wpChildSchemaEnv+"="+schema)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	c := &wpChild{cmd: cmd}
	if stall {
		r, w, err := os.Pipe()
		require.NoError(t, err)
		cmd.Env = append(cmd.Env, wpChildStallEnv+"=1")
		cmd.ExtraFiles = []*os.File{w}
		told := make(chan string, 1)
		go func() {
			defer r.Close()
			line, _ := bufio.NewReader(r).ReadString('\n')
			told <- line
			close(told)
		}()
		c.told = told
		require.NoError(t, cmd.Start())
		w.Close()
		return c
	}
	require.NoError(t, cmd.Start())
	return c
}

func (c *wpChild) kill() {
	_ = c.cmd.Process.Signal(syscall.SIGKILL)
	_ = c.cmd.Wait()
}

// TestRunWordPressSurvivesKills kills the worker process of a run into a
// real WordPress site with SIGKILL at moments spread over the run: once
// it committed batches, while it writes one, and between the site's
// commit of a batch and the run's (the child stops there and says so);
// another one then takes over. The run finishes with exactly its count
// of posts in WordPress, each with one history entry, each batch made,
// recorded and counted once. CONTENTGEN_CRASH_POSTS and
// CONTENTGEN_CRASH_KILLS scale it (default 1000 posts, 3 kills).
func TestRunWordPressSurvivesKills(t *testing.T) {
	if testing.Short() {
		t.Skip("kills worker processes; not with -short")
	}
	wp, gen := wordpress(t)
	total := envInt(t, crashPostsEnv, 1000)
	kills := envInt(t, crashKillsEnv, 3)
	for _, e := range []struct {
		name string
		open func(t *testing.T) (db *sqlstore.DB, dsn, schema string)
	}{
		{"sqlite", func(t *testing.T) (*sqlstore.DB, string, string) {
			dsn := filepath.Join(t.TempDir(), "runs.db")
			return openDB(t, dsn, nil), dsn, ""
		}},
		{"postgres", func(t *testing.T) (*sqlstore.DB, string, string) {
			dsn, schema := freshPostgres(t)
			return openDB(t, dsn, &sqlstore.Options{Schema: schema, MaxConns: 4}), dsn, schema
		}},
	} {
		t.Run(e.name, func(t *testing.T) {
			db, dsn, schema := e.open(t)
			ctx := t.Context()
			front := service(t, db, gen, &runs.Options{Workers: runs.NoWorkers, Ledger: wp})
			r, err := front.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: int64(total), BatchSize: 100,
				Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false), Seed: new(int64(11))}})
			require.NoError(t, err)
			get := func() *runs.Run {
				r, err := front.Get(ctx, r.ID)
				require.NoError(t, err)
				return r
			}
			writing := func(pid int) bool {
				q := "SELECT COUNT(*) FROM river_job WHERE state = 'running' AND json(attempted_by) LIKE ?"
				arg := `%"child-` + strconv.Itoa(pid) + `"%`
				if schema != "" {
					q = "SELECT COUNT(*) FROM river_job WHERE state = 'running' AND $1 = ANY(attempted_by)"
					arg = "child-" + strconv.Itoa(pid)
				}
				var n int
				require.NoError(t, db.ReadPool().QueryRowContext(ctx, q, arg).Scan(&n))
				return n > 0
			}
			siteBatches := func() int64 {
				return wpCount(t, wp, `SELECT COUNT(*) FROM wp_contentgen_run_batches WHERE run_id = ?`, r.ID)
			}
			// The deadline only guards against a hang.
			follow, cancel := context.WithTimeout(ctx, 20*time.Minute)
			defer cancel()
			killed, midBatch, between := 0, 0, 0
			for ; killed < kills; killed++ {
				before := get().Done
				target := max(before+1, int64((killed+1)*total/(kills+1)))
				var child *wpChild
				switch killed % 3 {
				case 0, 1:
					// Once the run reached its share; every other time
					// once the child is writing the next batch.
					child = startWPChild(t, dsn, schema, false)
					until(t, follow, front, r.ID, func(r *runs.Run) bool { return r.Done >= target })
					if killed%3 == 1 {
						for !writing(child.cmd.Process.Pid) && !get().Status.Final() {
							require.NoError(t, follow.Err(), "the child never took a batch")
						}
					}
				case 2:
					// Between the two commits of a batch.
					child = startWPChild(t, dsn, schema, true)
					var b string
					select {
					case b = <-child.told:
					case <-follow.Done():
						t.Fatal("the child never committed a batch")
					}
					require.NotEmpty(t, b, "the child stopped after a batch")
					require.Greater(t, siteBatches(), get().BatchesDone, "the site holds batch %s, which the run has not counted", b)
					between++
				}
				child.kill()
				if writing(child.cmd.Process.Pid) {
					midBatch++
				}
				if get().Status.Final() {
					break
				}
			}
			child := startWPChild(t, dsn, schema, false)
			t.Cleanup(child.kill)
			var last *runs.Run
			require.NoError(t, front.Follow(follow, r.ID, func(r *runs.Run) error { last = r; return nil }))
			t.Logf("%d posts into WordPress, %d kills (%d while a batch was running, %d between the site's commit and the run's), %d failed attempts, workers %+v",
				total, killed, midBatch, between, last.Errors, last.Workers)
			checkWordPressRun(t, wp, last, int64(total))
			if killed > 0 {
				require.Greater(t, len(last.Workers), 1, "the killed workers' batches stay theirs")
			}
			_, err = gen.DeleteAll(t.Context())
			require.NoError(t, err)
		})
	}
}
