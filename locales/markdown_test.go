package locales

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/contentgen/contentgen/locales/markup"
	"github.com/contentgen/contentgen/locales/markup/markuptest"
)

// modelAnswer is a body as a model might write it: every element, and
// what must not pass (script, raw HTML, the model's own links and images).
const modelAnswer = `Wandern im Harz ist **entspannend** und *gesund*. Siehe [hier](https://evil.example/x) <b>fett</b>.

<script>alert("x")</script>

## Die beste Route

Sie beginnt am Bahnhof.

### Ausrüstung

Gute Schuhe sind wichtig & nötig; 3 * 4 = 12.
Ein zweiter Satz der gleichen Zeile.

- Wasser
- **Karte** und Kompass
  mit Fortsetzung
* Regenjacke

1. Starten
2. Gehen

> Der Weg ist das Ziel.
> — Konfuzius

![Bild](https://evil.example/i.png)

<img src=x onerror=alert(1)>
<iframe src="https://evil.example"></iframe>

| Etappe | km |
|---|---|
| Brocken | 12,5 |
| Torfhaus | 8 |

` + "```go\nfunc main() { fmt.Println(\"<hi>\") }\n```" + `

---

Zum Schluss: &lt;script&gt;noch ein Versuch&lt;/script&gt; geht nicht.

## Ein leerer Abschnitt
`

func allOn() HTMLOptions {
	return HTMLOptions{
		Paragraphs: 5, Headings: true, Lists: true, SubHeadings: true, OrderedLists: true,
		Quotes: true, Emphasis: true, Technical: true, Links: richLinks, Images: richImages,
	}
}

// checkModelBody renders md in every format and checks each as the
// offline bodies are checked: balanced HTML, block markup that opens in
// the block editor, Markdown that renders as the HTML, the same outline.
func checkModelBody(t require.TestingT, md string, o HTMLOptions, seed uint64) []string {
	render := func(f markup.Format) string {
		body, ok := RenderModelMarkdown(md, o, f, rand.New(rand.NewPCG(seed, 1)))
		require.True(t, ok, md)
		return body
	}
	h := render(markup.HTML)
	require.NoError(t, markuptest.CheckBalanced(h), h)
	want, err := markuptest.Outline(h)
	require.NoError(t, err)
	blocks := render(markup.Blocks)
	require.NoError(t, markuptest.CheckBlocks(blocks), blocks)
	require.NoError(t, markuptest.CheckBalanced(blocks), blocks)
	got, err := markuptest.Outline(blocks)
	require.NoError(t, err)
	require.Equal(t, want, got, blocks)
	md2 := render(markup.Markdown)
	rendered := renderMarkdown(t, md2)
	require.NoError(t, markuptest.CheckBalanced(rendered), md2)
	got, err = markuptest.Outline(rendered)
	require.NoError(t, err)
	require.Equal(t, want, got, "markdown:\n%s", md2)
	for _, body := range []string{h, blocks, rendered} {
		lower := strings.ToLower(body)
		for _, bad := range []string{"<script", "<iframe", "<b>", "<img src=x"} {
			require.NotContains(t, lower, bad)
		}
	}
	// Links and images are only those of the options.
	allowed := map[string]bool{}
	for _, l := range o.Links {
		allowed["a["+string(markupURL(l.URL))+"]"] = true
	}
	for _, img := range o.Images {
		allowed["img["+string(markupURL(img.URL))] = true
	}
	for _, e := range want {
		if strings.HasPrefix(e, "a[") {
			require.True(t, allowed[e[:strings.Index(e, "]")+1]], "link %s", e)
		}
		if strings.HasPrefix(e, "img[") {
			require.True(t, allowed[e[:strings.Index(e, "|")]], "image %s", e)
		}
	}
	return want
}

