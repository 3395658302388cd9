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
	"regexp"
	"strings"

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

// sentenceSplitter splits a line of text into sentences at the locale's
// full stops, question and exclamation marks.
func sentenceSplitter(p *locales.Pack) func(string) []string {
	re := regexp.MustCompile(`[^.!?。！？]+[.!?。！？]*\s*`)
	return func(line string) []string {
		var out []string
		for _, m := range re.FindAllString(line, -1) {
			if m = strings.TrimSpace(m); m != "" {
				out = append(out, m)
			}
		}
		return out
	}
}
