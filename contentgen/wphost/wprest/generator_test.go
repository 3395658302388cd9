package wprest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/local"
)

// The Generator runs on a real site through the REST host: posts of a
// custom type with featured images drawn offline, terms and threaded
// comments, and users; DeleteAll then removes exactly that.
func TestGeneratorOnSite(t *testing.T) {
	h := siteHost(t)
	ctx := t.Context()
	seed := int64(7)
	images, err := local.New(nil)
	require.NoError(t, err)
	gen, err := contentgen.New(h, history.NewMemStore(nil), &contentgen.Config{Seed: &seed, ImageProviders: []providers.ImageProvider{images}})
	require.NoError(t, err)

	// The site's own posts: everything not generated.
	own := func() []int64 {
		all, err := h.Posts(ctx, contentgen.PostQuery{})
		require.NoError(t, err)
		var ids []int64
		for _, p := range all {
			if !p.Meta.Generated() {
				ids = append(ids, p.ID)
			}
		}
		return ids
	}
	before := own()
	t.Cleanup(func() { _, _ = gen.DeleteAll(context.Background()) })

	posts, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{
		PostType: "book", Count: new(4), PostStatus: contentgen.StatusPublish,
		SetFeaturedImage: new(true), ImageProvider: "provider_local", ImageWidth: new(320), ImageHeight: new(200),
		AutoComments: true, CommentsPerPostMin: new(2), CommentsPerPostMax: new(3), EnableCommentThreading: new(true),
	})
	require.NoError(t, err)
	require.Len(t, posts.IDs, 4)
	require.Empty(t, posts.Warnings)
	users, err := gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(2), Role: "author", GenerateAvatars: new(false)})
	require.NoError(t, err)
	require.Len(t, users.IDs, 2)

	got, err := h.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(posts.IDs...)})
	require.NoError(t, err)
	require.Len(t, got, 4)
	var featured int64
	for _, p := range got {
		require.Equal(t, "book", p.Type)
		require.True(t, p.Meta.Generated(), "post %d carries the generated marker", p.ID)
		require.NotEmpty(t, p.Content)
		featured = max(featured, p.FeaturedMediaID)
	}
	require.Positive(t, featured, "some post has a featured image")
	media, err := h.Media(ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(featured)})
	require.NoError(t, err)
	require.Len(t, media, 1)
	data, mimeType, err := h.MediaBytes(ctx, media[0].ID)
	require.NoError(t, err)
	require.Equal(t, "image/jpeg", mimeType)
	require.Equal(t, []byte{0xff, 0xd8}, data[:2], "the site serves the uploaded JPEG")
	comments, err := h.Comments(ctx, contentgen.CommentQuery{PostIDs: contentgen.OnlyIDs(posts.IDs...)})
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(comments), 8)

	removed, err := gen.DeleteAll(ctx)
	require.NoError(t, err)
	require.GreaterOrEqual(t, removed.Posts, 4)
	require.GreaterOrEqual(t, removed.Users, 2)
	left, err := h.Posts(ctx, contentgen.PostQuery{MetaKey: contentgen.MarkerKey, MetaValue: contentgen.MarkerValue})
	require.NoError(t, err)
	require.Empty(t, left, "no generated post is left")
	require.Equal(t, before, own(), "the site's own posts stay")
	gone, err := h.Exist(ctx, contentgen.KindMedia, []int64{media[0].ID})
	require.NoError(t, err)
	require.Equal(t, []bool{false}, gone, "the generated image is removed with its post")
}
