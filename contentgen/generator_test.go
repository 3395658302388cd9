package contentgen_test

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
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
	"github.com/contentgen/contentgen/providers/local"
)

var epoch = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

func clock() time.Time { return epoch }

// fixture is a demo site with a Generator over it.
type fixture struct {
	host *memhost.Host
	hist *history.MemStore
	gen  *contentgen.Generator
}

func newFixture(t testing.TB, seed int64) *fixture {
	t.Helper()
	host, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	hist := history.NewMemStore(clock)
	gen, err := contentgen.New(host, hist, &contentgen.Config{Seed: &seed, Now: clock})
	require.NoError(t, err)
	return &fixture{host: host, hist: hist, gen: gen}
}

func (f *fixture) posts(t testing.TB, ids []int64) []contentgen.Post {
	t.Helper()
	posts, err := f.host.Posts(context.Background(), contentgen.PostQuery{IDs: contentgen.OnlyIDs(ids...)})
	require.NoError(t, err)
	require.Len(t, posts, len(ids))
	return posts
}

func noImages(r contentgen.PostsRequest) contentgen.PostsRequest {
	r.SetFeaturedImage = new(false)
	return r
}

func TestPostsValidation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		req   contentgen.PostsRequest
		want  error
		param string
	}{
		{"unknown type", contentgen.PostsRequest{PostType: "nope"}, contentgen.ErrInvalidPostType, "post_type"},
		{"internal type", contentgen.PostsRequest{PostType: "attachment"}, contentgen.ErrInvalidPostType, "post_type"},
		{"count 0", contentgen.PostsRequest{Count: new(0)}, contentgen.ErrInvalidCount, "count"},
		{"count 501", contentgen.PostsRequest{Count: new(501)}, contentgen.ErrInvalidCount, "count"},
		{"status", contentgen.PostsRequest{PostStatus: "archived"}, contentgen.ErrInvalidParameter, "post_status"},
		{"provider", contentgen.PostsRequest{ImageProvider: "elsewhere"}, contentgen.ErrInvalidParameter, "image_provider"},
		{"category", contentgen.PostsRequest{ImageCategory: "cars"}, contentgen.ErrInvalidParameter, "image_category"},
		{"width", contentgen.PostsRequest{ImageWidth: new(4001)}, contentgen.ErrInvalidParameter, "image_width"},
		{"height", contentgen.PostsRequest{ImageHeight: new(99)}, contentgen.ErrInvalidParameter, "image_height"},
		{"reply probability", contentgen.PostsRequest{CommentReplyProbability: new(101)}, contentgen.ErrInvalidParameter, "comment_reply_probability"},
		{"profile", contentgen.PostsRequest{VariationProfile: "full"}, contentgen.ErrInvalidParameter, "variation_profile"},
		{"scope", contentgen.PostsRequest{DeleteScope: "some"}, contentgen.ErrInvalidParameter, "delete_scope"},
		{"locale", contentgen.PostsRequest{Locale: "tlh"}, contentgen.ErrInvalidParameter, "locale"},
		{"template", contentgen.PostsRequest{TemplateID: 42}, contentgen.ErrNotFound, "template_id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, 1)
			_, err := f.gen.GeneratePosts(context.Background(), c.req)
			require.ErrorIs(t, err, c.want)
			var ce *contentgen.Error
			require.True(t, errors.As(err, &ce))
			require.Equal(t, c.param, ce.Param)
			require.Contains(t, ce.Message, c.param)
			_, cerr := f.gen.CheckPosts(context.Background(), c.req)
			require.Equal(t, err.Error(), fmt.Sprint(cerr), "CheckPosts refuses what GeneratePosts refuses")
			entries, total, err := f.hist.List(context.Background(), history.Filter{})
			require.NoError(t, err)
			require.Zero(t, total, "an invalid request writes nothing: %v", entries)
		})
	}
}

