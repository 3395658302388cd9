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
