package contentgen_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
)

func f64(v float64) *float64 { return &v }

// bookFields are the custom fields of the fixture's book post type.
func bookFields() []fields.Field {
	return []fields.Field{
		{Key: "field_isbn", Name: "isbn", Label: "ISBN", Type: fields.TypeText, Required: true},
		{Key: "field_price", Name: "price", Label: "Price", Type: fields.TypeNumber, Min: f64(0), Max: f64(1000), Step: f64(0.01)},
		{Key: "field_pages", Name: "pages", Label: "Pages", Type: fields.TypeNumber, Min: f64(50), Max: f64(1200)},
		{Key: "field_format", Name: "format", Label: "Format", Type: fields.TypeSelect, Choices: []fields.Choice{
			{Value: "hardcover", Label: "Hardcover"}, {Value: "paperback", Label: "Paperback"}, {Value: "ebook", Label: "E-book"},
		}},
		{Key: "field_summary", Name: "summary", Label: "Summary", Type: fields.TypeTextarea},
		{Key: "field_contact", Name: "contact", Label: "Contact e-mail", Type: fields.TypeEmail},
		{Key: "field_topics", Name: "topics", Label: "Topics", Type: fields.TypeTaxonomy, Taxonomy: demosite.GenreTaxonomy, Multiple: true},
		{Key: "field_publisher", Name: "publisher", Label: "Publisher", Type: fields.TypePostObject, PostTypes: []string{"publisher"}, Required: true},
		{Key: "field_xq", Name: "xq_value", Label: "Xq", Type: fields.TypeText},
	}
}

// bookRelations are relations of books that are not fields.
func bookRelations() []fields.Relation {
	return []fields.Relation{{Name: "imprint", Label: "Imprint", From: demosite.BookType, To: []string{"publisher"}, Cardinality: fields.ManyToOne}}
}

// mutableAdapter is a FieldAdapter whose fields a test can change.
type mutableAdapter struct {
	mu     sync.Mutex
	fields []fields.Field
}

func (a *mutableAdapter) Info() fields.AdapterInfo {
	return fields.AdapterInfo{Name: "Test fields", Slug: "test", Version: "1", Active: true, Primary: true}
}

func (a *mutableAdapter) PostTypes(context.Context) ([]string, error) {
	return []string{demosite.BookType}, nil
}

func (a *mutableAdapter) FieldGroups(_ context.Context, postType string) ([]fields.Group, error) {
	if postType != demosite.BookType {
		return nil, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return []fields.Group{{Key: "group_book", Title: "Book details", PostTypes: []string{postType}, Fields: slices.Clone(a.fields)}}, nil
}

func (a *mutableAdapter) Relations(_ context.Context, postType string) ([]fields.Relation, error) {
	if postType != demosite.BookType {
		return nil, nil
	}
	return bookRelations(), nil
}

func (a *mutableAdapter) set(defs []fields.Field) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.fields = defs
}

// fakeDetector answers with fixed detections or fails.
type fakeDetector struct {
	mu     sync.Mutex
	answer map[string]string
	err    error
	asked  [][]providers.Field
}

func (d *fakeDetector) Name() string { return "fake" }

func (d *fakeDetector) Detect(_ context.Context, _ string, defs []providers.Field, known []string) ([]providers.Detection, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.asked = append(d.asked, defs)
	if d.err != nil {
		return nil, d.err
	}
	var out []providers.Detection
	for _, f := range defs {
		if t, ok := d.answer[f.Name]; ok {
			out = append(out, providers.Detection{Key: f.Key, Type: t, Confidence: 0.9})
		}
	}
	return out, nil
}

// fieldFixture is a demo site with a publisher post type and custom
// fields on books.
type fieldFixture struct {
	*fixture
	adapter *mutableAdapter
	tmpl    *templates.MemStore
}