func TestPostsDefaults(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 2)
	res, err := f.gen.GeneratePosts(context.Background(), noImages(contentgen.PostsRequest{}))
	require.NoError(t, err)
	require.Equal(t, 5, len(res.IDs), "default count is 5")
	require.Len(t, res.IDs, 5)
	require.Equal(t, 5, res.WithoutFeaturedImage)
	for _, p := range f.posts(t, res.IDs) {
		require.Equal(t, "post", p.Type)
		require.Equal(t, contentgen.StatusPublish, p.Status)
		require.True(t, p.Meta.Generated())
		require.NotZero(t, p.AuthorID)
		words := len(strings.Fields(p.Title))
		require.True(t, words >= 2 && words <= 14, "title %q", p.Title)
		require.Contains(t, p.Content, "<p>")
		require.True(t, p.Date.Before(epoch) && p.Date.After(epoch.AddDate(-1, 0, -1)), "date %v", p.Date)
		require.NotEmpty(t, p.Terms["category"], "auto_taxonomies assigns categories")
	}
	require.Positive(t, res.TimeSaved)
}

func TestPostStatuses(t *testing.T) {
	t.Parallel()
	for _, status := range []string{"publish", "draft", "pending", "private", "future"} {
		t.Run(status, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, 3)
			res, err := f.gen.GeneratePosts(context.Background(), noImages(contentgen.PostsRequest{Count: new(10), PostStatus: status}))
			require.NoError(t, err)
			for _, p := range f.posts(t, res.IDs) {
				require.Equal(t, status, p.Status)
				if status == "future" {
					require.True(t, p.Date.After(epoch), "future posts are dated in the future: %v", p.Date)
				} else {
					require.False(t, p.Date.After(epoch))
				}
			}
		})
	}
	t.Run("random", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t, 4)
		res, err := f.gen.GeneratePosts(context.Background(), noImages(contentgen.PostsRequest{Count: new(100), PostStatus: "random"}))
		require.NoError(t, err)
		seen := map[string]int{}
		for _, p := range f.posts(t, res.IDs) {
			seen[p.Status]++
		}
		require.Len(t, seen, 5, "random picks among all five statuses: %v", seen)
	})
}

func TestContentLooksReal(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 5)
	res, err := f.gen.GeneratePosts(context.Background(), noImages(contentgen.PostsRequest{Count: new(30), EnableVariation: new(false)}))
	require.NoError(t, err)
	var headings, lists int
	for _, p := range f.posts(t, res.IDs) {
		require.NotEmpty(t, p.Excerpt, "without variation every post is fully populated")
		require.GreaterOrEqual(t, strings.Count(p.Content, "<p>"), 4)
		if strings.Contains(p.Content, "<h2>") || strings.Contains(p.Content, "<h3>") {
			headings++
		}
		if strings.Contains(p.Content, "<ul>") || strings.Contains(p.Content, "<ol>") {
			lists++
		}
	}
	require.Equal(t, 30, headings, "long posts have headings")
	require.Positive(t, lists, "some posts have lists")
}

func TestVariationProfiles(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 6)
	res, err := f.gen.GeneratePosts(context.Background(), noImages(contentgen.PostsRequest{
		Count: new(40), EnableVariation: new(true), VariationProfile: "minimal",
	}))
	require.NoError(t, err)
	for _, p := range f.posts(t, res.IDs) {
		require.Empty(t, p.Excerpt, "minimal posts have no excerpt")
		require.LessOrEqual(t, strings.Count(p.Content, "<p>"), 2)
		for tax, ids := range p.Terms {
			require.LessOrEqual(t, len(ids), 1, "minimal posts have at most one term per taxonomy (%s)", tax)
		}
	}

	res, err = f.gen.GeneratePosts(context.Background(), noImages(contentgen.PostsRequest{
		Count: new(100), EnableVariation: new(true), VariationProfile: "partial",
	}))
	require.NoError(t, err)
	excerpts := 0
	for _, p := range f.posts(t, res.IDs) {
		if p.Excerpt != "" {
			excerpts++
		}
	}
	require.InDelta(t, 50, excerpts, 20, "partial: about half the posts have an excerpt")
}

