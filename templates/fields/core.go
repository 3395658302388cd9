package fields

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
// fields, in display order, so that they are configured (a template's
// core_fields) and filled like custom fields.
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
