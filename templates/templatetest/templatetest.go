package templatetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/templates"
)

// Run runs the suite. newStore must return an empty store for each call.
func Run(t *testing.T, newStore func(t *testing.T) templates.Store) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, s templates.Store)
	}{
		{"CreateAndGet", testCreateAndGet},
		{"CreateValidation", testCreateValidation},
		{"List", testList},
		{"DefaultIsUnique", testDefaultIsUnique},
		{"Update", testUpdate},
		{"Delete", testDelete},
		{"DeleteNewDefault", testDeleteNewDefault},
		{"Duplicate", testDuplicate},
		{"Variants", testVariants},
		{"SystemTemplates", testSystemTemplates},
		{"NoAliasing", testNoAliasing},
		{"CancelledContext", testCancelledContext},
		{"Concurrency", testConcurrency},
		{"SyncMark", testSyncMark},
		{"Stale", testStale},
		{"ExportImport", testExportImport},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, newStore(t))
		})
	}
}

func bookConfig() templates.FieldConfig {
	return templates.FieldConfig{
		CoreFields: map[string]templates.FieldSetting{
			"post_title": {Mode: templates.ModeCreate, Create: &templates.CreateOptions{Method: templates.MethodWords, WordCountMin: 3, WordCountMax: 6}},
		},
		CustomFields: map[string]templates.FieldSetting{
			"price":  {Mode: templates.ModeCreate, FieldType: "number", Create: &templates.CreateOptions{Min: ptr(5.0), Max: ptr(50.0), DecimalPlaces: 2}},
			"format": {Mode: templates.ModeChoose, FieldType: "select", Choose: &templates.ChooseOptions{Values: []any{"hardcover", "ebook"}, SelectionMode: templates.SelectionRotate}},
		},
	}
}

func ptr[T any](v T) *T { return &v }

func create(t *testing.T, s templates.Store, in templates.Input) templates.Template {
	t.Helper()
	tpl, err := s.Create(context.Background(), in)
	require.NoError(t, err)
	return tpl
}

func get(t *testing.T, s templates.Store, id int64) templates.Template {
	t.Helper()
	tpl, err := s.Get(context.Background(), id)
	require.NoError(t, err)
	return tpl
}

func requireParam(t *testing.T, err error, param string) {
	t.Helper()
	require.Error(t, err)
	require.ErrorIs(t, err, templates.ErrInvalid)
	var pe *templates.ParamError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, param, pe.Param)
}

func ids(list []templates.Template) []int64 {
	out := []int64{}
	for _, t := range list {
		out = append(out, t.ID)
	}
	return out
}

func defaults(t *testing.T, s templates.Store, postType string) []int64 {
	t.Helper()
	list, err := s.List(context.Background(), templates.Filter{PostType: postType, DefaultOnly: true})
	require.NoError(t, err)
	return ids(list)
}

func testCreateAndGet(t *testing.T, s templates.Store) {
	ctx := context.Background()
	in := templates.Input{
		Name: "Books", Description: "Full book records", PostType: "book",
		FieldConfig: bookConfig(), TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeCreate, CountMin: ptr(1), CountMax: ptr(2)}},
	}
	tpl := create(t, s, in)
	require.Positive(t, tpl.ID)
	require.Equal(t, "Books", tpl.Name)
	require.Equal(t, "Full book records", tpl.Description)
	require.Equal(t, "book", tpl.PostType)
	require.False(t, tpl.IsDefault)
	require.False(t, tpl.IsSystem)
	require.Zero(t, tpl.ParentID)
	require.Equal(t, in.FieldConfig, tpl.FieldConfig)
	require.Equal(t, in.TaxonomyConfig, tpl.TaxonomyConfig)
	require.False(t, tpl.CreatedAt.IsZero())
	require.False(t, tpl.UpdatedAt.Before(tpl.CreatedAt))

	got := get(t, s, tpl.ID)
	require.NotNil(t, got.LinkedParents, "single reads carry linked_parents")
	require.Empty(t, got.LinkedParents)
	got.LinkedParents = nil
	require.Equal(t, tpl.ID, got.ID)
	require.Equal(t, in.FieldConfig, got.FieldConfig)
	require.Equal(t, in.TaxonomyConfig, got.TaxonomyConfig)
	require.True(t, tpl.CreatedAt.Equal(got.CreatedAt))

	eff, err := s.Effective(ctx, tpl.ID)
	require.NoError(t, err)
	require.Equal(t, in.FieldConfig, eff.FieldConfig, "a plain template's effective configuration is its own")

	second := create(t, s, templates.Input{Name: "More books", PostType: "book"})
	require.NotEqual(t, tpl.ID, second.ID)

	for _, fn := range []func(int64) error{
		func(id int64) error { _, err := s.Get(ctx, id); return err },
		func(id int64) error { _, err := s.Effective(ctx, id); return err },
		func(id int64) error { _, err := s.Update(ctx, id, templates.Patch{Name: ptr("x")}); return err },
		func(id int64) error { _, err := s.Delete(ctx, id, 0); return err },
		func(id int64) error { _, err := s.SetDefault(ctx, id); return err },
		func(id int64) error { _, err := s.Duplicate(ctx, id); return err },
		func(id int64) error { _, err := s.CreateVariant(ctx, id, templates.Patch{}); return err },
	} {
		require.ErrorIs(t, fn(999999), templates.ErrNotFound)
	}
}