func TestDeterministicWithSeed(t *testing.T) {
	t.Parallel()
	run := func() []contentgen.Post {
		f := newFixture(t, 99)
		res, err := f.gen.GeneratePosts(context.Background(), noImages(contentgen.PostsRequest{
			Count: new(8), PostStatus: "random", AutoComments: true, Seed: new(int64(1234)),
		}))
		require.NoError(t, err)
		return f.posts(t, res.IDs)
	}
	a, b := run(), run()
	require.Equal(t, a, b, "same seed, same host state: same posts")

	f := newFixture(t, 99)
	res, err := f.gen.GeneratePosts(context.Background(), noImages(contentgen.PostsRequest{Count: new(8), Seed: new(int64(4321))}))
	require.NoError(t, err)
	c := f.posts(t, res.IDs)
	require.NotEqual(t, a[0].Title, c[0].Title, "another seed gives other content")
}

func TestAuthorsCreatedWhenFew(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 7)
	res, err := f.gen.GeneratePosts(context.Background(), noImages(contentgen.PostsRequest{Count: new(3)}))
	require.NoError(t, err)
	require.Equal(t, 2, res.Authors, "the demo site has one publishing user; two more make three")
	users, err := f.host.Users(context.Background(), contentgen.UserQuery{MetaKey: contentgen.MarkerKey, MetaValue: "1"})
	require.NoError(t, err)
	require.Len(t, users, 2)
	for _, u := range users {
		require.NotContains(t, u.Roles, "administrator")
	}
	res, err = f.gen.GeneratePosts(context.Background(), noImages(contentgen.PostsRequest{Count: new(3)}))
	require.NoError(t, err)
	require.Zero(t, res.Authors, "enough authors now")
}

func TestAutoTaxonomiesTracked(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 8)
	res, err := f.gen.GeneratePosts(context.Background(), noImages(contentgen.PostsRequest{Count: new(10)}))
	require.NoError(t, err)
	require.Positive(t, res.Terms["post_tag"], "new tags are created: %v", res.Terms)
	terms, err := f.host.Terms(context.Background(), contentgen.TermQuery{MetaKey: contentgen.MarkerKey, MetaValue: "1"})
	require.NoError(t, err)
	total := 0
	for _, n := range res.Terms {
		total += n
	}
	require.Len(t, terms, total, "every created term carries the marker")
	_, n, err := f.hist.List(context.Background(), history.Filter{ContentType: history.TypeTerm})
	require.NoError(t, err)
	require.Equal(t, total, n, "every created term is in the history")
}

