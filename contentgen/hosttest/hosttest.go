package hosttest

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

// TagKey is the meta key the suite sets on every object it creates; its
// value identifies the subtest, so that content already in the host is
// never counted or changed.
const TagKey = "_hosttest"

// Run runs the conformance suite against the hosts newHost returns, one
// fresh host per subtest (see the package documentation for what the host
// must offer).
func Run(t *testing.T, newHost func(t *testing.T) contentgen.Host) {
	t.Helper()
	groups := []struct {
		name  string
		tests []test
	}{
		{"Discovery", discoveryTests()},
		{"Posts", postTests()},
		{"Terms", termTests()},
		{"Users", userTests()},
		{"Comments", commentTests()},
		{"Media", mediaTests()},
		{"Meta", metaTests()},
		{"Cancelled", cancelTests()},
		{"Concurrency", concurrencyTests()},
		{"Trasher", trasherTests()},
		{"Transactor", transactorTests()},
		{"Exister", existerTests()},
		{"PostDeleter", postDeleterTests()},
		{"MediaStorer", mediaStorerTests()},
		{"Lister", listerTests()},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			for _, tc := range g.tests {
				t.Run(tc.name, func(t *testing.T) {
					tc.run(t, newFixture(t, newHost(t)))
				})
			}
		})
	}
}

// test is one subtest of the suite.
type test struct {
	name string
	run  func(t *testing.T, f *fixture)
}

// fixture is a host with what the suite discovered about it.
type fixture struct {
	h   contentgen.Host
	ctx context.Context
	// pt is a post type that is not internal.
	pt contentgen.PostType
	// hier and flat are taxonomies linked to pt, nil when there is none.
	hier, flat *contentgen.Taxonomy
	// role is a registered role, "" when there is none.
	role string
	// tag is the value of TagKey on everything this fixture creates.
	tag string
	n   int // counter for unique names
}

func newFixture(t *testing.T, h contentgen.Host) *fixture {
	t.Helper()
	require.NotNil(t, h, "newHost returned nil")
	f := &fixture{h: h, ctx: t.Context(), tag: t.Name()}
	types, err := h.PostTypes(f.ctx)
	require.NoError(t, err)
	taxes, err := h.Taxonomies(f.ctx)
	require.NoError(t, err)
	linked := func(pt contentgen.PostType, hierarchical bool) *contentgen.Taxonomy {
		for i := range taxes {
			tx := &taxes[i]
			if tx.Hierarchical == hierarchical && (slices.Contains(tx.PostTypes, pt.Name) || slices.Contains(pt.Taxonomies, tx.Name)) {
				return tx
			}
		}
		return nil
	}
	best := -1
	for _, pt := range types {
		if pt.Internal {
			continue
		}
		score := 0
		if linked(pt, true) != nil {
			score++
		}
		if linked(pt, false) != nil {
			score++
		}
		if score > best {
			best, f.pt = score, pt
			f.hier, f.flat = linked(pt, true), linked(pt, false)
		}
	}
	require.GreaterOrEqual(t, best, 0, "hosttest needs a host with at least one post type that is not Internal")
	roles, err := h.Roles(f.ctx)
	require.NoError(t, err)
	if len(roles) > 0 {
		f.role = roles[len(roles)-1].Slug
	}
	return f
}

// needHier skips the test when the post type has no hierarchical taxonomy.
func (f *fixture) needHier(t *testing.T) {
	t.Helper()
	if f.hier == nil {
		t.Skipf("post type %q has no hierarchical taxonomy; register one to run this check", f.pt.Name)
	}
}

// needFlat skips the test when the post type has no flat taxonomy.
func (f *fixture) needFlat(t *testing.T) {
	t.Helper()
	if f.flat == nil {
		t.Skipf("post type %q has no flat taxonomy; register one to run this check", f.pt.Name)
	}
}

