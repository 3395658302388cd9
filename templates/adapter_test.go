package templates_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/templates"
)

func group(key, postType string, names ...string) templates.FieldGroup {
	g := templates.FieldGroup{Key: key, Title: key, PostTypes: []string{postType}}
	for _, n := range names {
		g.Fields = append(g.Fields, templates.Field{Key: "field_" + n, Name: n, Type: "text"})
	}
	return g
}

// failing is an adapter whose reads fail.
type failing struct{ templates.AdapterInfo }

func (f failing) Info() templates.AdapterInfo { return f.AdapterInfo }
func (failing) PostTypes(context.Context) ([]string, error) {
	return nil, errors.New("boom")
}
func (failing) FieldGroups(context.Context, string) ([]templates.FieldGroup, error) {
	return nil, errors.New("boom")
}
func (failing) Relations(context.Context, string) ([]templates.Relation, error) {
	return nil, errors.New("boom")
}

func TestRegistryPrecedence(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	code := templates.NewCodeAdapter(templates.AdapterInfo{Name: "Site code", Slug: "code", Version: "1", Active: true},
		[]templates.FieldGroup{group("g_code_book", "book", "isbn_code"), group("g_code_event", "event", "start")},
		[]templates.Relation{{Name: "venue", From: "event", To: []string{"venue"}, Cardinality: templates.ManyToOne}})
	acf := templates.NewCodeAdapter(templates.AdapterInfo{Name: "ACF", Slug: "acf", Version: "6", Active: true, Primary: true},
		[]templates.FieldGroup{group("g_acf_book", "book", "isbn", "price")}, nil)
	off := templates.NewCodeAdapter(templates.AdapterInfo{Name: "Old plugin", Slug: "old", Active: false, Primary: true},
		[]templates.FieldGroup{group("g_old_book", "book", "legacy")}, nil)
	reg := templates.NewRegistry(code, off, acf, nil)

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
	plain := templates.NewRegistry(off, code)
	p, _ = plain.Primary()
	require.Equal(t, "code", p.Slug)
	_, ok = templates.NewRegistry().Primary()
	require.False(t, ok)

	a, ok := reg.Adapter("old")
	require.True(t, ok)
	require.False(t, a.Info().Active)

	broken := templates.NewRegistry(failing{templates.AdapterInfo{Slug: "x", Active: true}})
	_, err = broken.Fields(ctx, "book")
	require.Error(t, err, "adapter errors are returned, not hidden")
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = reg.Fields(cctx, "book")
	require.ErrorIs(t, err, context.Canceled)
}

func TestCodeAdapterCopies(t *testing.T) {
	t.Parallel()
	groups := []templates.FieldGroup{group("g", "book", "isbn")}
	a := templates.NewCodeAdapter(templates.AdapterInfo{Active: true}, groups, nil)
	require.Equal(t, "code", a.Info().Slug)
	groups[0].Fields[0].Name = "changed"
	got, err := a.FieldGroups(context.Background(), "book")
	require.NoError(t, err)
	require.Equal(t, "isbn", got[0].Fields[0].Name, "the adapter keeps its own copy")
	got[0].Fields[0].Name = "changed again"
	again, _ := a.FieldGroups(context.Background(), "book")
	require.Equal(t, "isbn", again[0].Fields[0].Name)
}

func fieldNames(fs []templates.Field) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

func slugs(infos []templates.AdapterInfo) []string {
	out := []string{}
	for _, i := range infos {
		out = append(out, i.Slug)
	}
	return out
}

