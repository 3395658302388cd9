package sqlstore

import (
	"context"
	"database/sql"
	"errors"
)

// Querier runs statements of another package on the database of a DB: in
// the transaction a context carries (see InTx), or on the pool. Statements
// go to the engine as written: they are not rebound nor prefixed, so they
// must use the engine's own placeholders and table names.
type Querier interface {
	// ExecContext runs a statement that returns no rows.
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	// QueryEach runs a query and calls each for every row, then closes the
	// rows; an error of each stops the reading and is returned. In a
	// transaction no other statement of it runs until QueryEach returns.
	QueryEach(ctx context.Context, query string, args []any, each func(rows *sql.Rows) error) error
}

// extQuerier is the Querier over a querier of the package.
type extQuerier struct{ q querier }

func (e extQuerier) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return e.q.ExecContext(ctx, query, args...)
}

func (e extQuerier) QueryEach(ctx context.Context, query string, args []any, each func(rows *sql.Rows) error) error {
	if each == nil {
		return errors.New("sqlstore: QueryEach with a nil function")
	}
	return queryEach(ctx, e.q, query, args, each)
}

// InTxWith runs fn in a transaction of the database, as InTx does, and
// hands it the Querier of that transaction, so that another package's
// statements and the stores of db commit or roll back together. Called
// with a context that carries a transaction of db, fn runs in a savepoint
// of it: its writes are undone when it fails and kept only when the outer
// transaction commits.
func (db *DB) InTxWith(ctx context.Context, fn func(ctx context.Context, q Querier) error) error {
	if fn == nil {
		return errors.New("sqlstore: InTxWith with a nil function")
	}
	return db.inTx(ctx, func(ctx context.Context, q querier) error { return fn(ctx, extQuerier{q}) })
}

// Querier returns the Querier of the transaction ctx carries (see InTx),
// or, when it carries none of db, one over the pool, where each statement
// commits on its own.
func (db *DB) Querier(ctx context.Context) Querier {
	return extQuerier{db.writer(ctx)}
}

// InTxOf reports whether ctx carries an open transaction of db.
func (db *DB) InTxOf(ctx context.Context) bool { return db.txOf(ctx) != nil }

// AfterTx registers what to do once the transaction ctx carries commits
// (onCommit) or rolls back (onRollback), such as removing or keeping files
// that belong to rows written in it. Either may be nil. Without a
// transaction of db in ctx, onCommit runs at once.
func (db *DB) AfterTx(ctx context.Context, onCommit, onRollback func()) {
	db.after(ctx, onCommit, onRollback)
}

// WritePool returns the connection pool on which db writes and begins its
// transactions (on a SQLite file, its one writing connection; elsewhere
// the pool every query uses). It is for libraries that must share db's
// transactions through their own database/sql code, such as a job queue
// whose jobs complete in the transaction of their work; statements run on
// it outside InTx commit on their own. Do not close it: Close does.
func (db *DB) WritePool() *sql.DB { return db.w }

// ReadPool returns the connection pool on which db reads outside
// transactions (on a SQLite file, several connections that see the last
// commit while a transaction writes; elsewhere the same as WritePool).
// Do not close it: Close does.
func (db *DB) ReadPool() *sql.DB { return db.r }

// TablePrefix returns Options.TablePrefix, which tables that another
// package keeps beside db's should start with too.
func (db *DB) TablePrefix() string { return db.prefix }

// WithSQLTx runs fn with the *sql.Tx of the transaction ctx carries,
// holding the transaction's mutex, so that no statement of a store runs
// on it meanwhile. It fails without calling fn when ctx carries no live
// transaction of db. fn must not call db's stores: they wait for the
// mutex fn's caller holds.
func (db *DB) WithSQLTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if fn == nil {
		return errors.New("sqlstore: WithSQLTx with a nil function")
	}
	ts := db.txOf(ctx)
	if ts == nil {
		return errors.New("sqlstore: WithSQLTx outside a transaction of the database")
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.done {
		return sql.ErrTxDone
	}
	return fn(ts.tx)
}
