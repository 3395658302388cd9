package templates

import (
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/contentgen/contentgen/internal/jsonclone"
	"github.com/contentgen/contentgen/locales/markup"
)

// Field modes.
const (
	ModeNone   = "none"
	ModeChoose = "choose"
	ModeCreate = "create"
)

// Selection modes of mode choose.
const (
	// SelectionRandom picks a value at random each time (the default).
	SelectionRandom = "random"
	// SelectionRotate walks the values in order across a batch, so every
	// value is used once before any repeats.
	SelectionRotate = "rotate"
)

// Create methods of text-like fields.
const (
	MethodWords      = "words"
	MethodParagraphs = "paragraphs"
	MethodSentence   = "sentence"
)

// Limits enforced by Validate.
const (
	maxWordCount      = 5000
	maxParagraphCount = 100
	maxDecimalPlaces  = 10
	maxTermCount      = 50
)

// FieldConfig is the field configuration of a template or request.
type FieldConfig struct {
	// CoreFields maps core field names (post_title, post_content,
	// post_excerpt, post_status, post_date, post_author) to settings.
	CoreFields map[string]FieldSetting `json:"core_fields,omitempty"`
	// CustomFields maps custom field names to settings.
	CustomFields map[string]FieldSetting `json:"custom_fields,omitempty"`
	// ContentFormat is the format of post_content and of wysiwyg field
	// values: markup.HTML, markup.Blocks or markup.Markdown; "" leaves
	// the choice to the request (HTML by default).
	ContentFormat markup.Format `json:"content_format,omitempty"`
	// TextSource is the text source of the posts ("lorem", "realtext" or
	// "ai"); "" leaves it to the request and the settings. A request's
	// own text source overrides it.
	TextSource string `json:"text_source,omitempty"`
}

// FieldSetting configures how one field is filled.
type FieldSetting struct {
	Mode      string         `json:"mode"`
	FieldType string         `json:"field_type,omitempty"`
	Create    *CreateOptions `json:"create,omitempty"`
	Choose    *ChooseOptions `json:"choose,omitempty"`
}

// CreateOptions are the options of mode create.
type CreateOptions struct {
	// Method is "words", "paragraphs" or "sentence" for text-like fields.
	Method            string       `json:"method,omitempty"`
	WordCountMin      int          `json:"word_count_min,omitempty"`
	WordCountMax      int          `json:"word_count_max,omitempty"`
	ParagraphCountMin int          `json:"paragraph_count_min,omitempty"`
	ParagraphCountMax int          `json:"paragraph_count_max,omitempty"`
	IncludeHTML       *bool        `json:"include_html,omitempty"`
	HTMLOptions       *HTMLOptions `json:"html_options,omitempty"`
	Min               *float64     `json:"min,omitempty"`
	Max               *float64     `json:"max,omitempty"`
	DecimalPlaces     int          `json:"decimal_places,omitempty"`
}

// HTMLOptions are the HTML options of post_content.
type HTMLOptions struct {
	Headings bool `json:"headings"`
	Lists    bool `json:"lists"`
}

// ChooseOptions are the options of mode choose.
type ChooseOptions struct {
	Values []any `json:"values"`
	// SelectionMode is "random" or "rotate".
	SelectionMode string `json:"selection_mode,omitempty"`
}

// TaxonomyConfig maps taxonomy slug to its setting.
type TaxonomyConfig map[string]TaxonomySetting

// TaxonomySetting configures the terms assigned to generated posts in one
// taxonomy.
type TaxonomySetting struct {
	Mode          string  `json:"mode"`
	TermIDs       []int64 `json:"term_ids,omitempty"`
	CountMin      *int    `json:"count_min,omitempty"`
	CountMax      *int    `json:"count_max,omitempty"`
	SelectionMode string  `json:"selection_mode,omitempty"`
	UseExisting   bool    `json:"use_existing,omitempty"`
}

