package templatetest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/templates"
)

// storeTests check the contract of templates.Store itself.
var storeTests = []struct {
	name string
	fn   func(t *testing.T, s templates.Store)
}{
	{"InsertAndGet", testStoreInsertAndGet},
	{"List", testStoreList},
	{"Put", testStorePut},
	{"Delete", testStoreDelete},
	{"NoAliasing", testStoreNoAliasing},
	{"CancelledContext", testStoreCancelledContext},
	{"SyncMark", testSyncMark},
	{"AtomicKeepsWrites", testAtomicKeepsWrites},
	{"AtomicUndoesWrites", testAtomicUndoesWrites},
	{"AtomicNested", testAtomicNested},
	{"AtomicIsolation", testAtomicIsolation},
}

// record is a template with every stored field set.
func record(name, postType string) templates.Template {
	at := time.Date(2025, 4, 5, 6, 7, 8, 0, time.UTC)
	return templates.Template{
		Name: name, Description: "about " + name, PostType: postType, IsDefault: true, IsSystem: true,
		FieldConfig:    bookConfig(),
		TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeChoose, TermIDs: []int64{3, 4}, CountMin: ptr(1), CountMax: ptr(2)}},
		ParentID:       7, FieldSignature: templates.Signature{"isbn:text!", "price:number"},
		CreatedAt: at, UpdatedAt: at.Add(time.Hour),
	}
}

// requireStored checks that got holds what want does, timestamps compared
// as instants.
func requireStored(t *testing.T, want, got templates.Template, msgAndArgs ...any) {
	t.Helper()
	require.True(t, want.CreatedAt.Equal(got.CreatedAt), "created_at: want %v, got %v", want.CreatedAt, got.CreatedAt)
	require.True(t, want.UpdatedAt.Equal(got.UpdatedAt), "updated_at: want %v, got %v", want.UpdatedAt, got.UpdatedAt)
	want.CreatedAt, want.UpdatedAt, got.CreatedAt, got.UpdatedAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	require.Equal(t, want, got, msgAndArgs...)
}

func insert(t *testing.T, s templates.Store, tpl templates.Template) templates.Template {
	t.Helper()
	out, err := s.Insert(context.Background(), tpl)
	require.NoError(t, err)
	return out
}

func listAll(t *testing.T, s templates.Store) []templates.Template {
	t.Helper()
	list, err := s.List(context.Background(), templates.Filter{})
	require.NoError(t, err)
	return list
}

func testStoreInsertAndGet(t *testing.T, s templates.Store) {
	ctx := context.Background()
	in := record("Books", "book")
	in.ID = 12345
	in.LinkedParents = []templates.LinkedParent{{ID: 7, Name: "P", PostType: "book"}}
	a := insert(t, s, in)
	require.Positive(t, a.ID)
	require.NotEqual(t, int64(12345), a.ID, "Insert picks the id")
	want := in
	want.ID, want.LinkedParents = a.ID, nil
	requireStored(t, want, a, "Insert returns the template as stored, without linked_parents")
	got, err := s.Get(ctx, a.ID)
	require.NoError(t, err)
	requireStored(t, want, got)

	// A nil signature (none recorded) differs from an empty one.
	none := insert(t, s, templates.Template{Name: "None", PostType: "book"})
	empty := insert(t, s, templates.Template{Name: "Empty", PostType: "book", FieldSignature: templates.Signature{}})
	require.NotEqual(t, a.ID, none.ID)
	require.NotEqual(t, none.ID, empty.ID)
	got, err = s.Get(ctx, none.ID)
	require.NoError(t, err)
	require.Nil(t, got.FieldSignature)
	require.Empty(t, got.FieldConfig.CustomFields)
	require.Empty(t, got.TaxonomyConfig)
	require.Zero(t, got.ParentID)
	require.False(t, got.IsDefault)
	got, err = s.Get(ctx, empty.ID)
	require.NoError(t, err)
	require.NotNil(t, got.FieldSignature)
	require.Empty(t, got.FieldSignature)

	for _, id := range []int64{0, -1, 999999} {
		_, err := s.Get(ctx, id)
		require.ErrorIs(t, err, templates.ErrNotFound, "id %d", id)
	}

	// Ids are never reused.
	require.NoError(t, s.Delete(ctx, []int64{empty.ID}))
	again := insert(t, s, templates.Template{Name: "Again", PostType: "book"})
	require.NotContains(t, []int64{a.ID, none.ID, empty.ID}, again.ID)
}

