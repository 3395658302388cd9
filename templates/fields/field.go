package fields

import (
	"slices"

	"github.com/contentgen/contentgen/internal/jsonclone"
)

// Field types understood by detection, value generation and the ACF
// adapter. They are the type names of Advanced Custom Fields.
const (
	TypeText           = "text"
	TypeTextarea       = "textarea"
	TypeNumber         = "number"
	TypeRange          = "range"
	TypeEmail          = "email"
	TypeURL            = "url"
	TypePassword       = "password"
	TypeImage          = "image"
	TypeFile           = "file"
	TypeWYSIWYG        = "wysiwyg"
	TypeSelect         = "select"
	TypeCheckbox       = "checkbox"
	TypeRadio          = "radio"
	TypeTrueFalse      = "true_false"
	TypeDatePicker     = "date_picker"
	TypeDateTimePicker = "date_time_picker"
	TypeTimePicker     = "time_picker"
	TypeColorPicker    = "color_picker"
	TypeRelationship   = "relationship"
	TypePostObject     = "post_object"
	TypeTaxonomy       = "taxonomy"
	TypeUser           = "user"
	TypeRepeater       = "repeater"
	TypeGroup          = "group"
	TypeGallery        = "gallery"
	TypeLink           = "link"
	TypeGoogleMap      = "google_map"
)

// Types returns the supported field types, in a stable order.
func Types() []string {
	return []string{
		TypeText, TypeTextarea, TypeNumber, TypeRange, TypeEmail, TypeURL, TypePassword,
		TypeImage, TypeFile, TypeWYSIWYG, TypeSelect, TypeCheckbox, TypeRadio, TypeTrueFalse,
		TypeDatePicker, TypeDateTimePicker, TypeTimePicker, TypeColorPicker,
		TypeRelationship, TypePostObject, TypeTaxonomy, TypeUser,
		TypeRepeater, TypeGroup, TypeGallery, TypeLink, TypeGoogleMap,
	}
}

// Field is a custom field definition as a field adapter reports it. Its
// JSON form is the spec's "detected custom field" record: key, name, label,
// type, required, instructions, min, max and step when set, and
// detected_type; the other settings are not part of it.
type Field struct {
	// Key identifies the field within its adapter (ACF "field_…" keys).
	Key string `json:"key"`
	// Name is the meta key values are stored under.
	Name  string `json:"name"`
	Label string `json:"label"`
	// Type is one of the Type constants; unknown types are generated as
	// short text.
	Type string `json:"type"`
	// Required fields are never left empty, not even under mode none.
	Required     bool   `json:"required"`
	Instructions string `json:"instructions"`
	// Min and Max bound the value of number and range fields, and the
	// number of items of relationship, post_object (multiple), gallery,
	// checkbox and repeater (rows) fields. Nil means unbounded (a default
	// applies).
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
	// Step is the granularity of number and range values.
	Step *float64 `json:"step,omitempty"`
	// DetectedType is the semantic type (see Detect), "" when undetected.
	// Value generation of text-like fields follows it.
	DetectedType string `json:"detected_type"`

	// MaxLength caps the length in characters of text, textarea, email,
	// url and password values; 0 means no cap.
	MaxLength int `json:"-"`
	// Choices are the options of select, checkbox and radio fields, in
	// order.
	Choices []Choice `json:"-"`
	// Multiple allows several values: select, post_object, user, and
	// taxonomy fields shown as checkbox or multi_select.
	Multiple bool `json:"-"`
	// AllowNull lets a select, post_object, user or taxonomy field be
	// empty; it is ignored when Required is set.
	AllowNull bool `json:"-"`
	// ReturnFormat is the field's ACF return format: "value", "label" or
	// "array" for choices; "id", "url" or "array" for images and files;
	// "id" or "object" for posts and terms; "array" or "url" for links; a
	// PHP date format for date and time pickers.
	ReturnFormat string `json:"-"`
	// PostTypes are the target post types of relationship and post_object
	// fields; empty means any.
	PostTypes []string `json:"-"`
	// Taxonomy is the taxonomy of a taxonomy field.
	Taxonomy string `json:"-"`
	// Roles restricts user fields to these roles; empty means any.
	Roles []string `json:"-"`
	// SubFields are the fields of a repeater row or group.
	SubFields []Field `json:"-"`
	// DefaultValue is the field's default value, if it declares one.
	DefaultValue any `json:"-"`
	// EnableOpacity makes color_picker values rgba() strings.
	EnableOpacity bool `json:"-"`
}