func testCreateValidation(t *testing.T, s templates.Store) {
	ctx := context.Background()
	cases := []struct {
		name  string
		in    templates.Input
		param string
	}{
		{"missing name", templates.Input{PostType: "book"}, "name"},
		{"blank name", templates.Input{Name: "  ", PostType: "book"}, "name"},
		{"missing post type", templates.Input{Name: "Books"}, "post_type"},
		{"post type with spaces", templates.Input{Name: "Books", PostType: "my books"}, "post_type"},
		{"bad field mode", templates.Input{Name: "B", PostType: "book", FieldConfig: templates.FieldConfig{
			CustomFields: map[string]templates.FieldSetting{"price": {Mode: "random"}}}}, "field_config.custom_fields.price.mode"},
		{"choose without values", templates.Input{Name: "B", PostType: "book", FieldConfig: templates.FieldConfig{
			CustomFields: map[string]templates.FieldSetting{"format": {Mode: templates.ModeChoose}}}}, "field_config.custom_fields.format.choose.values"},
		{"bad taxonomy counts", templates.Input{Name: "B", PostType: "book", TaxonomyConfig: templates.TaxonomyConfig{
			"genre": {Mode: templates.ModeCreate, CountMin: ptr(4), CountMax: ptr(2)}}}, "taxonomy_config.genre.count_max"},
	}
	for _, tc := range cases {
		_, err := s.Create(ctx, tc.in)
		requireParam(t, err, tc.param)
	}
	list, err := s.List(ctx, templates.Filter{})
	require.NoError(t, err)
	require.Empty(t, list, "invalid input stores nothing")
}

func testList(t *testing.T, s templates.Store) {
	ctx := context.Background()
	a := create(t, s, templates.Input{Name: "A", PostType: "book", FieldConfig: bookConfig()})
	b := create(t, s, templates.Input{Name: "B", PostType: "event", IsDefault: true})
	c := create(t, s, templates.Input{Name: "C", PostType: "book", IsDefault: true})
	sys, err := s.EnsureSystem(ctx, []templates.Input{{Name: "Starter", PostType: "book"}})
	require.NoError(t, err)
	require.Len(t, sys, 1)

	cases := []struct {
		name string
		f    templates.Filter
		want []int64
	}{
		{"all", templates.Filter{}, []int64{a.ID, b.ID, c.ID, sys[0].ID}},
		{"post type", templates.Filter{PostType: "book"}, []int64{a.ID, c.ID, sys[0].ID}},
		{"user only", templates.Filter{IsSystem: ptr(false)}, []int64{a.ID, b.ID, c.ID}},
		{"system only", templates.Filter{IsSystem: ptr(true)}, []int64{sys[0].ID}},
		{"defaults", templates.Filter{DefaultOnly: true}, []int64{b.ID, c.ID}},
		{"default of book", templates.Filter{PostType: "book", DefaultOnly: true}, []int64{c.ID}},
		{"unknown post type", templates.Filter{PostType: "nope"}, []int64{}},
	}
	for _, tc := range cases {
		list, err := s.List(ctx, tc.f)
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, ids(list), tc.name)
		for _, tpl := range list {
			require.Nil(t, tpl.LinkedParents, "%s: lists carry no linked_parents", tc.name)
		}
	}
	list, err := s.List(ctx, templates.Filter{PostType: "book"})
	require.NoError(t, err)
	require.Equal(t, bookConfig(), list[0].FieldConfig, "List returns full records")
}

