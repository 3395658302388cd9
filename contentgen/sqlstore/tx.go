package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"
)

// txKey is the context key under which InTx passes its transaction.
type txKey struct{}

// txState is an open transaction of a DB, carried by the contexts InTx
// hands out. Its mutex serialises the statements of goroutines sharing
// the transaction, as one connection runs them.
type txState struct {
	db *DB
	tx *sql.Tx
	// conn is the connection tx runs on when the dialect needs the
	// driver's own connection (see rawConn), nil otherwise.
	conn *sql.Conn

	mu   sync.Mutex
	done bool
	sp   int // savepoints made so far, for unique names
	// pending are the numbers of the savepoints released whose RELEASE
	// has not been sent yet (see savepoint).
	pending []int
	// registry caches the configurations the Host reads from
	// host_registry, by kind, for the rest of the transaction; nil when
	// not read yet. Registering, and rolling back to a savepoint, clear
	// it.
	registry map[string][]string
	// afters run once the transaction has ended, or, for those
	// registered in a savepoint, once that savepoint is rolled back: file
	// changes that follow the rows they belong to.
	afters []afterTx
}

// afterTx is what to do once the rows written with it commit or roll
// back, and the savepoint it was registered in (nil: the transaction).
type afterTx struct {
	sp                   *savepointFrame
	onCommit, onRollback func()
}

// savepointFrame is a savepoint of a transaction, carried by the context
// its function receives, with the savepoint it is nested in.
type savepointFrame struct {
	ts     *txState
	parent *savepointFrame
}

// spKey is the context key of the innermost savepoint.
type spKey struct{}

// within reports whether f is sp or nested in it.
func (f *savepointFrame) within(sp *savepointFrame) bool {
	for ; f != nil; f = f.parent {
		if f == sp {
			return true
		}
	}
	return false
}

// after registers what to do once the rows written with ctx are kept for
// good (the transaction commits) or undone (the transaction, or the
// savepoint ctx carries, rolls back); without a transaction onCommit runs
// at once. A savepoint that rolls back runs the onRollback of what was
// registered in it at once and drops its onCommit: the transaction may
// still commit, without those rows.
func (db *DB) after(ctx context.Context, onCommit, onRollback func()) {
	ts := db.txOf(ctx)
	if ts == nil {
		if onCommit != nil {
			onCommit()
		}
		return
	}
	sp, _ := ctx.Value(spKey{}).(*savepointFrame)
	if sp != nil && sp.ts != ts {
		sp = nil
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.afters = append(ts.afters, afterTx{sp: sp, onCommit: onCommit, onRollback: onRollback})
}

// runAfters calls the onCommit (or onRollback) of afters in order.
func runAfters(afters []afterTx, committed bool) {
	for _, a := range afters {
		fn := a.onRollback
		if committed {
			fn = a.onCommit
		}
		if fn != nil {
			fn()
		}
	}
}

// dropAfters removes from the transaction what was registered in the
// savepoint sp (or one nested in it) and returns it. The caller holds
// ts.mu.
func (ts *txState) dropAfters(sp *savepointFrame) []afterTx {
	var dropped []afterTx
	keep := ts.afters[:0]
	for _, a := range ts.afters {
		if a.sp.within(sp) {
			dropped = append(dropped, a)
		} else {
			keep = append(keep, a)
		}
	}
	clear(ts.afters[len(keep):])
	ts.afters = keep
	return dropped
}

// txOf returns the live transaction of db that ctx carries, nil when it
// carries none (or one of another DB, or one that has ended).
func (db *DB) txOf(ctx context.Context) *txState {
	ts, _ := ctx.Value(txKey{}).(*txState)
	if ts == nil || ts.db != db {
		return nil
	}
	ts.mu.Lock()
	done := ts.done
	ts.mu.Unlock()
	if done {
		return nil
	}
	return ts
}

// InTx runs fn in one transaction of the database. Every store of db
// called with the context fn receives (or one derived from it) runs its
// statements in that transaction, so that, for example, a batch of content
// and its history entries are kept or undone together. When fn returns an
// error (returned as is), panics (the panic goes on) or ctx is done before
// the commit (ctx.Err() is returned), nothing fn wrote is kept.
//
// Called with a context that already carries a transaction of db, InTx
// runs fn in a savepoint of it: fn's writes are undone when fn fails, and
// kept only when the outer transaction commits.
//
// On SQLite the transaction holds the database's write lock from its
// start (BEGIN IMMEDIATE), so transactions never deadlock and run one at
// a time; reads outside them go on. On PostgreSQL and MySQL it runs at
// READ COMMITTED. InTx does not retry fn.
func (db *DB) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	if fn == nil {
		return errors.New("sqlstore: InTx with a nil function")
	}
	return db.inTx(ctx, func(ctx context.Context, _ querier) error { return fn(ctx) })
}

