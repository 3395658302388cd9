package site

import (
	"context"
	"fmt"
	"os"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
	"github.com/contentgen/contentgen/templates/fields/acfjson"
)

// The demo site's custom fields: books with a field group covering the
// field types generation supports, and publishers that books point at.

// PublisherType is the post type books relate to.
var PublisherType = contentgen.PostType{
	Name: "publisher", Label: "Publishers", Public: true, HasArchive: true,
	Labels:      map[string]string{"name": "Publishers", "singular_name": "Publisher"},
	Description: "Publishing houses of the catalogue's books.",
	Supports:    []string{"title", "editor", "thumbnail"},
	MenuIcon:    "dashicons-building",
}

func num(v float64) *float64 { return &v }

// bookFields is the "Book details" field group.
func bookFields() []fields.Field {
	return []fields.Field{
		{Key: "field_book_isbn", Name: "isbn", Label: "ISBN", Type: fields.TypeText, Required: true, Instructions: "13 digits", MaxLength: 17},
		{Key: "field_book_subtitle", Name: "subtitle", Label: "Subtitle", Type: fields.TypeText, MaxLength: 120},
		{Key: "field_book_blurb", Name: "blurb", Label: "Blurb", Type: fields.TypeTextarea, MaxLength: 280},
		{Key: "field_book_author", Name: "author_name", Label: "Author", Type: fields.TypeText, Required: true},
		{Key: "field_book_author_email", Name: "author_email", Label: "Author e-mail", Type: fields.TypeEmail},
		{Key: "field_book_website", Name: "website", Label: "Book website", Type: fields.TypeURL},
		{Key: "field_book_price", Name: "price", Label: "Price", Type: fields.TypeNumber, Required: true, Min: num(0.99), Max: num(99.99), Step: num(0.01)},
		{Key: "field_book_pages", Name: "pages", Label: "Number of pages", Type: fields.TypeNumber, Min: num(40), Max: num(1200)},
		{Key: "field_book_rating", Name: "rating", Label: "Rating", Type: fields.TypeRange, Min: num(1), Max: num(5), Step: num(0.5)},
		{Key: "field_book_format", Name: "format", Label: "Format", Type: fields.TypeSelect, Required: true, ReturnFormat: "value", Choices: []fields.Choice{
			{Value: "hardcover", Label: "Hardcover"}, {Value: "paperback", Label: "Paperback"}, {Value: "ebook", Label: "E-book"}, {Value: "audio", Label: "Audiobook"},
		}},
		{Key: "field_book_audience", Name: "audience", Label: "Audience", Type: fields.TypeRadio, Choices: []fields.Choice{
			{Value: "children", Label: "Children"}, {Value: "young_adult", Label: "Young adult"}, {Value: "adult", Label: "Adult"},
		}},
		{Key: "field_book_awards", Name: "award_lists", Label: "Award lists", Type: fields.TypeCheckbox, Choices: []fields.Choice{
			{Value: "bestseller", Label: "Bestseller"}, {Value: "staff_pick", Label: "Staff pick"}, {Value: "prize", Label: "Prize winner"},
		}},
		{Key: "field_book_in_print", Name: "in_print", Label: "In print", Type: fields.TypeTrueFalse},
		{Key: "field_book_published", Name: "published_on", Label: "Publication date", Type: fields.TypeDatePicker, ReturnFormat: "Y-m-d"},
		{Key: "field_book_colour", Name: "spine_colour", Label: "Spine colour", Type: fields.TypeColorPicker},
		{Key: "field_book_cover", Name: "cover", Label: "Cover", Type: fields.TypeImage, ReturnFormat: "id"},
		{Key: "field_book_publisher", Name: "publisher", Label: "Publisher", Type: fields.TypePostObject, Required: true, PostTypes: []string{PublisherType.Name}, ReturnFormat: "id"},
		{Key: "field_book_series", Name: "series", Label: "Series", Type: fields.TypeTaxonomy, Taxonomy: demosite.GenreTaxonomy},
		{Key: "field_book_editor", Name: "editor", Label: "Editor", Type: fields.TypeUser, Roles: []string{"editor", "administrator"}},
		{Key: "field_book_review", Name: "review", Label: "Review", Type: fields.TypeWYSIWYG},
		{Key: "field_book_editions", Name: "editions", Label: "Editions", Type: fields.TypeRepeater, Min: num(1), Max: num(3), SubFields: []fields.Field{
			{Key: "field_edition_year", Name: "year", Label: "Year", Type: fields.TypeNumber, Min: num(1950), Max: num(2025)},
			{Key: "field_edition_language", Name: "language", Label: "Language", Type: fields.TypeText},
		}},
		{Key: "field_book_shop", Name: "shop_link", Label: "Shop link", Type: fields.TypeLink},
	}
}

// publisherFields is the "Publisher details" field group.
func publisherFields() []fields.Field {
	return []fields.Field{
		{Key: "field_pub_company", Name: "company_name", Label: "Company name", Type: fields.TypeText, Required: true},
		{Key: "field_pub_email", Name: "contact_email", Label: "Contact e-mail", Type: fields.TypeEmail},
		{Key: "field_pub_phone", Name: "phone", Label: "Phone", Type: fields.TypeText},
		{Key: "field_pub_website", Name: "website", Label: "Website", Type: fields.TypeURL},
		{Key: "field_pub_city", Name: "city", Label: "City", Type: fields.TypeText},
		{Key: "field_pub_postcode", Name: "postcode", Label: "Postcode", Type: fields.TypeText},
		{Key: "field_pub_country", Name: "country", Label: "Country", Type: fields.TypeText},
		{Key: "field_pub_founded", Name: "founded", Label: "Year founded", Type: fields.TypeNumber, Min: num(1800), Max: num(2025)},
	}
}

