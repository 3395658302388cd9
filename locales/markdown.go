package locales

import (
	"html"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/contentgen/contentgen/locales/markup"
)

// Text a language model wrote is read as a small, safe subset of Markdown
// and written again through markup.Doc, so that it ends up in the same
// formats, with the same escaping and the same structure rules as the
// offline writer's bodies.

var (
	// mdDangerous are elements dropped with their content: active ones,
	// and the thinking that reasoning models put before their answer.
	mdDangerous = regexp.MustCompile(`(?is)<(script|style|iframe|object|embed|template|noscript|svg|math|think|thinking|reasoning)\b[^>]*>.*?</\s*(script|style|iframe|object|embed|template|noscript|svg|math|think|thinking|reasoning)\s*>|<!--.*?-->`)
	// mdTag is any other tag, opening, closing or unclosed to the end of
	// the line.
	mdTag       = regexp.MustCompile(`</?[A-Za-z!?][^>\n]*(>|$)`)
	mdImage     = regexp.MustCompile(`!\[([^\]\n]*)\]\([^)\n]*\)`)
	mdLink      = regexp.MustCompile(`\[([^\]\n]+)\]\([^)\n]*\)`)
	mdRefLink   = regexp.MustCompile(`(?m)^\s*\[[^\]\n]+\]:\s*\S+.*$`)
	mdHeading   = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	mdBullet    = regexp.MustCompile(`^\s*[-*+•]\s+(.*)$`)
	mdNumbered  = regexp.MustCompile(`^\s*\d{1,3}[.)]\s+(.*)$`)
	mdRule      = regexp.MustCompile(`^\s*([-*_=])(\s*([-*_=])){2,}\s*$`)
	mdFence     = regexp.MustCompile("^\\s*(```+|~~~+)\\s*([A-Za-z0-9_+#.-]*)")
	mdTableSep  = regexp.MustCompile(`^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$`)
	mdCiteLine  = regexp.MustCompile(`^\s*(—|–|--|-)\s*(.+)$`)
	mdSpaceRuns = regexp.MustCompile(`\s+`)
)

// SanitizeModelText removes what a model's answer must never bring into
// content: script, style and other active elements with their content,
// the <think> blocks of reasoning models,
// comments, every other HTML tag (its text stays) and Markdown images and
// links (their text stays; links and images are the caller's to add).
// Character references are decoded, so that the result is plain text with
// Markdown marks, to be escaped for the output format.
func SanitizeModelText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || !unicode.IsControl(r) && r != utf8.RuneError {
			return r
		}
		return -1
	}, strings.ToValidUTF8(s, ""))
	s = mdDangerous.ReplaceAllString(s, "")
	// Code in fences keeps its tags: code blocks escape them as text.
	parts := strings.Split(s, "```")
	for i := range parts {
		if i%2 == 0 || i == len(parts)-1 {
			parts[i] = sanitizeProse(parts[i])
		}
	}
	return strings.Join(parts, "```")
}

// sanitizeProse sanitises text outside code fences.
func sanitizeProse(s string) string {
	// An unclosed dangerous element takes the rest of the answer with it.
	if i := indexFold(s, "<script"); i >= 0 {
		s = s[:i]
	}
	s = mdTag.ReplaceAllString(s, "")
	s = mdImage.ReplaceAllString(s, "")
	s = mdLink.ReplaceAllString(s, "$1")
	s = mdRefLink.ReplaceAllString(s, "")
	s = html.UnescapeString(s)
	// Decoding may have made tags of escaped ones: they are text, but no
	// tag is wanted in the text either.
	s = mdDangerous.ReplaceAllString(s, "")
	s = mdTag.ReplaceAllString(s, "")
	// Decoding may have made control characters of references.
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || !unicode.IsControl(r) {
			return r
		}
		return -1
	}, s)
}

func indexFold(s, sub string) int {
	return strings.Index(strings.ToLower(s), sub)
}

