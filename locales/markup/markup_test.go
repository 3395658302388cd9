package markup_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"pgregory.net/rapid"

	"github.com/contentgen/contentgen/locales/markup"
	"github.com/contentgen/contentgen/locales/markup/markuptest"
)

// element is one block of a test document: a heading, a paragraph or a
// list of items.
type element struct {
	kind  string // "h", "p" or "ul"
	level int
	text  string
	items []string
}

func render(f markup.Format, doc []element) string {
	var buf []byte
	d := markup.Begin(buf, f)
	for _, e := range doc {
		switch e.kind {
		case "h":
			buf = d.OpenHeading(buf, e.level)
			buf = d.AppendText(buf, e.text)
			buf = d.CloseHeading(buf, e.level)
		case "p":
			buf = d.OpenParagraph(buf)
			start := len(buf)
			buf = append(buf, e.text...)
			buf = d.Text(buf, start)
			buf = d.CloseParagraph(buf)
		case "ul":
			buf = d.OpenList(buf)
			for _, it := range e.items {
				buf = d.OpenItem(buf)
				buf = d.AppendText(buf, it)
				buf = d.CloseItem(buf)
			}
			buf = d.CloseList(buf)
		}
	}
	return string(buf)
}

// outline is the outline markuptest.Outline gives for doc.
func outline(doc []element) []string {
	var out []string
	for _, e := range doc {
		switch e.kind {
		case "h":
			out = append(out, "h"+string(rune('0'+e.level))+":"+e.text)
		case "p":
			out = append(out, "p:"+e.text)
		case "ul":
			out = append(out, "ul")
			for _, it := range e.items {
				out = append(out, "li:"+it)
			}
		}
	}
	return out
}

func commonMark(t require.TestingT, md string) string {
	var b bytes.Buffer
	require.NoError(t, goldmark.New().Convert([]byte(md), &b))
	return b.String()
}

var sample = []element{
	{kind: "h", level: 2, text: "First things"},
	{kind: "p", text: "Tom & Jerry <3 said: *not* emphasis_here."},
	{kind: "ul", items: []string{"One", "2. Two"}},
	{kind: "h", level: 3, text: "# Hash"},
	{kind: "p", text: "- not a list"},
}

func TestFormatsWriteTheirOwnSyntax(t *testing.T) {
	t.Parallel()
	require.Equal(t, "<h2>First things</h2>\n"+
		"<p>Tom &amp; Jerry &lt;3 said: *not* emphasis_here.</p>\n"+
		"<ul>\n<li>One</li>\n<li>2. Two</li>\n</ul>\n"+
		"<h3># Hash</h3>\n"+
		"<p>- not a list</p>\n", render(markup.HTML, sample))

	require.Equal(t, "<!-- wp:heading -->\n<h2 class=\"wp-block-heading\">First things</h2>\n<!-- /wp:heading -->\n\n"+
		"<!-- wp:paragraph -->\n<p>Tom &amp; Jerry &lt;3 said: *not* emphasis_here.</p>\n<!-- /wp:paragraph -->\n\n"+
		"<!-- wp:list -->\n<ul class=\"wp-block-list\"><!-- wp:list-item -->\n<li>One</li>\n<!-- /wp:list-item -->\n\n"+
		"<!-- wp:list-item -->\n<li>2. Two</li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list -->\n\n"+
		"<!-- wp:heading {\"level\":3} -->\n<h3 class=\"wp-block-heading\"># Hash</h3>\n<!-- /wp:heading -->\n\n"+
		"<!-- wp:paragraph -->\n<p>- not a list</p>\n<!-- /wp:paragraph -->", render(markup.Blocks, sample))

	require.Equal(t, "## First things\n\n"+
		"Tom \\& Jerry \\<3 said: \\*not\\* emphasis\\_here.\n\n"+
		"- One\n- 2\\. Two\n\n"+
		"### \\# Hash\n\n"+
		"\\- not a list\n", render(markup.Markdown, sample))
}

func TestGreaterThanIsEscapedAsEachFormatSaves(t *testing.T) {
	t.Parallel()
	doc := []element{{kind: "p", text: "a > b"}}
	require.Equal(t, "<p>a &gt; b</p>\n", render(markup.HTML, doc))
	require.Equal(t, "<!-- wp:paragraph -->\n<p>a > b</p>\n<!-- /wp:paragraph -->", render(markup.Blocks, doc), "the block editor leaves > as it is")
	require.Equal(t, "a \\> b\n", render(markup.Markdown, doc))
}

func TestParse(t *testing.T) {
	t.Parallel()
	for _, f := range markup.Formats() {
		got, err := markup.Parse(string(f))
		require.NoError(t, err)
		require.Equal(t, f, got)
	}
	got, err := markup.Parse("")
	require.NoError(t, err)
	require.Equal(t, markup.HTML, got)
	_, err = markup.Parse("HTML")
	require.ErrorContains(t, err, "html, blocks, markdown")
	require.False(t, markup.Format("docx").Valid())
}

// Every format keeps the structure and the exact text of a document,
// whatever characters the text holds: block markup passes the block
// checks, and Markdown rendered by a CommonMark library gives the same
// outline as the HTML.
func TestFormatsKeepStructureAndText(t *testing.T) {
	t.Parallel()
	chars := []rune("abcXYZ 0123456789!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~éß„“«»日本")
	text := rapid.Custom(func(t *rapid.T) string {
		s := strings.TrimSpace(rapid.StringOf(rapid.SampledFrom(chars)).Draw(t, "text"))
		if s == "" {
			s = "x"
		}
		return s
	})
	el := rapid.Custom(func(t *rapid.T) element {
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			return element{kind: "h", level: rapid.IntRange(1, 6).Draw(t, "level"), text: text.Draw(t, "heading")}
		case 1:
			return element{kind: "p", text: text.Draw(t, "paragraph")}
		}
		return element{kind: "ul", items: rapid.SliceOfN(text, 1, 5).Draw(t, "items")}
	})
	rapid.Check(t, func(t *rapid.T) {
		doc := rapid.SliceOfN(el, 1, 6).Draw(t, "doc")
		want := outline(doc)

		got, err := markuptest.Outline(render(markup.HTML, doc))
		require.NoError(t, err)
		require.Equal(t, want, got, "html")

		blocks := render(markup.Blocks, doc)
		require.NoError(t, markuptest.CheckBlocks(blocks))
		got, err = markuptest.Outline(blocks)
		require.NoError(t, err)
		require.Equal(t, want, got, "blocks")

		md := render(markup.Markdown, doc)
		got, err = markuptest.Outline(commonMark(t, md))
		require.NoError(t, err)
		require.Equal(t, want, got, "markdown:\n%s", md)
	})
}

func TestTextWithNothingToEscapeAllocatesNothing(t *testing.T) {
	for _, f := range markup.Formats() {
		buf := make([]byte, 0, 256)
		allocs := testing.AllocsPerRun(100, func() {
			d := markup.Begin(buf[:0], f)
			b := d.OpenParagraph(buf[:0])
			b = d.AppendText(b, "Plain words and a full stop.")
			_ = d.CloseParagraph(b)
		})
		require.Zero(t, allocs, "%s", f)
	}
}

func BenchmarkFormats(b *testing.B) {
	for _, f := range markup.Formats() {
		b.Run(string(f), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = render(f, sample)
			}
		})
	}
}
