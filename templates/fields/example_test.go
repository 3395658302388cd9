package fields_test

import (
	"fmt"

	"github.com/contentgen/contentgen/templates/fields"
)

// The dependency report of a post type lists its relational fields and the
// post types they need, with what the caller knows about those.
func ExampleAnalyzeDependencies() {
	defs := []fields.Field{
		{Name: "book_author", Type: "relationship", PostTypes: []string{"author"}, Required: true},
		{Name: "publisher", Type: "post_object", PostTypes: []string{"publisher"}},
	}
	rep := fields.AnalyzeDependencies("book", defs, nil, func(pt string) fields.TargetInfo {
		return fields.TargetInfo{Label: map[string]string{"author": "Author", "publisher": "Publisher"}[pt], ExistingCount: 3}
	})
	d, u := rep.Dependencies[0], rep.UniqueTargets["author"]
	fmt.Println(d.FieldName, d.TargetPostTypes, d.Cardinality, d.Required)
	fmt.Println(u.Label, u.ExistingCount, u.IsRequired, u.RequiredByFields)
	fmt.Println("author posts to auto-create for 20 books:", fields.RelatedToCreate(rep.Dependencies[0].Cardinality, 20, 3))
	// Output:
	// book_author [author] many_to_many true
	// Author 3 true [book_author]
	// author posts to auto-create for 20 books: 7
}