func TestTermsHierarchy(t *testing.T) {
	t.Parallel()
	cases := []struct {
		depth, breadth, want int
	}{
		{1, 1, 1}, {1, 10, 10}, {2, 3, 12}, {3, 3, 39}, {3, 2, 14},
	}
	for _, c := range cases {
		f := newFixture(t, 9)
		res, err := f.gen.GenerateTerms(context.Background(), contentgen.TermsRequest{
			Taxonomy: "category", GenerateHierarchy: true, Depth: &c.depth, Breadth: &c.breadth,
		})
		require.NoError(t, err)
		require.Equal(t, c.want, len(res.IDs), "depth %d breadth %d", c.depth, c.breadth)
		terms, err := f.host.Terms(context.Background(), contentgen.TermQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
		require.NoError(t, err)
		children := map[int64]int{}
		byID := map[int64]contentgen.Term{}
		for _, tm := range terms {
			children[tm.ParentID]++
			byID[tm.ID] = tm
		}
		require.Equal(t, c.breadth, children[0], "breadth roots")
		for _, tm := range terms {
			d := 1
			for p := tm.ParentID; p != 0; p = byID[p].ParentID {
				d++
			}
			require.LessOrEqual(t, d, c.depth)
		}
	}

	f := newFixture(t, 10)
	res, err := f.gen.GenerateTerms(context.Background(), contentgen.TermsRequest{Taxonomy: "post_tag", GenerateHierarchy: true, Count: new(7)})
	require.NoError(t, err)
	require.Equal(t, 7, len(res.IDs), "flat taxonomies ignore generate_hierarchy")
	terms, err := f.host.Terms(context.Background(), contentgen.TermQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	names := map[string]bool{}
	for _, tm := range terms {
		require.Zero(t, tm.ParentID)
		require.False(t, names[tm.Name], "term names are unique: %s", tm.Name)
		names[tm.Name] = true
	}

	res, err = f.gen.GenerateTerms(context.Background(), contentgen.TermsRequest{Taxonomy: "post_tag", Count: new(2), DeleteExisting: true})
	require.NoError(t, err)
	require.Equal(t, 7, res.Deleted)
}

func TestUsersRoles(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 11)
	ctx := context.Background()
	res, err := f.gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(100)})
	require.NoError(t, err)
	users, err := f.host.Users(ctx, contentgen.UserQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	emails := map[string]bool{}
	roles := map[string]int{}
	for _, u := range users {
		require.Len(t, u.Roles, 1)
		roles[u.Roles[0]]++
		_, err := mail.ParseAddress(u.Email)
		require.NoError(t, err, u.Email)
		require.False(t, emails[u.Email], "unique email %s", u.Email)
		emails[u.Email] = true
		require.NotEmpty(t, u.FirstName)
		require.NotEmpty(t, u.LastName)
		require.NotEmpty(t, u.Description)
		require.True(t, strings.HasPrefix(u.URL, "https://"), u.URL)
		require.True(t, u.Meta.Generated())
	}
	require.Zero(t, roles["administrator"], "administrator only when requested")
	require.Len(t, roles, 3, "default allowed roles: %v", roles)

	res, err = f.gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(3), Role: "administrator"})
	require.NoError(t, err)
	users, err = f.host.Users(ctx, contentgen.UserQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	for _, u := range users {
		require.Equal(t, []string{"administrator"}, u.Roles)
	}

	res, err = f.gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(20), AllowedRoles: []string{"editor", "subscriber"}})
	require.NoError(t, err)
	users, err = f.host.Users(ctx, contentgen.UserQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	for _, u := range users {
		require.Contains(t, []string{"editor", "subscriber"}, u.Roles[0])
	}
}

func TestCommentsPercentagesAndThreading(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 12)
	ctx := context.Background()
	posts, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(40), AutoTaxonomies: new(false)}))
	require.NoError(t, err)
	res, err := f.gen.GenerateComments(ctx, contentgen.CommentsRequest{
		PostIDs:            posts.IDs,
		CommentsPerPostMin: new(20), CommentsPerPostMax: new(30),
		PendingPercentage: new(20), AnonymousPercentage: new(50), ReplyProbability: new(40),
	})
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(res.IDs), 40*20)
	require.LessOrEqual(t, len(res.IDs), 40*30)
	comments, err := f.host.Comments(ctx, contentgen.CommentQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	var pending, anon, replies int
	byID := map[int64]contentgen.Comment{}
	perPost := map[int64]int{}
	for _, c := range comments {
		byID[c.ID] = c
		perPost[c.PostID]++
		if c.Status == contentgen.CommentPending {
			pending++
		}
		if c.UserID == 0 {
			anon++
			_, err := mail.ParseAddress(c.AuthorEmail)
			require.NoError(t, err)
		}
		if c.ParentID != 0 {
			replies++
		}
	}
	for id, n := range perPost {
		require.True(t, n >= 20 && n <= 30, "post %d has %d comments", id, n)
	}
	n := float64(len(comments))
	require.InDelta(t, 0.20, float64(pending)/n, 0.05)
	require.InDelta(t, 0.50, float64(anon)/n, 0.06)
	require.Positive(t, replies)
	for _, c := range comments {
		depth := 1
		for p := c.ParentID; p != 0; p = byID[p].ParentID {
			require.Equal(t, c.PostID, byID[p].PostID, "replies stay on their post")
			depth++
		}
		require.LessOrEqual(t, depth, 5)
	}

	res, err = f.gen.GenerateComments(ctx, contentgen.CommentsRequest{PostIDs: posts.IDs[:1], EnableThreading: new(false), DeleteExisting: true})
	require.NoError(t, err)
	require.Equal(t, len(comments), res.Deleted)
	comments, err = f.host.Comments(ctx, contentgen.CommentQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	for _, c := range comments {
		require.Zero(t, c.ParentID, "no threading: no replies")
	}
}

func TestDeletionKeepsHandMadeContent(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 13)
	ctx := context.Background()
	before, err := f.host.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	res, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(5)}))
	require.NoError(t, err)
	require.Equal(t, 2, res.Authors)

	// A person writes a post under a generated author's name.
	authors, err := f.host.Users(ctx, contentgen.UserQuery{MetaKey: contentgen.MarkerKey, MetaValue: "1"})
	require.NoError(t, err)
	hand, err := f.host.CreatePosts(ctx, []contentgen.Post{{Type: "post", Status: "publish", Title: "Written by hand", AuthorID: authors[0].ID}})
	require.NoError(t, err)

	del, err := f.gen.DeletePosts(ctx, contentgen.DeletePostsRequest{PostType: "post", DeleteRelatedTerms: new(true), DeleteRelatedAuthors: new(true)})
	require.NoError(t, err)
	require.Equal(t, 5, del.Posts)
	require.Equal(t, 2, del.Users)
	require.Positive(t, del.Terms)

	after, err := f.host.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	require.Len(t, after, len(before)+1)
	kept := f.posts(t, hand)[0]
	require.Equal(t, "Written by hand", kept.Title)
	require.NotEqual(t, authors[0].ID, kept.AuthorID, "reassigned to a hand-made user")
	require.NotZero(t, kept.AuthorID)

	_, total, err := f.hist.List(ctx, history.Filter{})
	require.NoError(t, err)
	require.Zero(t, total, "history of deleted items is gone")
}

