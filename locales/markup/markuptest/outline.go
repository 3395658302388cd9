package markuptest

import (
	"strings"

	"golang.org/x/net/html"
)

// Outline parses an HTML fragment and returns its element structure in
// document order, one entry per element: the tag name, and after a colon
// the element's own text (its text children joined, surrounding white
// space trimmed, character references decoded) when it has any, such as
// "h2:A title", "ul", "li:An item". Text outside any element appears as
// "#text:…". Two renderings of one document have equal outlines.
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
				entry := c.Data
				if t := ownText(c); t != "" {
					entry += ":" + t
				}
				out = append(out, entry)
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

func ownText(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return strings.TrimSpace(b.String())
}
