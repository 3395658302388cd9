package memhost_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/hosttest"
	"github.com/contentgen/contentgen/contentgen/memhost"
)

// clock is a fixed instant for tests that check dates.
func clock() time.Time { return time.Date(2024, 5, 17, 9, 0, 0, 0, time.UTC) }

// newHost returns an empty host with the post type "article" linked to the
// hierarchical taxonomy "section" and the flat taxonomy "label".
func newHost(t testing.TB) *memhost.Host {
	t.Helper()
	h := memhost.New(&memhost.Options{Now: clock})
	require.NoError(t, h.RegisterPostType(contentgen.PostType{
		Name: "article", Public: true, Supports: []string{"title", "editor"}, Taxonomies: []string{"section"},
	}))
	require.NoError(t, h.RegisterTaxonomy(contentgen.Taxonomy{Name: "section", Hierarchical: true, PostTypes: []string{"article"}}))
	// "label" names the post type from its side only.
	require.NoError(t, h.RegisterTaxonomy(contentgen.Taxonomy{Name: "label", PostTypes: []string{"article"}}))
	return h
}

func newDemo(t testing.TB) *memhost.Host {
	t.Helper()
	h, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	return h
}

func TestConformance(t *testing.T) {
	t.Run("Empty", func(t *testing.T) {
		t.Parallel()
		hosttest.Run(t, func(t *testing.T) contentgen.Host { return newHost(t) })
	})
	t.Run("Demo", func(t *testing.T) {
		t.Parallel()
		hosttest.Run(t, func(t *testing.T) contentgen.Host { return newDemo(t) })
	})
}

func TestNewDefaults(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	site, err := memhost.New(nil).Site(ctx)
	require.NoError(t, err)
	require.Equal(t, contentgen.Site{
		Name: memhost.DefaultSiteName, URL: "http://localhost:8080",
		AdminURL: "http://localhost:8080/wp-admin", Locale: "en_US",
	}, site)

	site, err = memhost.New(&memhost.Options{Site: contentgen.Site{URL: "https://blog.example/news/", Locale: "de_DE"}}).Site(ctx)
	require.NoError(t, err)
	require.Equal(t, "https://blog.example/news", site.URL, "trailing slash removed")
	require.Equal(t, "https://blog.example/news/wp-admin", site.AdminURL)
	require.Equal(t, "de_DE", site.Locale)
	require.Equal(t, memhost.DefaultSiteName, site.Name)

	custom := []contentgen.Role{{Slug: "boss", Capabilities: []string{contentgen.ManageOptions}}}
	h := memhost.New(&memhost.Options{Roles: custom})
	custom[0].Slug, custom[0].Capabilities[0] = "changed", "changed"
	roles, err := h.Roles(ctx)
	require.NoError(t, err)
	require.Equal(t, []contentgen.Role{{Slug: "boss", Capabilities: []string{contentgen.ManageOptions}}}, roles, "the host keeps its own copy")
	roles, err = memhost.New(&memhost.Options{Roles: []contentgen.Role{}}).Roles(ctx)
	require.NoError(t, err)
	require.Empty(t, roles)
}

func TestStandardRoles(t *testing.T) {
	t.Parallel()
	roles, err := memhost.New(nil).Roles(t.Context())
	require.NoError(t, err)
	caps := map[string][]string{}
	for _, r := range roles {
		require.NotEmpty(t, r.Name)
		caps[r.Slug] = r.Capabilities
	}
	require.Len(t, caps, 5)
	cases := []struct {
		role                         string
		manage, publish, edit, write bool
	}{
		{memhost.RoleAdministrator, true, true, true, true},
		{memhost.RoleEditor, false, true, true, true},
		{memhost.RoleAuthor, false, true, false, true},
		{memhost.RoleContributor, false, false, false, true},
		{memhost.RoleSubscriber, false, false, false, false},
	}
	for _, tc := range cases {
		c := caps[tc.role]
		require.Contains(t, c, "read", tc.role)
		require.Equal(t, tc.manage, contains(c, contentgen.ManageOptions), tc.role)
		require.Equal(t, tc.publish, contains(c, "publish_posts"), tc.role)
		require.Equal(t, tc.edit, contains(c, "edit_others_posts"), tc.role)
		require.Equal(t, tc.write, contains(c, "edit_posts"), tc.role)
	}
	// Each call returns a fresh copy.
	a := memhost.StandardRoles()
	a[0].Capabilities[0] = "changed"
	require.NotEqual(t, "changed", memhost.StandardRoles()[0].Capabilities[0])
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestRegister(t *testing.T) {
	t.Parallel()
	h := memhost.New(nil)
	ctx := t.Context()
	require.NoError(t, h.RegisterPostType(contentgen.PostType{Name: "recipe", Taxonomies: []string{"cuisine", "later"}}))
	require.ErrorIs(t, h.RegisterPostType(contentgen.PostType{Name: "recipe"}), contentgen.ErrHostConflict)
	for _, bad := range []string{"", "Recipe", "has space", "this-name-is-far-too-long"} {
		require.ErrorIs(t, h.RegisterPostType(contentgen.PostType{Name: bad}), memhost.ErrInvalid, bad)
	}
	require.NoError(t, h.RegisterTaxonomy(contentgen.Taxonomy{Name: "cuisine", Hierarchical: true}))
	require.ErrorIs(t, h.RegisterTaxonomy(contentgen.Taxonomy{Name: "cuisine"}), contentgen.ErrHostConflict)
	require.ErrorIs(t, h.RegisterTaxonomy(contentgen.Taxonomy{Name: "Bad Name"}), memhost.ErrInvalid)
	// The link holds whichever side names the other, and only registered
	// names are listed.
	require.NoError(t, h.RegisterTaxonomy(contentgen.Taxonomy{Name: "diet", PostTypes: []string{"recipe", "unregistered"}}))

	types, err := h.PostTypes(ctx)
	require.NoError(t, err)
	require.Len(t, types, 1)
	require.Equal(t, "recipe", types[0].Label, "label defaults to the name")
	require.Equal(t, []string{"cuisine", "diet"}, types[0].Taxonomies)
	taxes, err := h.Taxonomies(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"recipe"}, taxes[0].PostTypes)
	require.Equal(t, []string{"recipe"}, taxes[1].PostTypes)

	// A post may use terms of either linked taxonomy.
	terms, err := h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "cuisine", Name: "Thai"}, {Taxonomy: "diet", Name: "Vegan"}})
	require.NoError(t, err)
	_, err = h.CreatePosts(ctx, []contentgen.Post{{Type: "recipe", Title: "Curry", Terms: map[string][]int64{"cuisine": terms[:1], "diet": terms[1:]}}})
	require.NoError(t, err)
}

