package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// TestInTxWith checks that another package's statements, run through the
// exported Querier, commit and roll back with the stores' writes.
func TestInTxWith(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		db := e.open(t, &sqlstore.Options{TablePrefix: "ext_"})
		ctx := t.Context()
		ph := "?"
		if db.Engine() == "postgres" {
			ph = "$1"
		}
		_, err := db.Querier(ctx).ExecContext(ctx, "CREATE TABLE own_rows (v INTEGER NOT NULL)")
		require.NoError(t, err)
		t.Cleanup(func() {
			_, _ = db.Querier(context.Background()).ExecContext(context.Background(), "DROP TABLE own_rows")
		})
		rows := func(ctx context.Context) int {
			var n int
			require.NoError(t, db.Querier(ctx).QueryEach(ctx, "SELECT COUNT(*) FROM own_rows", nil, func(r *sql.Rows) error { return r.Scan(&n) }))
			return n
		}
		write := func(ctx context.Context, v int, fail bool) error {
			return db.InTxWith(ctx, func(ctx context.Context, q sqlstore.Querier) error {
				require.True(t, db.InTxOf(ctx))
				if _, err := q.ExecContext(ctx, "INSERT INTO own_rows (v) VALUES ("+ph+")", v); err != nil {
					return err
				}
				if err := db.History().Add(ctx, batch(1)); err != nil {
					return err
				}
				if fail {
					return errors.New("boom")
				}
				return nil
			})
		}
		require.False(t, db.InTxOf(ctx))
		require.Error(t, write(ctx, 1, true))
		require.Zero(t, rows(ctx), "a failed function keeps no row")
		require.Zero(t, count(t, db), "nor its history")

		require.NoError(t, write(ctx, 2, false))
		require.Equal(t, 1, rows(ctx))
		require.Equal(t, 1, count(t, db))

		// Nested in InTx: a failing inner function is undone alone, the
		// rest commits with the outer transaction.
		require.NoError(t, db.InTx(ctx, func(ctx context.Context) error {
			require.Error(t, write(ctx, 3, true))
			require.NoError(t, write(ctx, 4, false))
			require.Equal(t, 2, rows(ctx), "the transaction sees its own rows")
			return nil
		}))
		require.Equal(t, 2, rows(ctx))
		require.Equal(t, 2, count(t, db))

		// A failing outer transaction undoes the inner functions too.
		err = db.InTx(ctx, func(ctx context.Context) error {
			require.NoError(t, write(ctx, 5, false))
			return errors.New("outer")
		})
		require.Error(t, err)
		require.Equal(t, 2, rows(ctx))
		require.Equal(t, 2, count(t, db))

		var seen []int
		err = db.Querier(ctx).QueryEach(ctx, "SELECT v FROM own_rows ORDER BY v", nil, func(r *sql.Rows) error {
			var v int
			if err := r.Scan(&v); err != nil {
				return err
			}
			seen = append(seen, v)
			return nil
		})
		require.NoError(t, err)
		require.Equal(t, []int{2, 4}, seen)
		require.Error(t, db.InTxWith(ctx, nil))

		var events []string
		_ = db.InTx(ctx, func(ctx context.Context) error {
			db.AfterTx(ctx, func() { events = append(events, "commit 1") }, func() { events = append(events, "rollback 1") })
			return errors.New("undo")
		})
		require.NoError(t, db.InTx(ctx, func(ctx context.Context) error {
			db.AfterTx(ctx, func() { events = append(events, "commit 2") }, nil)
			require.Len(t, events, 1, "nothing runs before the end of the transaction")
			return nil
		}))
		db.AfterTx(ctx, func() { events = append(events, "at once") }, func() { events = append(events, "never") })
		require.Equal(t, []string{"rollback 1", "commit 2", "at once"}, events)
		require.Error(t, db.Querier(ctx).QueryEach(ctx, "SELECT v FROM own_rows", nil, nil))
	})
}
