package markup_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"pgregory.net/rapid"

	"github.com/contentgen/contentgen/locales/markup"
	"github.com/contentgen/contentgen/locales/markup/markuptest"
)

// element is one block of a test document: a heading, a paragraph (of
// spans), a list of items, a quote, an image, a table or a code block.
type element struct {
	kind  string // "h", "p", "ul", "ol", "quote", "img", "table" or "code"
	level int
	text  string
	spans []span
	items []string
	// paras and cite are a quote's; img an image's; rows a table's, the
	// header first; lang a code block's.
	paras []string
	cite  string
	img   markup.Image
	rows  [][]string
	lang  string
}

// span is a piece of a paragraph: plain text, or "em", "strong" or "a"
// (with url) around text.
type span struct {
	kind, text, url string
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
			for _, sp := range e.spans {
				switch sp.kind {
				case "em":
					buf = d.OpenEmphasis(buf)
					buf = d.AppendText(buf, sp.text)
					buf = d.CloseEmphasis(buf)
				case "strong":
					buf = d.OpenStrong(buf)
					buf = d.AppendText(buf, sp.text)
					buf = d.CloseStrong(buf)
				case "a":
					buf = d.OpenLink(buf, sp.url)
					buf = d.AppendText(buf, sp.text)
					buf = d.CloseLink(buf)
				default:
					buf = d.AppendText(buf, sp.text)
				}
			}
			buf = d.CloseParagraph(buf)
		case "ul", "ol":
			if e.kind == "ol" {
				buf = d.OpenOrderedList(buf)
			} else {
				buf = d.OpenList(buf)
			}
			for _, it := range e.items {
				buf = d.OpenItem(buf)
				buf = d.AppendText(buf, it)
				buf = d.CloseItem(buf)
			}
			buf = d.CloseList(buf)
		case "quote":
			buf = d.OpenQuote(buf)
			for _, p := range e.paras {
				buf = d.OpenParagraph(buf)
				buf = d.AppendText(buf, p)
				buf = d.CloseParagraph(buf)
			}
			buf = d.CloseQuote(buf, e.cite)
		case "img":
			buf = d.Image(buf, e.img)
		case "table":
			buf = d.OpenTable(buf)
			for i, row := range e.rows {
				buf = d.OpenRow(buf, i == 0)
				for _, c := range row {
					buf = d.OpenCell(buf)
					buf = d.AppendText(buf, c)
					buf = d.CloseCell(buf)
				}
				buf = d.CloseRow(buf)
			}
			buf = d.CloseTable(buf)
		case "code":
			buf = d.CodeBlock(buf, e.lang, e.text)
		}
	}
	return string(buf)
}

// outline is the outline markuptest.Outline gives for doc. encode is the
// percent-encoding of addresses markup applies.
func outline(doc []element, encode func(string) string) []string {
	var out []string
	for _, e := range doc {
		switch e.kind {
		case "h":
			out = append(out, "h"+string(rune('0'+e.level))+":"+e.text)
		case "p":
			own := e.text
			var inline []string
			for _, sp := range e.spans {
				switch sp.kind {
				case "em", "strong":
					inline = append(inline, sp.kind+":"+sp.text)
				case "a":
					inline = append(inline, "a["+encode(sp.url)+"]:"+sp.text)
				default:
					own += sp.text
				}
			}
			if own = strings.TrimSpace(own); own != "" {
				out = append(out, "p:"+own)
			} else {
				out = append(out, "p")
			}
			out = append(out, inline...)
		case "ul", "ol":
			out = append(out, e.kind)
			for _, it := range e.items {
				out = append(out, "li:"+it)
			}
		case "quote":
			out = append(out, "blockquote")
			for _, p := range e.paras {
				out = append(out, "p:"+p)
			}
			if e.cite != "" {
				out = append(out, "cite:"+e.cite)
			}
		case "img":
			out = append(out, "figure", "img["+encode(e.img.Src)+"|"+e.img.Alt+"]")
			if e.img.Caption != "" {
				out = append(out, "figcaption:"+e.img.Caption)
			}
		case "table":
			out = append(out, "table", "thead")
			for i, row := range e.rows {
				if i == 1 {
					out = append(out, "tbody")
				}
				out = append(out, "tr")
				for _, c := range row {
					if i == 0 {
						out = append(out, "th:"+c)
					} else {
						out = append(out, "td:"+c)
					}
				}
			}
		case "code":
			out = append(out, "pre", "code:"+strings.TrimSpace(e.text))
		}
	}
	return out
}

