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
	"github.com/contentgen/contentgen/templates/fields"
)

// libraryTests are the behaviour tests of a templates.Library over the
// store under test.
var libraryTests = []struct {
	name string
	fn   func(t *testing.T, l *templates.Library)
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
	{"Stale", testStale},
	{"ExportImport", testExportImport},
}

// suiteTime is the clock of the Library the behaviour tests run.
var suiteTime = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func testCreateAndGet(t *testing.T, l *templates.Library) {
	ctx := context.Background()
	in := templates.Input{
		Name: "Books", Description: "Full book records", PostType: "book",
		FieldConfig: bookConfig(), TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeCreate, CountMin: ptr(1), CountMax: ptr(2)}},
	}
	tpl := create(t, l, in)
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

	got := get(t, l, tpl.ID)
	require.NotNil(t, got.LinkedParents, "single reads carry linked_parents")
	require.Empty(t, got.LinkedParents)
	got.LinkedParents = nil
	require.Equal(t, tpl.ID, got.ID)
	require.Equal(t, in.FieldConfig, got.FieldConfig)
	require.Equal(t, in.TaxonomyConfig, got.TaxonomyConfig)
	require.True(t, tpl.CreatedAt.Equal(got.CreatedAt))

	eff, err := l.Effective(ctx, tpl.ID)
	require.NoError(t, err)
	require.Equal(t, in.FieldConfig, eff.FieldConfig, "a plain template's effective configuration is its own")

	second := create(t, l, templates.Input{Name: "More books", PostType: "book"})
	require.NotEqual(t, tpl.ID, second.ID)

	for _, fn := range []func(int64) error{
		func(id int64) error { _, err := l.Get(ctx, id); return err },
		func(id int64) error { _, err := l.Effective(ctx, id); return err },
		func(id int64) error { _, err := l.Update(ctx, id, templates.Patch{Name: ptr("x")}); return err },
		func(id int64) error { _, err := l.Delete(ctx, id, 0); return err },
		func(id int64) error { _, err := l.SetDefault(ctx, id); return err },
		func(id int64) error { _, err := l.Duplicate(ctx, id); return err },
		func(id int64) error { _, err := l.CreateVariant(ctx, id, templates.Patch{}); return err },
	} {
		require.ErrorIs(t, fn(999999), templates.ErrNotFound)
		for _, id := range []int64{0, -3} {
			err := fn(id)
			requireParam(t, err, "id")
			require.Equal(t, fmt.Sprintf("templates: id must be a positive integer, got %d", id), err.Error())
		}
	}
	_, err = l.Delete(ctx, tpl.ID, -1)
	requireParam(t, err, "new_default_id")
	require.EqualError(t, err, "templates: new_default_id must be a positive integer, got -1")
	get(t, l, tpl.ID)
	_, err = l.Export(ctx, templates.ExportSelection{IDs: []int64{tpl.ID, 0}})
	requireParam(t, err, "ids")
	require.EqualError(t, err, "templates: ids must be positive integers, got 0")
}

func testCreateValidation(t *testing.T, l *templates.Library) {
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
		_, err := l.Create(ctx, tc.in)
		requireParam(t, err, tc.param)
	}
	list, err := l.List(ctx, templates.Filter{})
	require.NoError(t, err)
	require.Empty(t, list, "invalid input stores nothing")
}

func testList(t *testing.T, l *templates.Library) {
	ctx := context.Background()
	a := create(t, l, templates.Input{Name: "A", PostType: "book", FieldConfig: bookConfig()})
	b := create(t, l, templates.Input{Name: "B", PostType: "event", IsDefault: true})
	c := create(t, l, templates.Input{Name: "C", PostType: "book", IsDefault: true})
	sys, err := l.EnsureSystem(ctx, []templates.Input{{Name: "Starter", PostType: "book"}})
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
		list, err := l.List(ctx, tc.f)
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.want, ids(list), tc.name)
		for _, tpl := range list {
			require.Nil(t, tpl.LinkedParents, "%s: lists carry no linked_parents", tc.name)
		}
	}
	list, err := l.List(ctx, templates.Filter{PostType: "book"})
	require.NoError(t, err)
	require.Equal(t, bookConfig(), list[0].FieldConfig, "List returns full records")
}