// failingHistory refuses to record anything.
type failingHistory struct{ history.Store }

func (failingHistory) Add(context.Context, []history.Entry) error {
	return errors.New("disk full")
}

func TestUntrackedContentIsRemoved(t *testing.T) {
	t.Parallel()
	host, err := demosite.New(nil)
	require.NoError(t, err)
	ctx := context.Background()
	before, err := host.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	usersBefore, err := host.Users(ctx, contentgen.UserQuery{})
	require.NoError(t, err)
	gen, err := contentgen.New(host, failingHistory{history.NewMemStore(nil)}, nil)
	require.NoError(t, err)
	_, err = gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(5)}))
	require.ErrorIs(t, err, contentgen.ErrGenerationFailed)
	after, err := host.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	require.Equal(t, before, after, "nothing untracked is left behind")
	usersAfter, err := host.Users(ctx, contentgen.UserQuery{})
	require.NoError(t, err)
	require.Equal(t, usersBefore, usersAfter)
}

// forgetfulHistory records entries but cannot remove them.
type forgetfulHistory struct{ *history.MemStore }

func (forgetfulHistory) Delete(context.Context, ...string) (int, error) {
	return 0, errors.New("disk full")
}

// TestDeleteKeepsContentItCannotForget checks that removing content and
// forgetting its history happen together on a host with transactions:
// when the history cannot be updated, the content stays, tracked.
func TestDeleteKeepsContentItCannotForget(t *testing.T) {
	t.Parallel()
	host, err := demosite.New(nil)
	require.NoError(t, err)
	ctx := context.Background()
	hist := history.NewMemStore(nil)
	gen, err := contentgen.New(host, forgetfulHistory{hist}, nil)
	require.NoError(t, err)
	posts, err := gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(3)}))
	require.NoError(t, err)
	users, err := gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(2), GenerateAvatars: new(false)})
	require.NoError(t, err)
	before := snapshot(t, host, true)

	_, err = gen.Delete(ctx, contentgen.KindPost, contentgen.OnlyIDs(posts.IDs...), true)
	require.ErrorIs(t, err, contentgen.ErrGenerationFailed)
	_, err = gen.DeletePosts(ctx, contentgen.DeletePostsRequest{PostType: "post"})
	require.ErrorIs(t, err, contentgen.ErrGenerationFailed)
	_, err = gen.Delete(ctx, contentgen.KindUser, contentgen.OnlyIDs(users.IDs...), true)
	require.ErrorIs(t, err, contentgen.ErrGenerationFailed)
	entries, _, err := gen.History().List(ctx, contentgen.HistoryQuery{Kind: contentgen.KindPost})
	require.NoError(t, err)
	_, err = gen.History().Delete(ctx, entries[0].ID, true)
	require.ErrorIs(t, err, contentgen.ErrGenerationFailed)

	require.Equal(t, before, snapshot(t, host, true), "content whose history could not be forgotten stays")
	requireTrackedExactly(t, host, hist)
}

