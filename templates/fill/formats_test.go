package fill_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"

	"github.com/contentgen/contentgen/locales/markup"
	"github.com/contentgen/contentgen/locales/markup/markuptest"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
	"github.com/contentgen/contentgen/templates/fill"
)

// wysiwygValues fills a wysiwyg field under varied shapes in format f,
// seed by seed; the same seeds give the same values in every format.
func wysiwygValues(t *testing.T, f markup.Format) []string {
	t.Helper()
	field := fields.Field{Name: "body", Type: fields.TypeWYSIWYG}
	var out []string
	for seed := range uint64(100) {
		r := rand.New(rand.NewPCG(seed, 3))
		g := fill.New(r, fill.NewLoremText(r), &fill.Options{ContentFormat: f})
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
		v, _ := fill.New(r, fill.NewLoremText(r), &fill.Options{ContentFormat: f}).Value(&field, setting)
		require.NotContains(t, v, "<")
		values = append(values, v)
	}
	require.Equal(t, values[0], values[1])
	require.Equal(t, values[0], values[2])
}