// InTxLocked is InTx holding, for the whole transaction, the lock called
// name of the database: calls with the same name on the same tables (the
// same PostgreSQL schema, SQLite file or MySQL database, and table
// prefix) run one after the other, also across processes; they see each
// other's commits. It suits work that must be done once, such as filling
// a new database: fn checks whether it is done, and does it when not.
// On PostgreSQL the lock is an advisory lock, on MySQL a row lock, on
// SQLite the write lock every transaction holds.
//
// Unlike InTx, a transaction PostgreSQL or MySQL aborted as a deadlock or
// serialisation failure is run again, so fn must
// only write through the stores of db with the context it receives.
// Called in a transaction, fn runs in a savepoint of it, and the lock is
// held until that transaction ends.
func (db *DB) InTxLocked(ctx context.Context, name string, fn func(ctx context.Context) error) error {
	if fn == nil {
		return errors.New("sqlstore: InTxLocked with a nil function")
	}
	key := lockKey(db.scope, "InTxLocked\x00"+name)
	return db.retry(ctx, func(ctx context.Context, q querier) error {
		if err := db.d.lockUnit(ctx, q, key); err != nil {
			return fail(ctx, "taking the lock "+strconv.Quote(name), err)
		}
		return fn(ctx)
	})
}

// maxWriteAttempts bounds the runs of a transaction that PostgreSQL or
// MySQL aborted as a deadlock, serialisation failure or lock wait
// timeout.
const maxWriteAttempts = 5

// Backoff before another run of an aborted transaction: a random pause
// of at least retryMinPause, at most twice as long as the one before,
// never above retryMaxPause, so that the transactions that collided do
// not collide again in step.
const (
	retryMinPause = 10 * time.Millisecond
	retryMaxPause = 200 * time.Millisecond
)

// retryPause returns the pause before run attempt+1 (attempt ≥ 1) of an
// aborted transaction.
func retryPause(attempt int) time.Duration {
	ceiling := min(retryMaxPause, retryMinPause<<attempt)
	return retryMinPause + rand.N(ceiling-retryMinPause+1)
}

// sleepCtx waits d, or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// retry runs fn in a transaction (a savepoint when ctx carries one of
// db). A transaction of its own that the engine aborted as a deadlock,
// serialisation failure or lock wait timeout is run again after a short
// random pause, up to maxWriteAttempts runs in all; the error of the last
// is returned. Only transactions of their own are run again: in a
// savepoint, the whole transaction is aborted, and its owner decides.
func (db *DB) retry(ctx context.Context, fn func(ctx context.Context, q querier) error) error {
	if db.txOf(ctx) != nil {
		return db.inTx(ctx, fn)
	}
	var err error
	for attempt := 1; ; attempt++ {
		if err = db.inTx(ctx, fn); err == nil || !db.d.isRetryable(err) || attempt == maxWriteAttempts {
			return err
		}
		pause := retryPause(attempt)
		db.log.Debug("sqlstore: transaction retried", "attempt", attempt, "pause", pause, "err", err)
		if serr := db.sleep(ctx, pause); serr != nil {
			return err
		}
	}
}