// meta returns meta holding the fixture tag and the given key/value pairs.
func (f *fixture) meta(kv ...string) contentgen.Meta {
	m := contentgen.Meta{TagKey: f.tag}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// name returns a name unique within the fixture.
func (f *fixture) name(prefix string) string {
	f.n++
	return prefix + strconv.Itoa(f.n)
}

// date returns a whole-second UTC time, days before a fixed instant, so
// that hosts storing seconds keep it exactly.
func date(days int) time.Time {
	return time.Date(2024, 3, 15, 10, 30, 0, 0, time.UTC).AddDate(0, 0, -days)
}

// post returns a valid draft post of the fixture's type, tagged.
func (f *fixture) post(title string) contentgen.Post {
	return contentgen.Post{
		Type: f.pt.Name, Status: contentgen.StatusDraft, Title: title,
		Content: "<p>" + title + "</p>", Date: date(1), Meta: f.meta(),
	}
}

// createPosts creates posts and checks the number of ids.
func (f *fixture) createPosts(t *testing.T, posts ...contentgen.Post) []int64 {
	t.Helper()
	ids, err := f.h.CreatePosts(f.ctx, posts)
	require.NoError(t, err)
	require.Len(t, ids, len(posts))
	return ids
}

// createPost creates one post with the given title.
func (f *fixture) createPost(t *testing.T, title string) int64 {
	t.Helper()
	return f.createPosts(t, f.post(title))[0]
}

// term returns a valid term of taxonomy tax, tagged.
func (f *fixture) term(tax *contentgen.Taxonomy, name string, parent int64) contentgen.Term {
	return contentgen.Term{Taxonomy: tax.Name, Name: name, ParentID: parent, Meta: f.meta()}
}

// createTerm creates one term.
func (f *fixture) createTerm(t *testing.T, tax *contentgen.Taxonomy, name string, parent int64) int64 {
	t.Helper()
	ids, err := f.h.CreateTerms(f.ctx, []contentgen.Term{f.term(tax, name, parent)})
	require.NoError(t, err)
	require.Len(t, ids, 1)
	return ids[0]
}

// user returns a valid user with a unique login and e-mail, tagged.
func (f *fixture) user() contentgen.User {
	login := f.name("hosttest_user_")
	u := contentgen.User{
		Login: login, Email: login + "@hosttest.example", DisplayName: "User " + login,
		Registered: date(30), Meta: f.meta(),
	}
	if f.role != "" {
		u.Roles = []string{f.role}
	}
	return u
}

// createUsers creates n users.
func (f *fixture) createUsers(t *testing.T, n int) []int64 {
	t.Helper()
	users := make([]contentgen.User, n)
	for i := range users {
		users[i] = f.user()
	}
	ids, err := f.h.CreateUsers(f.ctx, users)
	require.NoError(t, err)
	require.Len(t, ids, n)
	return ids
}

// comment returns a valid approved comment on post, tagged.
func (f *fixture) comment(post, parent int64, content string) contentgen.Comment {
	return contentgen.Comment{
		PostID: post, ParentID: parent, AuthorName: "Visitor", AuthorEmail: "visitor@hosttest.example",
		Content: content, Status: contentgen.CommentApproved, Date: date(2), Meta: f.meta(),
	}
}

// createComment creates one comment.
func (f *fixture) createComment(t *testing.T, post, parent int64, content string) int64 {
	t.Helper()
	ids, err := f.h.CreateComments(f.ctx, []contentgen.Comment{f.comment(post, parent, content)})
	require.NoError(t, err)
	require.Len(t, ids, 1)
	return ids[0]
}

// media returns a valid media record, tagged.
func (f *fixture) media(title, mimeType string) contentgen.Media {
	return contentgen.Media{
		Title: title, Filename: f.name("hosttest-") + ".png", MIMEType: mimeType,
		URL: "https://images.hosttest.example/" + title, Width: 64, Height: 48, Filesize: 1234,
		Date: date(3), Meta: f.meta(),
	}
}

// createMedia creates one media record.
func (f *fixture) createMedia(t *testing.T, title, mimeType string) int64 {
	t.Helper()
	ids, err := f.h.CreateMedia(f.ctx, []contentgen.Media{f.media(title, mimeType)})
	require.NoError(t, err)
	require.Len(t, ids, 1)
	return ids[0]
}

// Queries restricted to what the fixture created.

func (f *fixture) posts(t *testing.T, q contentgen.PostQuery) []contentgen.Post {
	t.Helper()
	if q.MetaKey == "" {
		q.MetaKey, q.MetaValue = TagKey, f.tag
	}
	out, err := f.h.Posts(f.ctx, q)
	require.NoError(t, err)
	return out
}

func (f *fixture) terms(t *testing.T, q contentgen.TermQuery) []contentgen.Term {
	t.Helper()
	if q.MetaKey == "" {
		q.MetaKey, q.MetaValue = TagKey, f.tag
	}
	out, err := f.h.Terms(f.ctx, q)
	require.NoError(t, err)
	return out
}

func (f *fixture) users(t *testing.T, q contentgen.UserQuery) []contentgen.User {
	t.Helper()
	if q.MetaKey == "" {
		q.MetaKey, q.MetaValue = TagKey, f.tag
	}
	out, err := f.h.Users(f.ctx, q)
	require.NoError(t, err)
	return out
}

func (f *fixture) comments(t *testing.T, q contentgen.CommentQuery) []contentgen.Comment {
	t.Helper()
	if q.MetaKey == "" {
		q.MetaKey, q.MetaValue = TagKey, f.tag
	}
	out, err := f.h.Comments(f.ctx, q)
	require.NoError(t, err)
	return out
}

func (f *fixture) mediaItems(t *testing.T, q contentgen.MediaQuery) []contentgen.Media {
	t.Helper()
	if q.MetaKey == "" {
		q.MetaKey, q.MetaValue = TagKey, f.tag
	}
	out, err := f.h.Media(f.ctx, q)
	require.NoError(t, err)
	return out
}

// getPost returns the post id, failing the test when it does not exist.
func (f *fixture) getPost(t *testing.T, id int64) contentgen.Post {
	t.Helper()
	out, err := f.h.Posts(f.ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(id)})
	require.NoError(t, err)
	require.Len(t, out, 1, "post %d", id)
	return out[0]
}

