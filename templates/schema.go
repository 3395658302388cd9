package templates

import (
	"slices"

	"github.com/contentgen/contentgen/templates/fields"
)

// Modes returns the field modes that make sense for a field type: every
// type supports none and create; choose is offered where a list of fixed
// values can be given (not for media, layouts, links and maps).
func Modes(fieldType string) []string {
	switch fieldType {
	case fields.TypeImage, fields.TypeFile, fields.TypeGallery, fields.TypeRepeater, fields.TypeGroup, fields.TypeLink, fields.TypeGoogleMap, fields.TypePassword:
		return []string{ModeNone, ModeCreate}
	}
	return []string{ModeNone, ModeChoose, ModeCreate}
}

// SchemaOption describes one create option of a field type.
type SchemaOption struct {
	Name string `json:"name"`
	// Type is the JSON type: "integer", "number", "boolean" or "string".
	Type        string   `json:"type"`
	Default     any      `json:"default"`
	Min         *float64 `json:"min,omitempty"`
	Max         *float64 `json:"max,omitempty"`
	Values      []string `json:"values,omitempty"`
	Description string   `json:"description"`
}

// FieldSchema is the answer of GET /field-schema/{field_type} without the
// envelope: the creation methods and options of a field type.
type FieldSchema struct {
	FieldType string   `json:"field_type"`
	Category  string   `json:"category"`
	Modes     []string `json:"modes"`
	// Methods are the create methods; "auto" for types generated from
	// their own settings only.
	Methods []string `json:"methods"`
	// Options are the create options the type honours.
	Options []SchemaOption `json:"options"`
	// SelectionModes are the selection modes of mode choose; empty when
	// choose does not apply.
	SelectionModes []string `json:"selection_modes"`
	// Semantic is true when the type's values follow the detected
	// semantic type of the field.
	Semantic bool `json:"semantic"`
}

// SchemaFor returns the schema of fieldType; false for types outside
// FieldTypes.
func SchemaFor(fieldType string) (FieldSchema, bool) {
	if !slices.Contains(fields.Types(), fieldType) {
		return FieldSchema{}, false
	}
	s := FieldSchema{
		FieldType: fieldType, Category: fields.Category(fieldType), Modes: Modes(fieldType),
		Methods: []string{"auto"}, Options: []SchemaOption{}, SelectionModes: []string{},
	}
	for _, m := range s.Modes {
		if m == ModeChoose {
			s.SelectionModes = []string{SelectionRandom, SelectionRotate}
		}
	}
	words := []SchemaOption{
		{Name: "word_count_min", Type: "integer", Default: 2, Min: ptr(1.0), Max: ptr(float64(maxWordCount)), Description: "fewest words (method words)"},
		{Name: "word_count_max", Type: "integer", Default: 6, Min: ptr(1.0), Max: ptr(float64(maxWordCount)), Description: "most words (method words)"},
	}
	paras := func(lo, hi int) []SchemaOption {
		return []SchemaOption{
			{Name: "paragraph_count_min", Type: "integer", Default: lo, Min: ptr(1.0), Max: ptr(float64(maxParagraphCount)), Description: "fewest paragraphs (method paragraphs)"},
			{Name: "paragraph_count_max", Type: "integer", Default: hi, Min: ptr(1.0), Max: ptr(float64(maxParagraphCount)), Description: "most paragraphs (method paragraphs)"},
		}
	}
	switch fieldType {
	case fields.TypeText:
		s.Methods = []string{MethodWords, MethodSentence, MethodParagraphs}
		s.Options = append(words, paras(1, 2)...)
		s.Semantic = true
	case fields.TypeTextarea:
		s.Methods = []string{MethodParagraphs, MethodSentence, MethodWords}
		s.Options = append(words, paras(1, 2)...)
		s.Semantic = true
	case fields.TypeWYSIWYG:
		s.Methods = []string{MethodParagraphs, MethodSentence, MethodWords}
		s.Options = append(paras(3, 6),
			SchemaOption{Name: "include_html", Type: "boolean", Default: true, Description: "write paragraphs in the content format (HTML, block markup or Markdown) rather than plain text"},
			SchemaOption{Name: "html_options.headings", Type: "boolean", Default: false, Description: "insert <h2> headings"},
			SchemaOption{Name: "html_options.lists", Type: "boolean", Default: false, Description: "insert one <ul> list"},
		)
	case fields.TypeNumber, fields.TypeRange:
		s.Methods = []string{"random"}
		s.Options = []SchemaOption{
			{Name: "min", Type: "number", Default: nil, Description: "lowest value; narrows the field's own minimum"},
			{Name: "max", Type: "number", Default: nil, Description: "highest value; narrows the field's own maximum"},
			{Name: "decimal_places", Type: "integer", Default: 0, Min: ptr(0.0), Max: ptr(float64(maxDecimalPlaces)), Description: "digits after the decimal point (the field's step wins)"},
		}
		s.Semantic = true
	case fields.TypeEmail, fields.TypeURL, fields.TypeDatePicker, fields.TypeDateTimePicker, fields.TypeTimePicker:
		s.Semantic = true
	}
	return s, true
}

// FieldInfo is one field as GET /templates/fields/{post_type} lists it.
type FieldInfo struct {
	Key      string   `json:"key,omitempty"`
	Name     string   `json:"name"`
	Label    string   `json:"label"`
	Type     string   `json:"type"`
	Category string   `json:"category"`
	Required bool     `json:"required"`
	Modes    []string `json:"modes"`
	// Default is the setting used when a template does not configure the
	// field.
	Default FieldSetting `json:"default"`
}

// DescribeField returns the listing of f with its default setting.
func DescribeField(f *fields.Field) FieldInfo {
	return FieldInfo{
		Key: f.Key, Name: f.Name, Label: f.Label, Type: f.Type, Category: fields.Category(f.Type),
		Required: f.Required, Modes: Modes(f.Type), Default: DefaultSetting(f),
	}
}

// DefaultSetting is the setting a field gets when nothing configures it:
// mode create with the type's default options.
func DefaultSetting(f *fields.Field) FieldSetting {
	s := FieldSetting{Mode: ModeCreate, FieldType: f.Type}
	switch f.Type {
	case fields.TypeText:
		s.Create = &CreateOptions{Method: MethodWords, WordCountMin: 2, WordCountMax: 6}
	case fields.TypeTextarea:
		s.Create = &CreateOptions{Method: MethodParagraphs, ParagraphCountMin: 1, ParagraphCountMax: 2}
	case fields.TypeWYSIWYG:
		s.Create = &CreateOptions{Method: MethodParagraphs, ParagraphCountMin: 3, ParagraphCountMax: 6, IncludeHTML: ptr(true), HTMLOptions: &HTMLOptions{}}
	case fields.TypeNumber, fields.TypeRange:
		o := &CreateOptions{}
		if f.Min != nil {
			o.Min = ptr(*f.Min)
		}
		if f.Max != nil {
			o.Max = ptr(*f.Max)
		}
		s.Create = o
	}
	return s
}
