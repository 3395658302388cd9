//go:build unix

package runs_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/runs"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// Environment of the crash test: the size of its run and the number of
// kills (defaults 2000 and 3), and, set by the test for its child
// processes, the database they work on.
const (
	crashPostsEnv  = "CONTENTGEN_CRASH_POSTS"
	crashKillsEnv  = "CONTENTGEN_CRASH_KILLS"
	childDSNEnv    = "CONTENTGEN_RUNS_CHILD_DSN"
	childSchemaEnv = "CONTENTGEN_RUNS_CHILD_SCHEMA"
)

// crashRescue is how long the child workers take a batch of a killed
// process to be lost: short, so that the test does not wait long.
const crashRescue = 5 * time.Second

// until follows run id until cond holds for it or it ends, and returns
// the run as it was then.
func until(t *testing.T, ctx context.Context, s *runs.Service, id string, cond func(*runs.Run) bool) *runs.Run {
	t.Helper()
	reached := errors.New("reached")
	var last *runs.Run
	err := s.Follow(ctx, id, func(r *runs.Run) error {
		last = r
		if cond(r) {
			return reached
		}
		return nil
	})
	if !errors.Is(err, reached) {
		require.NoError(t, err, "following the run")
	}
	return last
}

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	require.NoError(t, err, "%s must be a number", name)
	return n
}

// TestCrashChild is the worker process of TestRunSurvivesKills: it works
// on the runs of the database its environment names until it is killed.
func TestCrashChild(t *testing.T) {
	dsn := os.Getenv(childDSNEnv)
	if dsn == "" {
		t.Skip("a worker process of TestRunSurvivesKills; runs only as its child")
	}
	var o *sqlstore.Options
	if s := os.Getenv(childSchemaEnv); s != "" {
		o = &sqlstore.Options{Schema: s, MaxConns: 4}
	}
	db := openDB(t, dsn, o)
	seed := int64(7)
	gen, err := contentgen.New(db.Host(nil), nil, &contentgen.Config{Seed: &seed})
	require.NoError(t, err)
	s, err := runs.New(t.Context(), db, gen, &runs.Options{
		WorkerName: "child-" + strconv.Itoa(os.Getpid()), RescueAfter: crashRescue, PollInterval: 50 * time.Millisecond,
	})
	require.NoError(t, err)
	require.NoError(t, s.Start(t.Context()))
	select {} // until killed
}

// startChild starts a worker process (TestCrashChild) on the database of
// dsn and schema.
func startChild(t *testing.T, dsn, schema string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.timeout=10m")
	cmd.Env = append(os.Environ(), childDSNEnv+"="+dsn, childSchemaEnv+"="+schema)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	require.NoError(t, cmd.Start())
	return cmd
}

// TestRunSurvivesKills kills the worker process of a run with SIGKILL at
// random moments spread over the run, each after it made progress, and
// starts another: the
// run finishes with exactly its count of posts, each with one history
// entry, every batch done once.
func TestRunSurvivesKills(t *testing.T) {
	if testing.Short() {
		t.Skip("kills worker processes; not with -short")
	}
	total := envInt(t, crashPostsEnv, 2000)
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
			gen := site(t, db)
			ctx := t.Context()
			front := service(t, db, gen, &runs.Options{Workers: runs.NoWorkers})
			r, err := front.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: int64(total), BatchSize: 200,
				Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false), Seed: new(int64(11))}})
			require.NoError(t, err)

			start := func() *exec.Cmd { return startChild(t, dsn, schema) }
			// get reads the run as the front process sees it.
			get := func() *runs.Run {
				r, err := front.Get(ctx, r.ID)
				require.NoError(t, err)
				return r
			}
			// writing reports whether the killed worker pid was writing a
			// batch: its job stays running until a worker rescues it.
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
			// The run's deadline only guards against a hang.
			follow, cancel := context.WithTimeout(ctx, 5*time.Minute)
			defer cancel()
			killed, midBatch := 0, 0
			for ; killed < kills; killed++ {
				// Kills spread over the run: follow it until the child
				// has committed a batch and the run reached its share,
				// then kill the child there, or, every other time,
				// once it is writing the next batch.
				before := get().Done
				target := max(before+1, int64((killed+1)*total/(kills+1)))
				child := start()
				until(t, follow, front, r.ID, func(r *runs.Run) bool { return r.Done >= target })
				if killed%2 == 1 {
					for !writing(child.Process.Pid) && !get().Status.Final() {
						require.NoError(t, follow.Err(), "the child never took a batch")
					}
				}
				require.NoError(t, child.Process.Signal(syscall.SIGKILL))
				_ = child.Wait()
				if writing(child.Process.Pid) {
					midBatch++
				}
				if get().Status.Final() {
					break
				}
			}
			child := start()
			t.Cleanup(func() {
				_ = child.Process.Signal(syscall.SIGKILL)
				_ = child.Wait()
			})
			var last *runs.Run
			require.NoError(t, front.Follow(follow, r.ID, func(r *runs.Run) error { last = r; return nil }))
			t.Logf("%d posts, %d kills (%d while writing a batch), %d failed attempts, workers %+v", total, killed, midBatch, last.Errors, last.Workers)

			require.Equal(t, runs.StatusSucceeded, last.Status)
			require.EqualValues(t, total, last.Done)
			require.EqualValues(t, last.Batches, last.BatchesDone)
			var items int64
			for _, w := range last.Workers {
				items += w.Items
			}
			require.EqualValues(t, total, items, "every batch is counted once")
			require.Equal(t, total, generatedPosts(t, db), "exactly the run's posts, each with one history entry")
			if killed > 0 {
				require.Greater(t, len(last.Workers), 1, "the killed workers' batches stay theirs")
			}
		})
	}
}

// TestTwoWorkersShareARun: two worker processes on one PostgreSQL
// database both work on one run; when one is killed, the other finishes
// it, every post made once.
func TestTwoWorkersShareARun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker processes; not with -short")
	}
	dsn, schema := freshPostgres(t)
	db := openDB(t, dsn, &sqlstore.Options{Schema: schema, MaxConns: 4})
	gen := site(t, db)
	ctx := t.Context()
	front := service(t, db, gen, &runs.Options{Workers: runs.NoWorkers})
	const total = 3000
	r, err := front.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: total, BatchSize: 50,
		Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false), AutoTaxonomies: new(false)}})
	require.NoError(t, err)
	// The deadline only guards against a hang.
	follow, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	// workersWithBatches follows the run until n workers have done
	// batches of it, or it ended.
	workersWithBatches := func(n int) *runs.Run {
		return until(t, follow, front, r.ID, func(r *runs.Run) bool { return len(r.Workers) >= n })
	}
	a := startChild(t, dsn, schema)
	workersWithBatches(1)
	b := startChild(t, dsn, schema)
	t.Cleanup(func() {
		_ = b.Process.Signal(syscall.SIGKILL)
		_ = b.Wait()
	})
	shared := workersWithBatches(2)
	require.Len(t, shared.Workers, 2, "both processes took batches of the run")
	require.NoError(t, a.Process.Signal(syscall.SIGKILL))
	_ = a.Wait()

	var last *runs.Run
	require.NoError(t, front.Follow(follow, r.ID, func(r *runs.Run) error { last = r; return nil }))
	t.Logf("workers %+v", last.Workers)
	require.Equal(t, runs.StatusSucceeded, last.Status)
	require.EqualValues(t, total, last.Done)
	require.Len(t, last.Workers, 2)
	require.Equal(t, total, generatedPosts(t, db), "exactly the run's posts, each with one history entry")
}
