package runs_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/runs"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// sqlLedger is a runs.Ledger over a SQLite database of its own, as a
// WordPress site's database is one beside the run's: the content of the
// runs goes there, and so do the records of their batches.
type sqlLedger struct{ db *sqlstore.DB }

func newSQLLedger(t *testing.T, db *sqlstore.DB) *sqlLedger {
	t.Helper()
	_, err := db.WritePool().ExecContext(t.Context(), `CREATE TABLE site_run_batches (
		run_id TEXT NOT NULL, batch BIGINT NOT NULL, worker TEXT NOT NULL, items INTEGER NOT NULL, warnings TEXT NOT NULL,
		PRIMARY KEY (run_id, batch))`)
	require.NoError(t, err)
	return &sqlLedger{db: db}
}

func (l *sqlLedger) LedgerID() string { return "sqlLedger " + l.db.TablePrefix() }

func (l *sqlLedger) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	return l.db.InTx(ctx, fn)
}

func (l *sqlLedger) RecordRunBatch(ctx context.Context, run string, batch int64, worker string, items int, warnings []string) (bool, error) {
	w, _ := json.Marshal(warnings)
	var n int64
	err := l.db.InTxWith(ctx, func(ctx context.Context, q sqlstore.Querier) error {
		res, err := q.ExecContext(ctx, `INSERT INTO site_run_batches (run_id, batch, worker, items, warnings) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			run, batch, worker, items, string(w))
		if err == nil {
			n, err = res.RowsAffected()
		}
		return err
	})
	return n == 1, err
}

func (l *sqlLedger) RunBatches(ctx context.Context, run string, from, to int64, fn func(int64, string, int, []string) error) error {
	return l.db.Querier(ctx).QueryEach(ctx, `SELECT batch, worker, items, warnings FROM site_run_batches WHERE run_id = ? AND batch >= ? AND batch < ? ORDER BY batch`,
		[]any{run, from, to}, func(r *sql.Rows) error {
			var b int64
			var worker, w string
			var items int
			if err := r.Scan(&b, &worker, &items, &w); err != nil {
				return err
			}
			var warnings []string
			if err := json.Unmarshal([]byte(w), &warnings); err != nil {
				return err
			}
			return fn(b, worker, items, warnings)
		})
}

// batches returns the number of recorded batches of run and their items.
func (l *sqlLedger) batches(t *testing.T, run string) (n, items int64) {
	t.Helper()
	require.NoError(t, l.db.ReadPool().QueryRowContext(t.Context(),
		`SELECT COUNT(*), COALESCE(SUM(items), 0) FROM site_run_batches WHERE run_id = ?`, run).Scan(&n, &items))
	return n, items
}

// hookLedger calls after with a batch's number once the site's
// transaction that recorded it committed, before the run counts it.
type hookLedger struct {
	runs.Ledger
	after   func(batch int64)
	mu      sync.Mutex
	pending map[context.Context]int64
}

func newHookLedger(l runs.Ledger, after func(batch int64)) *hookLedger {
	return &hookLedger{Ledger: l, after: after, pending: map[context.Context]int64{}}
}

func (l *hookLedger) RecordRunBatch(ctx context.Context, run string, batch int64, worker string, items int, warnings []string) (bool, error) {
	ok, err := l.Ledger.RecordRunBatch(ctx, run, batch, worker, items, warnings)
	l.mu.Lock()
	l.pending[ctx] = batch
	l.mu.Unlock()
	return ok, err
}

func (l *hookLedger) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	var inner context.Context
	err := l.Ledger.InTx(ctx, func(ctx context.Context) error { inner = ctx; return fn(ctx) })
	l.mu.Lock()
	b, recorded := l.pending[inner]
	delete(l.pending, inner)
	l.mu.Unlock()
	if err == nil && recorded {
		l.after(b)
	}
	return err
}

// TestRunLedger: a run whose content goes to another database than its
// jobs (a Ledger, as a WordPress site's) makes every post once, with one
// history entry, records each batch once in that database and counts it
// once in the run, also when a worker dies between the two commits of a
// batch.
func TestRunLedger(t *testing.T) {
	for _, e := range engines() {
		t.Run(e.name, func(t *testing.T) {
			jobs := e.open(t)
			content := openDB(t, filepath.Join(t.TempDir(), "site.db"), nil)
			gen := site(t, content)
			ledger := newSQLLedger(t, content)
			// Batches 1 and 3 die, as a process killed between the two
			// commits of a batch would, right after the site's
			// transaction committed: the job is left without its count,
			// and River runs it again.
			var mu sync.Mutex
			crash, crashed := map[int64]bool{1: true, 3: true}, []int64{}
			crashing := newHookLedger(ledger, func(b int64) {
				mu.Lock()
				die := crash[b]
				delete(crash, b)
				if die {
					crashed = append(crashed, b)
				}
				mu.Unlock()
				if die {
					panic("the process dies between the commit of the site and the one of the run")
				}
			})
			s := service(t, jobs, gen, &runs.Options{Workers: 2, WorkerName: "w1", Ledger: crashing})
			start(t, s)
			r, err := s.Submit(t.Context(), runs.Request{Kind: runs.KindPosts, Count: 53, BatchSize: 10,
				Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false), Seed: new(int64(3))}})
			require.NoError(t, err)

			r = follow(t, s, r.ID)
			require.Equal(t, runs.StatusSucceeded, r.Status)
			require.EqualValues(t, 53, r.Done)
			require.EqualValues(t, 6, r.BatchesDone)
			require.Equal(t, []runs.Worker{{Name: "w1", Batches: 6, Items: 53}}, r.Workers)
			mu.Lock()
			require.ElementsMatch(t, []int64{1, 3}, crashed, "two batches died between their commits")
			mu.Unlock()
			n, items := ledger.batches(t, r.ID)
			require.EqualValues(t, 6, n, "each batch recorded once in the site")
			require.EqualValues(t, 53, items)
			require.Equal(t, 53, generatedPosts(t, content), "each post made once, with one history entry")
			var jobPosts int
			require.NoError(t, jobs.ReadPool().QueryRowContext(t.Context(), `SELECT COUNT(*) FROM history`).Scan(&jobPosts))
			require.Zero(t, jobPosts, "nothing is made in the run's database")
		})
	}
}

// TestRunLedgerReconciles: a batch the site recorded whose job will not
// run (its run was cancelled, then resumed) is counted from the site's
// record, not made again; a run whose batches the site holds all is
// succeeded when resumed.
func TestRunLedgerReconciles(t *testing.T) {
	jobs := openDB(t, filepath.Join(t.TempDir(), "runs.db"), nil)
	content := openDB(t, filepath.Join(t.TempDir(), "site.db"), nil)
	gen := site(t, content)
	ledger := newSQLLedger(t, content)
	ctx := t.Context()
	front := service(t, jobs, gen, &runs.Options{Workers: runs.NoWorkers, Ledger: ledger})
	r, err := front.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: 25, BatchSize: 10, Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false)}})
	require.NoError(t, err)
	// Batch 1 committed in the site by a worker that died before it
	// counted it.
	require.NoError(t, ledger.InTx(ctx, func(ctx context.Context) error {
		_, err := ledger.RecordRunBatch(ctx, r.ID, 1, "gone", 10, []string{"a warning"})
		return err
	}))
	r, err = front.Cancel(ctx, r.ID)
	require.NoError(t, err)
	require.Equal(t, runs.StatusCancelled, r.Status)
	require.EqualValues(t, 10, r.Done, "the site's batch counts, though its job does not run")
	require.Equal(t, []runs.Worker{{Name: "gone", Batches: 1, Items: 10}}, r.Workers)
	require.Equal(t, []string{"a warning"}, r.Warnings)

	w := service(t, jobs, gen, &runs.Options{Workers: 1, WorkerName: "w", Ledger: ledger})
	start(t, w)
	_, err = w.Resume(ctx, r.ID)
	require.NoError(t, err)
	r = follow(t, w, r.ID)
	require.Equal(t, runs.StatusSucceeded, r.Status)
	require.EqualValues(t, 25, r.Done)
	require.EqualValues(t, 3, r.BatchesDone)
	require.Equal(t, 15, generatedPosts(t, content), "batch 1 is not made again")

	// A failed run whose batches the site holds all is succeeded when
	// resumed, with nothing to queue.
	r2, err := front.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: 5, BatchSize: 5, Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false)}})
	require.NoError(t, err)
	_, err = front.Cancel(ctx, r2.ID)
	require.NoError(t, err)
	require.NoError(t, ledger.InTx(ctx, func(ctx context.Context) error {
		_, err := ledger.RecordRunBatch(ctx, r2.ID, 0, "gone", 5, nil)
		return err
	}))
	r2, err = front.Resume(ctx, r2.ID)
	require.NoError(t, err)
	require.Equal(t, runs.StatusSucceeded, r2.Status)
	require.EqualValues(t, 5, r2.Done)
}

// TestRunsOfTwoSites: the runs of two sites share one database of jobs
// (the first site's own, the second's content elsewhere, as a WordPress
// site's is): each site's workers take only its runs' batches, also of a
// run resumed by the other site's service, so every post goes to the site
// its run was submitted for.
func TestRunsOfTwoSites(t *testing.T) {
	jobs := openDB(t, filepath.Join(t.TempDir(), "runs.db"), nil)
	content := openDB(t, filepath.Join(t.TempDir(), "site.db"), nil)
	ledger := newSQLLedger(t, content)
	ctx := t.Context()
	own := service(t, jobs, site(t, jobs), &runs.Options{Workers: 2, WorkerName: "own"})
	otherGen := site(t, content)
	other := service(t, jobs, otherGen, &runs.Options{Workers: 2, WorkerName: "other", Ledger: ledger})
	start(t, own)
	start(t, other)
	posts := &contentgen.PostsRequest{SetFeaturedImage: new(false)}
	a, err := own.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: 30, BatchSize: 5, Posts: posts})
	require.NoError(t, err)
	b, err := other.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: 40, BatchSize: 5, Posts: posts})
	require.NoError(t, err)
	a, b = follow(t, own, a.ID), follow(t, other, b.ID)
	require.Equal(t, runs.StatusSucceeded, a.Status)
	require.Equal(t, runs.StatusSucceeded, b.Status)
	require.Equal(t, []runs.Worker{{Name: "own", Batches: 6, Items: 30}}, a.Workers)
	require.Equal(t, []runs.Worker{{Name: "other", Batches: 8, Items: 40}}, b.Workers)
	require.Equal(t, 30, generatedPosts(t, jobs))
	require.Equal(t, 40, generatedPosts(t, content))

	// Cancelled before it ran (or just after the second site's workers
	// took its batches), resumed through the first site's service: its
	// batches still go to the second site.
	front := service(t, jobs, otherGen, &runs.Options{Workers: runs.NoWorkers, Ledger: ledger})
	c, err := front.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: 10, BatchSize: 5, Posts: posts})
	require.NoError(t, err)
	_, err = front.Cancel(ctx, c.ID)
	require.NoError(t, err)
	_, err = own.Resume(ctx, c.ID)
	require.NoError(t, err)
	c = follow(t, other, c.ID)
	require.Equal(t, runs.StatusSucceeded, c.Status)
	require.Equal(t, []runs.Worker{{Name: "other", Batches: 2, Items: 10}}, c.Workers)
	require.Equal(t, 30, generatedPosts(t, jobs))
	require.Equal(t, 50, generatedPosts(t, content))
}

// holdLedger holds each batch's transaction of the site until release is
// closed, having sent the batch's run on took: the worker read the run
// before, so the test can stop the run while the batch is on its way.
type holdLedger struct {
	runs.Ledger
	took    chan string
	release chan struct{}
}

func (l *holdLedger) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	l.took <- "batch"
	select {
	case <-l.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	return l.Ledger.InTx(ctx, fn)
}

// TestRunResumedWithItsBatchesDone: the batches of a run whose content
// goes to a Ledger, taken by workers just before the run was cancelled,
// are made and counted after it (their content exists), which leaves the
// cancelled run with every batch done and no job; resumed, through a
// service of another site, it is succeeded at once, with nothing queued.
func TestRunResumedWithItsBatchesDone(t *testing.T) {
	jobs := openDB(t, filepath.Join(t.TempDir(), "runs.db"), nil)
	content := openDB(t, filepath.Join(t.TempDir(), "site.db"), nil)
	ledger := newSQLLedger(t, content)
	ctx := t.Context()
	gen := site(t, content)
	hold := &holdLedger{Ledger: ledger, took: make(chan string, 2), release: make(chan struct{})}
	w := service(t, jobs, gen, &runs.Options{Workers: 2, WorkerName: "w", Ledger: hold})
	require.NoError(t, w.Start(ctx))
	own := service(t, jobs, site(t, jobs), &runs.Options{Workers: runs.NoWorkers})
	r, err := w.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: 10, BatchSize: 5, Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false)}})
	require.NoError(t, err)
	<-hold.took
	<-hold.took
	r, err = w.Cancel(ctx, r.ID)
	require.NoError(t, err)
	require.Equal(t, runs.StatusCancelled, r.Status)
	close(hold.release)
	// Stop waits for the two batches to finish.
	require.NoError(t, w.Stop(ctx))
	r, err = w.Get(ctx, r.ID)
	require.NoError(t, err)
	require.Equal(t, runs.StatusCancelled, r.Status, "a batch counted after the cancel does not finish the run")
	require.EqualValues(t, 10, r.Done)

	r, err = own.Resume(ctx, r.ID)
	require.NoError(t, err)
	require.Equal(t, runs.StatusSucceeded, r.Status)
	require.False(t, r.EndedAt.IsZero())
	require.EqualValues(t, 10, r.Done)
	require.Zero(t, queuedJobs(t, jobs, r.ID))
	require.Equal(t, 10, generatedPosts(t, content))
}
