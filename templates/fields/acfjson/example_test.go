package acfjson_test

import (
	"context"
	"fmt"
	"testing/fstest"

	"github.com/contentgen/contentgen/templates/fields"
	"github.com/contentgen/contentgen/templates/fields/acfjson"
)

// An acf-json directory becomes a field adapter; as the primary adapter it
// wins over field groups registered in code for the same post type.
func Example() {
	site := fstest.MapFS{"group_book.json": {Data: []byte(`{
		"key": "group_book", "title": "Book",
		"fields": [
			{"key": "field_isbn", "label": "ISBN", "name": "isbn", "type": "text", "required": 1, "maxlength": 17},
			{"key": "field_price", "label": "Preis", "name": "preis", "type": "number", "min": "1", "max": "99", "step": "0.5"},
			{"key": "field_author", "label": "Author", "name": "book_author", "type": "relationship", "post_type": ["author"], "max": 2}
		],
		"location": [[{"param": "post_type", "operator": "==", "value": "book"}]]
	}`)}}
	code := fields.NewCodeAdapter(fields.AdapterInfo{Name: "Code", Slug: "code", Active: true},
		[]fields.Group{{Key: "g", Title: "Legacy", PostTypes: []string{"book"}, Fields: []fields.Field{{Name: "legacy", Type: "text"}}}}, nil)
	reg := fields.NewRegistry(code, acfjson.New(site, &acfjson.Options{Primary: true}))

	book, _ := reg.Fields(context.Background(), "book")
	fmt.Println("fields from:", book.Adapter.Slug)
	for _, f := range fields.DetectFields(book.Fields()) {
		fmt.Printf("%s %s required=%v detected=%q\n", f.Name, f.Type, f.Required, f.DetectedType)
	}
	deps := fields.Dependencies("book", book.Fields(), book.Relations)
	fmt.Println(deps[0].FieldName, "->", deps[0].TargetPostTypes, deps[0].Cardinality)
	// Output:
	// fields from: acf
	// isbn text required=true detected="isbn"
	// preis number required=false detected="price"
	// book_author relationship required=false detected=""
	// book_author -> [author] many_to_many
}