func newFieldFixture(t testing.TB, seed int64, det providers.FieldDetector) *fieldFixture {
	t.Helper()
	host, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	require.NoError(t, host.RegisterPostType(contentgen.PostType{
		Name: "publisher", Label: "Publishers", Public: true,
		Labels:   map[string]string{"name": "Publishers", "singular_name": "Publisher"},
		Supports: []string{"title", "editor"},
	}))
	hist := history.NewMemStore(clock)
	ad := &mutableAdapter{fields: bookFields()}
	store := templates.NewMemStore()
	cfg := &contentgen.Config{Seed: &seed, Now: clock, Templates: store, FieldAdapters: fields.NewRegistry(ad)}
	if det != nil {
		cfg.AIDetector = det
	}
	gen, err := contentgen.New(host, hist, cfg)
	require.NoError(t, err)
	return &fieldFixture{fixture: &fixture{host: host, hist: hist, gen: gen}, adapter: ad, tmpl: store}
}

func books(n int) contentgen.PostsRequest {
	return contentgen.PostsRequest{PostType: demosite.BookType, Count: new(n), SetFeaturedImage: new(false)}
}

func (f *fieldFixture) generate(t *testing.T, req contentgen.PostsRequest) (*contentgen.PostsResult, []contentgen.Post) {
	t.Helper()
	res, err := f.gen.GeneratePosts(context.Background(), req)
	require.NoError(t, err)
	return res, f.posts(t, res.IDs)
}

func (f *fieldFixture) historyMeta(t *testing.T, id int64) map[string]any {
	t.Helper()
	entries, _, err := f.hist.List(context.Background(), history.Filter{ContentType: "post", ContentIDs: []int64{id}})
	require.NoError(t, err)
	require.Len(t, entries, 1)
	return entries[0].Meta
}

func choose(mode string, values ...any) templates.FieldSetting {
	return templates.FieldSetting{Mode: templates.ModeChoose, Choose: &templates.ChooseOptions{Values: values, SelectionMode: mode}}
}

func TestCustomFieldsFilledByTypeAndMeaning(t *testing.T) {
	t.Parallel()
	f := newFieldFixture(t, 3, nil)
	res, posts := f.generate(t, books(6))
	require.Equal(t, 6, len(res.IDs))
	publishers, err := f.host.Posts(context.Background(), contentgen.PostQuery{Types: []string{"publisher"}})
	require.NoError(t, err)
	pubIDs := map[string]bool{}
	for _, p := range publishers {
		require.Equal(t, contentgen.StatusPublish, p.Status)
		pubIDs[strconv.FormatInt(p.ID, 10)] = true
	}
	genres, err := f.host.Terms(context.Background(), contentgen.TermQuery{Taxonomies: []string{demosite.GenreTaxonomy}})
	require.NoError(t, err)
	for _, p := range posts {
		m := p.Meta
		isbn := m["isbn"]
		require.Regexp(t, `^97[89][-0-9]{10,14}$`, isbn, "isbn follows the detected meaning")
		price, err := strconv.ParseFloat(m["price"], 64)
		require.NoError(t, err)
		require.True(t, price >= 0 && price <= 1000, "price %v within the field's bounds", price)
		pages, err := strconv.Atoi(m["pages"])
		require.NoError(t, err, "pages is an integer: %q", m["pages"])
		require.True(t, pages >= 50 && pages <= 1200)
		require.Contains(t, []string{"hardcover", "paperback", "ebook"}, m["format"])
		_, err = mail.ParseAddress(m["contact"])
		require.NoError(t, err, "contact %q is an e-mail address", m["contact"])
		require.True(t, pubIDs[m["publisher"]], "publisher %q is a published publisher", m["publisher"])
		require.True(t, pubIDs[m["imprint"]], "the relation imprint %q points at a publisher", m["imprint"])
		var topics []int64
		require.NoError(t, json.Unmarshal([]byte(m["topics"]), &topics), "a multiple taxonomy field is a JSON list: %q", m["topics"])
		require.NotEmpty(t, topics)
		for _, id := range topics {
			require.True(t, slices.ContainsFunc(genres, func(x contentgen.Term) bool { return x.ID == id }), "topic %d is a genre term", id)
		}
		require.True(t, p.Meta.Generated())
		hm := f.historyMeta(t, p.ID)
		require.Equal(t, true, hm["custom_fields_populated"])
		require.Equal(t, "", hm["template_name"])
	}
	require.Equal(t, demosite.BookType, res.PostType)
	require.Equal(t, 5, res.RelatedTotal(), "many_to_one wants a pool of 5 publishers")
	require.Equal(t, map[string]int{"publisher": 5}, res.RelatedPosts)
	require.Len(t, publishers, 5)

	// The same seed on the same host state gives the same values.
	g := newFieldFixture(t, 3, nil)
	_, again := g.generate(t, books(6))
	for i := range posts {
		require.Equal(t, posts[i].Meta, again[i].Meta)
	}

	// populate_custom_fields false leaves the fields alone.
	req := books(2)
	req.PopulateCustomFields = new(false)
	res, plain := f.generate(t, req)
	require.Zero(t, res.RelatedTotal())
	for _, p := range plain {
		require.NotContains(t, p.Meta, "isbn")
		require.Equal(t, false, f.historyMeta(t, p.ID)["custom_fields_populated"])
	}
}