// ParseFieldConfig decodes and validates a field_config JSON object. The
// error is a *ParamError naming the offending parameter under
// "field_config" (for example "field_config.custom_fields.price.mode").
// Unknown keys are ignored; JSON null gives the zero configuration.
func ParseFieldConfig(data []byte) (FieldConfig, error) {
	var raw struct {
		CoreFields    map[string]json.RawMessage `json:"core_fields"`
		CustomFields  map[string]json.RawMessage `json:"custom_fields"`
		ContentFormat markup.Format              `json:"content_format"`
		TextSource    string                     `json:"text_source"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return FieldConfig{}, jsonParamErr("field_config", err)
	}
	c := FieldConfig{ContentFormat: raw.ContentFormat, TextSource: raw.TextSource}
	var err error
	if c.CoreFields, err = decodeSettings("field_config.core_fields", raw.CoreFields); err != nil {
		return FieldConfig{}, err
	}
	if c.CustomFields, err = decodeSettings("field_config.custom_fields", raw.CustomFields); err != nil {
		return FieldConfig{}, err
	}
	if err := c.Validate(); err != nil {
		return FieldConfig{}, err
	}
	return c, nil
}

func decodeSettings(param string, raw map[string]json.RawMessage) (map[string]FieldSetting, error) {
	if raw == nil {
		return nil, nil
	}
	out := make(map[string]FieldSetting, len(raw))
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		var s FieldSetting
		if err := json.Unmarshal(raw[name], &s); err != nil {
			return nil, jsonParamErr(param+"."+name, err)
		}
		out[name] = s
	}
	return out, nil
}

// ParseTaxonomyConfig decodes and validates a taxonomy_config JSON object.
// The error is a *ParamError naming the offending parameter under
// "taxonomy_config".
func ParseTaxonomyConfig(data []byte) (TaxonomyConfig, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, jsonParamErr("taxonomy_config", err)
	}
	if raw == nil {
		return nil, nil
	}
	c := make(TaxonomyConfig, len(raw))
	for _, slug := range slices.Sorted(maps.Keys(raw)) {
		var s TaxonomySetting
		if err := json.Unmarshal(raw[slug], &s); err != nil {
			return nil, jsonParamErr("taxonomy_config."+slug, err)
		}
		c[slug] = s
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// jsonParamErr turns a decoding error into a *ParamError, naming the
// field of a type mismatch when encoding/json reports it.
func jsonParamErr(param string, err error) *ParamError {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return paramErr(param+"."+te.Field, "%s.%s has the wrong JSON type (%s expected)", param, te.Field, te.Type)
	}
	return paramErr(param, "%s is not valid JSON of the expected shape", param)
}

// Validate checks the configuration without knowing the site: modes,
// selection modes, counts and ranges. It returns a *ParamError naming the
// first offending parameter (under "field_config"), in key order.
func (c FieldConfig) Validate() error {
	if c.ContentFormat != "" && !c.ContentFormat.Valid() {
		return paramErr("field_config.content_format", "field_config.content_format must be one of html, blocks, markdown, got %q", string(c.ContentFormat))
	}
	switch c.TextSource {
	case "", "lorem", "realtext", "ai":
	default:
		return paramErr("field_config.text_source", "field_config.text_source must be one of lorem, realtext, ai, got %q", c.TextSource)
	}
	for _, part := range []struct {
		name string
		m    map[string]FieldSetting
	}{{"core_fields", c.CoreFields}, {"custom_fields", c.CustomFields}} {
		for _, name := range slices.Sorted(maps.Keys(part.m)) {
			param := "field_config." + part.name + "." + name
			if strings.TrimSpace(name) == "" {
				return paramErr("field_config."+part.name, "field_config.%s has an empty field name", part.name)
			}
			if err := part.m[name].validate(param); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s FieldSetting) validate(param string) error {
	switch s.Mode {
	case ModeNone, ModeChoose, ModeCreate:
	default:
		return paramErr(param+".mode", "%s.mode must be one of none, choose, create", param)
	}
	if s.Mode == ModeChoose {
		if s.Choose == nil || len(s.Choose.Values) == 0 {
			return paramErr(param+".choose.values", "%s.choose.values must list at least one value in choose mode", param)
		}
	}
	if s.Choose != nil {
		switch s.Choose.SelectionMode {
		case "", SelectionRandom, SelectionRotate:
		default:
			return paramErr(param+".choose.selection_mode", "%s.choose.selection_mode must be random or rotate", param)
		}
	}
	if o := s.Create; o != nil {
		p := param + ".create"
		switch o.Method {
		case "", MethodWords, MethodParagraphs, MethodSentence:
		default:
			return paramErr(p+".method", "%s.method must be one of words, paragraphs, sentence", p)
		}
		if err := checkRange(p, "word_count", o.WordCountMin, o.WordCountMax, maxWordCount); err != nil {
			return err
		}
		if err := checkRange(p, "paragraph_count", o.ParagraphCountMin, o.ParagraphCountMax, maxParagraphCount); err != nil {
			return err
		}
		if o.Min != nil && o.Max != nil && *o.Min > *o.Max {
			return paramErr(p+".max", "%s.max must not be below %s.min", p, p)
		}
		if o.DecimalPlaces < 0 || o.DecimalPlaces > maxDecimalPlaces {
			return paramErr(p+".decimal_places", "%s.decimal_places must be between 0 and %d", p, maxDecimalPlaces)
		}
	}
	return nil
}

func checkRange(p, name string, lo, hi, limit int) error {
	if lo < 0 || lo > limit {
		return paramErr(p+"."+name+"_min", "%s.%s_min must be between 0 and %d", p, name, limit)
	}
	if hi < 0 || hi > limit {
		return paramErr(p+"."+name+"_max", "%s.%s_max must be between 0 and %d", p, name, limit)
	}
	if hi > 0 && lo > hi {
		return paramErr(p+"."+name+"_max", "%s.%s_max must not be below %s_min", p, name, name)
	}
	return nil
}

// Validate checks the configuration without knowing the site (whether the
// taxonomies and terms exist is the caller's check). It returns a
// *ParamError naming the first offending parameter (under
// "taxonomy_config"), in slug order.
func (c TaxonomyConfig) Validate() error {
	for _, slug := range slices.Sorted(maps.Keys(c)) {
		s := c[slug]
		param := "taxonomy_config." + slug
		if strings.TrimSpace(slug) == "" {
			return paramErr("taxonomy_config", "taxonomy_config has an empty taxonomy slug")
		}
		switch s.Mode {
		case ModeNone, ModeChoose, ModeCreate:
		default:
			return paramErr(param+".mode", "%s.mode must be one of none, choose, create", param)
		}
		if s.CountMin != nil && (*s.CountMin < 0 || *s.CountMin > maxTermCount) {
			return paramErr(param+".count_min", "%s.count_min must be between 0 and %d", param, maxTermCount)
		}
		if s.CountMax != nil && (*s.CountMax < 0 || *s.CountMax > maxTermCount) {
			return paramErr(param+".count_max", "%s.count_max must be between 0 and %d", param, maxTermCount)
		}
		if s.CountMin != nil && s.CountMax != nil && *s.CountMin > *s.CountMax {
			return paramErr(param+".count_max", "%s.count_max must not be below count_min", param)
		}
		switch s.SelectionMode {
		case "", SelectionRandom, SelectionRotate:
		default:
			return paramErr(param+".selection_mode", "%s.selection_mode must be random or rotate", param)
		}
		if s.Mode == ModeChoose && len(s.TermIDs) == 0 {
			return paramErr(param+".term_ids", "%s.term_ids must list at least one term in choose mode", param)
		}
		for _, id := range s.TermIDs {
			if id <= 0 {
				return paramErr(param+".term_ids", "%s.term_ids must hold positive term ids", param)
			}
		}
	}
	return nil
}

// Clone returns a deep copy of c.
func (c FieldConfig) Clone() FieldConfig {
	return FieldConfig{CoreFields: cloneSettings(c.CoreFields), CustomFields: cloneSettings(c.CustomFields), ContentFormat: c.ContentFormat, TextSource: c.TextSource}
}

func cloneSettings(m map[string]FieldSetting) map[string]FieldSetting {
	if m == nil {
		return nil
	}
	out := make(map[string]FieldSetting, len(m))
	for k, v := range m {
		out[k] = v.Clone()
	}
	return out
}

// Clone returns a deep copy of s.
func (s FieldSetting) Clone() FieldSetting {
	if s.Create != nil {
		c := *s.Create
		if c.IncludeHTML != nil {
			c.IncludeHTML = ptr(*c.IncludeHTML)
		}
		if c.HTMLOptions != nil {
			c.HTMLOptions = ptr(*c.HTMLOptions)
		}
		if c.Min != nil {
			c.Min = ptr(*c.Min)
		}
		if c.Max != nil {
			c.Max = ptr(*c.Max)
		}
		s.Create = &c
	}
	if s.Choose != nil {
		c := *s.Choose
		c.Values = jsonclone.Value(c.Values).([]any)
		s.Choose = &c
	}
	return s
}

// Clone returns a deep copy of c (nil stays nil).
func (c TaxonomyConfig) Clone() TaxonomyConfig {
	if c == nil {
		return nil
	}
	out := make(TaxonomyConfig, len(c))
	for k, s := range c {
		s.TermIDs = slices.Clone(s.TermIDs)
		if s.CountMin != nil {
			s.CountMin = ptr(*s.CountMin)
		}
		if s.CountMax != nil {
			s.CountMax = ptr(*s.CountMax)
		}
		out[k] = s
	}
	return out
}

// MergeFieldConfig returns base with every field setting of override laid
// over it, field by field: a field named in override takes override's
// setting whole; other fields keep base's. override's ContentFormat, when
// set, replaces base's. Neither argument is modified.
func MergeFieldConfig(base, override FieldConfig) FieldConfig {
	out := base.Clone()
	if override.ContentFormat != "" {
		out.ContentFormat = override.ContentFormat
	}
	if override.TextSource != "" {
		out.TextSource = override.TextSource
	}
	out.CoreFields = mergeSettings(out.CoreFields, override.CoreFields)
	out.CustomFields = mergeSettings(out.CustomFields, override.CustomFields)
	return out
}

func mergeSettings(dst, src map[string]FieldSetting) map[string]FieldSetting {
	if len(src) == 0 {
		return dst
	}
	if dst == nil {
		dst = make(map[string]FieldSetting, len(src))
	}
	for k, v := range src {
		dst[k] = v.Clone()
	}
	return dst
}

// MergeTaxonomyConfig returns base with the settings of override laid over
// it, taxonomy by taxonomy. Neither argument is modified.
func MergeTaxonomyConfig(base, override TaxonomyConfig) TaxonomyConfig {
	out := base.Clone()
	if len(override) > 0 && out == nil {
		out = make(TaxonomyConfig, len(override))
	}
	maps.Copy(out, override.Clone())
	return out
}

// DiffFieldConfig returns the settings of full that differ from base or
// are missing in base: what a variant of base must store so that merging
// it over base gives full (for every field full names). A ContentFormat
// full sets and base does not share is kept; an unset one inherits base's,
// as merging treats it.
func DiffFieldConfig(base, full FieldConfig) FieldConfig {
	out := FieldConfig{
		CoreFields:   diffSettings(base.CoreFields, full.CoreFields),
		CustomFields: diffSettings(base.CustomFields, full.CustomFields),
	}
	if full.ContentFormat != base.ContentFormat {
		out.ContentFormat = full.ContentFormat
	}
	if full.TextSource != base.TextSource {
		out.TextSource = full.TextSource
	}
	return out
}

func diffSettings(base, full map[string]FieldSetting) map[string]FieldSetting {
	var out map[string]FieldSetting
	for k, v := range full {
		if b, ok := base[k]; ok && reflect.DeepEqual(b, v) {
			continue
		}
		if out == nil {
			out = map[string]FieldSetting{}
		}
		out[k] = v.Clone()
	}
	return out
}

// DiffTaxonomyConfig returns the settings of full that differ from base or
// are missing in base.
func DiffTaxonomyConfig(base, full TaxonomyConfig) TaxonomyConfig {
	var out TaxonomyConfig
	for k, v := range full {
		if b, ok := base[k]; ok && reflect.DeepEqual(b, v) {
			continue
		}
		if out == nil {
			out = TaxonomyConfig{}
		}
		out[k] = TaxonomyConfig{k: v}.Clone()[k]
	}
	return out
}

func ptr[T any](v T) *T { return &v }
