package fields_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/templates/fields"
)

func group(key, postType string, names ...string) fields.Group {
	g := fields.Group{Key: key, Title: key, PostTypes: []string{postType}}
	for _, n := range names {
		g.Fields = append(g.Fields, fields.Field{Key: "field_" + n, Name: n, Type: "text"})
	}
	return g
}

// failing is an adapter whose reads fail.
type failing struct{ fields.AdapterInfo }

func (f failing) Info() fields.AdapterInfo { return f.AdapterInfo }
func (failing) PostTypes(context.Context) ([]string, error) {
	return nil, errors.New("boom")
}
func (failing) FieldGroups(context.Context, string) ([]fields.Group, error) {
	return nil, errors.New("boom")
}
func (failing) Relations(context.Context, string) ([]fields.Relation, error) {
	return nil, errors.New("boom")
}

func TestRegistryPrecedence(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	code := fields.NewCodeAdapter(fields.AdapterInfo{Name: "Site code", Slug: "code", Version: "1", Active: true},
		[]fields.Group{group("g_code_book", "book", "isbn_code"), group("g_code_event", "event", "start")},
		[]fields.Relation{{Name: "venue", From: "event", To: []string{"venue"}, Cardinality: fields.ManyToOne}})
	acf := fields.NewCodeAdapter(fields.AdapterInfo{Name: "ACF", Slug: "acf", Version: "6", Active: true, Primary: true},
		[]fields.Group{group("g_acf_book", "book", "isbn", "price")}, nil)
	off := fields.NewCodeAdapter(fields.AdapterInfo{Name: "Old plugin", Slug: "old", Active: false, Primary: true},
		[]fields.Group{group("g_old_book", "book", "legacy")}, nil)
	reg := fields.NewRegistry(code, off, acf, nil)

	infos := reg.Adapters()
	require.Len(t, infos, 3, "inactive adapters are listed, nil ones skipped")
	require.Equal(t, []bool{false, false, true}, []bool{infos[0].Primary, infos[1].Primary, infos[2].Primary},
		"the first active adapter claiming primacy is primary; an inactive one never is")
	p, ok := reg.Primary()
	require.True(t, ok)
	require.Equal(t, "acf", p.Slug)

	book, err := reg.Fields(ctx, "book")
	require.NoError(t, err)
	require.Equal(t, "acf", book.Adapter.Slug, "the primary adapter wins a post type several define")
	require.Equal(t, []string{"isbn", "price"}, fieldNames(book.Fields()))
	require.Equal(t, []string{"code"}, slugs(book.Also))

	event, err := reg.Fields(ctx, "event")
	require.NoError(t, err)
	require.Equal(t, "code", event.Adapter.Slug, "other adapters serve the post types the primary lacks")
	require.Len(t, event.Relations, 1)

	none, err := reg.Fields(ctx, "page")
	require.NoError(t, err)
	require.Empty(t, none.Adapter.Slug)
	require.Empty(t, none.Groups)

	pts, err := reg.PostTypes(ctx)
	require.NoError(t, err)
	require.Equal(t, map[string][]string{"book": {"acf", "code"}, "event": {"code"}}, pts)

	// Without a claim the first active adapter is primary.
	plain := fields.NewRegistry(off, code)
	p, _ = plain.Primary()
	require.Equal(t, "code", p.Slug)
	_, ok = fields.NewRegistry().Primary()
	require.False(t, ok)

	a, ok := reg.Adapter("old")
	require.True(t, ok)
	require.False(t, a.Info().Active)

	broken := fields.NewRegistry(failing{fields.AdapterInfo{Slug: "x", Active: true}})
	_, err = broken.Fields(ctx, "book")
	require.Error(t, err, "adapter errors are returned, not hidden")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = reg.Fields(cctx, "book")
	require.ErrorIs(t, err, context.Canceled)
}

func TestCodeAdapterCopies(t *testing.T) {
	t.Parallel()
	groups := []fields.Group{group("g", "book", "isbn")}
	a := fields.NewCodeAdapter(fields.AdapterInfo{Active: true}, groups, nil)
	require.Equal(t, "code", a.Info().Slug)
	groups[0].Fields[0].Name = "changed"
	got, err := a.FieldGroups(context.Background(), "book")
	require.NoError(t, err)
	require.Equal(t, "isbn", got[0].Fields[0].Name, "the adapter keeps its own copy")
	got[0].Fields[0].Name = "changed again"
	again, _ := a.FieldGroups(context.Background(), "book")
	require.Equal(t, "isbn", again[0].Fields[0].Name)
}

func fieldNames(fs []fields.Field) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

func slugs(infos []fields.AdapterInfo) []string {
	out := []string{}
	for _, i := range infos {
		out = append(out, i.Slug)
	}
	return out
}