// Fields registers the publisher post type on host and returns the
// field adapters of the demo site: the field groups registered in code
// and, when acfDir is set, the ACF local JSON files of that directory,
// which win where both define a post type.
func Fields(ctx context.Context, register func(context.Context, contentgen.PostType) error, acfDir string) (*fields.Registry, error) {
	if err := register(ctx, PublisherType); err != nil {
		return nil, err
	}
	code := fields.NewCodeAdapter(
		fields.AdapterInfo{Name: "Demo field groups", Slug: "demo", Version: "1.0", Active: true},
		[]fields.Group{
			{Key: "group_book_details", Title: "Book details", PostTypes: []string{demosite.BookType}, Fields: bookFields()},
			{Key: "group_publisher_details", Title: "Publisher details", PostTypes: []string{PublisherType.Name}, Fields: publisherFields()},
		},
		nil,
	)
	if acfDir == "" {
		return fields.NewRegistry(code), nil
	}
	acf, err := acfAdapter(acfDir)
	if err != nil {
		return nil, err
	}
	return fields.NewRegistry(acf, code), nil
}

// ACFFields returns the field adapters of a site without the demo field
// groups: the ACF local JSON files of acfDir, or none when it is empty.
func ACFFields(acfDir string) (*fields.Registry, error) {
	if acfDir == "" {
		return fields.NewRegistry(), nil
	}
	acf, err := acfAdapter(acfDir)
	if err != nil {
		return nil, err
	}
	return fields.NewRegistry(acf), nil
}

// acfAdapter reads the ACF local JSON field groups of dir.
func acfAdapter(dir string) (fields.Adapter, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("-acf-json: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("-acf-json: %s is not a directory", dir)
	}
	return acfjson.New(os.DirFS(dir), &acfjson.Options{Primary: true, SkipInvalid: true}), nil
}

// StarterTemplates are the system templates of the demo site, one per
// demo post type.
func StarterTemplates() []templates.Input {
	choose := func(values ...any) templates.FieldSetting {
		return templates.FieldSetting{Mode: templates.ModeChoose, Choose: &templates.ChooseOptions{Values: values}}
	}
	create := func(o templates.CreateOptions) templates.FieldSetting {
		return templates.FieldSetting{Mode: templates.ModeCreate, Create: &o}
	}
	return []templates.Input{
		{
			Name: "Blog post starter", PostType: "post",
			Description: "Articles of four to six paragraphs with headings and lists, two to four tags.",
			FieldConfig: templates.FieldConfig{CoreFields: map[string]templates.FieldSetting{
				fields.CorePostContent: create(templates.CreateOptions{ParagraphCountMin: 4, ParagraphCountMax: 6, HTMLOptions: &templates.HTMLOptions{Headings: true, Lists: true}}),
			}},
			TaxonomyConfig: templates.TaxonomyConfig{"post_tag": {Mode: templates.ModeCreate, CountMin: templates.Ptr(2), CountMax: templates.Ptr(4), UseExisting: true}},
		},
		{
			Name: "Book starter", PostType: demosite.BookType,
			Description: "Catalogue entries: print formats only, 150 to 600 pages, one genre each.",
			FieldConfig: templates.FieldConfig{CustomFields: map[string]templates.FieldSetting{
				"format": choose("hardcover", "paperback"),
				"pages":  create(templates.CreateOptions{Min: num(150), Max: num(600)}),
				"price":  create(templates.CreateOptions{Min: num(9.99), Max: num(39.99), DecimalPlaces: 2}),
			}},
			TaxonomyConfig: templates.TaxonomyConfig{demosite.GenreTaxonomy: {Mode: templates.ModeCreate, CountMin: templates.Ptr(1), CountMax: templates.Ptr(1), UseExisting: true}},
		},
		{
			Name: "Publisher starter", PostType: PublisherType.Name,
			Description: "Publishing houses with a short profile.",
			FieldConfig: templates.FieldConfig{CoreFields: map[string]templates.FieldSetting{
				fields.CorePostContent: create(templates.CreateOptions{ParagraphCountMin: 1, ParagraphCountMax: 2}),
			}},
		},
		{
			Name: "Page starter", PostType: "page",
			Description: "Static pages of two or three paragraphs under a heading, without excerpt.",
			FieldConfig: templates.FieldConfig{CoreFields: map[string]templates.FieldSetting{
				fields.CorePostContent: create(templates.CreateOptions{ParagraphCountMin: 2, ParagraphCountMax: 3, HTMLOptions: &templates.HTMLOptions{Headings: true}}),
				fields.CorePostExcerpt: {Mode: templates.ModeNone},
			}},
		},
	}
}

// InstallStarters installs the starter templates of the post types host
// has.
func InstallStarters(ctx context.Context, gen *contentgen.Generator, host contentgen.Host) error {
	types, err := host.PostTypes(ctx)
	if err != nil {
		return err
	}
	has := make(map[string]bool, len(types))
	for _, pt := range types {
		has[pt.Name] = true
	}
	var ins []templates.Input
	for _, in := range StarterTemplates() {
		if has[in.PostType] {
			ins = append(ins, in)
		}
	}
	_, err = gen.Templates().EnsureSystem(ctx, ins)
	return err
}
