package runs_test

import (
	"context"
	"database/sql"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/runs"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// turns records the batches each worker began (one transaction each) and
// lets a worker wait for the others.
type turns struct {
	mu      sync.Mutex
	began   map[string]map[*sql.Tx]bool
	changed chan struct{}
}

func newTurns() *turns {
	return &turns{began: map[string]map[*sql.Tx]bool{}, changed: make(chan struct{})}
}

// begin records that worker began the batch of tx and returns how many it
// began, and whether tx is new (not a write of a batch begun before).
func (tr *turns) begin(worker string, tx *sql.Tx) (int, bool) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.began[worker] == nil {
		tr.began[worker] = map[*sql.Tx]bool{}
	}
	if tr.began[worker][tx] {
		return len(tr.began[worker]), false
	}
	tr.began[worker][tx] = true
	close(tr.changed)
	tr.changed = make(chan struct{})
	return len(tr.began[worker]), true
}

// waitFor waits until worker began at least n batches, or ctx is done.
func (tr *turns) waitFor(ctx context.Context, worker string, n int) error {
	for {
		tr.mu.Lock()
		got, changed := len(tr.began[worker]), tr.changed
		tr.mu.Unlock()
		if got >= n {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		}
	}
}

// TestTwoServicesShareARun: two Services with a worker each, on one
// PostgreSQL database as two processes would be, share a run of 20
// batches: they take turns for their first five batches each (each waits
// at the start of its n-th batch until the other began its n-th), so
// each does at least a quarter of them; then one is stopped in the middle
// of a batch, and the other makes the rest, that batch included, every
// post once.
func TestTwoServicesShareARun(t *testing.T) {
	dsn, schema := freshPostgres(t)
	open := func() *sqlstore.DB { return openDB(t, dsn, &sqlstore.Options{Schema: schema, MaxConns: 4}) }
	dbA, dbB := open(), open()
	site(t, dbA)
	ctx := t.Context()
	const share = 5 // a quarter of the 20 batches
	tr := newTurns()
	stopping := make(chan struct{}) // a took its batch after its share
	worker := func(db *sqlstore.DB, name, other string) *runs.Service {
		host := &hookHost{Host: db.Host(nil), hook: func(ctx context.Context) error {
			var tx *sql.Tx
			if err := db.WithSQLTx(ctx, func(t *sql.Tx) error { tx = t; return nil }); err != nil {
				return err
			}
			n, first := tr.begin(name, tx)
			switch {
			case !first:
				return nil
			case n <= share:
				return tr.waitFor(ctx, other, n)
			case name == "a" && n == share+1:
				// Held until a is stopped, which cancels it.
				close(stopping)
				<-ctx.Done()
				return ctx.Err()
			}
			return nil
		}}
		gen, err := contentgen.New(host, nil, nil)
		require.NoError(t, err)
		s := service(t, db, gen, &runs.Options{Workers: 1, WorkerName: name})
		require.NoError(t, s.Start(ctx))
		return s
	}
	a := worker(dbA, "a", "b")
	b := worker(dbB, "b", "a")
	t.Cleanup(func() { _ = b.Stop(context.Background()) })

	r, err := b.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: 200, BatchSize: 10,
		Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false), AutoTaxonomies: new(false)}})
	require.NoError(t, err)
	require.EqualValues(t, 20, r.Batches)

	// The deadline only guards against a hang.
	wait, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	select {
	case <-stopping:
	case <-wait.Done():
		t.Fatal("worker a never began its batch after its share")
	}
	// Stopped with its batch half written: the batch is cancelled and
	// rolled back, and runs again on b.
	gone, stop := context.WithCancel(ctx)
	stop()
	require.NoError(t, a.Stop(gone))

	var last *runs.Run
	require.NoError(t, b.Follow(wait, r.ID, func(r *runs.Run) error { last = r; return nil }))
	t.Logf("workers %+v", last.Workers)
	require.Equal(t, runs.StatusSucceeded, last.Status)
	require.EqualValues(t, 200, last.Done)
	require.EqualValues(t, 20, last.BatchesDone)
	require.Len(t, last.Workers, 2)
	for _, w := range last.Workers {
		require.GreaterOrEqual(t, w.Batches, int64(share), "worker %s did a quarter of the batches", w.Name)
	}
	require.Equal(t, []string{"a", "b"}, []string{last.Workers[0].Name, last.Workers[1].Name})
	require.Equal(t, 200, generatedPosts(t, dbA), "every post once, with one history entry")
}
