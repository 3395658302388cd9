package contentgen_test

import (
	"context"
	"testing"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/templates/fields"
)

// benchFields are 15 custom fields of a book, one of them a post_object
// pointing at publishers; with the imprint relation the post type has two
// relations.
func benchFields() []fields.Field {
	return []fields.Field{
		{Key: "f1", Name: "isbn", Label: "ISBN", Type: fields.TypeText, Required: true},
		{Key: "f2", Name: "subtitle", Label: "Subtitle", Type: fields.TypeText},
		{Key: "f3", Name: "blurb", Label: "Blurb", Type: fields.TypeTextarea, MaxLength: 280},
		{Key: "f4", Name: "price", Label: "Price", Type: fields.TypeNumber, Min: f64(0.99), Max: f64(99.99), Step: f64(0.01)},
		{Key: "f5", Name: "pages", Label: "Pages", Type: fields.TypeNumber, Min: f64(40), Max: f64(1200)},
		{Key: "f6", Name: "rating", Label: "Rating", Type: fields.TypeRange, Min: f64(1), Max: f64(5), Step: f64(0.5)},
		{Key: "f7", Name: "format", Label: "Format", Type: fields.TypeSelect, Choices: []fields.Choice{{Value: "hardcover", Label: "Hardcover"}, {Value: "paperback", Label: "Paperback"}}},
		{Key: "f8", Name: "audience", Label: "Audience", Type: fields.TypeRadio, Choices: []fields.Choice{{Value: "adult", Label: "Adult"}, {Value: "children", Label: "Children"}}},
		{Key: "f9", Name: "in_print", Label: "In print", Type: fields.TypeTrueFalse},
		{Key: "f10", Name: "published_on", Label: "Publication date", Type: fields.TypeDatePicker},
		{Key: "f11", Name: "author_email", Label: "Author e-mail", Type: fields.TypeEmail},
		{Key: "f12", Name: "website", Label: "Website", Type: fields.TypeURL},
		{Key: "f13", Name: "spine_colour", Label: "Spine colour", Type: fields.TypeColorPicker},
		{Key: "f14", Name: "author_name", Label: "Author", Type: fields.TypeText},
		{Key: "f15", Name: "publisher", Label: "Publisher", Type: fields.TypePostObject, PostTypes: []string{"publisher"}, Required: true},
	}
}

// BenchmarkGeneratePosts500Fields generates 500 books with 15 custom
// fields and two relations to publishers (five of which are auto-created)
// into a fresh demo site per iteration. Compare with
// BenchmarkGeneratePosts500, the same run without custom fields.
func BenchmarkGeneratePosts500Fields(b *testing.B) {
	ctx := context.Background()
	seed := int64(1)
	adapter := fields.NewCodeAdapter(fields.AdapterInfo{Name: "Bench", Slug: "bench", Active: true},
		[]fields.Group{{Key: "g", Title: "Book", PostTypes: []string{demosite.BookType}, Fields: benchFields()}},
		[]fields.Relation{{Name: "imprint", From: demosite.BookType, To: []string{"publisher"}, Cardinality: fields.ManyToOne}})
	reg := fields.NewRegistry(adapter)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		host, err := demosite.New(nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := host.RegisterPostType(contentgen.PostType{Name: "publisher", Label: "Publishers", Public: true, Supports: []string{"title", "editor"}}); err != nil {
			b.Fatal(err)
		}
		gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed, FieldAdapters: reg})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{PostType: demosite.BookType, Count: new(500), SetFeaturedImage: new(false)})
		if err != nil || len(res.IDs) != 500 || res.RelatedTotal() != 5 {
			b.Fatal(res, err)
		}
	}
}
