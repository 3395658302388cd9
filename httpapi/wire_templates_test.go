package httpapi

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/internal/goldentest"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
)

// recordLibrary holds a template with every kind of setting and a variant
// of it, saved at fixed times.
func recordLibrary(t *testing.T) (lib *templates.Library, parent, variant templates.Template) {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2025, 2, 3, 4, 5, 6, 0, time.UTC)
	lib = templates.NewLibrary(templates.NewMemStore(), &templates.LibraryOptions{Now: func() time.Time { return now }})
	parent, err := lib.Create(ctx, templates.Input{
		Name: "Books", Description: "Complete book records", PostType: "book", IsDefault: true,
		FieldConfig: templates.FieldConfig{
			CoreFields: map[string]templates.FieldSetting{"post_title": {Mode: templates.ModeCreate, Create: &templates.CreateOptions{Method: templates.MethodWords, WordCountMin: 3, WordCountMax: 7}}},
			CustomFields: map[string]templates.FieldSetting{
				"price":  {Mode: templates.ModeCreate, FieldType: "number", Create: &templates.CreateOptions{Min: new(5.0), Max: new(40.0), DecimalPlaces: 2}},
				"format": {Mode: templates.ModeChoose, FieldType: "select", Choose: &templates.ChooseOptions{Values: []any{"hardcover", "ebook"}, SelectionMode: templates.SelectionRandom}},
			},
		},
		TaxonomyConfig: templates.TaxonomyConfig{"genre": {Mode: templates.ModeCreate, CountMin: new(1), CountMax: new(2), UseExisting: true}},
	})
	require.NoError(t, err)
	now = now.Add(time.Hour)
	variant, err = lib.CreateVariant(ctx, parent.ID, templates.Patch{Name: new("Free books"), FieldConfig: &templates.FieldConfig{
		CustomFields: map[string]templates.FieldSetting{"price": {Mode: templates.ModeNone}},
	}})
	require.NoError(t, err)
	return lib, parent, variant
}

// TestTemplateRecord holds the template record to the bytes the spec's
// examples and earlier releases give.
func TestTemplateRecord(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	lib, parent, variant := recordLibrary(t)

	single, err := lib.Get(ctx, parent.ID)
	require.NoError(t, err)
	goldentest.JSON(t, "template.json", newTemplateRecord(&single))
	require.Equal(t, map[string]string{
		"id": "number", "name": "string", "description": "string", "post_type": "string",
		"is_default": "boolean", "is_system": "boolean", "field_config": "object", "taxonomy_config": "object",
		"linked_parents": "array", "created_at": "string", "updated_at": "string",
	}, goldentest.Types(t, newTemplateRecord(&single)), "the spec's template record")

	v, err := lib.Get(ctx, variant.ID)
	require.NoError(t, err)
	goldentest.JSON(t, "template_variant.json", newTemplateRecord(&v))

	list, err := lib.List(ctx, templates.Filter{})
	require.NoError(t, err)
	types := goldentest.Types(t, newTemplateSummary(&list[0]))
	require.NotContains(t, types, "field_config", "list records leave out field_config")
	require.NotContains(t, types, "linked_parents")
	require.Equal(t, "object", types["taxonomy_config"])
	require.NotContains(t, goldentest.Types(t, newTemplateRecord(&list[0])), "linked_parents", "linked_parents appear on single reads only")

	empty, err := json.Marshal(newTemplateRecord(&templates.Template{ID: 1, Name: "x", PostType: "post"}))
	require.NoError(t, err)
	require.JSONEq(t, `{"id":1,"name":"x","description":"","post_type":"post","is_default":false,"is_system":false,
		"field_config":{},"taxonomy_config":{},"created_at":"","updated_at":""}`, string(empty))
}

func TestSyncRecord(t *testing.T) {
	t.Parallel()
	saved := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	rec := newSyncRecord(&templates.SyncStatus{StaleCount: 1, ChangedPostTypes: []string{"book"},
		Stale: []templates.StaleTemplate{{ID: 3, Name: "Books", PostType: "book", AddedFields: []string{"isbn"}, SavedAt: saved}}})
	data, err := json.Marshal(rec)
	require.NoError(t, err)
	require.JSONEq(t, `{"in_sync":false,"stale_count":1,"changed_post_types":["book"],"has_unseen_changes":false,
		"unseen_post_types":[],"last_seen":"","stale":[{"id":3,"name":"Books","post_type":"book","added_fields":["isbn"],
		"removed_fields":[],"changed_fields":[],"saved_at":"2025-03-01 12:00:00"}]}`, string(data),
		"empty lists are [], an unseen mark is \"\"")
	rec = newSyncRecord(&templates.SyncStatus{InSync: true, LastSeen: saved})
	require.Equal(t, "2025-03-01 12:00:00", rec.LastSeen)
	require.Equal(t, []staleRecord{}, rec.Stale)
}

func TestDependencyReportRecord(t *testing.T) {
	t.Parallel()
	defs := []fields.Field{
		{Name: "book_author", Type: fields.TypeRelationship, PostTypes: []string{"author"}, Required: true},
		{Name: "publisher", Type: fields.TypePostObject, PostTypes: []string{"publisher"}},
	}
	rep := fields.AnalyzeDependencies("book", defs, nil, func(pt string) fields.TargetInfo {
		if pt == "author" {
			return fields.TargetInfo{Label: "Author", PluralLabel: "Authors", ExistingCount: 7, TemplateName: "Author starter"}
		}
		return fields.TargetInfo{}
	})
	rec := newDependencyReport(&rep)
	require.Equal(t, map[string]string{"post_type": "string", "dependencies": "array", "unique_targets": "object", "count": "number"}, goldentest.Types(t, rec))
	require.Equal(t, 2, rec.Count)
	require.Equal(t, map[string]string{
		"field_name": "string", "field_type": "string", "target_post_types": "array", "target_labels": "object",
		"is_multiple": "boolean", "source": "string", "cardinality": "string", "required": "boolean",
	}, goldentest.Types(t, rec.Dependencies[0]), "the spec's dependency entry")
	require.Equal(t, map[string]string{
		"label": "string", "plural_label": "string", "existing_count": "number", "has_template": "boolean",
		"template_name": "null", "is_required": "boolean", "required_by_fields": "array",
	}, goldentest.Types(t, rec.UniqueTargets["publisher"]), "the spec's unique target entry: no template is null")
	author := rec.UniqueTargets["author"]
	require.True(t, author.HasTemplate)
	require.Equal(t, "Author starter", *author.TemplateName)
	require.Equal(t, []string{"book_author"}, author.RequiredByFields)
}

func TestImportItemRecords(t *testing.T) {
	t.Parallel()
	recs := newImportItemRecords([]templates.ImportItemResult{
		{Success: true, Name: "Books", ID: 4},
		{Name: "Broken", Error: "post_type is required", Param: "templates[1].post_type"},
	})
	data, err := json.Marshal(recs)
	require.NoError(t, err)
	require.JSONEq(t, `[{"success":true,"name":"Books","id":4},{"success":false,"name":"Broken","id":0,"error":"post_type is required"}]`, string(data),
		"error only on failed items; the parameter stays out of the record")
}