func testDefaultIsUnique(t *testing.T, s templates.Store) {
	ctx := context.Background()
	a := create(t, s, templates.Input{Name: "A", PostType: "book", IsDefault: true})
	ev := create(t, s, templates.Input{Name: "E", PostType: "event", IsDefault: true})
	require.True(t, a.IsDefault)
	b := create(t, s, templates.Input{Name: "B", PostType: "book", IsDefault: true})
	require.Equal(t, []int64{b.ID}, defaults(t, s, "book"), "create with is_default unsets the previous default")
	require.Equal(t, []int64{ev.ID}, defaults(t, s, "event"), "other post types keep their default")

	_, err := s.Update(ctx, a.ID, templates.Patch{IsDefault: ptr(true)})
	require.NoError(t, err)
	require.Equal(t, []int64{a.ID}, defaults(t, s, "book"), "update with is_default unsets the previous default")

	got, err := s.SetDefault(ctx, b.ID)
	require.NoError(t, err)
	require.True(t, got.IsDefault)
	require.Equal(t, []int64{b.ID}, defaults(t, s, "book"))
	_, err = s.SetDefault(ctx, b.ID)
	require.NoError(t, err, "setting the default twice is harmless")
	require.Equal(t, []int64{b.ID}, defaults(t, s, "book"))

	_, err = s.Update(ctx, b.ID, templates.Patch{IsDefault: ptr(false)})
	require.NoError(t, err)
	require.Empty(t, defaults(t, s, "book"), "the default can be unset")
}

func testUpdate(t *testing.T, s templates.Store) {
	ctx := context.Background()
	tpl := create(t, s, templates.Input{Name: "Books", Description: "d", PostType: "book", FieldConfig: bookConfig(),
		TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeNone}}})

	got, err := s.Update(ctx, tpl.ID, templates.Patch{Name: ptr("Novels")})
	require.NoError(t, err)
	require.Equal(t, "Novels", got.Name)
	require.Equal(t, "d", got.Description, "unsent properties keep their value")
	require.Equal(t, bookConfig(), got.FieldConfig)
	require.Equal(t, templates.TaxonomyConfig{"genre": {Mode: templates.ModeNone}}, got.TaxonomyConfig)
	require.False(t, got.UpdatedAt.Before(tpl.UpdatedAt))
	require.True(t, got.CreatedAt.Equal(tpl.CreatedAt), "created_at never changes")

	fc := templates.FieldConfig{CustomFields: map[string]templates.FieldSetting{"isbn": {Mode: templates.ModeNone}}}
	got, err = s.Update(ctx, tpl.ID, templates.Patch{Description: ptr(""), FieldConfig: &fc, TaxonomyConfig: templates.TaxonomyConfig{}})
	require.NoError(t, err)
	require.Empty(t, got.Description)
	require.Equal(t, fc, got.FieldConfig, "a sent field_config replaces the old one")
	require.Empty(t, got.TaxonomyConfig, "an empty taxonomy_config clears it")
	require.Equal(t, "Novels", got.Name)

	_, err = s.Update(ctx, tpl.ID, templates.Patch{PostType: ptr("event")})
	requireParam(t, err, "post_type")
	_, err = s.Update(ctx, tpl.ID, templates.Patch{PostType: ptr("book"), Name: ptr("Same type")})
	require.NoError(t, err, "sending the unchanged post_type is not an error")
	_, err = s.Update(ctx, tpl.ID, templates.Patch{Name: ptr(" ")})
	requireParam(t, err, "name")
	bad := templates.FieldConfig{CoreFields: map[string]templates.FieldSetting{"post_title": {Mode: "x"}}}
	_, err = s.Update(ctx, tpl.ID, templates.Patch{FieldConfig: &bad})
	requireParam(t, err, "field_config.core_fields.post_title.mode")

	final := get(t, s, tpl.ID)
	require.Equal(t, "book", final.PostType)
	require.Equal(t, "Same type", final.Name, "failed updates change nothing")
	require.Equal(t, fc, final.FieldConfig)
}

