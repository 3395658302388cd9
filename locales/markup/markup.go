// Package markup writes the bodies of generated content in one of three
// formats: plain HTML, the block editor's serialised block markup, and
// CommonMark for static-site generators.
//
// A Doc is written straight into a caller's byte slice, element by
// element, so that text generated in place is never copied into an
// intermediate tree:
//
//	d := markup.Begin(buf, markup.Markdown)
//	buf = d.OpenHeading(buf, 2)
//	buf = d.AppendText(buf, "A title")
//	buf = d.CloseHeading(buf, 2)
//	buf = d.OpenParagraph(buf)
//	start := len(buf)
//	buf = append(buf, "Some text, written in place."...)
//	buf = d.Text(buf, start) // escape what was written since start
//	buf = d.CloseParagraph(buf)
//
// The same calls give the same document structure in every format: HTML
// puts every block element on its own line; block markup wraps each
// element in the comment delimiters of its block around exactly the HTML
// the block's save function produces, joined as the editor's serialiser
// joins blocks; Markdown separates blocks by blank lines and escapes every
// character of the text that CommonMark would read as markup.
//
// # Elements
//
// Block elements: paragraphs, headings of levels 1 to 6, bulleted and
// numbered lists, quotes of paragraphs with an optional attribution,
// images with a caption, tables with a header row, and code blocks.
// Inline elements inside paragraphs and list items: emphasis, strong
// emphasis and links.
//
// # Block markup
//
// Block markup follows the core blocks of current WordPress (6.6 and
// later): core/paragraph, core/heading (the level attribute for levels
// other than 2), core/list with core/list-item inner blocks and the
// wp-block-list class (the ordered attribute for numbered lists),
// core/quote with paragraph inner blocks and a <cite>, core/image with
// its id, sizeSlug and linkDestination attributes, core/table (whose
// fixed layout is the default) and core/code. WordPress 6.1 saved lists,
// quotes and headings differently (list items as plain <li> in the list's
// own HTML, quotes without inner blocks, no wp-block-heading class) and
// flags this markup as changed when it opens it.
//
// # Markdown
//
// Markdown is CommonMark with one extension: tables are GitHub Flavoured
// Markdown pipe tables, which the Markdown renderers of static-site
// generators read by default (goldmark in Hugo, markdown-it, remark-gfm);
// a CommonMark renderer without the extension shows them as text. An
// image is an image paragraph, ![alt](src "caption"), with its caption in
// emphasis on the line below; a quote's attribution is its last line,
// after an em dash.
package markup

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
)

// Format is the format of a generated body.
type Format string

const (
	// HTML is plain HTML, one element per line (the default).
	HTML Format = "html"
	// Blocks is the block editor's serialised block markup: the block
	// editor opens it as core blocks (paragraph, heading, list, quote,
	// image, table, code) without flagging unexpected content.
	Blocks Format = "blocks"
	// Markdown is CommonMark.
	Markdown Format = "markdown"
)

// Formats returns every format, the default first.
func Formats() []Format { return []Format{HTML, Blocks, Markdown} }

// Valid reports whether f is one of the formats.
func (f Format) Valid() bool { return f == HTML || f == Blocks || f == Markdown }

// Parse returns the format named s; "" means HTML. An unknown name gives an
// error that lists the formats.
func Parse(s string) (Format, error) {
	if s == "" {
		return HTML, nil
	}
	if f := Format(s); f.Valid() {
		return f, nil
	}
	return "", fmt.Errorf("unknown content format %q (html, blocks, markdown)", s)
}

// Doc writes one document in a format into a caller's byte slice. Its
// methods take the slice and return it grown, as append does. The zero Doc
// is not usable; start one with Begin. A Doc does not check the order of
// calls: open and close elements as HTML would nest them, with list items
// only inside lists, paragraphs only at the top level or inside a quote,
// inline elements only inside paragraphs and list items, rows and cells
// only inside tables, and text only inside elements.
type Doc struct {
	f Format
	// start is where the document starts in the slice.
	start int
	// textAt is where the text of the element opened last starts.
	textAt int
	// items counts the items of the open list.
	items int
	// bullet is the Markdown bullet of the open bulleted list, delim the
	// delimiter after the numbers of the open numbered list; ordered is
	// true while a numbered list is open. prevList and prevOrdered tell
	// what kind of list the block before is, if it is one.
	bullet, delim         byte
	ordered               bool
	prevList, prevOrdered bool
	// inQuote is true while a quote is open; quoteParas counts its
	// paragraphs.
	inQuote    bool
	quoteParas int
	// href is the address of the open link.
	href string
	// Table state: headRow is true while the header row is open, body once
	// the first body row is open; cells counts the cells of the open row
	// and cols those of the header row.
	headRow, body bool
	cells, cols   int
}

// Begin starts a document at the end of dst in format f (HTML when f is
// not a valid format).
func Begin(dst []byte, f Format) Doc {
	if !f.Valid() {
		f = HTML
	}
	return Doc{f: f, start: len(dst), textAt: -1}
}