// PlainText returns Markdown text a model wrote as one line of plain text:
// sanitised (see SanitizeModelText), without emphasis marks, heading marks,
// code marks or line breaks.
func PlainText(md string) string {
	s := SanitizeModelText(md)
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if m := mdHeading.FindStringSubmatch(l); m != nil {
			l = m[2]
		}
		if m := mdBullet.FindStringSubmatch(l); m != nil && !mdRule.MatchString(l) {
			l = m[1]
		}
		l = strings.TrimLeft(l, "> ")
		lines = append(lines, l)
	}
	return inlinePlain(strings.Join(lines, " "))
}

// inlinePlain removes inline marks and collapses white space.
func inlinePlain(s string) string {
	s = strings.NewReplacer("**", "", "__", "", "`", "", "~~", "").Replace(s)
	s = stripStars(s)
	return strings.TrimSpace(mdSpaceRuns.ReplaceAllString(s, " "))
}

// stripStars removes single asterisks used as emphasis marks, keeping
// those between spaces ("2 * 3").
func stripStars(s string) string {
	if !strings.Contains(s, "*") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '*' {
			before := i > 0 && s[i-1] != ' '
			after := i+1 < len(s) && s[i+1] != ' '
			if before || after {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Kinds of blocks of a model's Markdown.
const (
	mdPara = iota
	mdHead
	mdList
	mdOrdered
	mdQuote
	mdCode
	mdTable
)

type mdBlock struct {
	kind  int
	level int
	// text is the paragraph, heading or quote text; items the list items;
	// cite a quote's attribution; code and lang a code block; rows a
	// table, its header row first.
	text  string
	items []string
	cite  string
	code  string
	lang  string
	rows  [][]string
}

// parseModelMarkdown reads the blocks of sanitised Markdown.
func parseModelMarkdown(s string) []mdBlock {
	var (
		out   []mdBlock
		para  []string
		quote []string
		list  *mdBlock
		table []string
	)
	flush := func() {
		if len(para) > 0 {
			out = append(out, mdBlock{kind: mdPara, text: strings.Join(para, " ")})
			para = nil
		}
		if len(quote) > 0 {
			q := mdBlock{kind: mdQuote}
			if n := len(quote); n > 1 {
				if m := mdCiteLine.FindStringSubmatch(quote[n-1]); m != nil {
					q.cite = inlinePlain(m[2])
					quote = quote[:n-1]
				}
			}
			q.text = strings.Join(quote, " ")
			out = append(out, q)
			quote = nil
		}
		if list != nil {
			out = append(out, *list)
			list = nil
		}
		if len(table) > 0 {
			if b, ok := parseTable(table); ok {
				out = append(out, b)
			} else {
				for _, l := range table {
					out = append(out, mdBlock{kind: mdPara, text: strings.Trim(strings.ReplaceAll(l, "|", " "), " ")})
				}
			}
			table = nil
		}
	}
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t")
		trimmed := strings.TrimSpace(line)
		if m := mdFence.FindStringSubmatch(line); m != nil {
			fence := m[1]
			end := i + 1
			for end < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[end]), fence[:3]) {
				end++
			}
			if end == len(lines) {
				continue // an unclosed fence is no code block
			}
			flush()
			var code []string
			for i++; i < end; i++ {
				code = append(code, strings.TrimRight(lines[i], " \t"))
			}
			if c := strings.Trim(strings.Join(code, "\n"), "\n"); strings.TrimSpace(c) != "" {
				out = append(out, mdBlock{kind: mdCode, code: c, lang: strings.ToLower(m[2])})
			}
			continue
		}
		switch {
		case trimmed == "":
			flush()
		case mdRule.MatchString(trimmed) && len(para) == 0:
			flush()
		case strings.HasPrefix(trimmed, "|"):
			if len(table) == 0 {
				flush()
			}
			table = append(table, trimmed)
		case mdHeading.MatchString(trimmed):
			flush()
			m := mdHeading.FindStringSubmatch(trimmed)
			out = append(out, mdBlock{kind: mdHead, level: len(m[1]), text: m[2]})
		case strings.HasPrefix(trimmed, ">"):
			if len(quote) == 0 {
				flush()
			}
			if t := strings.TrimSpace(strings.TrimLeft(trimmed, "> ")); t != "" {
				quote = append(quote, t)
			}
		case mdBullet.MatchString(line) || mdNumbered.MatchString(line):
			kind, m := mdList, mdBullet.FindStringSubmatch(line)
			if m == nil {
				kind, m = mdOrdered, mdNumbered.FindStringSubmatch(line)
			}
			if list == nil {
				flush()
				list = &mdBlock{kind: kind}
			}
			list.items = append(list.items, m[1])
		case list != nil && (line[0] == ' ' || line[0] == '\t'):
			// The continuation of the last item.
			list.items[len(list.items)-1] += " " + trimmed
		case len(quote) > 0:
			quote = append(quote, trimmed)
		default:
			if list != nil || len(table) > 0 {
				flush()
			}
			para = append(para, trimmed)
		}
	}
	flush()
	return out
}

