package acfjson_test

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
	"github.com/contentgen/contentgen/templates/fields/acfjson"
	"github.com/contentgen/contentgen/templates/fill"
)

func field(t *testing.T, fs []fields.Field, name string) fields.Field {
	t.Helper()
	for _, f := range fs {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no field %q", name)
	return fields.Field{}
}

func num(v float64) *float64 { return &v }

func TestParseBookGroup(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/acf-json/group_book_details.json")
	require.NoError(t, err)
	groups, err := acfjson.ParseGroups(data)
	require.NoError(t, err)
	require.Len(t, groups, 1)
	g := groups[0]
	require.Equal(t, "group_book_details", g.Key)
	require.Equal(t, "Book details", g.Title)
	require.Equal(t, []string{"book"}, g.PostTypes)
	require.Len(t, g.Fields, 20, "the tab is presentational and skipped")

	cases := []struct {
		name  string
		check func(t *testing.T, f fields.Field)
	}{
		{"isbn", func(t *testing.T, f fields.Field) {
			require.Equal(t, "text", f.Type)
			require.True(t, f.Required, "required 1")
			require.Equal(t, 17, f.MaxLength)
			require.Equal(t, "13 digits", f.Instructions)
			require.Equal(t, "field_book_isbn", f.Key)
			require.Equal(t, "ISBN", f.Label)
		}},
		{"subtitle", func(t *testing.T, f fields.Field) {
			require.False(t, f.Required)
			require.Zero(t, f.MaxLength, `maxlength "" means none`)
		}},
		{"price", func(t *testing.T, f fields.Field) {
			require.Equal(t, num(0.99), f.Min, "numbers written as strings")
			require.Equal(t, num(99.99), f.Max)
			require.Equal(t, num(0.01), f.Step)
		}},
		{"pages", func(t *testing.T, f fields.Field) {
			require.Equal(t, num(40), f.Min)
			require.Nil(t, f.Step, `step "" means none`)
		}},
		{"rating", func(t *testing.T, f fields.Field) {
			require.Equal(t, "range", f.Type)
			require.Equal(t, num(0.5), f.Step)
		}},
		{"format", func(t *testing.T, f fields.Field) {
			require.Equal(t, []fields.Choice{{Value: "hardcover", Label: "Hardcover"}, {Value: "paperback", Label: "Paperback"}, {Value: "ebook", Label: "E-book"}, {Value: "audio", Label: "Audiobook"}}, f.Choices, "choices keep file order")
			require.Equal(t, "paperback", f.DefaultValue)
			require.False(t, f.Multiple)
			require.Equal(t, "value", f.ReturnFormat)
		}},
		{"genres", func(t *testing.T, f fields.Field) {
			require.Len(t, f.Choices, 5)
			require.Equal(t, "label", f.ReturnFormat)
		}},
		{"published_on", func(t *testing.T, f fields.Field) { require.Equal(t, "Y-m-d", f.ReturnFormat) }},
		{"cover", func(t *testing.T, f fields.Field) { require.Equal(t, "url", f.ReturnFormat) }},
		{"book_author", func(t *testing.T, f fields.Field) {
			require.Equal(t, []string{"author"}, f.PostTypes)
			require.Equal(t, num(1), f.Min)
			require.Equal(t, num(2), f.Max)
		}},
		{"publisher", func(t *testing.T, f fields.Field) {
			require.Equal(t, "post_object", f.Type)
			require.True(t, f.AllowNull)
			require.Equal(t, "object", f.ReturnFormat)
		}},
		{"series", func(t *testing.T, f fields.Field) {
			require.Equal(t, "book_series", f.Taxonomy)
			require.False(t, f.Multiple, "field_type select holds one term")
		}},
		{"editor", func(t *testing.T, f fields.Field) { require.Equal(t, []string{"editor", "author"}, f.Roles) }},
		{"spine_colour", func(t *testing.T, f fields.Field) { require.False(t, f.EnableOpacity) }},
		{"review", func(t *testing.T, f fields.Field) { require.Equal(t, "wysiwyg", f.Type) }},
		{"reviewer_password", func(t *testing.T, f fields.Field) { require.Equal(t, "password", f.Type) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.check(t, field(t, g.Fields, tc.name)) })
	}
}

func TestParseEventAndPeople(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/acf-json/group_event.json")
	require.NoError(t, err)
	groups, err := acfjson.ParseGroups(data)
	require.NoError(t, err)
	g := groups[0]
	require.Equal(t, []string{"event", "workshop"}, g.PostTypes, "every OR group naming a post type counts")
	sched := field(t, g.Fields, "schedule")
	require.Equal(t, []string{"uhrzeit", "titel"}, []string{sched.SubFields[0].Name, sched.SubFields[1].Name})
	require.True(t, sched.SubFields[1].Required)
	require.Equal(t, num(3), sched.Max)
	require.Len(t, field(t, g.Fields, "organiser").SubFields, 2)
	require.True(t, field(t, g.Fields, "themen").Multiple, "field_type checkbox holds several terms")
	require.True(t, field(t, g.Fields, "speakers").Multiple)
	require.True(t, field(t, g.Fields, "kontakt_email").Required, `required "1"`)
	require.Equal(t, num(2), field(t, g.Fields, "photos").Min)
	require.Equal(t, 5, field(t, g.Fields, "plz").MaxLength)

	data, err = os.ReadFile("testdata/acf-json/group_people.json")
	require.NoError(t, err)
	groups, err = acfjson.ParseGroups(data)
	require.NoError(t, err)
	require.Len(t, groups, 1, "an array of groups; the inactive one is left out")
	kraj := field(t, groups[0].Fields, "kraj")
	require.Equal(t, []fields.Choice{{Value: "Poland", Label: "Poland"}, {Value: "Germany", Label: "Germany"}, {Value: "Italy", Label: "Italy"}}, kraj.Choices)
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"not JSON":           `{`,
		"not an object":      `"group"`,
		"no key or title":    `{"fields":[]}`,
		"fields not array":   `{"key":"group_x","fields":{}}`,
		"field without name": `{"key":"group_x","fields":[{"type":"text"}]}`,
		"field without type": `{"key":"group_x","fields":[{"name":"a"}]}`,
		"min above max":      `{"key":"group_x","fields":[{"name":"a","type":"number","min":5,"max":1}]}`,
		"bad choices":        `{"key":"group_x","fields":[{"name":"a","type":"select","choices":"red"}]}`,
		"bad sub field":      `{"key":"group_x","fields":[{"name":"r","type":"repeater","sub_fields":[{"type":"text"}]}]}`,
		"array with a bad":   `[{"key":"group_a"},{"fields":[]}]`,
	}
	for name, data := range cases {
		_, err := acfjson.ParseGroups([]byte(data))
		require.Error(t, err, name)
	}
	_, err := acfjson.ParseGroups([]byte(`{"key":"group_x","fields":[{"name":"r","type":"repeater","sub_fields":[{"type":"text"}]}]}`))
	require.ErrorContains(t, err, "field r")
}

