package locales

import (
	"unicode"
	"unicode/utf8"

	"github.com/contentgen/contentgen/locales/markup"
)

// HTMLOptions shapes the body written by Writer.HTML and Writer.Body. The
// zero value of every field but Paragraphs leaves its element out; a body
// with only Paragraphs, Headings and Lists set is written as it always
// has been.
type HTMLOptions struct {
	// Paragraphs is the number of paragraphs (at least 1).
	Paragraphs int
	// Headings inserts <h2> headings between groups of paragraphs.
	Headings bool
	// Lists inserts one <ul> list into the body.
	Lists bool

	// SubHeadings makes about half of the headings that follow an <h2>
	// <h3> sub-headings of it (with Headings).
	SubHeadings bool
	// OrderedLists makes the list a numbered <ol> half of the time (with
	// Lists).
	OrderedLists bool
	// Quotes inserts a quote of one or two sentences with a made-up
	// person's name as its attribution (<blockquote> with <cite>) into
	// bodies of two paragraphs or more.
	Quotes bool
	// Emphasis puts <em> and <strong> around a few words of most
	// paragraphs.
	Emphasis bool
	// Links are the addresses that words of some paragraphs link to, each
	// at most once, up to three per body: other posts of the site and
	// pages of reserved example domains, chosen by the caller.
	Links []Link
	// Images are images of the media library for the body: one of them
	// (two in bodies of six paragraphs or more) is shown between
	// paragraphs, as a figure with a caption.
	Images []InlineImage
	// Technical inserts a table of words and numbers (<table> with a
	// header row) and a code block (<pre><code>) of a short snippet in Go,
	// JavaScript, Python, shell or SQL, for topics that suit them.
	Technical bool
}

// Link is the target of a link in a body.
type Link struct {
	// URL is the absolute address of the target.
	URL string
}

// InlineImage is an image of the media library shown in a body.
type InlineImage struct {
	// ID is the media item's id (0 when it has none).
	ID int64
	// URL is the address of the image file.
	URL string
	// Alt is the text alternative; the caption when empty.
	Alt string
	// Caption is shown under the image; when empty, the writer makes up a
	// short sentence.
	Caption string
}

// HTML returns an HTML body shaped by o: o.Paragraphs paragraphs (<p>),
// with <h2> headings before every second or third paragraph when
// o.Headings is set and one <ul> list of three to six items when o.Lists
// is set, and the other elements of HTMLOptions when set. Every block
// element starts on its own line. It is Body in markup.HTML.
func (w *Writer) HTML(o HTMLOptions) string { return w.Body(o, markup.HTML) }

// maxLinks is the most links a body holds.
const maxLinks = 3

