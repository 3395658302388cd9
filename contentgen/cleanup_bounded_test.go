package contentgen_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
)

// readSizes records the most items one call returned or was given.
type readSizes struct {
	mu  sync.Mutex
	max map[string]int
}

func (r *readSizes) saw(call string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.max == nil {
		r.max = map[string]int{}
	}
	r.max[call] = max(r.max[call], n)
}

func (r *readSizes) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.max = nil
}

// sizedHistory is a history store that records the size of its answers.
type sizedHistory struct {
	history.Store
	sizes *readSizes
}

func (h sizedHistory) List(ctx context.Context, f history.Filter) ([]history.Entry, int, error) {
	es, n, err := h.Store.List(ctx, f)
	h.sizes.saw("history.List", len(es))
	return es, n, err
}

// sizedHost is a host with only the required methods that records the
// size of the answers of its queries and of the lists it deletes.
type sizedHost struct {
	contentgen.Host
	sizes *readSizes
}

func (h sizedHost) Posts(ctx context.Context, q contentgen.PostQuery) ([]contentgen.Post, error) {
	out, err := h.Host.Posts(ctx, q)
	h.sizes.saw("Posts", len(out))
	return out, err
}

func (h sizedHost) Comments(ctx context.Context, q contentgen.CommentQuery) ([]contentgen.Comment, error) {
	out, err := h.Host.Comments(ctx, q)
	if !q.PostIDs.Active() { // the comments of a page of posts: as many as they have
		h.sizes.saw("Comments", len(out))
	}
	return out, err
}

func (h sizedHost) DeletePosts(ctx context.Context, ids []int64) error {
	h.sizes.saw("DeletePosts", len(ids))
	return h.Host.DeletePosts(ctx, ids)
}

func (h sizedHost) DeleteComments(ctx context.Context, ids []int64) error {
	h.sizes.saw("DeleteComments", len(ids))
	return h.Host.DeleteComments(ctx, ids)
}

// TestCleanupWorksInBoundedPages checks that a cleanup of a site reads
// history and content, and deletes, a bounded page at a time, whatever
// the size of the site: with and without the host's optional
// capabilities (transactions, bulk existence, PostDeleter).
func TestCleanupWorksInBoundedPages(t *testing.T) {
	t.Parallel()
	for _, capable := range []bool{true, false} {
		name := map[bool]string{true: "capable host", false: "minimal host"}[capable]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			mem, err := demosite.New(&memhost.Options{Now: clock})
			require.NoError(t, err)
			sizes := &readSizes{}
			var host contentgen.Host = mem
			if !capable {
				host = sizedHost{Host: mem, sizes: sizes}
			}
			seed := int64(5)
			gen, err := contentgen.New(host, sizedHistory{Store: history.NewMemStore(clock), sizes: sizes},
				&contentgen.Config{Seed: &seed, Now: clock, BatchSize: 50})
			require.NoError(t, err)
			posts, comments := 0, 0
			for range 3 {
				res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(250), SetFeaturedImage: new(false),
					AutoComments: true, CommentsPerPostMin: new(2), CommentsPerPostMax: new(4)})
				require.NoError(t, err)
				posts += len(res.IDs)
				comments += res.Comments
			}
			require.Greater(t, comments, 1000)

			sizes.reset()
			rm, err := gen.DeleteAll(ctx)
			require.NoError(t, err)
			require.Equal(t, posts, rm.Posts)
			require.Equal(t, comments, rm.Comments)
			const page = 100
			for call, n := range sizes.max {
				require.LessOrEqual(t, n, page, "%s handled %d items at once on a site of %d posts and %d comments", call, n, posts, comments)
			}
			require.NotZero(t, sizes.max["history.List"])

			left, err := mem.Posts(ctx, contentgen.PostQuery{MetaKey: contentgen.MarkerKey})
			require.NoError(t, err)
			require.Empty(t, left)
			entries, total, err := gen.History().List(ctx, contentgen.HistoryQuery{})
			require.NoError(t, err)
			require.Zero(t, total, entries)
		})
	}
}