func testDelete(t *testing.T, s templates.Store) {
	ctx := context.Background()
	parent := create(t, s, templates.Input{Name: "P", PostType: "book"})
	v1, err := s.CreateVariant(ctx, parent.ID, templates.Patch{})
	require.NoError(t, err)
	v2, err := s.CreateVariant(ctx, v1.ID, templates.Patch{})
	require.NoError(t, err)
	other := create(t, s, templates.Input{Name: "O", PostType: "book"})

	res, err := s.Delete(ctx, v1.ID, 0)
	require.NoError(t, err)
	require.Equal(t, 1, res.VariantsDeleted, "a variant's own variants die with it")
	_, err = s.Get(ctx, v2.ID)
	require.ErrorIs(t, err, templates.ErrNotFound)

	res, err = s.Delete(ctx, parent.ID, 0)
	require.NoError(t, err)
	require.Zero(t, res.VariantsDeleted)
	_, err = s.Get(ctx, parent.ID)
	require.ErrorIs(t, err, templates.ErrNotFound)
	_, err = s.Delete(ctx, parent.ID, 0)
	require.ErrorIs(t, err, templates.ErrNotFound)
	get(t, s, other.ID)
}

func testDeleteNewDefault(t *testing.T, s templates.Store) {
	ctx := context.Background()
	def := create(t, s, templates.Input{Name: "Default", PostType: "book", IsDefault: true})
	heir := create(t, s, templates.Input{Name: "Heir", PostType: "book"})
	foreign := create(t, s, templates.Input{Name: "Event", PostType: "event"})
	variant, err := s.CreateVariant(ctx, def.ID, templates.Patch{})
	require.NoError(t, err)

	cases := []struct {
		id    int64
		param string
	}{
		{999999, "new_default_id"},
		{foreign.ID, "new_default_id"},
		{variant.ID, "new_default_id"},
		{def.ID, "new_default_id"},
	}
	for _, tc := range cases {
		_, err := s.Delete(ctx, def.ID, tc.id)
		requireParam(t, err, tc.param)
	}
	get(t, s, def.ID)
	get(t, s, variant.ID)
	require.Equal(t, []int64{def.ID}, defaults(t, s, "book"), "a rejected delete changes nothing")

	res, err := s.Delete(ctx, def.ID, heir.ID)
	require.NoError(t, err)
	require.Equal(t, 1, res.VariantsDeleted)
	require.Equal(t, heir.ID, res.NewDefaultID)
	require.Equal(t, []int64{heir.ID}, defaults(t, s, "book"))

	plain := create(t, s, templates.Input{Name: "Plain", PostType: "book"})
	_, err = s.Delete(ctx, plain.ID, foreign.ID+1000)
	requireParam(t, err, "new_default_id")
	res, err = s.Delete(ctx, plain.ID, 0)
	require.NoError(t, err)
	require.Zero(t, res.NewDefaultID)
	require.Equal(t, []int64{heir.ID}, defaults(t, s, "book"), "deleting a non-default keeps the default")
}

func testDuplicate(t *testing.T, s templates.Store) {
	ctx := context.Background()
	src := create(t, s, templates.Input{Name: "Books", Description: "d", PostType: "book", IsDefault: true, FieldConfig: bookConfig()})
	dup, err := s.Duplicate(ctx, src.ID)
	require.NoError(t, err)
	require.NotEqual(t, src.ID, dup.ID)
	require.Equal(t, "Books (Copy)", dup.Name)
	require.Equal(t, "d", dup.Description)
	require.Equal(t, "book", dup.PostType)
	require.False(t, dup.IsDefault, "a copy is never default")
	require.Equal(t, bookConfig(), dup.FieldConfig)
	require.Equal(t, []int64{src.ID}, defaults(t, s, "book"), "the original stays default")

	v, err := s.CreateVariant(ctx, src.ID, templates.Patch{Name: ptr("Cheap")})
	require.NoError(t, err)
	vdup, err := s.Duplicate(ctx, v.ID)
	require.NoError(t, err)
	require.Equal(t, "Cheap (Copy)", vdup.Name)
	require.Equal(t, src.ID, vdup.ParentID, "a variant's copy is a variant of the same parent")
}

