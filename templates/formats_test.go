package templates_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/locales/markup"
	"github.com/contentgen/contentgen/templates"
)

func TestContentFormatDecodesMergesAndDiffs(t *testing.T) {
	t.Parallel()
	fc, err := templates.ParseFieldConfig([]byte(`{"content_format":"markdown","core_fields":{"post_title":{"mode":"none"}}}`))
	require.NoError(t, err)
	require.Equal(t, markup.Markdown, fc.ContentFormat)
	out, err := json.Marshal(fc)
	require.NoError(t, err)
	require.JSONEq(t, `{"content_format":"markdown","core_fields":{"post_title":{"mode":"none"}}}`, string(out))
	plain, err := json.Marshal(templates.FieldConfig{})
	require.NoError(t, err)
	require.JSONEq(t, `{}`, string(plain), "an unset format stays out of the record")

	parent := templates.FieldConfig{ContentFormat: markup.Blocks}
	require.Equal(t, markup.Blocks, templates.MergeFieldConfig(parent, templates.FieldConfig{}).ContentFormat, "a variant without a format inherits its parent's")
	require.Equal(t, markup.Markdown, templates.MergeFieldConfig(parent, fc).ContentFormat, "a variant's format wins")
	require.Equal(t, markup.Blocks, parent.Clone().ContentFormat)

	require.Empty(t, templates.DiffFieldConfig(parent, parent).ContentFormat, "the parent's format is not stored again")
	require.Empty(t, templates.DiffFieldConfig(parent, templates.FieldConfig{}).ContentFormat, "an unset format inherits")
	d := templates.DiffFieldConfig(parent, templates.FieldConfig{ContentFormat: markup.HTML})
	require.Equal(t, markup.HTML, d.ContentFormat)
	require.Equal(t, markup.HTML, templates.MergeFieldConfig(parent, d).ContentFormat)
}