// parseTable reads pipe-table lines: a header row, a separator row and at
// least one row, all of two columns or more.
func parseTable(lines []string) (mdBlock, bool) {
	if len(lines) < 3 || !mdTableSep.MatchString(lines[1]) {
		return mdBlock{}, false
	}
	cells := func(l string) []string {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(l, "|")
		l = strings.TrimSuffix(l, "|")
		var out []string
		for _, c := range strings.Split(l, "|") {
			out = append(out, inlinePlain(c))
		}
		return out
	}
	head := cells(lines[0])
	if len(head) < 2 {
		return mdBlock{}, false
	}
	b := mdBlock{kind: mdTable, rows: [][]string{head}}
	for _, l := range lines[2:] {
		row := cells(l)
		// Every row as wide as the header.
		row = append(row, make([]string, max(len(head)-len(row), 0))...)[:len(head)]
		b.rows = append(b.rows, row)
	}
	return b, true
}

// segment is a stretch of inline text: plain, emphasised or strong.
type segment struct {
	text string
	kind int // 0 plain, spanEm, spanStrong
}

// inlineSegments splits text into plain, emphasised (*x*) and strong
// (**x**) stretches. Marks whose text does not start and end with a letter
// or digit, and unpaired marks, are dropped as marks.
func inlineSegments(text string, emphasis bool) []segment {
	text = strings.NewReplacer("`", "", "~~", "", "__", "**").Replace(text)
	text = strings.TrimSpace(mdSpaceRuns.ReplaceAllString(text, " "))
	var out []segment
	add := func(s string, kind int) {
		if s == "" {
			return
		}
		if kind != 0 && (!emphasis || !wordEdges(s)) {
			kind = 0
		}
		if n := len(out); n > 0 && out[n-1].kind == 0 && kind == 0 {
			out[n-1].text += s
			return
		}
		out = append(out, segment{s, kind})
	}
	for text != "" {
		i := strings.IndexByte(text, '*')
		if i < 0 {
			add(text, 0)
			break
		}
		add(text[:i], 0)
		text = text[i:]
		mark, kind := "*", spanEm
		if strings.HasPrefix(text, "**") {
			mark, kind = "**", spanStrong
		} else if len(text) == 1 || text[1] == ' ' {
			add("*", 0) // a lone asterisk, as in "3 * 4"
			text = text[1:]
			continue
		}
		body := strings.TrimLeft(text, "*")
		end := strings.Index(body, mark)
		if end <= 0 {
			add(strings.ReplaceAll(body, "*", ""), 0)
			break
		}
		add(strings.ReplaceAll(body[:end], "*", ""), kind)
		text = strings.TrimLeft(body[end:], "*")
	}
	// Dropped marks may leave white space at the edges or doubled.
	for i := range out {
		if out[i].kind == 0 {
			out[i].text = mdSpaceRuns.ReplaceAllString(out[i].text, " ")
		}
	}
	if len(out) > 0 {
		out[0].text = strings.TrimLeft(out[0].text, " ")
		out[len(out)-1].text = strings.TrimRight(out[len(out)-1].text, " ")
	}
	return slices.DeleteFunc(out, func(s segment) bool { return s.text == "" })
}

