package hosttest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

// listerTests check contentgen.Lister: every filter, both orders, paging
// at its boundaries and exact totals, also after deletes, trash and a
// change of the marker meta. Content the host held before is taken as
// it was listed before the suite created its own.
func listerTests() []test {
	// lister skips the test when the host does not list kind itself.
	lister := func(t *testing.T, f *fixture, kind contentgen.ObjectKind) contentgen.Lister {
		t.Helper()
		l, ok := f.h.(contentgen.Lister)
		if !ok {
			t.Skip("host does not implement contentgen.Lister")
		}
		if _, _, err := l.List(f.ctx, kind, contentgen.Listing{Limit: 1}); errors.Is(err, errors.ErrUnsupported) {
			t.Skipf("host leaves listing %ss to the Generator", kind)
		}
		return l
	}
	return []test{
		{"Posts", func(t *testing.T, f *fixture) {
			l := lister(t, f, contentgen.KindPost)
			word := listWord(f)
			var model []listed
			posts := make([]contentgen.Post, 8)
			for i := range posts {
				title := f.name("Listed post ")
				if i%2 == 0 {
					title += " " + word
				}
				p := f.post(title)
				if i%3 == 0 {
					p.Status = contentgen.StatusPublish
				}
				if i%2 == 1 || i == 4 {
					p.Meta[contentgen.MarkerKey] = contentgen.MarkerValue
				}
				posts[i] = p
			}
			queries := []contentgen.Listing{
				{},
				{Order: contentgen.NewestFirst},
				{Subtypes: []string{f.pt.Name}},
				{Subtypes: []string{f.pt.Name}, Order: contentgen.NewestFirst},
				{Statuses: []string{contentgen.StatusPublish}},
				{Statuses: []string{contentgen.StatusDraft, contentgen.StatusPublish}, Subtypes: []string{f.pt.Name}},
				{Origin: contentgen.OnlyGenerated},
				{Origin: contentgen.NotGenerated, Order: contentgen.NewestFirst},
				{Origin: contentgen.OnlyGenerated, Statuses: []string{contentgen.StatusDraft}},
				{Search: word},
				{Search: strings.ToUpper(word), Origin: contentgen.OnlyGenerated, Order: contentgen.NewestFirst},
				{Search: word, Statuses: []string{contentgen.StatusPublish}, Subtypes: []string{f.pt.Name}},
				{Subtypes: []string{"hosttest-no-such-type"}},
				{Statuses: []string{"hosttest-no-such-status"}},
			}
			tr, trasher := f.h.(contentgen.Trasher)
			if trasher {
				queries = append(queries, contentgen.Listing{Statuses: []string{contentgen.StatusTrash}})
			}
			before := baselines(t, f, l, contentgen.KindPost, queries)
			ids := f.createPosts(t, posts...)
			for i, p := range posts {
				model = append(model, listed{id: ids[i], subtypes: []string{p.Type}, status: p.Status, generated: p.Meta.Generated(), text: p.Title})
			}
			checkListings(t, f, l, contentgen.KindPost, queries, before, model)

			// Deletes, trash and a new marker change lists and totals.
			require.NoError(t, f.h.DeletePosts(f.ctx, ids[:1]))
			model = model[1:]
			require.NoError(t, f.h.SetMeta(f.ctx, contentgen.KindPost, ids[2], contentgen.Meta{contentgen.MarkerKey: contentgen.MarkerValue}))
			model[1].generated = true
			if trasher {
				require.NoError(t, tr.TrashPosts(f.ctx, ids[3:4]))
				model[2].status = contentgen.StatusTrash
			}
			more := f.createPosts(t, posts[:2]...)
			model = append(model,
				listed{id: more[0], subtypes: []string{f.pt.Name}, status: posts[0].Status, text: posts[0].Title},
				listed{id: more[1], subtypes: []string{f.pt.Name}, status: posts[1].Status, generated: true, text: posts[1].Title})
			checkListings(t, f, l, contentgen.KindPost, queries, before, model)
		}},
		{"Terms", func(t *testing.T, f *fixture) {
			l := lister(t, f, contentgen.KindTerm)
			f.needHier(t)
			word := listWord(f)
			queries := []contentgen.Listing{
				{},
				{Subtypes: []string{f.hier.Name}, Order: contentgen.NewestFirst},
				{Origin: contentgen.OnlyGenerated},
				{Origin: contentgen.NotGenerated},
				{Search: word},
				{Search: word, Parent: new(int64(0))},
				{Subtypes: []string{"hosttest-no-such-taxonomy"}},
			}
			before := baselines(t, f, l, contentgen.KindTerm, queries)
			var model []listed
			add := func(name string, parent int64, generated bool) int64 {
				term := f.term(f.hier, name, parent)
				if generated {
					term.Meta[contentgen.MarkerKey] = contentgen.MarkerValue
				}
				ids, err := f.h.CreateTerms(f.ctx, []contentgen.Term{term})
				require.NoError(t, err)
				model = append(model, listed{id: ids[0], subtypes: []string{f.hier.Name}, parent: parent, generated: generated, text: name})
				return ids[0]
			}
			top := add(f.name("Listed ")+word, 0, true)
			add(f.name("Listed "), 0, false)
			add(f.name("Listed ")+word, top, false)
			add(f.name("Listed ")+word, top, true)
			add(f.name("Listed ")+word, 0, false)
			queries = append(queries, contentgen.Listing{Parent: &top}, contentgen.Listing{Parent: &top, Order: contentgen.NewestFirst, Search: word})
			before = append(before, nil, nil)
			checkListings(t, f, l, contentgen.KindTerm, queries, before, model)
		}},
		{"Users", func(t *testing.T, f *fixture) {
			l := lister(t, f, contentgen.KindUser)
			word := listWord(f)
			queries := []contentgen.Listing{
				{},
				{Order: contentgen.NewestFirst},
				{Origin: contentgen.OnlyGenerated},
				{Origin: contentgen.NotGenerated, Order: contentgen.NewestFirst},
				{Search: word},
				{Search: word, Origin: contentgen.OnlyGenerated},
				{Subtypes: []string{"hosttest-no-such-role"}},
			}
			if f.role != "" {
				queries = append(queries, contentgen.Listing{Subtypes: []string{f.role}}, contentgen.Listing{Subtypes: []string{f.role}, Search: word})
			}
			before := baselines(t, f, l, contentgen.KindUser, queries)
			users := make([]contentgen.User, 5)
			for i := range users {
				users[i] = f.user()
				if i%2 == 0 {
					users[i].DisplayName += " " + word
				}
				if i == 1 {
					users[i].Roles = nil
				}
				if i >= 3 {
					users[i].Meta[contentgen.MarkerKey] = contentgen.MarkerValue
				}
			}
			ids, err := f.h.CreateUsers(f.ctx, users)
			require.NoError(t, err)
			var model []listed
			for i, u := range users {
				model = append(model, listed{id: ids[i], subtypes: u.Roles, generated: u.Meta.Generated(), text: u.Login + " " + u.DisplayName + " " + u.Email})
			}
			checkListings(t, f, l, contentgen.KindUser, queries, before, model)
		}},
		{"Media", func(t *testing.T, f *fixture) {
			l := lister(t, f, contentgen.KindMedia)
			word := listWord(f)
			queries := []contentgen.Listing{
				{},
				{Order: contentgen.NewestFirst},
				{Origin: contentgen.OnlyGenerated},
				{Origin: contentgen.NotGenerated},
				{Search: word},
				{Search: word, Origin: contentgen.OnlyGenerated, Order: contentgen.NewestFirst},
				{Search: word, Origin: contentgen.NotGenerated},
			}
			before := baselines(t, f, l, contentgen.KindMedia, queries)
			media := make([]contentgen.Media, 5)
			for i := range media {
				title := f.name("Listed ")
				if i != 2 {
					title += " " + word
				}
				media[i] = f.media(title, "image/png")
				switch i {
				case 0, 2:
					media[i].Meta[contentgen.MarkerKey] = contentgen.MarkerValue
				case 3:
					media[i].Meta[contentgen.UploadedKey] = contentgen.MarkerValue
				}
			}
			ids, err := f.h.CreateMedia(f.ctx, media)
			require.NoError(t, err)
			var model []listed
			for i, m := range media {
				model = append(model, listed{id: ids[i], generated: m.Meta.Generated(), uploaded: m.Meta[contentgen.UploadedKey] == contentgen.MarkerValue, text: m.Title})
			}
			checkListings(t, f, l, contentgen.KindMedia, queries, before, model)
		}},
		{"Edges", func(t *testing.T, f *fixture) {
			l := lister(t, f, contentgen.KindPost)
			word := listWord(f)
			p := f.post("Edge " + word)
			ids := f.createPosts(t, p, p, p)
			q := contentgen.Listing{Search: word}
			got, total, err := l.List(f.ctx, contentgen.KindPost, contentgen.Listing{Search: word, Offset: 3, Limit: 5})
			require.NoError(t, err)
			require.NotNil(t, got, "an offset past the end gives an empty list, not nil")
			require.Empty(t, got)
			require.Equal(t, 3, total)
			q.Limit, q.Offset = -1, -4
			got, total, err = l.List(f.ctx, contentgen.KindPost, q)
			require.NoError(t, err)
			require.Equal(t, ids, got, "negative Limit and Offset count as 0")
			require.Equal(t, 3, total)

			_, _, err = l.List(f.ctx, contentgen.KindComment, contentgen.Listing{})
			require.ErrorIs(t, err, errors.ErrUnsupported, "comments are not a kind of List")

			ctx, cancel := context.WithCancel(f.ctx)
			cancel()
			for _, kind := range []contentgen.ObjectKind{contentgen.KindPost, contentgen.KindTerm, contentgen.KindUser, contentgen.KindMedia} {
				if _, _, err := l.List(f.ctx, kind, q); errors.Is(err, errors.ErrUnsupported) {
					continue
				}
				_, _, err := l.List(ctx, kind, q)
				require.ErrorIs(t, err, context.Canceled, kind)
			}
		}},
	}
}

