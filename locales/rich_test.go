package locales

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"pgregory.net/rapid"

	"github.com/contentgen/contentgen/locales/markup"
	"github.com/contentgen/contentgen/locales/markup/markuptest"
)

// richLinks and richImages hold addresses and texts with characters each
// format must escape.
var (
	richLinks = []Link{
		{URL: "http://localhost:8080/?p=12"},
		{URL: "http://localhost:8080/?post_type=book&p=7"},
		{URL: "https://docs.example.org/guide (2)/ü"},
		{URL: "https://www.example.net/a?q=\"x\"&r=<y>"},
	}
	richImages = []InlineImage{
		{ID: 41, URL: "http://localhost:8080/wp-content/uploads/lake.jpg", Alt: "A \"lake\" & <hills>"},
		{ID: 42, URL: "http://localhost:8080/wp-content/uploads/a b.jpg", Caption: "Fish & chips *not* <b>bold</b> [x]"},
		{URL: "https://images.example.com/c.png"},
	}
)

// richOptions turns every element on, some of them off by seed.
func richOptions(seed uint64) HTMLOptions {
	o := HTMLOptions{
		Paragraphs: 2 + int(seed%7), Headings: true, Lists: true,
		SubHeadings: true, OrderedLists: true, Quotes: true, Emphasis: true,
		Links: richLinks, Images: richImages, Technical: true,
	}
	switch seed % 5 {
	case 1:
		o.Links, o.Technical = nil, false
	case 2:
		o.Images, o.Emphasis = nil, false
	case 3:
		o.Links = richLinks[:1]
	}
	return o
}

// richCases are the bodyCases with rich options: every locale in both
// sources.
func richCases(t *testing.T) []bodyCase {
	cases := bodyCases(t)
	for i := range cases {
		cases[i].o = richOptions(cases[i].seed)
	}
	return cases
}

func renderMarkdown(t require.TestingT, md string) string {
	var b bytes.Buffer
	require.NoError(t, goldmark.New(goldmark.WithExtensions(extension.Table)).Convert([]byte(md), &b))
	return b.String()
}

// checkRichBody checks the body of c in every format: balanced HTML, block
// markup that opens in the block editor, Markdown that renders as the HTML,
// and the same outline in all three. It returns the outline.
func checkRichBody(t require.TestingT, c bodyCase) []string {
	h := c.writer().Body(c.o, markup.HTML)
	require.NoError(t, markuptest.CheckBalanced(h), "%s:\n%s", c.name(), h)
	want, err := markuptest.Outline(h)
	require.NoError(t, err)

	blocks := c.writer().Body(c.o, markup.Blocks)
	require.NoError(t, markuptest.CheckBlocks(blocks), c.name())
	require.NoError(t, markuptest.CheckBalanced(blocks), c.name())
	got, err := markuptest.Outline(blocks)
	require.NoError(t, err)
	require.Equal(t, want, got, "%s blocks:\n%s", c.name(), blocks)

	md := c.writer().Body(c.o, markup.Markdown)
	require.True(t, strings.HasSuffix(md, "\n") && !strings.HasSuffix(md, "\n\n"), c.name())
	rendered := renderMarkdown(t, md)
	require.NoError(t, markuptest.CheckBalanced(rendered), c.name())
	got, err = markuptest.Outline(rendered)
	require.NoError(t, err)
	require.Equal(t, want, got, "%s markdown:\n%s", c.name(), md)
	return want
}

var outlineTag = regexp.MustCompile(`^[a-z0-9#]+`)

// Rich bodies of every locale are valid in all three formats and, over
// all of them, hold every element kind.
func TestRichBodiesAreValidInEveryFormat(t *testing.T) {
	t.Parallel()
	seen := map[string]int{}
	allowed := map[string]bool{}
	for _, l := range richLinks {
		allowed[string(markupURL(l.URL))] = true
	}
	for _, c := range richCases(t) {
		for _, e := range checkRichBody(t, c) {
			seen[outlineTag.FindString(e)]++
			if strings.HasPrefix(e, "a[") {
				href := e[2:strings.Index(e, "]")]
				require.True(t, allowed[href], "%s links to %s", c.name(), href)
			}
		}
	}
	for _, tag := range []string{"h2", "h3", "p", "ul", "ol", "li", "blockquote", "cite", "a", "em", "strong",
		"figure", "img", "figcaption", "table", "thead", "tbody", "tr", "th", "td", "pre", "code"} {
		require.Positive(t, seen[tag], "no <%s> in any body", tag)
	}
}