func TestFieldConfigPrecedence(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFieldFixture(t, 5, nil)
	tmpl, err := f.gen.Templates().Create(ctx, templates.Input{
		Name: "Shop books", PostType: demosite.BookType,
		FieldConfig: templates.FieldConfig{
			CoreFields: map[string]templates.FieldSetting{fields.CorePostTitle: choose("", "The Fixed Title")},
			CustomFields: map[string]templates.FieldSetting{
				"format": choose("", "hardcover"),
				"pages":  {Mode: templates.ModeCreate, Create: &templates.CreateOptions{Min: f64(100), Max: f64(110)}},
			},
		},
	})
	require.NoError(t, err)

	req := books(5)
	req.TemplateID = tmpl.ID
	req.FieldConfig = &templates.FieldConfig{CustomFields: map[string]templates.FieldSetting{"format": choose("", "ebook")}}
	_, posts := f.generate(t, req)
	for _, p := range posts {
		require.Equal(t, "ebook", p.Meta["format"], "inline field_config overrides the template's setting")
		pages, err := strconv.Atoi(p.Meta["pages"])
		require.NoError(t, err)
		require.True(t, pages >= 100 && pages <= 110, "the template's other settings still apply: %d", pages)
		require.Equal(t, "The Fixed Title", p.Title, "core fields go through the same configuration")
		require.Equal(t, strconv.FormatInt(tmpl.ID, 10), p.Meta[contentgen.TemplateKey])
		hm := f.historyMeta(t, p.ID)
		require.Equal(t, "Shop books", hm["template_name"])
		_, templateID, err := f.gen.PostOrigin(ctx, p.ID)
		require.NoError(t, err)
		require.Equal(t, tmpl.ID, templateID)
	}

	// Without inline configuration the template's choice holds; as the
	// default template it applies without template_id.
	_, err = f.gen.Templates().SetDefault(ctx, tmpl.ID)
	require.NoError(t, err)
	_, posts = f.generate(t, books(3))
	for _, p := range posts {
		require.Equal(t, "hardcover", p.Meta["format"])
	}
}

func TestChooseRotatesAcrossTheBatch(t *testing.T) {
	t.Parallel()
	f := newFieldFixture(t, 9, nil)
	req := books(7)
	req.FieldConfig = &templates.FieldConfig{
		CustomFields: map[string]templates.FieldSetting{"format": choose(templates.SelectionRotate, "hardcover", "paperback", "ebook")},
		CoreFields:   map[string]templates.FieldSetting{fields.CorePostStatus: choose(templates.SelectionRotate, "draft", "pending")},
	}
	_, posts := f.generate(t, req)
	var got []string
	for i, p := range posts {
		got = append(got, p.Meta["format"])
		require.Equal(t, []string{"draft", "pending"}[i%2], p.Status)
	}
	require.ElementsMatch(t, []string{"hardcover", "paperback", "ebook"}, got[:3], "every value is used once before any repeats")
	require.Equal(t, got[:3], got[3:6])
	require.Equal(t, got[0], got[6])

	// An explicit post_status wins over the configured one.
	req.PostStatus = contentgen.StatusPrivate
	_, posts = f.generate(t, req)
	for _, p := range posts {
		require.Equal(t, contentgen.StatusPrivate, p.Status)
	}
}

