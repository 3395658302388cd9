package markuptest

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
)

// voidElements are the HTML elements that have no end tag.
var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true,
}

// CheckBalanced checks an HTML fragment strictly, as the lenient HTML
// parser does not: every start tag of an element that is not void is
// closed by its end tag, in order; no end tag closes an element that is
// not open; void elements have no end tag; and no element other than a
// void one is written self-closing (<p/>). Comments, such as the
// delimiters of block markup, are skipped.
func CheckBalanced(fragment string) error {
	z := html.NewTokenizer(strings.NewReader(fragment))
	var stack []string
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if err := z.Err(); !errors.Is(err, io.EOF) {
				return err
			}
			if len(stack) > 0 {
				return fmt.Errorf("<%s> is never closed (open: %v)", stack[len(stack)-1], stack)
			}
			return nil
		case html.StartTagToken:
			name, _ := z.TagName()
			if !voidElements[string(name)] {
				stack = append(stack, string(name))
			}
		case html.SelfClosingTagToken:
			name, _ := z.TagName()
			if !voidElements[string(name)] {
				return fmt.Errorf("<%s/> is not a void element", name)
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			if voidElements[string(name)] {
				return fmt.Errorf("</%s> ends a void element", name)
			}
			if len(stack) == 0 || stack[len(stack)-1] != string(name) {
				return fmt.Errorf("</%s> closes no open <%s> (open: %v)", name, name, stack)
			}
			stack = stack[:len(stack)-1]
		}
	}
}
