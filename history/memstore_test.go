package history_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/history/historytest"
)

func TestMemStore(t *testing.T) {
	historytest.RunWithClock(t, func(_ *testing.T, now func() time.Time) history.Store {
		return history.NewMemStore(now)
	})
}

// TestMemStoreIDsAreRandomUUIDs checks that the IDs of a batch, made from
// one read of the random source, are distinct version 4 UUIDs.
func TestMemStoreIDsAreRandomUUIDs(t *testing.T) {
	s := history.NewMemStore(nil)
	entries := make([]history.Entry, 50)
	for i := range entries {
		entries[i] = history.Entry{ContentType: history.TypePost, ContentID: int64(i + 1)}
	}
	require.NoError(t, s.Add(context.Background(), entries))
	seen := map[string]bool{}
	for _, e := range entries {
		u, err := uuid.Parse(e.ID)
		require.NoError(t, err)
		require.Equal(t, uuid.Version(4), u.Version(), e.ID)
		require.Equal(t, uuid.RFC4122, u.Variant(), e.ID)
		require.Equal(t, u.String(), e.ID, "IDs are in the canonical form")
		require.False(t, seen[e.ID], "IDs are distinct")
		seen[e.ID] = true
	}
}

// TestMemStoreAdopt runs the suite against Adopt: the Add of adopting
// hands the store copies that the suite's entries do not share.
func TestMemStoreAdopt(t *testing.T) {
	historytest.RunWithClock(t, func(_ *testing.T, now func() time.Time) history.Store {
		return adopting{history.NewMemStore(now)}
	})
}

// adopting is a MemStore whose Add adopts copies of the entries and
// writes the assigned IDs and times back, as Add does.
type adopting struct{ *history.MemStore }

func (s adopting) Add(ctx context.Context, entries []history.Entry) error {
	own := make([]history.Entry, len(entries))
	for i, e := range entries {
		own[i] = e
		if e.Meta != nil {
			own[i].Meta = deepCopy(e.Meta).(map[string]any)
		}
	}
	if err := s.Adopt(ctx, own); err != nil {
		return err
	}
	for i := range entries {
		entries[i].ID, entries[i].CreatedAt = own[i].ID, own[i].CreatedAt
	}
	return nil
}

// deepCopy copies the lists and maps of a meta value.
func deepCopy(v any) any {
	switch v := v.(type) {
	case []string:
		return append(make([]string, 0, len(v)), v...)
	case []any:
		out := make([]any, len(v))
		for i := range v {
			out[i] = deepCopy(v[i])
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = deepCopy(x)
		}
		return out
	}
	return v
}

// TestMemStoreLookupsBetweenAdds: entries are found by ID, and deleted
// by ID, whatever Adds, Gets and Deletes came between.
func TestMemStoreLookupsBetweenAdds(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := history.NewMemStore(nil)
	var live, gone []history.Entry
	for round := range 6 {
		batch := make([]history.Entry, 1+round*230) // across chunks of the store
		for i := range batch {
			batch[i] = history.Entry{ContentType: history.TypePost, ContentID: int64(10000*round + i)}
		}
		require.NoError(t, s.Add(ctx, batch))
		live = append(live, batch...)
		if round%2 == 1 {
			// Every third entry goes.
			var ids []string
			kept := live[:0]
			for i, e := range live {
				if i%3 == 0 {
					ids = append(ids, e.ID)
					gone = append(gone, e)
				} else {
					kept = append(kept, e)
				}
			}
			n, err := s.Delete(ctx, ids...)
			require.NoError(t, err)
			require.Equal(t, len(ids), n)
			live = kept
		}
		for _, e := range live {
			got, err := s.Get(ctx, e.ID)
			require.NoError(t, err)
			require.Equal(t, e.ContentID, got.ContentID)
		}
		for _, e := range gone {
			_, err := s.Get(ctx, e.ID)
			require.ErrorIs(t, err, history.ErrNotFound)
		}
	}
	_, total, err := s.List(ctx, history.Filter{})
	require.NoError(t, err)
	require.Equal(t, len(live), total)
}

func TestMemStoreWallClock(t *testing.T) {
	historytest.Run(t, func(*testing.T) history.Store {
		return history.NewMemStore(nil)
	})
}

// The suite compares meta by its JSON encoding; MemStore keeps the Go
// types themselves.
func TestMemStoreKeepsMetaTypes(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := history.NewMemStore(nil)
	meta := map[string]any{
		"s": "x", "b": true, "f": 1.5, "i": 3,
		"l": []string{"a", "b"},
		"m": map[string]any{"i": 1, "l": []string{"c"}, "a": []any{"d", 2}},
	}
	in := []history.Entry{{ContentType: history.TypePost, ContentID: 1, Meta: meta}}
	require.NoError(t, s.Add(ctx, in))
	got, err := s.Get(ctx, in[0].ID)
	require.NoError(t, err)
	require.Equal(t, meta, got.Meta)
	got.Meta["m"].(map[string]any)["a"].([]any)[0] = "changed"
	again, err := s.Get(ctx, in[0].ID)
	require.NoError(t, err)
	require.Equal(t, "d", again.Meta["m"].(map[string]any)["a"].([]any)[0], "nested []any is copied too")
}