func TestCreateOptions(t *testing.T) {
	t.Parallel()
	f := newFieldFixture(t, 11, nil)
	req := books(20)
	req.FieldConfig = &templates.FieldConfig{
		CustomFields: map[string]templates.FieldSetting{
			"pages":   {Mode: templates.ModeCreate, Create: &templates.CreateOptions{Min: f64(300), Max: f64(310)}},
			"price":   {Mode: templates.ModeCreate, Create: &templates.CreateOptions{Min: f64(10), Max: f64(20), DecimalPlaces: 2}},
			"summary": {Mode: templates.ModeCreate, Create: &templates.CreateOptions{Method: templates.MethodWords, WordCountMin: 3, WordCountMax: 4}},
		},
		CoreFields: map[string]templates.FieldSetting{
			fields.CorePostContent: {Mode: templates.ModeCreate, Create: &templates.CreateOptions{
				ParagraphCountMin: 2, ParagraphCountMax: 2, IncludeHTML: new(true), HTMLOptions: &templates.HTMLOptions{Lists: true},
			}},
			fields.CorePostExcerpt: {Mode: templates.ModeNone},
		},
	}
	_, posts := f.generate(t, req)
	for _, p := range posts {
		pages, err := strconv.Atoi(p.Meta["pages"])
		require.NoError(t, err)
		require.True(t, pages >= 300 && pages <= 310, "pages %d", pages)
		price, err := strconv.ParseFloat(p.Meta["price"], 64)
		require.NoError(t, err)
		require.True(t, price >= 10 && price <= 20, "price %v", price)
		if i := strings.IndexByte(p.Meta["price"], '.'); i >= 0 {
			require.LessOrEqual(t, len(p.Meta["price"])-i-1, 2, "at most two decimal places: %s", p.Meta["price"])
		}
		n := len(strings.Fields(p.Meta["summary"]))
		require.True(t, n >= 3 && n <= 4, "summary %q", p.Meta["summary"])
		require.Equal(t, 2, strings.Count(p.Content, "<p>"), p.Content)
		require.Contains(t, p.Content, "<ul>")
		require.Empty(t, p.Excerpt, "mode none leaves the excerpt empty")
	}
}

func TestRequiredFieldsNeverEmpty(t *testing.T) {
	t.Parallel()
	f := newFieldFixture(t, 13, nil)
	req := books(4)
	req.FieldConfig = &templates.FieldConfig{
		CustomFields: map[string]templates.FieldSetting{
			"isbn":      {Mode: templates.ModeNone},
			"publisher": {Mode: templates.ModeNone},
			"summary":   {Mode: templates.ModeNone},
		},
		CoreFields: map[string]templates.FieldSetting{fields.CorePostTitle: {Mode: templates.ModeNone}},
	}
	res, posts := f.generate(t, req)
	require.Equal(t, 5, res.RelatedTotal(), "a required relational field still needs targets under mode none")
	for _, p := range posts {
		require.NotEmpty(t, p.Meta["isbn"], "a required field is filled even under mode none")
		require.NotEmpty(t, p.Meta["publisher"])
		require.NotEmpty(t, p.Title)
		require.NotContains(t, p.Meta, "summary", "an optional field under mode none stays unset")
	}
}

func TestRelatedPostsCountsAndOptions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFieldFixture(t, 17, nil)
	res, _ := f.generate(t, books(3))
	require.Equal(t, 5, res.RelatedTotal())

	// Enough publishers exist now: none are created.
	res, _ = f.generate(t, books(3))
	require.Zero(t, res.RelatedTotal())
	require.Empty(t, res.RelatedPosts)

	// related_cpt_options overrides the count, or turns creation off.
	req := books(2)
	req.RelatedPosts = map[string]contentgen.RelatedPostsOption{"publisher": {Count: new(2)}}
	res, _ = f.generate(t, req)
	require.Equal(t, map[string]int{"publisher": 2}, res.RelatedPosts)

	g := newFieldFixture(t, 17, nil)
	req.RelatedPosts = map[string]contentgen.RelatedPostsOption{"publisher": {Enabled: new(false)}}
	res, posts := g.generate(t, req)
	require.Zero(t, res.RelatedTotal())
	require.Contains(t, strings.Join(res.Warnings, "\n"), "publisher", "the required field without targets is reported")
	for _, p := range posts {
		require.NotContains(t, p.Meta, "publisher")
	}

	// A template for related posts must belong to their post type.
	tmpl, err := g.gen.Templates().Create(ctx, templates.Input{Name: "B", PostType: demosite.BookType})
	require.NoError(t, err)
	req.RelatedPosts = map[string]contentgen.RelatedPostsOption{"publisher": {TemplateID: tmpl.ID}}
	_, err = g.gen.GeneratePosts(ctx, req)
	require.ErrorIs(t, err, contentgen.ErrInvalidParameter)
	req.RelatedPosts = map[string]contentgen.RelatedPostsOption{"publisher": {Count: new(-1)}}
	_, err = g.gen.GeneratePosts(ctx, req)
	require.ErrorIs(t, err, contentgen.ErrInvalidParameter)

	// Related posts made with a template carry its id and name.
	pubTmpl, err := g.gen.Templates().Create(ctx, templates.Input{Name: "Publisher starter", PostType: "publisher",
		FieldConfig: templates.FieldConfig{CoreFields: map[string]templates.FieldSetting{fields.CorePostTitle: choose("", "Acme Press")}}})
	require.NoError(t, err)
	req.RelatedPosts = map[string]contentgen.RelatedPostsOption{"publisher": {Count: new(1), TemplateID: pubTmpl.ID}}
	res, _ = g.generate(t, req)
	require.Equal(t, 1, res.RelatedTotal())
	made, err := g.host.Posts(ctx, contentgen.PostQuery{Types: []string{"publisher"}, MetaKey: contentgen.TemplateKey})
	require.NoError(t, err)
	require.Len(t, made, 1)
	require.Equal(t, "Acme Press", made[0].Title)
}

