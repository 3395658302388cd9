package sqlstore_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/history"
)

// TestGenerator runs the Generator on a Host and history of one database:
// posts with comments and users are generated, each batch with its
// history in one transaction, and then removed exactly.
func TestGenerator(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := t.Context()
		db := e.open(t, nil)
		h := db.Host(nil)
		require.NoError(t, h.RegisterPostType(ctx, contentgen.PostType{
			Name: "post", Label: "Posts", Public: true, Supports: []string{"title", "editor", "comments", "author"},
			Taxonomies: []string{"category", "post_tag"},
		}))
		require.NoError(t, h.RegisterTaxonomy(ctx, contentgen.Taxonomy{Name: "category", Hierarchical: true, Public: true, PostTypes: []string{"post"}}))
		require.NoError(t, h.RegisterTaxonomy(ctx, contentgen.Taxonomy{Name: "post_tag", Public: true, PostTypes: []string{"post"}}))
		require.NoError(t, h.RegisterRole(ctx, contentgen.Role{Slug: "administrator", Capabilities: []string{contentgen.ManageOptions}}))
		require.NoError(t, h.RegisterRole(ctx, contentgen.Role{Slug: "editor", Capabilities: []string{"edit_posts"}}))
		admin, err := h.CreateUsers(ctx, []contentgen.User{{Login: "admin", Email: "admin@example.com", Roles: []string{"administrator"}}})
		require.NoError(t, err)
		hand, err := h.CreatePosts(ctx, []contentgen.Post{{Type: "post", Status: contentgen.StatusPublish, Title: "Hello world!", AuthorID: admin[0]}})
		require.NoError(t, err)

		seed := int64(7)
		gen, err := contentgen.New(h, db.History(), &contentgen.Config{Seed: &seed, State: db.State(), Templates: db.Templates()})
		require.NoError(t, err)
		posts, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(40), SetFeaturedImage: new(false), AutoComments: true})
		require.NoError(t, err)
		require.Len(t, posts.IDs, 40)
		users, err := gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(3), Role: "editor", GenerateAvatars: new(false)})
		require.NoError(t, err)
		require.Len(t, users.IDs, 3)

		terms, err := gen.GenerateTerms(ctx, contentgen.TermsRequest{Taxonomy: "category", Count: new(12), GenerateHierarchy: true})
		require.NoError(t, err)
		require.NotEmpty(t, terms.IDs)
		comments, err := gen.GenerateComments(ctx, contentgen.CommentsRequest{PostIDs: posts.IDs[:5], CommentsPerPostMin: new(2), CommentsPerPostMax: new(3), EnableThreading: new(true)})
		require.NoError(t, err)
		require.NotEmpty(t, comments.IDs)

		entries, _, err := db.History().List(ctx, history.Filter{ContentType: history.TypePost})
		require.NoError(t, err)
		require.Len(t, entries, 40, "one history entry per generated post")
		got, err := h.Posts(ctx, contentgen.PostQuery{Types: []string{"post"}})
		require.NoError(t, err)
		require.Len(t, got, 41)

		_, err = gen.DeleteAll(ctx)
		require.NoError(t, err)
		got, err = h.Posts(ctx, contentgen.PostQuery{Types: []string{"post"}})
		require.NoError(t, err)
		require.Equal(t, hand, []int64{got[0].ID}, "only the hand-made post is left")
		_, total, err := db.History().List(context.Background(), history.Filter{})
		require.NoError(t, err)
		require.Zero(t, total, "no history is left")
		left, err := h.Users(ctx, contentgen.UserQuery{})
		require.NoError(t, err)
		require.Len(t, left, 1)
		cats, err := h.Terms(ctx, contentgen.TermQuery{})
		require.NoError(t, err)
		require.Empty(t, cats)
		cs, err := h.Comments(ctx, contentgen.CommentQuery{})
		require.NoError(t, err)
		require.Empty(t, cs)
		require.Equal(t, admin[0], left[0].ID, "only the hand-made user is left")
	})
}