func testVariants(t *testing.T, s templates.Store) {
	ctx := context.Background()
	parent := create(t, s, templates.Input{Name: "Books", PostType: "book", FieldConfig: bookConfig(),
		TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeCreate}}})

	plain, err := s.CreateVariant(ctx, parent.ID, templates.Patch{})
	require.NoError(t, err)
	require.Equal(t, "Books (Variant)", plain.Name)
	require.Equal(t, parent.ID, plain.ParentID)
	require.Equal(t, "book", plain.PostType)
	require.False(t, plain.IsDefault)
	require.Empty(t, plain.FieldConfig.CustomFields, "a fresh variant overrides nothing")
	eff, err := s.Effective(ctx, plain.ID)
	require.NoError(t, err)
	require.Equal(t, bookConfig(), eff.FieldConfig)
	require.Equal(t, templates.TaxonomyConfig{"genre": {Mode: templates.ModeCreate}}, eff.TaxonomyConfig)
	require.Equal(t, "Books (Variant)", eff.Name)

	_, err = s.CreateVariant(ctx, parent.ID, templates.Patch{PostType: ptr("event")})
	requireParam(t, err, "post_type")

	// A variant sent the full configuration stores only what differs.
	full := bookConfig()
	full.CustomFields["price"] = templates.FieldSetting{Mode: templates.ModeCreate, Create: &templates.CreateOptions{Min: ptr(1.0), Max: ptr(3.0)}}
	cheap, err := s.CreateVariant(ctx, parent.ID, templates.Patch{Name: ptr("Cheap"), FieldConfig: &full})
	require.NoError(t, err)
	require.Equal(t, map[string]templates.FieldSetting{"price": full.CustomFields["price"]}, cheap.FieldConfig.CustomFields)
	require.Empty(t, cheap.FieldConfig.CoreFields)
	eff, err = s.Effective(ctx, cheap.ID)
	require.NoError(t, err)
	require.Equal(t, full, eff.FieldConfig)

	got := get(t, s, cheap.ID)
	require.Equal(t, []templates.LinkedParent{{ID: parent.ID, Name: "Books", PostType: "book"}}, got.LinkedParents)
	require.Len(t, got.FieldConfig.CustomFields, 1, "single reads show a variant's own overrides")

	// Changing the parent shows through where the variant does not override.
	pfc := bookConfig()
	pfc.CustomFields["isbn"] = templates.FieldSetting{Mode: templates.ModeNone}
	_, err = s.Update(ctx, parent.ID, templates.Patch{FieldConfig: &pfc})
	require.NoError(t, err)
	eff, err = s.Effective(ctx, cheap.ID)
	require.NoError(t, err)
	require.Equal(t, templates.FieldSetting{Mode: templates.ModeNone}, eff.FieldConfig.CustomFields["isbn"])
	require.Equal(t, full.CustomFields["price"], eff.FieldConfig.CustomFields["price"])

	// Updating a variant with its full effective configuration keeps the
	// stored overrides minimal.
	eff.FieldConfig.CustomFields["format"] = templates.FieldSetting{Mode: templates.ModeNone}
	upd, err := s.Update(ctx, cheap.ID, templates.Patch{FieldConfig: &eff.FieldConfig})
	require.NoError(t, err)
	require.Len(t, upd.FieldConfig.CustomFields, 2)
	require.Contains(t, upd.FieldConfig.CustomFields, "format")
	require.Contains(t, upd.FieldConfig.CustomFields, "price")

	// Chains merge root first.
	deeper, err := s.CreateVariant(ctx, cheap.ID, templates.Patch{TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeNone}}})
	require.NoError(t, err)
	eff, err = s.Effective(ctx, deeper.ID)
	require.NoError(t, err)
	require.Equal(t, full.CustomFields["price"], eff.FieldConfig.CustomFields["price"])
	require.Equal(t, templates.TaxonomyConfig{"genre": {Mode: templates.ModeNone}}, eff.TaxonomyConfig)
	got = get(t, s, deeper.ID)
	require.Equal(t, []int64{cheap.ID, parent.ID}, []int64{got.LinkedParents[0].ID, got.LinkedParents[1].ID}, "linked_parents run nearest first")

	res, err := s.Delete(ctx, parent.ID, 0)
	require.NoError(t, err)
	require.Equal(t, 3, res.VariantsDeleted)
	list, err := s.List(ctx, templates.Filter{})
	require.NoError(t, err)
	require.Empty(t, list, "deleting a parent deletes its variants")
}

