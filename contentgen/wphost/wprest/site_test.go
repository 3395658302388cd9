package wprest_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/hosttest"
	"github.com/contentgen/contentgen/contentgen/wphost/wprest"
	"github.com/contentgen/contentgen/internal/wptest"
)

// Environment variables naming the WordPress site of the tests.
const (
	envURL         = "CONTENTGEN_TEST_WORDPRESS_URL"
	envUser        = "CONTENTGEN_TEST_WORDPRESS_USER"
	envAppPassword = "CONTENTGEN_TEST_WORDPRESS_APP_PASSWORD"
	envRoot        = "CONTENTGEN_TEST_WORDPRESS_ROOT"
)

// siteOptions returns the options of the test site, skipping tb when the
// variables are not set.
func siteOptions(tb testing.TB) *wprest.Options {
	tb.Helper()
	o := &wprest.Options{URL: os.Getenv(envURL), User: os.Getenv(envUser), AppPassword: os.Getenv(envAppPassword)}
	if o.URL == "" || o.User == "" || o.AppPassword == "" {
		tb.Skipf("set %s, %s and %s (and %s) to run the tests against a WordPress site", envURL, envUser, envAppPassword, envRoot)
	}
	return o
}

// siteHost returns a host over the test site with the plugin installed
// (from CONTENTGEN_TEST_WORDPRESS_ROOT when it is set).
func siteHost(tb testing.TB) *wprest.Host {
	tb.Helper()
	o := siteOptions(tb)
	// Tests of other packages fill the same site and remove what they
	// generated site-wide.
	wptest.Exclusive(tb, wptest.Site{URL: o.URL})
	if root := os.Getenv(envRoot); root != "" {
		require.NoError(tb, wprest.InstallMUPlugin(filepath.Join(root, "wp-content", "mu-plugins")))
	}
	h, err := wprest.New(context.Background(), o)
	require.NoError(tb, err)
	ok, err := h.HasPlugin(context.Background())
	require.NoError(tb, err)
	if !ok {
		tb.Fatalf("the site at %s lacks the companion plugin; set %s to the WordPress folder so that the tests install it", o.URL, envRoot)
	}
	return h
}

// removeTagged deletes everything whose meta key holds value.
func removeTagged(tb testing.TB, h *wprest.Host, key, value string) {
	tb.Helper()
	ctx := context.Background()
	comments, err := h.Comments(ctx, contentgen.CommentQuery{MetaKey: key, MetaValue: value})
	require.NoError(tb, err)
	var ids []int64
	for _, c := range comments {
		ids = append(ids, c.ID)
	}
	require.NoError(tb, h.DeleteComments(ctx, ids))
	posts, err := h.Posts(ctx, contentgen.PostQuery{MetaKey: key, MetaValue: value})
	require.NoError(tb, err)
	ids = ids[:0]
	for _, p := range posts {
		ids = append(ids, p.ID)
	}
	require.NoError(tb, h.DeletePosts(ctx, ids))
	media, err := h.Media(ctx, contentgen.MediaQuery{MetaKey: key, MetaValue: value})
	require.NoError(tb, err)
	ids = ids[:0]
	for _, m := range media {
		ids = append(ids, m.ID)
	}
	require.NoError(tb, h.DeleteMedia(ctx, ids))
	terms, err := h.Terms(ctx, contentgen.TermQuery{MetaKey: key, MetaValue: value, Bare: true})
	require.NoError(tb, err)
	ids = ids[:0]
	for _, t := range terms {
		ids = append(ids, t.ID)
	}
	require.NoError(tb, h.DeleteTerms(ctx, ids))
	users, err := h.Users(ctx, contentgen.UserQuery{MetaKey: key, MetaValue: value})
	require.NoError(tb, err)
	ids = ids[:0]
	for _, u := range users {
		ids = append(ids, u.ID)
	}
	require.NoError(tb, h.DeleteUsers(ctx, ids, 0))
}

func TestConformance(t *testing.T) {
	h := siteHost(t)
	hosttest.Run(t, func(t *testing.T) contentgen.Host {
		t.Cleanup(func() { removeTagged(t, h, hosttest.TagKey, t.Name()) })
		return h
	})
}
