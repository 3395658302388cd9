package contentgen

import (
	"context"
)

// ContentTypes lists the post types content can be generated into: public,
// not internal, and neither pages nor attachments.
func (g *Generator) ContentTypes(ctx context.Context) ([]PostType, error) {
	types, err := g.host.PostTypes(ctx)
	if err != nil {
		return nil, failed(err, "listing post types")
	}
	out := types[:0:0]
	for _, pt := range types {
		if pt.Internal || !pt.Public || pt.Name == "page" || pt.Name == "attachment" {
			continue
		}
		out = append(out, pt)
	}
	return out, nil
}
