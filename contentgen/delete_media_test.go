package contentgen_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/local"
)

// TestDeletePostsFollowsTheRelatedSettings: a posts deletion that does not
// say whether to remove the featured images, terms and authors generated
// with the posts follows the delete_related_* settings, true by default,
// so the images do not stay behind; a request saying false keeps them,
// and delete_media_with_posts removes the images whatever it says.
func TestDeletePostsFollowsTheRelatedSettings(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name        string
		patch       func(*contentgen.Settings)
		req         contentgen.DeletePostsRequest
		mediaLeft   bool
		authorsLeft bool
	}{
		{"defaults", func(*contentgen.Settings) {}, contentgen.DeletePostsRequest{}, false, false},
		{"request keeps them", func(*contentgen.Settings) {}, contentgen.DeletePostsRequest{DeleteRelatedMedia: new(false), DeleteRelatedAuthors: new(false)}, true, true},
		{"settings keep them", func(s *contentgen.Settings) { s.DeleteRelatedMedia, s.DeleteRelatedAuthors = false, false }, contentgen.DeletePostsRequest{}, true, true},
		{"request overrides settings", func(s *contentgen.Settings) { s.DeleteRelatedMedia = false }, contentgen.DeletePostsRequest{DeleteRelatedMedia: new(true)}, false, false},
		{"delete_media_with_posts", func(s *contentgen.Settings) { s.DeleteMediaWithPosts = true }, contentgen.DeletePostsRequest{DeleteRelatedMedia: new(false)}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			host, err := demosite.New(nil)
			require.NoError(t, err)
			lp, err := local.New(nil)
			require.NoError(t, err)
			seed := int64(5)
			gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed, ImageProviders: []providers.ImageProvider{lp}})
			require.NoError(t, err)
			_, err = gen.Settings().Update(ctx, tt.patch)
			require.NoError(t, err)
			res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(10), ImageProvider: providers.Local, ImageWidth: new(200), ImageHeight: new(150)})
			require.NoError(t, err)
			require.Equal(t, 10, res.WithFeaturedImage)
			require.Positive(t, res.Authors)
			before, err := host.Media(ctx, contentgen.MediaQuery{})
			require.NoError(t, err)

			req := tt.req
			req.PostType = "post"
			rm, err := gen.DeletePosts(ctx, req)
			require.NoError(t, err)
			require.Equal(t, 10, rm.Posts)
			after, err := host.Media(ctx, contentgen.MediaQuery{})
			require.NoError(t, err)
			if tt.mediaLeft {
				require.Len(t, after, len(before))
				require.Zero(t, rm.Media)
			} else {
				require.Len(t, after, len(before)-10, "the ten featured images went with their posts")
				require.Equal(t, 10, rm.Media)
			}
			require.Equal(t, tt.authorsLeft, rm.Users == 0)
		})
	}
}
