package templates_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"

	"github.com/contentgen/contentgen/locales/markup"
	"github.com/contentgen/contentgen/locales/markup/markuptest"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
)

func TestContentFormatDecodesMergesAndDiffs(t *testing.T) {
	t.Parallel()
	fc, err := templates.ParseFieldConfig([]byte(`{"content_format":"markdown","core_fields":{"post_title":{"mode":"none"}}}`))
	require.NoError(t, err)
	require.Equal(t, markup.Markdown, fc.ContentFormat)
	out, err := json.Marshal(fc)
	require.NoError(t, err)
	require.JSONEq(t, `{"content_format":"markdown","core_fields":{"post_title":{"mode":"none"}}}`, string(out))
	plain, err := json.Marshal(templates.FieldConfig{})
	require.NoError(t, err)
	require.JSONEq(t, `{}`, string(plain), "an unset format stays out of the record")

	parent := templates.FieldConfig{ContentFormat: markup.Blocks}
	require.Equal(t, markup.Blocks, templates.MergeFieldConfig(parent, templates.FieldConfig{}).ContentFormat, "a variant without a format inherits its parent's")
	require.Equal(t, markup.Markdown, templates.MergeFieldConfig(parent, fc).ContentFormat, "a variant's format wins")
	require.Equal(t, markup.Blocks, parent.Clone().ContentFormat)

	require.Empty(t, templates.DiffFieldConfig(parent, parent).ContentFormat, "the parent's format is not stored again")
	require.Empty(t, templates.DiffFieldConfig(parent, templates.FieldConfig{}).ContentFormat, "an unset format inherits")
	d := templates.DiffFieldConfig(parent, templates.FieldConfig{ContentFormat: markup.HTML})
	require.Equal(t, markup.HTML, d.ContentFormat)
	require.Equal(t, markup.HTML, templates.MergeFieldConfig(parent, d).ContentFormat)
}

// wysiwygValues fills a wysiwyg field under varied shapes in format f,
// seed by seed; the same seeds give the same values in every format.
func wysiwygValues(t *testing.T, f markup.Format) []string {
	t.Helper()
	field := fields.Field{Name: "body", Type: fields.TypeWYSIWYG}
	var out []string
	for seed := range uint64(100) {
		r := rand.New(rand.NewPCG(seed, 3))
		g := templates.NewFiller(r, templates.NewLoremText(r), &templates.FillOptions{ContentFormat: f})
		for _, c := range []*templates.CreateOptions{
			nil,
			{ParagraphCountMin: 3, ParagraphCountMax: 7, HTMLOptions: &templates.HTMLOptions{Headings: true, Lists: true}},
			{Method: templates.MethodWords, WordCountMin: 4, WordCountMax: 9},
		} {
			v, ok := g.Value(&field, &templates.FieldSetting{Mode: templates.ModeCreate, Create: c})
			require.True(t, ok)
			out = append(out, v.(string))
		}
	}
	return out
}

func TestWysiwygValuesFollowTheContentFormat(t *testing.T) {
	t.Parallel()
	html := wysiwygValues(t, markup.HTML)
	require.Equal(t, html, wysiwygValues(t, ""), "an empty format is HTML")
	blocks := wysiwygValues(t, markup.Blocks)
	md := wysiwygValues(t, markup.Markdown)
	conv := goldmark.New()
	for i := range html {
		want, err := markuptest.Outline(html[i])
		require.NoError(t, err)
		require.NotEmpty(t, want)

		require.NoError(t, markuptest.CheckBlocks(blocks[i]), "value %d", i)
		got, err := markuptest.Outline(blocks[i])
		require.NoError(t, err)
		require.Equal(t, want, got, "blocks value %d", i)

		var rendered bytes.Buffer
		require.NoError(t, conv.Convert([]byte(md[i]), &rendered))
		got, err = markuptest.Outline(rendered.String())
		require.NoError(t, err)
		require.Equal(t, want, got, "markdown value %d:\n%s", i, md[i])
	}
	require.Equal(t, "<p>", html[2][:3], "a value of a few words is one paragraph")
	require.NotEqual(t, byte('\n'), html[2][len(html[2])-1])
}

func TestPlainWysiwygValuesStayPlainInEveryFormat(t *testing.T) {
	t.Parallel()
	field := fields.Field{Name: "body", Type: fields.TypeWYSIWYG}
	no := false
	setting := &templates.FieldSetting{Mode: templates.ModeCreate, Create: &templates.CreateOptions{IncludeHTML: &no}}
	var values []any
	for _, f := range markup.Formats() {
		r := rand.New(rand.NewPCG(9, 9))
		v, _ := templates.NewFiller(r, templates.NewLoremText(r), &templates.FillOptions{ContentFormat: f}).Value(&field, setting)
		require.NotContains(t, v, "<")
		values = append(values, v)
	}
	require.Equal(t, values[0], values[1])
	require.Equal(t, values[0], values[2])
}