func TestMetaString(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   any
		want string
	}{
		{nil, ""},
		{"", ""},
		{"de_DE", "de_DE"},
		{true, "true"},
		{false, "false"},
		{0, "0"},
		{-42, "-42"},
		{int64(1) << 40, "1099511627776"},
		{int32(7), "7"},
		{uint8(255), "255"},
		{1.5, "1.5"},
		{3.0, "3"},
		{1e21, "1000000000000000000000"},
		{float32(0.25), "0.25"},
		{json.Number("12"), "12"},
		{json.Number("2.50"), "2.5"},
		{[]string{}, ""},
		{[]string{"category"}, "category"},
		{[]string{"category", "post_tag"}, "category,post_tag"},
		{[]any{"category", "post_tag"}, "category,post_tag"},
		{[]any{"a", 1.0, true}, "a,1,true"},
		{map[string]any{"k": "v"}, ""},
	}
	for _, c := range cases {
		require.Equalf(t, c.want, history.MetaString(c.in), "MetaString(%#v)", c.in)
	}
	// A value decoded from JSON formats as the value encoded.
	for _, c := range cases {
		if _, isMap := c.in.(map[string]any); isMap || c.in == nil {
			continue
		}
		b, err := json.Marshal(c.in)
		require.NoError(t, err)
		var decoded any
		require.NoError(t, json.Unmarshal(b, &decoded))
		require.Equalf(t, c.want, history.MetaString(decoded), "MetaString of %#v after JSON", c.in)
	}
}

func ExampleMemStore() {
	ctx := context.Background()
	clock := func() time.Time { return time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC) }
	s := history.NewMemStore(clock)

	entries := []history.Entry{
		{ContentType: history.TypePost, ContentSubtype: "post", ContentID: 10, Meta: map[string]any{"locale": "de_DE", "has_featured_image": true}},
		{ContentType: history.TypeTerm, ContentSubtype: "category", ContentID: 3},
		{ContentType: history.TypePost, ContentSubtype: "page", ContentID: 11, Meta: map[string]any{"locale": "en_US"}},
	}
	if err := s.Add(ctx, entries); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("IDs assigned:", entries[0].ID != "" && entries[1].ID != entries[0].ID)

	posts, total, err := s.List(ctx, history.Filter{ContentType: history.TypePost})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("posts:", total)
	for _, e := range posts {
		fmt.Println(e.ContentSubtype, e.ContentID, e.Meta["locale"], e.CreatedAt.Format(time.RFC3339))
	}

	featured, _, _ := s.List(ctx, history.Filter{MetaEquals: map[string]string{"has_featured_image": "true"}})
	fmt.Println("featured:", len(featured), featured[0].ContentID)
	// Output:
	// IDs assigned: true
	// posts: 2
	// page 11 en_US 2024-03-01T12:00:00Z
	// post 10 de_DE 2024-03-01T12:00:00Z
	// featured: 1 10
}

// benchEntries returns n post entries with the meta a generated post has.
func benchEntries(n int) []history.Entry {
	entries := make([]history.Entry, n)
	for i := range entries {
		entries[i] = history.Entry{
			ContentType:    history.TypePost,
			ContentSubtype: "post",
			ContentID:      int64(i + 1),
			Meta: map[string]any{
				"locale":              "en_US",
				"template_name":       "Blog",
				"has_featured_image":  i%2 == 0,
				"taxonomies_assigned": []string{"category", "post_tag"},
				"generation_time":     0.25,
			},
		}
	}
	return entries
}

// BenchmarkAdd adds a batch of 500 posts to an empty store.
func BenchmarkAdd(b *testing.B) {
	ctx := b.Context()
	entries := benchEntries(500)
	b.ReportAllocs()
	for b.Loop() {
		s := history.NewMemStore(nil)
		for i := range entries {
			entries[i].CreatedAt = time.Time{}
		}
		if err := s.Add(ctx, entries); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAddFloor is the least Add could cost for 500 entries: one ID
// each and one append to storage, without copying the meta.
func BenchmarkAddFloor(b *testing.B) {
	entries := benchEntries(500)
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		var stored []history.Entry
		for i := range entries {
			entries[i].ID = uuid.NewString()
			entries[i].CreatedAt = now
			stored = append(stored, entries[i])
		}
		if len(stored) != len(entries) {
			b.Fatal("short")
		}
	}
}

// listStore returns a store of 10k entries of every type and the filter
// the list benchmarks use: a page of 50 featured posts, about 1k matches.
func listStore(b *testing.B) (*history.MemStore, history.Filter) {
	b.Helper()
	s := history.NewMemStore(nil)
	entries := benchEntries(10_000)
	for i := range entries {
		entries[i].ContentType = history.Types()[i%len(history.Types())]
		entries[i].CreatedAt = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute)
	}
	if err := s.Add(b.Context(), entries); err != nil {
		b.Fatal(err)
	}
	return s, history.Filter{
		ContentType: history.TypePost,
		MetaEquals:  map[string]string{"has_featured_image": "true"},
		Limit:       50,
	}
}

// BenchmarkListFiltered lists one page of a filtered selection of 10k
// entries.
func BenchmarkListFiltered(b *testing.B) {
	s, f := listStore(b)
	ctx := b.Context()
	entries, total, err := s.List(ctx, f)
	if err != nil || len(entries) != 50 || total != 1000 {
		b.Fatalf("List: %d of %d, %v", len(entries), total, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := s.List(ctx, f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListFilteredFloor is the least a filtered page of 10k entries
// could cost: one pass of Filter.Matches, no sorting and no copies.
func BenchmarkListFilteredFloor(b *testing.B) {
	s, f := listStore(b)
	all, _, err := s.List(b.Context(), history.Filter{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for i := range all {
			if f.Matches(&all[i]) {
				n++
			}
		}
		if n != 1000 {
			b.Fatal(n)
		}
	}
}