func TestAdapter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := acfjson.New(os.DirFS("testdata/acf-json"), &acfjson.Options{Primary: true})
	info := a.Info()
	require.Equal(t, fields.AdapterInfo{Name: "Advanced Custom Fields (local JSON)", Slug: "acf", Version: "local-json", Active: true, Primary: true}, info)

	pts, err := a.PostTypes(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"author", "book", "event", "workshop"}, pts)
	groups, err := a.FieldGroups(ctx, "book")
	require.NoError(t, err)
	require.Len(t, groups, 1)
	none, err := a.FieldGroups(ctx, "page")
	require.NoError(t, err)
	require.Empty(t, none)
	rels, err := a.Relations(ctx, "book")
	require.NoError(t, err)
	require.Empty(t, rels)

	bad := acfjson.New(os.DirFS("testdata/invalid"), nil)
	_, err = bad.FieldGroups(ctx, "book")
	require.ErrorContains(t, err, "broken.json")
	lenient := acfjson.New(os.DirFS("testdata/invalid"), &acfjson.Options{SkipInvalid: true})
	groups, err = lenient.FieldGroups(ctx, "book")
	require.NoError(t, err)
	require.Empty(t, groups)

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = a.FieldGroups(cctx, "book")
	require.ErrorIs(t, err, context.Canceled)
}

// The ACF adapter, as primary, wins over fields registered in code, and
// edits to the files make saved templates stale.
func TestAdapterWithRegistryAndStale(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	book, err := os.ReadFile("testdata/acf-json/group_book_details.json")
	require.NoError(t, err)
	fsys := fstest.MapFS{"group_book_details.json": {Data: book}}
	code := fields.NewCodeAdapter(fields.AdapterInfo{Slug: "code", Active: true},
		[]fields.Group{{Key: "g", Title: "Code", PostTypes: []string{"book", "magazine"}, Fields: []fields.Field{{Name: "legacy", Type: "text"}}}}, nil)
	reg := fields.NewRegistry(code, acfjson.New(fsys, &acfjson.Options{Primary: true}))

	got, err := reg.Fields(ctx, "book")
	require.NoError(t, err)
	require.Equal(t, "acf", got.Adapter.Slug)
	mag, err := reg.Fields(ctx, "magazine")
	require.NoError(t, err)
	require.Equal(t, "code", mag.Adapter.Slug)

	store := templates.NewLibrary(templates.NewMemStore(), nil)
	_, err = store.Create(ctx, templates.Input{Name: "Books", PostType: "book", FieldSignature: templates.SignatureOf(got.Fields())})
	require.NoError(t, err)

	fsys["group_extra.json"] = &fstest.MapFile{Data: []byte(`{"key":"group_extra","title":"Extra","fields":[{"key":"field_ed","name":"edition","type":"number"}],"location":[[{"param":"post_type","operator":"==","value":"book"}]]}`)}
	got, err = reg.Fields(ctx, "book")
	require.NoError(t, err)
	stale, err := store.Stale(ctx, map[string]templates.Signature{"book": templates.SignatureOf(got.Fields())})
	require.NoError(t, err)
	require.Len(t, stale, 1)
	require.Equal(t, []string{"edition"}, stale[0].AddedFields)
}