// Body returns a body shaped by o, as HTML describes it, in format f
// (markup.HTML when f is not a format). The random choices do not depend
// on f: the same random state gives the same text and structure in every
// format.
func (w *Writer) Body(o HTMLOptions, f markup.Format) string {
	n := o.Paragraphs
	if n < 1 {
		n = 1
	}
	listAt := -1
	if o.Lists {
		listAt = w.r.IntN(n)
	}
	ordered := o.Lists && o.OrderedLists && w.r.IntN(2) == 0
	quoteAt := -1
	if o.Quotes && n >= 2 {
		quoteAt = w.r.IntN(n)
	}
	var imageAt [2]int
	var images [2]*InlineImage
	imageAt[0], imageAt[1] = -1, -1
	if len(o.Images) > 0 {
		k := 1
		if n >= 6 && len(o.Images) > 1 {
			k = 2
		}
		first := w.r.IntN(len(o.Images))
		for j := range k {
			imageAt[j] = w.r.IntN(n)
			images[j] = &o.Images[(first+j)%len(o.Images)]
		}
	}
	tableAt, codeAt := -1, -1
	if o.Technical {
		tableAt, codeAt = w.r.IntN(n), w.r.IntN(n)
	}
	var linksUsed uint64
	links := min(len(o.Links), 64)
	linksLeft := min(links, maxLinks)

	lx := w.lex()
	if lx != nil {
		w.ensureDoc()
	}
	d := markup.Begin(w.buf, f)
	nextHeading := 0
	level, headings := 2, 0
	section := 0
	for i := 0; i < n; i++ {
		var lead, hframes []frame
		if lx != nil {
			lead, hframes = w.sectionRole(i, n, section)
		}
		headed := false
		if o.Headings && i == nextHeading && (i > 0 || n > 2) {
			level = 2
			if o.SubHeadings && headings > 0 {
				if w.r.IntN(2) == 0 {
					level = 3
				}
			}
			headings++
			w.setBuf(d.OpenHeading(w.buf, level))
			start := len(w.buf)
			if lx != nil {
				w.unbind()
				headed = true
				if len(hframes) == 0 {
					hframes = lx.frameRole("heading")
				}
				w.appendFrame(w.pickFrame(hframes))
				w.caseTitle(start)
			} else {
				w.appendTitle(2, 5)
			}
			w.text(&d, start)
			w.setBuf(d.CloseHeading(w.buf, level))
			nextHeading = i + w.between(2, 3)
		}
		w.setBuf(d.OpenParagraph(w.buf))
		start := len(w.buf)
		if lx != nil {
			if !headed {
				w.unbind()
			}
			if i > 0 && i < n-1 {
				section++
			}
			// The opening and the closing say their thing once; a middle
			// paragraph may come back to its role.
			again := i > 0 && (i < n-1 || n < 3)
			w.appendLexParagraph(lead, w.p.lex.plans[w.d.kind].body, w.between(3, 6), again)
		} else {
			w.appendParagraphText(w.between(3, 6))
		}
		if o.Emphasis || linksLeft > 0 {
			var s spans
			if o.Emphasis {
				switch w.r.IntN(4) {
				case 0:
					s.add(spanEm)
				case 1:
					s.add(spanStrong)
				case 2:
					s.add(spanEm)
					s.add(spanStrong)
				}
			}
			if linksLeft > 0 && w.r.IntN(2) == 0 {
				k := w.r.IntN(links)
				if linksUsed&(1<<k) == 0 {
					linksUsed |= 1 << k
					linksLeft--
					s.add(spanLink)
					s.link = o.Links[k].URL
				}
			}
			w.writeSpans(&d, start, &s)
		} else {
			w.text(&d, start)
		}
		w.setBuf(d.CloseParagraph(w.buf))
		if i == listAt {
			w.writeList(&d, ordered)
		}
		if i == quoteAt {
			w.writeQuote(&d)
		}
		for j, at := range imageAt {
			if at == i {
				w.writeImage(&d, images[j])
			}
		}
		if i == tableAt {
			w.writeTable(&d)
		}
		if i == codeAt {
			w.writeCode(&d)
		}
	}
	return w.out()
}