func TestRelatedPostsTrackedAndDeleted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFieldFixture(t, 19, nil)
	handMade, err := f.host.CreatePosts(ctx, []contentgen.Post{{Type: "publisher", Status: contentgen.StatusPublish, Title: "Hand-made Press"}})
	require.NoError(t, err)
	res, _ := f.generate(t, books(4))
	require.Equal(t, 4, res.RelatedTotal(), "five wanted, one exists")

	related, _, err := f.hist.List(ctx, history.Filter{ContentType: "post", ContentSubtypes: []string{"publisher"}})
	require.NoError(t, err)
	require.Len(t, related, 4)
	for _, e := range related {
		require.Equal(t, "related", e.Meta["origin"])
		require.Equal(t, demosite.BookType, e.Meta["post_type"])
	}

	// Without delete_related_cpts the related posts stay.
	del, err := f.gen.DeletePosts(ctx, contentgen.DeletePostsRequest{PostType: demosite.BookType})
	require.NoError(t, err)
	require.Equal(t, 4, del.Posts)
	left, err := f.host.Posts(ctx, contentgen.PostQuery{Types: []string{"publisher"}})
	require.NoError(t, err)
	require.Len(t, left, 5)

	_, _ = f.generate(t, books(2))
	del, err = f.gen.DeletePosts(ctx, contentgen.DeletePostsRequest{PostType: demosite.BookType, DeleteRelatedPosts: true})
	require.NoError(t, err)
	require.Equal(t, map[string]int{"publisher": 4}, del.RelatedPosts)
	left, err = f.host.Posts(ctx, contentgen.PostQuery{Types: []string{"publisher"}})
	require.NoError(t, err)
	require.Len(t, left, 1)
	require.Equal(t, handMade[0], left[0].ID, "content made by people stays")
}

