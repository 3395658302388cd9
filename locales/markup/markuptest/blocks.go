// Package markuptest checks documents in the formats of package markup:
// a parser of the block grammar with the editor's way of serialising
// blocks again, a checker that every block holds exactly the HTML its
// block type saves, and an outline of HTML documents for comparing the
// structure of two renderings.
//
// It is meant for tests, of this module and of hosts that store generated
// content.
package markuptest

import (
	"encoding/json"
	"fmt"
	"regexp"
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
// its attributes and text. It knows the blocks package markup writes:
// core/paragraph, core/heading, core/list and core/list-item.
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
	paragraphHTML = regexp.MustCompile(`^\n<p>([^<]*)</p>\n$`)
	headingHTML   = regexp.MustCompile(`^\n<h([1-6]) class="wp-block-heading">([^<]*)</h([1-6])>\n$`)
	itemHTML      = regexp.MustCompile(`^\n<li>([^<]*)</li>\n$`)
	entity        = regexp.MustCompile(`&(amp|lt|gt|quot|#[0-9]+|#x[0-9a-fA-F]+);`)
)

func checkText(s string) error {
	if strings.Contains(entity.ReplaceAllString(s, ""), "&") {
		return fmt.Errorf("text %q holds an unescaped &", s)
	}
	return nil
}

func checkBlock(b *Block, parent string) error {
	html := b.InnerHTML()
	switch b.Name {
	case "":
		if parent != "" || strings.Trim(html, "\n") != "" {
			return fmt.Errorf("freeform HTML %q outside any block", html)
		}
		if html != "\n\n" {
			return fmt.Errorf("blocks are separated by %q, not a blank line", html)
		}
		return nil
	case "core/paragraph":
		m := paragraphHTML.FindStringSubmatch(html)
		if m == nil || b.Attrs != "" || len(b.InnerBlocks) > 0 {
			return fmt.Errorf("paragraph %q %s is not what the paragraph block saves", b.Attrs, html)
		}
		return checkText(m[1])
	case "core/heading":
		m := headingHTML.FindStringSubmatch(html)
		if m == nil || m[1] != m[3] || len(b.InnerBlocks) > 0 {
			return fmt.Errorf("heading %q is not what the heading block saves", html)
		}
		want := ""
		if m[1] != "2" {
			want = `{"level":` + m[1] + `}`
		}
		if b.Attrs != want {
			return fmt.Errorf("heading <h%s> has attributes %q, want %q", m[1], b.Attrs, want)
		}
		return checkText(m[2])
	case "core/list":
		if b.Attrs != "" || len(b.InnerBlocks) == 0 {
			return fmt.Errorf("list %q has attributes or no items", b.Attrs)
		}
		first, last := b.InnerAt[0], b.InnerAt[len(b.InnerAt)-1]
		if got := strings.Join(b.InnerContent[:first], ""); got != "\n<ul class=\"wp-block-list\">" {
			return fmt.Errorf("list opens with %q", got)
		}
		if got := strings.Join(b.InnerContent[last+1:], ""); got != "</ul>\n" {
			return fmt.Errorf("list closes with %q", got)
		}
		for k := first; k <= last; k++ {
			if s := b.InnerContent[k]; s != "" && s != "\n\n" {
				return fmt.Errorf("list holds %q between its items", s)
			}
		}
		for i := range b.InnerBlocks {
			if err := checkBlock(&b.InnerBlocks[i], b.Name); err != nil {
				return fmt.Errorf("item %d: %w", i, err)
			}
		}
		return nil
	case "core/list-item":
		m := itemHTML.FindStringSubmatch(html)
		if parent != "core/list" || m == nil || b.Attrs != "" || len(b.InnerBlocks) > 0 {
			return fmt.Errorf("list item %q outside a list or not what the list item block saves", html)
		}
		return checkText(m[1])
	}
	return fmt.Errorf("unexpected block type %s", b.Name)
}