// markupURL is the address as markup writes it: percent-encoded.
func markupURL(u string) []byte {
	var b []byte
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"<>()\\[]{}|^`", c) >= 0 {
			b = append(b, '%', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
			continue
		}
		b = append(b, c)
	}
	return b
}

// For random locales, sources, seeds and options, the body is valid in
// every format.
func TestRichBodiesPropertyValid(t *testing.T) {
	t.Parallel()
	reg := NewRegistry()
	var codes []string
	for _, l := range reg.List() {
		codes = append(codes, l.Code)
	}
	rapid.Check(t, func(rt *rapid.T) {
		p, err := reg.Lookup(rapid.SampledFrom(codes).Draw(rt, "locale"))
		require.NoError(rt, err)
		o := HTMLOptions{
			Paragraphs:   rapid.IntRange(0, 12).Draw(rt, "paragraphs"),
			Headings:     rapid.Bool().Draw(rt, "headings"),
			Lists:        rapid.Bool().Draw(rt, "lists"),
			SubHeadings:  rapid.Bool().Draw(rt, "subheadings"),
			OrderedLists: rapid.Bool().Draw(rt, "ordered"),
			Quotes:       rapid.Bool().Draw(rt, "quotes"),
			Emphasis:     rapid.Bool().Draw(rt, "emphasis"),
			Technical:    rapid.Bool().Draw(rt, "technical"),
			Links:        richLinks[:rapid.IntRange(0, len(richLinks)).Draw(rt, "links")],
			Images:       richImages[:rapid.IntRange(0, len(richImages)).Draw(rt, "images")],
		}
		c := bodyCase{p, rapid.SampledFrom([]Source{Lorem, RealText}).Draw(rt, "source"), rapid.Uint64().Draw(rt, "seed"), o}
		checkRichBody(rt, c)
	})
}

// The rich elements draw nothing when their options are off, and bodies
// with them on are still the same text and structure in every format:
// the options decide, not the format.
func TestRichBodyStructureDoesNotDependOnFormat(t *testing.T) {
	t.Parallel()
	p, err := NewRegistry().Lookup("de_DE")
	require.NoError(t, err)
	o := richOptions(0)
	var after []uint64
	for _, f := range markup.Formats() {
		r := rand.New(rand.NewPCG(5, 6))
		NewWriter(p, RealText, r).Body(o, f)
		after = append(after, r.Uint64())
	}
	require.Equal(t, after[0], after[1], "blocks draws as html")
	require.Equal(t, after[0], after[2], "markdown draws as html")
}

// Tables hold the locale's numbers; code blocks hold one of the snippets
// with its slots filled.
func TestTechnicalBodiesHoldLocaleNumbersAndCode(t *testing.T) {
	t.Parallel()
	p, err := NewRegistry().Lookup("de_DE")
	require.NoError(t, err)
	langs := map[string]bool{}
	for seed := range uint64(60) {
		w := NewWriter(p, RealText, rand.New(rand.NewPCG(seed, 1)))
		body := w.HTML(HTMLOptions{Paragraphs: 3, Technical: true})
		require.Regexp(t, `<td>[0-9]{1,3}(\.[0-9]{3})*(,[0-9]{1,2})?</td>`, body)
		require.NotRegexp(t, `\{[abcABCnm]\}`, body, "a slot is left unfilled")
		m := regexp.MustCompile(`<code class="language-([a-z]+)">`).FindStringSubmatch(body)
		require.NotNil(t, m, body)
		langs[m[1]] = true
	}
	var got []string
	for l := range langs {
		got = append(got, l)
	}
	slices.Sort(got)
	require.Equal(t, []string{"go", "javascript", "python", "shell", "sql"}, got)
}