func TestTaxonomyConfigModes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFieldFixture(t, 23, nil)
	existing, err := f.host.CreateTerms(ctx, []contentgen.Term{
		{Taxonomy: demosite.GenreTaxonomy, Name: "Alpha", Slug: "alpha"},
		{Taxonomy: demosite.GenreTaxonomy, Name: "Beta", Slug: "beta"},
		{Taxonomy: demosite.GenreTaxonomy, Name: "Gamma", Slug: "gamma"},
	})
	require.NoError(t, err)
	genre := demosite.GenreTaxonomy

	req := books(8)
	req.PopulateCustomFields = new(false)
	req.TaxonomyConfig = templates.TaxonomyConfig{genre: {Mode: templates.ModeChoose, TermIDs: existing[:2], CountMin: new(1), CountMax: new(2)}}
	_, posts := f.generate(t, req)
	for _, p := range posts {
		n := len(p.Terms[genre])
		require.True(t, n >= 1 && n <= 2, "choose assigns count_min to count_max terms: %v", p.Terms)
		require.Subset(t, existing[:2], p.Terms[genre], "choose draws from the pool only")
	}

	req.TaxonomyConfig = templates.TaxonomyConfig{genre: {Mode: templates.ModeCreate, CountMin: new(2), CountMax: new(2)}}
	res, posts := f.generate(t, req)
	require.Positive(t, res.Terms[genre])
	for _, p := range posts {
		require.Len(t, p.Terms[genre], 2)
		for _, id := range p.Terms[genre] {
			require.NotContains(t, existing, id, "create without use_existing uses new terms only")
		}
	}

	req.TaxonomyConfig = templates.TaxonomyConfig{genre: {Mode: templates.ModeCreate, CountMin: new(3), CountMax: new(3), UseExisting: true}}
	_, posts = f.generate(t, req)
	mixed := false
	for _, p := range posts {
		for _, id := range p.Terms[genre] {
			mixed = mixed || slices.Contains(existing, id)
		}
	}
	require.True(t, mixed, "use_existing mixes existing terms in")

	req.TaxonomyConfig = templates.TaxonomyConfig{genre: {Mode: templates.ModeNone}}
	_, posts = f.generate(t, req)
	for _, p := range posts {
		require.Empty(t, p.Terms[genre])
	}

	// A template naming a term deleted since still generates, with a
	// warning.
	tmpl, err := f.gen.Templates().Create(ctx, templates.Input{Name: "Picked genres", PostType: demosite.BookType,
		TaxonomyConfig: templates.TaxonomyConfig{genre: {Mode: templates.ModeChoose, TermIDs: existing}}})
	require.NoError(t, err)
	require.NoError(t, f.host.DeleteTerms(ctx, existing[:1]))
	req.TaxonomyConfig = nil
	req.TemplateID = tmpl.ID
	res, posts = f.generate(t, req)
	require.Contains(t, strings.Join(res.Warnings, "\n"), "no longer exist")
	for _, p := range posts {
		require.NotContains(t, p.Terms[genre], existing[0])
	}
}

func TestFieldConfigValidation(t *testing.T) {
	t.Parallel()
	f := newFieldFixture(t, 1, nil)
	cases := []struct {
		name  string
		cfg   templates.FieldConfig
		param string
	}{
		{"mode", templates.FieldConfig{CustomFields: map[string]templates.FieldSetting{"pages": {Mode: "guess"}}}, "field_config.custom_fields.pages.mode"},
		{"choose without values", templates.FieldConfig{CustomFields: map[string]templates.FieldSetting{"pages": {Mode: templates.ModeChoose}}}, "field_config.custom_fields.pages.choose.values"},
		{"core name", templates.FieldConfig{CoreFields: map[string]templates.FieldSetting{"post_colour": {Mode: templates.ModeNone}}}, "field_config.core_fields.post_colour"},
		{"status value", templates.FieldConfig{CoreFields: map[string]templates.FieldSetting{"post_status": choose("", "published")}}, "field_config.core_fields.post_status.choose.values"},
		{"author value", templates.FieldConfig{CoreFields: map[string]templates.FieldSetting{"post_author": choose("", 999999)}}, "field_config.core_fields.post_author.choose.values"},
		{"date value", templates.FieldConfig{CoreFields: map[string]templates.FieldSetting{"post_date": choose("", "yesterday")}}, "field_config.core_fields.post_date.choose.values"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := books(1)
			req.FieldConfig = &c.cfg
			_, err := f.gen.GeneratePosts(context.Background(), req)
			require.ErrorIs(t, err, contentgen.ErrInvalidParameter)
			var ce *contentgen.Error
			require.True(t, errors.As(err, &ce))
			require.Equal(t, c.param, ce.Param)
		})
	}
	_, total, err := f.gen.History().List(context.Background(), contentgen.HistoryQuery{})
	require.NoError(t, err)
	require.Zero(t, total, "invalid requests write nothing")
}