func (w *Writer) writeList(d *markup.Doc, ordered bool) {
	if ordered {
		w.setBuf(d.OpenOrderedList(w.buf))
	} else {
		w.setBuf(d.OpenList(w.buf))
	}
	k := w.between(3, 6)
	var item *frame
	if w.lex() != nil {
		var distinct int
		item, distinct = w.itemFrame()
		k = min(k, max(distinct, 2))
		defer func() { w.d.seq = -1 }()
	}
	for j := 0; j < k; j++ {
		w.setBuf(d.OpenItem(w.buf))
		start := len(w.buf)
		if item != nil {
			// An item's bound slots ({thing1.a} ({thing1.price})) name
			// one entry, the next item the next one.
			w.unbind()
			w.appendFrame(item)
		} else if w.src == RealText {
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
		w.text(d, start)
		w.setBuf(d.CloseItem(w.buf))
	}
	w.setBuf(d.CloseList(w.buf))
}

// take returns w.buf[from:] as a string and cuts it from the buffer.
func (w *Writer) take(from int) string {
	s := string(w.buf[from:])
	w.buf = w.buf[:from]
	return s
}

// writeQuote writes a quote of one or two sentences attributed to a
// made-up person.
func (w *Writer) writeQuote(d *markup.Doc) {
	at := len(w.buf)
	lx := w.lex()
	if lx != nil {
		w.appendFrame(w.pickFrame(lx.roles["cite"]))
	} else {
		w.appendPerson()
	}
	cite := w.take(at)
	w.setBuf(d.OpenQuote(w.buf))
	w.setBuf(d.OpenParagraph(w.buf))
	start := len(w.buf)
	if lx != nil {
		w.appendLexSentence(lx.roles["quote"])
		if w.r.IntN(2) == 0 {
			w.space()
			w.appendLexSentence(lx.roles["quote"])
		}
	} else {
		w.appendParagraphText(w.between(1, 2))
	}
	w.text(d, start)
	w.setBuf(d.CloseParagraph(w.buf))
	w.setBuf(d.CloseQuote(w.buf, cite))
}

// writeImage writes img with its caption, or a made-up one.
func (w *Writer) writeImage(d *markup.Doc, img *InlineImage) {
	caption := img.Caption
	if caption == "" {
		at := len(w.buf)
		if lx := w.lex(); lx != nil {
			w.appendLexSentence(lx.roles["caption"])
		} else {
			w.appendSentence(w.between(4, 9))
		}
		caption = w.take(at)
	}
	alt := img.Alt
	if alt == "" {
		alt = caption
	}
	w.setBuf(d.Image(w.buf, markup.Image{ID: img.ID, Src: img.URL, Alt: alt, Caption: caption}))
}

// writeTable writes a table of three or four columns: a word per row
// and numbers in the locale's format, under a header row of words.
func (w *Writer) writeTable(d *markup.Doc) {
	cols, rows := w.between(3, 4), w.between(3, 5)
	var decimals [4]int
	for c := 1; c < cols; c++ {
		decimals[c] = w.r.IntN(3)
	}
	w.setBuf(d.OpenTable(w.buf))
	for r := 0; r <= rows; r++ {
		w.setBuf(d.OpenRow(w.buf, r == 0))
		for c := 0; c < cols; c++ {
			w.setBuf(d.OpenCell(w.buf))
			start := len(w.buf)
			if r == 0 || c == 0 {
				w.word()
				w.upperAt(start)
			} else {
				x := float64(w.r.IntN(1000000)) / 100
				if decimals[c] == 0 {
					x = float64(w.r.IntN(5000))
				}
				w.setBuf(w.p.appendNumber(w.buf, x, decimals[c]))
			}
			w.setBuf(d.Text(w.buf, start))
			w.setBuf(d.CloseCell(w.buf))
		}
		w.setBuf(d.CloseRow(w.buf))
	}
	w.setBuf(d.CloseTable(w.buf))
}

// snippet is a short piece of code in a language, with slots: {a} {b}
// {c} are identifiers, {n} {m} numbers.
type snippet struct{ lang, code string }

var snippets = []snippet{
	{"go", "func {a}({b} []int) int {\n\ttotal := 0\n\tfor _, {c} := range {b} {\n\t\tif {c} > {n} && {c} < {m} {\n\t\t\ttotal += {c}\n\t\t}\n\t}\n\treturn total\n}"},
	{"go", "type {A} struct {\n\t{B} string\n\t{C} int\n}\n\nfunc (x *{A}) {a}() bool { return x.{C} >= {n} }"},
	{"javascript", "const {a} = [{n}, {m}, {n} + {m}];\nconst {b} = {a}.filter((x) => x > {n}).map((x) => `{c}-${x}`);\nconsole.log({b}.join(\", \"));"},
	{"python", "def {a}({b}, {c}={n}):\n    return [x for x in {b} if x > {c}]\n\nprint({a}([{n}, {m}]))"},
	{"shell", "mkdir -p {a}/{b} && cd {a}\nfor f in *.txt; do\n  grep -c \"{c}\" \"$f\" > \"{b}/$f.count\"\ndone"},
	{"sql", "SELECT {a}, COUNT(*) AS {b}\nFROM {c}\nWHERE {a} <> '' AND {b} < {m}\nGROUP BY {a}\nORDER BY {b} DESC\nLIMIT {n};"},
}

// writeCode writes a code block of one of the snippets, its slots filled
// with Latin placeholder words and numbers.
func (w *Writer) writeCode(d *markup.Doc) {
	s := &snippets[w.r.IntN(len(snippets))]
	var idents [3]string
	for k := range idents {
		idents[k] = w.pick(w.p.lorem)
	}
	n, m := w.between(2, 99), w.between(100, 999)
	at := len(w.buf)
	code := s.code
	for code != "" {
		i := 0
		for i < len(code) && code[i] != '{' {
			i++
		}
		w.buf = append(w.buf, code[:i]...)
		code = code[i:]
		if len(code) < 3 || code[2] != '}' {
			if code != "" {
				w.buf = append(w.buf, code[0])
				code = code[1:]
			}
			continue
		}
		switch c := code[1]; c {
		case 'a', 'b', 'c':
			w.setBuf(appendIdent(w.buf, idents[c-'a'], false))
		case 'A', 'B', 'C':
			w.setBuf(appendIdent(w.buf, idents[c-'A'], true))
		case 'n':
			w.setBuf(appendInt(w.buf, n))
		case 'm':
			w.setBuf(appendInt(w.buf, m))
		default:
			w.buf = append(w.buf, code[:3]...)
		}
		code = code[3:]
	}
	text := w.take(at)
	w.setBuf(d.CodeBlock(w.buf, s.lang, text))
}

// appendIdent appends the ASCII letters of word as an identifier,
// capitalised when upper is set ("x" when word has none).
func appendIdent(dst []byte, word string, upper bool) []byte {
	start := len(dst)
	for i := 0; i < len(word); i++ {
		if c := word[i]; 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			dst = append(dst, c)
		}
	}
	if len(dst) == start {
		dst = append(dst, 'x')
	}
	if upper && 'a' <= dst[start] && dst[start] <= 'z' {
		dst[start] -= 'a' - 'A'
	}
	return dst
}