func TestDependencies(t *testing.T) {
	t.Parallel()
	fields := []templates.Field{
		{Name: "book_author", Type: "relationship", PostTypes: []string{"author"}, Required: true},
		{Name: "publisher", Type: "post_object", PostTypes: []string{"publisher"}},
		{Name: "speakers", Type: "post_object", Multiple: true, PostTypes: []string{"author"}},
		{Name: "anything", Type: "relationship"},
		{Name: "price", Type: "number"},
		{Name: "series", Type: "taxonomy", Taxonomy: "series"},
	}
	rels := []templates.Relation{
		{Name: "translations", From: "book", To: []string{"book"}, Cardinality: templates.OneToOne},
		{Name: "elsewhere", From: "event", To: []string{"venue"}},
	}
	info := func(pt string) templates.TargetInfo {
		switch pt {
		case "author":
			return templates.TargetInfo{Label: "Author", PluralLabel: "Authors", ExistingCount: 7, TemplateName: "Author starter"}
		case "publisher":
			return templates.TargetInfo{Label: "Publisher", PluralLabel: "Publishers", ExistingCount: 1}
		}
		return templates.TargetInfo{}
	}
	rep := templates.AnalyzeDependencies("book", fields, rels, info)
	require.Equal(t, "book", rep.PostType)
	require.Equal(t, 5, rep.Count)
	require.Len(t, rep.Dependencies, 5)
	require.Equal(t, templates.Dependency{
		FieldName: "book_author", FieldType: "relationship", TargetPostTypes: []string{"author"},
		TargetLabels: map[string]string{"author": "Author"}, IsMultiple: true, Source: "field",
		Cardinality: "many_to_many", Required: true,
	}, rep.Dependencies[0])
	require.Equal(t, "many_to_one", rep.Dependencies[1].Cardinality)
	require.False(t, rep.Dependencies[1].IsMultiple)
	require.True(t, rep.Dependencies[2].IsMultiple)
	require.Equal(t, []string{}, rep.Dependencies[3].TargetPostTypes, "no target types means any")
	require.Equal(t, templates.Dependency{
		FieldName: "translations", FieldType: "post", TargetPostTypes: []string{"book"},
		TargetLabels: map[string]string{"book": "book"}, Source: "relation", Cardinality: "one_to_one",
	}, rep.Dependencies[4])

	author := rep.UniqueTargets["author"]
	require.Equal(t, "Authors", author.PluralLabel)
	require.Equal(t, 7, author.ExistingCount)
	require.True(t, author.HasTemplate)
	require.Equal(t, "Author starter", *author.TemplateName)
	require.True(t, author.IsRequired)
	require.Equal(t, []string{"book_author", "speakers"}, author.RequiredByFields)
	pub := rep.UniqueTargets["publisher"]
	require.Nil(t, pub.TemplateName)
	require.False(t, pub.IsRequired)
	require.Len(t, rep.UniqueTargets, 3)
	require.Equal(t, map[string]string{
		"label": "string", "plural_label": "string", "existing_count": "number", "has_template": "boolean",
		"template_name": "null", "is_required": "boolean", "required_by_fields": "array",
	}, keysAndTypes(t, pub))
	require.Equal(t, map[string]string{
		"field_name": "string", "field_type": "string", "target_post_types": "array", "target_labels": "object",
		"is_multiple": "boolean", "source": "string", "cardinality": "string", "required": "boolean",
	}, keysAndTypes(t, rep.Dependencies[0]))
	require.Equal(t, []string{"author", "book", "publisher"}, templates.TargetPostTypes(rep.Dependencies))

	cases := []struct {
		card            string
		batch, existing int
		want            int
	}{
		{templates.ManyToOne, 50, 0, 5},
		{templates.ManyToOne, 50, 5, 0},
		{templates.ManyToMany, 50, 7, 3},
		{templates.OneToOne, 20, 5, 15},
		{templates.OneToMany, 10, 30, 0},
		{templates.ManyToMany, 1, 100, 0},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, templates.RelatedToCreate(tc.card, tc.batch, tc.existing), "%+v", tc)
	}
}

func TestSchema(t *testing.T) {
	t.Parallel()
	for _, ft := range templates.FieldTypes() {
		s, ok := templates.SchemaFor(ft)
		require.True(t, ok, ft)
		require.Equal(t, ft, s.FieldType)
		require.Contains(t, s.Modes, templates.ModeCreate)
		require.Contains(t, s.Modes, templates.ModeNone)
		require.NotEmpty(t, s.Methods)
		info := templates.DescribeField(&templates.Field{Name: "x", Type: ft})
		require.Equal(t, templates.ModeCreate, info.Default.Mode)
		require.NoError(t, templates.FieldConfig{CustomFields: map[string]templates.FieldSetting{"x": info.Default}}.Validate(),
			"the default setting of %s is a valid setting", ft)
	}
	_, ok := templates.SchemaFor("flexible_content")
	require.False(t, ok)
	text, _ := templates.SchemaFor("text")
	require.Equal(t, []string{"words", "sentence", "paragraphs"}, text.Methods)
	num, _ := templates.SchemaFor("number")
	require.Equal(t, []string{"min", "max", "decimal_places"}, []string{num.Options[0].Name, num.Options[1].Name, num.Options[2].Name})
	img, _ := templates.SchemaFor("image")
	require.NotContains(t, img.Modes, templates.ModeChoose)
	require.Empty(t, img.SelectionModes)

	info := templates.DescribeField(&templates.Field{Key: "k", Name: "price", Label: "Price", Type: "number", Required: true, Min: f64(1), Max: f64(9)})
	require.Equal(t, "number", info.Category)
	require.Equal(t, 9.0, *info.Default.Create.Max)
	require.Equal(t, map[string]string{
		"key": "string", "name": "string", "label": "string", "type": "string", "category": "string",
		"required": "boolean", "modes": "array", "default": "object",
	}, keysAndTypes(t, info))

	core := templates.CoreFields()
	require.Equal(t, []string{"post_title", "post_content", "post_excerpt", "post_status", "post_date", "post_author"}, fieldNames(core))
}

func TestFieldJSON(t *testing.T) {
	t.Parallel()
	f := templates.Field{Key: "field_1", Name: "price", Label: "Price", Type: "number", Required: true, Instructions: "EUR",
		Min: f64(0), Max: f64(10), Step: f64(0.5), DetectedType: "price", Choices: genreChoices}
	require.Equal(t, map[string]string{
		"key": "string", "name": "string", "label": "string", "type": "string", "required": "boolean",
		"instructions": "string", "min": "number", "max": "number", "step": "number", "detected_type": "string",
	}, keysAndTypes(t, f), "the spec's detected custom field")
	plain := keysAndTypes(t, templates.Field{Name: "x", Type: "text"})
	require.NotContains(t, plain, "min")
	require.Equal(t, "string", plain["detected_type"], "detected_type is present even when empty")
	require.Equal(t, map[string]string{"name": "string", "slug": "string", "version": "string", "active": "boolean", "primary": "boolean"},
		keysAndTypes(t, templates.AdapterInfo{}))
}
