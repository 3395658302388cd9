package markup

import (
	"strconv"
	"strings"
)

// OpenQuote opens a quote. Its content is one or more paragraphs, opened
// and closed with OpenParagraph and CloseParagraph before CloseQuote.
func (d *Doc) OpenQuote(dst []byte) []byte {
	dst = d.block(dst)
	d.inQuote, d.quoteParas = true, 0
	switch d.f {
	case Blocks:
		dst = append(dst, "<!-- wp:quote -->\n<blockquote class=\"wp-block-quote\">"...)
	case HTML:
		dst = append(dst, "<blockquote>\n"...)
	}
	return dst
}

// CloseQuote closes the open quote with cite, the attribution ("" for
// none): a <cite> in HTML and block markup, a last line after an em dash
// in Markdown.
func (d *Doc) CloseQuote(dst []byte, cite string) []byte {
	d.inQuote = false
	cite = strings.TrimSpace(cite)
	switch d.f {
	case Blocks:
		if cite != "" {
			dst = append(dst, "<cite>"...)
			dst = d.AppendText(dst, cite)
			dst = append(dst, "</cite>"...)
		}
		return append(dst, "</blockquote>\n<!-- /wp:quote -->"...)
	case Markdown:
		if cite != "" {
			dst = append(dst, ">\n> \u2014 "...)
			start := len(dst)
			dst = append(dst, cite...)
			dst = escapeMarkdown(dst, start, false)
			dst = append(dst, '\n')
		}
		return dst
	}
	if cite != "" {
		dst = append(dst, "<cite>"...)
		dst = d.AppendText(dst, cite)
		dst = append(dst, "</cite>\n"...)
	}
	return append(dst, "</blockquote>\n"...)
}

// OpenEmphasis opens emphasis (<em>) inside a paragraph or list item.
// In Markdown it is written with asterisks, so the emphasised text should
// start and end with a letter or digit, as CommonMark asks of emphasis
// inside a word.
func (d *Doc) OpenEmphasis(dst []byte) []byte {
	if d.f == Markdown {
		return append(dst, '*')
	}
	return append(dst, "<em>"...)
}

// CloseEmphasis closes the emphasis opened last.
func (d *Doc) CloseEmphasis(dst []byte) []byte {
	if d.f == Markdown {
		return append(dst, '*')
	}
	return append(dst, "</em>"...)
}

// OpenStrong opens strong emphasis (<strong>), as OpenEmphasis.
func (d *Doc) OpenStrong(dst []byte) []byte {
	if d.f == Markdown {
		return append(dst, "**"...)
	}
	return append(dst, "<strong>"...)
}

// CloseStrong closes the strong emphasis opened last.
func (d *Doc) CloseStrong(dst []byte) []byte {
	if d.f == Markdown {
		return append(dst, "**"...)
	}
	return append(dst, "</strong>"...)
}

// OpenLink opens a link to url inside a paragraph or list item; its text
// follows, then CloseLink. Links do not nest. Bytes of url outside the
// printable ASCII characters an address may hold (spaces, quotes, angle
// brackets, parentheses, backslashes, non-ASCII) are percent-encoded in
// every format, so that all three give the same address.
func (d *Doc) OpenLink(dst []byte, url string) []byte {
	if d.f == Markdown {
		d.href = url
		// Text leaves "!" alone; right before a link it would make
		// the link an image.
		if n := len(dst); n > 0 && dst[n-1] == '!' {
			return append(append(dst[:n-1], '\\', '!'), '[')
		}
		return append(dst, '[')
	}
	dst = append(dst, "<a href=\""...)
	dst = d.appendAttrURL(dst, url)
	return append(dst, "\">"...)
}

// CloseLink closes the open link.
func (d *Doc) CloseLink(dst []byte) []byte {
	if d.f == Markdown {
		dst = append(dst, "]("...)
		dst = appendURL(dst, d.href)
		d.href = ""
		return append(dst, ')')
	}
	return append(dst, "</a>"...)
}