func appendInt(dst []byte, n int) []byte {
	var tmp [20]byte
	i := len(tmp)
	for {
		i--
		tmp[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return append(dst, tmp[i:]...)
}

// Inline spans of a paragraph.
const (
	spanEm = iota + 1
	spanStrong
	spanLink
)

// spans are the inline elements a paragraph gets, in the order drawn.
type spans struct {
	kinds [3]int
	n     int
	link  string
}

func (s *spans) add(kind int) {
	s.kinds[s.n] = kind
	s.n++
}

// wordRune reports whether the rune at text[i:] belongs to a word
// (letters and digits, and marks inside a word), and its size.
func wordRune(text []byte, i int, in bool) (bool, int) {
	if c := text[i]; c < utf8.RuneSelf {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9', 1
	}
	r, size := utf8.DecodeRune(text[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) && in, size
}

// wordEnd returns the end of the word that starts at i.
func wordEnd(text []byte, i int) int {
	for i < len(text) {
		ok, size := wordRune(text, i, true)
		if !ok {
			break
		}
		i += size
	}
	return i
}

// nextWord returns the first whole word of text that starts at or after
// from and before limit.
func nextWord(text []byte, from, limit int) (lo, hi int, ok bool) {
	for i := from; i < limit; {
		ok, size := wordRune(text, i, false)
		if !ok {
			i += size
			continue
		}
		if _, inside := wordBefore(text, i); !inside {
			return i, wordEnd(text, i), true
		}
		// from fell inside a word: not that one.
		i = wordEnd(text, i)
	}
	return 0, 0, false
}

// wordFrom returns the word of text around byte p, or the next word
// starting before hi when p is not in one, or when the word around p
// starts before lo.
func wordFrom(text []byte, p, lo, hi int) (int, int, bool) {
	for p > lo && !utf8.RuneStart(text[p]) {
		p--
	}
	if in, _ := wordRune(text, p, false); in {
		start := p
		for start > lo {
			size, ok := wordBefore(text, start)
			if !ok || start-size < lo {
				break
			}
			start -= size
		}
		if _, ok := wordBefore(text, start); !ok {
			return start, wordEnd(text, start), true
		}
		// The word began in the stretch before: take the next one.
		p = wordEnd(text, p)
	}
	return nextWord(text, p, hi)
}

// wordBefore reports whether the rune that ends at text[:i] belongs to a
// word, and its size.
func wordBefore(text []byte, i int) (int, bool) {
	if i == 0 {
		return 0, false
	}
	if c := text[i-1]; c < utf8.RuneSelf {
		return 1, 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	r, size := utf8.DecodeLastRune(text[:i])
	if r < utf8.RuneSelf {
		return size, 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return size, unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// writeSpans rewrites the plain text of the open paragraph, w.buf[start:],
// with the inline elements of s around words of it and escapes it for the
// format. Each element wraps one to three words of a clause and starts
// and ends with a letter or digit; the elements are spread over the paragraph in the
// order drawn. The choices depend on the text only, not on the format.
func (w *Writer) writeSpans(d *markup.Doc, start int, s *spans) {
	if s.n == 0 {
		w.text(d, start)
		return
	}
	text := w.buf[start:]
	type placed struct{ lo, hi, kind int }
	var at [3]placed
	k := 0
	for j := 0; j < s.n; j++ {
		// The paragraph in s.n equal stretches of bytes, one element in
		// each: the word at a random byte of the stretch, or the next one
		// starting in it.
		segLo, segHi := j*len(text)/s.n, (j+1)*len(text)/s.n
		if segHi <= segLo {
			continue
		}
		lo, hi, ok := wordFrom(text, segLo+w.r.IntN(segHi-segLo), segLo, segHi)
		if !ok {
			continue
		}
		// Further words only within the sentence and clause: across
		// nothing but a word space; not ending on a word of one or two
		// letters ("a", "of").
		end := hi
		for more := w.r.IntN(3); more > 0; more-- {
			nlo, nhi, ok := nextWord(text, end, segHi)
			if !ok {
				break
			}
			if gap := text[end:nlo]; string(gap) != " " && (w.sep == "" || string(gap) != w.sep) {
				break
			}
			end = nhi
			if nhi-nlo > 2 {
				hi = nhi
			}
		}
		at[k] = placed{lo, hi, s.kinds[j]}
		k++
	}
	if k == 0 {
		w.text(d, start)
		return
	}
	// Write the text again from a copy, with the elements around it.
	w.tmp = append(w.tmp[:0], text...)
	text = w.tmp
	w.buf = w.buf[:start]
	pos := 0
	plain := func(to int) {
		if to > pos {
			from := len(w.buf)
			w.addBytes(text[pos:to])
			w.text(d, from)
			pos = to
		}
	}
	for j := 0; j < k; j++ {
		p := at[j]
		plain(p.lo)
		switch p.kind {
		case spanEm:
			w.setBuf(d.OpenEmphasis(w.buf))
		case spanStrong:
			w.setBuf(d.OpenStrong(w.buf))
		default:
			w.setBuf(d.OpenLink(w.buf, s.link))
		}
		plain(p.hi)
		switch p.kind {
		case spanEm:
			w.setBuf(d.CloseEmphasis(w.buf))
		case spanStrong:
			w.setBuf(d.CloseStrong(w.buf))
		default:
			w.setBuf(d.CloseLink(w.buf))
		}
	}
	plain(len(text))
}
