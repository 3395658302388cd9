package templates_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/internal/goldentest"
	"github.com/contentgen/contentgen/templates"
)

func fixtureStore(t *testing.T) (*templates.Library, templates.Template, templates.Template, *fakeClock) {
	t.Helper()
	ctx := context.Background()
	clock := &fakeClock{t: time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)}
	s := templates.NewLibrary(templates.NewMemStore(), &templates.LibraryOptions{Now: clock.Now})
	parent, err := s.Create(ctx, templates.Input{
		Name: "Books", Description: "Complete book records", PostType: "book", IsDefault: true,
		FieldConfig: templates.FieldConfig{
			CoreFields: map[string]templates.FieldSetting{"post_title": {Mode: templates.ModeCreate, Create: &templates.CreateOptions{Method: templates.MethodWords, WordCountMin: 3, WordCountMax: 7}}},
			CustomFields: map[string]templates.FieldSetting{
				"price":  {Mode: templates.ModeCreate, FieldType: "number", Create: &templates.CreateOptions{Min: templates.Ptr(5.0), Max: templates.Ptr(40.0), DecimalPlaces: 2}},
				"format": {Mode: templates.ModeChoose, FieldType: "select", Choose: &templates.ChooseOptions{Values: []any{"hardcover", "ebook"}, SelectionMode: templates.SelectionRandom}},
			},
		},
		TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeCreate, CountMin: templates.Ptr(1), CountMax: templates.Ptr(2), UseExisting: true}},
	})
	require.NoError(t, err)
	clock.Advance(time.Hour)
	variant, err := s.CreateVariant(ctx, parent.ID, templates.Patch{Name: templates.Ptr("Free books"), FieldConfig: &templates.FieldConfig{
		CustomFields: map[string]templates.FieldSetting{"price": {Mode: templates.ModeNone}},
	}})
	require.NoError(t, err)
	return s, parent, variant, clock
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return data
}

func TestExportJSON(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _, _, clock := fixtureStore(t)
	clock.t = time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC)
	exp, err := s.Export(ctx, templates.ExportSelection{})
	require.NoError(t, err)
	goldentest.JSON(t, "export.json", exp)
	require.Equal(t, map[string]string{"templates": "array", "count": "number", "version": "string", "exported": "string"}, goldentest.Types(t, exp))
	require.Equal(t, map[string]string{
		"name": "string", "description": "string", "post_type": "string", "field_config": "object", "taxonomy_config": "object",
	}, goldentest.Types(t, exp.Templates[0]), "exports carry no ids")

	// The export file imports back item by item.
	items, err := templates.ParseImport(mustJSON(t, exp))
	require.NoError(t, err)
	require.Len(t, items, 2)
	var back templates.Export
	require.NoError(t, json.Unmarshal(mustJSON(t, exp), &back))
	require.Equal(t, exp, back)
}

func TestParseImport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	body := []byte(`{"templates":[
		{"name":"Good","post_type":"book","field_config":{"custom_fields":{"price":{"mode":"none"}}}},
		"not an object",
		{"name":"Bad mode","post_type":"book","field_config":{"custom_fields":{"price":{"mode":"sometimes"}}}},
		{"name":"Wrong type","post_type":7},
		{"post_type":"book"}
	]}`)
	items, err := templates.ParseImport(body)
	require.NoError(t, err)
	require.Len(t, items, 5)
	require.NoError(t, items[0].Err)
	require.Error(t, items[1].Err)
	require.Error(t, items[3].Err)
	require.Equal(t, "Wrong type", items[3].Template.Name, "the name of a broken item is kept for the report")

	s := templates.NewLibrary(templates.NewMemStore(), &templates.LibraryOptions{
		Signature: func(context.Context, string) templates.Signature { return templates.Signature{"price:number"} },
	})
	res, err := s.Import(ctx, items)
	require.NoError(t, err)
	require.Equal(t, 1, res.Imported)
	require.Equal(t, 4, res.Failed)
	require.Equal(t, "Imported 1 template, 4 failed.", res.Message())
	require.Equal(t, "templates[2].field_config.custom_fields.price.mode", res.Results[2].Param)
	require.Equal(t, "templates[4].name", res.Results[4].Param)
	list, err := s.List(ctx, templates.Filter{})
	require.NoError(t, err)
	require.Len(t, list, 1, "invalid items are never half-imported")
	require.Equal(t, templates.Signature{"price:number"}, list[0].FieldSignature, "imports record the current field signature")
	require.True(t, res.Results[0].Success)
	require.Empty(t, res.Results[0].Error, "a successful item carries no error")

	for _, bad := range []string{`{}`, `[]`, `{"templates":{}}`, `{"templates":null}`, `nope`} {
		_, err := templates.ParseImport([]byte(bad))
		var pe *templates.ParamError
		require.ErrorAs(t, err, &pe, bad)
		require.Equal(t, "templates", pe.Param)
	}
}