// percentEncode is the encoding of addresses the outline expects: every
// byte outside the characters an address keeps as %XX.
func percentEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~:/?#@!$&'*+,;=%", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func commonMark(t require.TestingT, md string) string {
	var b bytes.Buffer
	require.NoError(t, goldmark.New(goldmark.WithExtensions(extension.Table)).Convert([]byte(md), &b))
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
// checks, and Markdown rendered by a CommonMark library (with the GFM
// table extension) gives the same outline as the HTML, which is balanced.
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
	// Emphasis starts and ends with a letter or digit, as OpenEmphasis
	// asks.
	alnum := rapid.SampledFrom([]rune("abcXYZ09éß日本"))
	emphasised := rapid.Custom(func(t *rapid.T) string {
		s := string(alnum.Draw(t, "first"))
		if rapid.Bool().Draw(t, "long") {
			s += rapid.StringOf(rapid.SampledFrom(chars)).Draw(t, "middle") + string(alnum.Draw(t, "last"))
		}
		return s
	})
	urls := rapid.SampledFrom([]string{
		"https://example.com/", "http://localhost:8080/?post_type=book&p=12", "https://www.example.org/a b/(c)",
		"https://example.net/ü?q=\"x\"&r=<1>", "/wp-content/uploads/a.jpg", "https://sub.example.com/%41*'",
	})
	code := rapid.Custom(func(t *rapid.T) string {
		lines := rapid.SliceOfN(rapid.SampledFrom([]string{
			"x := a[i] && b < c > d", "  https://example.com/x", "```", "    indented; // comment", "SELECT * FROM t WHERE a <> '&amp;';", "echo \"$HOME\"",
		}), 1, 4).Draw(t, "lines")
		return strings.Join(lines, "\n")
	})
	sp := rapid.Custom(func(t *rapid.T) span {
		switch rapid.IntRange(0, 3).Draw(t, "span") {
		case 0:
			return span{kind: "em", text: emphasised.Draw(t, "em")}
		case 1:
			return span{kind: "strong", text: emphasised.Draw(t, "strong")}
		case 2:
			return span{kind: "a", text: text.Draw(t, "link"), url: urls.Draw(t, "url")}
		}
		return span{text: " " + text.Draw(t, "plain") + " "}
	})
	el := rapid.Custom(func(t *rapid.T) element {
		switch rapid.IntRange(0, 8).Draw(t, "kind") {
		case 0:
			return element{kind: "h", level: rapid.IntRange(1, 6).Draw(t, "level"), text: text.Draw(t, "heading")}
		case 1:
			return element{kind: "p", text: text.Draw(t, "paragraph")}
		case 2:
			// Inline spans with plain text between them.
			e := element{kind: "p", text: text.Draw(t, "lead")}
			for i, n := 0, rapid.IntRange(1, 3).Draw(t, "spans"); i < n; i++ {
				e.spans = append(e.spans, span{text: " "}, sp.Draw(t, "span"))
			}
			return e
		case 3:
			return element{kind: "ul", items: rapid.SliceOfN(text, 1, 5).Draw(t, "items")}
		case 4:
			return element{kind: "ol", items: rapid.SliceOfN(text, 1, 5).Draw(t, "items")}
		case 5:
			e := element{kind: "quote", paras: rapid.SliceOfN(text, 1, 3).Draw(t, "paras")}
			if rapid.Bool().Draw(t, "cited") {
				e.cite = text.Draw(t, "cite")
			}
			return e
		case 6:
			img := markup.Image{ID: rapid.Int64Range(0, 99).Draw(t, "id"), Src: urls.Draw(t, "src"), Alt: text.Draw(t, "alt")}
			if rapid.Bool().Draw(t, "captioned") {
				img.Caption = text.Draw(t, "caption")
			}
			return element{kind: "img", img: img}
		case 7:
			cols := rapid.IntRange(1, 4).Draw(t, "cols")
			rows := rapid.SliceOfN(rapid.SliceOfN(text, cols, cols), 2, 4).Draw(t, "rows")
			return element{kind: "table", rows: rows}
		}
		return element{kind: "code", lang: rapid.SampledFrom([]string{"", "go", "sql"}).Draw(t, "lang"), text: code.Draw(t, "code")}
	})
	rapid.Check(t, func(t *rapid.T) {
		doc := rapid.SliceOfN(el, 1, 6).Draw(t, "doc")
		want := outline(doc, percentEncode)

		h := render(markup.HTML, doc)
		require.NoError(t, markuptest.CheckBalanced(h))
		got, err := markuptest.Outline(h)
		require.NoError(t, err)
		require.Equal(t, want, got, "html:\n%s", h)

		blocks := render(markup.Blocks, doc)
		require.NoError(t, markuptest.CheckBlocks(blocks))
		got, err = markuptest.Outline(blocks)
		require.NoError(t, err)
		require.Equal(t, want, got, "blocks:\n%s", blocks)

		md := render(markup.Markdown, doc)
		rendered := commonMark(t, md)
		require.NoError(t, markuptest.CheckBalanced(rendered))
		got, err = markuptest.Outline(rendered)
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

var richSample = []element{
	{kind: "p", text: "Lead & <x>", spans: []span{{text: " "}, {kind: "em", text: "emph"}, {text: " and "}, {kind: "strong", text: "bold"}, {text: " "},
		{kind: "a", text: "a [link]", url: "https://example.com/a b?x=1&y=2"}, {text: "."}}},
	{kind: "ol", items: []string{"one", "2. two"}},
	{kind: "quote", paras: []string{"Quoted text."}, cite: "Ann Lee"},
	{kind: "img", img: markup.Image{ID: 7, Src: "http://localhost/x.jpg", Alt: `A "lake"`, Caption: "The lake."}},
	{kind: "table", rows: [][]string{{"Name", "Value"}, {"a|b", "1,234.5"}, {"-c", "7"}}},
	{kind: "code", lang: "go", text: "x := a[1] && b < c\nhttps://example.com/"},
}

func TestRichElementsWriteTheirOwnSyntax(t *testing.T) {
	t.Parallel()
	require.Equal(t, `<p>Lead &amp; &lt;x&gt; <em>emph</em> and <strong>bold</strong> <a href="https://example.com/a%20b?x=1&amp;y=2">a [link]</a>.</p>`+"\n"+
		"<ol>\n<li>one</li>\n<li>2. two</li>\n</ol>\n"+
		"<blockquote>\n<p>Quoted text.</p>\n<cite>Ann Lee</cite>\n</blockquote>\n"+
		"<figure>\n<img src=\"http://localhost/x.jpg\" alt=\"A &quot;lake&quot;\">\n<figcaption>The lake.</figcaption>\n</figure>\n"+
		"<table>\n<thead>\n<tr><th>Name</th><th>Value</th></tr>\n</thead>\n<tbody>\n<tr><td>a|b</td><td>1,234.5</td></tr>\n<tr><td>-c</td><td>7</td></tr>\n</tbody>\n</table>\n"+
		"<pre><code class=\"language-go\">x := a[1] &amp;&amp; b &lt; c\nhttps://example.com/</code></pre>\n", render(markup.HTML, richSample))

	require.Equal(t, "<!-- wp:paragraph -->\n"+`<p>Lead &amp; &lt;x> <em>emph</em> and <strong>bold</strong> <a href="https://example.com/a%20b?x=1&amp;y=2">a [link]</a>.</p>`+"\n<!-- /wp:paragraph -->\n\n"+
		"<!-- wp:list {\"ordered\":true} -->\n<ol class=\"wp-block-list\"><!-- wp:list-item -->\n<li>one</li>\n<!-- /wp:list-item -->\n\n<!-- wp:list-item -->\n<li>2. two</li>\n<!-- /wp:list-item --></ol>\n<!-- /wp:list -->\n\n"+
		"<!-- wp:quote -->\n<blockquote class=\"wp-block-quote\"><!-- wp:paragraph -->\n<p>Quoted text.</p>\n<!-- /wp:paragraph --><cite>Ann Lee</cite></blockquote>\n<!-- /wp:quote -->\n\n"+
		"<!-- wp:image {\"id\":7,\"sizeSlug\":\"large\",\"linkDestination\":\"none\"} -->\n"+
		"<figure class=\"wp-block-image size-large\"><img src=\"http://localhost/x.jpg\" alt=\"A &quot;lake&quot;\" class=\"wp-image-7\"/><figcaption class=\"wp-element-caption\">The lake.</figcaption></figure>\n<!-- /wp:image -->\n\n"+
		"<!-- wp:table -->\n<figure class=\"wp-block-table\"><table class=\"has-fixed-layout\"><thead><tr><th>Name</th><th>Value</th></tr></thead>"+
		"<tbody><tr><td>a|b</td><td>1,234.5</td></tr><tr><td>-c</td><td>7</td></tr></tbody></table></figure>\n<!-- /wp:table -->\n\n"+
		"<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>x := a&#91;1] &amp;&amp; b &lt; c\nhttps:&#47;&#47;example.com/</code></pre>\n<!-- /wp:code -->", render(markup.Blocks, richSample))

	require.Equal(t, "Lead \\& \\<x\\> *emph* and **bold** [a \\[link\\]](https://example.com/a%20b?x=1&y=2).\n\n"+
		"1. one\n2. 2\\. two\n\n"+
		"> Quoted text.\n>\n> — Ann Lee\n\n"+
		"![A \"lake\"](http://localhost/x.jpg \"The lake.\")\n*The lake.*\n\n"+
		"| Name | Value |\n| --- | --- |\n| a\\|b | 1,234.5 |\n| \\-c | 7 |\n\n"+
		"```go\nx := a[1] && b < c\nhttps://example.com/\n```\n", render(markup.Markdown, richSample))
}

// Lists of one kind in a row stay apart in Markdown: bullets and
// delimiters alternate.
func TestMarkdownListsInARowStayApart(t *testing.T) {
	t.Parallel()
	doc := []element{{kind: "ol", items: []string{"a"}}, {kind: "ol", items: []string{"b"}}, {kind: "ul", items: []string{"c"}}, {kind: "ul", items: []string{"d"}}}
	require.Equal(t, "1. a\n\n1) b\n\n- c\n\n* d\n", render(markup.Markdown, doc))
	got, err := markuptest.Outline(commonMark(t, render(markup.Markdown, doc)))
	require.NoError(t, err)
	require.Equal(t, []string{"ol", "li:a", "ol", "li:b", "ul", "li:c", "ul", "li:d"}, got)
}

// A code block's Markdown fence is longer than any run of backticks in
// the code.
func TestMarkdownFenceOutrunsBackticks(t *testing.T) {
	t.Parallel()
	md := render(markup.Markdown, []element{{kind: "code", text: "a ```` b"}})
	require.Equal(t, "`````\na ```` b\n`````\n", md)
}

// An exclamation mark stays one in Markdown, and still does not turn a
// link that follows it into an image.
func TestMarkdownExclamationMarks(t *testing.T) {
	t.Parallel()
	doc := []element{{kind: "p", text: "Wow! Great!", spans: []span{{kind: "a", text: "the post", url: "http://localhost/p"}, {text: " Yes!"}}}}
	md := render(markup.Markdown, doc)
	require.Equal(t, "Wow! Great\\![the post](http://localhost/p) Yes!\n", md)
	got, err := markuptest.Outline(commonMark(t, md))
	require.NoError(t, err)
	require.Equal(t, outline(doc, func(s string) string { return s }), got)
}
