package contentgen_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
)

// TestConcurrentGenerationAndDeletion runs 32 goroutines that mix
// generation of every kind with deletes, history deletes and cleanups, a
// fixed number of operations each, and requires that none fails and that
// afterwards hand-made content is untouched, every generated item is
// tracked and the history holds exactly what exists.
func TestConcurrentGenerationAndDeletion(t *testing.T) {
	const workers, opsEach = 32, 6
	ctx := context.Background()
	host, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	hist := history.NewMemStore(clock)
	seed := int64(99)
	gen, err := contentgen.New(host, hist, &contentgen.Config{Seed: &seed, Now: clock, BatchSize: 4})
	require.NoError(t, err)
	handMade := snapshot(t, host, false)

	ops := []struct {
		name string
		run  func(r *rand.Rand) error
	}{
		{"posts", func(r *rand.Rand) error {
			_, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(1 + r.IntN(6)), SetFeaturedImage: new(false), AutoComments: r.IntN(2) == 0, CommentsPerPostMax: new(3)})
			return err
		}},
		{"terms", func(r *rand.Rand) error {
			_, err := gen.GenerateTerms(ctx, contentgen.TermsRequest{Taxonomy: []string{"category", "post_tag"}[r.IntN(2)], Count: new(1 + r.IntN(8))})
			return err
		}},
		{"term tree", func(r *rand.Rand) error {
			_, err := gen.GenerateTerms(ctx, contentgen.TermsRequest{GenerateHierarchy: true, Depth: new(2), Breadth: new(2)})
			return err
		}},
		{"users", func(r *rand.Rand) error {
			_, err := gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(1 + r.IntN(5)), GenerateAvatars: new(false)})
			return err
		}},
		{"comments", func(r *rand.Rand) error {
			_, err := gen.GenerateComments(ctx, contentgen.CommentsRequest{CommentsPerPostMax: new(2)})
			return err
		}},
		{"delete kind", func(r *rand.Rand) error {
			kinds := []contentgen.ObjectKind{contentgen.KindPost, contentgen.KindTerm, contentgen.KindUser, contentgen.KindComment}
			_, err := gen.Delete(ctx, kinds[r.IntN(len(kinds))], contentgen.IDFilter{}, true)
			return err
		}},
		{"delete posts", func(r *rand.Rand) error {
			_, err := gen.DeletePosts(ctx, contentgen.DeletePostsRequest{PostType: "post", DeleteRelatedComments: new(true), DeleteRelatedTerms: new(r.IntN(2) == 0), DeleteRelatedAuthors: new(r.IntN(2) == 0)})
			return err
		}},
		{"history entry", func(r *rand.Rand) error {
			items, _, err := gen.History().List(ctx, contentgen.HistoryQuery{Limit: new(5)})
			if err != nil || len(items) == 0 {
				return err
			}
			_, err = gen.History().Delete(ctx, items[r.IntN(len(items))].ID, true)
			if errors.Is(err, contentgen.ErrNotFound) {
				return nil // another worker deleted it first: a documented client error
			}
			return err
		}},
		{"prune", func(*rand.Rand) error { _, err := gen.History().Prune(ctx); return err }},
		{"delete all", func(*rand.Rand) error { _, err := gen.DeleteAll(ctx); return err }},
	}
	var failures atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, workers*opsEach)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for range opsEach {
				op := ops[r.IntN(len(ops))]
				if err := op.run(r); err != nil {
					failures.Add(1)
					errs <- fmt.Errorf("%s: %w", op.name, err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	require.Zero(t, failures.Load(), "%d of %d operations failed", failures.Load(), workers*opsEach)

	require.Equal(t, handMade, snapshot(t, host, false), "hand-made content is untouched")
	requireTrackedExactly(t, host, hist)
	_, err = gen.DeleteAll(ctx)
	require.NoError(t, err)
	require.Equal(t, handMade, snapshot(t, host, true), "after cleanup only hand-made content is left")
}

// snapshot is the JSON of the host's content; without all, only what is
// not generated.
func snapshot(t *testing.T, h *memhost.Host, all bool) string {
	t.Helper()
	ctx := context.Background()
	posts, err := h.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	terms, err := h.Terms(ctx, contentgen.TermQuery{})
	require.NoError(t, err)
	users, err := h.Users(ctx, contentgen.UserQuery{})
	require.NoError(t, err)
	comments, err := h.Comments(ctx, contentgen.CommentQuery{})
	require.NoError(t, err)
	keep := func(m contentgen.Meta) bool { return all || !m.Generated() }
	var out []any
	for _, p := range posts {
		if keep(p.Meta) {
			// Term counts and comment counts change with generated content.
			p.Terms = nil
			out = append(out, p)
		}
	}
	for _, x := range terms {
		if keep(x.Meta) {
			x.Count = 0
			out = append(out, x)
		}
	}
	for _, x := range users {
		if keep(x.Meta) {
			out = append(out, x)
		}
	}
	for _, x := range comments {
		if keep(x.Meta) {
			out = append(out, x)
		}
	}
	b, err := json.Marshal(out)
	require.NoError(t, err)
	return string(b)
}

// requireTrackedExactly checks that every generated object has a history
// entry and every history entry names an object that exists.
func requireTrackedExactly(t *testing.T, h *memhost.Host, hist *history.MemStore) {
	t.Helper()
	ctx := context.Background()
	entries, _, err := hist.List(ctx, history.Filter{})
	require.NoError(t, err)
	tracked := map[string]bool{}
	for _, e := range entries {
		tracked[fmt.Sprint(e.ContentType, e.ContentID)] = true
		ok, err := h.Exist(ctx, contentgen.ObjectKind(e.ContentType), []int64{e.ContentID})
		require.NoError(t, err)
		require.True(t, ok[0], "history names %s %d, which does not exist", e.ContentType, e.ContentID)
	}
	marked := map[contentgen.ObjectKind][]int64{}
	posts, err := h.Posts(ctx, contentgen.PostQuery{MetaKey: contentgen.MarkerKey})
	require.NoError(t, err)
	for _, x := range posts {
		marked[contentgen.KindPost] = append(marked[contentgen.KindPost], x.ID)
	}
	terms, err := h.Terms(ctx, contentgen.TermQuery{MetaKey: contentgen.MarkerKey})
	require.NoError(t, err)
	for _, x := range terms {
		marked[contentgen.KindTerm] = append(marked[contentgen.KindTerm], x.ID)
	}
	users, err := h.Users(ctx, contentgen.UserQuery{MetaKey: contentgen.MarkerKey})
	require.NoError(t, err)
	for _, x := range users {
		marked[contentgen.KindUser] = append(marked[contentgen.KindUser], x.ID)
	}
	comments, err := h.Comments(ctx, contentgen.CommentQuery{MetaKey: contentgen.MarkerKey})
	require.NoError(t, err)
	for _, x := range comments {
		marked[contentgen.KindComment] = append(marked[contentgen.KindComment], x.ID)
	}
	for kind, ids := range marked {
		for _, id := range ids {
			require.True(t, tracked[fmt.Sprint(kind, id)], "generated %s %d has no history entry", kind, id)
		}
	}
}

// interleavedHistory runs between once, right after the first history
// read of posts, to put another process's write at that exact point.
type interleavedHistory struct {
	history.Store
	once    sync.Once
	between func()
}

func (h *interleavedHistory) List(ctx context.Context, f history.Filter) ([]history.Entry, int, error) {
	entries, n, err := h.Store.List(ctx, f)
	if f.ContentType == string(contentgen.KindPost) {
		h.once.Do(h.between)
	}
	return entries, n, err
}

// TestDeleteForgetsWhatAnotherProcessRecordedMeanwhile: posts another
// process generates after a delete has read the history, but before it
// lists the marked posts, are deleted with the rest; their history
// entries must go with them, not stay behind naming nothing.
func TestDeleteForgetsWhatAnotherProcessRecordedMeanwhile(t *testing.T) {
	ctx := context.Background()
	host, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	hist := history.NewMemStore(clock)
	seed := int64(5)
	other, err := contentgen.New(host, hist, &contentgen.Config{Seed: &seed, Now: clock})
	require.NoError(t, err)
	_, err = other.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(3), SetFeaturedImage: new(false)})
	require.NoError(t, err)

	meanwhile := 0
	wrapped := &interleavedHistory{Store: hist, between: func() {
		res, err := other.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(4), SetFeaturedImage: new(false)})
		require.NoError(t, err)
		meanwhile = len(res.IDs)
	}}
	gen, err := contentgen.New(host, wrapped, &contentgen.Config{Seed: &seed, Now: clock})
	require.NoError(t, err)
	rm, err := gen.DeletePosts(ctx, contentgen.DeletePostsRequest{PostType: "post"})
	require.NoError(t, err)
	require.Equal(t, 4, meanwhile, "the other process wrote between the reads")
	require.Equal(t, 7, rm.Posts, "the posts written meanwhile are found by their marker")
	requireTrackedExactly(t, host, hist)
}
