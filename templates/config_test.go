package templates_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/templates"
)

func TestParseFieldConfig(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		json  string
		param string // "" means valid
	}{
		{"empty object", `{}`, ""},
		{"null", `null`, ""},
		{"spec example", `{"core_fields":{"post_title":{"mode":"create","create":{"method":"words","word_count_min":3,"word_count_max":8}},
			"post_content":{"mode":"create","create":{"method":"paragraphs","paragraph_count_min":2,"paragraph_count_max":4,"include_html":true,"html_options":{"headings":true,"lists":false}}}},
			"custom_fields":{"price":{"mode":"create","field_type":"number","create":{"min":5,"max":50,"decimal_places":2}},
			"format":{"mode":"choose","field_type":"select","choose":{"values":["a","b"],"selection_mode":"random"}}}}`, ""},
		{"rotate", `{"custom_fields":{"f":{"mode":"choose","choose":{"values":[1],"selection_mode":"rotate"}}}}`, ""},
		{"unknown keys ignored", `{"custom_fields":{"f":{"mode":"none","extra":1}},"other":true}`, ""},
		{"missing mode", `{"custom_fields":{"f":{}}}`, "field_config.custom_fields.f.mode"},
		{"bad mode", `{"core_fields":{"post_title":{"mode":"auto"}}}`, "field_config.core_fields.post_title.mode"},
		{"choose without values", `{"custom_fields":{"f":{"mode":"choose","choose":{"values":[]}}}}`, "field_config.custom_fields.f.choose.values"},
		{"bad selection mode", `{"custom_fields":{"f":{"mode":"choose","choose":{"values":[1],"selection_mode":"cycle"}}}}`, "field_config.custom_fields.f.choose.selection_mode"},
		{"bad method", `{"custom_fields":{"f":{"mode":"create","create":{"method":"poem"}}}}`, "field_config.custom_fields.f.create.method"},
		{"word counts reversed", `{"custom_fields":{"f":{"mode":"create","create":{"word_count_min":9,"word_count_max":3}}}}`, "field_config.custom_fields.f.create.word_count_max"},
		{"negative paragraphs", `{"custom_fields":{"f":{"mode":"create","create":{"paragraph_count_min":-1}}}}`, "field_config.custom_fields.f.create.paragraph_count_min"},
		{"min above max", `{"custom_fields":{"f":{"mode":"create","create":{"min":10,"max":1}}}}`, "field_config.custom_fields.f.create.max"},
		{"decimals", `{"custom_fields":{"f":{"mode":"create","create":{"decimal_places":11}}}}`, "field_config.custom_fields.f.create.decimal_places"},
		{"empty field name", `{"custom_fields":{"":{"mode":"none"}}}`, "field_config.custom_fields"},
		{"content format", `{"content_format":"blocks"}`, ""},
		{"unknown content format", `{"content_format":"docx"}`, "field_config.content_format"},
		{"content format not a string", `{"content_format":1}`, "field_config.content_format"},
		{"text source", `{"text_source":"ai"}`, ""},
		{"unknown text source", `{"text_source":"gpt"}`, "field_config.text_source"},
		{"wrong JSON type", `{"custom_fields":{"f":{"mode":3}}}`, "field_config.custom_fields.f.mode"},
		{"not an object", `[1,2]`, "field_config"},
		{"broken JSON", `{"custom_fields":`, "field_config"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := templates.ParseFieldConfig([]byte(tc.json))
			if tc.param == "" {
				require.NoError(t, err)
				return
			}
			var pe *templates.ParamError
			require.ErrorAs(t, err, &pe)
			require.Equal(t, tc.param, pe.Param)
			require.ErrorIs(t, err, templates.ErrInvalid)
		})
	}
}

func TestParseTaxonomyConfig(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		json  string
		param string
	}{
		{"choose", `{"category":{"mode":"choose","term_ids":[3,4],"count_min":1,"count_max":2,"selection_mode":"rotate"}}`, ""},
		{"create mixing", `{"post_tag":{"mode":"create","count_min":2,"count_max":5,"use_existing":true}}`, ""},
		{"none", `{"post_tag":{"mode":"none"}}`, ""},
		{"bad mode", `{"post_tag":{"mode":"all"}}`, "taxonomy_config.post_tag.mode"},
		{"choose without terms", `{"category":{"mode":"choose"}}`, "taxonomy_config.category.term_ids"},
		{"non-positive term", `{"category":{"mode":"choose","term_ids":[0]}}`, "taxonomy_config.category.term_ids"},
		{"counts reversed", `{"category":{"mode":"create","count_min":3,"count_max":1}}`, "taxonomy_config.category.count_max"},
		{"count too high", `{"category":{"mode":"create","count_max":51}}`, "taxonomy_config.category.count_max"},
		{"negative count", `{"category":{"mode":"create","count_min":-1}}`, "taxonomy_config.category.count_min"},
		{"bad selection", `{"category":{"mode":"create","selection_mode":"x"}}`, "taxonomy_config.category.selection_mode"},
		{"term ids of wrong type", `{"category":{"mode":"choose","term_ids":["a"]}}`, "taxonomy_config.category.term_ids"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := templates.ParseTaxonomyConfig([]byte(tc.json))
			if tc.param == "" {
				require.NoError(t, err)
				return
			}
			var pe *templates.ParamError
			require.True(t, errors.As(err, &pe), "error %v", err)
			require.Equal(t, tc.param, pe.Param)
		})
	}
}