func (f *fixture) getTerm(t *testing.T, id int64) contentgen.Term {
	t.Helper()
	out, err := f.h.Terms(f.ctx, contentgen.TermQuery{IDs: contentgen.OnlyIDs(id)})
	require.NoError(t, err)
	require.Len(t, out, 1, "term %d", id)
	return out[0]
}

func (f *fixture) getUser(t *testing.T, id int64) contentgen.User {
	t.Helper()
	out, err := f.h.Users(f.ctx, contentgen.UserQuery{IDs: contentgen.OnlyIDs(id)})
	require.NoError(t, err)
	require.Len(t, out, 1, "user %d", id)
	return out[0]
}

func (f *fixture) getComment(t *testing.T, id int64) contentgen.Comment {
	t.Helper()
	out, err := f.h.Comments(f.ctx, contentgen.CommentQuery{IDs: contentgen.OnlyIDs(id)})
	require.NoError(t, err)
	require.Len(t, out, 1, "comment %d", id)
	return out[0]
}

func (f *fixture) getMedia(t *testing.T, id int64) contentgen.Media {
	t.Helper()
	out, err := f.h.Media(f.ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(id)})
	require.NoError(t, err)
	require.Len(t, out, 1, "media %d", id)
	return out[0]
}

// exists reports whether an object exists, judged by a query by id.
func (f *fixture) exists(t *testing.T, kind contentgen.ObjectKind, id int64) bool {
	t.Helper()
	var n int
	var err error
	ids := []int64{id}
	switch kind {
	case contentgen.KindPost:
		var out []contentgen.Post
		out, err = f.h.Posts(f.ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(ids...)})
		n = len(out)
	case contentgen.KindTerm:
		var out []contentgen.Term
		out, err = f.h.Terms(f.ctx, contentgen.TermQuery{IDs: contentgen.OnlyIDs(ids...)})
		n = len(out)
	case contentgen.KindUser:
		var out []contentgen.User
		out, err = f.h.Users(f.ctx, contentgen.UserQuery{IDs: contentgen.OnlyIDs(ids...)})
		n = len(out)
	case contentgen.KindComment:
		var out []contentgen.Comment
		out, err = f.h.Comments(f.ctx, contentgen.CommentQuery{IDs: contentgen.OnlyIDs(ids...)})
		n = len(out)
	case contentgen.KindMedia:
		var out []contentgen.Media
		out, err = f.h.Media(f.ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(ids...)})
		n = len(out)
	default:
		t.Fatalf("unknown kind %q", kind)
	}
	require.NoError(t, err)
	require.LessOrEqual(t, n, 1, "a query by one id returned %d %ss", n, kind)
	return n == 1
}

// requireMetaGone checks that Meta of a removed object is ErrHostNotFound.
func (f *fixture) requireMetaGone(t *testing.T, kind contentgen.ObjectKind, id int64) {
	t.Helper()
	_, err := f.h.Meta(f.ctx, kind, id)
	require.ErrorIs(t, err, contentgen.ErrHostNotFound, "Meta of removed %s %d", kind, id)
}

