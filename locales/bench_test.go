package locales

import (
	"math/rand/v2"
	"testing"

	"github.com/contentgen/contentgen/locales/markup"
)

// The benchmarks compare the script families with the English path: Latin
// (en_US, de_DE, fr_FR), Cyrillic (ru_RU) and CJK (ja, zh_CN, ko_KR).
var benchLocales = []string{"en_US", "de_DE", "fr_FR", "ru_RU", "ja", "zh_CN", "ko_KR"}

func benchWriter(b *testing.B, code string) *Writer {
	p, err := NewRegistry().Lookup(code)
	if err != nil {
		b.Fatal(err)
	}
	return NewWriter(p, RealText, rand.New(rand.NewPCG(1, 2)))
}

func BenchmarkParagraph(b *testing.B) {
	for _, code := range benchLocales {
		b.Run(code, func(b *testing.B) {
			w := benchWriter(b, code)
			b.ReportAllocs()
			for b.Loop() {
				_ = w.Paragraph(3, 6)
			}
		})
	}
}

func BenchmarkHTML(b *testing.B) {
	for _, code := range benchLocales {
		b.Run(code, func(b *testing.B) {
			w := benchWriter(b, code)
			o := HTMLOptions{Paragraphs: 5, Headings: true, Lists: true}
			b.ReportAllocs()
			for b.Loop() {
				_ = w.HTML(o)
			}
		})
	}
}

// BenchmarkBlocks and BenchmarkMarkdown write the body of BenchmarkHTML in
// the other formats; the text is the same, only the markup around it and
// its escaping differ.
func BenchmarkBlocks(b *testing.B) { benchBody(b, markup.Blocks) }

func BenchmarkMarkdown(b *testing.B) { benchBody(b, markup.Markdown) }

func benchBody(b *testing.B, f markup.Format) {
	for _, code := range benchLocales {
		b.Run(code, func(b *testing.B) {
			w := benchWriter(b, code)
			o := HTMLOptions{Paragraphs: 5, Headings: true, Lists: true}
			b.ReportAllocs()
			for b.Loop() {
				_ = w.Body(o, f)
			}
		})
	}
}

// BenchmarkRichBody writes the body of BenchmarkHTML with every rich
// element on (sub-headings, a numbered or bulleted list, a quote,
// emphasis, links, an image, a table and a code block) in each format.
func BenchmarkRichBody(b *testing.B) {
	o := HTMLOptions{Paragraphs: 5, Headings: true, Lists: true, SubHeadings: true, OrderedLists: true,
		Quotes: true, Emphasis: true, Technical: true,
		Links:  []Link{{URL: "http://localhost:8080/?p=12"}, {URL: "https://www.example.com/guide"}},
		Images: []InlineImage{{ID: 4, URL: "http://localhost:8080/wp-content/uploads/lake.jpg", Alt: "A lake"}}}
	for _, code := range []string{"en_US", "ja"} {
		for _, f := range markup.Formats() {
			b.Run(code+"/"+string(f), func(b *testing.B) {
				w := benchWriter(b, code)
				b.ReportAllocs()
				for b.Loop() {
					_ = w.Body(o, f)
				}
			})
		}
	}
}

func BenchmarkPersonAndEmail(b *testing.B) {
	for _, code := range benchLocales {
		b.Run(code, func(b *testing.B) {
			w := benchWriter(b, code)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				p := w.Person()
				_ = w.Email(p, i)
				i++
			}
		})
	}
}

// BenchmarkLookup is the first use of a pack: parsing its data file.
func BenchmarkLookup(b *testing.B) {
	for _, code := range []string{"en_US", "de_DE", "ru_RU", "ja"} {
		b.Run(code, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := NewRegistry().Lookup(code); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