func testSystemTemplates(t *testing.T, s templates.Store) {
	ctx := context.Background()
	starters := []templates.Input{
		{Name: "Book starter", PostType: "book", IsDefault: true, FieldConfig: bookConfig()},
		{Name: "Event starter", PostType: "event"},
	}
	first, err := s.EnsureSystem(ctx, starters)
	require.NoError(t, err)
	require.Len(t, first, 2)
	for _, tpl := range first {
		require.True(t, tpl.IsSystem)
	}
	require.True(t, first[0].IsDefault, "a starter may be the default when none exists")
	again, err := s.EnsureSystem(ctx, starters)
	require.NoError(t, err)
	require.Equal(t, ids(first), ids(again), "EnsureSystem is idempotent")

	_, err = s.EnsureSystem(ctx, []templates.Input{{Name: "", PostType: "book"}})
	requireParam(t, err, "name")

	_, err = s.Update(ctx, first[0].ID, templates.Patch{Name: ptr("Mine")})
	requireParam(t, err, "id")
	_, err = s.Delete(ctx, first[0].ID, 0)
	requireParam(t, err, "id")
	require.Equal(t, "Book starter", get(t, s, first[0].ID).Name)

	_, err = s.SetDefault(ctx, first[1].ID)
	require.NoError(t, err, "a system template can become the default")
	dup, err := s.Duplicate(ctx, first[0].ID)
	require.NoError(t, err)
	require.False(t, dup.IsSystem, "a copy of a starter is the user's")
	_, err = s.Update(ctx, dup.ID, templates.Patch{Name: ptr("Mine")})
	require.NoError(t, err)
	v, err := s.CreateVariant(ctx, first[0].ID, templates.Patch{})
	require.NoError(t, err)
	require.False(t, v.IsSystem)

	user := create(t, s, templates.Input{Name: "User default", PostType: "page", IsDefault: true})
	got, err := s.EnsureSystem(ctx, []templates.Input{{Name: "Page starter", PostType: "page", IsDefault: true}})
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.False(t, got[0].IsDefault, "a starter never takes the default from a user template")
	require.Equal(t, []int64{user.ID}, defaults(t, s, "page"))
}

func testNoAliasing(t *testing.T, s templates.Store) {
	ctx := context.Background()
	in := templates.Input{Name: "Books", PostType: "book", FieldConfig: bookConfig(),
		TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeChoose, TermIDs: []int64{1, 2}}}}
	tpl := create(t, s, in)
	in.FieldConfig.CustomFields["price"] = templates.FieldSetting{Mode: templates.ModeNone}
	in.FieldConfig.CustomFields["format"].Choose.Values[0] = "changed"
	in.TaxonomyConfig["genre"].TermIDs[0] = 99

	tpl.FieldConfig.CustomFields["new"] = templates.FieldSetting{Mode: templates.ModeNone}
	tpl.TaxonomyConfig["genre"].TermIDs[1] = 98

	got := get(t, s, tpl.ID)
	require.Equal(t, bookConfig(), got.FieldConfig, "the store keeps its own copies")
	require.Equal(t, []int64{1, 2}, got.TaxonomyConfig["genre"].TermIDs)
	got.FieldConfig.CoreFields["post_title"] = templates.FieldSetting{Mode: templates.ModeNone}
	list, err := s.List(ctx, templates.Filter{})
	require.NoError(t, err)
	require.Equal(t, bookConfig(), list[0].FieldConfig)
}

