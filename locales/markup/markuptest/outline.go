package markuptest

import (
	"strings"

	"golang.org/x/net/html"
)

// Outline parses an HTML fragment and returns its element structure in
// document order, one entry per element: the tag name, the address of a
// link ("a[https://example.com/]") or the address and text alternative of
// an image ("img[/a.jpg|A lake]"), and after a colon the element's own
// text (its text children joined, surrounding white space trimmed,
// character references decoded) when it has any, such as "h2:A title",
// "ul", "li:An item". Text outside any element appears as "#text:…".
// Other attributes, classes among them, are left out.
//
// The outline reads the Markdown renderings of elements CommonMark lacks
// as the HTML elements package markup writes, so that two renderings of
// one document have equal outlines:
//   - a paragraph holding only an image, and optionally an emphasis
//     after it, reads as a figure with the image and the emphasis as its
//     figcaption;
//   - the last paragraph of a blockquote, when its text starts with an em
//     dash and a space, reads as a cite of the rest;
//   - a figure holding only a table (the table block's wrapper) is left
//     out, its table kept.
func Outline(fragment string) ([]string, error) {
	doc, err := html.Parse(strings.NewReader(fragment))
	if err != nil {
		return nil, err
	}
	var out []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.ElementNode:
				if c.Data == "html" || c.Data == "head" || c.Data == "body" {
					walk(c)
					continue
				}
				if c.Data == "figure" && onlyChild(c, "table") {
					walk(c)
					continue
				}
				if img, caption, ok := imageParagraph(c); ok {
					out = append(out, "figure", entry(img))
					if caption != nil {
						out = append(out, withText("figcaption", caption))
					}
					continue
				}
				if t := ownText(c); c.Data == "p" && c.Parent.Data == "blockquote" && lastElement(c) &&
					firstElement(c) == nil && strings.HasPrefix(t, "\u2014 ") {
					out = append(out, "cite:"+strings.TrimSpace(strings.TrimPrefix(t, "\u2014 ")))
					continue
				}
				out = append(out, entry(c))
				walk(c)
			case html.TextNode:
				if n.Data == "body" {
					if t := strings.TrimSpace(c.Data); t != "" {
						out = append(out, "#text:"+t)
					}
				}
			}
		}
	}
	walk(doc)
	return out, nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// entry is the outline entry of element n.
func entry(n *html.Node) string {
	name := n.Data
	switch name {
	case "a":
		name += "[" + attr(n, "href") + "]"
	case "img":
		name += "[" + attr(n, "src") + "|" + attr(n, "alt") + "]"
	}
	return withText(name, n)
}

func withText(name string, n *html.Node) string {
	if t := ownText(n); t != "" {
		return name + ":" + t
	}
	return name
}

func firstElement(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}

func lastElement(n *html.Node) bool {
	for c := n.NextSibling; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return false
		}
	}
	return true
}

// onlyChild reports whether n's only element child is a tag element and
// n holds no text.
func onlyChild(n *html.Node, tag string) bool {
	k := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch c.Type {
		case html.ElementNode:
			if c.Data != tag {
				return false
			}
			k++
		case html.TextNode:
			if strings.TrimSpace(c.Data) != "" {
				return false
			}
		}
	}
	return k == 1
}

// imageParagraph reports whether n is a paragraph of an image and
// optionally an emphasis, and returns them.
func imageParagraph(n *html.Node) (img, caption *html.Node, ok bool) {
	if n.Data != "p" {
		return nil, nil, false
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) == "":
		case c.Type == html.ElementNode && c.Data == "img" && img == nil:
			img = c
		case c.Type == html.ElementNode && c.Data == "em" && img != nil && caption == nil && firstElement(c) == nil:
			caption = c
		default:
			return nil, nil, false
		}
	}
	return img, caption, img != nil
}

func ownText(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return strings.TrimSpace(b.String())
}
