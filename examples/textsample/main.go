// Command textsample prints real text of a locale: 30 consecutive
// sentences of posts (their titles, headings and paragraphs, one sentence a
// line) and 3 comments on them.
//
//	go run ./examples/textsample [-locale de_DE] [-seed 1]
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"unicode"

	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/locales/markup"
)

func main() {
	locale := flag.String("locale", "en_US", "locale code")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	pack, err := locales.NewRegistry().Lookup(*locale)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	w := locales.NewWriter(pack, locales.RealText, rand.New(rand.NewPCG(*seed, *seed)))
	var sentences, titles []string
	split := sentenceSplitter(pack)
	for len(sentences) < 30 {
		title := w.Title()
		titles = append(titles, title)
		body := w.Body(locales.HTMLOptions{Paragraphs: 4}, markup.Markdown)
		for _, line := range strings.Split(body, "\n") {
			line = strings.TrimSpace(strings.TrimLeft(line, "#> "))
			if line == "" {
				continue
			}
			sentences = append(sentences, split(line)...)
		}
	}
	fmt.Printf("# %s, seed %d\n\n", *locale, *seed)
	for i, s := range sentences[:30] {
		fmt.Printf("%2d. %s\n", i+1, s)
	}
	fmt.Println()
	for i := range 3 {
		title := titles[i%len(titles)]
		fmt.Printf("Comment on %q:\n  %s\n", title, w.CommentOn(title))
	}
}

// sentenceSplitter splits a line of text into sentences: after a full
// stop, question or exclamation mark (and the closing quotes or brackets
// after it) that a space or the end of the line follows, so "6:40 a.m."
// and "11.500 Euro" stay whole, and after the ideographic 。！？.
func sentenceSplitter(p *locales.Pack) func(string) []string {
	return func(line string) []string {
		var out []string
		rs := []rune(line)
		start := 0
		emit := func(end int) {
			if s := strings.TrimSpace(string(rs[start:end])); s != "" {
				out = append(out, s)
			}
			start = end
		}
		for i := 0; i < len(rs); i++ {
			switch rs[i] {
			case '。', '！', '？':
				j := i + 1
				for j < len(rs) && strings.ContainsRune("。！？」』）", rs[j]) {
					j++
				}
				emit(j)
				i = j - 1
			case '.', '!', '?':
				j := i + 1
				for j < len(rs) && strings.ContainsRune(".!?”’»)\"'", rs[j]) {
					j++
				}
				if j == len(rs) || rs[j] == ' ' || rs[j] == '\u00a0' {
					// "a.m. Then" ends a sentence only before a capital.
					if k := j + 1; j < len(rs) && k < len(rs) && unicode.IsLower(rs[k]) {
						i = j - 1
						continue
					}
					emit(j)
					i = j - 1
				}
			}
		}
		emit(len(rs))
		return out
	}
}