func testDefaultIsUnique(t *testing.T, l *templates.Library) {
	ctx := context.Background()
	a := create(t, l, templates.Input{Name: "A", PostType: "book", IsDefault: true})
	ev := create(t, l, templates.Input{Name: "E", PostType: "event", IsDefault: true})
	require.True(t, a.IsDefault)
	b := create(t, l, templates.Input{Name: "B", PostType: "book", IsDefault: true})
	require.Equal(t, []int64{b.ID}, defaults(t, l, "book"), "create with is_default unsets the previous default")
	require.Equal(t, []int64{ev.ID}, defaults(t, l, "event"), "other post types keep their default")

	_, err := l.Update(ctx, a.ID, templates.Patch{IsDefault: ptr(true)})
	require.NoError(t, err)
	require.Equal(t, []int64{a.ID}, defaults(t, l, "book"), "update with is_default unsets the previous default")

	got, err := l.SetDefault(ctx, b.ID)
	require.NoError(t, err)
	require.True(t, got.IsDefault)
	require.Equal(t, []int64{b.ID}, defaults(t, l, "book"))
	_, err = l.SetDefault(ctx, b.ID)
	require.NoError(t, err, "setting the default twice is harmless")
	require.Equal(t, []int64{b.ID}, defaults(t, l, "book"))

	_, err = l.Update(ctx, b.ID, templates.Patch{IsDefault: ptr(false)})
	require.NoError(t, err)
	require.Empty(t, defaults(t, l, "book"), "the default can be unset")
}

func testUpdate(t *testing.T, l *templates.Library) {
	ctx := context.Background()
	tpl := create(t, l, templates.Input{Name: "Books", Description: "d", PostType: "book", FieldConfig: bookConfig(),
		TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeNone}}})

	got, err := l.Update(ctx, tpl.ID, templates.Patch{Name: ptr("Novels")})
	require.NoError(t, err)
	require.Equal(t, "Novels", got.Name)
	require.Equal(t, "d", got.Description, "unsent properties keep their value")
	require.Equal(t, bookConfig(), got.FieldConfig)
	require.Equal(t, templates.TaxonomyConfig{"genre": {Mode: templates.ModeNone}}, got.TaxonomyConfig)
	require.False(t, got.UpdatedAt.Before(tpl.UpdatedAt))
	require.True(t, got.CreatedAt.Equal(tpl.CreatedAt), "created_at never changes")

	fc := templates.FieldConfig{CustomFields: map[string]templates.FieldSetting{"isbn": {Mode: templates.ModeNone}}}
	got, err = l.Update(ctx, tpl.ID, templates.Patch{Description: ptr(""), FieldConfig: &fc, TaxonomyConfig: templates.TaxonomyConfig{}})
	require.NoError(t, err)
	require.Empty(t, got.Description)
	require.Equal(t, fc, got.FieldConfig, "a sent field_config replaces the old one")
	require.Empty(t, got.TaxonomyConfig, "an empty taxonomy_config clears it")
	require.Equal(t, "Novels", got.Name)

	_, err = l.Update(ctx, tpl.ID, templates.Patch{PostType: ptr("event")})
	requireParam(t, err, "post_type")
	_, err = l.Update(ctx, tpl.ID, templates.Patch{PostType: ptr("book"), Name: ptr("Same type")})
	require.NoError(t, err, "sending the unchanged post_type is not an error")
	_, err = l.Update(ctx, tpl.ID, templates.Patch{Name: ptr(" ")})
	requireParam(t, err, "name")
	bad := templates.FieldConfig{CoreFields: map[string]templates.FieldSetting{"post_title": {Mode: "x"}}}
	_, err = l.Update(ctx, tpl.ID, templates.Patch{FieldConfig: &bad})
	requireParam(t, err, "field_config.core_fields.post_title.mode")

	final := get(t, l, tpl.ID)
	require.Equal(t, "book", final.PostType)
	require.Equal(t, "Same type", final.Name, "failed updates change nothing")
	require.Equal(t, fc, final.FieldConfig)
}

