package hosttest

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

func discoveryTests() []test {
	return []test{
		{"Site", func(t *testing.T, f *fixture) {
			site, err := f.h.Site(f.ctx)
			require.NoError(t, err)
			require.NotEmpty(t, site.Name)
			require.NotEmpty(t, site.URL)
			require.False(t, strings.HasSuffix(site.URL, "/"), "Site.URL %q must not end with a slash", site.URL)
		}},
		{"PostTypesHaveLiveCounts", func(t *testing.T, f *fixture) {
			count := func() map[string]int {
				types, err := f.h.PostTypes(f.ctx)
				require.NoError(t, err)
				names := map[string]bool{}
				var found map[string]int
				for _, pt := range types {
					require.NotEmpty(t, pt.Name)
					require.False(t, names[pt.Name], "post type %q listed twice", pt.Name)
					names[pt.Name] = true
					if pt.Name == f.pt.Name {
						found = pt.Count
					}
				}
				require.NotNil(t, found, "post type %q vanished", f.pt.Name)
				return found
			}
			before := count()
			pub := f.post("Published")
			pub.Status = contentgen.StatusPublish
			ids := f.createPosts(t, pub, pub, f.post("Draft"))
			after := count()
			require.Equal(t, before[contentgen.StatusPublish]+2, after[contentgen.StatusPublish])
			require.Equal(t, before[contentgen.StatusDraft]+1, after[contentgen.StatusDraft])
			require.NoError(t, f.h.DeletePosts(f.ctx, ids[:2]))
			after = count()
			require.Equal(t, before[contentgen.StatusPublish], after[contentgen.StatusPublish])
			require.Equal(t, before[contentgen.StatusDraft]+1, after[contentgen.StatusDraft])
		}},
		{"TaxonomiesHaveLiveCounts", func(t *testing.T, f *fixture) {
			f.needHier(t)
			count := func() int {
				taxes, err := f.h.Taxonomies(f.ctx)
				require.NoError(t, err)
				names := map[string]bool{}
				n := -1
				for _, tx := range taxes {
					require.NotEmpty(t, tx.Name)
					require.False(t, names[tx.Name], "taxonomy %q listed twice", tx.Name)
					names[tx.Name] = true
					if tx.Name == f.hier.Name {
						n = tx.Count
					}
				}
				require.GreaterOrEqual(t, n, 0, "taxonomy %q vanished", f.hier.Name)
				return n
			}
			before := count()
			a := f.createTerm(t, f.hier, "Counted A", 0)
			f.createTerm(t, f.hier, "Counted B", a)
			require.Equal(t, before+2, count())
			require.NoError(t, f.h.DeleteTerms(f.ctx, []int64{a}))
			require.Equal(t, before+1, count())
		}},
		{"Roles", func(t *testing.T, f *fixture) {
			roles, err := f.h.Roles(f.ctx)
			require.NoError(t, err)
			slugs := map[string]bool{}
			for _, r := range roles {
				require.NotEmpty(t, r.Slug)
				require.False(t, slugs[r.Slug], "role %q listed twice", r.Slug)
				slugs[r.Slug] = true
			}
		}},
		{"ResultsAreCopies", func(t *testing.T, f *fixture) {
			types, err := f.h.PostTypes(f.ctx)
			require.NoError(t, err)
			for i := range types {
				types[i].Name = "changed"
				types[i].Supports = append(types[i].Supports[:0], "changed")
				types[i].Count = map[string]int{"changed": 1}
			}
			again, err := f.h.PostTypes(f.ctx)
			require.NoError(t, err)
			for _, pt := range again {
				require.NotEqual(t, "changed", pt.Name)
				require.NotContains(t, pt.Supports, "changed")
				require.NotContains(t, pt.Count, "changed")
			}
			roles, err := f.h.Roles(f.ctx)
			require.NoError(t, err)
			if len(roles) > 0 && len(roles[0].Capabilities) > 0 {
				roles[0].Capabilities[0] = "changed"
				again, err := f.h.Roles(f.ctx)
				require.NoError(t, err)
				require.NotEqual(t, "changed", again[0].Capabilities[0])
			}
		}},
	}
}