func TestAIDetection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	// A detector answering for the field offline detection cannot place.
	det := &fakeDetector{answer: map[string]string{"xq_value": fields.SemEmail}}
	f := newFieldFixture(t, 29, det)
	_, err := f.gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.AI.Enabled = true })
	require.NoError(t, err)
	res, posts := f.generate(t, books(2))
	require.Empty(t, res.Warnings)
	for _, p := range posts {
		_, err := mail.ParseAddress(p.Meta["xq_value"])
		require.NoError(t, err, "the AI detection is used: %q", p.Meta["xq_value"])
	}
	require.Len(t, det.asked, 1)
	require.Len(t, det.asked[0], 1, "only fields offline detection cannot place are asked about")
	require.Equal(t, "xq_value", det.asked[0][0].Name)
	_, defs, err := f.gen.Templates().Fields(ctx, demosite.BookType)
	require.NoError(t, err)
	for _, fl := range defs {
		if fl.Name == "xq_value" {
			require.Equal(t, fields.SemEmail, fl.DetectedType)
		}
	}
	_, _ = f.generate(t, books(1))
	require.Len(t, det.asked, 1, "answers are cached")
	n, err := f.gen.Templates().ClearDetections(ctx, demosite.BookType)
	require.NoError(t, err)
	require.Positive(t, n)
	_, _ = f.generate(t, books(1))
	require.Len(t, det.asked, 2, "a cleared cache asks again")

	// Answers that are unknown or do not fit the field are ignored.
	odd := &fakeDetector{answer: map[string]string{"xq_value": "banana"}}
	g := newFieldFixture(t, 29, odd)
	_, err = g.gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.AI.Enabled = true })
	require.NoError(t, err)
	_, posts = g.generate(t, books(1))
	require.NotContains(t, posts[0].Meta["xq_value"], "@")

	// A failing detector is a warning, never a failed run.
	bad := &fakeDetector{err: errors.New("provider exploded")}
	h := newFieldFixture(t, 29, bad)
	_, err = h.gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.AI.Enabled = true })
	require.NoError(t, err)
	res, posts = h.generate(t, books(2))
	require.Equal(t, 2, len(res.IDs))
	require.Contains(t, strings.Join(res.Warnings, "\n"), "AI field detection failed")
	require.NotContains(t, strings.Join(res.Warnings, "\n"), "exploded", "causes are not shown to clients")
	require.NotEmpty(t, posts[0].Meta["xq_value"])

	// With AI off, the detector is never asked.
	off := &fakeDetector{answer: map[string]string{"xq_value": fields.SemEmail}}
	o := newFieldFixture(t, 29, off)
	_, _ = o.generate(t, books(1))
	require.Empty(t, off.asked)
}

func TestStaleTemplatesAndSync(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFieldFixture(t, 31, nil)
	tmpl, err := f.gen.Templates().Create(ctx, templates.Input{Name: "Books", PostType: demosite.BookType})
	require.NoError(t, err)
	st, err := f.gen.Templates().Sync(ctx)
	require.NoError(t, err)
	require.Empty(t, st.Stale)
	require.NoError(t, err)
	require.True(t, st.InSync)

	f.adapter.set(append(bookFields(), fields.Field{Key: "field_weight", Name: "weight", Label: "Weight", Type: fields.TypeNumber}))
	st, err = f.gen.Templates().Sync(ctx)
	require.NoError(t, err)
	require.Len(t, st.Stale, 1)
	require.Equal(t, tmpl.ID, st.Stale[0].ID)
	require.Equal(t, []string{"weight"}, st.Stale[0].AddedFields)
	require.NoError(t, err)
	require.False(t, st.InSync)
	require.True(t, st.HasUnseenChanges)
	st, err = f.gen.Templates().MarkSeen(ctx)
	require.NoError(t, err)
	require.False(t, st.HasUnseenChanges)
	require.Equal(t, 1, st.StaleCount, "acknowledging does not resync templates")

	// Saving the template records the new fields.
	_, err = f.gen.Templates().Update(ctx, tmpl.ID, templates.Patch{Description: new("resynced")})
	require.NoError(t, err)
	st, err = f.gen.Templates().Sync(ctx)
	require.NoError(t, err)
	require.Empty(t, st.Stale)
}