// inTx runs fn in a transaction (a savepoint when ctx carries one of db),
// passing the context that carries it and the querier to use.
func (db *DB) inTx(ctx context.Context, fn func(ctx context.Context, q querier) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if ts := db.txOf(ctx); ts != nil {
		return ts.savepoint(ctx, fn)
	}
	db.d.beforeTx(ctx, db.w)
	ts := &txState{db: db}
	if db.d.rawConn() {
		conn, err := db.w.Conn(ctx)
		if err != nil {
			return fail(ctx, "beginning a transaction", err)
		}
		defer conn.Close()
		ts.conn = conn
		ts.tx, err = conn.BeginTx(ctx, db.d.writeTx())
		if err != nil {
			return fail(ctx, "beginning a transaction", err)
		}
	} else {
		var err error
		if ts.tx, err = db.w.BeginTx(ctx, db.d.writeTx()); err != nil {
			return fail(ctx, "beginning a transaction", err)
		}
	}
	tx := ts.tx
	committed := false
	defer func() {
		if !committed {
			ts.end()
			_ = tx.Rollback()
			runAfters(ts.afters, false)
		}
	}()
	if err := fn(context.WithValue(ctx, txKey{}, ts), lockedTx{ts}); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ts.end()
	if err := tx.Commit(); err != nil {
		return fail(ctx, "committing", err)
	}
	committed = true
	runAfters(ts.afters, true)
	return nil
}

// end marks the transaction as ended.
func (ts *txState) end() {
	ts.mu.Lock()
	ts.done = true
	ts.mu.Unlock()
}

// savepoint runs fn in a savepoint of the transaction.
//
// The RELEASE of a savepoint is not sent at once: it is kept pending and
// sent with the next SAVEPOINT (in the same round trip on PostgreSQL),
// or left out where a later command ends the savepoint anyway: the
// commit or rollback of the transaction, or the release of, or rollback
// to, a savepoint it is nested in. Until then the statements that follow
// run in the savepoint, which changes nothing they do.
func (ts *txState) savepoint(ctx context.Context, fn func(ctx context.Context, q querier) error) error {
	ts.mu.Lock()
	ts.sp++
	n := ts.sp
	name := "cg_sp" + strconv.Itoa(n)
	err := ts.execSavepoints(ctx, "SAVEPOINT "+name)
	ts.mu.Unlock()
	if err != nil {
		return fail(ctx, "opening a savepoint", err)
	}
	parent, _ := ctx.Value(spKey{}).(*savepointFrame)
	if parent != nil && parent.ts != ts {
		parent = nil
	}
	frame := &savepointFrame{ts: ts, parent: parent}
	released := false
	defer func() {
		if !released {
			// Undo fn's writes even when ctx is done: the transaction
			// may go on.
			bg := context.WithoutCancel(ctx)
			ts.mu.Lock()
			ts.dropPendingAfter(n)
			ts.registry = nil
			_ = ts.execSavepoints(bg, "ROLLBACK TO SAVEPOINT "+name, "RELEASE SAVEPOINT "+name)
			undone := ts.dropAfters(frame)
			ts.mu.Unlock()
			runAfters(undone, false)
		}
	}()
	if err := fn(context.WithValue(ctx, spKey{}, frame), lockedTx{ts}); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ts.mu.Lock()
	if ts.done {
		ts.mu.Unlock()
		return fail(ctx, "releasing a savepoint", sql.ErrTxDone)
	}
	// Releasing the savepoint releases the ones nested in it.
	ts.dropPendingAfter(n)
	ts.pending = append(ts.pending, n)
	ts.mu.Unlock()
	released = true
	return nil
}

// dropPendingAfter forgets the pending releases of the savepoints made
// after savepoint n: they are nested in it, and its release or rollback
// ends them too. The caller holds ts.mu.
func (ts *txState) dropPendingAfter(n int) {
	keep := ts.pending[:0]
	for _, p := range ts.pending {
		if p < n {
			keep = append(keep, p)
		}
	}
	ts.pending = keep
}