// A model's Markdown becomes a valid body in every format, with its
// structure, and nothing of what must not pass.
func TestModelMarkdownIsValidInEveryFormat(t *testing.T) {
	t.Parallel()
	outline := checkModelBody(t, modelAnswer, allOn(), 3)
	joined := strings.Join(outline, "\n")
	for _, tag := range []string{"h2", "h3", "p", "ul", "ol", "li", "blockquote", "cite", "em", "strong", "table", "th", "td", "pre", "code", "figure", "img", "a["} {
		require.Contains(t, joined, tag)
	}
	h, ok := RenderModelMarkdown(modelAnswer, allOn(), markup.HTML, rand.New(rand.NewPCG(3, 1)))
	require.True(t, ok)
	require.Contains(t, h, "<strong>entspannend</strong> und <em>gesund</em>. Siehe hier fett.")
	require.Contains(t, h, "<strong>Karte</strong> und Kompass mit Fortsetzung")
	require.Contains(t, h, "3 * 4 = 12")
	require.Contains(t, h, "&amp; nötig")
	require.Contains(t, h, "<cite>Konfuzius</cite>")
	require.Contains(t, h, "&lt;hi&gt;", "code is escaped")
	require.NotContains(t, h, "Ein leerer Abschnitt", "a heading without text after it is left out")
	require.NotContains(t, h, "alert")
	require.NotContains(t, h, "evil.example")
	require.NotContains(t, h, "onerror")
	require.NotContains(t, strings.ToLower(h), "noch ein versuch")
}

// Elements the options leave out become paragraphs or are dropped.
func TestModelMarkdownFollowsTheOptions(t *testing.T) {
	t.Parallel()
	o := HTMLOptions{Paragraphs: 2}
	h, ok := RenderModelMarkdown(modelAnswer, o, markup.HTML, rand.New(rand.NewPCG(1, 1)))
	require.True(t, ok)
	for _, tag := range []string{"<h2", "<h3", "<ol", "<blockquote", "<em", "<strong", "<table", "<pre", "<figure", "<a "} {
		require.NotContains(t, h, tag)
	}
	require.Contains(t, h, "<li>Karte und Kompass mit Fortsetzung</li>", "a list stays a list, bulleted")
	require.Contains(t, h, "<li>Starten</li>")
	require.Contains(t, h, "Der Weg ist das Ziel. — Konfuzius")
	checkModelBody(t, modelAnswer, o, 1)

	_, ok = RenderModelMarkdown("<script>only()</script>\n## Heading\n", allOn(), markup.HTML, rand.New(rand.NewPCG(1, 1)))
	require.False(t, ok, "no paragraph left")
}

func TestPlainText(t *testing.T) {
	t.Parallel()
	require.Equal(t, "Ein Tag am See", PlainText("# **Ein Tag** am *See*\n"))
	require.Equal(t, "Schön! Und weiter.", PlainText("<p>Schön!</p>\n<script>x()</script>Und [weiter](http://x).\n"))
	require.Equal(t, "Tom & Jerry <3", PlainText("Tom &amp; Jerry &lt;3"))
}

// Whatever a model answers, the body is valid in every format.
func TestModelMarkdownPropertyValid(t *testing.T) {
	t.Parallel()
	pieces := []string{"# ", "## ", "### ", "- ", "* ", "1. ", "> ", "| a | b |", "|---|---|", "```", "**", "*", "_", "`",
		"<script>", "</script>", "<b>", "&amp;", "&lt;", "[x](y)", "![i](j)", "\n", "\n\n", "  ", "word", "Wort", "言葉", "1.", "—", "\\", "---", "<", ">", "&", "\"", "'", "#"}
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		for range rapid.IntRange(1, 60).Draw(t, "n") {
			b.WriteString(rapid.SampledFrom(pieces).Draw(t, "piece"))
		}
		md := b.String() + "\n\nA closing paragraph."
		o := richOptions(rapid.Uint64().Draw(t, "opts"))
		if _, ok := RenderModelMarkdown(md, o, markup.HTML, rand.New(rand.NewPCG(1, 1))); !ok {
			// Only an unclosed script takes the paragraph with it.
			require.Contains(t, strings.ToLower(md), "<script>")
			return
		}
		checkModelBody(t, md, o, rapid.Uint64().Draw(t, "seed"))
	})
}

// Whatever a model answers, the body is valid in every format and carries
// nothing active.
func FuzzRenderModelMarkdown(f *testing.F) {
	for _, s := range []string{modelAnswer, "# T\n\nText *em* **strong**.", "> q\n> — Who\n\n- a\n- b\n\n1. x\n", "| a | b |\n|---|---|\n| 1 | 2 |\n", "```go\nx := `<b>`\n```", "<think>plan</think>Hi", "*** 1. ", "<script>x</script"} {
		f.Add(s, uint64(1))
	}
	f.Fuzz(func(t *testing.T, md string, seed uint64) {
		if !utf8.ValidString(md) || len(md) > 4096 {
			t.Skip()
		}
		o := richOptions(seed)
		if _, ok := RenderModelMarkdown(md, o, markup.HTML, rand.New(rand.NewPCG(seed, 1))); !ok {
			return
		}
		checkModelBody(t, md, o, seed)
	})
}
