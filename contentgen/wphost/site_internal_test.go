package wphost

import (
	"context"
	"database/sql"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/internal/wptest"
)

// openTestSite opens the test site from the environment, skipping the
// test when it is not set.
func openTestSite(t *testing.T) *Site {
	t.Helper()
	o := &Options{
		URL: os.Getenv("CONTENTGEN_TEST_WORDPRESS_URL"), User: os.Getenv("CONTENTGEN_TEST_WORDPRESS_USER"),
		AppPassword: os.Getenv("CONTENTGEN_TEST_WORDPRESS_APP_PASSWORD"), DSN: os.Getenv("CONTENTGEN_TEST_WORDPRESS_DB"),
	}
	if o.URL == "" || o.User == "" || o.AppPassword == "" || o.DSN == "" {
		t.Skip("set CONTENTGEN_TEST_WORDPRESS_URL, _USER, _APP_PASSWORD and _DB to run the tests against a WordPress site")
	}
	wptest.Exclusive(t, wptest.Site{URL: o.URL})
	s, err := Open(t.Context(), o)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, s.Close()) })
	return s
}

// column reads one text column of a row.
func column(t *testing.T, s *Site, query string, args ...any) string {
	t.Helper()
	var v sql.NullString
	require.NoError(t, s.db.Querier(t.Context()).QueryEach(t.Context(), query, args, func(r *sql.Rows) error { return r.Scan(&v) }))
	return v.String
}

func TestOptionsValidation(t *testing.T) {
	ok := Options{URL: "http://127.0.0.1:8080", User: "admin", AppPassword: "x", DSN: "root@tcp(127.0.0.1:3306)/wp"}
	c, err := ok.withDefaults()
	require.NoError(t, err)
	require.Equal(t, "wp_", c.TablePrefix)
	cases := map[string]func(o *Options){
		"Options.DSN":         func(o *Options) { o.DSN = "" },
		"Options.URL":         func(o *Options) { o.URL = "ftp://x" },
		"Options.User":        func(o *Options) { o.User = "" },
		"Options.AppPassword": func(o *Options) { o.AppPassword = "" },
		"Options.TablePrefix": func(o *Options) { o.TablePrefix = "wp-; DROP" },
		"Options.Uploads":     func(o *Options) { o.Uploads = "/nonexistent/uploads" },
	}
	for field, mutate := range cases {
		o := ok
		mutate(&o)
		_, err := o.withDefaults()
		require.ErrorIs(t, err, ErrInvalid, field)
		require.Contains(t, err.Error(), field)
	}
	_, err = (*Options)(nil).withDefaults()
	require.ErrorIs(t, err, ErrInvalid)
	_, err = Open(t.Context(), &Options{URL: "http://127.0.0.1:1", User: "a", AppPassword: "b", DSN: "contentgen.db"})
	require.ErrorIs(t, err, ErrInvalid, "a DSN that is not MySQL's")
}

// TestPostNamesInTheDatabase checks post_name against the rows already in
// the site and within a batch, as wp_unique_post_slug makes it.
func TestPostNamesInTheDatabase(t *testing.T) {
	s := openTestSite(t)
	ctx := t.Context()
	h := s.Host()
	title := "Slug Check " + strings.ReplaceAll(t.Name(), "/", " ") + " " + time.Now().Format("150405.000000000")
	base := sanitizeTitle(title)
	post := func(status string) contentgen.Post {
		return contentgen.Post{Type: "post", Status: status, Title: title, Meta: contentgen.Meta{"_wphost_test": "1"}}
	}
	first, err := h.CreatePosts(ctx, []contentgen.Post{post(contentgen.StatusPublish)})
	require.NoError(t, err)
	ids, err := h.CreatePosts(ctx, []contentgen.Post{post(contentgen.StatusPublish), post(contentgen.StatusDraft), post(contentgen.StatusPublish), post(contentgen.StatusPrivate)})
	require.NoError(t, err)
	page, err := h.CreatePosts(ctx, []contentgen.Post{{Type: "page", Status: contentgen.StatusPublish, Title: title}})
	require.NoError(t, err)
	all := append(append(first, ids...), page...)
	t.Cleanup(func() { require.NoError(t, h.DeletePosts(context.Background(), all)) })

	name := func(id int64) string { return column(t, s, "SELECT post_name FROM wp_posts WHERE ID = ?", id) }
	require.Equal(t, base, name(first[0]))
	require.Equal(t, base+"-2", name(ids[0]), "against the row already there")
	require.Empty(t, name(ids[1]), "drafts have no slug yet")
	require.Equal(t, base+"-3", name(ids[2]), "within the batch")
	require.Equal(t, base+"-4", name(ids[3]))
	require.Equal(t, base, name(page[0]), "pages have slugs of their own")
	require.Equal(t, s.info.URL+"/?p="+column(t, s, "SELECT ID FROM wp_posts WHERE ID = ?", first[0]), column(t, s, "SELECT guid FROM wp_posts WHERE ID = ?", first[0]))

	// A published post whose title makes no slug is named by its id.
	untitled, err := h.CreatePosts(ctx, []contentgen.Post{{Type: "post", Status: contentgen.StatusPublish, Title: "!!!"}})
	require.NoError(t, err)
	all = append(all, untitled...)
	require.Equal(t, column(t, s, "SELECT ID FROM wp_posts WHERE ID = ?", untitled[0]), name(untitled[0]))

	// The trash keeps the slug aside, as wp_trash_post does.
	require.NoError(t, h.TrashPosts(ctx, first))
	require.Equal(t, base+"__trashed", name(first[0]))
	require.Equal(t, base, column(t, s, "SELECT meta_value FROM wp_postmeta WHERE post_id = ? AND meta_key = '_wp_desired_post_slug'", first[0]))
	require.Equal(t, "publish", column(t, s, "SELECT meta_value FROM wp_postmeta WHERE post_id = ? AND meta_key = '_wp_trash_meta_status'", first[0]))
}

