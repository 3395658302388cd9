package contentgen_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/hosttest"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
)

// fallbackHost is a host whose Lister is the Generator's own paging over
// a host without one.
type fallbackHost struct {
	contentgen.Host
	contentgen.Lister
}

// TestFallbackListerConformance runs the conformance suite, Lister checks
// included, against the paging the Generator does for hosts that do not
// list themselves.
func TestFallbackListerConformance(t *testing.T) {
	t.Parallel()
	hosttest.Run(t, func(t *testing.T) contentgen.Host {
		host, err := demosite.New(&memhost.Options{Now: clock})
		require.NoError(t, err)
		gen, err := contentgen.New(hosttest.Minimal(host), history.NewMemStore(clock), &contentgen.Config{Now: clock})
		require.NoError(t, err)
		return fallbackHost{Host: host, Lister: contentgen.FallbackLister(gen)}
	})
}

// countingLister is a host whose Lister answers posts and counts its
// calls, and leaves other kinds to the Generator.
type countingLister struct {
	*memhost.Host
	lists int
	inner contentgen.Lister
}

func (h *countingLister) List(ctx context.Context, kind contentgen.ObjectKind, q contentgen.Listing) ([]int64, int, error) {
	if kind != contentgen.KindPost {
		return nil, 0, errors.ErrUnsupported
	}
	h.lists++
	return h.inner.List(ctx, kind, q)
}

func TestContentServicePages(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 7)
	ctx := t.Context()
	users, err := f.gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(2)})
	require.NoError(t, err)
	res, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(5)}))
	require.NoError(t, err)
	c := f.gen.Content()

	page, err := c.Posts(ctx, contentgen.ContentQuery{Origin: contentgen.OnlyGenerated, PerPage: 2, Page: 2})
	require.NoError(t, err)
	require.Equal(t, 5, page.Total)
	require.Equal(t, 3, page.Pages)
	require.Len(t, page.Items, 2)
	require.Equal(t, res.IDs[2:4], []int64{page.Items[0].Post.ID, page.Items[1].Post.ID})
	for _, v := range page.Items {
		require.NotNil(t, v.Author, "authors are resolved")
		require.Equal(t, v.Post.AuthorID, v.Author.User.ID)
		for tax, ids := range v.Post.Terms {
			require.Len(t, v.Terms[tax], len(ids), "terms are resolved in the post's order")
			for i, term := range v.Terms[tax] {
				require.Equal(t, ids[i], term.ID)
			}
		}
	}

	newest, err := c.Posts(ctx, contentgen.ContentQuery{Origin: contentgen.OnlyGenerated, Order: contentgen.NewestFirst, PerPage: 1})
	require.NoError(t, err)
	require.Equal(t, res.IDs[4], newest.Items[0].Post.ID)

	_, err = c.Posts(ctx, contentgen.ContentQuery{PerPage: contentgen.MaxPerPage + 1})
	require.ErrorIs(t, err, contentgen.ErrInvalidParameter)
	_, err = c.Posts(ctx, contentgen.ContentQuery{Page: -1})
	require.ErrorIs(t, err, contentgen.ErrInvalidParameter)

	up, err := c.Users(ctx, contentgen.ContentQuery{Origin: contentgen.OnlyGenerated})
	require.NoError(t, err)
	require.GreaterOrEqual(t, up.Total, len(users.IDs), "the generated users and the authors generated with the posts")
	for _, v := range up.Items {
		require.True(t, v.User.Meta.Generated())
	}

	d, err := c.Post(ctx, res.IDs[0])
	require.NoError(t, err)
	require.Equal(t, res.IDs[0], d.Post.ID)
	_, err = c.Post(ctx, 1<<40)
	require.ErrorIs(t, err, contentgen.ErrNotFound)

	u, err := c.UserByLogin(ctx, up.Items[0].User.Login)
	require.NoError(t, err)
	require.Equal(t, up.Items[0].User.ID, u.ID)
	_, err = c.UserByLogin(ctx, "no such login")
	require.ErrorIs(t, err, contentgen.ErrNotFound)
}

// TestContentServiceUsesLister checks that pages come from the host's
// Lister where it has one, and from the Generator for kinds it leaves.
func TestContentServiceUsesLister(t *testing.T) {
	t.Parallel()
	host, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	plain, err := contentgen.New(hosttest.Minimal(host), history.NewMemStore(clock), &contentgen.Config{Now: clock})
	require.NoError(t, err)
	h := &countingLister{Host: host, inner: contentgen.FallbackLister(plain)}
	gen, err := contentgen.New(h, history.NewMemStore(clock), &contentgen.Config{Now: clock})
	require.NoError(t, err)
	ctx := t.Context()

	viaLister, err := gen.Content().Posts(ctx, contentgen.ContentQuery{})
	require.NoError(t, err)
	require.Equal(t, 1, h.lists)
	direct, err := plain.Content().Posts(ctx, contentgen.ContentQuery{})
	require.NoError(t, err)
	require.Equal(t, direct, viaLister)

	terms, err := gen.Content().Terms(ctx, contentgen.ContentQuery{Subtypes: []string{"category"}})
	require.NoError(t, err)
	require.Equal(t, 1, h.lists, "terms are paged by the Generator")
	require.Positive(t, terms.Total)
}