// requireSubset checks that every key of want is in got with its value.
func requireSubset(t *testing.T, want, got contentgen.Meta) {
	t.Helper()
	for k, v := range want {
		gv, ok := got[k]
		require.True(t, ok, "meta key %q missing from %v", k, got)
		require.Equal(t, v, gv, "meta key %q", k)
	}
}

// idsOf returns the ids of items, in order.
func idsOf[T any](items []T, id func(T) int64) []int64 {
	out := make([]int64, len(items))
	for i, it := range items {
		out[i] = id(it)
	}
	return out
}

func postIDs(ps []contentgen.Post) []int64 {
	return idsOf(ps, func(p contentgen.Post) int64 { return p.ID })
}

func termIDs(ts []contentgen.Term) []int64 {
	return idsOf(ts, func(t contentgen.Term) int64 { return t.ID })
}

func userIDs(us []contentgen.User) []int64 {
	return idsOf(us, func(u contentgen.User) int64 { return u.ID })
}

func commentIDs(cs []contentgen.Comment) []int64 {
	return idsOf(cs, func(c contentgen.Comment) int64 { return c.ID })
}

func mediaIDs(ms []contentgen.Media) []int64 {
	return idsOf(ms, func(m contentgen.Media) int64 { return m.ID })
}

// requireAscending checks that ids are strictly increasing.
func requireAscending(t *testing.T, ids []int64) {
	t.Helper()
	for i := 1; i < len(ids); i++ {
		require.Less(t, ids[i-1], ids[i], "results must be ordered by id: %v", ids)
	}
}

// sorted returns a sorted copy of ids.
func sorted(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

// requireDistinctPositive checks ids are positive and distinct.
func requireDistinctPositive(t *testing.T, ids []int64) {
	t.Helper()
	seen := map[int64]bool{}
	for _, id := range ids {
		require.Positive(t, id)
		require.False(t, seen[id], "id %d returned twice in %v", id, ids)
		seen[id] = true
	}
}

// removedID returns the id of a post, term, user, comment or media item
// that existed and was deleted, so that it certainly does not exist.
func (f *fixture) removedID(t *testing.T, kind contentgen.ObjectKind) int64 {
	t.Helper()
	var id int64
	var err error
	switch kind {
	case contentgen.KindPost:
		id = f.createPost(t, "Removed")
		err = f.h.DeletePosts(f.ctx, []int64{id})
	case contentgen.KindTerm:
		f.needHier(t)
		id = f.createTerm(t, f.hier, f.name("Removed "), 0)
		err = f.h.DeleteTerms(f.ctx, []int64{id})
	case contentgen.KindUser:
		id = f.createUsers(t, 1)[0]
		err = f.h.DeleteUsers(f.ctx, []int64{id}, 0)
	case contentgen.KindComment:
		id = f.createComment(t, f.createPost(t, "Commented"), 0, "Removed")
		err = f.h.DeleteComments(f.ctx, []int64{id})
	case contentgen.KindMedia:
		id = f.createMedia(t, "Removed", "image/png")
		err = f.h.DeleteMedia(f.ctx, []int64{id})
	}
	require.NoError(t, err)
	require.False(t, f.exists(t, kind, id))
	return id
}

// object creates one object of kind and returns its id.
func (f *fixture) object(t *testing.T, kind contentgen.ObjectKind) int64 {
	t.Helper()
	switch kind {
	case contentgen.KindPost:
		return f.createPost(t, f.name("Object "))
	case contentgen.KindTerm:
		f.needHier(t)
		return f.createTerm(t, f.hier, f.name("Object "), 0)
	case contentgen.KindUser:
		return f.createUsers(t, 1)[0]
	case contentgen.KindComment:
		return f.createComment(t, f.createPost(t, f.name("Object ")), 0, "Object")
	case contentgen.KindMedia:
		return f.createMedia(t, f.name("Object "), "image/png")
	}
	t.Fatalf("unknown kind %q", kind)
	return 0
}

// kinds returns the object kinds of the Host.
func kinds() []contentgen.ObjectKind {
	return []contentgen.ObjectKind{
		contentgen.KindPost, contentgen.KindTerm, contentgen.KindUser, contentgen.KindComment, contentgen.KindMedia,
	}
}