// TestDatesInSiteZone writes a post and a comment with a site zone that
// is not UTC, and reads them back.
func TestDatesInSiteZone(t *testing.T) {
	s := openTestSite(t)
	ctx := t.Context()
	berlin, err := siteLocation("Europe/Berlin", "")
	require.NoError(t, err)
	s.loc = berlin
	h := s.Host()
	when := time.Date(2024, 7, 1, 10, 0, 0, 0, time.UTC)
	ids, err := h.CreatePosts(ctx, []contentgen.Post{{Type: "post", Status: contentgen.StatusPublish, Title: "Zoned", Date: when}})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, h.DeletePosts(context.Background(), ids)) })
	require.Equal(t, "2024-07-01 12:00:00", column(t, s, "SELECT CAST(post_date AS CHAR) FROM wp_posts WHERE ID = ?", ids[0]))
	require.Equal(t, "2024-07-01 10:00:00", column(t, s, "SELECT CAST(post_date_gmt AS CHAR) FROM wp_posts WHERE ID = ?", ids[0]))
	got, err := h.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(ids...)})
	require.NoError(t, err)
	require.True(t, when.Equal(got[0].Date), "%v", got[0].Date)

	winter := time.Date(2024, 1, 5, 23, 30, 0, 0, time.UTC)
	cids, err := h.CreateComments(ctx, []contentgen.Comment{{PostID: ids[0], Content: "Late", Date: winter}})
	require.NoError(t, err)
	require.Equal(t, "2024-01-06 00:30:00", column(t, s, "SELECT CAST(comment_date AS CHAR) FROM wp_comments WHERE comment_ID = ?", cids[0]))
	require.Equal(t, "2024-01-05 23:30:00", column(t, s, "SELECT CAST(comment_date_gmt AS CHAR) FROM wp_comments WHERE comment_ID = ?", cids[0]))
	require.Equal(t, "1", column(t, s, "SELECT comment_count FROM wp_posts WHERE ID = ?", ids[0]))
}

// TestBatchAndHistoryShareTheTransaction checks that a batch of posts and
// its history entries commit or roll back together.
func TestBatchAndHistoryShareTheTransaction(t *testing.T) {
	s := openTestSite(t)
	ctx := t.Context()
	h := s.Host()
	title := "Tx check " + time.Now().Format("150405.000000000")
	write := func(fail bool) error {
		return h.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
			ids, err := tx.CreatePosts(ctx, []contentgen.Post{{Type: "post", Status: contentgen.StatusPublish, Title: title}})
			if err != nil {
				return err
			}
			if err := s.DB().History().Add(ctx, []historyEntry{{ContentType: "post", ContentID: ids[0], ContentSubtype: title}}); err != nil {
				return err
			}
			if fail {
				return context.Canceled
			}
			return nil
		})
	}
	posts := func() []contentgen.Post {
		out, err := h.Posts(ctx, contentgen.PostQuery{Search: title})
		require.NoError(t, err)
		return out
	}
	entries := func() int {
		return len(historyOf(ctx, t, s, title))
	}
	require.Error(t, write(true))
	require.Empty(t, posts(), "the post is rolled back")
	require.Zero(t, entries(), "and so is its history")
	require.NoError(t, write(false))
	got := posts()
	require.Len(t, got, 1)
	require.Equal(t, 1, entries())
	t.Cleanup(func() {
		require.NoError(t, h.DeletePosts(context.Background(), []int64{got[0].ID}))
		for _, e := range historyOf(context.Background(), t, s, title) {
			_, _ = s.DB().History().Delete(context.Background(), e.ID)
		}
	})
}

// TestIDsWithoutConsecutiveAutoIncrement checks the path for servers
// whose multi-row INSERTs do not get consecutive ids
// (innodb_autoinc_lock_mode 2): one statement per row, ids in order.
func TestIDsWithoutConsecutiveAutoIncrement(t *testing.T) {
	s := openTestSite(t)
	s.consecutive = false
	ctx := t.Context()
	h := s.Host()
	titles := []string{"Row A", "Row B", "Row C"}
	var posts []contentgen.Post
	for _, title := range titles {
		posts = append(posts, contentgen.Post{Type: "post", Status: contentgen.StatusDraft, Title: title, Meta: contentgen.Meta{"title": title}})
	}
	ids, err := h.CreatePosts(ctx, posts)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, h.DeletePosts(context.Background(), ids)) })
	got, err := h.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(ids...)})
	require.NoError(t, err)
	require.Len(t, got, 3)
	for i, p := range got {
		require.Equal(t, ids[i], p.ID)
		require.Equal(t, titles[i], p.Title)
		require.Equal(t, titles[i], p.Meta["title"], "meta follows its post")
	}
}
