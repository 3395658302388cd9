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
