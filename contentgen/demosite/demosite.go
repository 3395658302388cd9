package demosite

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/memhost"
)

// Names of the demo site's registrations and hand-made content.
const (
	// AdminLogin is the login of the demo site's administrator.
	AdminLogin = "admin"
	// CategorySlug is the slug of the hand-made category Uncategorized.
	CategorySlug = "uncategorized"
	// PostTitle is the title of the hand-made post.
	PostTitle = "Hello world!"
	// PageTitle is the title of the hand-made page.
	PageTitle = "Sample Page"
	// BookType is the demo site's custom post type.
	BookType = "book"
	// GenreTaxonomy is the hierarchical taxonomy of BookType.
	GenreTaxonomy = "genre"
)

// Texts of the demo site's hand-made content.
const (
	categoryName   = "Uncategorized"
	commenterName  = "A Commenter"
	commenterEmail = "commenter@example.org"
	commenterSite  = "https://example.org/"
	postContent    = "<p>Welcome to the site. This is your first post. Edit or delete it, then start writing!</p>"
	pageContent    = "<p>This is an example page. It differs from a post because it stays in one place and shows up in the site navigation.</p>"
	commentContent = "Hi, this is a comment. To get started with moderating, editing and deleting comments, visit the Comments screen of the dashboard."
)

// New returns an in-memory host set up like a fresh install of a content
// platform, for the example server and for tests:
//
//   - post types "post" (title, editor, author, thumbnail, excerpt,
//     comments; taxonomies category and post_tag), "page" (hierarchical;
//     title, editor, author, thumbnail, page-attributes), "attachment"
//     (internal) and the custom type "book" (title, editor, author,
//     thumbnail, excerpt; taxonomy genre);
//   - taxonomies "category" (hierarchical, with the term Uncategorized),
//     "post_tag" (flat) and "genre" (hierarchical);
//   - the administrator "admin" (see AdminLogin);
//   - the published post "Hello world!" in Uncategorized, the published page
//     "Sample Page" and one approved comment on the post.
//
// Nothing it makes carries contentgen.MarkerKey: it is all hand-made
// content, which generation and cleanup must leave alone. opts is as for
// memhost.New; its Roles must include the administrator role.
func New(opts *memhost.Options) (*memhost.Host, error) {
	h := memhost.New(opts)
	if err := setUp(context.Background(), h); err != nil {
		return nil, fmt.Errorf("demosite: building the demo site: %w", err)
	}
	return h, nil
}

func setUp(ctx context.Context, h *memhost.Host) error {
	types, taxonomies := Types()
	for _, pt := range types {
		if err := h.RegisterPostType(pt); err != nil {
			return err
		}
	}
	for _, tx := range taxonomies {
		if err := h.RegisterTaxonomy(tx); err != nil {
			return err
		}
	}
	return Seed(ctx, h)
}

// Types returns the post types and taxonomies of the demo site, for
// hosts that register them otherwise (such as a database host).
func Types() ([]contentgen.PostType, []contentgen.Taxonomy) {
	types := []contentgen.PostType{
		{
			Name: "post", Label: "Posts", Public: true, HasArchive: true,
			Labels:      map[string]string{"name": "Posts", "singular_name": "Post"},
			Description: "Blog posts, listed newest first.",
			Supports:    []string{"title", "editor", "author", "thumbnail", "excerpt", "comments"},
			Taxonomies:  []string{"category", "post_tag"},
			MenuIcon:    "dashicons-admin-post",
		},
		{
			Name: "page", Label: "Pages", Public: true, Hierarchical: true,
			Labels:      map[string]string{"name": "Pages", "singular_name": "Page"},
			Description: "Static pages in a hierarchy.",
			Supports:    []string{"title", "editor", "author", "thumbnail", "page-attributes"},
			MenuIcon:    "dashicons-admin-page",
		},
		{
			Name: "attachment", Label: "Media",
			Labels:   map[string]string{"name": "Media", "singular_name": "Media"},
			Supports: []string{"title", "author"},
			Internal: true,
			MenuIcon: "dashicons-admin-media",
		},
		{
			Name: BookType, Label: "Books", Public: true, HasArchive: true,
			Labels:      map[string]string{"name": "Books", "singular_name": "Book"},
			Description: "A catalogue of books.",
			Supports:    []string{"title", "editor", "author", "thumbnail", "excerpt"},
			Taxonomies:  []string{GenreTaxonomy},
			MenuIcon:    "dashicons-book",
		},
	}
	taxonomies := []contentgen.Taxonomy{
		{
			Name: "category", Label: "Categories", Hierarchical: true, Public: true,
			Labels:    map[string]string{"name": "Categories", "singular_name": "Category"},
			PostTypes: []string{"post"},
		},
		{
			Name: "post_tag", Label: "Tags", Public: true,
			Labels:    map[string]string{"name": "Tags", "singular_name": "Tag"},
			PostTypes: []string{"post"},
		},
		{
			Name: GenreTaxonomy, Label: "Genres", Hierarchical: true, Public: true,
			Labels:    map[string]string{"name": "Genres", "singular_name": "Genre"},
			PostTypes: []string{BookType},
		},
	}
	return types, taxonomies
}

// Seed writes the hand-made content of the demo site to h, whose post
// types, taxonomies and roles must be those of Types and
// memhost.StandardRoles: the administrator, a category, a post filed under
// it, a page and a comment. Their dates are left to the host (memhost
// dates them by its clock); SeedAt dates them.
func Seed(ctx context.Context, h contentgen.Host) error { return SeedAt(ctx, h, time.Time{}) }

// SeedAt is Seed with the post, the page and the comment published and the
// administrator registered at the time at, for hosts that store dates as
// they are given (such as contentgen/sqlstore). The zero time is Seed.
func SeedAt(ctx context.Context, h contentgen.Host, at time.Time) error {
	site, err := h.Site(ctx)
	if err != nil {
		return err
	}
	domain := "example.com"
	if u, err := url.Parse(site.URL); err == nil && u.Hostname() != "" && u.Hostname() != "localhost" {
		domain = u.Hostname()
	}
	users, err := h.CreateUsers(ctx, []contentgen.User{{
		Login: AdminLogin, Email: "admin@" + domain, DisplayName: AdminLogin,
		URL: site.URL, Roles: []string{memhost.RoleAdministrator}, Registered: at,
	}})
	if err != nil {
		return err
	}
	admin := users[0]
	cats, err := h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "category", Name: categoryName, Slug: CategorySlug}})
	if err != nil {
		return err
	}
	posts, err := h.CreatePosts(ctx, []contentgen.Post{
		{
			Type: "post", Status: contentgen.StatusPublish, Title: PostTitle,
			Content: postContent, AuthorID: admin, Date: at,
			Terms: map[string][]int64{"category": {cats[0]}},
		},
		{
			Type: "page", Status: contentgen.StatusPublish, Title: PageTitle,
			Content: pageContent, AuthorID: admin, Date: at,
		},
	})
	if err != nil {
		return err
	}
	_, err = h.CreateComments(ctx, []contentgen.Comment{{
		PostID: posts[0], AuthorName: commenterName, AuthorEmail: commenterEmail,
		AuthorURL: commenterSite, Content: commentContent, Status: contentgen.CommentApproved, Date: at,
	}})
	return err
}