// noText reports whether inline Markdown holds no text to write.
func noText(s string) bool { return len(inlineSegments(s, false)) == 0 }

// wordEdges reports whether s starts and ends with a letter or digit.
func wordEdges(s string) bool {
	first, _ := utf8.DecodeRuneInString(s)
	last, _ := utf8.DecodeLastRuneInString(s)
	ok := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	return ok(first) && ok(last)
}

// RenderModelMarkdown writes md, a body a language model wrote in
// Markdown, in format f (markup.HTML when f is not a format), shaped by o
// like Body: headings only with o.Headings (level 2, or 3 with
// o.SubHeadings), numbered lists only with o.OrderedLists (a list the
// model wrote stays one), quotes only with o.Quotes, emphasis only with
// o.Emphasis, tables and code only with o.Technical; what is not allowed
// becomes paragraphs or is left out. The text is sanitised first (see
// SanitizeModelText): no script, no raw HTML, no link or image of the
// model's. The links and images of o are placed by r as Body places them:
// links around words of some paragraphs, images between paragraphs. A
// heading always has text after it. ok is false when no paragraph is left.
func RenderModelMarkdown(md string, o HTMLOptions, f markup.Format, r *rand.Rand) (body string, ok bool) {
	blocks := parseModelMarkdown(SanitizeModelText(md))
	// The structure rules, before anything is written.
	var keep []mdBlock
	paras := 0
	headed := false
	for _, b := range blocks {
		switch b.kind {
		case mdHead:
			b.text = inlinePlain(b.text)
			if !o.Headings || b.text == "" {
				continue
			}
			// A sub-heading only below a heading.
			deep := b.level >= 3
			b.level = 2
			if o.SubHeadings && deep && headed {
				b.level = 3
			}
			headed = true
			if n := len(keep); n > 0 && keep[n-1].kind == mdHead {
				// A heading followed by a heading: the section's, not its
				// first sub-heading's.
				if b.level < keep[n-1].level {
					keep[n-1] = b
				}
				continue
			}
		case mdList, mdOrdered:
			b.items = slices.DeleteFunc(b.items, noText)
			if len(b.items) == 0 {
				continue
			}
			// A list the model wrote stays a list, even where the shape
			// asked for none: its items make no paragraphs.
			if b.kind == mdOrdered && !o.OrderedLists {
				b.kind = mdList
			}
		case mdQuote:
			if noText(b.text) {
				continue
			}
			if !o.Quotes {
				b.kind = mdPara
				if b.cite != "" {
					b.text += " — " + b.cite
				}
			}
		case mdCode, mdTable:
			if !o.Technical {
				continue
			}
		}
		if b.kind == mdPara {
			if noText(b.text) {
				continue
			}
			paras++
		}
		keep = append(keep, b)
	}
	for len(keep) > 0 && keep[len(keep)-1].kind == mdHead {
		keep = keep[:len(keep)-1]
	}
	if paras == 0 {
		return "", false
	}

	// Where the images go, and how many links are left.
	var imageAt [2]int
	var images [2]*InlineImage
	imageAt[0], imageAt[1] = -1, -1
	if len(o.Images) > 0 {
		k := 1
		if paras >= 6 && len(o.Images) > 1 {
			k = 2
		}
		first := r.IntN(len(o.Images))
		for j := range k {
			imageAt[j] = r.IntN(paras)
			images[j] = &o.Images[(first+j)%len(o.Images)]
		}
	}
	links := min(len(o.Links), 64)
	linksLeft := min(links, maxLinks)
	var linksUsed uint64

	buf := make([]byte, 0, len(md)+len(md)/4+256)
	d := markup.Begin(buf, f)
	p := 0
	for _, b := range keep {
		switch b.kind {
		case mdHead:
			buf = d.OpenHeading(buf, b.level)
			buf = d.AppendText(buf, b.text)
			buf = d.CloseHeading(buf, b.level)
		case mdPara:
			buf = d.OpenParagraph(buf)
			link := ""
			if linksLeft > 0 && r.IntN(2) == 0 {
				if k := r.IntN(links); linksUsed&(1<<k) == 0 {
					linksUsed |= 1 << k
					linksLeft--
					link = o.Links[k].URL
				}
			}
			buf = writeSegments(&d, buf, inlineSegments(b.text, o.Emphasis), link, r)
			buf = d.CloseParagraph(buf)
			for j, at := range imageAt {
				if at == p {
					img := images[j]
					caption := img.Caption
					if caption == "" {
						caption = img.Alt
					}
					alt := img.Alt
					if alt == "" {
						alt = caption
					}
					buf = d.Image(buf, markup.Image{ID: img.ID, Src: img.URL, Alt: alt, Caption: caption})
				}
			}
			p++
		case mdList, mdOrdered:
			if b.kind == mdOrdered {
				buf = d.OpenOrderedList(buf)
			} else {
				buf = d.OpenList(buf)
			}
			for _, it := range b.items {
				segs := inlineSegments(it, o.Emphasis)
				if len(segs) == 0 {
					continue
				}
				buf = d.OpenItem(buf)
				buf = writeSegments(&d, buf, segs, "", r)
				buf = d.CloseItem(buf)
			}
			buf = d.CloseList(buf)
		case mdQuote:
			buf = d.OpenQuote(buf)
			buf = d.OpenParagraph(buf)
			buf = writeSegments(&d, buf, inlineSegments(b.text, o.Emphasis), "", r)
			buf = d.CloseParagraph(buf)
			buf = d.CloseQuote(buf, b.cite)
		case mdCode:
			buf = d.CodeBlock(buf, b.lang, b.code)
		case mdTable:
			buf = d.OpenTable(buf)
			for i, row := range b.rows {
				buf = d.OpenRow(buf, i == 0)
				for _, c := range row {
					buf = d.OpenCell(buf)
					buf = d.AppendText(buf, c)
					buf = d.CloseCell(buf)
				}
				buf = d.CloseRow(buf)
			}
			buf = d.CloseTable(buf)
		}
	}
	return string(buf), true
}