func testDelete(t *testing.T, l *templates.Library) {
	ctx := context.Background()
	parent := create(t, l, templates.Input{Name: "P", PostType: "book"})
	v1, err := l.CreateVariant(ctx, parent.ID, templates.Patch{})
	require.NoError(t, err)
	v2, err := l.CreateVariant(ctx, v1.ID, templates.Patch{})
	require.NoError(t, err)
	other := create(t, l, templates.Input{Name: "O", PostType: "book"})

	res, err := l.Delete(ctx, v1.ID, 0)
	require.NoError(t, err)
	require.Equal(t, 1, res.VariantsDeleted, "a variant's own variants die with it")
	_, err = l.Get(ctx, v2.ID)
	require.ErrorIs(t, err, templates.ErrNotFound)

	res, err = l.Delete(ctx, parent.ID, 0)
	require.NoError(t, err)
	require.Zero(t, res.VariantsDeleted)
	_, err = l.Get(ctx, parent.ID)
	require.ErrorIs(t, err, templates.ErrNotFound)
	_, err = l.Delete(ctx, parent.ID, 0)
	require.ErrorIs(t, err, templates.ErrNotFound)
	get(t, l, other.ID)
}

func testDeleteNewDefault(t *testing.T, l *templates.Library) {
	ctx := context.Background()
	def := create(t, l, templates.Input{Name: "Default", PostType: "book", IsDefault: true})
	heir := create(t, l, templates.Input{Name: "Heir", PostType: "book"})
	foreign := create(t, l, templates.Input{Name: "Event", PostType: "event"})
	variant, err := l.CreateVariant(ctx, def.ID, templates.Patch{})
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
		_, err := l.Delete(ctx, def.ID, tc.id)
		requireParam(t, err, tc.param)
	}
	get(t, l, def.ID)
	get(t, l, variant.ID)
	require.Equal(t, []int64{def.ID}, defaults(t, l, "book"), "a rejected delete changes nothing")

	res, err := l.Delete(ctx, def.ID, heir.ID)
	require.NoError(t, err)
	require.Equal(t, 1, res.VariantsDeleted)
	require.Equal(t, heir.ID, res.NewDefaultID)
	require.Equal(t, []int64{heir.ID}, defaults(t, l, "book"))

	plain := create(t, l, templates.Input{Name: "Plain", PostType: "book"})
	_, err = l.Delete(ctx, plain.ID, foreign.ID+1000)
	requireParam(t, err, "new_default_id")
	res, err = l.Delete(ctx, plain.ID, 0)
	require.NoError(t, err)
	require.Zero(t, res.NewDefaultID)
	require.Equal(t, []int64{heir.ID}, defaults(t, l, "book"), "deleting a non-default keeps the default")
}

func testDuplicate(t *testing.T, l *templates.Library) {
	ctx := context.Background()
	src := create(t, l, templates.Input{Name: "Books", Description: "d", PostType: "book", IsDefault: true, FieldConfig: bookConfig()})
	dup, err := l.Duplicate(ctx, src.ID)
	require.NoError(t, err)
	require.NotEqual(t, src.ID, dup.ID)
	require.Equal(t, "Books (Copy)", dup.Name)
	require.Equal(t, "d", dup.Description)
	require.Equal(t, "book", dup.PostType)
	require.False(t, dup.IsDefault, "a copy is never default")
	require.Equal(t, bookConfig(), dup.FieldConfig)
	require.Equal(t, []int64{src.ID}, defaults(t, l, "book"), "the original stays default")

	v, err := l.CreateVariant(ctx, src.ID, templates.Patch{Name: ptr("Cheap")})
	require.NoError(t, err)
	vdup, err := l.Duplicate(ctx, v.ID)
	require.NoError(t, err)
	require.Equal(t, "Cheap (Copy)", vdup.Name)
	require.Equal(t, src.ID, vdup.ParentID, "a variant's copy is a variant of the same parent")
}