func TestSettingsTakeEffect(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 14)
	ctx := context.Background()
	_, err := f.gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.HourlyRate = 0.0 })
	require.ErrorIs(t, err, contentgen.ErrInvalidParameter)
	s, err := f.gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.DefaultPostCount = 2; s.DefaultTermCount = 3; s.DefaultUserCount = 4 })
	require.NoError(t, err)
	require.Equal(t, 75.0, s.HourlyRate, "omitted settings keep their value")
	p, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{}))
	require.NoError(t, err)
	require.Equal(t, 2, len(p.IDs))
	tr, err := f.gen.GenerateTerms(ctx, contentgen.TermsRequest{Taxonomy: "post_tag"})
	require.NoError(t, err)
	require.Equal(t, 3, len(tr.IDs))
	u, err := f.gen.GenerateUsers(ctx, contentgen.UsersRequest{GenerateAvatars: new(false)})
	require.NoError(t, err)
	require.Equal(t, 4, len(u.IDs))
}

func TestCanceledContextWritesNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 15)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(20)}))
	require.ErrorIs(t, err, context.Canceled)
	_, total, err := f.hist.List(context.Background(), history.Filter{})
	require.NoError(t, err)
	require.Zero(t, total)
}

// TestPostsProgressCounts checks that a posts run reports how many of its
// posts exist after each one, ending at the count asked for.
func TestPostsProgressCounts(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 3)
	var done []int
	res, err := f.gen.GeneratePosts(context.Background(), noImages(contentgen.PostsRequest{
		Count: new(4),
		Progress: func(e contentgen.Event) {
			if e.Total > 0 {
				require.Equal(t, 4, e.Total)
				require.Equal(t, contentgen.EventInfo, e.Type)
				done = append(done, e.Done)
			}
		},
	}))
	require.NoError(t, err)
	require.Len(t, res.IDs, 4)
	require.Equal(t, []int{1, 2, 3, 4}, done)
}

// TestImagesReportProgressAsTheyAreMade checks that a run with images
// reports each image made, counting up, before it stores the first one.
func TestImagesReportProgressAsTheyAreMade(t *testing.T) {
	t.Parallel()
	host, err := demosite.New(nil)
	require.NoError(t, err)
	prov, err := local.New(nil)
	require.NoError(t, err)
	seed := int64(4)
	gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed, ImageProviders: []providers.ImageProvider{prov}})
	require.NoError(t, err)
	var mu sync.Mutex
	var made []string
	stored := 0
	_, err = gen.GeneratePosts(context.Background(), contentgen.PostsRequest{
		Count: new(5), ImageProvider: providers.Local, ImageWidth: new(200), ImageHeight: new(150),
		Progress: func(e contentgen.Event) {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case strings.Contains(e.Message, " made ("):
				require.Zero(t, stored, "every image is made before the first is stored")
				made = append(made, e.Message)
			case strings.Contains(e.Message, " stored ("):
				stored++
			}
		},
	})
	require.NoError(t, err)
	require.Equal(t, 5, stored)
	require.Len(t, made, 5)
	for i, m := range made {
		require.True(t, strings.HasPrefix(m, fmt.Sprintf("Image %d of 5 made (200x150)", i+1)), m)
	}
}

func TestTermTreeWithinCountLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		name                string
		max, depth, breadth int
		taxonomy            string
		want                int
	}{
		{"default limit, largest tree", 0, 5, 10, "category", -1},
		{"default limit, 4^5", 0, 5, 4, "category", -1},
		{"default limit, 3^5 fits", 0, 5, 3, "category", 363},
		{"limit 12, exactly", 12, 2, 3, "category", 12},
		{"limit 11, one over", 11, 2, 3, "category", -1},
		{"flat taxonomy ignores the tree", 11, 5, 10, "post_tag", 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			host, err := demosite.New(&memhost.Options{Now: clock})
			require.NoError(t, err)
			seed := int64(3)
			gen, err := contentgen.New(host, history.NewMemStore(clock), &contentgen.Config{Seed: &seed, Now: clock, MaxCount: c.max})
			require.NoError(t, err)
			before, err := host.Terms(ctx, contentgen.TermQuery{})
			require.NoError(t, err)
			res, err := gen.GenerateTerms(ctx, contentgen.TermsRequest{
				Taxonomy: c.taxonomy, GenerateHierarchy: true, Depth: &c.depth, Breadth: &c.breadth,
			})
			if c.want < 0 {
				require.ErrorIs(t, err, contentgen.ErrInvalidCount)
				var e *contentgen.Error
				require.ErrorAs(t, err, &e)
				require.Equal(t, "breadth", e.Param)
				after, err := host.Terms(ctx, contentgen.TermQuery{})
				require.NoError(t, err)
				require.Len(t, after, len(before), "nothing is created")
				return
			}
			require.NoError(t, err)
			require.Len(t, res.IDs, c.want)
		})
	}
}

func TestPostHistoryGenerationTime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	generationTimes := func(t *testing.T, now func() time.Time) []any {
		t.Helper()
		host, err := demosite.New(&memhost.Options{Now: clock})
		require.NoError(t, err)
		hist := history.NewMemStore(clock)
		seed := int64(5)
		gen, err := contentgen.New(host, hist, &contentgen.Config{Seed: &seed, Now: now, BatchSize: 2})
		require.NoError(t, err)
		_, err = gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(4)}))
		require.NoError(t, err)
		entries, _, err := hist.List(ctx, history.Filter{ContentType: history.TypePost})
		require.NoError(t, err)
		require.Len(t, entries, 4)
		var out []any
		for _, e := range entries {
			require.Contains(t, e.Meta, "generation_time", "the specification lists generation_time in a post's meta")
			out = append(out, e.Meta["generation_time"])
		}
		return out
	}

	t.Run("fixed clock gives zero", func(t *testing.T) {
		t.Parallel()
		for _, v := range generationTimes(t, clock) {
			require.Equal(t, 0.0, v)
		}
	})
	t.Run("moving clock gives seconds per post", func(t *testing.T) {
		t.Parallel()
		var mu sync.Mutex
		at := epoch
		tick := func() time.Time {
			mu.Lock()
			defer mu.Unlock()
			at = at.Add(time.Second)
			return at
		}
		for _, v := range generationTimes(t, tick) {
			f, ok := v.(float64)
			require.True(t, ok, "generation_time is a number: %T", v)
			require.Greater(t, f, 0.0)
		}
	})
}

func TestDeleteSelectsByIDFilter(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 31)
	ctx := context.Background()
	posts, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(4)}))
	require.NoError(t, err)
	before := snapshot(t, f.host, true)

	rm, err := f.gen.Delete(ctx, contentgen.KindPost, contentgen.OnlyIDs(), true)
	require.NoError(t, err)
	require.Zero(t, rm.Posts, "an empty id list deletes nothing")
	require.Equal(t, before, snapshot(t, f.host, true))

	rm, err = f.gen.Delete(ctx, contentgen.KindPost, contentgen.OnlyIDs(posts.IDs[0]), true)
	require.NoError(t, err)
	require.Equal(t, 1, rm.Posts)
	require.Len(t, f.posts(t, posts.IDs[1:]), 3, "the other posts stay")

	rm, err = f.gen.Delete(ctx, contentgen.KindPost, contentgen.IDFilter{}, true)
	require.NoError(t, err)
	require.Equal(t, 3, rm.Posts, "the zero filter deletes every generated post")
	left, err := f.host.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(posts.IDs...)})
	require.NoError(t, err)
	require.Empty(t, left)
}