// Image is an image of the media library shown in a body.
type Image struct {
	// ID is the media item's id, 0 when it has none (block markup then
	// leaves out the id attribute and the wp-image class).
	ID int64
	// Src is the address of the image; Alt its text alternative.
	Src, Alt string
	// Caption is shown under the image; "" for none.
	Caption string
}

// Image writes img as a block element: a <figure> with the <img> and a
// <figcaption> in HTML; a core/image block of the large size, not linked,
// in block markup; an image paragraph with the caption in emphasis on the
// line below in Markdown (the caption is also the image's title there).
// Alt and caption are plain text, escaped for the format.
func (d *Doc) Image(dst []byte, img Image) []byte {
	dst = d.block(dst)
	caption := strings.TrimSpace(img.Caption)
	switch d.f {
	case Blocks:
		dst = append(dst, "<!-- wp:image {"...)
		if img.ID != 0 {
			dst = append(dst, `"id":`...)
			dst = strconv.AppendInt(dst, img.ID, 10)
			dst = append(dst, ',')
		}
		dst = append(dst, `"sizeSlug":"large","linkDestination":"none"} -->`...)
		dst = append(dst, "\n<figure class=\"wp-block-image size-large\"><img src=\""...)
		dst = d.appendAttrURL(dst, img.Src)
		dst = append(dst, `" alt="`...)
		dst = d.appendAttr(dst, img.Alt)
		dst = append(dst, '"')
		if img.ID != 0 {
			dst = append(dst, ` class="wp-image-`...)
			dst = strconv.AppendInt(dst, img.ID, 10)
			dst = append(dst, '"')
		}
		dst = append(dst, "/>"...)
		if caption != "" {
			dst = append(dst, `<figcaption class="wp-element-caption">`...)
			dst = d.AppendText(dst, caption)
			dst = append(dst, "</figcaption>"...)
		}
		return append(dst, "</figure>\n<!-- /wp:image -->"...)
	case Markdown:
		dst = append(dst, "!["...)
		start := len(dst)
		dst = append(dst, img.Alt...)
		dst = escapeMarkdown(dst, start, false)
		dst = append(dst, "]("...)
		dst = appendURL(dst, img.Src)
		if caption != "" {
			dst = append(dst, " \""...)
			for i := 0; i < len(caption); i++ {
				if c := caption[i]; c == '"' || c == '\\' {
					dst = append(dst, '\\')
				}
				dst = append(dst, caption[i])
			}
			dst = append(dst, '"')
		}
		dst = append(dst, ")\n"...)
		if caption != "" {
			dst = append(dst, '*')
			start := len(dst)
			dst = append(dst, caption...)
			dst = escapeMarkdown(dst, start, false)
			dst = append(dst, "*\n"...)
		}
		return dst
	}
	dst = append(dst, "<figure>\n<img src=\""...)
	dst = d.appendAttrURL(dst, img.Src)
	dst = append(dst, `" alt="`...)
	dst = d.appendAttr(dst, img.Alt)
	dst = append(dst, "\">\n"...)
	if caption != "" {
		dst = append(dst, "<figcaption>"...)
		dst = d.AppendText(dst, caption)
		dst = append(dst, "</figcaption>\n"...)
	}
	return append(dst, "</figure>\n"...)
}

// OpenTable opens a table. Its rows follow, each opened with OpenRow and
// closed with CloseRow: first the header row, then at least one body row,
// each with as many cells as the header row.
func (d *Doc) OpenTable(dst []byte) []byte {
	dst = d.block(dst)
	d.body, d.headRow, d.cols = false, false, 0
	switch d.f {
	case Blocks:
		dst = append(dst, "<!-- wp:table -->\n<figure class=\"wp-block-table\"><table class=\"has-fixed-layout\">"...)
	case HTML:
		dst = append(dst, "<table>\n"...)
	}
	return dst
}

