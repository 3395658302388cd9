package contentgen_test

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"golang.org/x/net/html"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/locales/markup/markuptest"
)

// richSite is a demo site with a media library of images and technical
// terms (a "Programming" category, a "Science" tag) for posts to use.
func richSite(t *testing.T, seed int64) *fixture {
	t.Helper()
	f := newFixture(t, seed)
	ctx := context.Background()
	site, err := f.host.Site(ctx)
	require.NoError(t, err)
	var media []contentgen.Media
	for i := range 6 {
		media = append(media, contentgen.Media{
			Title: fmt.Sprintf("Photo %d", i), Filename: fmt.Sprintf("photo-%d.jpg", i), MIMEType: "image/jpeg",
			URL: fmt.Sprintf("%s/wp-content/uploads/2024/05/photo-%d.jpg", site.URL, i), Width: 1200, Height: 800, Date: clock(),
		})
	}
	_, err = f.host.CreateMedia(ctx, media)
	require.NoError(t, err)
	_, err = f.host.CreateTerms(ctx, []contentgen.Term{
		{Taxonomy: "category", Name: "Programming", Slug: "programming"},
		{Taxonomy: "post_tag", Name: "Science", Slug: "science"},
	})
	require.NoError(t, err)
	return f
}

// richRuns are the requests the rich body tests make: default settings,
// and variation with the random profile.
var richRuns = map[string]contentgen.PostsRequest{
	"default":        {Count: new(200)},
	"random profile": {Count: new(200), EnableVariation: new(true), VariationProfile: contentgen.ProfileRandom},
}

// generateRich makes the posts of req in format on a fresh rich site of
// seed and returns them in order.
func generateRich(t *testing.T, seed int64, req contentgen.PostsRequest, format contentgen.ContentFormat) ([]contentgen.Post, string) {
	t.Helper()
	f := richSite(t, seed)
	req.ContentFormat = format
	res, err := f.gen.GeneratePosts(context.Background(), noImages(req))
	require.NoError(t, err)
	site, err := f.host.Site(context.Background())
	require.NoError(t, err)
	return f.posts(t, res.IDs), site.URL
}

// allowedLinkHost reports whether a link may point to host: the site's
// own, or a reserved example domain and its subdomains.
func allowedLinkHost(host, site string) bool {
	if host == site {
		return true
	}
	for _, d := range []string{"example.com", "example.org", "example.net"} {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// Over a batch of generated posts, the HTML bodies hold every element
// kind, balanced, with links only to the site and to example domains and
// images only from the media library.
func TestGeneratedBodiesAreRichAndBalanced(t *testing.T) {
	t.Parallel()
	for name, req := range richRuns {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			posts, siteURL := generateRich(t, 61, req, contentgen.FormatHTML)
			site, err := url.Parse(siteURL)
			require.NoError(t, err)
			seen := map[string]int{}
			for _, p := range posts {
				require.NoError(t, markuptest.CheckBalanced(p.Content), "post %d:\n%s", p.ID, p.Content)
				z := html.NewTokenizer(strings.NewReader(p.Content))
				for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
					if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
						continue
					}
					tok := z.Token()
					seen[tok.Data]++
					for _, a := range tok.Attr {
						if a.Key != "href" && a.Key != "src" {
							continue
						}
						u, err := url.Parse(a.Val)
						require.NoError(t, err)
						require.True(t, allowedLinkHost(u.Host, site.Host), "post %d links to %s", p.ID, a.Val)
						if a.Key == "src" {
							require.Contains(t, a.Val, "/wp-content/uploads/2024/05/photo-", "images come from the media library")
						}
					}
				}
			}
			for _, tag := range []string{"h2", "h3", "p", "ul", "ol", "li", "blockquote", "cite", "a", "em", "strong",
				"figure", "img", "figcaption", "table", "thead", "tbody", "tr", "th", "td", "pre", "code"} {
				require.Positive(t, seen[tag], "no <%s> in %d posts", tag, len(posts))
			}
		})
	}
}

// The same seed gives the same bodies in every format: the block markup
// opens in the block editor, the Markdown renders, and all three have
// the structure of the HTML.
func TestGeneratedBodiesHaveOneStructureInEveryFormat(t *testing.T) {
	t.Parallel()
	md := goldmark.New(goldmark.WithExtensions(extension.Table))
	for name, req := range richRuns {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req.Count = new(80)
			htmlPosts, _ := generateRich(t, 62, req, contentgen.FormatHTML)
			blockPosts, _ := generateRich(t, 62, req, contentgen.FormatBlocks)
			mdPosts, _ := generateRich(t, 62, req, contentgen.FormatMarkdown)
			require.Len(t, blockPosts, len(htmlPosts))
			require.Len(t, mdPosts, len(htmlPosts))
			for i, p := range htmlPosts {
				want, err := markuptest.Outline(p.Content)
				require.NoError(t, err)

				blocks := blockPosts[i].Content
				require.NoError(t, markuptest.CheckBlocks(blocks), "post %d", i)
				got, err := markuptest.Outline(blocks)
				require.NoError(t, err)
				require.Equal(t, want, got, "post %d in blocks:\n%s", i, blocks)

				var rendered bytes.Buffer
				require.NoError(t, md.Convert([]byte(mdPosts[i].Content), &rendered))
				require.NoError(t, markuptest.CheckBalanced(rendered.String()), "post %d", i)
				got, err = markuptest.Outline(rendered.String())
				require.NoError(t, err)
				require.Equal(t, want, got, "post %d in markdown:\n%s", i, mdPosts[i].Content)
			}
		})
	}
}

// The minimal profile keeps bodies plain: paragraphs only.
func TestMinimalProfileKeepsBodiesPlain(t *testing.T) {
	t.Parallel()
	posts, _ := generateRich(t, 63, contentgen.PostsRequest{Count: new(60), EnableVariation: new(true), VariationProfile: contentgen.ProfileMinimal}, contentgen.FormatHTML)
	for _, p := range posts {
		got, err := markuptest.Outline(p.Content)
		require.NoError(t, err)
		for _, e := range got {
			require.True(t, strings.HasPrefix(e, "p:"), "post %d holds %s", p.ID, e)
		}
	}
}

// Links point to posts that exist and are published: those of the site
// and those written by earlier batches of the run.
func TestGeneratedLinksPointToPublishedPosts(t *testing.T) {
	t.Parallel()
	f := richSite(t, 64)
	ctx := context.Background()
	res, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(120), PostStatus: "random"}))
	require.NoError(t, err)
	site, err := f.host.Site(ctx)
	require.NoError(t, err)
	linked := 0
	for _, p := range f.posts(t, res.IDs) {
		z := html.NewTokenizer(strings.NewReader(p.Content))
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			tok := z.Token()
			if tt != html.StartTagToken || tok.Data != "a" {
				continue
			}
			href := tok.Attr[0].Val
			if !strings.HasPrefix(href, site.URL+"/?") {
				continue
			}
			u, err := url.Parse(href)
			require.NoError(t, err)
			id := u.Query().Get("p")
			if id == "" {
				id = u.Query().Get("page_id")
			}
			var n int64
			_, err = fmt.Sscan(id, &n)
			require.NoError(t, err, href)
			target, err := f.host.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(n)})
			require.NoError(t, err)
			require.Len(t, target, 1, href)
			require.Equal(t, contentgen.StatusPublish, target[0].Status, href)
			linked++
		}
	}
	require.Positive(t, linked)
}