func postTests() []test {
	return []test{
		{"CreateReturnsIDsInInputOrder", func(t *testing.T, f *fixture) {
			in := []contentgen.Post{f.post("First"), f.post("Second"), f.post("Third")}
			in[1].Meta["extra"] = "x"
			snapshot := clonePosts(in)
			ids := f.createPosts(t, in...)
			requireDistinctPositive(t, ids)
			require.Equal(t, snapshot, in, "CreatePosts must not modify its input")
			for i, id := range ids {
				require.Equal(t, in[i].Title, f.getPost(t, id).Title, "id %d is the id of input %d", id, i)
			}
		}},
		{"RoundTrip", func(t *testing.T, f *fixture) {
			author := f.createUsers(t, 1)[0]
			parent := f.createPost(t, "Parent")
			media := f.createMedia(t, "Featured", "image/png")
			in := contentgen.Post{
				Type: f.pt.Name, Status: contentgen.StatusPublish, Title: "Round trip",
				Content: "<h2>Heading</h2><p>Body</p>", Excerpt: "Excerpt", AuthorID: author,
				ParentID: parent, Date: date(7), FeaturedMediaID: media,
				Meta: f.meta("color", "red", "empty", ""),
			}
			var terms []int64
			if f.hier != nil {
				a := f.createTerm(t, f.hier, "Round A", 0)
				b := f.createTerm(t, f.hier, "Round B", a)
				terms = []int64{a, b}
				in.Terms = map[string][]int64{f.hier.Name: terms}
			}
			id := f.createPosts(t, in)[0]
			got := f.getPost(t, id)
			require.Equal(t, id, got.ID)
			require.Equal(t, in.Type, got.Type)
			require.Equal(t, in.Status, got.Status)
			require.Equal(t, in.Title, got.Title)
			require.Equal(t, in.Content, got.Content)
			require.Equal(t, in.Excerpt, got.Excerpt)
			require.Equal(t, in.AuthorID, got.AuthorID)
			require.Equal(t, in.ParentID, got.ParentID)
			require.Equal(t, in.FeaturedMediaID, got.FeaturedMediaID)
			require.True(t, in.Date.Equal(got.Date), "date %v, want %v", got.Date, in.Date)
			requireSubset(t, in.Meta, got.Meta)
			if terms != nil {
				require.ElementsMatch(t, terms, got.Terms[f.hier.Name])
			}
		}},
		{"CreateNothing", func(t *testing.T, f *fixture) {
			before, err := f.h.Posts(f.ctx, contentgen.PostQuery{})
			require.NoError(t, err)
			for _, in := range [][]contentgen.Post{nil, {}} {
				ids, err := f.h.CreatePosts(f.ctx, in)
				require.NoError(t, err)
				require.Empty(t, ids)
			}
			after, err := f.h.Posts(f.ctx, contentgen.PostQuery{})
			require.NoError(t, err)
			require.Equal(t, postIDs(before), postIDs(after))
		}},
		{"BatchIsAllOrNothing", func(t *testing.T, f *fixture) {
			bad := f.post("Bad")
			bad.Type = "hosttest_no_such_type"
			_, err := f.h.CreatePosts(f.ctx, []contentgen.Post{f.post("Good 1"), f.post("Good 2"), bad})
			require.Error(t, err, "a post of an unregistered type must fail the batch")
			require.Empty(t, f.posts(t, contentgen.PostQuery{}), "no post of a failed batch may be stored")
		}},
		{"QueryFilters", func(t *testing.T, f *fixture) {
			authors := f.createUsers(t, 2)
			mk := func(title, status string, author int64, color string) contentgen.Post {
				p := f.post(title)
				p.Status, p.AuthorID = status, author
				if color != "" {
					p.Meta["color"] = color
				}
				return p
			}
			ids := f.createPosts(t,
				mk("Alpha apple", contentgen.StatusPublish, authors[0], "red"),
				mk("beta BANANA", contentgen.StatusDraft, authors[1], "blue"),
				mk("Gamma", contentgen.StatusPublish, authors[1], "red"),
				mk("Delta pineapple", contentgen.StatusPending, authors[0], ""),
			)
			cases := []struct {
				name string
				q    contentgen.PostQuery
				want []int64
			}{
				{"no filter", contentgen.PostQuery{}, ids},
				{"type", contentgen.PostQuery{Types: []string{f.pt.Name}}, ids},
				{"unknown type", contentgen.PostQuery{Types: []string{"hosttest_no_such_type"}}, nil},
				{"one status", contentgen.PostQuery{Statuses: []string{contentgen.StatusPublish}}, []int64{ids[0], ids[2]}},
				{"two statuses", contentgen.PostQuery{Statuses: []string{contentgen.StatusDraft, contentgen.StatusPending}}, []int64{ids[1], ids[3]}},
				{"author", contentgen.PostQuery{AuthorID: authors[1]}, []int64{ids[1], ids[2]}},
				{"search ignores case", contentgen.PostQuery{Search: "APPLE"}, []int64{ids[0], ids[3]}},
				{"search lower", contentgen.PostQuery{Search: "banana"}, []int64{ids[1]}},
				{"search no match", contentgen.PostQuery{Search: "zzz-no-match"}, nil},
				{"ids unordered with duplicates and unknown", contentgen.PostQuery{IDs: contentgen.OnlyIDs(ids[3], ids[0], ids[3], f.removedID(t, contentgen.KindPost))}, []int64{ids[0], ids[3]}},
				{"combined", contentgen.PostQuery{Statuses: []string{contentgen.StatusPublish}, AuthorID: authors[0]}, []int64{ids[0]}},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					got := postIDs(f.posts(t, tc.q))
					require.Equal(t, idsOrEmpty(sorted(tc.want)), got)
				})
			}
			t.Run("meta value", func(t *testing.T) {
				got, err := f.h.Posts(f.ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(ids...), MetaKey: "color", MetaValue: "red"})
				require.NoError(t, err)
				require.Equal(t, sorted([]int64{ids[0], ids[2]}), postIDs(got))
			})
		}},
		{"LimitAndOffset", func(t *testing.T, f *fixture) {
			var in []contentgen.Post
			for range 5 {
				in = append(in, f.post(f.name("Paged ")))
			}
			ids := sorted(f.createPosts(t, in...))
			cases := []struct {
				limit, offset int
				want          []int64
			}{
				{0, 0, ids},
				{2, 0, ids[:2]},
				{2, 2, ids[2:4]},
				{2, 4, ids[4:]},
				{0, 3, ids[3:]},
				{10, 0, ids},
				{1, 5, nil},
				{0, 50, nil},
			}
			for _, tc := range cases {
				got := f.posts(t, contentgen.PostQuery{Limit: tc.limit, Offset: tc.offset})
				require.Equal(t, idsOrEmpty(tc.want), postIDs(got), "limit %d offset %d", tc.limit, tc.offset)
			}
		}},
		{"NilFiltersMatchEverythingInIDOrder", func(t *testing.T, f *fixture) {
			ids := f.createPosts(t, f.post("One"), f.post("Two"))
			all, err := f.h.Posts(f.ctx, contentgen.PostQuery{})
			require.NoError(t, err)
			got := postIDs(all)
			requireAscending(t, got)
			require.Subset(t, got, ids)
		}},
		{"ResultsAreCopies", func(t *testing.T, f *fixture) {
			p := f.post("Copied")
			if f.hier != nil {
				p.Terms = map[string][]int64{f.hier.Name: {f.createTerm(t, f.hier, "Copied", 0)}}
			}
			id := f.createPosts(t, p)[0]
			got := f.getPost(t, id)
			want := clonePosts([]contentgen.Post{got})[0]
			got.Meta[TagKey] = "changed"
			got.Meta["added"] = "x"
			for tax := range got.Terms {
				if len(got.Terms[tax]) > 0 {
					got.Terms[tax][0] = -1
				}
			}
			got.Terms["hosttest_added"] = []int64{1}
			again := f.getPost(t, id)
			require.Equal(t, want, again)
		}},
		{"DeleteCascades", func(t *testing.T, f *fixture) {
			p := f.post("Doomed")
			var term int64
			if f.flat != nil {
				term = f.createTerm(t, f.flat, "Doomed tag", 0)
				p.Terms = map[string][]int64{f.flat.Name: {term}}
			}
			ids := f.createPosts(t, p, f.post("Survivor"))
			doomed, survivor := ids[0], ids[1]
			c1 := f.createComment(t, doomed, 0, "First")
			c2 := f.createComment(t, doomed, c1, "Reply")
			c3 := f.createComment(t, survivor, 0, "Elsewhere")
			if term != 0 {
				require.Equal(t, 1, f.getTerm(t, term).Count)
			}
			require.NoError(t, f.h.DeletePosts(f.ctx, []int64{doomed}))
			require.False(t, f.exists(t, contentgen.KindPost, doomed))
			f.requireMetaGone(t, contentgen.KindPost, doomed)
			require.Empty(t, f.comments(t, contentgen.CommentQuery{PostIDs: contentgen.OnlyIDs(doomed)}))
			require.False(t, f.exists(t, contentgen.KindComment, c1))
			require.False(t, f.exists(t, contentgen.KindComment, c2))
			f.requireMetaGone(t, contentgen.KindComment, c2)
			require.True(t, f.exists(t, contentgen.KindComment, c3))
			require.True(t, f.exists(t, contentgen.KindPost, survivor))
			if term != 0 {
				require.Equal(t, 0, f.getTerm(t, term).Count, "a removed post no longer counts for its terms")
			}
		}},
		{"DeleteIgnoresUnknownIDs", func(t *testing.T, f *fixture) {
			keep := f.createPost(t, "Kept")
			gone := f.removedID(t, contentgen.KindPost)
			require.NoError(t, f.h.DeletePosts(f.ctx, []int64{gone}))
			require.NoError(t, f.h.DeletePosts(f.ctx, nil))
			require.NoError(t, f.h.DeletePosts(f.ctx, []int64{}))
			require.True(t, f.exists(t, contentgen.KindPost, keep))
			doomed := f.createPost(t, "Doomed")
			require.NoError(t, f.h.DeletePosts(f.ctx, []int64{gone, doomed, doomed}))
			require.False(t, f.exists(t, contentgen.KindPost, doomed))
			require.True(t, f.exists(t, contentgen.KindPost, keep))
		}},
	}
}

// idsOrEmpty returns ids, or an empty slice for nil, as queries return.
func idsOrEmpty(ids []int64) []int64 {
	if ids == nil {
		return []int64{}
	}
	return ids
}

// clonePosts returns a deep copy of posts.
func clonePosts(in []contentgen.Post) []contentgen.Post {
	out := make([]contentgen.Post, len(in))
	for i, p := range in {
		c := p
		c.Meta = maps.Clone(p.Meta)
		if p.Terms != nil {
			c.Terms = make(map[string][]int64, len(p.Terms))
			for k, v := range p.Terms {
				c.Terms[k] = slices.Clone(v)
			}
		}
		out[i] = c
	}
	return out
}