func TestCreateValidation(t *testing.T) {
	t.Parallel()
	h := newHost(t)
	ctx := t.Context()
	require.NoError(t, h.RegisterPostType(contentgen.PostType{Name: "note"}))
	users, err := h.CreateUsers(ctx, []contentgen.User{{Login: "writer", Email: "writer@example.com"}})
	require.NoError(t, err)
	sections, err := h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "section", Name: "News"}})
	require.NoError(t, err)
	labels, err := h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "label", Name: "Hot"}})
	require.NoError(t, err)
	posts, err := h.CreatePosts(ctx, []contentgen.Post{{Type: "article", Title: "Base"}, {Type: "article", Title: "Other"}})
	require.NoError(t, err)
	comments, err := h.CreateComments(ctx, []contentgen.Comment{{PostID: posts[0], Content: "Hi"}})
	require.NoError(t, err)

	postCases := map[string]contentgen.Post{
		"unknown type":            {Type: "nope"},
		"unknown status":          {Type: "article", Status: "published"},
		"missing author":          {Type: "article", AuthorID: 999},
		"missing parent":          {Type: "article", ParentID: 999},
		"missing featured media":  {Type: "article", FeaturedMediaID: 999},
		"taxonomy not registered": {Type: "article", Terms: map[string][]int64{"genre": {sections[0]}}},
		"taxonomy not linked":     {Type: "note", Terms: map[string][]int64{"section": sections}},
		"term of other taxonomy":  {Type: "article", Terms: map[string][]int64{"section": labels}},
		"missing term":            {Type: "article", Terms: map[string][]int64{"section": {999}}},
	}
	for name, p := range postCases {
		_, err := h.CreatePosts(ctx, []contentgen.Post{{Type: "article", Title: "Valid"}, p})
		require.ErrorIs(t, err, memhost.ErrInvalid, name)
	}
	termCases := map[string]contentgen.Term{
		"unknown taxonomy":    {Taxonomy: "nope", Name: "X"},
		"empty name":          {Taxonomy: "section", Name: " "},
		"parent of other tax": {Taxonomy: "section", Name: "X", ParentID: labels[0]},
		"missing parent":      {Taxonomy: "section", Name: "X", ParentID: 999},
	}
	for name, tm := range termCases {
		_, err := h.CreateTerms(ctx, []contentgen.Term{tm})
		require.ErrorIs(t, err, memhost.ErrInvalid, name)
	}
	userCases := map[string]contentgen.User{
		"empty login":  {Login: ""},
		"unknown role": {Login: "x", Roles: []string{"king"}},
	}
	for name, u := range userCases {
		_, err := h.CreateUsers(ctx, []contentgen.User{u})
		require.ErrorIs(t, err, memhost.ErrInvalid, name)
	}
	commentCases := map[string]contentgen.Comment{
		"missing post":         {PostID: 999},
		"parent on other post": {PostID: posts[1], ParentID: comments[0]},
		"missing user":         {PostID: posts[0], UserID: 999},
		"unknown status":       {PostID: posts[0], Status: "hold"},
		"missing parent":       {PostID: posts[0], ParentID: 999},
	}
	for name, c := range commentCases {
		_, err := h.CreateComments(ctx, []contentgen.Comment{c})
		require.ErrorIs(t, err, memhost.ErrInvalid, name)
	}
	_, err = h.CreateMedia(ctx, []contentgen.Media{{Title: "X", ParentID: 999}})
	require.ErrorIs(t, err, memhost.ErrInvalid)
	_, err = h.StoreMedia(ctx, contentgen.Media{Title: "X", ParentID: 999}, []byte("x"))
	require.ErrorIs(t, err, memhost.ErrInvalid)

	// Nothing of the failed calls was stored.
	all, err := h.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	require.Len(t, all, 2)
	got, err := h.Users(ctx, contentgen.UserQuery{})
	require.NoError(t, err)
	require.Len(t, got, len(users))

	// Defaults fill empty fields.
	ids, err := h.CreatePosts(ctx, []contentgen.Post{{Type: "article", Title: "Defaults"}})
	require.NoError(t, err)
	p := onePost(t, h, ids[0])
	require.Equal(t, contentgen.StatusDraft, p.Status)
	require.True(t, clock().Equal(p.Date))
	require.NotNil(t, p.Meta)
	require.NotNil(t, p.Terms)
	cids, err := h.CreateComments(ctx, []contentgen.Comment{{PostID: ids[0]}})
	require.NoError(t, err)
	c, err := h.Comments(ctx, contentgen.CommentQuery{IDs: contentgen.OnlyIDs(cids...)})
	require.NoError(t, err)
	require.Equal(t, contentgen.CommentApproved, c[0].Status)
	uids, err := h.CreateUsers(ctx, []contentgen.User{{Login: "nodisplay"}})
	require.NoError(t, err)
	u, err := h.Users(ctx, contentgen.UserQuery{IDs: contentgen.OnlyIDs(uids...)})
	require.NoError(t, err)
	require.Equal(t, "nodisplay", u[0].DisplayName)
	require.True(t, clock().Equal(u[0].Registered))
}

