package historytest

import (
	"encoding/json"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/history"
)

func addTests() []test {
	return []test{
		{"AssignsIDsAndWritesThemBack", func(t *testing.T, f *fixture) {
			in := []history.Entry{
				{ContentType: history.TypePost, ContentID: 1, ContentSubtype: "post", CreatedAt: at(1)},
				{ContentType: history.TypeTerm, ContentID: 2, ContentSubtype: "category", CreatedAt: at(2)},
				{ContentType: history.TypeUser, ContentID: 3, ContentSubtype: "author", CreatedAt: at(3)},
			}
			f.add(t, in...)
			more := f.add(t, entry(4, at(4)), entry(5, at(5)))
			all := append(append([]history.Entry{}, in...), more...)
			requireUnique(t, ids(all))
			for _, want := range all {
				requireEntry(t, want, f.get(t, want.ID), "Get returns the entry as added")
			}
			require.ElementsMatch(t, ids(all), ids(f.all(t)))
		}},
		{"ReplacesIDsAlreadySet", func(t *testing.T, f *fixture) {
			// Adding the same slice twice (IDs written back by the first
			// Add) must store new entries, never two entries with one ID.
			in := []history.Entry{entry(1, at(1)), entry(2, at(2))}
			f.add(t, in...)
			first := ids(in)
			f.add(t, in...)
			second := ids(in)
			requireUnique(t, append(append([]string{}, first...), second...))
			all := f.all(t)
			require.Len(t, all, 4)
			require.ElementsMatch(t, append(first, second...), ids(all))

			n, err := f.s.Delete(f.ctx, first...)
			require.NoError(t, err)
			require.Equal(t, 2, n)
			require.ElementsMatch(t, second, ids(f.all(t)), "deleting the first copies keeps the second")
			for _, id := range second {
				f.get(t, id)
			}
		}},
		{"KeepsGivenCreatedAt", func(t *testing.T, f *fixture) {
			zone := time.FixedZone("UTC+2", 2*60*60)
			given := []time.Time{
				at(-90 * 24 * 60),
				time.Date(2024, 3, 2, 1, 30, 0, 0, zone),
				at(0),
			}
			in := make([]history.Entry, len(given))
			for i, c := range given {
				in[i] = entry(int64(i+1), c)
			}
			f.add(t, in...)
			for i, c := range given {
				require.Truef(t, c.Equal(in[i].CreatedAt), "Add keeps the given CreatedAt of entry %d: want %v, got %v", i, c, in[i].CreatedAt)
				got := f.get(t, in[i].ID).CreatedAt
				require.Truef(t, c.Equal(got), "Get returns the given CreatedAt of entry %d: want %v, got %v", i, c, got)
			}
		}},
		{"AssignsCreatedAtWhenZero", func(t *testing.T, f *fixture) {
			if f.clock != nil {
				now := time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC)
				f.clock.Set(now)
				in := f.add(t, entry(1, time.Time{}), entry(2, time.Time{}), entry(3, at(5)))
				for i, e := range in[:2] {
					require.Truef(t, now.Equal(e.CreatedAt), "entry %d: CreatedAt written back is the store's clock: want %v, got %v", i, now, e.CreatedAt)
					got := f.get(t, e.ID).CreatedAt
					require.Truef(t, now.Equal(got), "entry %d: stored CreatedAt is the store's clock: want %v, got %v", i, now, got)
				}
				require.Truef(t, at(5).Equal(in[2].CreatedAt), "a given CreatedAt is kept beside assigned ones")
				return
			}
			before := time.Now().Add(-time.Second)
			in := f.add(t, entry(1, time.Time{}), entry(2, time.Time{}))
			after := time.Now().Add(time.Second)
			for i, e := range in {
				for _, got := range []time.Time{e.CreatedAt, f.get(t, e.ID).CreatedAt} {
					require.Truef(t, !got.Before(before) && !got.After(after),
						"entry %d: assigned CreatedAt %v is not now (between %v and %v)", i, got, before, after)
				}
			}
		}},
		{"Nothing", func(t *testing.T, f *fixture) {
			require.NoError(t, f.s.Add(f.ctx, nil), "adding a nil slice")
			require.NoError(t, f.s.Add(f.ctx, []history.Entry{}), "adding an empty slice")
			require.Empty(t, f.all(t))
			kept := f.add(t, entry(1, at(1)))
			require.NoError(t, f.s.Add(f.ctx, nil))
			require.Equal(t, ids(kept), ids(f.all(t)))
		}},
		{"AllOrNothing", func(t *testing.T, f *fixture) {
			// NaN is a float64 that JSON cannot encode: a store may reject
			// the batch, but then it must store none of it.
			kept := f.add(t, entry(1, at(1)))
			batch := []history.Entry{
				entry(2, at(2)),
				{ContentType: history.TypePost, ContentID: 3, ContentSubtype: "post", CreatedAt: at(3), Meta: map[string]any{"generation_time": math.NaN()}},
				entry(4, at(4)),
			}
			err := f.s.Add(f.ctx, batch)
			all := f.all(t)
			if err != nil {
				require.Equal(t, ids(kept), ids(all), "a failed Add stores none of its entries (error: %v)", err)
				return
			}
			require.Len(t, all, 4, "a successful Add stores every entry")
			for _, e := range batch {
				f.get(t, e.ID)
			}
		}},
		{"CopiesInput", func(t *testing.T, f *fixture) {
			in := f.add(t, history.Entry{
				ContentType: history.TypePost, ContentID: 1, ContentSubtype: "post", CreatedAt: at(1),
				Meta: map[string]any{
					"locale":              "de_DE",
					"taxonomies_assigned": []string{"category", "post_tag"},
					"fields":              map[string]any{"price": "10", "tags": []string{"a"}},
				},
			})
			want := frozen(t, in[0])
			mutateEntry(t, &in[0])
			requireEntry(t, want, f.get(t, in[0].ID), "changing the added entry afterwards does not reach the store")
			require.Equal(t, "de_DE", history.MetaString(want.Meta["locale"]))
			require.Equal(t, "category,post_tag", history.MetaString(want.Meta["taxonomies_assigned"]))
		}},
		{"MetaRoundTrip", func(t *testing.T, f *fixture) {
			meta := map[string]any{
				"locale":                  "de_DE",
				"empty":                   "",
				"has_featured_image":      true,
				"custom_fields_populated": false,
				"generation_time":         1.25,
				"whole_float":             3.0,
				"count":                   42,
				"negative":                -7,
				"taxonomies_assigned":     []string{"category", "post_tag"},
				"no_taxonomies":           []string{},
				"nested": map[string]any{
					"s": "x", "b": true, "f": 0.5, "i": 2,
					"l":    []string{"y", "z"},
					"deep": map[string]any{"k": "v"},
				},
				"unicode": "Grüße, 世界 \"quoted\" \\ back",
			}
			in := f.add(t,
				history.Entry{ContentType: history.TypePost, ContentID: 1, ContentSubtype: "post", CreatedAt: at(1), Meta: meta},
				history.Entry{ContentType: history.TypeComment, ContentID: 2, CreatedAt: at(2)},
				history.Entry{ContentType: history.TypeMedia, ContentID: 3, ContentSubtype: "image", CreatedAt: at(3), Meta: map[string]any{}},
			)
			for _, e := range in {
				requireEntry(t, e, f.get(t, e.ID), "Get returns the entry with its meta")
			}
			listed := f.all(t)
			require.Len(t, listed, 3)
			requireEntry(t, in[0], listed[2], "List returns the entry with its meta")
			got := f.get(t, in[0].ID).Meta
			for k, v := range meta {
				require.Equalf(t, history.MetaString(v), history.MetaString(got[k]), "meta %q formats the same after the round trip", k)
			}
		}},
	}
}