func testStoreList(t *testing.T, s templates.Store) {
	ctx := context.Background()
	list, err := s.List(ctx, templates.Filter{})
	require.NoError(t, err)
	require.NotNil(t, list, "an empty list is not nil")
	require.Empty(t, list)

	mk := func(name, postType string, isDefault, isSystem bool) templates.Template {
		return insert(t, s, templates.Template{Name: name, PostType: postType, IsDefault: isDefault, IsSystem: isSystem, FieldConfig: bookConfig()})
	}
	a := mk("A", "book", false, false)
	b := mk("B", "event", true, false)
	c := mk("C", "book", true, false)
	d := mk("D", "book", false, true)
	cases := []struct {
		name string
		f    templates.Filter
		want []int64
	}{
		{"all", templates.Filter{}, []int64{a.ID, b.ID, c.ID, d.ID}},
		{"post type", templates.Filter{PostType: "book"}, []int64{a.ID, c.ID, d.ID}},
		{"user only", templates.Filter{IsSystem: ptr(false)}, []int64{a.ID, b.ID, c.ID}},
		{"system only", templates.Filter{IsSystem: ptr(true)}, []int64{d.ID}},
		{"defaults", templates.Filter{DefaultOnly: true}, []int64{b.ID, c.ID}},
		{"default of book", templates.Filter{PostType: "book", DefaultOnly: true}, []int64{c.ID}},
		{"unknown post type", templates.Filter{PostType: "nope"}, []int64{}},
	}
	for _, tc := range cases {
		list, err := s.List(ctx, tc.f)
		require.NoError(t, err, tc.name)
		require.NotNil(t, list, tc.name)
		require.Equal(t, tc.want, ids(list), "%s: ordered by id", tc.name)
		for _, tpl := range list {
			require.Nil(t, tpl.LinkedParents, tc.name)
			require.Equal(t, bookConfig(), tpl.FieldConfig, "%s: full records", tc.name)
		}
	}
}

func testStorePut(t *testing.T, s templates.Store) {
	ctx := context.Background()
	a := insert(t, s, templates.Template{Name: "A", PostType: "book"})
	b := insert(t, s, templates.Template{Name: "B", PostType: "book"})

	next := record("A2", "book")
	next.ID = a.ID
	next.LinkedParents = []templates.LinkedParent{{ID: 1}}
	require.NoError(t, s.Put(ctx, next))
	got, err := s.Get(ctx, a.ID)
	require.NoError(t, err)
	next.LinkedParents = nil
	requireStored(t, next, got, "Put replaces every stored field")

	next.ParentID, next.FieldSignature, next.TaxonomyConfig = 0, nil, nil
	next.FieldConfig = templates.FieldConfig{}
	require.NoError(t, s.Put(ctx, next))
	got, err = s.Get(ctx, a.ID)
	require.NoError(t, err)
	require.Zero(t, got.ParentID)
	require.Nil(t, got.FieldSignature, "Put can clear the signature")
	require.Empty(t, got.TaxonomyConfig)
	require.Empty(t, got.FieldConfig.CoreFields)
	require.Empty(t, got.FieldConfig.ContentFormat, "Put can clear the content format")

	for _, id := range []int64{0, 999999} {
		err := s.Put(ctx, templates.Template{ID: id, Name: "ghost", PostType: "book"})
		require.ErrorIs(t, err, templates.ErrNotFound, "id %d", id)
	}
	require.Equal(t, []int64{a.ID, b.ID}, ids(listAll(t, s)), "a failed Put stores nothing")
	got, err = s.Get(ctx, b.ID)
	require.NoError(t, err)
	require.Equal(t, "B", got.Name, "Put changes no other template")
}