func onePost(t *testing.T, h contentgen.Host, id int64) contentgen.Post {
	t.Helper()
	posts, err := h.Posts(t.Context(), contentgen.PostQuery{IDs: contentgen.OnlyIDs(id)})
	require.NoError(t, err)
	require.Len(t, posts, 1)
	return posts[0]
}

func TestTermSlugs(t *testing.T) {
	t.Parallel()
	h := newHost(t)
	ctx := t.Context()
	ids, err := h.CreateTerms(ctx, []contentgen.Term{
		{Taxonomy: "section", Name: "Science & Tech"},
		{Taxonomy: "section", Name: "science tech"},
		{Taxonomy: "label", Name: "Science & Tech"},
		{Taxonomy: "section", Name: "Café Öl"},
	})
	require.NoError(t, err)
	terms, err := h.Terms(ctx, contentgen.TermQuery{IDs: contentgen.OnlyIDs(ids...)})
	require.NoError(t, err)
	require.Equal(t, "science-tech", terms[0].Slug)
	require.Equal(t, "science-tech-2", terms[1].Slug, "made unique within the taxonomy")
	require.Equal(t, "science-tech", terms[2].Slug, "slugs are per taxonomy")
	require.Equal(t, "café-öl", terms[3].Slug)

	_, err = h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "section", Name: "X", Slug: "science-tech"}})
	require.ErrorIs(t, err, contentgen.ErrHostConflict)
	_, err = h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "label", Name: "A", Slug: "same"}, {Taxonomy: "label", Name: "B", Slug: "same"}})
	require.ErrorIs(t, err, contentgen.ErrHostConflict)
	// A removed term frees its slug.
	require.NoError(t, h.DeleteTerms(ctx, ids[:1]))
	_, err = h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "section", Name: "X", Slug: "science-tech"}})
	require.NoError(t, err)
	// Flat taxonomies drop a parent.
	flat, err := h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "label", Name: "Child", ParentID: ids[2]}})
	require.NoError(t, err)
	got, err := h.Terms(ctx, contentgen.TermQuery{IDs: contentgen.OnlyIDs(flat...)})
	require.NoError(t, err)
	require.Zero(t, got[0].ParentID)
}

func TestQuerySemantics(t *testing.T) {
	t.Parallel()
	h := newHost(t)
	ctx := t.Context()
	_, err := h.CreatePosts(ctx, []contentgen.Post{
		{Type: "article", Title: "With key", Meta: contentgen.Meta{"k": ""}},
		{Type: "article", Title: "With value", Meta: contentgen.Meta{"k": "v"}},
		{Type: "article", Title: "Without"},
	})
	require.NoError(t, err)
	got, err := h.Posts(ctx, contentgen.PostQuery{MetaKey: "k"})
	require.NoError(t, err)
	require.Len(t, got, 2, "a key without a value keeps every post having the key")
	got, err = h.Posts(ctx, contentgen.PostQuery{MetaKey: "k", MetaValue: "v"})
	require.NoError(t, err)
	require.Len(t, got, 1)
	got, err = h.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs()})
	require.NoError(t, err)
	require.Empty(t, got, "an empty id list selects nothing")
	got, err = h.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	require.Len(t, got, 3, "no id filter selects everything")
	got, err = h.Posts(ctx, contentgen.PostQuery{Limit: -1, Offset: -5})
	require.NoError(t, err)
	require.Len(t, got, 3, "negative limit and offset do not filter")
	require.NotNil(t, got)
	got, err = h.Posts(ctx, contentgen.PostQuery{Types: []string{"nope"}})
	require.NoError(t, err)
	require.NotNil(t, got, "an empty result is an empty slice")
	require.Empty(t, got)
}

func TestPostTypeCounts(t *testing.T) {
	t.Parallel()
	h := newHost(t)
	ctx := t.Context()
	_, err := h.CreatePosts(ctx, []contentgen.Post{
		{Type: "article", Status: contentgen.StatusFuture},
		{Type: "article", Status: "inherit"},
	})
	require.NoError(t, err)
	types, err := h.PostTypes(ctx)
	require.NoError(t, err)
	require.Equal(t, map[string]int{
		"publish": 0, "draft": 0, "pending": 0, "private": 0, "future": 1, "trash": 0, "inherit": 1,
	}, types[0].Count)
}

