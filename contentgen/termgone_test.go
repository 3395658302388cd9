package contentgen_test

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/templates"
)

// termDeletingHost deletes a term at the start of its next transaction:
// the term is gone between the planning of a batch and its write.
type termDeletingHost struct {
	*memhost.Host
	victim atomic.Int64
}

func (h *termDeletingHost) InTx(ctx context.Context, fn func(context.Context, contentgen.Host) error) error {
	return h.Host.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
		if id := h.victim.Swap(0); id != 0 {
			if err := tx.DeleteTerms(ctx, []int64{id}); err != nil {
				return err
			}
		}
		return fn(ctx, tx)
	})
}

// TestPostsDoWithoutATermDeletedBeforeTheirWrite: a term the posts of a
// batch were given that is deleted before the batch is written is left
// out of them; the posts are written with their other terms.
func TestPostsDoWithoutATermDeletedBeforeTheirWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	demo, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	host := &termDeletingHost{Host: demo}
	seed := int64(5)
	gen, err := contentgen.New(host, history.NewMemStore(clock), &contentgen.Config{Seed: &seed, Now: clock})
	require.NoError(t, err)
	terms, err := gen.GenerateTerms(ctx, contentgen.TermsRequest{Taxonomy: "category", Count: new(3)})
	require.NoError(t, err)
	cats := terms.IDs
	// Authors first, so that the next run's first transaction writes its
	// posts.
	_, err = gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(1)}))
	require.NoError(t, err)

	host.victim.Store(cats[0])
	res, err := gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(8), TaxonomyConfig: templates.TaxonomyConfig{
		"category": {Mode: templates.ModeChoose, TermIDs: cats, CountMin: new(3), CountMax: new(3)},
		"post_tag": {Mode: templates.ModeNone},
	}}))
	require.NoError(t, err)
	require.Zero(t, host.victim.Load(), "the term was deleted inside the write")
	for _, p := range postsOn(t, demo, res.IDs) {
		require.ElementsMatch(t, cats[1:], p.Terms["category"], "post %d keeps the terms that exist", p.ID)
		require.False(t, slices.Contains(p.Terms["category"], cats[0]))
	}
}

func postsOn(t *testing.T, h *memhost.Host, ids []int64) []contentgen.Post {
	t.Helper()
	posts, err := h.Posts(context.Background(), contentgen.PostQuery{IDs: contentgen.OnlyIDs(ids...)})
	require.NoError(t, err)
	require.Len(t, posts, len(ids))
	return posts
}
