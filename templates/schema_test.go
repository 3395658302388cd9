package templates_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/internal/goldentest"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
)

func TestSchema(t *testing.T) {
	t.Parallel()
	for _, ft := range fields.Types() {
		s, ok := templates.SchemaFor(ft)
		require.True(t, ok, ft)
		require.Equal(t, ft, s.FieldType)
		require.Contains(t, s.Modes, templates.ModeCreate)
		require.Contains(t, s.Modes, templates.ModeNone)
		require.NotEmpty(t, s.Methods)
		info := templates.DescribeField(&fields.Field{Name: "x", Type: ft})
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

	info := templates.DescribeField(&fields.Field{Key: "k", Name: "price", Label: "Price", Type: "number", Required: true, Min: f64(1), Max: f64(9)})
	require.Equal(t, "number", info.Category)
	require.Equal(t, 9.0, *info.Default.Create.Max)
	require.Equal(t, map[string]string{
		"key": "string", "name": "string", "label": "string", "type": "string", "category": "string",
		"required": "boolean", "modes": "array", "default": "object",
	}, goldentest.Types(t, info))
}
func f64(v float64) *float64 { return &v }