func testCancelledContext(t *testing.T, s templates.Store) {
	tpl := create(t, s, templates.Input{Name: "Books", PostType: "book"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := map[string]func() error{
		"Get":           func() error { _, err := s.Get(ctx, tpl.ID); return err },
		"Effective":     func() error { _, err := s.Effective(ctx, tpl.ID); return err },
		"List":          func() error { _, err := s.List(ctx, templates.Filter{}); return err },
		"Create":        func() error { _, err := s.Create(ctx, templates.Input{Name: "x", PostType: "book"}); return err },
		"Update":        func() error { _, err := s.Update(ctx, tpl.ID, templates.Patch{Name: ptr("y")}); return err },
		"SetDefault":    func() error { _, err := s.SetDefault(ctx, tpl.ID); return err },
		"Duplicate":     func() error { _, err := s.Duplicate(ctx, tpl.ID); return err },
		"CreateVariant": func() error { _, err := s.CreateVariant(ctx, tpl.ID, templates.Patch{}); return err },
		"EnsureSystem": func() error {
			_, err := s.EnsureSystem(ctx, []templates.Input{{Name: "s", PostType: "book"}})
			return err
		},
		"SyncMark":    func() error { _, err := s.SyncMark(ctx); return err },
		"SetSyncMark": func() error { return s.SetSyncMark(ctx, templates.SyncMark{SeenAt: time.Now()}) },
		"Delete":      func() error { _, err := s.Delete(ctx, tpl.ID, 0); return err },
	}
	for name, call := range calls {
		require.ErrorIs(t, call(), context.Canceled, name)
	}
	list, err := s.List(context.Background(), templates.Filter{})
	require.NoError(t, err)
	require.Len(t, list, 1, "nothing changed under a cancelled context")
	require.Equal(t, "Books", list[0].Name)
	require.False(t, list[0].IsDefault)
	mark, err := s.SyncMark(context.Background())
	require.NoError(t, err)
	require.True(t, mark.SeenAt.IsZero())
}

func testConcurrency(t *testing.T, s templates.Store) {
	ctx := context.Background()
	const n = 24
	var wg sync.WaitGroup
	got := make([]templates.Template, n)
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = s.Create(ctx, templates.Input{Name: fmt.Sprint("T", i), PostType: "book", IsDefault: true})
			if errs[i] == nil {
				_, errs[i] = s.SetDefault(ctx, got[i].ID)
			}
			if errs[i] == nil {
				_, errs[i] = s.List(ctx, templates.Filter{PostType: "book"})
			}
		}()
	}
	wg.Wait()
	seen := map[int64]bool{}
	for i := range got {
		require.NoError(t, errs[i])
		require.False(t, seen[got[i].ID], "ids are unique")
		seen[got[i].ID] = true
	}
	require.Len(t, defaults(t, s, "book"), 1, "exactly one default survives concurrent updates")
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
}

func testStale(t *testing.T, s templates.Store) {
	ctx := context.Background()
	v1 := templates.SignatureOf([]templates.Field{{Name: "isbn", Type: "text"}, {Name: "price", Type: "number"}})
	v2 := templates.SignatureOf([]templates.Field{{Name: "isbn", Type: "text", Required: true}, {Name: "pages", Type: "number"}})

	saved := create(t, s, templates.Input{Name: "Books", PostType: "book", FieldSignature: v1})
	unknown := create(t, s, templates.Input{Name: "No signature", PostType: "book"})
	event := create(t, s, templates.Input{Name: "Events", PostType: "event", FieldSignature: templates.Signature{}})
	variant, err := s.CreateVariant(ctx, saved.ID, templates.Patch{})
	require.NoError(t, err)
	_ = unknown

	stale, err := templates.Stale(ctx, s, map[string]templates.Signature{"book": v1, "event": {}})
	require.NoError(t, err)
	require.Empty(t, stale, "unchanged fields make nothing stale")

	current := map[string]templates.Signature{"book": v2, "event": {}}
	stale, err = templates.Stale(ctx, s, current)
	require.NoError(t, err)
	require.Len(t, stale, 2, "the template and its variant, which inherited the signature")
	require.Equal(t, saved.ID, stale[0].ID)
	require.Equal(t, variant.ID, stale[1].ID)
	require.Equal(t, []string{"pages"}, stale[0].AddedFields)
	require.Equal(t, []string{"price"}, stale[0].RemovedFields)
	require.Equal(t, []string{"isbn"}, stale[0].ChangedFields)

	st, err := templates.Status(ctx, s, current)
	require.NoError(t, err)
	require.False(t, st.InSync)
	require.Equal(t, 2, st.StaleCount)
	require.Equal(t, []string{"book"}, st.ChangedPostTypes)
	require.True(t, st.HasUnseenChanges)

	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	st, err = templates.MarkSeen(ctx, s, current, at)
	require.NoError(t, err)
	require.False(t, st.HasUnseenChanges, "mark-seen dismisses the notice")
	require.Equal(t, 2, st.StaleCount, "but the templates stay stale until saved")
	require.Equal(t, "2025-03-01 12:00:00", st.LastSeen)

	// Saving with the current signature brings a template back in sync.
	_, err = s.Update(ctx, saved.ID, templates.Patch{FieldSignature: v2})
	require.NoError(t, err)
	_, err = s.Update(ctx, variant.ID, templates.Patch{FieldSignature: v2})
	require.NoError(t, err)
	st, err = templates.Status(ctx, s, current)
	require.NoError(t, err)
	require.True(t, st.InSync)

	// A further change shows up as unseen again.
	v3 := append(templates.Signature{"author:relationship"}, v2...)
	st, err = templates.Status(ctx, s, map[string]templates.Signature{"book": v3})
	require.NoError(t, err)
	require.True(t, st.HasUnseenChanges)
	require.Equal(t, []string{"book"}, st.UnseenPostTypes)
	_ = event
}