func testStoreDelete(t *testing.T, s templates.Store) {
	ctx := context.Background()
	a := insert(t, s, templates.Template{Name: "A", PostType: "book"})
	b := insert(t, s, templates.Template{Name: "B", PostType: "book", ParentID: a.ID})
	c := insert(t, s, templates.Template{Name: "C", PostType: "book"})
	d := insert(t, s, templates.Template{Name: "D", PostType: "event"})

	require.NoError(t, s.Delete(ctx, nil))
	require.NoError(t, s.Delete(ctx, []int64{}))
	require.Len(t, listAll(t, s), 4, "nil and empty ids delete nothing")

	require.NoError(t, s.Delete(ctx, []int64{a.ID, 999999}))
	require.Equal(t, []int64{b.ID, c.ID, d.ID}, ids(listAll(t, s)), "unknown ids are ignored; variants are not the store's business")
	_, err := s.Get(ctx, a.ID)
	require.ErrorIs(t, err, templates.ErrNotFound)
	require.NoError(t, s.Delete(ctx, []int64{a.ID}), "deleting again is not an error")

	require.NoError(t, s.Delete(ctx, []int64{d.ID, b.ID, b.ID}))
	require.Equal(t, []int64{c.ID}, ids(listAll(t, s)))
}

func testStoreNoAliasing(t *testing.T, s templates.Store) {
	ctx := context.Background()
	in := record("Books", "book")
	a, err := s.Insert(ctx, in)
	require.NoError(t, err)
	in.FieldConfig.CustomFields["price"] = templates.FieldSetting{Mode: templates.ModeNone}
	in.FieldConfig.CustomFields["format"].Choose.Values[0] = "changed"
	in.TaxonomyConfig["genre"].TermIDs[0] = 99
	in.FieldSignature[0] = "changed"
	a.FieldConfig.CustomFields["new"] = templates.FieldSetting{Mode: templates.ModeNone}
	a.TaxonomyConfig["genre"].TermIDs[1] = 98
	a.FieldSignature[1] = "changed"

	want := record("Books", "book")
	want.ID = a.ID
	got, err := s.Get(ctx, a.ID)
	require.NoError(t, err)
	requireStored(t, want, got, "the store copies what it is given and what it returns from Insert")

	got.FieldConfig.CoreFields["post_title"] = templates.FieldSetting{Mode: templates.ModeNone}
	got.TaxonomyConfig["genre"].TermIDs[0] = 97
	got.FieldSignature[0] = "changed"
	list := listAll(t, s)
	requireStored(t, want, list[0], "Get returns a copy")
	list[0].FieldConfig.CustomFields["price"].Create.Min = ptr(1000.0)
	list[0].TaxonomyConfig["genre"].TermIDs[0] = 96

	put := record("Books", "book")
	put.ID = a.ID
	put.Description = "put"
	require.NoError(t, s.Put(ctx, put))
	put.FieldConfig.CoreFields["post_title"] = templates.FieldSetting{Mode: templates.ModeNone}
	put.TaxonomyConfig["genre"].TermIDs[0] = 95
	put.FieldSignature[0] = "changed"
	got, err = s.Get(ctx, a.ID)
	require.NoError(t, err)
	want.Description = "put"
	requireStored(t, want, got, "List returns copies and Put copies what it is given")

	err = s.Atomic(ctx, func(ctx context.Context, tx templates.Store) error {
		in, err := tx.Get(ctx, a.ID)
		if err != nil {
			return err
		}
		in.FieldConfig.CustomFields["format"].Choose.Values[1] = "changed"
		in.TaxonomyConfig["genre"].TermIDs[1] = 94
		return nil
	})
	require.NoError(t, err)
	got, err = s.Get(ctx, a.ID)
	require.NoError(t, err)
	requireStored(t, want, got, "the store of a unit returns copies too")
}