func testVariants(t *testing.T, l *templates.Library) {
	ctx := context.Background()
	parent := create(t, l, templates.Input{Name: "Books", PostType: "book", FieldConfig: bookConfig(),
		TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeCreate}}})

	plain, err := l.CreateVariant(ctx, parent.ID, templates.Patch{})
	require.NoError(t, err)
	require.Equal(t, "Books (Variant)", plain.Name)
	require.Equal(t, parent.ID, plain.ParentID)
	require.Equal(t, "book", plain.PostType)
	require.False(t, plain.IsDefault)
	require.Empty(t, plain.FieldConfig.CustomFields, "a fresh variant overrides nothing")
	eff, err := l.Effective(ctx, plain.ID)
	require.NoError(t, err)
	require.Equal(t, bookConfig(), eff.FieldConfig)
	require.Equal(t, templates.TaxonomyConfig{"genre": {Mode: templates.ModeCreate}}, eff.TaxonomyConfig)
	require.Equal(t, "Books (Variant)", eff.Name)

	_, err = l.CreateVariant(ctx, parent.ID, templates.Patch{PostType: ptr("event")})
	requireParam(t, err, "post_type")

	// A variant sent the full configuration stores only what differs.
	full := bookConfig()
	full.CustomFields["price"] = templates.FieldSetting{Mode: templates.ModeCreate, Create: &templates.CreateOptions{Min: ptr(1.0), Max: ptr(3.0)}}
	cheap, err := l.CreateVariant(ctx, parent.ID, templates.Patch{Name: ptr("Cheap"), FieldConfig: &full})
	require.NoError(t, err)
	require.Equal(t, map[string]templates.FieldSetting{"price": full.CustomFields["price"]}, cheap.FieldConfig.CustomFields)
	require.Empty(t, cheap.FieldConfig.CoreFields)
	eff, err = l.Effective(ctx, cheap.ID)
	require.NoError(t, err)
	require.Equal(t, full, eff.FieldConfig)

	got := get(t, l, cheap.ID)
	require.Equal(t, []templates.LinkedParent{{ID: parent.ID, Name: "Books", PostType: "book"}}, got.LinkedParents)
	require.Len(t, got.FieldConfig.CustomFields, 1, "single reads show a variant's own overrides")

	// Changing the parent shows through where the variant does not override.
	pfc := bookConfig()
	pfc.CustomFields["isbn"] = templates.FieldSetting{Mode: templates.ModeNone}
	_, err = l.Update(ctx, parent.ID, templates.Patch{FieldConfig: &pfc})
	require.NoError(t, err)
	eff, err = l.Effective(ctx, cheap.ID)
	require.NoError(t, err)
	require.Equal(t, templates.FieldSetting{Mode: templates.ModeNone}, eff.FieldConfig.CustomFields["isbn"])
	require.Equal(t, full.CustomFields["price"], eff.FieldConfig.CustomFields["price"])

	// Updating a variant with its full effective configuration keeps the
	// stored overrides minimal.
	eff.FieldConfig.CustomFields["format"] = templates.FieldSetting{Mode: templates.ModeNone}
	upd, err := l.Update(ctx, cheap.ID, templates.Patch{FieldConfig: &eff.FieldConfig})
	require.NoError(t, err)
	require.Len(t, upd.FieldConfig.CustomFields, 2)
	require.Contains(t, upd.FieldConfig.CustomFields, "format")
	require.Contains(t, upd.FieldConfig.CustomFields, "price")

	// Chains merge root first.
	deeper, err := l.CreateVariant(ctx, cheap.ID, templates.Patch{TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeNone}}})
	require.NoError(t, err)
	eff, err = l.Effective(ctx, deeper.ID)
	require.NoError(t, err)
	require.Equal(t, full.CustomFields["price"], eff.FieldConfig.CustomFields["price"])
	require.Equal(t, templates.TaxonomyConfig{"genre": {Mode: templates.ModeNone}}, eff.TaxonomyConfig)
	got = get(t, l, deeper.ID)
	require.Equal(t, []int64{cheap.ID, parent.ID}, []int64{got.LinkedParents[0].ID, got.LinkedParents[1].ID}, "linked_parents run nearest first")

	res, err := l.Delete(ctx, parent.ID, 0)
	require.NoError(t, err)
	require.Equal(t, 3, res.VariantsDeleted)
	list, err := l.List(ctx, templates.Filter{})
	require.NoError(t, err)
	require.Empty(t, list, "deleting a parent deletes its variants")
}