func testExportImport(t *testing.T, s templates.Store) {
	ctx := context.Background()
	books := create(t, s, templates.Input{Name: "Books", Description: "d", PostType: "book", IsDefault: true, FieldConfig: bookConfig(),
		TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeCreate, CountMin: ptr(1), CountMax: ptr(3), UseExisting: true}}})
	cheapFC := templates.FieldConfig{CustomFields: map[string]templates.FieldSetting{"price": {Mode: templates.ModeNone}}}
	cheap, err := s.CreateVariant(ctx, books.ID, templates.Patch{Name: ptr("Cheap"), FieldConfig: &cheapFC})
	require.NoError(t, err)
	create(t, s, templates.Input{Name: "Events", PostType: "event"})

	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	exp, err := templates.ExportTemplates(ctx, s, templates.ExportSelection{PostType: "book"}, at)
	require.NoError(t, err)
	require.Equal(t, "1.0", exp.Version)
	require.Equal(t, 2, exp.Count)
	require.True(t, at.Equal(exp.Exported))
	require.Equal(t, "Cheap", exp.Templates[1].Name)
	require.Equal(t, templates.ModeNone, exp.Templates[1].FieldConfig.CustomFields["price"].Mode, "variants export their effective configuration")
	require.Contains(t, exp.Templates[1].FieldConfig.CustomFields, "format")

	byIDs, err := templates.ExportTemplates(ctx, s, templates.ExportSelection{IDs: []int64{cheap.ID}, PostType: "event"}, at)
	require.NoError(t, err)
	require.Equal(t, 1, byIDs.Count, "ids win over post_type")
	_, err = templates.ExportTemplates(ctx, s, templates.ExportSelection{IDs: []int64{999999}}, at)
	require.ErrorIs(t, err, templates.ErrNotFound)

	items := make([]templates.ImportItem, 0, 3)
	for _, et := range exp.Templates {
		items = append(items, templates.ImportItem{Template: et})
	}
	items = append(items, templates.ImportItem{Template: templates.ExportedTemplate{Name: "No type"}})
	res, err := templates.ImportTemplates(ctx, s, items, nil)
	require.NoError(t, err)
	require.Equal(t, 2, res.Imported)
	require.Equal(t, 1, res.Failed)
	require.Len(t, res.Results, 3)
	require.False(t, res.Results[2].Success)
	require.Equal(t, "No type", res.Results[2].Name)
	require.Zero(t, res.Results[2].ID)
	require.Equal(t, "templates[2].post_type", res.Results[2].Param)

	for i, r := range res.Results[:2] {
		require.True(t, r.Success)
		got := get(t, s, r.ID)
		require.Equal(t, exp.Templates[i].Name, got.Name)
		require.Equal(t, exp.Templates[i].FieldConfig, got.FieldConfig)
		require.Equal(t, exp.Templates[i].TaxonomyConfig, got.TaxonomyConfig)
		require.False(t, got.IsDefault, "imports never take the default")
		require.Zero(t, got.ParentID)
	}
	require.Equal(t, []int64{books.ID}, defaults(t, s, "book"))

	// Export, import, export again gives the same templates.
	again, err := templates.ExportTemplates(ctx, s, templates.ExportSelection{IDs: []int64{res.Results[0].ID, res.Results[1].ID}}, at)
	require.NoError(t, err)
	require.Equal(t, exp.Templates, again.Templates)

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	res, err = templates.ImportTemplates(cctx, s, items[:1], nil)
	require.True(t, errors.Is(err, context.Canceled))
	require.Equal(t, 0, res.Imported)
}
