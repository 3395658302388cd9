package contentgen_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/locales/markup/markuptest"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
)

// withReview adds a wysiwyg field to the books of f.
func withReview(f *fieldFixture) {
	f.adapter.set(append(bookFields(), fields.Field{Key: "field_review", Name: "review", Label: "Review", Type: fields.TypeWYSIWYG}))
}

// The format reaches the post bodies, the wysiwyg field values, the
// related posts and the history; excerpts stay plain text.
func TestContentFormatReachesBodiesFieldsAndRelatedPosts(t *testing.T) {
	t.Parallel()
	f := newFieldFixture(t, 5, nil)
	withReview(f)
	req := books(12)
	req.ContentFormat = contentgen.FormatBlocks
	_, posts := f.generate(t, req)
	require.Len(t, posts, 12)
	for _, p := range posts {
		require.NoError(t, markuptest.CheckBlocks(p.Content), "body of %d", p.ID)
		require.NoError(t, markuptest.CheckBlocks(p.Meta["review"]), "review of %d", p.ID)
		require.NotContains(t, p.Excerpt, "<")
		require.Equal(t, "blocks", f.historyMeta(t, p.ID)["content_format"])
	}
	related, err := f.host.Posts(context.Background(), contentgen.PostQuery{Types: []string{"publisher"}})
	require.NoError(t, err)
	require.NotEmpty(t, related)
	for _, p := range related {
		require.NoError(t, markuptest.CheckBlocks(p.Content), "related post %d", p.ID)
	}
	entries, _, err := f.hist.List(context.Background(), history.Filter{ContentType: "post", ContentSubtypes: []string{"publisher"}})
	require.NoError(t, err)
	require.NotEmpty(t, entries)
	for _, e := range entries {
		require.Equal(t, "blocks", e.Meta["content_format"])
	}
}

// A template's format applies unless the request names one; an inline
// field_config's format overrides the template's.
func TestContentFormatPrecedence(t *testing.T) {
	t.Parallel()
	f := newFieldFixture(t, 6, nil)
	withReview(f)
	ctx := context.Background()
	tpl, err := f.gen.Templates().Create(ctx, templates.Input{Name: "Static", PostType: "book",
		FieldConfig: templates.FieldConfig{ContentFormat: contentgen.FormatMarkdown}})
	require.NoError(t, err)

	format := func(req contentgen.PostsRequest) string {
		t.Helper()
		req.TemplateID = tpl.ID
		_, posts := f.generate(t, req)
		p := posts[0]
		got := f.historyMeta(t, p.ID)["content_format"].(string)
		switch got {
		case "markdown":
			require.NotContains(t, p.Content, "<")
			require.NotContains(t, p.Meta["review"], "<")
		case "blocks":
			require.NoError(t, markuptest.CheckBlocks(p.Content))
		case "html":
			require.True(t, strings.HasPrefix(p.Content, "<h2>") || strings.HasPrefix(p.Content, "<p>"), p.Content)
		}
		return got
	}
	require.Equal(t, "markdown", format(books(2)), "the template's format")
	req := books(2)
	req.ContentFormat = contentgen.FormatHTML
	require.Equal(t, "html", format(req), "the request's format wins")
	req = books(2)
	req.FieldConfig = &templates.FieldConfig{ContentFormat: contentgen.FormatBlocks}
	require.Equal(t, "blocks", format(req), "the inline field_config's format wins over the template's")
}

func TestUnknownContentFormatIsRejected(t *testing.T) {
	t.Parallel()
	f := newFieldFixture(t, 7, nil)
	for param, req := range map[string]contentgen.PostsRequest{
		"content_format":              {ContentFormat: "rtf"},
		"field_config.content_format": {FieldConfig: &templates.FieldConfig{ContentFormat: "rtf"}},
	} {
		_, err := f.gen.GeneratePosts(context.Background(), req)
		require.ErrorIs(t, err, contentgen.ErrInvalidParameter)
		var ce *contentgen.Error
		require.ErrorAs(t, err, &ce)
		require.Equal(t, param, ce.Param)
	}
	_, total, err := f.hist.List(context.Background(), history.Filter{})
	require.NoError(t, err)
	require.Zero(t, total, "nothing is written")
}