// Choice is one option of a select, checkbox or radio field.
type Choice struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// Group is a titled set of fields an adapter defines for post types.
type Group struct {
	Key   string `json:"key"`
	Title string `json:"title"`
	// PostTypes are the post types the group applies to.
	PostTypes []string `json:"post_types"`
	Fields    []Field  `json:"fields"`
}

// AppliesTo reports whether g applies to postType.
func (g *Group) AppliesTo(postType string) bool {
	return slices.Contains(g.PostTypes, postType)
}

// Cardinalities of relations.
const (
	ManyToOne  = "many_to_one"
	ManyToMany = "many_to_many"
	OneToOne   = "one_to_one"
	OneToMany  = "one_to_many"
)

// Relation is a relation definition between post types that is not a
// field (for example one kept by a relationship plugin). Posts of From
// point at posts of To.
type Relation struct {
	// Name identifies the relation; dependency entries report it as
	// field_name.
	Name  string `json:"name"`
	Label string `json:"label"`
	// From is the source post type.
	From string `json:"from"`
	// To are the target post types.
	To []string `json:"to"`
	// Cardinality is one of ManyToOne, ManyToMany, OneToOne, OneToMany.
	Cardinality string `json:"cardinality"`
	Required    bool   `json:"required"`
}

// IsRelational reports whether fields of type t point at other objects
// (posts, terms, users or media), so that their values are Refs.
func IsRelational(t string) bool {
	switch t {
	case TypeRelationship, TypePostObject, TypeTaxonomy, TypeUser, TypeImage, TypeFile, TypeGallery:
		return true
	}
	return false
}

// Flatten returns fields and, depth first, the sub-fields of repeaters and
// groups, with sub-field names prefixed by their parents' names and "_"
// (as ACF names the meta keys of group sub-fields).
func Flatten(fields []Field) []Field {
	var out []Field
	var walk func(prefix string, fs []Field)
	walk = func(prefix string, fs []Field) {
		for _, f := range fs {
			g := f
			g.Name = prefix + f.Name
			g.SubFields = nil
			out = append(out, g)
			if len(f.SubFields) > 0 {
				walk(g.Name+"_", f.SubFields)
			}
		}
	}
	walk("", fields)
	return out
}

// Clone returns a deep copy of f.
func (f Field) Clone() Field {
	if f.Min != nil {
		f.Min = ptr(*f.Min)
	}
	if f.Max != nil {
		f.Max = ptr(*f.Max)
	}
	if f.Step != nil {
		f.Step = ptr(*f.Step)
	}
	f.Choices = slices.Clone(f.Choices)
	f.PostTypes = slices.Clone(f.PostTypes)
	f.Roles = slices.Clone(f.Roles)
	f.DefaultValue = jsonclone.Value(f.DefaultValue)
	if f.SubFields != nil {
		subs := make([]Field, len(f.SubFields))
		for i, s := range f.SubFields {
			subs[i] = s.Clone()
		}
		f.SubFields = subs
	}
	return f
}

// Clone returns a deep copy of g.
func (g Group) Clone() Group {
	g.PostTypes = slices.Clone(g.PostTypes)
	if g.Fields != nil {
		fs := make([]Field, len(g.Fields))
		for i, f := range g.Fields {
			fs[i] = f.Clone()
		}
		g.Fields = fs
	}
	return g
}

// Clone returns a deep copy of r.
func (r Relation) Clone() Relation {
	r.To = slices.Clone(r.To)
	return r
}

// coreSupport is the post type feature each core field needs, if any.
var coreSupport = map[string]string{
	CorePostTitle:   "title",
	CorePostContent: "editor",
	CorePostExcerpt: "excerpt",
	CorePostAuthor:  "author",
}

// SupportedCoreFields returns the core fields a post type with the given
// features (such as "title", "editor", "excerpt", "author") can
// configure: those whose feature it supports, and those that need none.
func SupportedCoreFields(features []string) []Field {
	var out []Field
	for _, f := range CoreFields() {
		if feat, ok := coreSupport[f.Name]; ok && !slices.Contains(features, feat) {
			continue
		}
		out = append(out, f)
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// nonNil returns s, or an empty list for nil, for lists that are
// reported as [] rather than null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