// execSavepoints sends the pending releases, then cmds, with
// dialect.execAll (in one round trip on PostgreSQL). The caller holds
// ts.mu.
func (ts *txState) execSavepoints(ctx context.Context, cmds ...string) error {
	if ts.done {
		return sql.ErrTxDone
	}
	all := make([]string, 0, len(ts.pending)+len(cmds))
	for _, p := range ts.pending {
		all = append(all, "RELEASE SAVEPOINT cg_sp"+strconv.Itoa(p))
	}
	ts.pending = ts.pending[:0]
	all = append(all, cmds...)
	return ts.db.d.execAll(ctx, ts.tx, all)
}

// lockedTx is a querier over a transaction that holds its mutex for each
// statement. Queries go through queryEach, which holds it until the rows
// are read.
type lockedTx struct{ ts *txState }

func (l lockedTx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	l.ts.mu.Lock()
	defer l.ts.mu.Unlock()
	if l.ts.done {
		return nil, sql.ErrTxDone
	}
	return l.ts.tx.ExecContext(ctx, q, args...)
}

// raw runs fn with the driver's connection of the transaction, under its
// mutex; the transaction must have been begun on a connection of its own
// (see dialect.rawConn).
func (l lockedTx) raw(fn func(driverConn any) error) error {
	l.ts.mu.Lock()
	defer l.ts.mu.Unlock()
	if l.ts.done {
		return sql.ErrTxDone
	}
	if l.ts.conn == nil {
		return errors.New("sqlstore: internal error: transaction without its own connection")
	}
	return l.ts.conn.Raw(fn)
}

// execStmt runs the prepared statement st of the transaction's pool in
// the transaction, under its mutex.
func (l lockedTx) execStmt(ctx context.Context, st *sql.Stmt, args []any) error {
	l.ts.mu.Lock()
	defer l.ts.mu.Unlock()
	if l.ts.done {
		return sql.ErrTxDone
	}
	txs := l.ts.tx.StmtContext(ctx, st)
	defer txs.Close()
	_, err := txs.ExecContext(ctx, args...)
	return err
}

// QueryContext is not used: queryEach queries the transaction itself,
// under its mutex, so that no other statement runs while rows are open.
func (l lockedTx) QueryContext(context.Context, string, ...any) (*sql.Rows, error) {
	return nil, errors.New("sqlstore: internal error: query a transaction through queryEach")
}

// queryEach runs a query on q and calls each for every row, then closes
// the rows. On a transaction it holds the transaction's mutex throughout.
func queryEach(ctx context.Context, q querier, query string, args []any, each func(rows *sql.Rows) error) error {
	if l, ok := q.(lockedTx); ok {
		l.ts.mu.Lock()
		defer l.ts.mu.Unlock()
		if l.ts.done {
			return sql.ErrTxDone
		}
		q = l.ts.tx
	}
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := each(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// queryRow runs a query expected to return at most one row and scans it
// into dest; sql.ErrNoRows when there is none.
func queryRow(ctx context.Context, q querier, query string, args []any, dest ...any) error {
	found := false
	err := queryEach(ctx, q, query, args, func(rows *sql.Rows) error {
		if found {
			return nil
		}
		found = true
		return rows.Scan(dest...)
	})
	if err == nil && !found {
		return sql.ErrNoRows
	}
	return err
}

// reader returns the querier for reads: the transaction ctx carries, else
// the reading pool.
func (db *DB) reader(ctx context.Context) querier {
	if ts := db.txOf(ctx); ts != nil {
		return lockedTx{ts}
	}
	return db.r
}

// writer returns the querier for a single-statement write: the
// transaction ctx carries, else the writing pool (where the statement
// commits on its own).
func (db *DB) writer(ctx context.Context) querier {
	if ts := db.txOf(ctx); ts != nil {
		return lockedTx{ts}
	}
	return db.w
}
