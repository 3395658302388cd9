package wphost_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/wphost"
)

// TestRunBatches: the record of a run's batch commits or rolls back with
// the content of its transaction, is made once, and is read back as it
// was recorded; outside a transaction it is refused.
func TestRunBatches(t *testing.T) {
	s := openSite(t, siteOptions(t))
	ctx := t.Context()
	run := uuid.NewString()
	type rec struct {
		batch    int64
		worker   string
		items    int
		warnings []string
	}
	read := func() []rec {
		var out []rec
		require.NoError(t, s.RunBatches(ctx, run, 0, 100, func(b int64, w string, n int, warn []string) error {
			out = append(out, rec{b, w, n, warn})
			return nil
		}))
		return out
	}

	_, err := s.RecordRunBatch(ctx, run, 0, "w", 1, nil)
	require.ErrorIs(t, err, wphost.ErrInvalid, "outside a transaction")

	// Rolled back with the post of its transaction.
	boom := errors.New("boom")
	var post int64
	err = s.InTx(ctx, func(ctx context.Context) error {
		ids, err := s.Host().CreatePosts(ctx, []contentgen.Post{{Type: "post", Title: "run batch", Status: "draft"}})
		require.NoError(t, err)
		post = ids[0]
		ok, err := s.RecordRunBatch(ctx, run, 3, "w1", 1, nil)
		require.NoError(t, err)
		require.True(t, ok)
		return boom
	})
	require.ErrorIs(t, err, boom)
	require.Empty(t, read())
	found, err := s.Host().Exist(ctx, contentgen.KindPost, []int64{post})
	require.NoError(t, err)
	require.Equal(t, []bool{false}, found)

	// Committed once; a second record of the batch is refused.
	for i, want := range []bool{true, false} {
		require.NoError(t, s.InTx(ctx, func(ctx context.Context) error {
			ok, err := s.RecordRunBatch(ctx, run, 3, "w"+string(rune('1'+i)), 50, []string{"a warning"})
			require.Equal(t, want, ok)
			return err
		}))
	}
	require.NoError(t, s.InTx(ctx, func(ctx context.Context) error {
		_, err := s.RecordRunBatch(ctx, run, 1, "w2", 7, nil)
		return err
	}))
	require.Equal(t, []rec{{1, "w2", 7, []string{}}, {3, "w1", 50, []string{"a warning"}}}, read())
	var n int
	require.NoError(t, s.RunBatches(ctx, run, 2, 3, func(int64, string, int, []string) error { n++; return nil }))
	require.Zero(t, n, "only the batches asked for")
}
