package hosttest

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

func termTests() []test {
	return []test{
		{"CreateReturnsIDsInInputOrder", func(t *testing.T, f *fixture) {
			f.needHier(t)
			in := []contentgen.Term{f.term(f.hier, "Term one", 0), f.term(f.hier, "Term two", 0), f.term(f.hier, "Term three", 0)}
			in[0].Description = "First term"
			snapshot := slices.Clone(in)
			ids, err := f.h.CreateTerms(f.ctx, in)
			require.NoError(t, err)
			require.Len(t, ids, 3)
			require.Equal(t, snapshot, in, "CreateTerms must not modify its input")
			requireDistinctPositive(t, ids)
			for i, id := range ids {
				got := f.getTerm(t, id)
				require.Equal(t, in[i].Name, got.Name, "id %d is the id of input %d", id, i)
				require.Equal(t, f.hier.Name, got.Taxonomy)
				require.Equal(t, in[i].Description, got.Description)
				require.NotEmpty(t, got.Slug, "the host fills an empty slug")
				requireSubset(t, in[i].Meta, got.Meta)
			}
		}},
		{"BareQueryKeepsIdentity", func(t *testing.T, f *fixture) {
			// A bare query may leave out meta and counts, never what
			// identifies a term or places it in its tree.
			f.needHier(t)
			parent := f.createTerm(t, f.hier, "Bare parent", 0)
			f.createTerm(t, f.hier, "Bare child", parent)
			full := f.terms(t, contentgen.TermQuery{Taxonomies: []string{f.hier.Name}})
			bare := f.terms(t, contentgen.TermQuery{Taxonomies: []string{f.hier.Name}, Bare: true})
			require.Len(t, bare, len(full))
			for i := range full {
				require.Equal(t, full[i].ID, bare[i].ID, "the same terms in the same order")
				require.Equal(t, full[i].Taxonomy, bare[i].Taxonomy)
				require.Equal(t, full[i].Name, bare[i].Name)
				require.Equal(t, full[i].Slug, bare[i].Slug)
				require.Equal(t, full[i].Description, bare[i].Description)
				require.Equal(t, full[i].ParentID, bare[i].ParentID)
			}
		}},
		{"GivenSlugIsKept", func(t *testing.T, f *fixture) {
			f.needHier(t)
			in := f.term(f.hier, "Slugged", 0)
			in.Slug = "hosttest-slugged"
			ids, err := f.h.CreateTerms(f.ctx, []contentgen.Term{in})
			require.NoError(t, err)
			require.Equal(t, in.Slug, f.getTerm(t, ids[0]).Slug)
		}},
		{"Hierarchy", func(t *testing.T, f *fixture) {
			f.needHier(t)
			parent := f.createTerm(t, f.hier, "Parent", 0)
			child := f.createTerm(t, f.hier, "Child", parent)
			require.Equal(t, parent, f.getTerm(t, child).ParentID)
			require.Equal(t, int64(0), f.getTerm(t, parent).ParentID)

			gone := f.removedID(t, contentgen.KindTerm)
			_, err := f.h.CreateTerms(f.ctx, []contentgen.Term{f.term(f.hier, "Orphan", gone)})
			require.Error(t, err, "a parent that does not exist must fail")
		}},
		{"ParentMustBeInSameTaxonomy", func(t *testing.T, f *fixture) {
			f.needHier(t)
			f.needFlat(t)
			other := f.createTerm(t, f.flat, "Flat parent", 0)
			_, err := f.h.CreateTerms(f.ctx, []contentgen.Term{f.term(f.hier, "Misplaced", other)})
			require.Error(t, err, "a parent of another taxonomy must fail")
		}},
		{"BatchIsAllOrNothing", func(t *testing.T, f *fixture) {
			f.needHier(t)
			gone := f.removedID(t, contentgen.KindTerm)
			_, err := f.h.CreateTerms(f.ctx, []contentgen.Term{
				f.term(f.hier, "Good", 0), f.term(f.hier, "Bad", gone),
			})
			require.Error(t, err)
			require.Empty(t, f.terms(t, contentgen.TermQuery{}), "no term of a failed batch may be stored")
			ids, err := f.h.CreateTerms(f.ctx, nil)
			require.NoError(t, err)
			require.Empty(t, ids)
		}},
		{"QueryFilters", func(t *testing.T, f *fixture) {
			f.needHier(t)
			f.needFlat(t)
			root := f.createTerm(t, f.hier, "Fruit", 0)
			kids, err := f.h.CreateTerms(f.ctx, []contentgen.Term{
				f.term(f.hier, "Red Apple", root), f.term(f.hier, "Banana", root),
			})
			require.NoError(t, err)
			tagT := f.term(f.flat, "apple pie", 0)
			tagT.Meta["color"] = "gold"
			tags, err := f.h.CreateTerms(f.ctx, []contentgen.Term{tagT})
			require.NoError(t, err)
			all := []int64{root, kids[0], kids[1], tags[0]}
			inOrder := sorted(all)
			cases := []struct {
				name string
				q    contentgen.TermQuery
				want []int64
			}{
				{"no filter", contentgen.TermQuery{}, all},
				{"taxonomy", contentgen.TermQuery{Taxonomies: []string{f.hier.Name}}, all[:3]},
				{"two taxonomies", contentgen.TermQuery{Taxonomies: []string{f.flat.Name, f.hier.Name}}, all},
				{"top level", contentgen.TermQuery{Taxonomies: []string{f.hier.Name}, HasParent: true}, []int64{root}},
				{"children", contentgen.TermQuery{HasParent: true, Parent: root}, kids},
				{"parent ignored without HasParent", contentgen.TermQuery{Parent: root}, all},
				{"search ignores case", contentgen.TermQuery{Search: "APPLE"}, []int64{kids[0], tags[0]}},
				{"ids", contentgen.TermQuery{IDs: contentgen.OnlyIDs(tags[0], root)}, []int64{root, tags[0]}},
				{"limit", contentgen.TermQuery{Limit: 2}, inOrder[:2]},
				{"offset", contentgen.TermQuery{Limit: 2, Offset: 3}, inOrder[3:]},
				{"offset past the end", contentgen.TermQuery{Offset: 4}, nil},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					require.Equal(t, idsOrEmpty(sorted(tc.want)), termIDs(f.terms(t, tc.q)))
				})
			}
			t.Run("meta value", func(t *testing.T) {
				got, err := f.h.Terms(f.ctx, contentgen.TermQuery{IDs: contentgen.OnlyIDs(all...), MetaKey: "color", MetaValue: "gold"})
				require.NoError(t, err)
				require.Equal(t, []int64{tags[0]}, termIDs(got))
			})
		}},
		{"CountIsLive", func(t *testing.T, f *fixture) {
			f.needHier(t)
			term := f.createTerm(t, f.hier, "Counted", 0)
			require.Equal(t, 0, f.getTerm(t, term).Count)
			p := f.post("Counted post")
			p.Terms = map[string][]int64{f.hier.Name: {term}}
			ids := f.createPosts(t, p, p)
			require.Equal(t, 2, f.getTerm(t, term).Count)
			require.NoError(t, f.h.DeletePosts(f.ctx, ids[:1]))
			require.Equal(t, 1, f.getTerm(t, term).Count)
		}},
		{"ResultsAreCopies", func(t *testing.T, f *fixture) {
			f.needHier(t)
			id := f.createTerm(t, f.hier, "Copied", 0)
			got := f.getTerm(t, id)
			got.Meta[TagKey] = "changed"
			got.Meta["added"] = "x"
			again := f.getTerm(t, id)
			require.Equal(t, f.tag, again.Meta[TagKey])
			require.NotContains(t, again.Meta, "added")
		}},
		{"DeleteMovesChildrenUpAndUnlinksPosts", func(t *testing.T, f *fixture) {
			f.needHier(t)
			a := f.createTerm(t, f.hier, "A", 0)
			b := f.createTerm(t, f.hier, "B", a)
			c := f.createTerm(t, f.hier, "C", b)
			d := f.createTerm(t, f.hier, "D", c)
			p := f.post("Linked")
			p.Terms = map[string][]int64{f.hier.Name: {a, b}}
			post := f.createPosts(t, p)[0]

			require.NoError(t, f.h.DeleteTerms(f.ctx, []int64{b}))
			require.False(t, f.exists(t, contentgen.KindTerm, b))
			f.requireMetaGone(t, contentgen.KindTerm, b)
			require.Equal(t, a, f.getTerm(t, c).ParentID, "children of a removed term move to its parent")
			require.Equal(t, []int64{a}, f.getPost(t, post).Terms[f.hier.Name], "post links to a removed term go")

			// Removing a parent and its child together moves the grandchild
			// to the top.
			require.NoError(t, f.h.DeleteTerms(f.ctx, []int64{c, a}))
			require.Equal(t, int64(0), f.getTerm(t, d).ParentID)
			require.Empty(t, f.getPost(t, post).Terms[f.hier.Name])
			require.True(t, f.exists(t, contentgen.KindPost, post), "removing terms keeps their posts")

			require.NoError(t, f.h.DeleteTerms(f.ctx, []int64{a, b, c}))
			require.NoError(t, f.h.DeleteTerms(f.ctx, nil))
			require.True(t, f.exists(t, contentgen.KindTerm, d))
		}},
	}
}