// writeSegments writes inline segments into the open paragraph or item;
// with link set, one word of a plain segment becomes a link to it.
func writeSegments(d *markup.Doc, buf []byte, segs []segment, link string, r *rand.Rand) []byte {
	linkSeg, lo, hi := -1, 0, 0
	if link != "" {
		var plain []int
		for i, s := range segs {
			if s.kind == 0 && strings.ContainsFunc(s.text, unicode.IsLetter) {
				plain = append(plain, i)
			}
		}
		if len(plain) > 0 {
			i := plain[r.IntN(len(plain))]
			text := []byte(segs[i].text)
			if l, h, ok := wordFrom(text, r.IntN(len(text)), 0, len(text)); ok {
				linkSeg, lo, hi = i, l, h
			} else if l, h, ok := nextWord(text, 0, len(text)); ok {
				linkSeg, lo, hi = i, l, h
			}
		}
	}
	for i, s := range segs {
		switch {
		case i == linkSeg:
			if lo > 0 {
				buf = d.AppendText(buf, s.text[:lo])
			}
			buf = d.OpenLink(buf, link)
			buf = d.AppendText(buf, s.text[lo:hi])
			buf = d.CloseLink(buf)
			if hi < len(s.text) {
				buf = d.AppendText(buf, s.text[hi:])
			}
		case s.kind == spanEm:
			buf = d.OpenEmphasis(buf)
			buf = d.AppendText(buf, s.text)
			buf = d.CloseEmphasis(buf)
		case s.kind == spanStrong:
			buf = d.OpenStrong(buf)
			buf = d.AppendText(buf, s.text)
			buf = d.CloseStrong(buf)
		default:
			buf = d.AppendText(buf, s.text)
		}
	}
	return buf
}
