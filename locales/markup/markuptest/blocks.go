// Package markuptest checks documents in the formats of package markup:
// a parser of the block grammar with the editor's way of serialising
// blocks again, a checker that every block holds exactly the HTML its
// block type saves, a strict check that HTML tags are balanced, and an
// outline of HTML documents for comparing the structure of two
// renderings.
//
// It is meant for tests, of this module and of hosts that store generated
// content.
package markuptest

import (
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
)

// Block is one block of block markup, as the block grammar parses it.
type Block struct {
	// Name is the block type with its namespace ("core/paragraph"), or ""
	// for freeform HTML outside any block.
	Name string
	// Attrs is the JSON object of the opening delimiter, "" when absent.
	Attrs string
	// InnerBlocks are the blocks nested in this one.
	InnerBlocks []Block
	// InnerContent is the block's HTML in pieces, with an empty string
	// marking where each inner block sits (see InnerAt).
	InnerContent []string
	// InnerAt lists, for each inner block in order, its index in
	// InnerContent.
	InnerAt []int
	// SelfClosing is true for a block written as <!-- wp:name /-->.
	SelfClosing bool
}

// InnerHTML returns the block's own HTML without its inner blocks.
func (b *Block) InnerHTML() string { return strings.Join(b.InnerContent, "") }

// delimiter matches one block comment delimiter of the block grammar:
// <!-- wp:name -->, <!-- wp:ns/name {"json":1} -->, <!-- /wp:name -->
// and the self-closing <!-- wp:name /-->.
var delimiter = regexp.MustCompile(`<!--\s+(/)?wp:([a-z][a-z0-9_-]*/)?([a-z][a-z0-9_-]*)\s+(\{.*?\}\s+)?(/)?-->`)