// listed is what the suite knows of an object it made, for the filters
// of Listing.
type listed struct {
	id                  int64
	subtypes            []string
	status              string
	parent              int64
	generated, uploaded bool
	text                string
}

// listWord is a word no content but the fixture's has.
func listWord(f *fixture) string {
	h := uint32(2166136261)
	for _, c := range []byte(f.tag) {
		h = (h ^ uint32(c)) * 16777619
	}
	const letters = "bcdfghjklmnpqrstvwxz"
	w := []byte("qx")
	for range 8 {
		w = append(w, letters[h%uint32(len(letters))])
		h /= uint32(len(letters))
		h ^= h << 7
	}
	return string(w)
}

// matches reports whether an object the suite made is selected by q.
func (x *listed) matches(kind contentgen.ObjectKind, q contentgen.Listing) bool {
	if len(q.Subtypes) > 0 && !slices.ContainsFunc(x.subtypes, func(s string) bool { return slices.Contains(q.Subtypes, s) }) {
		return false
	}
	if len(q.Statuses) > 0 && !slices.Contains(q.Statuses, x.status) {
		return false
	}
	if q.Parent != nil && *q.Parent != x.parent {
		return false
	}
	if q.Search != "" && !strings.Contains(strings.ToLower(x.text), strings.ToLower(q.Search)) {
		return false
	}
	switch q.Origin {
	case contentgen.OnlyGenerated:
		return x.generated || kind == contentgen.KindMedia && x.uploaded
	case contentgen.NotGenerated:
		return !x.generated
	}
	return true
}