// OpenRow opens a row of the open table: the header row when head is
// true (only as its first row), else a body row.
func (d *Doc) OpenRow(dst []byte, head bool) []byte {
	d.cells = 0
	d.headRow = head
	if d.f == Markdown {
		return dst
	}
	switch {
	case head:
		dst = d.line(append(dst, "<thead>"...))
	case !d.body:
		d.body = true
		dst = d.line(append(dst, "<tbody>"...))
	}
	return append(dst, "<tr>"...)
}

// OpenCell opens a cell of the open row: a header cell (<th>) in the
// header row, else a data cell (<td>). Its text follows, then CloseCell.
func (d *Doc) OpenCell(dst []byte) []byte {
	d.cells++
	switch {
	case d.f == Markdown:
		if d.cells == 1 {
			dst = append(dst, '|')
		}
		dst = append(dst, ' ')
	case d.headRow:
		dst = append(dst, "<th>"...)
	default:
		dst = append(dst, "<td>"...)
	}
	return d.opened(dst)
}

// CloseCell closes the open cell.
func (d *Doc) CloseCell(dst []byte) []byte {
	switch {
	case d.f == Markdown:
		return append(dst, " |"...)
	case d.headRow:
		return append(dst, "</th>"...)
	}
	return append(dst, "</td>"...)
}

// CloseRow closes the open row.
func (d *Doc) CloseRow(dst []byte) []byte {
	if d.f == Markdown {
		dst = append(dst, '\n')
		if d.headRow {
			d.cols = d.cells
			for range d.cells {
				dst = append(dst, "| --- "...)
			}
			dst = append(dst, "|\n"...)
		}
		return dst
	}
	dst = d.line(append(dst, "</tr>"...))
	if d.headRow {
		dst = d.line(append(dst, "</thead>"...))
	}
	return dst
}

// line ends a line of an HTML table; block markup keeps the table on one
// line, as the table block saves it.
func (d *Doc) line(dst []byte) []byte {
	if d.f == HTML {
		return append(dst, '\n')
	}
	return dst
}

// CloseTable closes the open table.
func (d *Doc) CloseTable(dst []byte) []byte {
	switch d.f {
	case Blocks:
		if d.body {
			dst = append(dst, "</tbody>"...)
		}
		return append(dst, "</table></figure>\n<!-- /wp:table -->"...)
	case HTML:
		if d.body {
			dst = append(dst, "</tbody>\n"...)
		}
		return append(dst, "</table>\n"...)
	}
	return dst
}

