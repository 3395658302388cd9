package locales

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark"

	"github.com/contentgen/contentgen/locales/markup"
	"github.com/contentgen/contentgen/locales/markup/markuptest"
)

// legacyHTML is Writer.HTML as it was before bodies had formats: the HTML
// format must keep writing exactly these bytes, which stored seeds rely on.
func legacyHTML(w *Writer, o HTMLOptions) string {
	n := max(o.Paragraphs, 1)
	listAt := -1
	if o.Lists {
		listAt = w.r.IntN(n)
	}
	nextHeading := 0
	for i := 0; i < n; i++ {
		if o.Headings && i == nextHeading && (i > 0 || n > 2) {
			w.buf = append(w.buf, "<h2>"...)
			w.appendTitle(2, 5)
			w.buf = append(w.buf, "</h2>\n"...)
			nextHeading = i + w.between(2, 3)
		}
		w.buf = append(w.buf, "<p>"...)
		w.appendParagraphText(w.between(3, 6))
		w.buf = append(w.buf, "</p>\n"...)
		if i == listAt {
			w.buf = append(w.buf, "<ul>\n"...)
			for j, k := 0, w.between(3, 6); j < k; j++ {
				w.buf = append(w.buf, "<li>"...)
				start := len(w.buf)
				if w.src == RealText {
					w.appendPattern(&w.p.clauses[w.r.IntN(len(w.p.clauses))], true)
				} else {
					for m, words := 0, w.between(2, 6); m < words; m++ {
						if m > 0 {
							w.space()
						}
						w.word()
					}
				}
				w.upperAt(start)
				w.buf = append(w.buf, "</li>\n"...)
			}
			w.buf = append(w.buf, "</ul>\n"...)
		}
	}
	return w.out()
}

// bodyCase is one body to write in every format: a locale, a text source,
// a seed and a shape.
type bodyCase struct {
	pack *Pack
	src  Source
	seed uint64
	o    HTMLOptions
}

// bodyCases covers every locale in both text sources with varied shapes:
// 19 locales x 2 sources x 8 seeds, over 300 bodies.
func bodyCases(t *testing.T) []bodyCase {
	t.Helper()
	reg := NewRegistry()
	var cases []bodyCase
	for _, l := range reg.List() {
		p, err := reg.Lookup(l.Code)
		require.NoError(t, err)
		for _, src := range []Source{Lorem, RealText} {
			for seed := range uint64(8) {
				cases = append(cases, bodyCase{p, src, seed, HTMLOptions{
					Paragraphs: 1 + int(seed),
					Headings:   seed%4 != 1,
					Lists:      seed%3 != 2,
				}})
			}
		}
	}
	return cases
}

func (c bodyCase) writer() *Writer { return NewWriter(c.pack, c.src, rand.New(rand.NewPCG(c.seed, 7))) }

func (c bodyCase) name() string {
	return c.pack.Locale().Code + "/" + string(c.src) + "/" + string(rune('0'+c.seed))
}

func TestHTMLFormatIsUnchanged(t *testing.T) {
	t.Parallel()
	for _, c := range bodyCases(t) {
		if c.src == RealText && c.pack.lex != nil {
			continue // written from frames, not from the legacy patterns
		}
		require.Equal(t, legacyHTML(c.writer(), c.o), c.writer().Body(c.o, markup.HTML), c.name())
		require.Equal(t, legacyHTML(c.writer(), c.o), c.writer().HTML(c.o), c.name())
	}
}

func TestBlockBodiesOpenInTheBlockEditor(t *testing.T) {
	t.Parallel()
	for _, c := range bodyCases(t) {
		blocks := c.writer().Body(c.o, markup.Blocks)
		require.NoError(t, markuptest.CheckBlocks(blocks), c.name())
		want, err := markuptest.Outline(c.writer().HTML(c.o))
		require.NoError(t, err)
		got, err := markuptest.Outline(blocks)
		require.NoError(t, err)
		require.Equal(t, want, got, c.name())
	}
}

func TestMarkdownBodiesRenderAsTheHTML(t *testing.T) {
	t.Parallel()
	md := goldmark.New()
	for _, c := range bodyCases(t) {
		body := c.writer().Body(c.o, markup.Markdown)
		require.NotContains(t, body, "<", c.name())
		require.True(t, strings.HasSuffix(body, "\n") && !strings.HasSuffix(body, "\n\n"), c.name())
		var rendered bytes.Buffer
		require.NoError(t, md.Convert([]byte(body), &rendered))
		want, err := markuptest.Outline(c.writer().HTML(c.o))
		require.NoError(t, err)
		got, err := markuptest.Outline(rendered.String())
		require.NoError(t, err)
		require.Equal(t, want, got, "%s:\n%s", c.name(), body)
	}
}