// Format returns the format of the document.
func (d *Doc) Format() Format { return d.f }

// block separates a top-level block from the one before it.
func (d *Doc) block(dst []byte) []byte {
	d.prevList = false
	if len(dst) == d.start {
		return dst
	}
	switch d.f {
	case Blocks:
		return append(dst, "\n\n"...)
	case Markdown:
		return append(dst, '\n')
	}
	return dst
}

func (d *Doc) opened(dst []byte) []byte {
	d.textAt = len(dst)
	return dst
}

// OpenParagraph opens a paragraph, at the top level or in the open
// quote.
func (d *Doc) OpenParagraph(dst []byte) []byte {
	if d.inQuote {
		d.quoteParas++
		switch d.f {
		case Blocks:
			if d.quoteParas > 1 {
				dst = append(dst, "\n\n"...)
			}
		case Markdown:
			if d.quoteParas > 1 {
				dst = append(dst, ">\n"...)
			}
			dst = append(dst, "> "...)
		}
	} else {
		dst = d.block(dst)
	}
	switch d.f {
	case Blocks:
		dst = append(dst, "<!-- wp:paragraph -->\n<p>"...)
	case HTML:
		dst = append(dst, "<p>"...)
	}
	return d.opened(dst)
}

// CloseParagraph closes the paragraph opened last.
func (d *Doc) CloseParagraph(dst []byte) []byte {
	switch d.f {
	case Blocks:
		return append(dst, "</p>\n<!-- /wp:paragraph -->"...)
	case Markdown:
		return append(dst, '\n')
	}
	return append(dst, "</p>\n"...)
}

func clampLevel(level int) byte { return byte(min(max(level, 1), 6)) }

// OpenHeading opens a heading of level 1 to 6 (levels outside are
// clamped).
func (d *Doc) OpenHeading(dst []byte, level int) []byte {
	l := clampLevel(level)
	dst = d.block(dst)
	switch d.f {
	case Blocks:
		// Level 2 is the block's default attribute, which the editor
		// leaves out of the delimiter.
		if l == 2 {
			dst = append(dst, "<!-- wp:heading -->\n"...)
		} else {
			dst = append(dst, `<!-- wp:heading {"level":`...)
			dst = append(dst, '0'+l)
			dst = append(dst, "} -->\n"...)
		}
		dst = append(dst, "<h"...)
		dst = append(dst, '0'+l)
		dst = append(dst, ` class="wp-block-heading">`...)
	case Markdown:
		for range l {
			dst = append(dst, '#')
		}
		dst = append(dst, ' ')
	default:
		dst = append(dst, "<h"...)
		dst = append(dst, '0'+l, '>')
	}
	return d.opened(dst)
}

// CloseHeading closes the heading opened last, of the same level.
func (d *Doc) CloseHeading(dst []byte, level int) []byte {
	l := clampLevel(level)
	switch d.f {
	case Markdown:
		return append(dst, '\n')
	case Blocks:
		dst = append(dst, "</h"...)
		dst = append(dst, '0'+l)
		return append(dst, ">\n<!-- /wp:heading -->"...)
	}
	dst = append(dst, "</h"...)
	return append(dst, '0'+l, '>', '\n')
}

// OpenList opens a bulleted list.
func (d *Doc) OpenList(dst []byte) []byte {
	d.items = 0
	// In Markdown a list right after another of its kind takes the other
	// bullet, or the two would read as one list.
	if d.prevList && !d.prevOrdered && d.bullet == '-' {
		d.bullet = '*'
	} else {
		d.bullet = '-'
	}
	dst = d.block(dst)
	d.ordered = false
	switch d.f {
	case Blocks:
		return append(dst, "<!-- wp:list -->\n<ul class=\"wp-block-list\">"...)
	case HTML:
		return append(dst, "<ul>\n"...)
	}
	return dst
}

// OpenOrderedList opens a numbered list, numbered from 1.
func (d *Doc) OpenOrderedList(dst []byte) []byte {
	d.items = 0
	// In Markdown a numbered list right after another takes the other
	// delimiter, or the two would read as one list.
	if d.prevList && d.prevOrdered && d.delim == '.' {
		d.delim = ')'
	} else {
		d.delim = '.'
	}
	dst = d.block(dst)
	d.ordered = true
	switch d.f {
	case Blocks:
		return append(dst, "<!-- wp:list {\"ordered\":true} -->\n<ol class=\"wp-block-list\">"...)
	case HTML:
		return append(dst, "<ol>\n"...)
	}
	return dst
}

// CloseList closes the list opened last, bulleted or numbered.
func (d *Doc) CloseList(dst []byte) []byte {
	d.prevList, d.prevOrdered = true, d.ordered
	tag := "</ul>"
	if d.ordered {
		tag = "</ol>"
	}
	switch d.f {
	case Blocks:
		dst = append(dst, tag...)
		return append(dst, "\n<!-- /wp:list -->"...)
	case HTML:
		dst = append(dst, tag...)
		return append(dst, '\n')
	}
	return dst
}

