package fill_test

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/contentgen/contentgen/templates/fields"
	"github.com/contentgen/contentgen/templates/fill"
)

// benchFields is a custom post type with 15 custom fields, 2 of them
// relations.
func benchFields() []fields.Field {
	return []fields.Field{
		{Name: "isbn", Type: "text", Required: true, DetectedType: "isbn", MaxLength: 17},
		{Name: "subtitle", Type: "text", MaxLength: 80},
		{Name: "blurb", Type: "textarea", MaxLength: 280},
		{Name: "price", Type: "number", Min: f64(0.99), Max: f64(99.99), Step: f64(0.01), DetectedType: "price"},
		{Name: "pages", Type: "number", Min: f64(40), Max: f64(1200)},
		{Name: "rating", Type: "range", Min: f64(1), Max: f64(5), Step: f64(0.5)},
		{Name: "format", Type: "select", Choices: genreChoices},
		{Name: "genres", Type: "checkbox", Choices: genreChoices},
		{Name: "in_print", Type: "true_false"},
		{Name: "published", Type: "date_picker", ReturnFormat: "Y-m-d"},
		{Name: "contact", Type: "email"},
		{Name: "website", Type: "url"},
		{Name: "spine", Type: "color_picker"},
		{Name: "authors", Type: "relationship", PostTypes: []string{"author"}, Min: f64(1), Max: f64(2)},
		{Name: "publisher", Type: "post_object", PostTypes: []string{"publisher"}},
	}
}

// BenchmarkFill500Posts fills the 15 custom fields of 500 posts, relations
// resolved, as one generation run does.
func BenchmarkFill500Posts(b *testing.B) {
	defs := benchFields()
	b.ReportAllocs()
	for b.Loop() {
		g := newFiller(1, &fill.Options{})
		for range 500 {
			_ = fillResolved(b, g, defs)
		}
	}
}

// BenchmarkFillFloor is the floor for one post: one random draw and one
// small string or number per field stored in a map, nothing else.
func BenchmarkFillFloor(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	defs := benchFields()
	b.ReportAllocs()
	for b.Loop() {
		m := make(map[string]any, len(defs))
		for i := range defs {
			m[defs[i].Name] = strconv.Itoa(r.IntN(1000))
		}
	}
}

// BenchmarkFillPost is one post of BenchmarkFill500Posts.
func BenchmarkFillPost(b *testing.B) {
	defs := benchFields()
	g := newFiller(1, &fill.Options{})
	b.ReportAllocs()
	for b.Loop() {
		_ = fillResolved(b, g, defs)
	}
}

// BenchmarkValue measures one value per field type.
func BenchmarkValue(b *testing.B) {
	defs := append(benchFields(),
		fields.Field{Name: "review", Type: "wysiwyg"},
		fields.Field{Name: "schedule", Type: "repeater", SubFields: []fields.Field{{Name: "t", Type: "time_picker"}, {Name: "s", Type: "text"}}},
		fields.Field{Name: "venue", Type: "google_map"},
	)
	for i := range defs {
		f := &defs[i]
		b.Run(f.Type+"/"+f.Name, func(b *testing.B) {
			g := newFiller(1, &fill.Options{})
			b.ReportAllocs()
			for b.Loop() {
				_, _ = g.Value(f, nil)
			}
		})
	}
}
