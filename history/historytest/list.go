package historytest

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/history"
)

func listTests() []test {
	return []test{
		{"Empty", func(t *testing.T, f *fixture) {
			entries, total := f.list(t, history.Filter{Limit: 10, Offset: 5})
			require.Empty(t, entries)
			require.Zero(t, total)
		}},
		{"ByContentIDWithCursor", func(t *testing.T, f *fixture) {
			// Added out of content id order, with two entries for id 3
			// and an entry of another type.
			in := f.add(t, entry(5, at(1)), entry(3, at(2)), entry(9, at(0)), entry(3, at(-5)), entry(1, at(3)))
			f.add(t, history.Entry{ContentType: history.TypeTerm, ContentSubtype: "category", ContentID: 4, CreatedAt: at(0)})
			filter := history.Filter{ContentType: history.TypePost, ByContentID: true, NoTotal: true, Limit: 2}
			page, total := f.list(t, filter)
			require.Zero(t, total, "NoTotal leaves the total out")
			require.Equal(t, []string{in[4].ID, in[1].ID}, ids(page), "content id order, ties in insertion order")
			filter.AfterContentID = page[len(page)-1].ContentID
			page, _ = f.list(t, filter)
			require.Equal(t, []string{in[0].ID, in[2].ID}, ids(page), "the cursor skips what the last page reached")
			filter.AfterContentID = 9
			page, _ = f.list(t, filter)
			require.Empty(t, page)
			page, total = f.list(t, history.Filter{AfterContentID: 3, ContentType: history.TypePost})
			require.Equal(t, 2, total, "AfterContentID filters the total too")
			require.Equal(t, []string{in[0].ID, in[2].ID}, ids(page), "newest first by default")
		}},
		{"NewestFirst", func(t *testing.T, f *fixture) {
			// Added out of time order.
			in := f.add(t, entry(1, at(30)), entry(2, at(-600)), entry(3, at(45)))
			more := f.add(t, entry(4, at(10)), entry(5, at(24*60)))
			want := []string{more[1].ID, in[2].ID, in[0].ID, more[0].ID, in[1].ID}
			require.Equal(t, want, ids(f.all(t)))
		}},
		{"TiesByInsertionNewestFirst", func(t *testing.T, f *fixture) {
			tie := at(0)
			a := f.add(t, entry(1, tie), entry(2, tie), entry(3, tie))
			b := f.add(t, entry(4, at(1)), entry(5, tie), entry(6, tie))
			c := f.add(t, entry(7, at(-1)), entry(8, tie))
			want := []string{b[0].ID, c[1].ID, b[2].ID, b[1].ID, a[2].ID, a[1].ID, a[0].ID, c[0].ID}
			require.Equal(t, want, ids(f.all(t)))
			got, total := f.list(t, history.Filter{Offset: 2, Limit: 3})
			require.Equal(t, 8, total)
			require.Equal(t, want[2:5], ids(got), "paging keeps the tie order")
		}},
		{"AssignedTimesNewestFirst", func(t *testing.T, f *fixture) {
			// Entries added later without a CreatedAt are never older, so
			// they come first whether the store's clock ties them or not.
			if f.clock != nil {
				f.clock.Set(at(0))
			}
			a := f.add(t, entry(1, time.Time{}), entry(2, time.Time{}), entry(3, time.Time{}))
			b := f.add(t, entry(4, time.Time{}), entry(5, time.Time{}))
			if f.clock != nil {
				f.clock.Set(at(1))
			}
			c := f.add(t, entry(6, time.Time{}))
			want := []string{c[0].ID, b[1].ID, b[0].ID, a[2].ID, a[1].ID, a[0].ID}
			require.Equal(t, want, ids(f.all(t)))
		}},
		{"Paging", func(t *testing.T, f *fixture) {
			in := make([]history.Entry, 7)
			for i := range in {
				in[i] = entry(int64(i+1), at(i))
			}
			f.add(t, in...)
			newest := reversed(ids(in))
			cases := []struct {
				offset, limit int
				want          []string
			}{
				{0, 0, newest},
				{0, 3, newest[:3]},
				{3, 3, newest[3:6]},
				{6, 3, newest[6:]},
				{2, 0, newest[2:]},
				{0, 7, newest},
				{0, 100, newest},
				{7, 0, nil},
				{7, 2, nil},
				{100, 5, nil},
			}
			for _, c := range cases {
				t.Run(fmt.Sprintf("Offset%dLimit%d", c.offset, c.limit), func(t *testing.T) {
					got, total := f.list(t, history.Filter{Offset: c.offset, Limit: c.limit})
					require.Equal(t, len(in), total, "total counts matching entries before Offset and Limit")
					if len(c.want) == 0 {
						require.Empty(t, got)
						return
					}
					require.Equal(t, c.want, ids(got))
				})
			}
		}},
		{"ReturnsCopies", func(t *testing.T, f *fixture) {
			in := f.add(t,
				history.Entry{ContentType: history.TypePost, ContentID: 1, ContentSubtype: "post", CreatedAt: at(1),
					Meta: map[string]any{"locale": "de_DE", "taxonomies_assigned": []string{"category"}, "fields": map[string]any{"price": "10", "tags": []string{"a"}}}},
				history.Entry{ContentType: history.TypeTerm, ContentID: 2, ContentSubtype: "category", CreatedAt: at(2),
					Meta: map[string]any{"locale": "en_US"}},
			)
			want := []history.Entry{frozen(t, in[0]), frozen(t, in[1])}
			got := f.all(t)
			require.Len(t, got, 2)
			for i := range got {
				mutateEntry(t, &got[i])
			}
			requireEntry(t, want[0], f.get(t, in[0].ID), "changing entries returned by List does not reach the store")
			requireEntry(t, want[1], f.get(t, in[1].ID), "changing entries returned by List does not reach the store")
			again := f.all(t)
			requireEntry(t, want[1], again[0])
			requireEntry(t, want[0], again[1])
		}},
	}
}