func TestInputIsCopied(t *testing.T) {
	t.Parallel()
	h := newHost(t)
	ctx := t.Context()
	terms, err := h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "section", Name: "A"}, {Taxonomy: "section", Name: "B"}})
	require.NoError(t, err)
	in := []contentgen.Post{{Type: "article", Title: "T", Meta: contentgen.Meta{"k": "v"}, Terms: map[string][]int64{"section": {terms[0]}}}}
	ids, err := h.CreatePosts(ctx, in)
	require.NoError(t, err)
	in[0].Meta["k"] = "changed"
	in[0].Terms["section"][0] = terms[1]
	p := onePost(t, h, ids[0])
	require.Equal(t, "v", p.Meta["k"])
	require.Equal(t, []int64{terms[0]}, p.Terms["section"])

	roles := []string{memhost.RoleEditor}
	uids, err := h.CreateUsers(ctx, []contentgen.User{{Login: "ed", Roles: roles}})
	require.NoError(t, err)
	roles[0] = memhost.RoleAdministrator
	admins, err := h.Users(ctx, contentgen.UserQuery{Roles: []string{memhost.RoleAdministrator}})
	require.NoError(t, err)
	require.Empty(t, admins)
	u, err := h.Users(ctx, contentgen.UserQuery{IDs: contentgen.OnlyIDs(uids...)})
	require.NoError(t, err)
	require.Equal(t, []string{memhost.RoleEditor}, u[0].Roles)
}

// TestMetaChangesStayWithTheirItem: items made with the same meta (the
// generated marker) keep it each for themselves: setting, trashing and
// restoring one changes none of the others, nor the map they came with.
func TestMetaChangesStayWithTheirItem(t *testing.T) {
	t.Parallel()
	h := newDemo(t)
	ctx := t.Context()
	marker := func() contentgen.Meta { return contentgen.Meta{contentgen.MarkerKey: contentgen.MarkerValue} }
	in := marker()
	posts := make([]contentgen.Post, 4)
	for i := range posts {
		posts[i] = contentgen.Post{Type: "post", Status: contentgen.StatusPublish, Title: fmt.Sprint("P", i), Meta: in}
	}
	pids, err := h.CreatePosts(ctx, posts)
	require.NoError(t, err)
	comments := make([]contentgen.Comment, 4)
	for i := range comments {
		comments[i] = contentgen.Comment{PostID: pids[0], Content: "c", Meta: in}
	}
	cids, err := h.CreateComments(ctx, comments)
	require.NoError(t, err)
	tids, err := h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "category", Name: "A", Meta: in}, {Taxonomy: "category", Name: "B", Meta: in}})
	require.NoError(t, err)
	uids, err := h.CreateUsers(ctx, []contentgen.User{{Login: "a", Email: "a@example.com", Meta: in}, {Login: "b", Email: "b@example.com", Meta: in}})
	require.NoError(t, err)

	require.NoError(t, h.SetMeta(ctx, contentgen.KindPost, pids[0], contentgen.Meta{"k": "v"}))
	require.NoError(t, h.TrashPosts(ctx, pids[1:2]))
	require.NoError(t, h.TrashPosts(ctx, pids[2:3]))
	require.NoError(t, h.UntrashPosts(ctx, pids[2:3]))
	require.NoError(t, h.SetMeta(ctx, contentgen.KindComment, cids[0], contentgen.Meta{"k": "v"}))
	require.NoError(t, h.TrashComments(ctx, cids[1:2]))
	require.NoError(t, h.SetMeta(ctx, contentgen.KindTerm, tids[0], contentgen.Meta{"k": "v"}))
	require.NoError(t, h.SetMeta(ctx, contentgen.KindUser, uids[0], contentgen.Meta{"k": "v"}))

	withK := marker()
	withK["k"] = "v"
	metaOf := func(kind contentgen.ObjectKind, id int64) contentgen.Meta {
		m, err := h.Meta(ctx, kind, id)
		require.NoError(t, err)
		return m
	}
	require.Equal(t, withK, metaOf(contentgen.KindPost, pids[0]))
	require.Equal(t, contentgen.StatusPublish, metaOf(contentgen.KindPost, pids[1])[memhost.TrashStatusKey])
	require.Equal(t, marker(), metaOf(contentgen.KindPost, pids[2]), "restored: the trash meta is gone")
	require.Equal(t, marker(), metaOf(contentgen.KindPost, pids[3]))
	require.Equal(t, withK, metaOf(contentgen.KindComment, cids[0]))
	require.Equal(t, contentgen.CommentApproved, metaOf(contentgen.KindComment, cids[1])[memhost.TrashStatusKey])
	for _, id := range cids[2:] {
		require.Equal(t, marker(), metaOf(contentgen.KindComment, id))
	}
	require.Equal(t, withK, metaOf(contentgen.KindTerm, tids[0]))
	require.Equal(t, marker(), metaOf(contentgen.KindTerm, tids[1]))
	require.Equal(t, withK, metaOf(contentgen.KindUser, uids[0]))
	require.Equal(t, marker(), metaOf(contentgen.KindUser, uids[1]))
	require.Equal(t, marker(), in, "the caller's map is left alone")

	// A copy handed out is the caller's own.
	got := metaOf(contentgen.KindPost, pids[3])
	got["k"] = "changed"
	require.Equal(t, marker(), metaOf(contentgen.KindPost, pids[3]))
	require.Equal(t, marker(), metaOf(contentgen.KindPost, pids[2]))
}

