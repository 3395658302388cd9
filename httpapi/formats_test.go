package httpapi_test

import (
	"bytes"
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/locales/markup/markuptest"
)

// generateBodies generates posts in a fresh site with a fixed seed and
// returns their bodies in id order, with their history entries' formats.
func generateBodies(t *testing.T, path string, params map[string]any) (bodies []string, formats []any) {
	t.Helper()
	e := newEnv(t)
	body := map[string]any{"count": 60, "seed": 7, "set_featured_image": false, "locale": "en_US"}
	for k, v := range params {
		body[k] = v
	}
	status, raw := e.raw("POST", path, body, asAdmin)
	require.Equal(t, http.StatusOK, status, string(raw))
	posts, err := e.host.Posts(context.Background(), contentgen.PostQuery{Types: []string{"post"}})
	require.NoError(t, err)
	for _, p := range posts {
		if p.Meta.Generated() {
			bodies = append(bodies, p.Content)
		}
	}
	require.Len(t, bodies, 60)
	status, hist := e.do("GET", "/history?type=post&limit=100", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, hist)
	for _, it := range hist["history"].([]any) {
		formats = append(formats, it.(map[string]any)["meta"].(map[string]any)["content_format"])
	}
	return bodies, formats
}

func requireFormat(t *testing.T, formats []any, want string) {
	t.Helper()
	require.NotEmpty(t, formats)
	for _, f := range formats {
		require.Equal(t, want, f, "the history records the format")
	}
}

// The same seed on the same site gives the same posts in every format:
// block markup the block editor parses back into blocks, and Markdown
// that renders to the structure of the HTML.
func TestContentFormats(t *testing.T) {
	t.Parallel()
	html, formats := generateBodies(t, "/generate/posts", nil)
	requireFormat(t, formats, "html")
	explicit, _ := generateBodies(t, "/generate/posts", map[string]any{"content_format": "html"})
	require.Equal(t, html, explicit)

	blocks, formats := generateBodies(t, "/generate/posts", map[string]any{"content_format": "blocks"})
	requireFormat(t, formats, "blocks")
	md, formats := generateBodies(t, "/generate/posts/stream", map[string]any{"content_format": "markdown"})
	requireFormat(t, formats, "markdown")

	// Markdown tables are GFM pipe tables.
	conv := goldmark.New(goldmark.WithExtensions(extension.Table))
	for i := range html {
		want, err := markuptest.Outline(html[i])
		require.NoError(t, err)
		require.True(t, slices.ContainsFunc(want, func(s string) bool { return strings.HasPrefix(s, "p:") && len(s) > 20 }), "the outline holds the text: %v", want)

		require.NoError(t, markuptest.CheckBlocks(blocks[i]), "post %d", i)
		got, err := markuptest.Outline(blocks[i])
		require.NoError(t, err)
		require.Equal(t, want, got, "blocks post %d", i)

		var rendered bytes.Buffer
		require.NoError(t, conv.Convert([]byte(md[i]), &rendered))
		got, err = markuptest.Outline(rendered.String())
		require.NoError(t, err)
		require.Equal(t, want, got, "markdown post %d:\n%s", i, md[i])
	}
}

// A template's field configuration sets the format of the posts made
// with it, and the request's content_format overrides it.
func TestTemplateContentFormat(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.createTemplate(map[string]any{"name": "Static site", "post_type": "post",
		"field_config": map[string]any{"content_format": "markdown"}})
	fc := e.template(id)["field_config"].(map[string]any)
	require.Equal(t, "markdown", fc["content_format"], "the template keeps its format")

	generated := func(params map[string]any) []contentgen.Post {
		t.Helper()
		body := map[string]any{"count": 5, "set_featured_image": false, "template_id": id}
		for k, v := range params {
			body[k] = v
		}
		status, out := e.do("POST", "/generate/posts", body, asAdmin)
		require.Equal(t, http.StatusOK, status, out)
		var ids []int64
		for _, v := range out["ids"].([]any) {
			ids = append(ids, int64(v.(float64)))
		}
		posts, err := e.host.Posts(context.Background(), contentgen.PostQuery{IDs: contentgen.OnlyIDs(ids...)})
		require.NoError(t, err)
		require.Len(t, posts, 5)
		return posts
	}
	for _, p := range generated(nil) {
		require.NotContains(t, p.Content, "<", "markdown from the template")
		require.NotContains(t, p.Excerpt, "<")
	}
	for _, p := range generated(map[string]any{"content_format": "blocks"}) {
		require.True(t, strings.HasPrefix(p.Content, "<!-- wp:"), "the request overrides the template: %q", p.Content)
		require.NoError(t, markuptest.CheckBlocks(p.Content))
		require.NotContains(t, p.Excerpt, "<!--", "excerpts stay plain text")
	}
}