func testSystemTemplates(t *testing.T, l *templates.Library) {
	ctx := context.Background()
	starters := []templates.Input{
		{Name: "Book starter", PostType: "book", IsDefault: true, FieldConfig: bookConfig()},
		{Name: "Event starter", PostType: "event"},
	}
	first, err := l.EnsureSystem(ctx, starters)
	require.NoError(t, err)
	require.Len(t, first, 2)
	for _, tpl := range first {
		require.True(t, tpl.IsSystem)
	}
	require.True(t, first[0].IsDefault, "a starter may be the default when none exists")
	again, err := l.EnsureSystem(ctx, starters)
	require.NoError(t, err)
	require.Equal(t, ids(first), ids(again), "EnsureSystem is idempotent")

	_, err = l.EnsureSystem(ctx, []templates.Input{{Name: "", PostType: "book"}})
	requireParam(t, err, "name")

	_, err = l.Update(ctx, first[0].ID, templates.Patch{Name: ptr("Mine")})
	requireParam(t, err, "id")
	_, err = l.Delete(ctx, first[0].ID, 0)
	requireParam(t, err, "id")
	require.Equal(t, "Book starter", get(t, l, first[0].ID).Name)

	_, err = l.SetDefault(ctx, first[1].ID)
	require.NoError(t, err, "a system template can become the default")
	dup, err := l.Duplicate(ctx, first[0].ID)
	require.NoError(t, err)
	require.False(t, dup.IsSystem, "a copy of a starter is the user's")
	_, err = l.Update(ctx, dup.ID, templates.Patch{Name: ptr("Mine")})
	require.NoError(t, err)
	v, err := l.CreateVariant(ctx, first[0].ID, templates.Patch{})
	require.NoError(t, err)
	require.False(t, v.IsSystem)

	user := create(t, l, templates.Input{Name: "User default", PostType: "page", IsDefault: true})
	got, err := l.EnsureSystem(ctx, []templates.Input{{Name: "Page starter", PostType: "page", IsDefault: true}})
	require.NoError(t, err)
	require.Len(t, got, 1)
	require.False(t, got[0].IsDefault, "a starter never takes the default from a user template")
	require.Equal(t, []int64{user.ID}, defaults(t, l, "page"))
}

func testNoAliasing(t *testing.T, l *templates.Library) {
	ctx := context.Background()
	in := templates.Input{Name: "Books", PostType: "book", FieldConfig: bookConfig(),
		TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeChoose, TermIDs: []int64{1, 2}}}}
	tpl := create(t, l, in)
	in.FieldConfig.CustomFields["price"] = templates.FieldSetting{Mode: templates.ModeNone}
	in.FieldConfig.CustomFields["format"].Choose.Values[0] = "changed"
	in.TaxonomyConfig["genre"].TermIDs[0] = 99

	tpl.FieldConfig.CustomFields["new"] = templates.FieldSetting{Mode: templates.ModeNone}
	tpl.TaxonomyConfig["genre"].TermIDs[1] = 98

	got := get(t, l, tpl.ID)
	require.Equal(t, bookConfig(), got.FieldConfig, "the store keeps its own copies")
	require.Equal(t, []int64{1, 2}, got.TaxonomyConfig["genre"].TermIDs)
	got.FieldConfig.CoreFields["post_title"] = templates.FieldSetting{Mode: templates.ModeNone}
	list, err := l.List(ctx, templates.Filter{})
	require.NoError(t, err)
	require.Equal(t, bookConfig(), list[0].FieldConfig)
}

