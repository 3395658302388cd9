package demosite_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
)

// clock is a fixed instant for tests that check dates.
func clock() time.Time { return time.Date(2024, 5, 17, 9, 0, 0, 0, time.UTC) }

func TestDemoSite(t *testing.T) {
	t.Parallel()
	h, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	ctx := t.Context()

	types, err := h.PostTypes(ctx)
	require.NoError(t, err)
	byName := map[string]contentgen.PostType{}
	for _, pt := range types {
		byName[pt.Name] = pt
	}
	require.Len(t, byName, 4)
	post := byName["post"]
	require.True(t, post.Public)
	require.ElementsMatch(t, []string{"title", "editor", "author", "thumbnail", "excerpt", "comments"}, post.Supports)
	require.ElementsMatch(t, []string{"category", "post_tag"}, post.Taxonomies)
	require.Equal(t, 1, post.Count[contentgen.StatusPublish])
	require.Equal(t, 0, post.Count[contentgen.StatusDraft])
	page := byName["page"]
	require.True(t, page.Hierarchical)
	require.Contains(t, page.Supports, "page-attributes")
	require.Equal(t, 1, page.Count[contentgen.StatusPublish])
	require.True(t, byName["attachment"].Internal)
	book := byName[demosite.BookType]
	require.True(t, book.Public)
	require.False(t, book.Internal)
	require.Equal(t, []string{demosite.GenreTaxonomy}, book.Taxonomies)
	require.ElementsMatch(t, []string{"title", "editor", "author", "thumbnail", "excerpt"}, book.Supports)

	taxes, err := h.Taxonomies(ctx)
	require.NoError(t, err)
	taxByName := map[string]contentgen.Taxonomy{}
	for _, tx := range taxes {
		taxByName[tx.Name] = tx
	}
	require.True(t, taxByName["category"].Hierarchical)
	require.Equal(t, 1, taxByName["category"].Count)
	require.False(t, taxByName["post_tag"].Hierarchical)
	require.Equal(t, 0, taxByName["post_tag"].Count)
	require.True(t, taxByName[demosite.GenreTaxonomy].Hierarchical)
	require.Equal(t, []string{demosite.BookType}, taxByName[demosite.GenreTaxonomy].PostTypes)

	users, err := h.Users(ctx, contentgen.UserQuery{})
	require.NoError(t, err)
	require.Len(t, users, 1)
	require.Equal(t, demosite.AdminLogin, users[0].Login)
	require.Equal(t, []string{memhost.RoleAdministrator}, users[0].Roles)
	require.NotEmpty(t, users[0].Email)

	terms, err := h.Terms(ctx, contentgen.TermQuery{})
	require.NoError(t, err)
	require.Len(t, terms, 1)
	require.Equal(t, "Uncategorized", terms[0].Name)
	require.Equal(t, demosite.CategorySlug, terms[0].Slug)
	require.Equal(t, 1, terms[0].Count)

	posts, err := h.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	require.Len(t, posts, 2)
	require.Equal(t, "post", posts[0].Type)
	require.Equal(t, demosite.PostTitle, posts[0].Title)
	require.Equal(t, contentgen.StatusPublish, posts[0].Status)
	require.Equal(t, users[0].ID, posts[0].AuthorID)
	require.Equal(t, []int64{terms[0].ID}, posts[0].Terms["category"])
	require.True(t, clock().Equal(posts[0].Date), "the injected clock dates the hand-made content")
	require.Equal(t, "page", posts[1].Type)
	require.Equal(t, demosite.PageTitle, posts[1].Title)

	comments, err := h.Comments(ctx, contentgen.CommentQuery{})
	require.NoError(t, err)
	require.Len(t, comments, 1)
	require.Equal(t, posts[0].ID, comments[0].PostID)
	require.Equal(t, contentgen.CommentApproved, comments[0].Status)

	// Nothing hand-made carries the generated marker.
	for _, p := range posts {
		require.False(t, p.Meta.Generated(), p.Title)
	}
	for _, tm := range terms {
		require.False(t, tm.Meta.Generated(), tm.Name)
	}
	for _, u := range users {
		require.False(t, u.Meta.Generated(), u.Login)
	}
	for _, c := range comments {
		require.False(t, c.Meta.Generated())
	}
	found, err := h.Posts(ctx, contentgen.PostQuery{MetaKey: contentgen.MarkerKey})
	require.NoError(t, err)
	require.Empty(t, found)
}

// TestSeedOnAnotherHost writes the demo site into a host that registers
// the types itself, as a database host does.
func TestSeedOnAnotherHost(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	h := memhost.New(nil)
	types, taxes := demosite.Types()
	for _, pt := range types {
		require.NoError(t, h.RegisterPostType(pt))
	}
	for _, tx := range taxes {
		require.NoError(t, h.RegisterTaxonomy(tx))
	}
	require.NoError(t, demosite.Seed(ctx, h))
	posts, err := h.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	require.Len(t, posts, 2)
	require.Equal(t, demosite.PostTitle, posts[0].Title)
	users, err := h.Users(ctx, contentgen.UserQuery{Login: demosite.AdminLogin})
	require.NoError(t, err)
	require.Len(t, users, 1)
	require.Equal(t, "admin@example.com", users[0].Email, "a host without a public address gets example.com")
}

func Example() {
	ctx := context.Background()
	host, err := demosite.New(nil)
	if err != nil {
		panic(err)
	}
	books, err := host.Posts(ctx, contentgen.PostQuery{Types: []string{demosite.BookType}})
	if err != nil {
		panic(err)
	}
	posts, err := host.Posts(ctx, contentgen.PostQuery{Types: []string{"post"}})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(books), "books;", posts[0].Title)
	// Output: 0 books; Hello world!
}