// TestCommentsOfPostsAfterDeletes: the comments of a post are found by
// its id, and go with it, however many it has and whichever were deleted
// before.
func TestCommentsOfPostsAfterDeletes(t *testing.T) {
	t.Parallel()
	h := newDemo(t)
	ctx := t.Context()
	pids, err := h.CreatePosts(ctx, []contentgen.Post{{Type: "post", Title: "A"}, {Type: "post", Title: "B"}, {Type: "post", Title: "C"}})
	require.NoError(t, err)
	want := map[int64][]int64{}
	for i, pid := range pids {
		in := make([]contentgen.Comment, 3*i+1)
		for j := range in {
			in[j] = contentgen.Comment{PostID: pid, Content: fmt.Sprint(j)}
		}
		cids, err := h.CreateComments(ctx, in)
		require.NoError(t, err)
		want[pid] = cids
	}
	onPost := func(pid int64) []int64 {
		cs, err := h.Comments(ctx, contentgen.CommentQuery{PostIDs: contentgen.OnlyIDs(pid)})
		require.NoError(t, err)
		var ids []int64
		for _, c := range cs {
			ids = append(ids, c.ID)
		}
		return ids
	}
	// The first, a middle and the last comment of the post with seven.
	c := want[pids[2]]
	require.NoError(t, h.DeleteComments(ctx, []int64{c[0], c[3], c[6]}))
	want[pids[2]] = []int64{c[1], c[2], c[4], c[5]}
	for _, pid := range pids {
		require.Equal(t, want[pid], onPost(pid), "post %d", pid)
	}
	deleted, err := h.DeletePostsWithComments(ctx, pids[1:])
	require.NoError(t, err)
	require.Equal(t, append(slices.Clone(want[pids[1]]), want[pids[2]]...), deleted)
	require.Empty(t, onPost(pids[2]))
	require.Equal(t, want[pids[0]], onPost(pids[0]))
	left, err := h.Comments(ctx, contentgen.CommentQuery{PostIDs: contentgen.OnlyIDs(pids...)})
	require.NoError(t, err)
	require.Len(t, left, 1)
}

func TestTrash(t *testing.T) {
	t.Parallel()
	h := newHost(t)
	ctx := t.Context()
	terms, err := h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "section", Name: "A"}})
	require.NoError(t, err)
	ids, err := h.CreatePosts(ctx, []contentgen.Post{
		{Type: "article", Status: contentgen.StatusPrivate, Terms: map[string][]int64{"section": terms}},
	})
	require.NoError(t, err)
	cids, err := h.CreateComments(ctx, []contentgen.Comment{{PostID: ids[0], Status: contentgen.CommentPending}})
	require.NoError(t, err)

	require.NoError(t, h.TrashPosts(ctx, ids))
	p := onePost(t, h, ids[0])
	require.Equal(t, contentgen.StatusTrash, p.Status)
	require.Equal(t, contentgen.StatusPrivate, p.Meta[memhost.TrashStatusKey])
	require.Equal(t, fmt.Sprint(clock().Unix()), p.Meta[memhost.TrashTimeKey])
	tm, err := h.Terms(ctx, contentgen.TermQuery{IDs: contentgen.OnlyIDs(terms...)})
	require.NoError(t, err)
	require.Equal(t, 0, tm[0].Count, "trashed posts do not count for their terms")
	// Trashing again keeps the first remembered status.
	require.NoError(t, h.TrashPosts(ctx, ids))
	require.Equal(t, contentgen.StatusPrivate, onePost(t, h, ids[0]).Meta[memhost.TrashStatusKey])

	require.NoError(t, h.UntrashPosts(ctx, ids))
	p = onePost(t, h, ids[0])
	require.Equal(t, contentgen.StatusPrivate, p.Status)
	require.NotContains(t, p.Meta, memhost.TrashStatusKey)
	require.NotContains(t, p.Meta, memhost.TrashTimeKey)
	tm, err = h.Terms(ctx, contentgen.TermQuery{IDs: contentgen.OnlyIDs(terms...)})
	require.NoError(t, err)
	require.Equal(t, 1, tm[0].Count)

	require.NoError(t, h.TrashComments(ctx, cids))
	c, err := h.Comments(ctx, contentgen.CommentQuery{IDs: contentgen.OnlyIDs(cids...)})
	require.NoError(t, err)
	require.Equal(t, contentgen.CommentTrash, c[0].Status)
	require.Equal(t, contentgen.CommentPending, c[0].Meta[memhost.TrashStatusKey])
	require.NoError(t, h.UntrashComments(ctx, cids))
	c, err = h.Comments(ctx, contentgen.CommentQuery{IDs: contentgen.OnlyIDs(cids...)})
	require.NoError(t, err)
	require.Equal(t, contentgen.CommentPending, c[0].Status)
}