// CodeBlock writes code, lines of source text in the language lang (such
// as "go"; "" for none), as a block: <pre><code class="language-…"> in
// HTML, a core/code block in block markup (which has no language), a
// fenced code block with lang as its info string in Markdown. The code is
// escaped as each format needs: & < > in HTML; & < and [ (and the slashes
// of an address alone on a line), as the code block saves them, in block
// markup; nothing in Markdown, whose fence is longer than any run of
// backticks in the code.
func (d *Doc) CodeBlock(dst []byte, lang, code string) []byte {
	dst = d.block(dst)
	code = strings.TrimRight(code, "\n")
	switch d.f {
	case Blocks:
		dst = append(dst, "<!-- wp:code -->\n<pre class=\"wp-block-code\"><code>"...)
		dst = appendBlockCode(dst, code)
		return append(dst, "</code></pre>\n<!-- /wp:code -->"...)
	case Markdown:
		fence := max(3, longestRun(code, '`')+1)
		for range fence {
			dst = append(dst, '`')
		}
		dst = append(dst, lang...)
		dst = append(dst, '\n')
		dst = append(dst, code...)
		dst = append(dst, '\n')
		for range fence {
			dst = append(dst, '`')
		}
		return append(dst, '\n')
	}
	dst = append(dst, "<pre><code"...)
	if lang != "" {
		dst = append(dst, ` class="language-`...)
		dst = d.appendAttr(dst, lang)
		dst = append(dst, '"')
	}
	dst = append(dst, '>')
	start := len(dst)
	dst = append(dst, code...)
	dst = escapeHTML(dst, start, true)
	return append(dst, "</code></pre>\n"...)
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// appendBlockCode appends code escaped as the code block saves it: & and
// < as character references, [ as &#91; (so that no shortcode runs), and
// the first line that holds nothing but an http or https address gets its
// two slashes as &#47;&#47; (so that no embed runs).
func appendBlockCode(dst []byte, code string) []byte {
	urlLine := isolatedURLLine(code)
	for i := 0; i < len(code); i++ {
		switch c := code[i]; {
		case c == '&':
			dst = append(dst, "&amp;"...)
		case c == '<':
			dst = append(dst, "&lt;"...)
		case c == '[':
			dst = append(dst, "&#91;"...)
		case i == urlLine:
			dst = append(dst, "&#47;&#47;"...)
			i++
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// isolatedURLLine returns the index in code of the "//" of the first line
// that is an http or https address alone with white space around it, or
// -1.
func isolatedURLLine(code string) int {
	for pos := 0; pos < len(code); {
		end := strings.IndexByte(code[pos:], '\n')
		if end < 0 {
			end = len(code)
		} else {
			end += pos
		}
		line := code[pos:end]
		t := strings.TrimLeft(line, " \t")
		lead := len(line) - len(t)
		rest := ""
		switch {
		case strings.HasPrefix(t, "http://"):
			rest = t[len("http://"):]
		case strings.HasPrefix(t, "https://"):
			rest = t[len("https://"):]
		}
		addr := strings.TrimRight(rest, " \t")
		if addr != "" && !strings.ContainsAny(addr, " \t<>\"") {
			return pos + lead + len(t) - len(rest) - 2
		}
		pos = end + 1
	}
	return -1
}

// urlSafe marks the bytes an address keeps as they are; every other byte
// is percent-encoded.
var urlSafe = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range []byte("-._~:/?#@!$&'*+,;=%") {
		t[c] = true
	}
	return t
}()

// appendURL appends url with the bytes that are not urlSafe
// percent-encoded.
func appendURL(dst []byte, url string) []byte {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(url); i++ {
		c := url[i]
		if urlSafe[c] {
			dst = append(dst, c)
			continue
		}
		dst = append(dst, '%', hex[c>>4], hex[c&15])
	}
	return dst
}

// appendAttrURL appends url as appendURL does, escaped for an attribute.
func (d *Doc) appendAttrURL(dst []byte, url string) []byte {
	start := len(dst)
	dst = appendURL(dst, url)
	return escapeAttr(dst, start, d.f == HTML)
}

// appendAttr appends s escaped for a double-quoted attribute.
func (d *Doc) appendAttr(dst []byte, s string) []byte {
	start := len(dst)
	dst = append(dst, s...)
	return escapeAttr(dst, start, d.f == HTML)
}

// escapeAttr escapes dst[from:] for a double-quoted attribute: & " and >
// as the block editor escapes attributes, and < too in HTML.
func escapeAttr(dst []byte, from int, lt bool) []byte {
	n := len(dst)
	extra := 0
	for _, c := range dst[from:] {
		if r := attrRef(c, lt); r != "" {
			extra += len(r) - 1
		}
	}
	if extra == 0 {
		return dst
	}
	dst = append(dst, make([]byte, extra)...)
	j := n + extra
	for i := n - 1; i >= from; i-- {
		c := dst[i]
		if r := attrRef(c, lt); r != "" {
			j -= len(r)
			copy(dst[j:], r)
			continue
		}
		j--
		dst[j] = c
	}
	return dst
}

func attrRef(c byte, lt bool) string {
	switch c {
	case '&':
		return "&amp;"
	case '"':
		return "&quot;"
	case '>':
		return "&gt;"
	case '<':
		if lt {
			return "&lt;"
		}
	}
	return ""
}
