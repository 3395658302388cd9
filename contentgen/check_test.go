package contentgen_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/history"
)

// TestCheckRefusesWhatGenerateRefuses: the Check methods refuse a request
// with the error its generate call gives, and accept the others without
// writing anything or changing what the Generator makes next.
func TestCheckRefusesWhatGenerateRefuses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 1)
	for _, req := range []contentgen.TermsRequest{
		{Taxonomy: "mood"},
		{Count: new(0)},
		{Depth: new(6)},
		{Breadth: new(0)},
		{GenerateHierarchy: true, Depth: new(5), Breadth: new(10)},
		{Locale: "tlh"},
	} {
		_, gerr := f.gen.GenerateTerms(ctx, req)
		require.Error(t, gerr, "%+v", req)
		_, cerr := f.gen.CheckTerms(ctx, req)
		require.Equal(t, gerr.Error(), fmt.Sprint(cerr), "%+v", req)
	}
	for _, req := range []contentgen.UsersRequest{
		{Count: new(501)},
		{Role: "wizard"},
		{AllowedRoles: []string{"author", "wizard"}},
		{AvatarProvider: "elsewhere"},
		{Locale: "tlh"},
	} {
		_, gerr := f.gen.GenerateUsers(ctx, req)
		require.Error(t, gerr, "%+v", req)
		_, cerr := f.gen.CheckUsers(ctx, req)
		require.Equal(t, gerr.Error(), fmt.Sprint(cerr), "%+v", req)
	}
	_, total, err := f.hist.List(ctx, history.Filter{})
	require.NoError(t, err)
	require.Zero(t, total)

	c, err := f.gen.CheckPosts(ctx, contentgen.PostsRequest{Count: new(3)})
	require.NoError(t, err)
	require.Equal(t, contentgen.Check{Images: true}, c, "featured images are fetched by default")
	c, err = f.gen.CheckPosts(ctx, noImages(contentgen.PostsRequest{Count: new(3), TextSource: contentgen.TextSourceAI}))
	require.NoError(t, err)
	require.Equal(t, contentgen.Check{AIText: true}, c)
	c, err = f.gen.CheckTerms(ctx, contentgen.TermsRequest{Count: new(3)})
	require.NoError(t, err)
	require.Zero(t, c)
	c, err = f.gen.CheckUsers(ctx, contentgen.UsersRequest{Count: new(3), GenerateAvatars: new(false)})
	require.NoError(t, err)
	require.Zero(t, c)
	_, total, err = f.hist.List(ctx, history.Filter{})
	require.NoError(t, err)
	require.Zero(t, total, "checking writes nothing")

	// A seeded Generator makes the same posts whether requests were
	// checked before or not.
	titles := func(f *fixture) []string {
		res, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(3)}))
		require.NoError(t, err)
		var out []string
		for _, p := range f.posts(t, res.IDs) {
			out = append(out, p.Title)
		}
		return out
	}
	require.Equal(t, titles(newFixture(t, 1)), titles(f))
}

// TestCommentsCount: with Count, a comments request makes exactly that
// many comments, the posts taking turns in the order of their ids from
// FirstPost, each getting CommentsPerPostMin to CommentsPerPostMax (the
// last what is left), round again when there are few posts.
func TestCommentsCount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 5)
	_, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(10)}))
	require.NoError(t, err)
	published, err := f.host.Posts(ctx, contentgen.PostQuery{Types: []string{"post"}, Statuses: []string{contentgen.StatusPublish}})
	require.NoError(t, err)
	require.Len(t, published, 11, "the demo site's post and the ten")
	perPost := func(ids []int64) map[int64]int {
		cs, err := f.host.Comments(ctx, contentgen.CommentQuery{IDs: contentgen.OnlyIDs(ids...)})
		require.NoError(t, err)
		out := map[int64]int{}
		for _, c := range cs {
			out[c.PostID]++
		}
		return out
	}
	noAvatars := new(0)

	res, err := f.gen.GenerateComments(ctx, contentgen.CommentsRequest{Count: new(20), FirstPost: 14,
		CommentsPerPostMin: new(2), CommentsPerPostMax: new(4), AvatarPercentage: noAvatars})
	require.NoError(t, err)
	require.Len(t, res.IDs, 20)
	got := perPost(res.IDs)
	// From the fourth post (14 modulo 11), one post after the other.
	k := 0
	for i := 3; k < len(got); i++ {
		n, ok := got[published[i%11].ID]
		require.True(t, ok, "post %d takes its turn after the one before", i%11)
		require.LessOrEqual(t, n, 4)
		if k < len(got)-1 {
			require.GreaterOrEqual(t, n, 2)
		}
		k++
	}

	// Two posts named: round and round.
	two := []int64{published[0].ID, published[1].ID}
	res, err = f.gen.GenerateComments(ctx, contentgen.CommentsRequest{Count: new(30), PostIDs: two,
		CommentsPerPostMin: new(3), CommentsPerPostMax: new(3), AvatarPercentage: noAvatars})
	require.NoError(t, err)
	require.Equal(t, map[int64]int{two[0]: 15, two[1]: 15}, perPost(res.IDs))

	for _, c := range []struct {
		req   contentgen.CommentsRequest
		param string
	}{
		{contentgen.CommentsRequest{Count: new(0)}, "count"},
		{contentgen.CommentsRequest{Count: new(501)}, "count"},
		{contentgen.CommentsRequest{Count: new(5), FirstPost: -1}, "first_post"},
		{contentgen.CommentsRequest{Count: new(5), PostType: "book"}, "post_type"},
		{contentgen.CommentsRequest{Count: new(5), PostIDs: []int64{999}}, "post_ids"},
		{contentgen.CommentsRequest{PostType: "spaceship"}, "post_type"},
		{contentgen.CommentsRequest{ReplyProbability: new(101)}, "reply_probability"},
		{contentgen.CommentsRequest{Locale: "tlh"}, "locale"},
	} {
		_, gerr := f.gen.GenerateComments(ctx, c.req)
		var ce *contentgen.Error
		require.ErrorAs(t, gerr, &ce, "%+v", c.req)
		require.Equal(t, c.param, ce.Param, "%+v", c.req)
		_, cerr := f.gen.CheckComments(ctx, c.req)
		require.Equal(t, gerr.Error(), fmt.Sprint(cerr), "%+v", c.req)
	}
	// Without Count, no published book is no comment, as the
	// specification's endpoint has it.
	res, err = f.gen.GenerateComments(ctx, contentgen.CommentsRequest{PostType: "book"})
	require.NoError(t, err)
	require.Empty(t, res.IDs)
	c, err := f.gen.CheckComments(ctx, contentgen.CommentsRequest{Count: new(5)})
	require.NoError(t, err)
	require.Equal(t, contentgen.Check{Images: true}, c, "comments get avatars by default")
}