func TestMergeAndDiff(t *testing.T) {
	t.Parallel()
	base := templates.FieldConfig{
		CoreFields: map[string]templates.FieldSetting{"post_title": {Mode: templates.ModeCreate}},
		CustomFields: map[string]templates.FieldSetting{
			"price": {Mode: templates.ModeCreate, Create: &templates.CreateOptions{Min: templates.Ptr(1.0)}},
			"isbn":  {Mode: templates.ModeCreate},
		},
	}
	override := templates.FieldConfig{CustomFields: map[string]templates.FieldSetting{
		"price": {Mode: templates.ModeNone},
		"pages": {Mode: templates.ModeChoose, Choose: &templates.ChooseOptions{Values: []any{100.0}}},
	}}
	merged := templates.MergeFieldConfig(base, override)
	require.Equal(t, templates.ModeNone, merged.CustomFields["price"].Mode, "an override replaces the field's setting whole")
	require.Nil(t, merged.CustomFields["price"].Create)
	require.Equal(t, templates.ModeCreate, merged.CustomFields["isbn"].Mode, "fields not overridden are inherited")
	require.Contains(t, merged.CustomFields, "pages")
	require.Equal(t, base.CoreFields, merged.CoreFields)
	require.Equal(t, templates.ModeCreate, base.CustomFields["price"].Mode, "inputs are not modified")

	require.Equal(t, override, templates.DiffFieldConfig(base, merged), "diff recovers exactly the overrides")
	require.Equal(t, merged, templates.MergeFieldConfig(base, templates.DiffFieldConfig(base, merged)))
	require.Empty(t, templates.DiffFieldConfig(base, base).CustomFields)

	tb := templates.TaxonomyConfig{"genre": {Mode: templates.ModeCreate}, "tag": {Mode: templates.ModeNone}}
	to := templates.TaxonomyConfig{"genre": {Mode: templates.ModeChoose, TermIDs: []int64{4}}}
	tm := templates.MergeTaxonomyConfig(tb, to)
	require.Equal(t, templates.TaxonomyConfig{"genre": {Mode: templates.ModeChoose, TermIDs: []int64{4}}, "tag": {Mode: templates.ModeNone}}, tm)
	require.Equal(t, to, templates.DiffTaxonomyConfig(tb, tm))
	require.Equal(t, to, templates.MergeTaxonomyConfig(nil, to))
}

// fuzzRoundTrip checks that what a parser accepts survives a JSON round
// trip unchanged (after the first normalisation by encoding/json).
func fuzzRoundTrip[T any](t *testing.T, data []byte, parse func([]byte) (T, error)) {
	v, err := parse(data)
	if err != nil {
		var pe *templates.ParamError
		if !errors.As(err, &pe) || pe.Param == "" || pe.Message == "" {
			t.Fatalf("error %v is not a *ParamError naming a parameter", err)
		}
		return
	}
	first, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal accepted value: %v", err)
	}
	v2, err := parse(first)
	if err != nil {
		t.Fatalf("re-parse of %s: %v", first, err)
	}
	second, err := json.Marshal(v2)
	if err != nil {
		t.Fatal(err)
	}
	if string(first) != string(second) {
		t.Fatalf("round trip changed\n%s\n%s", first, second)
	}
}

func FuzzDecodeFieldConfig(f *testing.F) {
	for _, seed := range []string{
		`{}`, `null`, `[]`, `{"custom_fields":{"f":{"mode":"none"}}}`,
		`{"core_fields":{"post_content":{"mode":"create","create":{"method":"paragraphs","paragraph_count_min":2,"paragraph_count_max":4,"include_html":true,"html_options":{"headings":true,"lists":true}}}}}`,
		`{"custom_fields":{"price":{"mode":"create","field_type":"number","create":{"min":-1.5,"max":1e300,"decimal_places":2}}}}`,
		`{"custom_fields":{"c":{"mode":"choose","choose":{"values":[1,"a",null,{"k":[true]}],"selection_mode":"rotate"}}}}`,
		`{"custom_fields":{"\u00ff\ufffd":{"mode":"choose","choose":{"values":["\xff"]}}}}`,
		`{"custom_fields":{"f":{"mode":"create","create":{"word_count_min":5000,"word_count_max":5000}}}}`,
		`{"content_format":"blocks","custom_fields":{"r":{"mode":"create","field_type":"wysiwyg"}}}`, `{"content_format":"Markdown"}`, `{"content_format":[]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRoundTrip(t, data, templates.ParseFieldConfig)
	})
}

func FuzzDecodeTaxonomyConfig(f *testing.F) {
	for _, seed := range []string{
		`{}`, `null`, `{"category":{"mode":"choose","term_ids":[1,2],"count_min":0,"count_max":50}}`,
		`{"tag":{"mode":"create","use_existing":true,"selection_mode":"rotate"}}`,
		`{"tag":{"mode":"choose","term_ids":[9223372036854775807]}}`, `{"":{"mode":"none"}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzRoundTrip(t, data, templates.ParseTaxonomyConfig)
	})
}