// OpenItem opens an item of the open list.
func (d *Doc) OpenItem(dst []byte) []byte {
	d.items++
	switch d.f {
	case Blocks:
		if d.items > 1 {
			dst = append(dst, "\n\n"...)
		}
		dst = append(dst, "<!-- wp:list-item -->\n<li>"...)
	case Markdown:
		if d.ordered {
			dst = strconv.AppendInt(dst, int64(d.items), 10)
			dst = append(dst, d.delim, ' ')
		} else {
			dst = append(dst, d.bullet, ' ')
		}
	default:
		dst = append(dst, "<li>"...)
	}
	return d.opened(dst)
}

// CloseItem closes the list item opened last.
func (d *Doc) CloseItem(dst []byte) []byte {
	switch d.f {
	case Blocks:
		return append(dst, "</li>\n<!-- /wp:list-item -->"...)
	case Markdown:
		return append(dst, '\n')
	}
	return append(dst, "</li>\n"...)
}

// AppendText appends s as text of the element opened last, escaped for
// the format.
func (d *Doc) AppendText(dst []byte, s string) []byte {
	start := len(dst)
	dst = append(dst, s...)
	return d.Text(dst, start)
}

// Text escapes dst[from:], plain text written in place into the element
// opened last, for the format: in HTML &, < and > become character
// references; in block markup & and <, as the block editor escapes rich
// text when it saves a block; in Markdown every character that CommonMark
// could read as markup gets a backslash. Text must not hold line breaks. When
// nothing needs escaping, dst is returned untouched.
func (d *Doc) Text(dst []byte, from int) []byte {
	if d.f == Markdown {
		return escapeMarkdown(dst, from, from == d.textAt)
	}
	return escapeHTML(dst, from, d.f == HTML)
}

// htmlRef is the character reference of the bytes HTML text escapes; gt
// includes >.
func htmlRef(c byte, gt bool) string {
	switch c {
	case '&':
		return "&amp;"
	case '<':
		return "&lt;"
	case '>':
		if gt {
			return "&gt;"
		}
	}
	return ""
}

// htmlSpecial marks the bytes htmlRef may replace.
var htmlSpecial = [256]bool{'&': true, '<': true, '>': true}

func escapeHTML(dst []byte, from int, gt bool) []byte {
	// Most text has nothing to escape: three vectorised searches say so
	// faster than one loop over the bytes.
	if text := dst[from:]; bytes.IndexByte(text, '&') < 0 && bytes.IndexByte(text, '<') < 0 && (!gt || bytes.IndexByte(text, '>') < 0) {
		return dst
	}
	extra := 0
	for _, c := range dst[from:] {
		if !htmlSpecial[c] {
			continue
		}
		if r := htmlRef(c, gt); r != "" {
			extra += len(r) - 1
		}
	}
	if extra == 0 {
		return dst
	}
	n := len(dst)
	dst = slices.Grow(dst, extra)[:n+extra]
	j := n + extra
	for i := n - 1; i >= from; i-- {
		c := dst[i]
		if r := htmlRef(c, gt); r != "" {
			j -= len(r)
			copy(dst[j:], r)
			continue
		}
		j--
		dst[j] = c
	}
	return dst
}

// mdSpecial marks the ASCII punctuation that can start or end inline
// markup anywhere in CommonMark text (and the strikethrough and table
// markers of common extensions). "!" starts an image only before "[",
// which text always escapes; before a link OpenLink escapes it, so that an
// exclamation mark reads as one in the Markdown source too.
var mdSpecial = func() (t [256]bool) {
	for _, c := range []byte("\\`*_[]<>&#~|") {
		t[c] = true
	}
	return t
}()

// mdBlockStart returns the index in s of a byte that would make a line
// starting with s a list item, thematic break or setext underline rather
// than text, or -1.
func mdBlockStart(s []byte) int {
	if len(s) == 0 {
		return -1
	}
	switch s[0] {
	case '-', '+', '=':
		return 0
	}
	i := 0
	for i < len(s) && i < 10 && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
		return i
	}
	return -1
}

func escapeMarkdown(dst []byte, from int, atStart bool) []byte {
	lead := -1
	if atStart {
		lead = mdBlockStart(dst[from:])
		if lead >= 0 {
			lead += from
		}
	}
	extra := 0
	for i, c := range dst[from:] {
		if mdSpecial[c] || from+i == lead {
			extra++
		}
	}
	if extra == 0 {
		return dst
	}
	n := len(dst)
	dst = slices.Grow(dst, extra)[:n+extra]
	j := n + extra
	for i := n - 1; i >= from; i-- {
		c := dst[i]
		j--
		dst[j] = c
		if mdSpecial[c] || i == lead {
			j--
			dst[j] = '\\'
		}
	}
	return dst
}
