package contentgen_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/hosttest"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/local"
)

// TestWithoutOptionalCapabilities runs generation and deletion over a
// host that has no transactions, trash, bulk existence checks or media
// storage: tracking, deletion and cleanup take their fallback paths and
// keep the same guarantees.
func TestWithoutOptionalCapabilities(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	host, err := memhost.NewDemo(&memhost.Options{Now: clock})
	require.NoError(t, err)
	h := hosttest.Minimal(host)
	for _, capability := range []func(contentgen.Host) bool{
		func(h contentgen.Host) bool { _, ok := h.(contentgen.Transactor); return ok },
		func(h contentgen.Host) bool { _, ok := h.(contentgen.Trasher); return ok },
		func(h contentgen.Host) bool { _, ok := h.(contentgen.Exister); return ok },
		func(h contentgen.Host) bool { _, ok := h.(contentgen.MediaStorer); return ok },
	} {
		require.False(t, capability(h))
	}
	prov, err := local.New(nil)
	require.NoError(t, err)
	hist := history.NewMemStore(clock)
	seed := int64(5)
	gen, err := contentgen.New(h, hist, &contentgen.Config{Seed: &seed, Now: clock, ImageProviders: []providers.ImageProvider{prov}})
	require.NoError(t, err)
	handMade := snapshot(t, host, false)

	posts, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(4), ImageProvider: providers.Local, ImageWidth: new(200), ImageHeight: new(150), AutoComments: true})
	require.NoError(t, err)
	require.Len(t, posts.IDs, 4)
	require.Equal(t, 4, posts.WithFeaturedImage, "images are stored as records when the host keeps no bytes")
	_, err = gen.GenerateTerms(ctx, contentgen.TermsRequest{GenerateHierarchy: true, Depth: new(2), Breadth: new(2)})
	require.NoError(t, err)
	_, err = gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(3), GenerateAvatars: new(false)})
	require.NoError(t, err)
	requireTrackedExactly(t, host, hist)

	// Without a trash, a delete without force is permanent and forgets
	// the history.
	rm, err := gen.Delete(ctx, contentgen.KindPost, posts.IDs[:1], false)
	require.NoError(t, err)
	require.Equal(t, 1, rm.Posts)
	require.False(t, rm.Trashed)
	requireTrackedExactly(t, host, hist)

	_, err = gen.Media().Upload(ctx, "notes.txt", []byte("plain text"))
	require.ErrorIs(t, err, contentgen.ErrWriteFailed, "uploads need a host that keeps bytes")

	_, err = gen.DeleteAll(ctx)
	require.NoError(t, err)
	require.Equal(t, handMade, snapshot(t, host, true))
	_, total, err := gen.History(ctx, contentgen.HistoryQuery{})
	require.NoError(t, err)
	require.Zero(t, total)
}