// ParseBlocks parses block markup into its top-level blocks, as the block
// editor's default parser does: text outside any delimiter becomes
// freeform blocks (Name ""). Unbalanced delimiters and attributes that
// are not a JSON object give an error.
func ParseBlocks(doc string) ([]Block, error) {
	type open struct {
		b     Block
		after int // where the opening delimiter ends
		last  int // where the last inner piece ends
	}
	var (
		top   []Block
		stack []open
		pos   int
	)
	freeform := func(s string) {
		if s != "" {
			top = append(top, Block{InnerContent: []string{s}})
		}
	}
	for _, m := range delimiter.FindAllStringSubmatchIndex(doc, -1) {
		closing := m[2] >= 0
		ns := "core/"
		if m[4] >= 0 {
			ns = doc[m[4]:m[5]]
		}
		name := ns + doc[m[6]:m[7]]
		attrs := ""
		if m[8] >= 0 {
			attrs = strings.TrimSpace(doc[m[8]:m[9]])
			var obj map[string]any
			if err := json.Unmarshal([]byte(attrs), &obj); err != nil {
				return nil, fmt.Errorf("block %s at byte %d: attributes are not a JSON object: %v", name, m[0], err)
			}
		}
		selfClosing := m[10] >= 0
		if closing && (attrs != "" || selfClosing) {
			return nil, fmt.Errorf("closing delimiter of %s at byte %d has attributes or a slash", name, m[0])
		}
		text := doc[pos:m[0]]
		if len(stack) == 0 {
			freeform(text)
		} else {
			o := &stack[len(stack)-1]
			o.b.InnerContent = append(o.b.InnerContent, text)
		}
		pos = m[1]
		switch {
		case selfClosing:
			b := Block{Name: name, Attrs: attrs, SelfClosing: true}
			if len(stack) == 0 {
				top = append(top, b)
			} else {
				addInner(&stack[len(stack)-1].b, b)
			}
		case !closing:
			stack = append(stack, open{b: Block{Name: name, Attrs: attrs}, after: m[1]})
		default:
			if len(stack) == 0 {
				return nil, fmt.Errorf("closing delimiter of %s at byte %d closes no block", name, m[0])
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if o.b.Name != name {
				return nil, fmt.Errorf("closing delimiter of %s at byte %d closes %s", name, m[0], o.b.Name)
			}
			b := compact(o.b)
			if len(stack) == 0 {
				top = append(top, b)
			} else {
				addInner(&stack[len(stack)-1].b, b)
			}
		}
	}
	if len(stack) > 0 {
		return nil, fmt.Errorf("block %s is never closed", stack[len(stack)-1].b.Name)
	}
	freeform(doc[pos:])
	return top, nil
}

func addInner(parent *Block, b Block) {
	parent.InnerAt = append(parent.InnerAt, len(parent.InnerContent))
	parent.InnerContent = append(parent.InnerContent, "")
	parent.InnerBlocks = append(parent.InnerBlocks, b)
}

// compact drops the empty text pieces between delimiters, keeping the
// markers of inner blocks.
func compact(b Block) Block {
	var content []string
	var at []int
	k := 0
	for i, s := range b.InnerContent {
		if k < len(b.InnerAt) && b.InnerAt[k] == i {
			at = append(at, len(content))
			content = append(content, "")
			k++
			continue
		}
		if s != "" {
			content = append(content, s)
		}
	}
	b.InnerContent, b.InnerAt = content, at
	return b
}

// Serialize writes blocks as the block editor saves them: blocks joined by
// a blank line, whitespace-only freeform blocks left out, and inner blocks
// placed between the HTML before the first and after the last of them,
// joined by a blank line as well. Parsing what the editor saved and
// serialising it again gives the same bytes.
func Serialize(blocks []Block) string {
	var b strings.Builder
	serializeList(&b, blocks)
	return b.String()
}

func serializeList(b *strings.Builder, blocks []Block) {
	n := 0
	for i := range blocks {
		bl := &blocks[i]
		if bl.Name == "" && strings.TrimSpace(bl.InnerHTML()) == "" {
			continue
		}
		if n > 0 {
			b.WriteString("\n\n")
		}
		n++
		serializeBlock(b, bl)
	}
}

func serializeBlock(b *strings.Builder, bl *Block) {
	if bl.Name == "" {
		b.WriteString(bl.InnerHTML())
		return
	}
	name := strings.TrimPrefix(bl.Name, "core/")
	b.WriteString("<!-- wp:")
	b.WriteString(name)
	b.WriteByte(' ')
	if bl.Attrs != "" {
		b.WriteString(bl.Attrs)
		b.WriteByte(' ')
	}
	if bl.SelfClosing {
		b.WriteString("/-->")
		return
	}
	b.WriteString("-->")
	if len(bl.InnerBlocks) == 0 {
		b.WriteString(bl.InnerHTML())
	} else {
		first, last := bl.InnerAt[0], bl.InnerAt[len(bl.InnerAt)-1]
		b.WriteString(strings.Join(bl.InnerContent[:first], ""))
		serializeList(b, bl.InnerBlocks)
		b.WriteString(strings.Join(bl.InnerContent[last+1:], ""))
	}
	b.WriteString("<!-- /wp:")
	b.WriteString(name)
	b.WriteString(" -->")
}

// CheckBlocks checks a document of block markup as the block editor would
// open it: it must parse, hold no freeform HTML outside blocks (only the
// blank lines between them), serialise again to the same bytes, and every
// block must hold exactly the HTML its type's save function produces for
// its attributes and content. It knows the blocks package markup writes,
// as current WordPress (6.6 and later) saves them: core/paragraph,
// core/heading, core/list and core/list-item, core/quote, core/image,
// core/table and core/code. Rich text (paragraphs, headings, list items,
// citations and captions) may hold <em>, <strong> and <a href> and must be
// escaped as the editor escapes it; table cells hold plain text.
func CheckBlocks(doc string) error {
	blocks, err := ParseBlocks(doc)
	if err != nil {
		return err
	}
	for i := range blocks {
		if err := checkBlock(&blocks[i], ""); err != nil {
			return fmt.Errorf("top-level block %d: %w", i, err)
		}
	}
	if again := Serialize(blocks); again != doc {
		return fmt.Errorf("serialising the parsed blocks gives other bytes:\n%q\nwant\n%q", again, doc)
	}
	return nil
}

var (
	paragraphHTML = regexp.MustCompile(`^\n<p>(.*)</p>\n$`)
	headingHTML   = regexp.MustCompile(`^\n<h([1-6]) class="wp-block-heading">(.*)</h([1-6])>\n$`)
	itemHTML      = regexp.MustCompile(`^\n<li>(.*)</li>\n$`)
	citeHTML      = regexp.MustCompile(`^(?:<cite>(.*)</cite>)?</blockquote>\n$`)
	imageHTML     = regexp.MustCompile(`^\n<figure class="wp-block-image size-([a-z-]+)"><img src="([^"]*)" alt="([^"]*)"(?: class="wp-image-([0-9]+)")?/>(?:<figcaption class="wp-element-caption">(.*)</figcaption>)?</figure>\n$`)
	tableHTML     = regexp.MustCompile(`^\n<figure class="wp-block-table"><table class="has-fixed-layout">(?:<thead><tr>((?:<th>[^<]*</th>)+)</tr></thead>)?<tbody>((?:<tr>(?:<td>[^<]*</td>)+</tr>)+)</tbody></table></figure>\n$`)
	rowHTML       = regexp.MustCompile(`<tr>((?:<td>[^<]*</td>)+)</tr>`)
	cellHTML      = regexp.MustCompile(`<t[hd]>([^<]*)</t[hd]>`)
	codeHTML      = regexp.MustCompile(`^\n<pre class="wp-block-code"><code>((?s).*)</code></pre>\n$`)
	isolatedURL   = regexp.MustCompile(`(?m)^(\s*https?:)//([^\s<>"]+\s*)$`)
	inlineTag     = regexp.MustCompile(`^<(/?)(em|strong|a)((?: href="[^"]*")?)>`)
)

// canonicalText is rich text as the editor saves it: character references
// decoded, then & and < escaped again.
func canonicalText(s string) string {
	s = html.UnescapeString(s)
	return strings.NewReplacer("&", "&amp;", "<", "&lt;").Replace(s)
}

// canonicalAttr is an attribute value as the editor saves it: & " and >
// escaped.
func canonicalAttr(s string) string {
	s = html.UnescapeString(s)
	return strings.NewReplacer("&", "&amp;", `"`, "&quot;", ">", "&gt;").Replace(s)
}

func checkText(s string) error {
	if c := canonicalText(s); c != s {
		return fmt.Errorf("text %q is not escaped as the editor saves it (%q)", s, c)
	}
	return nil
}

// checkInline checks rich text: text escaped as the editor saves it, with
// balanced <em>, <strong> and <a href="…"> (not nested in another link)
// and no other markup.
func checkInline(s string) error {
	var stack []string
	for s != "" {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			i = len(s)
		}
		if err := checkText(s[:i]); err != nil {
			return err
		}
		s = s[i:]
		if s == "" {
			break
		}
		m := inlineTag.FindStringSubmatch(s)
		if m == nil {
			return fmt.Errorf("rich text holds markup other than em, strong and a href: %q", s)
		}
		s = s[len(m[0]):]
		closing, tag, attr := m[1] == "/", m[2], m[3]
		switch {
		case closing:
			if attr != "" || len(stack) == 0 || stack[len(stack)-1] != tag {
				return fmt.Errorf("</%s> closes no open <%s>", tag, tag)
			}
			stack = stack[:len(stack)-1]
		case tag == "a":
			if attr == "" {
				return fmt.Errorf("a link without href")
			}
			for _, t := range stack {
				if t == "a" {
					return fmt.Errorf("a link inside a link")
				}
			}
			v := strings.TrimSuffix(strings.TrimPrefix(attr, ` href="`), `"`)
			if c := canonicalAttr(v); c != v {
				return fmt.Errorf("href %q is not escaped as the editor saves it (%q)", v, c)
			}
			stack = append(stack, tag)
		default:
			if attr != "" {
				return fmt.Errorf("<%s> with attributes", tag)
			}
			stack = append(stack, tag)
		}
	}
	if len(stack) > 0 {
		return fmt.Errorf("<%s> is never closed", stack[len(stack)-1])
	}
	return nil
}

