package templates_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
	"github.com/contentgen/contentgen/templates/fill"
)

// A variant stores only what it overrides and is merged over its parent
// when generation asks for the effective configuration.
func ExampleLibrary_CreateVariant() {
	ctx := context.Background()
	lib := templates.NewLibrary(templates.NewMemStore(), nil)
	books, _ := lib.Create(ctx, templates.Input{
		Name: "Books", PostType: "book", IsDefault: true,
		FieldConfig: templates.FieldConfig{CustomFields: map[string]templates.FieldSetting{
			"price":  {Mode: templates.ModeCreate, Create: &templates.CreateOptions{Min: templates.Ptr(5.0), Max: templates.Ptr(40.0)}},
			"format": {Mode: templates.ModeChoose, Choose: &templates.ChooseOptions{Values: []any{"hardcover", "ebook"}}},
		}},
	})
	free, _ := lib.CreateVariant(ctx, books.ID, templates.Patch{
		Name: templates.Ptr("Free e-books"),
		FieldConfig: &templates.FieldConfig{CustomFields: map[string]templates.FieldSetting{
			"price": {Mode: templates.ModeNone},
		}},
	})
	stored, _ := lib.Get(ctx, free.ID)
	effective, _ := lib.Effective(ctx, free.ID)
	fmt.Println("stored overrides:", len(stored.FieldConfig.CustomFields), "linked to", stored.LinkedParents[0].Name)
	fmt.Println("effective price mode:", effective.FieldConfig.CustomFields["price"].Mode)
	fmt.Println("effective format mode:", effective.FieldConfig.CustomFields["format"].Mode)

	res, _ := lib.Delete(ctx, books.ID, 0)
	fmt.Println("variants deleted with the parent:", res.VariantsDeleted)
	// Output:
	// stored overrides: 1 linked to Books
	// effective price mode: none
	// effective format mode: choose
	// variants deleted with the parent: 1
}

// Missing parameters come back as a *ParamError naming the parameter, for
// a 400 invalid_parameter response.
func ExampleParamError() {
	lib := templates.NewLibrary(templates.NewMemStore(), nil)
	_, err := lib.Create(context.Background(), templates.Input{Name: "Books"})
	var pe *templates.ParamError
	if errors.As(err, &pe) {
		fmt.Println(pe.Param, "-", pe.Message, "-", errors.Is(err, templates.ErrInvalid))
	}
	// Output: post_type - post_type is required - true
}

// Detection works offline on names, labels and types in several languages.
func ExampleDetect() {
	for _, f := range []fields.Field{
		{Name: "billing_email", Type: "text"},
		{Name: "Postleitzahl", Type: "text"},
		{Name: "prix", Type: "number"},
		{Name: "field_5f8a1c", Label: "Número de teléfono", Type: "text"},
		{Name: "birthday", Type: "date_picker"},
		{Name: "product_name", Type: "text"},
	} {
		d := fields.Detect(&f)
		fmt.Printf("%-14s %-12q %.2f %s\n", f.Name, d.Type, d.Confidence, d.Source)
	}
	// Output:
	// billing_email  "email"      0.83 name
	// Postleitzahl   "postcode"   0.95 name
	// prix           "price"      0.95 name
	// field_5f8a1c   "phone"      0.92 label
	// birthday       "birth_date" 0.95 name
	// product_name   ""           0.00
}

