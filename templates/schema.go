package templates

// Field categories, as /templates/fields and /field-schema report them.
const (
	CategoryText       = "text"
	CategoryNumber     = "number"
	CategoryChoice     = "choice"
	CategoryDate       = "date"
	CategoryMedia      = "media"
	CategoryRelational = "relational"
	CategoryLayout     = "layout"
	CategorySpecial    = "special"
)

// Category returns the category of a field type; unknown types are text.
func Category(fieldType string) string {
	switch fieldType {
	case TypeNumber, TypeRange:
		return CategoryNumber
	case TypeSelect, TypeCheckbox, TypeRadio, TypeTrueFalse:
		return CategoryChoice
	case TypeDatePicker, TypeDateTimePicker, TypeTimePicker:
		return CategoryDate
	case TypeImage, TypeFile, TypeGallery:
		return CategoryMedia
	case TypeRelationship, TypePostObject, TypeTaxonomy, TypeUser:
		return CategoryRelational
	case TypeRepeater, TypeGroup:
		return CategoryLayout
	case TypeColorPicker, TypeLink, TypeGoogleMap:
		return CategorySpecial
	}
	return CategoryText
}

// Modes returns the field modes that make sense for a field type: every
// type supports none and create; choose is offered where a list of fixed
// values can be given (not for media, layouts, links and maps).
func Modes(fieldType string) []string {
	switch fieldType {
	case TypeImage, TypeFile, TypeGallery, TypeRepeater, TypeGroup, TypeLink, TypeGoogleMap, TypePassword:
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
	if !fieldTypeSet()[fieldType] {
		return FieldSchema{}, false
	}
	s := FieldSchema{
		FieldType: fieldType, Category: Category(fieldType), Modes: Modes(fieldType),
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
	case TypeText:
		s.Methods = []string{MethodWords, MethodSentence, MethodParagraphs}
		s.Options = append(words, paras(1, 2)...)
		s.Semantic = true
	case TypeTextarea:
		s.Methods = []string{MethodParagraphs, MethodSentence, MethodWords}
		s.Options = append(words, paras(1, 2)...)
		s.Semantic = true
	case TypeWYSIWYG:
		s.Methods = []string{MethodParagraphs, MethodSentence, MethodWords}
		s.Options = append(paras(3, 6),
			SchemaOption{Name: "include_html", Type: "boolean", Default: true, Description: "write paragraphs in the content format (HTML, block markup or Markdown) rather than plain text"},
			SchemaOption{Name: "html_options.headings", Type: "boolean", Default: false, Description: "insert <h2> headings"},
			SchemaOption{Name: "html_options.lists", Type: "boolean", Default: false, Description: "insert one <ul> list"},
		)
	case TypeNumber, TypeRange:
		s.Methods = []string{"random"}
		s.Options = []SchemaOption{
			{Name: "min", Type: "number", Default: nil, Description: "lowest value; narrows the field's own minimum"},
			{Name: "max", Type: "number", Default: nil, Description: "highest value; narrows the field's own maximum"},
			{Name: "decimal_places", Type: "integer", Default: 0, Min: ptr(0.0), Max: ptr(float64(maxDecimalPlaces)), Description: "digits after the decimal point (the field's step wins)"},
		}
		s.Semantic = true
	case TypeEmail, TypeURL, TypeDatePicker, TypeDateTimePicker, TypeTimePicker:
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
func DescribeField(f *Field) FieldInfo {
	return FieldInfo{
		Key: f.Key, Name: f.Name, Label: f.Label, Type: f.Type, Category: Category(f.Type),
		Required: f.Required, Modes: Modes(f.Type), Default: DefaultSetting(f),
	}
}

// DefaultSetting is the setting a field gets when nothing configures it:
// mode create with the type's default options.
func DefaultSetting(f *Field) FieldSetting {
	s := FieldSetting{Mode: ModeCreate, FieldType: f.Type}
	switch f.Type {
	case TypeText:
		s.Create = &CreateOptions{Method: MethodWords, WordCountMin: 2, WordCountMax: 6}
	case TypeTextarea:
		s.Create = &CreateOptions{Method: MethodParagraphs, ParagraphCountMin: 1, ParagraphCountMax: 2}
	case TypeWYSIWYG:
		s.Create = &CreateOptions{Method: MethodParagraphs, ParagraphCountMin: 3, ParagraphCountMax: 6, IncludeHTML: ptr(true), HTMLOptions: &HTMLOptions{}}
	case TypeNumber, TypeRange:
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

// Core field names.
const (
	CorePostTitle   = "post_title"
	CorePostContent = "post_content"
	CorePostExcerpt = "post_excerpt"
	CorePostStatus  = "post_status"
	CorePostDate    = "post_date"
	CorePostAuthor  = "post_author"
)

// CoreFields returns the definitions of the platform's built-in post
// fields, in display order, so that a Filler can fill them under a
// FieldConfig's core_fields.
func CoreFields() []Field {
	return []Field{
		{Name: CorePostTitle, Label: "Title", Type: TypeText, Required: true, DetectedType: SemTitle},
		{Name: CorePostContent, Label: "Content", Type: TypeWYSIWYG},
		{Name: CorePostExcerpt, Label: "Excerpt", Type: TypeTextarea},
		{Name: CorePostStatus, Label: "Status", Type: TypeSelect, Choices: []Choice{
			{Value: "publish", Label: "Published"}, {Value: "draft", Label: "Draft"}, {Value: "pending", Label: "Pending review"},
			{Value: "private", Label: "Private"}, {Value: "future", Label: "Scheduled"},
		}},
		{Name: CorePostDate, Label: "Date", Type: TypeDateTimePicker, ReturnFormat: "Y-m-d H:i:s"},
		{Name: CorePostAuthor, Label: "Author", Type: TypeUser},
	}
}