func getTests() []test {
	return []test{
		{"ReturnsEntry", func(t *testing.T, f *fixture) {
			in := f.add(t,
				history.Entry{ContentType: history.TypeTerm, ContentID: 7, ContentSubtype: "post_tag", CreatedAt: at(1), Meta: map[string]any{"locale": "fr_FR"}},
				entry(8, at(2)),
			)
			requireEntry(t, in[0], f.get(t, in[0].ID))
			requireEntry(t, in[1], f.get(t, in[1].ID))
		}},
		{"UnknownIsNotFound", func(t *testing.T, f *fixture) {
			f.add(t, entry(1, at(1)))
			for _, id := range []string{"", "unknown", "0", "1", "-1", "999999999999", "00000000-0000-0000-0000-000000000000", "'; DROP TABLE history; --"} {
				_, err := f.s.Get(f.ctx, id)
				require.Errorf(t, err, "Get(%q)", id)
				require.Truef(t, errors.Is(err, history.ErrNotFound), "Get(%q) returns an error matching history.ErrNotFound, got %v", id, err)
			}
		}},
		{"DeletedIsNotFound", func(t *testing.T, f *fixture) {
			in := f.add(t, entry(1, at(1)))
			_, err := f.s.Delete(f.ctx, in[0].ID)
			require.NoError(t, err)
			_, err = f.s.Get(f.ctx, in[0].ID)
			require.ErrorIs(t, err, history.ErrNotFound)
		}},
		{"ReturnsCopy", func(t *testing.T, f *fixture) {
			in := f.add(t, history.Entry{
				ContentType: history.TypePost, ContentID: 1, ContentSubtype: "post", CreatedAt: at(1),
				Meta: map[string]any{
					"locale":              "de_DE",
					"taxonomies_assigned": []string{"category", "post_tag"},
					"fields":              map[string]any{"price": "10", "tags": []string{"a"}, "deep": map[string]any{"k": []any{"v"}}},
				},
			})
			want := frozen(t, in[0])
			got := f.get(t, in[0].ID)
			mutateEntry(t, &got)
			requireEntry(t, want, f.get(t, in[0].ID), "changing an entry returned by Get does not reach the store")
		}},
	}
}

// mutateEntry changes every part of e that could share memory with a
// store: its fields, its meta map and the lists and maps inside it, at
// any depth.
func mutateEntry(t *testing.T, e *history.Entry) {
	t.Helper()
	e.ContentID++
	e.ContentSubtype += "-changed"
	e.CreatedAt = e.CreatedAt.Add(time.Hour)
	require.NotNil(t, e.Meta, "the entry has meta to change")
	mutateMap(e.Meta)
}

func mutateMap(m map[string]any) {
	for k, v := range m {
		if !mutateContainer(v) {
			m[k] = "changed"
		}
	}
	m["added"] = "changed"
}

// mutateContainer changes the list or map v in place and reports whether
// v was one.
func mutateContainer(v any) bool {
	switch v := v.(type) {
	case []string:
		for i := range v {
			v[i] = "changed"
		}
	case []any:
		for i := range v {
			if !mutateContainer(v[i]) {
				v[i] = "changed"
			}
		}
	case map[string]any:
		mutateMap(v)
	default:
		return false
	}
	return true
}

// frozen returns a copy of e that shares no memory with it.
func frozen(t *testing.T, e history.Entry) history.Entry {
	t.Helper()
	if e.Meta != nil {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(metaJSON(t, e.Meta)), &m))
		e.Meta = m
	}
	return e
}
