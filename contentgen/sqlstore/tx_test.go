package sqlstore_test

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/templates"
)

func batch(n int) []history.Entry {
	out := make([]history.Entry, n)
	for i := range out {
		out[i] = history.Entry{ContentType: history.TypePost, ContentID: int64(i + 1), ContentSubtype: "post",
			Meta: map[string]any{"locale": "en_US", "count": i}}
	}
	return out
}

func count(t *testing.T, db *sqlstore.DB) int {
	t.Helper()
	_, total, err := db.History().List(t.Context(), history.Filter{})
	require.NoError(t, err)
	return total
}

// TestInTx checks that the stores join the transaction of InTx: a batch of
// history entries, a template and a state value are kept or undone
// together.
func TestInTx(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		db := e.open(t, nil)
		ctx := t.Context()
		errBoom := errors.New("boom")
		write := func(ctx context.Context) error {
			if err := db.History().Add(ctx, batch(3)); err != nil {
				return err
			}
			if err := db.History().Add(ctx, batch(2)); err != nil {
				return err
			}
			if _, err := db.Templates().Insert(ctx, templates.Template{Name: "T", PostType: "post"}); err != nil {
				return err
			}
			return db.State().Update(ctx, "k", func([]byte) ([]byte, error) { return []byte("v"), nil })
		}

		err := db.InTx(ctx, func(ctx context.Context) error {
			require.NoError(t, write(ctx))
			require.Zero(t, count(t, db), "reads outside the transaction do not see it")
			_, total, err := db.History().List(ctx, history.Filter{})
			require.NoError(t, err)
			require.Equal(t, 5, total, "reads inside the transaction see its writes")
			return errBoom
		})
		require.ErrorIs(t, err, errBoom)
		require.Zero(t, count(t, db), "a failed transaction keeps no history entry")
		list, err := db.Templates().List(ctx, templates.Filter{})
		require.NoError(t, err)
		require.Empty(t, list, "nor a template")
		v, err := db.State().Load(ctx, "k")
		require.NoError(t, err)
		require.Nil(t, v, "nor a state value")

		require.Panics(t, func() {
			_ = db.InTx(ctx, func(ctx context.Context) error {
				require.NoError(t, write(ctx))
				panic("boom")
			})
		})
		require.Zero(t, count(t, db), "a panicking transaction keeps nothing")

		cctx, cancel := context.WithCancel(ctx)
		err = db.InTx(cctx, func(ctx context.Context) error {
			require.NoError(t, write(ctx))
			cancel()
			return nil
		})
		require.ErrorIs(t, err, context.Canceled)
		require.Zero(t, count(t, db), "a transaction whose context ends before the commit keeps nothing")

		require.NoError(t, db.InTx(ctx, write))
		require.Equal(t, 5, count(t, db), "a committed transaction keeps every entry")
		list, err = db.Templates().List(ctx, templates.Filter{})
		require.NoError(t, err)
		require.Len(t, list, 1)
		v, err = db.State().Load(ctx, "k")
		require.NoError(t, err)
		require.Equal(t, "v", string(v))
	})
}

// TestInTxNested checks savepoints: a failed nested InTx is undone while
// the outer transaction goes on.
func TestInTxNested(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		db := e.open(t, nil)
		ctx := t.Context()
		errInner := errors.New("inner")
		err := db.InTx(ctx, func(ctx context.Context) error {
			require.NoError(t, db.History().Add(ctx, batch(2)))
			err := db.InTx(ctx, func(ctx context.Context) error {
				require.NoError(t, db.History().Add(ctx, batch(3)))
				return errInner
			})
			require.ErrorIs(t, err, errInner)
			require.NoError(t, db.InTx(ctx, func(ctx context.Context) error {
				return db.History().Add(ctx, batch(1))
			}))
			return nil
		})
		require.NoError(t, err)
		require.Equal(t, 3, count(t, db))
	})
}

// TestInTxNestedDeep nests savepoints three deep: savepoints released
// inside one that fails are undone with it, and the transaction goes on
// to open and release more.
func TestInTxNestedDeep(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		db := e.open(t, nil)
		ctx := t.Context()
		errMiddle := errors.New("middle")
		add := func(ctx context.Context) error { return db.History().Add(ctx, batch(1)) }
		err := db.InTx(ctx, func(ctx context.Context) error {
			require.NoError(t, add(ctx))
			err := db.InTx(ctx, func(ctx context.Context) error {
				require.NoError(t, add(ctx))
				require.NoError(t, db.InTx(ctx, add))
				require.NoError(t, db.InTx(ctx, func(ctx context.Context) error {
					return db.InTx(ctx, add)
				}))
				return errMiddle
			})
			require.ErrorIs(t, err, errMiddle)
			require.NoError(t, db.InTx(ctx, func(ctx context.Context) error {
				require.NoError(t, db.InTx(ctx, add))
				return add(ctx)
			}))
			_, total, err := db.History().List(ctx, history.Filter{})
			require.NoError(t, err)
			require.Equal(t, 3, total, "inside the transaction")
			return nil
		})
		require.NoError(t, err)
		require.Equal(t, 3, count(t, db))
	})
}

// TestInTxLeftoverContext checks that a context kept from an ended
// transaction does not break later calls: they run on their own.
func TestInTxLeftoverContext(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		db := e.open(t, nil)
		var kept context.Context
		require.NoError(t, db.InTx(t.Context(), func(ctx context.Context) error {
			kept = ctx
			return nil
		}))
		require.NoError(t, db.History().Add(kept, batch(2)))
		require.Equal(t, 2, count(t, db))
	})
}

// TestStateAcrossHandles runs increments through two DBs opened on one
// database, as two processes would.
func TestStateAcrossHandles(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		dsn, opts := e.fresh(t)
		a, b := openAt(t, dsn, opts), openAt(t, dsn, opts)
		incr := func(old []byte) ([]byte, error) {
			n, _ := strconv.Atoi(string(old))
			return []byte(strconv.Itoa(n + 1)), nil
		}
		var wg sync.WaitGroup
		errs := make(chan error, 200)
		for i := range 8 {
			db := a
			if i%2 == 1 {
				db = b
			}
			wg.Go(func() {
				for range 20 {
					errs <- db.State().Update(t.Context(), "hits", incr)
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			require.NoError(t, err)
		}
		v, err := b.State().Load(t.Context(), "hits")
		require.NoError(t, err)
		require.Equal(t, "160", string(v))
	})
}