func TestDeleteCascades(t *testing.T) {
	t.Parallel()
	h := newHost(t)
	ctx := t.Context()
	users, err := h.CreateUsers(ctx, []contentgen.User{{Login: "a"}, {Login: "b"}})
	require.NoError(t, err)
	top, err := h.CreatePosts(ctx, []contentgen.Post{{Type: "article", Title: "Top"}})
	require.NoError(t, err)
	mid, err := h.CreatePosts(ctx, []contentgen.Post{{Type: "article", Title: "Mid", ParentID: top[0]}})
	require.NoError(t, err)
	low, err := h.CreatePosts(ctx, []contentgen.Post{{Type: "article", Title: "Low", ParentID: mid[0]}})
	require.NoError(t, err)
	media, err := h.CreateMedia(ctx, []contentgen.Media{{Title: "Attached", ParentID: mid[0]}})
	require.NoError(t, err)

	require.NoError(t, h.DeletePosts(ctx, mid))
	require.Equal(t, top[0], onePost(t, h, low[0]).ParentID, "children move to the parent of a removed post")
	m, err := h.Media(ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(media...)})
	require.NoError(t, err)
	require.Equal(t, top[0], m[0].ParentID, "attachments move up too")

	// Comments of a removed user stay, anonymous.
	cids, err := h.CreateComments(ctx, []contentgen.Comment{{PostID: top[0], UserID: users[0], AuthorName: "A"}})
	require.NoError(t, err)
	require.ErrorIs(t, h.DeleteUsers(ctx, users, users[1]), memhost.ErrInvalid, "cannot reassign to a removed user")
	require.ErrorIs(t, h.DeleteUsers(ctx, users[:1], 999), contentgen.ErrHostNotFound)
	require.NoError(t, h.DeleteUsers(ctx, users[:1], users[1]))
	c, err := h.Comments(ctx, contentgen.CommentQuery{IDs: contentgen.OnlyIDs(cids...)})
	require.NoError(t, err)
	require.Zero(t, c[0].UserID)
	require.Equal(t, "A", c[0].AuthorName)
	// A removed login can be used again.
	_, err = h.CreateUsers(ctx, []contentgen.User{{Login: "a"}})
	require.NoError(t, err)
}

func TestMetaErrors(t *testing.T) {
	t.Parallel()
	h := newHost(t)
	_, err := h.Meta(t.Context(), "planet", 1)
	require.ErrorIs(t, err, memhost.ErrInvalid)
	require.ErrorIs(t, h.SetMeta(t.Context(), "planet", 1, contentgen.Meta{"k": "v"}), memhost.ErrInvalid)
	_, err = h.Exist(t.Context(), "planet", []int64{1})
	require.ErrorIs(t, err, memhost.ErrInvalid)
}

func TestStoreMedia(t *testing.T) {
	t.Parallel()
	h := memhost.New(&memhost.Options{Now: clock, Site: contentgen.Site{URL: "https://example.org/blog"}})
	ctx := t.Context()
	png := []byte("\x89PNG\r\n\x1a\nrest")
	a, err := h.StoreMedia(ctx, contentgen.Media{Title: "A", Filename: "../My Photo!.png", MIMEType: "image/png"}, png)
	require.NoError(t, err)
	b, err := h.StoreMedia(ctx, contentgen.Media{Title: "B", Filename: "My Photo!.png"}, png)
	require.NoError(t, err)
	old, err := h.StoreMedia(ctx, contentgen.Media{Title: "C", Filename: "doc", Date: time.Date(2020, 1, 2, 0, 0, 0, 0, time.UTC)}, []byte("%PDF-1.4 x"))
	require.NoError(t, err)
	items, err := h.Media(ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(a, b, old)})
	require.NoError(t, err)
	require.Equal(t, "https://example.org/blog/uploads/2024/05/My-Photo-.png", items[0].URL)
	require.Equal(t, "My-Photo-.png", items[0].Filename)
	require.Equal(t, "https://example.org/blog/uploads/2024/05/My-Photo--1.png", items[1].URL, "a taken name gets a suffix")
	require.Equal(t, "image/png", items[1].MIMEType, "MIME type from the extension")
	require.Equal(t, int64(len(png)), items[1].Filesize)
	require.Equal(t, "https://example.org/blog/uploads/2020/01/doc", items[2].URL, "the item's date picks the folder")
	require.Equal(t, "application/pdf", items[2].MIMEType, "MIME type from the bytes")

	for _, path := range []string{
		"/blog/uploads/2024/05/My-Photo-.png",
		"/uploads/2024/05/My-Photo-.png",
		"uploads/2024/05/My-Photo-.png",
		"https://example.org/blog/uploads/2024/05/My-Photo-.png",
	} {
		data, mimeType, ok := h.File(path)
		require.True(t, ok, path)
		require.Equal(t, png, data)
		require.Equal(t, "image/png", mimeType)
	}
	_, _, ok := h.File("/blog/uploads/2024/05/missing.png")
	require.False(t, ok)

	// Records without bytes have none to return.
	ids, err := h.CreateMedia(ctx, []contentgen.Media{{Title: "Remote", URL: "https://cdn.example/x.jpg"}})
	require.NoError(t, err)
	_, _, err = h.MediaBytes(ctx, ids[0])
	require.ErrorIs(t, err, contentgen.ErrHostNotFound)
	items, err = h.Media(ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(ids...)})
	require.NoError(t, err)
	require.Equal(t, "https://cdn.example/x.jpg", items[0].URL, "CreateMedia keeps the URL")

	// Removing the item frees its path.
	require.NoError(t, h.DeleteMedia(ctx, []int64{a}))
	_, _, ok = h.File("/uploads/2024/05/My-Photo-.png")
	require.False(t, ok)
}

func TestFileHandler(t *testing.T) {
	t.Parallel()
	h := memhost.New(&memhost.Options{Now: clock})
	_, err := h.StoreMedia(t.Context(), contentgen.Media{Filename: "a.txt", MIMEType: "text/plain"}, []byte("hello world"))
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/uploads/", h.FileHandler())
	srv := httptest.NewServer(mux)
	defer srv.Close()

	get := func(method, path string, header http.Header) (*http.Response, string) {
		req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+path, nil)
		require.NoError(t, err)
		for k, v := range header {
			req.Header[k] = v
		}
		res, err := srv.Client().Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res, string(body)
	}
	res, body := get(http.MethodGet, "/uploads/2024/05/a.txt", nil)
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, "text/plain", res.Header.Get("Content-Type"))
	require.Equal(t, "hello world", body)
	res, body = get(http.MethodGet, "/uploads/2024/05/a.txt", http.Header{"Range": {"bytes=0-4"}})
	require.Equal(t, http.StatusPartialContent, res.StatusCode)
	require.Equal(t, "hello", body)
	res, _ = get(http.MethodGet, "/uploads/2024/05/b.txt", nil)
	require.Equal(t, http.StatusNotFound, res.StatusCode)
	res, _ = get(http.MethodPost, "/uploads/2024/05/a.txt", nil)
	require.Equal(t, http.StatusMethodNotAllowed, res.StatusCode)
}

