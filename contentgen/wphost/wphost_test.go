package wphost_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/hosttest"
	"github.com/contentgen/contentgen/contentgen/wphost"
	"github.com/contentgen/contentgen/internal/wptest"
)

// The environment variables that locate the WordPress site of the tests.
const (
	envURL         = "CONTENTGEN_TEST_WORDPRESS_URL"
	envUser        = "CONTENTGEN_TEST_WORDPRESS_USER"
	envAppPassword = "CONTENTGEN_TEST_WORDPRESS_APP_PASSWORD"
	envDB          = "CONTENTGEN_TEST_WORDPRESS_DB"
	envUploads     = "CONTENTGEN_TEST_WORDPRESS_UPLOADS"
	envRoot        = "CONTENTGEN_TEST_WORDPRESS_ROOT"
)

// siteOptions returns the Options of the test site, skipping the test
// when the variables naming it are not set.
func siteOptions(t testing.TB) *wphost.Options {
	t.Helper()
	o := &wphost.Options{
		URL: os.Getenv(envURL), User: os.Getenv(envUser), AppPassword: os.Getenv(envAppPassword),
		DSN: os.Getenv(envDB), Uploads: os.Getenv(envUploads),
	}
	if o.URL == "" || o.User == "" || o.AppPassword == "" || o.DSN == "" {
		t.Skipf("set %s, %s, %s and %s (and %s, %s) to run the tests against a WordPress site",
			envURL, envUser, envAppPassword, envDB, envUploads, envRoot)
	}
	// Tests of other packages fill the same site; snapshots of it hold
	// only while no other test writes.
	wptest.Exclusive(t, wptest.Site{URL: o.URL})
	return o
}

// openSite opens the test site, closed at the end of the test.
func openSite(t testing.TB, o *wphost.Options) *wphost.Site {
	t.Helper()
	s, err := wphost.Open(context.Background(), o)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, s.Close()) })
	return s
}

// removeTagged deletes everything the conformance suite tagged with tag.
func removeTagged(t testing.TB, h *wphost.Host, tag string) {
	t.Helper()
	ctx := context.Background()
	posts, err := h.Posts(ctx, contentgen.PostQuery{MetaKey: hosttest.TagKey, MetaValue: tag})
	require.NoError(t, err)
	var ids []int64
	for _, p := range posts {
		ids = append(ids, p.ID)
	}
	require.NoError(t, h.DeletePosts(ctx, ids))
	media, err := h.Media(ctx, contentgen.MediaQuery{MetaKey: hosttest.TagKey, MetaValue: tag})
	require.NoError(t, err)
	ids = ids[:0]
	for _, m := range media {
		ids = append(ids, m.ID)
	}
	require.NoError(t, h.DeleteMedia(ctx, ids))
	terms, err := h.Terms(ctx, contentgen.TermQuery{MetaKey: hosttest.TagKey, MetaValue: tag, Bare: true})
	require.NoError(t, err)
	ids = ids[:0]
	for _, tm := range terms {
		ids = append(ids, tm.ID)
	}
	require.NoError(t, h.DeleteTerms(ctx, ids))
	users, err := h.Users(ctx, contentgen.UserQuery{MetaKey: hosttest.TagKey, MetaValue: tag})
	require.NoError(t, err)
	ids = ids[:0]
	for _, u := range users {
		ids = append(ids, u.ID)
	}
	require.NoError(t, h.DeleteUsers(ctx, ids, 0))
	comments, err := h.Comments(ctx, contentgen.CommentQuery{MetaKey: hosttest.TagKey, MetaValue: tag})
	require.NoError(t, err)
	ids = ids[:0]
	for _, c := range comments {
		ids = append(ids, c.ID)
	}
	require.NoError(t, h.DeleteComments(ctx, ids))
}

// TestConformance runs the host conformance suite against the site. Each
// subtest removes what it tagged when it ends, so that logins of later
// subtests are free and the site keeps only its own content.
func TestConformance(t *testing.T) {
	s := openSite(t, siteOptions(t))
	hosttest.Run(t, func(t *testing.T) contentgen.Host {
		t.Cleanup(func() { removeTagged(t, s.Host(), t.Name()) })
		return s.Host()
	})
}
