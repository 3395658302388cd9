package contentgen_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/history"
)

// A unit test builds its fixtures in a few lines: a demo site in memory, a
// Generator with a fixed seed, and the content it needs.
func Example_fixtures() {
	ctx := context.Background()
	host, _ := demosite.New(nil)
	seed := int64(42)
	gen, _ := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed})

	posts, _ := gen.GeneratePosts(ctx, contentgen.PostsRequest{
		Count:            new(3),
		SetFeaturedImage: new(false),
		AutoComments:     true,
	})
	users, _ := gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(2), Role: "editor", GenerateAvatars: new(false)})
	fmt.Println(len(posts.IDs), "posts,", len(users.IDs), "editors")

	// Remove exactly what was generated; the demo site's own content stays.
	res, _ := gen.DeleteAll(ctx)
	fmt.Println(res.Posts, "posts removed")
	left, _ := host.Posts(ctx, contentgen.PostQuery{Types: []string{"post"}})
	fmt.Println(len(left), "hand-made post left:", left[0].Title)
	// Output:
	// 3 posts, 2 editors
	// 3 posts removed
	// 1 hand-made post left: Hello world!
}

// Posts for a block editor site come as block markup, posts for a static
// site generator as Markdown; the excerpt stays plain text.
func ExamplePostsRequest_contentFormat() {
	ctx := context.Background()
	host, _ := demosite.New(nil)
	seed := int64(42)
	gen, _ := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed})

	res, _ := gen.GeneratePosts(ctx, contentgen.PostsRequest{
		Count:            new(1),
		SetFeaturedImage: new(false),
		ContentFormat:    contentgen.FormatBlocks,
	})
	posts, _ := host.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
	fmt.Println(strings.SplitN(posts[0].Content, "\n", 2)[0])

	_, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{ContentFormat: "docx"})
	fmt.Println(err)
	// Output:
	// <!-- wp:heading -->
	// invalid_parameter: content_format must be one of html, blocks, markdown, got "docx"
}