func testCancelledContext(t *testing.T, l *templates.Library) {
	tpl := create(t, l, templates.Input{Name: "Books", PostType: "book"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := map[string]func() error{
		"Get":           func() error { _, err := l.Get(ctx, tpl.ID); return err },
		"Effective":     func() error { _, err := l.Effective(ctx, tpl.ID); return err },
		"List":          func() error { _, err := l.List(ctx, templates.Filter{}); return err },
		"Create":        func() error { _, err := l.Create(ctx, templates.Input{Name: "x", PostType: "book"}); return err },
		"Update":        func() error { _, err := l.Update(ctx, tpl.ID, templates.Patch{Name: ptr("y")}); return err },
		"SetDefault":    func() error { _, err := l.SetDefault(ctx, tpl.ID); return err },
		"Duplicate":     func() error { _, err := l.Duplicate(ctx, tpl.ID); return err },
		"CreateVariant": func() error { _, err := l.CreateVariant(ctx, tpl.ID, templates.Patch{}); return err },
		"EnsureSystem": func() error {
			_, err := l.EnsureSystem(ctx, []templates.Input{{Name: "s", PostType: "book"}})
			return err
		},
		"Delete":   func() error { _, err := l.Delete(ctx, tpl.ID, 0); return err },
		"Stale":    func() error { _, err := l.Stale(ctx, map[string]templates.Signature{"book": {}}); return err },
		"Status":   func() error { _, err := l.Status(ctx, map[string]templates.Signature{"book": {}}); return err },
		"MarkSeen": func() error { _, err := l.MarkSeen(ctx, map[string]templates.Signature{"book": {}}); return err },
		"Export":   func() error { _, err := l.Export(ctx, templates.ExportSelection{}); return err },
		"Import": func() error {
			_, err := l.Import(ctx, []templates.ImportItem{{Template: templates.ExportedTemplate{Name: "i", PostType: "book"}}})
			return err
		},
	}
	for name, call := range calls {
		require.ErrorIs(t, call(), context.Canceled, name)
	}
	list, err := l.List(context.Background(), templates.Filter{})
	require.NoError(t, err)
	require.Len(t, list, 1, "nothing changed under a cancelled context")
	require.Equal(t, "Books", list[0].Name)
	require.False(t, list[0].IsDefault)
	st, err := l.Status(context.Background(), nil)
	require.NoError(t, err)
	require.True(t, st.LastSeen.IsZero(), "no sync mark was recorded")
}

func testConcurrency(t *testing.T, l *templates.Library) {
	ctx := context.Background()
	const n = 24
	var wg sync.WaitGroup
	got := make([]templates.Template, n)
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = l.Create(ctx, templates.Input{Name: fmt.Sprint("T", i), PostType: "book", IsDefault: true})
			if errs[i] == nil {
				_, errs[i] = l.SetDefault(ctx, got[i].ID)
			}
			if errs[i] == nil {
				_, errs[i] = l.List(ctx, templates.Filter{PostType: "book"})
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
	require.Len(t, defaults(t, l, "book"), 1, "exactly one default survives concurrent updates")
}

func testStale(t *testing.T, l *templates.Library) {
	ctx := context.Background()
	v1 := templates.SignatureOf([]fields.Field{{Name: "isbn", Type: "text"}, {Name: "price", Type: "number"}})
	v2 := templates.SignatureOf([]fields.Field{{Name: "isbn", Type: "text", Required: true}, {Name: "pages", Type: "number"}})

	saved := create(t, l, templates.Input{Name: "Books", PostType: "book", FieldSignature: v1})
	unknown := create(t, l, templates.Input{Name: "No signature", PostType: "book"})
	event := create(t, l, templates.Input{Name: "Events", PostType: "event", FieldSignature: templates.Signature{}})
	variant, err := l.CreateVariant(ctx, saved.ID, templates.Patch{})
	require.NoError(t, err)
	_ = unknown

	stale, err := l.Stale(ctx, map[string]templates.Signature{"book": v1, "event": {}})
	require.NoError(t, err)
	require.Empty(t, stale, "unchanged fields make nothing stale")

	current := map[string]templates.Signature{"book": v2, "event": {}}
	stale, err = l.Stale(ctx, current)
	require.NoError(t, err)
	require.Len(t, stale, 2, "the template and its variant, which inherited the signature")
	require.Equal(t, saved.ID, stale[0].ID)
	require.Equal(t, variant.ID, stale[1].ID)
	require.Equal(t, []string{"pages"}, stale[0].AddedFields)
	require.Equal(t, []string{"price"}, stale[0].RemovedFields)
	require.Equal(t, []string{"isbn"}, stale[0].ChangedFields)

	st, err := l.Status(ctx, current)
	require.NoError(t, err)
	require.False(t, st.InSync)
	require.Equal(t, 2, st.StaleCount)
	require.Equal(t, []string{"book"}, st.ChangedPostTypes)
	require.True(t, st.HasUnseenChanges)

	st, err = l.MarkSeen(ctx, current)
	require.NoError(t, err)
	require.False(t, st.HasUnseenChanges, "mark-seen dismisses the notice")
	require.Equal(t, 2, st.StaleCount, "but the templates stay stale until saved")
	require.True(t, time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC).Equal(st.LastSeen), "LastSeen is the clock of MarkSeen, got %v", st.LastSeen)

	// Saving with the current signature brings a template back in sync.
	_, err = l.Update(ctx, saved.ID, templates.Patch{FieldSignature: v2})
	require.NoError(t, err)
	_, err = l.Update(ctx, variant.ID, templates.Patch{FieldSignature: v2})
	require.NoError(t, err)
	st, err = l.Status(ctx, current)
	require.NoError(t, err)
	require.True(t, st.InSync)

	// A further change shows up as unseen again.
	v3 := append(templates.Signature{"author:relationship"}, v2...)
	st, err = l.Status(ctx, map[string]templates.Signature{"book": v3})
	require.NoError(t, err)
	require.True(t, st.HasUnseenChanges)
	require.Equal(t, []string{"book"}, st.UnseenPostTypes)
	_ = event
}

func testExportImport(t *testing.T, l *templates.Library) {
	ctx := context.Background()
	books := create(t, l, templates.Input{Name: "Books", Description: "d", PostType: "book", IsDefault: true, FieldConfig: bookConfig(),
		TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeCreate, CountMin: ptr(1), CountMax: ptr(3), UseExisting: true}}})
	cheapFC := templates.FieldConfig{CustomFields: map[string]templates.FieldSetting{"price": {Mode: templates.ModeNone}}}
	cheap, err := l.CreateVariant(ctx, books.ID, templates.Patch{Name: ptr("Cheap"), FieldConfig: &cheapFC})
	require.NoError(t, err)
	create(t, l, templates.Input{Name: "Events", PostType: "event"})

	at := suiteTime
	exp, err := l.Export(ctx, templates.ExportSelection{PostType: "book"})
	require.NoError(t, err)
	require.Equal(t, "1.0", exp.Version)
	require.Equal(t, 2, exp.Count)
	require.True(t, at.Equal(exp.Exported))
	require.Equal(t, "Cheap", exp.Templates[1].Name)
	require.Equal(t, templates.ModeNone, exp.Templates[1].FieldConfig.CustomFields["price"].Mode, "variants export their effective configuration")
	require.Contains(t, exp.Templates[1].FieldConfig.CustomFields, "format")

	byIDs, err := l.Export(ctx, templates.ExportSelection{IDs: []int64{cheap.ID}, PostType: "event"})
	require.NoError(t, err)
	require.Equal(t, 1, byIDs.Count, "ids win over post_type")
	_, err = l.Export(ctx, templates.ExportSelection{IDs: []int64{999999}})
	require.ErrorIs(t, err, templates.ErrNotFound)

	items := make([]templates.ImportItem, 0, 3)
	for _, et := range exp.Templates {
		items = append(items, templates.ImportItem{Template: et})
	}
	items = append(items, templates.ImportItem{Template: templates.ExportedTemplate{Name: "No type"}})
	res, err := l.Import(ctx, items)
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
		got := get(t, l, r.ID)
		require.Equal(t, exp.Templates[i].Name, got.Name)
		require.Equal(t, exp.Templates[i].FieldConfig, got.FieldConfig)
		require.Equal(t, exp.Templates[i].TaxonomyConfig, got.TaxonomyConfig)
		require.False(t, got.IsDefault, "imports never take the default")
		require.Zero(t, got.ParentID)
	}
	require.Equal(t, []int64{books.ID}, defaults(t, l, "book"))

	// Export, import, export again gives the same templates.
	again, err := l.Export(ctx, templates.ExportSelection{IDs: []int64{res.Results[0].ID, res.Results[1].ID}})
	require.NoError(t, err)
	require.Equal(t, exp.Templates, again.Templates)

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	res, err = l.Import(cctx, items[:1])
	require.True(t, errors.Is(err, context.Canceled))
	require.Equal(t, 0, res.Imported)
}

