package contentgen

import "context"

// FallbackLister is the paging the Generator does for hosts without a
// Lister, offered as one, so that the conformance suite checks it.
func FallbackLister(g *Generator) Lister { return fallbackLister{g} }

type fallbackLister struct{ g *Generator }

func (l fallbackLister) List(ctx context.Context, kind ObjectKind, q Listing) ([]int64, int, error) {
	q.Limit, q.Offset = max(q.Limit, 0), max(q.Offset, 0)
	return l.g.listInMemory(ctx, kind, q)
}

// TaxonomiesAssigned is the taxonomies_assigned meta value of posts with
// these terms, from one run's values.
func TaxonomiesAssigned() func(terms map[string][]int64) any {
	return (&postMeta{}).taxonomiesOf
}