func TestTemplateOperationErrors(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFieldFixture(t, 37, nil)
	_, err := f.gen.Templates().Create(ctx, templates.Input{PostType: demosite.BookType})
	requireParam(t, err, contentgen.ErrInvalidParameter, "name")
	_, err = f.gen.Templates().Create(ctx, templates.Input{Name: "x"})
	requireParam(t, err, contentgen.ErrInvalidParameter, "post_type")
	_, err = f.gen.Templates().Create(ctx, templates.Input{Name: "x", PostType: "spaceship"})
	requireParam(t, err, contentgen.ErrInvalidPostType, "post_type")
	unknownType := err.(*contentgen.Error).Message
	_, err = f.gen.Templates().Create(ctx, templates.Input{Name: "x", PostType: demosite.BookType,
		TaxonomyConfig: templates.TaxonomyConfig{"category": {Mode: templates.ModeNone}}})
	requireParam(t, err, contentgen.ErrInvalidParameter, "taxonomy_config.category")
	tmpl, err := f.gen.Templates().Create(ctx, templates.Input{Name: "x", PostType: demosite.BookType})
	require.NoError(t, err)
	_, err = f.gen.Templates().Update(ctx, tmpl.ID, templates.Patch{PostType: new("post")})
	requireParam(t, err, contentgen.ErrInvalidParameter, "post_type")
	_, err = f.gen.Templates().Get(ctx, tmpl.ID+100)
	requireParam(t, err, contentgen.ErrNotFound, "id")
	_, err = f.gen.Templates().Get(ctx, 0)
	requireParam(t, err, contentgen.ErrInvalidParameter, "id")
	require.Equal(t, "id must be a positive integer, got 0", err.(*contentgen.Error).Message)
	_, err = f.gen.Templates().Delete(ctx, tmpl.ID, -1)
	requireParam(t, err, contentgen.ErrInvalidParameter, "new_default_id")
	require.Equal(t, "new_default_id must be a positive integer, got -1", err.(*contentgen.Error).Message)
	_, err = f.gen.Templates().Export(ctx, templates.ExportSelection{IDs: []int64{-2}})
	requireParam(t, err, contentgen.ErrInvalidParameter, "ids")
	require.Equal(t, "ids must be positive integers, got -2", err.(*contentgen.Error).Message)
	_, err = f.gen.Templates().Export(ctx, templates.ExportSelection{IDs: []int64{tmpl.ID + 100}})
	requireParam(t, err, contentgen.ErrNotFound, "ids")
	_, err = f.gen.Templates().Delete(ctx, tmpl.ID, tmpl.ID+100)
	requireParam(t, err, contentgen.ErrInvalidParameter, "new_default_id")
	_, err = f.gen.Templates().Update(ctx, tmpl.ID, templates.Patch{
		TaxonomyConfig: templates.TaxonomyConfig{"nope": {Mode: templates.ModeNone}}})
	requireParam(t, err, contentgen.ErrInvalidTaxonomy, "taxonomy_config.nope")

	// An import reports the site check's failure for its item, with the
	// message the same check gives a single template.
	res, err := f.gen.Templates().Import(ctx, []byte(`{"templates":[{"name":"Alien","post_type":"spaceship"}]}`))
	require.NoError(t, err)
	require.Len(t, res.Results, 1)
	require.False(t, res.Results[0].Success)
	require.Equal(t, "templates[0].post_type", res.Results[0].Param)
	require.Equal(t, unknownType, res.Results[0].Error)
}

// requireParam checks that err is an *Error (not merely wrapping one)
// matching want and naming param.
func requireParam(t *testing.T, err, want error, param string) {
	t.Helper()
	require.ErrorIs(t, err, want)
	require.IsType(t, &contentgen.Error{}, err)
	var ce *contentgen.Error
	require.True(t, errors.As(err, &ce))
	require.Equal(t, param, ce.Param)
}

// Keep the fixture's clock in use for dates relative to now.
var _ = time.Second

func TestHistoryMetaIsDeterministic(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 3)
	res, err := f.gen.GeneratePosts(context.Background(), noImages(contentgen.PostsRequest{Count: new(5)}))
	require.NoError(t, err)
	items, _, err := f.gen.History().List(context.Background(), contentgen.HistoryQuery{Kind: contentgen.KindPost, Limit: new(100)})
	require.NoError(t, err)
	seen := 0
	for _, it := range items {
		if !slices.Contains(res.IDs, it.ContentID) {
			continue
		}
		seen++
		assigned, ok := it.Meta["taxonomies_assigned"].([]string)
		require.True(t, ok, "%T", it.Meta["taxonomies_assigned"])
		require.True(t, slices.IsSorted(assigned), "taxonomies_assigned is in a fixed order: %v", assigned)
	}
	require.Equal(t, 5, seen)
}