// libraryStoreTests are behaviour tests that build their own Library over
// the store under test.
var libraryStoreTests = []struct {
	name string
	fn   func(t *testing.T, s templates.Store)
}{
	{"Timestamps", testTimestamps},
}

// clock is a clock tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func testTimestamps(t *testing.T, s templates.Store) {
	ctx := context.Background()
	c := &clock{t: time.Date(2025, 5, 1, 10, 0, 0, 123456789, time.UTC)}
	l := templates.NewLibrary(s, &templates.LibraryOptions{Now: c.Now})
	tpl, err := l.Create(ctx, templates.Input{Name: "Books", PostType: "book"})
	require.NoError(t, err)
	start := time.Date(2025, 5, 1, 10, 0, 0, 0, time.UTC)
	require.True(t, start.Equal(tpl.CreatedAt), "timestamps are kept to the second, got %v", tpl.CreatedAt)
	require.True(t, tpl.CreatedAt.Equal(tpl.UpdatedAt))

	c.Advance(90 * time.Second)
	upd, err := l.Update(ctx, tpl.ID, templates.Patch{Description: ptr("new")})
	require.NoError(t, err)
	require.True(t, start.Equal(upd.CreatedAt), "created_at never changes")
	require.True(t, time.Date(2025, 5, 1, 10, 1, 30, 0, time.UTC).Equal(upd.UpdatedAt))
	got := get(t, l, tpl.ID)
	require.True(t, start.Equal(got.CreatedAt))
	require.True(t, upd.UpdatedAt.Equal(got.UpdatedAt))

	c.Advance(time.Minute)
	dup, err := l.Duplicate(ctx, tpl.ID)
	require.NoError(t, err)
	require.True(t, time.Date(2025, 5, 1, 10, 2, 30, 0, time.UTC).Equal(dup.CreatedAt), "a copy is created now")

	// Losing the default does not count as an update; gaining it does.
	def, err := l.Create(ctx, templates.Input{Name: "Default", PostType: "book", IsDefault: true})
	require.NoError(t, err)
	c.Advance(time.Minute)
	_, err = l.SetDefault(ctx, tpl.ID)
	require.NoError(t, err)
	require.True(t, get(t, l, def.ID).UpdatedAt.Equal(def.UpdatedAt))
	require.True(t, time.Date(2025, 5, 1, 10, 3, 30, 0, time.UTC).Equal(get(t, l, tpl.ID).UpdatedAt))
}