// canonicalCode is the content of a code block as the code block saves
// it: & and < escaped, [ as &#91;, and the slashes of the first address
// alone on a line as &#47;&#47;.
func canonicalCode(s string) string {
	s = html.UnescapeString(s)
	s = strings.NewReplacer("&", "&amp;", "<", "&lt;", "[", "&#91;").Replace(s)
	if m := isolatedURL.FindStringSubmatchIndex(s); m != nil {
		s = s[:m[3]] + "&#47;&#47;" + s[m[3]+2:]
	}
	return s
}

// imageAttrs are the attributes of core/image that package markup sets.
type imageAttrs struct {
	ID              *int64 `json:"id,omitempty"`
	SizeSlug        string `json:"sizeSlug,omitempty"`
	LinkDestination string `json:"linkDestination,omitempty"`
}

func checkBlock(b *Block, parent string) error {
	inner := b.InnerHTML()
	switch b.Name {
	case "":
		if parent != "" || strings.Trim(inner, "\n") != "" {
			return fmt.Errorf("freeform HTML %q outside any block", inner)
		}
		if inner != "\n\n" {
			return fmt.Errorf("blocks are separated by %q, not a blank line", inner)
		}
		return nil
	case "core/paragraph":
		m := paragraphHTML.FindStringSubmatch(inner)
		if m == nil || b.Attrs != "" || len(b.InnerBlocks) > 0 {
			return fmt.Errorf("paragraph %q %s is not what the paragraph block saves", b.Attrs, inner)
		}
		return checkInline(m[1])
	case "core/heading":
		m := headingHTML.FindStringSubmatch(inner)
		if m == nil || m[1] != m[3] || len(b.InnerBlocks) > 0 {
			return fmt.Errorf("heading %q is not what the heading block saves", inner)
		}
		want := ""
		if m[1] != "2" {
			want = `{"level":` + m[1] + `}`
		}
		if b.Attrs != want {
			return fmt.Errorf("heading <h%s> has attributes %q, want %q", m[1], b.Attrs, want)
		}
		return checkInline(m[2])
	case "core/list":
		tag := "ul"
		switch b.Attrs {
		case "":
		case `{"ordered":true}`:
			tag = "ol"
		default:
			return fmt.Errorf("list has attributes %q", b.Attrs)
		}
		if len(b.InnerBlocks) == 0 {
			return fmt.Errorf("list has no items")
		}
		if err := checkContainer(b, "\n<"+tag+" class=\"wp-block-list\">", "core/list-item"); err != nil {
			return fmt.Errorf("list: %w", err)
		}
		if got := strings.Join(b.InnerContent[b.InnerAt[len(b.InnerAt)-1]+1:], ""); got != "</"+tag+">\n" {
			return fmt.Errorf("list closes with %q", got)
		}
		return nil
	case "core/list-item":
		m := itemHTML.FindStringSubmatch(inner)
		if parent != "core/list" || m == nil || b.Attrs != "" || len(b.InnerBlocks) > 0 {
			return fmt.Errorf("list item %q outside a list or not what the list item block saves", inner)
		}
		return checkInline(m[1])
	case "core/quote":
		if b.Attrs != "" || len(b.InnerBlocks) == 0 {
			return fmt.Errorf("quote %q has attributes or no paragraphs", b.Attrs)
		}
		if err := checkContainer(b, "\n<blockquote class=\"wp-block-quote\">", "core/paragraph"); err != nil {
			return fmt.Errorf("quote: %w", err)
		}
		tail := strings.Join(b.InnerContent[b.InnerAt[len(b.InnerAt)-1]+1:], "")
		m := citeHTML.FindStringSubmatch(tail)
		if m == nil {
			return fmt.Errorf("quote closes with %q", tail)
		}
		if strings.Contains(tail, "<cite>") && strings.TrimSpace(m[1]) == "" {
			return fmt.Errorf("quote has an empty citation")
		}
		return checkInline(m[1])
	case "core/image":
		return checkImage(b, inner)
	case "core/table":
		return checkTable(b, inner)
	case "core/code":
		m := codeHTML.FindStringSubmatch(inner)
		if m == nil || b.Attrs != "" || len(b.InnerBlocks) > 0 {
			return fmt.Errorf("code %q %q is not what the code block saves", b.Attrs, inner)
		}
		if c := canonicalCode(m[1]); c != m[1] {
			return fmt.Errorf("code %q is not escaped as the code block saves it (%q)", m[1], c)
		}
		return nil
	}
	return fmt.Errorf("unexpected block type %s", b.Name)
}

