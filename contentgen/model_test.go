package contentgen_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/providers"
)

// defaultModelChecks is how many operation sequences TestDeletionModel
// tries when -rapid.checks is not given: enough to catch a regression in
// CI in a few seconds. Run more with, for example,
//
//	go test -run TestDeletionModel -rapid.checks=1000 ./contentgen/
const defaultModelChecks = 30

// ref names an item of the host.
type ref struct {
	kind contentgen.ObjectKind
	id   int64
}

func (r ref) String() string { return fmt.Sprintf("%s %d", r.kind, r.id) }

// genItem is what the model knows of a generated item that exists.
type genItem struct {
	subtype  string // post type of posts and comments, taxonomy of terms
	origin   string // the origin its history entry recorded
	postType string // the post type its history entry recorded
	postID   int64  // the post of a comment
	featured int64  // the featured image of a post
}

// modelImages answers at once with the same small PNG.
type modelImages struct{ data []byte }

func (p *modelImages) Info() providers.Info {
	return providers.Info{Slug: providers.Random, Name: "Model", Configured: true}
}

func (p *modelImages) Image(context.Context, providers.ImageRequest) (*providers.Image, error) {
	return &providers.Image{Data: p.data, MIMEType: "image/png", Ext: "png", Width: providers.MinImageSize, Height: providers.MinImageSize}, nil
}

// deletionModel is a state machine of generation and deletion on the
// demo site with extra hand-made content, against a model of which
// generated items exist and which of them the history tracks.
type deletionModel struct {
	ctx  context.Context
	host *memhost.Host
	hist history.Store
	gen  *contentgen.Generator

	// handMade is every hand-made item as it was made.
	handMade map[ref]any
	// generated are the generated items that exist; tracked are those
	// with a history entry, by entry id.
	generated map[ref]genItem
	tracked   map[ref]string
	// steps counts the operations, for messages.
	steps int
}

var modelPostTypes = []string{"post", "page", "book"}