// A Filler makes values that follow each field's settings; relational
// fields resolve against the ids a Lookup supplies. The same seed gives the
// same values.
func ExampleFiller() {
	defs := fields.DetectFields([]fields.Field{
		{Name: "isbn", Type: "text", Required: true},
		{Name: "price", Type: "number", Min: templates.Ptr(5.0), Max: templates.Ptr(40.0), Step: templates.Ptr(0.5)},
		{Name: "format", Type: "select", Choices: []fields.Choice{{Value: "hardcover", Label: "Hardcover"}, {Value: "ebook", Label: "E-book"}}},
		{Name: "published", Type: "date_picker", ReturnFormat: "Y-m-d"},
		{Name: "author", Type: "post_object", PostTypes: []string{"author"}},
	})
	authors := fill.LookupFunc(func(context.Context, fill.RefKind, []string) ([]int64, error) { return []int64{7, 8, 9}, nil })
	settings := map[string]templates.FieldSetting{
		"format": {Mode: templates.ModeChoose, Choose: &templates.ChooseOptions{Values: []any{"hardcover", "ebook"}, SelectionMode: templates.SelectionRotate}},
	}
	r := rand.New(rand.NewPCG(42, 42))
	g := fill.New(r, nil, &fill.Options{Now: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
	for range 2 {
		// Relational fields come as Refs; Resolve points them at ids.
		v, err := g.Resolve(context.Background(), g.Fill(defs, settings), authors)
		if err != nil {
			panic(err)
		}
		out, _ := json.Marshal(v)
		fmt.Println(string(out))
	}
	// Output:
	// {"author":9,"format":"hardcover","isbn":"978-6-3659-2278-2","price":22.5,"published":"2024-07-18"}
	// {"author":7,"format":"ebook","isbn":"978-1-3969-4230-3","price":12,"published":"2025-02-12"}
}

// Export writes templates without ids; import reports each item.
func ExampleLibrary_Export() {
	ctx := context.Background()
	clock := func() time.Time { return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) }
	lib := templates.NewLibrary(templates.NewMemStore(), &templates.LibraryOptions{Now: clock})
	lib.Create(ctx, templates.Input{Name: "Books", PostType: "book"})
	exp, _ := lib.Export(ctx, templates.ExportSelection{PostType: "book"})
	out, _ := json.Marshal(exp)
	fmt.Println(string(out))

	body := []byte(`{"templates":[{"name":"Books","post_type":"book"},{"name":"Broken"}]}`)
	items, _ := templates.ParseImport(body)
	res, _ := templates.NewLibrary(templates.NewMemStore(), nil).Import(ctx, items)
	fmt.Println(res.Message())
	for _, r := range res.Results {
		fmt.Printf("success=%v name=%q id=%d error=%q\n", r.Success, r.Name, r.ID, r.Error)
	}
	// Output:
	// {"templates":[{"name":"Books","description":"","post_type":"book","field_config":{},"taxonomy_config":{}}],"count":1,"version":"1.0","exported":"2025-01-02 03:04:05"}
	// Imported 1 template, 1 failed.
	// success=true name="Books" id=1 error=""
	// success=false name="Broken" id=0 error="post_type is required"
}

// The embedding program checks templates against its site and records the
// field signature of each save through the Library's hooks; Stale then
// reports the templates whose fields changed since.
func ExampleNewLibrary() {
	ctx := context.Background()
	site := map[string][]fields.Field{"book": {{Name: "isbn", Type: "text"}}}
	lib := templates.NewLibrary(templates.NewMemStore(), &templates.LibraryOptions{
		Check: func(ctx context.Context, postType string, tc templates.TaxonomyConfig) error {
			if _, ok := site[postType]; !ok {
				return &templates.ParamError{Param: "post_type", Message: fmt.Sprintf("post_type %q is not registered", postType)}
			}
			return nil
		},
		Signature: func(ctx context.Context, postType string) templates.Signature {
			return templates.SignatureOf(site[postType])
		},
	})
	_, err := lib.Create(ctx, templates.Input{Name: "Ships", PostType: "spaceship"})
	fmt.Println(err)
	books, _ := lib.Create(ctx, templates.Input{Name: "Books", PostType: "book"})
	fmt.Println(books.FieldSignature)

	site["book"] = append(site["book"], fields.Field{Name: "pages", Type: "number"})
	stale, _ := lib.Stale(ctx, map[string]templates.Signature{"book": templates.SignatureOf(site["book"])})
	fmt.Println(stale[0].Name, "gained", stale[0].AddedFields)
	// Output:
	// templates: post_type "spaceship" is not registered
	// [isbn:text]
	// Books gained [pages]
}

// A Store's Atomic unit keeps all of its writes or none.
func ExampleMemStore_Atomic() {
	ctx := context.Background()
	store := templates.NewMemStore()
	err := store.Atomic(ctx, func(ctx context.Context, s templates.Store) error {
		if _, err := s.Insert(ctx, templates.Template{Name: "Books", PostType: "book"}); err != nil {
			return err
		}
		return errors.New("changed my mind")
	})
	list, _ := store.List(ctx, templates.Filter{})
	fmt.Println(err, "- templates kept:", len(list))
	// Output: changed my mind - templates kept: 0
}