// checkContainer checks a block whose HTML wraps inner blocks of type
// child: open before the first, nothing or a blank line between them.
func checkContainer(b *Block, open, child string) error {
	first, last := b.InnerAt[0], b.InnerAt[len(b.InnerAt)-1]
	if got := strings.Join(b.InnerContent[:first], ""); got != open {
		return fmt.Errorf("opens with %q, want %q", got, open)
	}
	for k := first; k <= last; k++ {
		if s := b.InnerContent[k]; s != "" && s != "\n\n" {
			return fmt.Errorf("holds %q between its inner blocks", s)
		}
	}
	for i := range b.InnerBlocks {
		ib := &b.InnerBlocks[i]
		if ib.Name != child {
			return fmt.Errorf("inner block %d is %s, want %s", i, ib.Name, child)
		}
		if err := checkBlock(ib, b.Name); err != nil {
			return fmt.Errorf("inner block %d: %w", i, err)
		}
	}
	return nil
}

// checkImage checks an image block: its attributes are a JSON object in
// the serialiser's key order, and its HTML is what the image block saves
// for them and for the address, text alternative and caption its HTML
// holds.
func checkImage(b *Block, inner string) error {
	var a imageAttrs
	if b.Attrs == "" || json.Unmarshal([]byte(b.Attrs), &a) != nil {
		return fmt.Errorf("image has attributes %q", b.Attrs)
	}
	if again, _ := json.Marshal(a); string(again) != b.Attrs {
		return fmt.Errorf("image attributes %q are not the editor's %q", b.Attrs, again)
	}
	m := imageHTML.FindStringSubmatch(inner)
	if m == nil || len(b.InnerBlocks) > 0 {
		return fmt.Errorf("image %q is not what the image block saves", inner)
	}
	src, alt, caption := m[2], m[3], m[5]
	slug := a.SizeSlug
	if slug == "" {
		return fmt.Errorf("image has no sizeSlug attribute")
	}
	var want strings.Builder
	want.WriteString("\n<figure class=\"wp-block-image size-" + slug + "\"><img src=\"" + canonicalAttr(src) + "\" alt=\"" + canonicalAttr(alt) + "\"")
	if a.ID != nil {
		want.WriteString(" class=\"wp-image-" + strconv.FormatInt(*a.ID, 10) + "\"")
	}
	want.WriteString("/>")
	if caption != "" {
		if err := checkInline(caption); err != nil {
			return fmt.Errorf("image caption: %w", err)
		}
		want.WriteString("<figcaption class=\"wp-element-caption\">" + caption + "</figcaption>")
	}
	want.WriteString("</figure>\n")
	if want.String() != inner {
		return fmt.Errorf("image %q is not what the image block saves for %s: %q", inner, b.Attrs, want.String())
	}
	return nil
}

// checkTable checks a table block: a header row and body rows of as many
// cells, with plain text.
func checkTable(b *Block, inner string) error {
	m := tableHTML.FindStringSubmatch(inner)
	if m == nil || b.Attrs != "" || len(b.InnerBlocks) > 0 {
		return fmt.Errorf("table %q %q is not what the table block saves", b.Attrs, inner)
	}
	cols := -1
	if m[1] != "" {
		cols = len(cellHTML.FindAllString(m[1], -1))
	}
	for _, row := range rowHTML.FindAllStringSubmatch(m[2], -1) {
		n := len(cellHTML.FindAllString(row[1], -1))
		if cols >= 0 && n != cols {
			return fmt.Errorf("table row %q has %d cells, the header %d", row[0], n, cols)
		}
		cols = n
	}
	for _, c := range cellHTML.FindAllStringSubmatch(inner, -1) {
		if err := checkText(c[1]); err != nil {
			return fmt.Errorf("table cell: %w", err)
		}
	}
	return nil
}