func testStoreCancelledContext(t *testing.T, s templates.Store) {
	a := insert(t, s, templates.Template{Name: "A", PostType: "book"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	calls := map[string]func() error{
		"Get":         func() error { _, err := s.Get(ctx, a.ID); return err },
		"List":        func() error { _, err := s.List(ctx, templates.Filter{}); return err },
		"Insert":      func() error { _, err := s.Insert(ctx, templates.Template{Name: "x", PostType: "book"}); return err },
		"Put":         func() error { return s.Put(ctx, templates.Template{ID: a.ID, Name: "changed", PostType: "book"}) },
		"Delete":      func() error { return s.Delete(ctx, []int64{a.ID}) },
		"SyncMark":    func() error { _, err := s.SyncMark(ctx); return err },
		"SetSyncMark": func() error { return s.SetSyncMark(ctx, templates.SyncMark{SeenAt: time.Now()}) },
		"Atomic": func() error {
			return s.Atomic(ctx, func(context.Context, templates.Store) error { ran = true; return nil })
		},
	}
	for name, call := range calls {
		require.ErrorIs(t, call(), context.Canceled, name)
	}
	require.False(t, ran, "Atomic does not run fn under a done context")
	list := listAll(t, s)
	require.Len(t, list, 1, "nothing changed under a cancelled context")
	require.Equal(t, "A", list[0].Name)
	mark, err := s.SyncMark(context.Background())
	require.NoError(t, err)
	require.True(t, mark.SeenAt.IsZero())
}

func testSyncMark(t *testing.T, s templates.Store) {
	ctx := context.Background()
	m, err := s.SyncMark(ctx)
	require.NoError(t, err)
	require.True(t, m.SeenAt.IsZero())
	require.Empty(t, m.Signatures)

	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	sig := templates.Signature{"isbn:text!", "price:number"}
	require.NoError(t, s.SetSyncMark(ctx, templates.SyncMark{Signatures: map[string]templates.Signature{"book": sig}, SeenAt: at}))
	sig[0] = "changed"
	m, err = s.SyncMark(ctx)
	require.NoError(t, err)
	require.True(t, at.Equal(m.SeenAt))
	require.Equal(t, templates.Signature{"isbn:text!", "price:number"}, m.Signatures["book"], "the mark is copied in")
	m.Signatures["book"][0] = "changed"
	m2, err := s.SyncMark(ctx)
	require.NoError(t, err)
	require.Equal(t, "isbn:text!", m2.Signatures["book"][0], "the mark is copied out")

	require.NoError(t, s.SetSyncMark(ctx, templates.SyncMark{Signatures: map[string]templates.Signature{"event": {}}, SeenAt: at.Add(time.Hour)}))
	m, err = s.SyncMark(ctx)
	require.NoError(t, err)
	require.True(t, at.Add(time.Hour).Equal(m.SeenAt))
	require.Equal(t, map[string]templates.Signature{"event": {}}, m.Signatures, "a new mark replaces the old one")

	require.NoError(t, s.SetSyncMark(ctx, templates.SyncMark{}))
	m, err = s.SyncMark(ctx)
	require.NoError(t, err)
	require.True(t, m.SeenAt.IsZero(), "the zero mark clears it")
	require.Empty(t, m.Signatures)
}

// unitWrites writes through tx one of each kind: it inserts "new", renames
// a to "renamed", deletes b and sets the sync mark. It returns the new id.
func unitWrites(ctx context.Context, tx templates.Store, a, b int64) (int64, error) {
	n, err := tx.Insert(ctx, templates.Template{Name: "new", PostType: "book"})
	if err != nil {
		return 0, err
	}
	t, err := tx.Get(ctx, a)
	if err != nil {
		return 0, err
	}
	t.Name = "renamed"
	if err := tx.Put(ctx, t); err != nil {
		return 0, err
	}
	if err := tx.Delete(ctx, []int64{b}); err != nil {
		return 0, err
	}
	return n.ID, tx.SetSyncMark(ctx, templates.SyncMark{SeenAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)})
}

func testAtomicKeepsWrites(t *testing.T, s templates.Store) {
	ctx := context.Background()
	a := insert(t, s, templates.Template{Name: "A", PostType: "book"})
	b := insert(t, s, templates.Template{Name: "B", PostType: "book"})
	var n int64
	err := s.Atomic(ctx, func(ctx context.Context, tx templates.Store) error {
		var err error
		if n, err = unitWrites(ctx, tx, a.ID, b.ID); err != nil {
			return err
		}
		// The unit reads its own writes.
		got, err := tx.Get(ctx, a.ID)
		require.NoError(t, err)
		require.Equal(t, "renamed", got.Name)
		_, err = tx.Get(ctx, b.ID)
		require.ErrorIs(t, err, templates.ErrNotFound)
		list, err := tx.List(ctx, templates.Filter{PostType: "book"})
		require.NoError(t, err)
		require.Equal(t, []int64{a.ID, n}, ids(list))
		m, err := tx.SyncMark(ctx)
		require.NoError(t, err)
		require.False(t, m.SeenAt.IsZero())
		require.ErrorIs(t, tx.Put(ctx, templates.Template{ID: b.ID}), templates.ErrNotFound)
		return nil
	})
	require.NoError(t, err)
	list := listAll(t, s)
	require.Equal(t, []int64{a.ID, n}, ids(list), "a unit's writes are kept")
	require.Equal(t, "renamed", list[0].Name)
	m, err := s.SyncMark(ctx)
	require.NoError(t, err)
	require.False(t, m.SeenAt.IsZero())
}

func testAtomicUndoesWrites(t *testing.T, s templates.Store) {
	a := insert(t, s, templates.Template{Name: "A", PostType: "book"})
	b := insert(t, s, templates.Template{Name: "B", PostType: "book"})
	errBoom := errors.New("boom")
	requireUnchanged := func(name string) {
		t.Helper()
		list := listAll(t, s)
		require.Equal(t, []int64{a.ID, b.ID}, ids(list), "%s: no write is kept", name)
		require.Equal(t, "A", list[0].Name, name)
		m, err := s.SyncMark(context.Background())
		require.NoError(t, err)
		require.True(t, m.SeenAt.IsZero(), name)
	}

	err := s.Atomic(context.Background(), func(ctx context.Context, tx templates.Store) error {
		if _, err := unitWrites(ctx, tx, a.ID, b.ID); err != nil {
			return err
		}
		return fmt.Errorf("wrapped: %w", errBoom)
	})
	require.ErrorIs(t, err, errBoom, "fn's error is returned")
	requireUnchanged("error")

	require.PanicsWithValue(t, "boom", func() {
		_ = s.Atomic(context.Background(), func(ctx context.Context, tx templates.Store) error {
			if _, err := unitWrites(ctx, tx, a.ID, b.ID); err != nil {
				return err
			}
			panic("boom")
		})
	}, "a panic goes on")
	requireUnchanged("panic")

	ctx, cancel := context.WithCancel(context.Background())
	err = s.Atomic(ctx, func(ctx context.Context, tx templates.Store) error {
		if _, err := unitWrites(ctx, tx, a.ID, b.ID); err != nil {
			return err
		}
		cancel()
		return nil
	})
	require.ErrorIs(t, err, context.Canceled)
	requireUnchanged("cancelled")

	// The store stays usable after all that.
	c := insert(t, s, templates.Template{Name: "C", PostType: "book"})
	require.Greater(t, c.ID, b.ID)
}

func testAtomicNested(t *testing.T, s templates.Store) {
	ctx := context.Background()
	a := insert(t, s, templates.Template{Name: "A", PostType: "book"})
	errInner := errors.New("inner")
	err := s.Atomic(ctx, func(ctx context.Context, tx templates.Store) error {
		if _, err := tx.Insert(ctx, templates.Template{Name: "outer", PostType: "book"}); err != nil {
			return err
		}
		err := tx.Atomic(ctx, func(ctx context.Context, in templates.Store) error {
			if _, err := in.Insert(ctx, templates.Template{Name: "inner", PostType: "book"}); err != nil {
				return err
			}
			if err := in.Delete(ctx, []int64{a.ID}); err != nil {
				return err
			}
			return errInner
		})
		require.ErrorIs(t, err, errInner)
		list, err := tx.List(ctx, templates.Filter{})
		require.NoError(t, err)
		require.Len(t, list, 2, "the failed nested unit is undone, the outer one goes on")
		return nil
	})
	require.NoError(t, err)
	names := []string{}
	for _, tpl := range listAll(t, s) {
		names = append(names, tpl.Name)
	}
	require.Equal(t, []string{"A", "outer"}, names)

	err = s.Atomic(ctx, func(ctx context.Context, tx templates.Store) error {
		err := tx.Atomic(ctx, func(ctx context.Context, in templates.Store) error {
			_, err := in.Insert(ctx, templates.Template{Name: "kept inside", PostType: "book"})
			return err
		})
		require.NoError(t, err)
		return errInner
	})
	require.ErrorIs(t, err, errInner)
	require.Len(t, listAll(t, s), 2, "a kept nested unit is undone with its outer unit")
}

func testAtomicIsolation(t *testing.T, s templates.Store) {
	ctx := context.Background()
	counter := insert(t, s, templates.Template{Name: "counter", Description: "0", PostType: "book"})
	left := insert(t, s, templates.Template{Name: "left", Description: "0", PostType: "pair"})
	right := insert(t, s, templates.Template{Name: "right", Description: "0", PostType: "pair"})

	const workers, rounds = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, 4*workers*rounds)
	inserted := make(chan int64, workers*rounds)
	for w := range workers {
		wg.Add(2)
		go func() { // read, then write what was read plus one
			defer wg.Done()
			for range rounds {
				errs <- s.Atomic(ctx, func(ctx context.Context, tx templates.Store) error {
					c, err := tx.Get(ctx, counter.ID)
					if err != nil {
						return err
					}
					n, err := strconv.Atoi(c.Description)
					if err != nil {
						return err
					}
					c.Description = strconv.Itoa(n + 1)
					if err := tx.Put(ctx, c); err != nil {
						return err
					}
					p, err := tx.Get(ctx, left.ID)
					if err != nil {
						return err
					}
					p.Description = fmt.Sprint(w, "-", n)
					if err := tx.Put(ctx, p); err != nil {
						return err
					}
					p, err = tx.Get(ctx, right.ID)
					if err != nil {
						return err
					}
					p.Description = fmt.Sprint(w, "-", n)
					return tx.Put(ctx, p)
				})
			}
		}()
		go func() { // read outside units and insert concurrently
			defer wg.Done()
			for range rounds {
				list, err := s.List(ctx, templates.Filter{PostType: "pair"})
				if err == nil && (len(list) != 2 || list[0].Description != list[1].Description) {
					err = fmt.Errorf("a read saw part of a unit: %+v", list)
				}
				errs <- err
				tpl, err := s.Insert(ctx, templates.Template{Name: "x", PostType: "book"})
				errs <- err
				inserted <- tpl.ID
			}
		}()
	}
	wg.Wait()
	close(errs)
	close(inserted)
	for err := range errs {
		require.NoError(t, err)
	}
	got, err := s.Get(ctx, counter.ID)
	require.NoError(t, err)
	require.Equal(t, strconv.Itoa(workers*rounds), got.Description, "concurrent units never lose each other's writes")
	seen := map[int64]bool{counter.ID: true, left.ID: true, right.ID: true}
	for id := range inserted {
		require.False(t, seen[id], "ids are unique under concurrent inserts")
		seen[id] = true
	}
}