// filterFixture is the set of entries the filter tests select from, in
// insertion order, each with a name used by the cases.
var filterFixture = []struct {
	name    string
	typ     string
	sub     string
	id      int64
	minutes int
	meta    map[string]any
}{
	{"p1", history.TypePost, "post", 1, 50, map[string]any{
		"locale": "de_DE", "template_name": "Blog", "has_featured_image": true,
		"generation_time": 1.5, "count": 3, "taxonomies_assigned": []string{"category", "post_tag"},
	}},
	{"p2", history.TypePost, "page", 2, 10, map[string]any{
		"locale": "en_US", "template_name": "Landing", "has_featured_image": false,
		"generation_time": 2.0, "count": 0, "taxonomies_assigned": []string{},
	}},
	{"p3", history.TypePost, "post", 3, 30, nil},
	{"p4", history.TypePost, "product", 4, 70, map[string]any{
		"locale": "en_US", "template_name": "Blog", "has_featured_image": true,
		"taxonomies_assigned": []string{"category"},
	}},
	{"t1", history.TypeTerm, "category", 10, 20, map[string]any{"locale": "de_DE"}},
	{"t2", history.TypeTerm, "post_tag", 11, 60, map[string]any{"locale": "en_US"}},
	{"u1", history.TypeUser, "author", 20, 40, map[string]any{"locale": "de_DE", "role": "author"}},
	{"c1", history.TypeComment, "", 30, 5, map[string]any{"post_id": 1}},
	{"m1", history.TypeMedia, "image", 1, 80, map[string]any{"origin": "upload", "mime_type": "image/png"}},
}