// Every field of the acf-json fixtures gets a value that respects its
// settings, relations pointing at posts of the right types.
func TestFillACFFields(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := acfjson.New(os.DirFS("testdata/acf-json"), nil)
	lookup := fill.LookupFunc(func(_ context.Context, kind fill.RefKind, targets []string) ([]int64, error) {
		switch {
		case kind == fill.RefPost && len(targets) == 1 && targets[0] == "author":
			return []int64{101, 102, 103}, nil
		case kind == fill.RefPost && len(targets) == 1 && targets[0] == "publisher":
			return []int64{201}, nil
		case kind == fill.RefMedia:
			return []int64{301, 302, 303, 304, 305}, nil
		}
		return []int64{901, 902}, nil
	})
	for _, pt := range []string{"book", "event", "author"} {
		groups, err := a.FieldGroups(ctx, pt)
		require.NoError(t, err)
		defs := fields.DetectFields(groups[0].Fields)
		r := rand.New(rand.NewPCG(9, 9))
		g := fill.New(r, nil, &fill.Options{})
		for range 50 {
			resolved, err := g.Resolve(ctx, g.Fill(defs, nil), lookup)
			require.NoError(t, err)
			vals := resolved.(map[string]any)
			require.Len(t, vals, len(defs), "%s: every field is filled under the default setting", pt)
			for _, f := range defs {
				v := vals[f.Name]
				if f.Required {
					require.NotEmpty(t, v, "%s.%s is required", pt, f.Name)
				}
				if f.MaxLength > 0 {
					if s, ok := v.(string); ok {
						require.LessOrEqual(t, len([]rune(s)), f.MaxLength, "%s.%s", pt, f.Name)
					}
				}
			}
			if pt == "book" {
				for _, id := range vals["book_author"].([]int64) {
					require.Contains(t, []int64{101, 102, 103}, id)
				}
				require.Equal(t, int64(201), vals["publisher"])
				require.Contains(t, []any{"hardcover", "paperback", "ebook", "audio"}, vals["format"])
			}
		}
		if pt == "event" {
			require.Equal(t, "phone", field(t, defs, "telefon").DetectedType)
			require.Equal(t, "postcode", field(t, defs, "plz").DetectedType)
			require.Equal(t, "company", field(t, defs, "organiser").SubFields[0].DetectedType)
		}
		if pt == "author" {
			require.Equal(t, "first_name", field(t, defs, "prenom").DetectedType)
			require.Equal(t, "last_name", field(t, defs, "nom_de_famille").DetectedType)
			require.Equal(t, "birth_date", field(t, defs, "fecha_nacimiento").DetectedType)
			require.Equal(t, "city", field(t, defs, "citta").DetectedType)
		}
	}
}

func FuzzParseGroups(f *testing.F) {
	for _, name := range []string{"group_book_details.json", "group_event.json", "group_people.json"} {
		data, err := os.ReadFile("testdata/acf-json/" + name)
		require.NoError(f, err)
		f.Add(data)
	}
	for _, seed := range []string{
		`[]`, `{}`, `null`, `{"key":"g","fields":null}`,
		`{"key":"g","fields":[{"name":"a","type":"select","choices":{"1":2,"x":null}}]}`,
		`{"key":"g","fields":[{"name":"a","type":"number","min":"1e400","max":"-","step":-1}]}`,
		`{"title":"t","location":[[{"param":"post_type","operator":"==","value":7}]],"fields":[{"name":"r","type":"repeater","sub_fields":[{"name":"g","type":"group","sub_fields":[]}]}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		groups, err := acfjson.ParseGroups(data)
		if err != nil {
			return
		}
		var walk func(fs []fields.Field)
		walk = func(fs []fields.Field) {
			for _, fd := range fs {
				if fd.Name == "" || fd.Type == "" {
					t.Fatalf("accepted a field without name or type: %+v", fd)
				}
				if fd.Min != nil && fd.Max != nil && *fd.Min > *fd.Max {
					t.Fatalf("accepted min above max: %+v", fd)
				}
				walk(fd.SubFields)
			}
		}
		for _, g := range groups {
			walk(g.Fields)
			// Whatever parses can be filled without panicking.
			r := rand.New(rand.NewPCG(1, 1))
			fill.New(r, nil, nil).Fill(fields.DetectFields(g.Fields), nil)
		}
	})
}