func newDeletionModel(t *rapid.T, images []byte) *deletionModel {
	ctx := context.Background()
	clock := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	host, err := demosite.New(&memhost.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	hist := history.NewMemStore(nil)
	seed := rapid.Int64().Draw(t, "seed")
	gen, err := contentgen.New(host, hist, &contentgen.Config{
		Seed: &seed, Now: now, MaxCount: 4, BatchSize: 2,
		ImageProviders: []providers.ImageProvider{&modelImages{data: images}},
	})
	if err != nil {
		t.Fatal(err)
	}
	m := &deletionModel{ctx: ctx, host: host, hist: hist, gen: gen, generated: map[ref]genItem{}, tracked: map[ref]string{}}

	// More hand-made content, so that ids of every kind are taken by
	// hand-made items that deletions must leave alone.
	users, err := host.CreateUsers(ctx, []contentgen.User{
		{Login: "editor1", Email: "editor1@example.com", DisplayName: "Editor", Roles: []string{"editor"}},
		{Login: "author1", Email: "author1@example.com", DisplayName: "Author", Roles: []string{"author"}},
	})
	must(t, err)
	terms, err := host.CreateTerms(ctx, []contentgen.Term{
		{Taxonomy: "genre", Name: "Poetry", Slug: "poetry"},
		{Taxonomy: "post_tag", Name: "Handmade", Slug: "handmade"},
	})
	must(t, err)
	posts, err := host.CreatePosts(ctx, []contentgen.Post{
		{Type: "book", Status: "publish", Title: "A hand-made book", AuthorID: users[1], Terms: map[string][]int64{"genre": {terms[0]}}},
		{Type: "post", Status: "draft", Title: "A hand-made draft", AuthorID: users[0], Terms: map[string][]int64{"post_tag": {terms[1]}}},
	})
	must(t, err)
	_, err = host.CreateComments(ctx, []contentgen.Comment{
		{PostID: posts[0], AuthorName: "Reader", AuthorEmail: "reader@example.org", Content: "Hand-made.", Status: "approved"},
	})
	must(t, err)
	_, err = host.CreateMedia(ctx, []contentgen.Media{{Title: "Hand-made image", Filename: "hand.png", MIMEType: "image/png", Width: 100, Height: 100}})
	must(t, err)
	m.handMade = m.all(t)
	return m
}

func must(t *rapid.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// all returns every item of the host by reference, with the derived
// count of a term's posts left out: generated posts may use hand-made
// terms, which changes the count and nothing of the term itself.
func (m *deletionModel) all(t *rapid.T) map[ref]any {
	t.Helper()
	out := map[ref]any{}
	posts, err := m.host.Posts(m.ctx, contentgen.PostQuery{})
	must(t, err)
	for _, p := range posts {
		out[ref{contentgen.KindPost, p.ID}] = p
	}
	terms, err := m.host.Terms(m.ctx, contentgen.TermQuery{})
	must(t, err)
	for _, x := range terms {
		x.Count = 0
		out[ref{contentgen.KindTerm, x.ID}] = x
	}
	users, err := m.host.Users(m.ctx, contentgen.UserQuery{})
	must(t, err)
	for _, u := range users {
		out[ref{contentgen.KindUser, u.ID}] = u
	}
	comments, err := m.host.Comments(m.ctx, contentgen.CommentQuery{})
	must(t, err)
	for _, c := range comments {
		out[ref{contentgen.KindComment, c.ID}] = c
	}
	media, err := m.host.Media(m.ctx, contentgen.MediaQuery{})
	must(t, err)
	for _, x := range media {
		out[ref{contentgen.KindMedia, x.ID}] = x
	}
	return out
}

// learn adds the items a generation made: every item that exists now and
// did not before, each of which must be generated and tracked.
func (m *deletionModel) learn(t *rapid.T, before map[ref]any) {
	t.Helper()
	entries, _, err := m.hist.List(m.ctx, history.Filter{})
	must(t, err)
	byRef := map[ref]history.Entry{}
	for _, e := range entries {
		byRef[ref{contentgen.ObjectKind(e.ContentType), e.ContentID}] = e
	}
	for r, v := range m.all(t) {
		if _, ok := before[r]; ok {
			continue
		}
		e, ok := byRef[r]
		if !ok {
			t.Fatalf("step %d: new %s has no history entry", m.steps, r)
		}
		it := genItem{subtype: e.ContentSubtype, origin: history.MetaString(e.Meta["origin"]), postType: history.MetaString(e.Meta["post_type"])}
		switch x := v.(type) {
		case contentgen.Post:
			it.subtype, it.featured = x.Type, x.FeaturedMediaID
		case contentgen.Comment:
			it.postID = x.PostID
		}
		m.generated[r] = it
		m.tracked[r] = e.ID
	}
	// A comment's post type is its post's.
	for r, it := range m.generated {
		if r.kind == contentgen.KindComment {
			if p, ok := m.postOf(t, it.postID); ok {
				it.subtype = p.Type
				m.generated[r] = it
			}
		}
	}
}

func (m *deletionModel) postOf(t *rapid.T, id int64) (contentgen.Post, bool) {
	posts, err := m.host.Posts(m.ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(id)})
	must(t, err)
	if len(posts) == 0 {
		return contentgen.Post{}, false
	}
	return posts[0], true
}

// remove takes items out of the model: their history goes with them, and
// the comments of a removed post go with it.
func (m *deletionModel) remove(refs ...ref) {
	for _, r := range refs {
		if _, ok := m.generated[r]; !ok {
			continue
		}
		delete(m.generated, r)
		delete(m.tracked, r)
		if r.kind == contentgen.KindPost {
			for c, it := range m.generated {
				if c.kind == contentgen.KindComment && it.postID == r.id {
					m.remove(c)
				}
			}
		}
	}
}

// select returns the generated items for which keep is true.
func (m *deletionModel) selectGenerated(keep func(ref, genItem) bool) []ref {
	var out []ref
	for r, it := range m.generated {
		if keep(r, it) {
			out = append(out, r)
		}
	}
	return out
}

// Generation.

func (m *deletionModel) GeneratePosts(t *rapid.T) {
	before := m.all(t)
	req := contentgen.PostsRequest{
		PostType:         rapid.SampledFrom(modelPostTypes).Draw(t, "post_type"),
		Count:            new(rapid.IntRange(1, 4).Draw(t, "count")),
		SetFeaturedImage: new(rapid.Bool().Draw(t, "featured")),
		ImageProvider:    providers.Random,
		AutoComments:     rapid.Bool().Draw(t, "auto_comments"),
	}
	if req.AutoComments {
		req.CommentsPerPostMin, req.CommentsPerPostMax = new(1), new(2)
	}
	_, err := m.gen.GeneratePosts(m.ctx, req)
	must(t, err)
	m.learn(t, before)
}

func (m *deletionModel) GenerateTerms(t *rapid.T) {
	before := m.all(t)
	_, err := m.gen.GenerateTerms(m.ctx, contentgen.TermsRequest{
		Taxonomy: rapid.SampledFrom([]string{"category", "post_tag", "genre"}).Draw(t, "taxonomy"),
		Count:    new(rapid.IntRange(1, 3).Draw(t, "count")),
	})
	must(t, err)
	m.learn(t, before)
}

func (m *deletionModel) GenerateUsers(t *rapid.T) {
	before := m.all(t)
	_, err := m.gen.GenerateUsers(m.ctx, contentgen.UsersRequest{Count: new(rapid.IntRange(1, 2).Draw(t, "count")), GenerateAvatars: new(false)})
	must(t, err)
	m.learn(t, before)
}

func (m *deletionModel) GenerateComments(t *rapid.T) {
	before := m.all(t)
	_, err := m.gen.GenerateComments(m.ctx, contentgen.CommentsRequest{
		PostType: rapid.SampledFrom(modelPostTypes).Draw(t, "post_type"), CommentsPerPostMin: new(1), CommentsPerPostMax: new(2),
	})
	if err != nil && codeOf(err) != contentgen.CodeInvalidParameter && codeOf(err) != contentgen.CodeNotFound {
		t.Fatal(err)
	}
	m.learn(t, before)
}

// Deletion.

// DeleteByIDs deletes items of one kind by a list of ids mixing the ids of
// generated and hand-made items of every kind and ids no item has; an
// empty list deletes nothing.
func (m *deletionModel) DeleteByIDs(t *rapid.T) {
	kind := rapid.SampledFrom([]contentgen.ObjectKind{contentgen.KindPost, contentgen.KindTerm, contentgen.KindUser, contentgen.KindComment}).Draw(t, "kind")
	var pool []int64
	for r := range m.all(t) {
		pool = append(pool, r.id)
	}
	pool = append(pool, 999, 1000)
	slices.Sort(pool)
	ids := rapid.SliceOfNDistinct(rapid.SampledFrom(pool), 0, 8, rapid.ID[int64]).Draw(t, "ids")
	rm, err := m.gen.Delete(m.ctx, kind, contentgen.OnlyIDs(ids...), true)
	must(t, err)
	var want []ref
	for _, id := range ids {
		if _, ok := m.generated[ref{kind, id}]; ok {
			want = append(want, ref{kind, id})
		}
	}
	removed := map[contentgen.ObjectKind]int{contentgen.KindPost: rm.Posts, contentgen.KindTerm: rm.Terms, contentgen.KindUser: rm.Users, contentgen.KindComment: rm.Comments}
	if removed[kind] != len(want) {
		t.Fatalf("step %d: deleting %s %v removed %d, want %d (%v)", m.steps, kind, ids, removed[kind], len(want), want)
	}
	m.remove(want...)
}

// DeletePosts deletes the generated posts of a type or of all types, in
// chunks of the batch size, with what was generated with them as asked.
func (m *deletionModel) DeletePosts(t *rapid.T) {
	// An option left nil follows its setting, true by default.
	option := func(name string) *bool {
		return rapid.SampledFrom([]*bool{nil, new(true), new(false)}).Draw(t, name)
	}
	on := func(p *bool) bool { return p == nil || *p }
	req := contentgen.DeletePostsRequest{
		PostType:              rapid.SampledFrom(modelPostTypes).Draw(t, "post_type"),
		DeleteScope:           rapid.SampledFrom([]string{"current_type", "all"}).Draw(t, "scope"),
		DeleteRelatedMedia:    option("media"),
		DeleteRelatedTerms:    option("terms"),
		DeleteRelatedAuthors:  option("authors"),
		DeleteRelatedComments: option("comments"),
		DeleteRelatedPosts:    rapid.Bool().Draw(t, "related_posts"),
	}
	inScope := func(postType string) bool { return req.DeleteScope == "all" || postType == req.PostType }
	posts := m.selectGenerated(func(r ref, it genItem) bool { return r.kind == contentgen.KindPost && inScope(it.subtype) })
	var want []ref
	want = append(want, posts...)
	featured := map[int64]bool{}
	for _, p := range posts {
		featured[m.generated[p].featured] = true
	}
	related := func(kind contentgen.ObjectKind, origin string) []ref {
		return m.selectGenerated(func(r ref, it genItem) bool {
			_, tracked := m.tracked[r]
			return r.kind == kind && tracked && it.origin == origin && inScope(it.postType)
		})
	}
	// The generated comments on posts of the scope go, also those on
	// hand-made posts.
	if on(req.DeleteRelatedComments) {
		want = append(want, m.selectGenerated(func(r ref, it genItem) bool { return r.kind == contentgen.KindComment && inScope(it.subtype) })...)
	}
	if req.DeleteRelatedPosts {
		want = append(want, related(contentgen.KindPost, "related")...)
	}
	if on(req.DeleteRelatedMedia) {
		want = append(want, related(contentgen.KindMedia, "featured_image")...)
		want = append(want, m.selectGenerated(func(r ref, _ genItem) bool { return r.kind == contentgen.KindMedia && featured[r.id] })...)
	}
	if on(req.DeleteRelatedTerms) {
		want = append(want, related(contentgen.KindTerm, "posts")...)
	}
	if on(req.DeleteRelatedAuthors) {
		want = append(want, related(contentgen.KindUser, "author")...)
	}
	rm, err := m.gen.DeletePosts(m.ctx, req)
	must(t, err)
	if rm.Posts != len(posts) {
		t.Fatalf("step %d: DeletePosts %+v removed %d posts, want %d", m.steps, req, rm.Posts, len(posts))
	}
	m.remove(want...)
}

// DeleteHistoryEntry deletes a tracked item's entry, with or without its
// content, or an entry that does not exist.
func (m *deletionModel) DeleteHistoryEntry(t *rapid.T) {
	withContent := rapid.Bool().Draw(t, "with_content")
	refs := slices.SortedFunc(maps.Keys(m.tracked), func(a, b ref) int {
		if a.kind != b.kind {
			return compareStrings(string(a.kind), string(b.kind))
		}
		return int(a.id - b.id)
	})
	if len(refs) == 0 || rapid.IntRange(0, 9).Draw(t, "unknown") == 0 {
		_, err := m.gen.History().Delete(m.ctx, "no-such-entry", withContent)
		if codeOf(err) != contentgen.CodeNotFound {
			t.Fatalf("step %d: deleting an unknown entry: %v, want not_found", m.steps, err)
		}
		return
	}
	r := rapid.SampledFrom(refs).Draw(t, "entry")
	deleted, err := m.gen.History().Delete(m.ctx, m.tracked[r], withContent)
	must(t, err)
	if deleted != withContent {
		t.Fatalf("step %d: deleting the entry of %s with content %v deleted content: %v", m.steps, r, withContent, deleted)
	}
	if withContent {
		m.remove(r)
	} else {
		delete(m.tracked, r)
	}
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// PruneHistory finds no orphan: every deletion forgets what it deleted.
func (m *deletionModel) PruneHistory(t *rapid.T) {
	n, err := m.gen.History().Prune(m.ctx)
	must(t, err)
	if n != 0 {
		t.Fatalf("step %d: PruneHistory removed %d entries of content that deletion should have forgotten", m.steps, n)
	}
}

func (m *deletionModel) DeleteAll(t *rapid.T) {
	_, err := m.gen.DeleteAll(m.ctx)
	must(t, err)
	m.generated, m.tracked = map[ref]genItem{}, map[ref]string{}
}

// Check holds after every step: hand-made items are as they were made,
// the generated items that exist are those of the model, and the history
// is exactly the tracked ones.
func (m *deletionModel) Check(t *rapid.T) {
	m.steps++
	now := m.all(t)
	for r, was := range m.handMade {
		is, ok := now[r]
		if !ok {
			t.Fatalf("step %d: hand-made %s was deleted", m.steps, r)
		}
		if fmt.Sprintf("%#v", is) != fmt.Sprintf("%#v", was) {
			t.Fatalf("step %d: hand-made %s changed:\nwas %#v\nis  %#v", m.steps, r, was, is)
		}
	}
	for r := range now {
		_, handMade := m.handMade[r]
		_, generated := m.generated[r]
		if !handMade && !generated {
			t.Fatalf("step %d: %s exists but the model says it was deleted", m.steps, r)
		}
	}
	for r := range m.generated {
		if _, ok := now[r]; !ok {
			t.Fatalf("step %d: generated %s is gone but the model says it exists", m.steps, r)
		}
	}
	entries, total, err := m.hist.List(m.ctx, history.Filter{})
	must(t, err)
	got := map[ref]string{}
	for _, e := range entries {
		got[ref{contentgen.ObjectKind(e.ContentType), e.ContentID}] = e.ID
	}
	if total != len(entries) || len(got) != len(entries) {
		t.Fatalf("step %d: history has %d entries (total %d) for %d items", m.steps, len(entries), total, len(got))
	}
	if !maps.Equal(got, m.tracked) {
		t.Fatalf("step %d: history tracks %v, want %v", m.steps, keysOf(got), keysOf(m.tracked))
	}
}

func keysOf(m map[ref]string) []string {
	var out []string
	for r := range m {
		out = append(out, r.String())
	}
	slices.Sort(out)
	return out
}

// TestDeletionModel runs random sequences of generation of every kind,
// deletion by ids (mixing hand-made ids and ids of other kinds), chunked
// deletion of posts with their related items, deletion of history entries
// with and without content, pruning and deletion of everything, and
// checks after every step that hand-made items are untouched, deleted
// generated items are gone and the history is exactly the tracked
// generated items that exist.
func TestDeletionModel(t *testing.T) {
	if !flagGiven("rapid.checks") {
		require.NoError(t, flag.Set("rapid.checks", fmt.Sprint(defaultModelChecks)))
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, providers.MinImageSize, providers.MinImageSize))))
	images := buf.Bytes()
	rapid.Check(t, func(t *rapid.T) {
		m := newDeletionModel(t, images)
		t.Repeat(rapid.StateMachineActions(m))
	})
}

func flagGiven(name string) bool {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// codeOf returns the code of a *contentgen.Error, "" for other errors.
func codeOf(err error) contentgen.Code {
	var ce *contentgen.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}