// errBoom fails a transaction on purpose.
var errBoom = errors.New("boom")

func TestInTx(t *testing.T) {
	t.Parallel()
	post := func(title string) []contentgen.Post { return []contentgen.Post{{Type: "article", Title: title}} }
	titles := func(t *testing.T, h *memhost.Host) []string {
		t.Helper()
		posts, err := h.Posts(t.Context(), contentgen.PostQuery{})
		require.NoError(t, err)
		var out []string
		for _, p := range posts {
			out = append(out, p.Title)
		}
		return out
	}

	t.Run("RollbackRestoresIDs", func(t *testing.T) {
		h := newHost(t)
		ctx := t.Context()
		err := h.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
			_, err := tx.CreatePosts(ctx, post("undone"))
			require.NoError(t, err)
			return errBoom
		})
		require.ErrorIs(t, err, errBoom)
		ids, err := h.CreatePosts(ctx, post("kept"))
		require.NoError(t, err)
		require.Equal(t, []int64{1}, ids, "a rolled back transaction hands its ids out again")
	})

	t.Run("RootCallsWithTheTxContextJoin", func(t *testing.T) {
		h := newHost(t)
		err := h.InTx(t.Context(), func(ctx context.Context, _ contentgen.Host) error {
			// This would wait forever for the lock without the context.
			_, err := h.CreatePosts(ctx, post("joined"))
			require.NoError(t, err)
			got, err := h.Posts(ctx, contentgen.PostQuery{})
			require.NoError(t, err)
			require.Len(t, got, 1)
			return errBoom
		})
		require.ErrorIs(t, err, errBoom)
		require.Empty(t, titles(t, h))
	})

	t.Run("Savepoints", func(t *testing.T) {
		h := newHost(t)
		err := h.InTx(t.Context(), func(ctx context.Context, tx contentgen.Host) error {
			_, err := tx.CreatePosts(ctx, post("outer"))
			require.NoError(t, err)
			inner := tx.(contentgen.Transactor)
			err = inner.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
				_, err := tx.CreatePosts(ctx, post("inner undone"))
				require.NoError(t, err)
				return errBoom
			})
			require.ErrorIs(t, err, errBoom)
			require.NoError(t, inner.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
				_, err := tx.CreatePosts(ctx, post("inner kept"))
				return err
			}))
			return nil
		})
		require.NoError(t, err)
		require.Equal(t, []string{"outer", "inner kept"}, titles(t, h))

		// A failing outer transaction also undoes its committed savepoints.
		err = h.InTx(t.Context(), func(ctx context.Context, tx contentgen.Host) error {
			require.NoError(t, tx.(contentgen.Transactor).InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
				return tx.DeletePosts(ctx, []int64{1})
			}))
			return errBoom
		})
		require.ErrorIs(t, err, errBoom)
		require.Equal(t, []string{"outer", "inner kept"}, titles(t, h))
	})

	t.Run("PanicRollsBack", func(t *testing.T) {
		h := newHost(t)
		require.Panics(t, func() {
			_ = h.InTx(t.Context(), func(ctx context.Context, tx contentgen.Host) error {
				_, err := tx.CreatePosts(ctx, post("undone"))
				require.NoError(t, err)
				panic("boom")
			})
		})
		require.Empty(t, titles(t, h))
		_, err := h.CreatePosts(t.Context(), post("after"))
		require.NoError(t, err, "the lock is released after a panic")
	})

	t.Run("TxHostEndsWithTheTransaction", func(t *testing.T) {
		h := newHost(t)
		var kept contentgen.Host
		require.NoError(t, h.InTx(t.Context(), func(_ context.Context, tx contentgen.Host) error {
			kept = tx
			require.ErrorIs(t, tx.(*memhost.Host).RegisterPostType(contentgen.PostType{Name: "late"}), memhost.ErrInvalid)
			return nil
		}))
		_, err := kept.CreatePosts(t.Context(), post("late"))
		require.ErrorIs(t, err, memhost.ErrTxDone)
		require.ErrorIs(t, kept.(contentgen.Transactor).InTx(t.Context(), func(context.Context, contentgen.Host) error { return nil }), memhost.ErrTxDone)
		require.Error(t, h.InTx(t.Context(), nil))
	})

	t.Run("OthersWaitForTheCommit", func(t *testing.T) {
		h := newHost(t)
		started, readerDone := make(chan struct{}), make(chan []string)
		go func() {
			<-started
			posts, err := h.Posts(context.Background(), contentgen.PostQuery{})
			if err != nil {
				readerDone <- []string{err.Error()}
				return
			}
			var out []string
			for _, p := range posts {
				out = append(out, p.Title)
			}
			readerDone <- out
		}()
		err := h.InTx(t.Context(), func(ctx context.Context, tx contentgen.Host) error {
			if _, err := tx.CreatePosts(ctx, post("first")); err != nil {
				return err
			}
			close(started)
			select {
			case got := <-readerDone:
				t.Errorf("a reader ran during the transaction and saw %v", got)
			case <-time.After(50 * time.Millisecond):
			}
			_, err := tx.CreatePosts(ctx, post("second"))
			return err
		})
		require.NoError(t, err)
		require.Equal(t, []string{"first", "second"}, <-readerDone, "the reader sees the whole transaction")
	})
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	h := newDemo(t)
	ctx := t.Context()
	const workers, rounds = 8, 20
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds*4)
	for w := range workers {
		wg.Go(func() {
			for i := range rounds {
				var err error
				switch (w + i) % 4 {
				case 0:
					_, err = h.CreatePosts(ctx, []contentgen.Post{{Type: "post", Title: fmt.Sprint(w, i), Meta: contentgen.Meta{"w": fmt.Sprint(w)}}})
				case 1:
					var got []contentgen.Post
					got, err = h.Posts(ctx, contentgen.PostQuery{Types: []string{"post"}, Limit: 5})
					if err == nil && len(got) > 0 {
						got[0].Meta["mutated"] = "yes" // must not reach the host
					}
				case 2:
					err = h.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
						ids, err := tx.CreatePosts(ctx, []contentgen.Post{{Type: "post", Title: "tx"}})
						if err != nil {
							return err
						}
						if i%2 == 0 {
							return errBoom
						}
						return tx.SetMeta(ctx, contentgen.KindPost, ids[0], contentgen.Meta{"tx": "kept"})
					})
					if errors.Is(err, errBoom) {
						err = nil
					}
				case 3:
					_, err = h.PostTypes(ctx)
					if err == nil {
						_, err = h.Exist(ctx, contentgen.KindPost, []int64{1, 2, 3})
					}
				}
				if err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	mutated, err := h.Posts(ctx, contentgen.PostQuery{MetaKey: "mutated"})
	require.NoError(t, err)
	require.Empty(t, mutated)
	txPosts, err := h.Posts(ctx, contentgen.PostQuery{Search: "tx"})
	require.NoError(t, err)
	for _, p := range txPosts {
		require.Equal(t, "kept", p.Meta["tx"], "only committed transactions left posts")
	}
	all, err := h.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	for i := 1; i < len(all); i++ {
		require.Less(t, all[i-1].ID, all[i].ID)
	}
}

// benchPosts returns n posts shaped like generated ones.
func benchPosts(n int, cats, tags []int64, author int64) []contentgen.Post {
	posts := make([]contentgen.Post, n)
	for i := range posts {
		posts[i] = contentgen.Post{
			Type: "post", Status: contentgen.StatusPublish, Title: fmt.Sprintf("Generated post %d", i),
			Content: "<h2>Heading</h2><p>Paragraph of text.</p>", Excerpt: "Excerpt", AuthorID: author,
			Terms: map[string][]int64{"category": {cats[i%len(cats)]}, "post_tag": {tags[i%len(tags)], tags[(i+1)%len(tags)]}},
			Meta:  contentgen.Meta{contentgen.MarkerKey: contentgen.MarkerValue, "_svc_run": "bench"},
		}
	}
	return posts
}

// BenchmarkCreatePosts writes 500 posts in batches of 50 into a fresh demo
// site, each batch in a transaction as the Generator does.
func BenchmarkCreatePosts(b *testing.B) {
	ctx := context.Background()
	const total, batch = 500, 50
	for b.Loop() {
		b.StopTimer()
		h := newDemo(b)
		cats, err := h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "category", Name: "A"}, {Taxonomy: "category", Name: "B"}})
		require.NoError(b, err)
		tags, err := h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "post_tag", Name: "x"}, {Taxonomy: "post_tag", Name: "y"}, {Taxonomy: "post_tag", Name: "z"}})
		require.NoError(b, err)
		posts := benchPosts(total, cats, tags, 1)
		b.StartTimer()
		for lo := 0; lo < total; lo += batch {
			err := h.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
				_, err := tx.CreatePosts(ctx, posts[lo:lo+batch])
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkPostsByIDs looks up 50 posts by id among 5,000.
func BenchmarkPostsByIDs(b *testing.B) {
	ctx := context.Background()
	h := newDemo(b)
	cats, err := h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "category", Name: "A"}})
	require.NoError(b, err)
	tags, err := h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "post_tag", Name: "x"}})
	require.NoError(b, err)
	var ids []int64
	for range 10 {
		got, err := h.CreatePosts(ctx, benchPosts(500, cats, tags, 1))
		require.NoError(b, err)
		ids = append(ids, got...)
	}
	want := ids[len(ids)/2 : len(ids)/2+50]
	for b.Loop() {
		got, err := h.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(want...)})
		if err != nil || len(got) != 50 {
			b.Fatal(err, len(got))
		}
	}
}

// BenchmarkCreatePostsFloor is the floor of BenchmarkCreatePosts: the same
// 500 posts deep-copied into a plain map, with no validation, locking,
// indexes or undo log.
func BenchmarkCreatePostsFloor(b *testing.B) {
	posts := benchPosts(500, []int64{2, 3}, []int64{4, 5, 6}, 1)
	for b.Loop() {
		store := map[int64]*contentgen.Post{}
		for i := range posts {
			p := posts[i]
			p.ID = int64(i + 1)
			p.Meta = maps.Clone(p.Meta)
			terms := make(map[string][]int64, len(p.Terms))
			for k, v := range p.Terms {
				terms[k] = slices.Clone(v)
			}
			p.Terms = terms
			store[p.ID] = &p
		}
	}
}