func TestDependencies(t *testing.T) {
	t.Parallel()
	defs := []fields.Field{
		{Name: "book_author", Type: "relationship", PostTypes: []string{"author"}, Required: true},
		{Name: "publisher", Type: "post_object", PostTypes: []string{"publisher"}},
		{Name: "speakers", Type: "post_object", Multiple: true, PostTypes: []string{"author"}},
		{Name: "anything", Type: "relationship"},
		{Name: "price", Type: "number"},
		{Name: "series", Type: "taxonomy", Taxonomy: "series"},
	}
	rels := []fields.Relation{
		{Name: "translations", From: "book", To: []string{"book"}, Cardinality: fields.OneToOne},
		{Name: "elsewhere", From: "event", To: []string{"venue"}},
	}
	info := func(pt string) fields.TargetInfo {
		switch pt {
		case "author":
			return fields.TargetInfo{Label: "Author", PluralLabel: "Authors", ExistingCount: 7, TemplateName: "Author starter"}
		case "publisher":
			return fields.TargetInfo{Label: "Publisher", PluralLabel: "Publishers", ExistingCount: 1}
		}
		return fields.TargetInfo{}
	}
	rep := fields.AnalyzeDependencies("book", defs, rels, info)
	require.Equal(t, "book", rep.PostType)
	require.Len(t, rep.Dependencies, 5)
	require.Equal(t, fields.Dependency{
		FieldName: "book_author", FieldType: "relationship", TargetPostTypes: []string{"author"},
		TargetLabels: map[string]string{"author": "Author"}, IsMultiple: true, Source: "field",
		Cardinality: "many_to_many", Required: true,
	}, rep.Dependencies[0])
	require.Equal(t, "many_to_one", rep.Dependencies[1].Cardinality)
	require.False(t, rep.Dependencies[1].IsMultiple)
	require.True(t, rep.Dependencies[2].IsMultiple)
	require.Equal(t, []string{}, rep.Dependencies[3].TargetPostTypes, "no target types means any")
	require.Equal(t, fields.Dependency{
		FieldName: "translations", FieldType: "post", TargetPostTypes: []string{"book"},
		TargetLabels: map[string]string{"book": "book"}, Source: "relation", Cardinality: "one_to_one",
	}, rep.Dependencies[4])

	author := rep.UniqueTargets["author"]
	require.Equal(t, "Authors", author.PluralLabel)
	require.Equal(t, 7, author.ExistingCount)
	require.Equal(t, "Author starter", author.TemplateName)
	require.True(t, author.IsRequired)
	require.Equal(t, []string{"book_author", "speakers"}, author.RequiredByFields)
	pub := rep.UniqueTargets["publisher"]
	require.Empty(t, pub.TemplateName)
	require.False(t, pub.IsRequired)
	require.Len(t, rep.UniqueTargets, 3)
	require.Equal(t, []string{"author", "book", "publisher"}, fields.TargetPostTypes(rep.Dependencies))

	cases := []struct {
		card            string
		batch, existing int
		want            int
	}{
		{fields.ManyToOne, 50, 0, 5},
		{fields.ManyToOne, 50, 5, 0},
		{fields.ManyToMany, 50, 7, 3},
		{fields.OneToOne, 20, 5, 15},
		{fields.OneToMany, 10, 30, 0},
		{fields.ManyToMany, 1, 100, 0},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, fields.RelatedToCreate(tc.card, tc.batch, tc.existing), "%+v", tc)
	}
}

func TestFieldJSON(t *testing.T) {
	t.Parallel()
	f := fields.Field{Key: "field_1", Name: "price", Label: "Price", Type: "number", Required: true, Instructions: "EUR",
		Min: f64(0), Max: f64(10), Step: f64(0.5), DetectedType: "price", Choices: []fields.Choice{{Value: "eur", Label: "Euro"}}}
	require.JSONEq(t, `{"key":"field_1","name":"price","label":"Price","type":"number","required":true,"instructions":"EUR",
		"min":0,"max":10,"step":0.5,"detected_type":"price"}`, mustJSON(t, f), "the spec's detected custom field: no choices")
	require.JSONEq(t, `{"key":"","name":"x","label":"","type":"text","required":false,"instructions":"","detected_type":""}`,
		mustJSON(t, fields.Field{Name: "x", Type: "text"}), "no bounds when unset; detected_type is present even when empty")
	require.JSONEq(t, `{"name":"","slug":"","version":"","active":false,"primary":false}`, mustJSON(t, fields.AdapterInfo{}))
}

// mustJSON returns v as a JSON string.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return string(data)
}

func f64(v float64) *float64 { return &v }

func TestCoreFields(t *testing.T) {
	t.Parallel()
	core := fields.CoreFields()
	require.Equal(t, []string{"post_title", "post_content", "post_excerpt", "post_status", "post_date", "post_author"}, fieldNames(core))
	require.Equal(t, []string{"post_status", "post_date"}, fieldNames(fields.SupportedCoreFields(nil)),
		"a post type without features configures the fields that need none")
}
