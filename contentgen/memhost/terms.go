package memhost

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/contentgen/contentgen/contentgen"
)

// CreateTerms stores terms (ID and Count ignored) and returns their ids in
// input order. The taxonomy must be registered and Name non-empty; a
// ParentID must name an existing term of the same taxonomy (parents are
// created in an earlier call) and is dropped for a flat taxonomy. An empty
// Slug is made from the name, made unique within the taxonomy with a
// numeric suffix; a given Slug already used in the taxonomy fails the
// batch with an error wrapping contentgen.ErrHostConflict. Other failures wrap
// ErrInvalid; nothing is stored when one term fails.
func (h *Host) CreateTerms(ctx context.Context, terms []contentgen.Term) ([]int64, error) {
	var ids []int64
	err := h.write(ctx, func(st *state) error {
		rows := make([]*contentgen.Term, len(terms))
		taken := map[string]bool{} // slug keys used earlier in the batch
		for i := range terms {
			t, err := newTerm(st, &terms[i], taken)
			if err != nil {
				return err
			}
			taken[slugKey(t.Taxonomy, t.Slug)] = true
			rows[i] = t
		}
		ids = make([]int64, len(rows))
		for i, t := range rows {
			st.seq.term++
			t.ID = st.seq.term
			ids[i] = t.ID
			st.terms.insert(t.ID, t)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// newTerm validates in and returns the row to store.
func newTerm(st *state, in *contentgen.Term, taken map[string]bool) (*contentgen.Term, error) {
	tax := st.taxonomy(in.Taxonomy)
	if tax == nil {
		return nil, invalidf("unknown taxonomy %q", in.Taxonomy)
	}
	if strings.TrimSpace(in.Name) == "" {
		return nil, invalidf("term name must not be empty")
	}
	t := *in
	t.ID, t.Count = 0, 0
	if !tax.Hierarchical {
		t.ParentID = 0
	}
	if t.ParentID != 0 {
		parent := st.terms.get(t.ParentID)
		if parent == nil || parent.Taxonomy != t.Taxonomy {
			return nil, missingf("parent term %d does not exist in taxonomy %q", t.ParentID, t.Taxonomy)
		}
	}
	used := func(slug string) bool {
		key := slugKey(t.Taxonomy, slug)
		_, stored := st.termSlugs[key]
		return stored || taken[key]
	}
	if t.Slug != "" {
		if used(t.Slug) {
			return nil, fmt.Errorf("%w: slug %q is already used in taxonomy %q", contentgen.ErrHostConflict, t.Slug, t.Taxonomy)
		}
	} else {
		base := slugify(t.Name)
		t.Slug = base
		for n := 2; used(t.Slug); n++ {
			t.Slug = base + "-" + strconv.Itoa(n)
		}
	}
	t.Meta = storedMeta(in.Meta)
	return &t, nil
}

// slugify turns a name into a slug: lower-case letters and digits, other
// runs of characters replaced by one '-'.
func slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
	}
	if b.Len() == 0 {
		return "term"
	}
	return b.String()
}

// Terms returns copies of the terms matching q, ordered by id, with Count
// the number of posts using the term, trashed posts excepted. Search
// matches the name ignoring case; MetaKey without MetaValue keeps terms
// that have the key.
func (h *Host) Terms(ctx context.Context, q contentgen.TermQuery) ([]contentgen.Term, error) {
	var out []contentgen.Term
	search := strings.ToLower(q.Search)
	err := h.read(ctx, func(st *state) error {
		out = find(st.terms, q.IDs, func(t *contentgen.Term) bool {
			return (len(q.Taxonomies) == 0 || slices.Contains(q.Taxonomies, t.Taxonomy)) &&
				(!q.HasParent || t.ParentID == q.Parent) &&
				metaMatch(t.Meta, q.MetaKey, q.MetaValue) &&
				contains(t.Name, search)
		}, q.Limit, q.Offset, func(t *contentgen.Term) contentgen.Term {
			c := *cloneTerm(t)
			c.Count = st.termLive[t.ID]
			return c
		})
		return nil
	})
	return out, err
}

// DeleteTerms removes terms and their links to posts; children of a
// removed term move to its parent (the nearest one not removed). Unknown
// ids are ignored.
func (h *Host) DeleteTerms(ctx context.Context, ids []int64) error {
	return h.write(ctx, func(st *state) error {
		gone := map[int64]int64{} // removed term → its parent
		for _, id := range ids {
			if t := st.terms.get(id); t != nil {
				gone[id] = t.ParentID
			}
		}
		if len(gone) == 0 {
			return nil
		}
		up := func(parent int64) int64 {
			for {
				next, removed := gone[parent]
				if !removed {
					return parent
				}
				parent = next
			}
		}
		for _, id := range st.posts.order {
			p := st.posts.get(id)
			if p == nil || !linksAny(p.Terms, gone) {
				continue
			}
			st.posts.update(id, func(p *contentgen.Post) {
				for tax, tids := range p.Terms {
					kept := tids[:0:0]
					for _, tid := range tids {
						if _, removed := gone[tid]; !removed {
							kept = append(kept, tid)
						}
					}
					if len(kept) == 0 {
						delete(p.Terms, tax)
					} else {
						p.Terms[tax] = kept
					}
				}
			})
		}
		for id := range gone {
			st.terms.remove(id)
		}
		for _, id := range st.terms.order {
			if t := st.terms.get(id); t != nil && t.ParentID != 0 {
				if _, removed := gone[t.ParentID]; removed {
					st.terms.update(id, func(t *contentgen.Term) { t.ParentID = up(t.ParentID) })
				}
			}
		}
		return nil
	})
}

// linksAny reports whether terms links one of the ids in set.
func linksAny(terms map[string][]int64, set map[int64]int64) bool {
	for _, ids := range terms {
		for _, id := range ids {
			if _, ok := set[id]; ok {
				return true
			}
		}
	}
	return false
}