func filterTests() []test {
	// Newest first over the whole fixture: m1 p4 t2 p1 u1 p3 t1 p2 c1.
	cases := []struct {
		name   string
		filter history.Filter
		want   []string
		total  int // when paging; otherwise len(want)
	}{
		{"Zero", history.Filter{}, []string{"m1", "p4", "t2", "p1", "u1", "p3", "t1", "p2", "c1"}, 0},
		{"TypePost", history.Filter{ContentType: history.TypePost}, []string{"p4", "p1", "p3", "p2"}, 0},
		{"TypeTerm", history.Filter{ContentType: history.TypeTerm}, []string{"t2", "t1"}, 0},
		{"TypeComment", history.Filter{ContentType: history.TypeComment}, []string{"c1"}, 0},
		{"TypeUnknown", history.Filter{ContentType: "page"}, nil, 0},
		{"OneSubtype", history.Filter{ContentSubtypes: []string{"post"}}, []string{"p1", "p3"}, 0},
		{"SubtypesAcrossTypes", history.Filter{ContentSubtypes: []string{"post", "category"}}, []string{"p1", "p3", "t1"}, 0},
		{"EmptySubtype", history.Filter{ContentSubtypes: []string{""}}, []string{"c1"}, 0},
		{"UnknownSubtype", history.Filter{ContentSubtypes: []string{"nope"}}, nil, 0},
		{"EmptySubtypeList", history.Filter{ContentSubtypes: []string{}}, []string{"m1", "p4", "t2", "p1", "u1", "p3", "t1", "p2", "c1"}, 0},
		{"TypeAndSubtypes", history.Filter{ContentType: history.TypePost, ContentSubtypes: []string{"post", "page", "category"}}, []string{"p1", "p3", "p2"}, 0},
		{"OneContentID", history.Filter{ContentIDs: []int64{1}}, []string{"m1", "p1"}, 0},
		{"ContentIDs", history.Filter{ContentIDs: []int64{999, 20, 1}}, []string{"m1", "p1", "u1"}, 0},
		{"UnknownContentID", history.Filter{ContentIDs: []int64{999}}, nil, 0},
		{"EmptyContentIDList", history.Filter{ContentIDs: []int64{}}, []string{"m1", "p4", "t2", "p1", "u1", "p3", "t1", "p2", "c1"}, 0},
		{"TypeAndContentID", history.Filter{ContentType: history.TypeMedia, ContentIDs: []int64{1}}, []string{"m1"}, 0},
		{"MetaString", history.Filter{MetaEquals: map[string]string{"locale": "de_DE"}}, []string{"p1", "u1", "t1"}, 0},
		{"MetaStringCaseSensitive", history.Filter{MetaEquals: map[string]string{"locale": "DE_de"}}, nil, 0},
		{"MetaTemplate", history.Filter{MetaEquals: map[string]string{"template_name": "Blog"}}, []string{"p4", "p1"}, 0},
		{"MetaBoolTrue", history.Filter{MetaEquals: map[string]string{"has_featured_image": "true"}}, []string{"p4", "p1"}, 0},
		{"MetaBoolFalse", history.Filter{MetaEquals: map[string]string{"has_featured_image": "false"}}, []string{"p2"}, 0},
		{"MetaBoolOtherSpelling", history.Filter{MetaEquals: map[string]string{"has_featured_image": "1"}}, nil, 0},
		{"MetaFloat", history.Filter{MetaEquals: map[string]string{"generation_time": "1.5"}}, []string{"p1"}, 0},
		{"MetaWholeFloat", history.Filter{MetaEquals: map[string]string{"generation_time": "2"}}, []string{"p2"}, 0},
		{"MetaWholeFloatNotPadded", history.Filter{MetaEquals: map[string]string{"generation_time": "2.0"}}, nil, 0},
		{"MetaInt", history.Filter{MetaEquals: map[string]string{"count": "3"}}, []string{"p1"}, 0},
		{"MetaIntZero", history.Filter{MetaEquals: map[string]string{"count": "0"}}, []string{"p2"}, 0},
		{"MetaIntOtherKey", history.Filter{MetaEquals: map[string]string{"post_id": "1"}}, []string{"c1"}, 0},
		{"MetaList", history.Filter{MetaEquals: map[string]string{"taxonomies_assigned": "category,post_tag"}}, []string{"p1"}, 0},
		{"MetaListOfOne", history.Filter{MetaEquals: map[string]string{"taxonomies_assigned": "category"}}, []string{"p4"}, 0},
		{"MetaListElementIsNotList", history.Filter{MetaEquals: map[string]string{"taxonomies_assigned": "post_tag"}}, nil, 0},
		{"MetaAbsentIsEmpty", history.Filter{MetaEquals: map[string]string{"locale": ""}}, []string{"m1", "p3", "c1"}, 0},
		{"MetaEmptyListIsEmpty", history.Filter{MetaEquals: map[string]string{"taxonomies_assigned": ""}}, []string{"m1", "t2", "u1", "p3", "t1", "p2", "c1"}, 0},
		{"MetaUnknownKey", history.Filter{MetaEquals: map[string]string{"nope": "x"}}, nil, 0},
		{"MetaTwoKeys", history.Filter{MetaEquals: map[string]string{"template_name": "Blog", "locale": "en_US"}}, []string{"p4"}, 0},
		{"MetaTwoKeysNoMatch", history.Filter{MetaEquals: map[string]string{"template_name": "Landing", "locale": "de_DE"}}, nil, 0},
		{"EmptyMetaMap", history.Filter{MetaEquals: map[string]string{}}, []string{"m1", "p4", "t2", "p1", "u1", "p3", "t1", "p2", "c1"}, 0},
		{"TypeAndMeta", history.Filter{ContentType: history.TypeTerm, MetaEquals: map[string]string{"locale": "en_US"}}, []string{"t2"}, 0},
		{"Everything", history.Filter{
			ContentType:     history.TypePost,
			ContentSubtypes: []string{"post", "product", "page"},
			ContentIDs:      []int64{1, 2, 4, 10},
			MetaEquals:      map[string]string{"has_featured_image": "true"},
		}, []string{"p4", "p1"}, 0},
		{"FilterThenPage", history.Filter{ContentType: history.TypePost, Offset: 1, Limit: 2}, []string{"p1", "p3"}, 4},
		{"FilterThenPagePastEnd", history.Filter{MetaEquals: map[string]string{"locale": "de_DE"}, Offset: 3}, nil, 3},
		{"EverythingThenPage", history.Filter{
			ContentType: history.TypePost,
			ContentIDs:  []int64{1, 2, 3, 4},
			MetaEquals:  map[string]string{"has_featured_image": "true"},
			Offset:      1,
			Limit:       1,
		}, []string{"p1"}, 2},
	}
	tests := make([]test, 0, len(cases))
	for _, c := range cases {
		tests = append(tests, test{c.name, func(t *testing.T, f *fixture) {
			byName := addFilterFixture(t, f)
			got, total := f.list(t, c.filter)
			wantTotal := c.total
			if c.filter.Offset == 0 && c.filter.Limit == 0 {
				wantTotal = len(c.want)
			}
			require.Equal(t, wantTotal, total, "total of %+v", c.filter)
			names := make([]string, len(got))
			for i, e := range got {
				names[i] = byName[e.ID]
			}
			if len(c.want) == 0 {
				require.Empty(t, names, "entries of %+v", c.filter)
				return
			}
			require.Equal(t, c.want, names, "entries of %+v", c.filter)
		}})
	}
	return tests
}

// addFilterFixture adds filterFixture to the store and returns the name of
// each entry by ID.
func addFilterFixture(t *testing.T, f *fixture) map[string]string {
	t.Helper()
	in := make([]history.Entry, len(filterFixture))
	for i, x := range filterFixture {
		in[i] = history.Entry{ContentType: x.typ, ContentSubtype: x.sub, ContentID: x.id, CreatedAt: at(x.minutes), Meta: x.meta}
	}
	// Two batches, so that batch boundaries play no part.
	f.add(t, in[:4]...)
	f.add(t, in[4:]...)
	byName := make(map[string]string, len(in))
	for i, e := range in {
		byName[e.ID] = filterFixture[i].name
	}
	return byName
}
