package contentgen_test

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/history"
)

// TestHistoryMetaDescribesEachItem: the history entry of every post and
// comment of a run records that item's own status, taxonomies, post and
// parent, and the run's locale and id, over posts and comments of every
// kind (varied posts of random statuses, threaded comments, anonymous or
// by users).
func TestHistoryMetaDescribesEachItem(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 11)
	res, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{
		Count: new(120), PostStatus: "random", EnableVariation: new(true),
		AutoComments: true, CommentsPerPostMin: new(1), CommentsPerPostMax: new(6), CommentReplyProbability: new(60),
	}))
	require.NoError(t, err)
	require.NotEmpty(t, res.CommentIDs)

	entries, _, err := f.hist.List(ctx, history.Filter{})
	require.NoError(t, err)
	byItem := map[string]history.Entry{}
	for _, e := range entries {
		byItem[e.ContentType+strconv.FormatInt(e.ContentID, 10)] = e
	}
	runID := byItem["post"+strconv.FormatInt(res.IDs[0], 10)].Meta["run_id"]
	require.NotEmpty(t, runID)

	statuses, taxonomies := map[string]bool{}, map[string]bool{}
	for _, p := range f.posts(t, res.IDs) {
		e, ok := byItem["post"+strconv.FormatInt(p.ID, 10)]
		require.True(t, ok, "post %d has an entry", p.ID)
		require.Equal(t, p.Status, e.Meta["post_status"], "post %d", p.ID)
		names := slices.Sorted(maps.Keys(p.Terms))
		require.Equal(t, names, e.Meta["taxonomies_assigned"], "post %d", p.ID)
		require.Equal(t, "en_US", e.Meta["locale"])
		require.Equal(t, runID, e.Meta["run_id"])
		statuses[p.Status] = true
		taxonomies[history.MetaString(names)] = true
	}
	require.Greater(t, len(statuses), 1, "posts of several statuses")
	require.Greater(t, len(taxonomies), 1, "posts filed in different taxonomies")

	comments, err := f.host.Comments(ctx, contentgen.CommentQuery{IDs: contentgen.OnlyIDs(res.CommentIDs...)})
	require.NoError(t, err)
	require.Len(t, comments, len(res.CommentIDs))
	replies, anonymous := 0, 0
	for _, c := range comments {
		e, ok := byItem["comment"+strconv.FormatInt(c.ID, 10)]
		require.True(t, ok, "comment %d has an entry", c.ID)
		require.Equal(t, "post", e.ContentSubtype, "the type of the post commented on")
		require.Equal(t, map[string]any{
			"post_id":   strconv.FormatInt(c.PostID, 10),
			"parent_id": strconv.FormatInt(c.ParentID, 10),
			"status":    c.Status,
			"anonymous": c.UserID == 0,
			"locale":    "en_US",
			"origin":    "posts",
			"run_id":    runID,
		}, e.Meta, "comment %d", c.ID)
		if c.ParentID != 0 {
			replies++
		}
		if c.UserID == 0 {
			anonymous++
		}
	}
	require.Positive(t, replies, "some comments are replies")
	require.Positive(t, anonymous, "some comments are anonymous")
	require.Less(t, anonymous, len(comments), "some comments are by users")
}

// TestTaxonomiesAssignedOfManyLists: taxonomies_assigned is the sorted
// names of a post's taxonomies (nil for none) however many different
// lists a run meets, in any order.
func TestTaxonomiesAssignedOfManyLists(t *testing.T) {
	t.Parallel()
	of := contentgen.TaxonomiesAssigned()
	names := []string{"tax_e", "tax_b", "tax_d", "tax_a", "tax_c"}
	for round := range 3 {
		// Every subset of the five taxonomies, more lists than the values
		// of a run keep.
		for set := range 1 << len(names) {
			terms := map[string][]int64{}
			for i, name := range names {
				if set>>((i+round)%len(names))&1 == 1 {
					terms[name] = []int64{int64(i + 1)}
				}
			}
			want := slices.Sorted(maps.Keys(terms))
			require.Equal(t, want, of(terms), "round %d, set %b", round, set)
		}
	}
	require.Equal(t, []string(nil), of(nil))
}