// listAll lists every match of q and checks the total.
func listAll(t *testing.T, f *fixture, l contentgen.Lister, kind contentgen.ObjectKind, q contentgen.Listing) []int64 {
	t.Helper()
	q.Limit, q.Offset = 0, 0
	ids, total, err := l.List(f.ctx, kind, q)
	require.NoError(t, err, "%s %+v", kind, q)
	require.NotNil(t, ids, "%s %+v: an empty list, not nil", kind, q)
	require.Len(t, ids, total, "%s %+v: the total of a list without Limit is its length", kind, q)
	return ids
}

// baselines lists what each query selects before the suite adds to it.
// A query of a search for the suite's word selects nothing before.
func baselines(t *testing.T, f *fixture, l contentgen.Lister, kind contentgen.ObjectKind, queries []contentgen.Listing) [][]int64 {
	t.Helper()
	out := make([][]int64, len(queries))
	for i, q := range queries {
		out[i] = listAll(t, f, l, kind, q)
	}
	return out
}

// checkListings checks that each query lists what it listed before plus
// the objects of model it matches, in its order, and pages it exactly.
// A nil baseline is a query that selects none of the host's own content.
func checkListings(t *testing.T, f *fixture, l contentgen.Lister, kind contentgen.ObjectKind, queries []contentgen.Listing, before [][]int64, model []listed) {
	t.Helper()
	for i, q := range queries {
		want := slices.Clone(before[i])
		if q.Order == contentgen.NewestFirst {
			slices.Reverse(want)
		}
		for j := range model {
			if model[j].matches(kind, q) {
				want = append(want, model[j].id)
			}
		}
		slices.Sort(want)
		want = slices.Compact(want)
		if q.Order == contentgen.NewestFirst {
			slices.Reverse(want)
		}
		if want == nil {
			want = []int64{}
		}
		require.Equal(t, want, listAll(t, f, l, kind, q), "%s %+v", kind, q)
		n := len(want)
		offsets := []int{0, 1, 2, n / 2, n - 2, n - 1, n, n + 1, n + 50}
		for _, limit := range []int{1, 2, 3, 20} {
			for _, off := range offsets {
				if off < 0 {
					continue
				}
				q.Limit, q.Offset = limit, off
				got, total, err := l.List(f.ctx, kind, q)
				require.NoError(t, err)
				lo, hi := min(off, n), min(off+limit, n)
				require.Equal(t, want[lo:hi], got, "%s %+v", kind, q)
				require.Equal(t, n, total, "%s %+v: the total does not depend on the page", kind, q)
			}
		}
	}
}
