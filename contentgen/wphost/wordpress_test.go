package wphost_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/contentgen/wphost"
	"github.com/contentgen/contentgen/internal/imagetest"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/local"
)

func ptr[T any](v T) *T { return &v }

// wpTables are the WordPress tables whose rows the tests count.
var wpTables = []string{
	"posts", "postmeta", "terms", "termmeta", "term_taxonomy", "term_relationships",
	"users", "usermeta", "comments", "commentmeta",
}

// snapshot counts the rows of the site's tables.
func snapshot(t *testing.T, db *sqlstore.DB) map[string]int {
	t.Helper()
	ctx := t.Context()
	out := map[string]int{}
	for _, tb := range wpTables {
		var n int
		require.NoError(t, db.Querier(ctx).QueryEach(ctx, "SELECT COUNT(*) FROM wp_"+tb, nil, func(r *sql.Rows) error { return r.Scan(&n) }))
		out[tb] = n
	}
	return out
}

// count runs a COUNT query.
func count(t *testing.T, db *sqlstore.DB, query string) int {
	t.Helper()
	ctx := t.Context()
	var n int
	require.NoError(t, db.Querier(ctx).QueryEach(ctx, query, nil, func(r *sql.Rows) error { return r.Scan(&n) }))
	return n
}

// restGet GETs a REST path of the site as the test user and decodes it.
func restGet(t *testing.T, o *wphost.Options, path string, dst any) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, o.URL+path, nil)
	require.NoError(t, err)
	req.SetBasicAuth(o.User, o.AppPassword)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "GET %s: %s", path, body)
	require.NoError(t, json.Unmarshal(body, dst), "GET %s", path)
}

func joinIDs(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(s, ",")
}

// TestThroughWordPress generates content through a Generator of the site
// and checks it as WordPress sees it: through its REST API, its own
// recounts, and, after the generated content is deleted, the row counts
// of its tables.
func TestThroughWordPress(t *testing.T) {
	o := siteOptions(t)
	if o.Uploads == "" {
		t.Skipf("set %s to the site's uploads directory to run this test", envUploads)
	}
	ctx := t.Context()
	site := openSite(t, o)
	db := site.DB()
	before := snapshot(t, db)

	img, err := local.New(nil)
	require.NoError(t, err)
	gen, err := contentgen.New(site.Host(), nil, &contentgen.Config{ImageProviders: []providers.ImageProvider{img}, Seed: ptr(int64(7))})
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = gen.DeleteAll(context.Background()) })

	_, err = gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: ptr(3), Role: "author", GenerateAvatars: ptr(false)})
	require.NoError(t, err)
	_, err = gen.GenerateTerms(ctx, contentgen.TermsRequest{Taxonomy: "category", GenerateHierarchy: true, Depth: ptr(2), Breadth: ptr(2)})
	require.NoError(t, err)
	_, err = gen.GenerateTerms(ctx, contentgen.TermsRequest{Taxonomy: "post_tag", Count: ptr(5)})
	require.NoError(t, err)
	res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{
		PostType: "post", Count: ptr(6), PostStatus: contentgen.StatusPublish,
		SetFeaturedImage: ptr(true), ImageProvider: providers.Local, ImageWidth: ptr(320), ImageHeight: ptr(200),
		AutoComments: true, CommentsPerPostMin: ptr(2), CommentsPerPostMax: ptr(4),
		EnableCommentThreading: ptr(true), CommentReplyProbability: ptr(60),
	})
	require.NoError(t, err)
	require.Len(t, res.IDs, 6)
	require.Empty(t, res.Warnings)
	// Drafts share the terms but do not count for them in WordPress.
	drafts, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{PostType: "post", Count: ptr(3), PostStatus: contentgen.StatusDraft, SetFeaturedImage: ptr(false)})
	require.NoError(t, err)
	require.Len(t, drafts.IDs, 3)

	posts, err := site.Host().Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	require.Len(t, posts, 6)

	var mediaFile string
	t.Run("REST API", func(t *testing.T) {
		var got []struct {
			ID            int64   `json:"id"`
			Author        int64   `json:"author"`
			Categories    []int64 `json:"categories"`
			Tags          []int64 `json:"tags"`
			FeaturedMedia int64   `json:"featured_media"`
			Slug          string  `json:"slug"`
			Status        string  `json:"status"`
			DateGMT       string  `json:"date_gmt"`
		}
		restGet(t, o, "/wp-json/wp/v2/posts?context=edit&per_page=100&include="+joinIDs(res.IDs), &got)
		require.Len(t, got, len(posts))
		byID := map[int64]int{}
		for i, g := range got {
			byID[g.ID] = i
		}
		withTerms, withImage, slugs := 0, 0, map[string]bool{}
		for _, p := range posts {
			g := got[byID[p.ID]]
			require.Equal(t, p.AuthorID, g.Author, "post %d author", p.ID)
			require.NotZero(t, g.Author)
			require.ElementsMatch(t, p.Terms["category"], g.Categories, "post %d categories", p.ID)
			require.ElementsMatch(t, p.Terms["post_tag"], g.Tags, "post %d tags", p.ID)
			require.Equal(t, p.FeaturedMediaID, g.FeaturedMedia, "post %d featured image", p.ID)
			require.Equal(t, "publish", g.Status)
			require.Equal(t, p.Date.UTC().Format("2006-01-02T15:04:05"), g.DateGMT)
			require.NotEmpty(t, g.Slug)
			require.False(t, slugs[g.Slug], "slug %q twice", g.Slug)
			slugs[g.Slug] = true
			if len(g.Categories)+len(g.Tags) > 0 {
				withTerms++
			}
			if g.FeaturedMedia != 0 {
				withImage++
			}
		}
		require.Positive(t, withTerms, "some posts have terms")
		require.Equal(t, len(posts), withImage, "every post has a featured image")

		// The featured image is served by the site, as WordPress
		// describes it.
		var media struct {
			SourceURL    string `json:"source_url"`
			MimeType     string `json:"mime_type"`
			MediaDetails struct {
				Width, Height int
				File          string                     `json:"file"`
				Sizes         map[string]json.RawMessage `json:"sizes"`
			} `json:"media_details"`
		}
		restGet(t, o, fmt.Sprintf("/wp-json/wp/v2/media/%d?context=edit", posts[0].FeaturedMediaID), &media)
		require.NotEmpty(t, media.SourceURL)
		require.Equal(t, 320, media.MediaDetails.Width)
		require.Equal(t, 200, media.MediaDetails.Height)
		require.Regexp(t, `^\d{4}/\d{2}/`, media.MediaDetails.File)
		want, mime, err := site.Host().MediaBytes(ctx, posts[0].FeaturedMediaID)
		require.NoError(t, err)
		require.Equal(t, mime, media.MimeType)
		resp, err := http.Get(media.SourceURL)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Equal(t, mime, resp.Header.Get("Content-Type"))
		require.Equal(t, want, body, "the site serves the stored bytes")
		mediaFile = filepath.Join(o.Uploads, filepath.FromSlash(media.MediaDetails.File))
		_, err = os.Stat(mediaFile)
		require.NoError(t, err)

		// Threaded comments, as WordPress lists them.
		var comments []struct {
			ID     int64 `json:"id"`
			Post   int64 `json:"post"`
			Parent int64 `json:"parent"`
		}
		restGet(t, o, "/wp-json/wp/v2/comments?context=edit&per_page=100&status=all&post="+joinIDs(res.IDs), &comments)
		require.NotEmpty(t, comments)
		ids := map[int64]int64{}
		for _, c := range comments {
			ids[c.ID] = c.Post
		}
		replies := 0
		for _, c := range comments {
			if c.Parent != 0 {
				replies++
				if post, ok := ids[c.Parent]; ok {
					require.Equal(t, c.Post, post, "a reply is on its parent's post")
				}
			}
		}
		require.Positive(t, replies, "some comments are replies")
	})

	t.Run("counts as WordPress recounts them", func(t *testing.T) {
		root := os.Getenv(envRoot)
		if root == "" {
			t.Skipf("set %s to the WordPress directory holding wp-load.php to run this check", envRoot)
		}
		if _, err := exec.LookPath("php"); err != nil {
			t.Skip("php is not installed")
		}
		stored := map[string]map[string]int{"terms": {}, "comments": {}}
		require.NoError(t, db.Querier(ctx).QueryEach(ctx, "SELECT term_taxonomy_id, count FROM wp_term_taxonomy", nil, func(r *sql.Rows) error {
			var id string
			var n int
			err := r.Scan(&id, &n)
			stored["terms"][id] = n
			return err
		}))
		require.NoError(t, db.Querier(ctx).QueryEach(ctx, "SELECT ID, comment_count FROM wp_posts", nil, func(r *sql.Rows) error {
			var id string
			var n int
			err := r.Scan(&id, &n)
			stored["comments"][id] = n
			return err
		}))
		out, err := exec.CommandContext(ctx, "php", "testdata/recount.php", root).Output()
		require.NoError(t, err, "%s", out)
		var recounted map[string]map[string]int
		require.NoError(t, json.Unmarshal(out, &recounted), "%s", out)
		require.Equal(t, recounted, stored)
		nonzero := 0
		for _, id := range res.IDs {
			if stored["comments"][strconv.FormatInt(id, 10)] > 0 {
				nonzero++
			}
		}
		require.Positive(t, nonzero, "the generated posts have comments to count")
	})

	t.Run("password hashes WordPress accepts", func(t *testing.T) {
		root := os.Getenv(envRoot)
		if root == "" {
			t.Skipf("set %s to the WordPress directory holding wp-load.php to run this check", envRoot)
		}
		users, err := site.Host().Users(ctx, contentgen.UserQuery{MetaKey: contentgen.MarkerKey, MetaValue: contentgen.MarkerValue, Limit: 1})
		require.NoError(t, err)
		require.NotEmpty(t, users)
		// A hash of a known password, written as CreateUsers writes it,
		// is verified by wp_check_password; the random one of the new
		// user is not a password anybody knows.
		script := `$_SERVER['HTTP_HOST']='localhost'; require $argv[1].'/wp-load.php';
$u = get_user_by('id', (int) $argv[2]);
echo json_encode([ 'prefix' => substr($u->user_pass, 0, 4), 'guess' => wp_check_password('password', $u->user_pass, $u->ID),
  'caps' => array_keys($u->caps), 'level' => (int) get_user_meta($u->ID, 'wp_user_level', true), 'can' => user_can($u, 'edit_posts') ]);`
		out, err := exec.CommandContext(ctx, "php", "-r", script, "--", root, strconv.FormatInt(users[0].ID, 10)).Output()
		require.NoError(t, err, "%s", out)
		var got struct {
			Prefix string   `json:"prefix"`
			Guess  bool     `json:"guess"`
			Caps   []string `json:"caps"`
			Level  int      `json:"level"`
			Can    bool     `json:"can"`
		}
		require.NoError(t, json.Unmarshal(out, &got), "%s", out)
		require.Equal(t, "$P$B", got.Prefix)
		require.False(t, got.Guess)
		require.Equal(t, []string{"author"}, got.Caps)
		require.Equal(t, 2, got.Level, "an author is level 2")
		require.True(t, got.Can, "WordPress reads the roles")
	})

	t.Run("delete all leaves the site as it was", func(t *testing.T) {
		removed, err := gen.DeleteAll(ctx)
		require.NoError(t, err)
		require.Equal(t, 9, removed.Posts)
		require.Positive(t, removed.Media)
		require.Equal(t, before, snapshot(t, db))
		orphans := map[string]string{
			"postmeta":           "SELECT COUNT(*) FROM wp_postmeta m LEFT JOIN wp_posts p ON p.ID = m.post_id WHERE p.ID IS NULL",
			"term_relationships": "SELECT COUNT(*) FROM wp_term_relationships r JOIN wp_term_taxonomy tt ON tt.term_taxonomy_id = r.term_taxonomy_id LEFT JOIN wp_posts p ON p.ID = r.object_id WHERE p.ID IS NULL AND tt.taxonomy <> 'link_category'",
			"dangling term link": "SELECT COUNT(*) FROM wp_term_relationships r LEFT JOIN wp_term_taxonomy tt ON tt.term_taxonomy_id = r.term_taxonomy_id WHERE tt.term_taxonomy_id IS NULL",
			"comments":           "SELECT COUNT(*) FROM wp_comments c LEFT JOIN wp_posts p ON p.ID = c.comment_post_ID WHERE p.ID IS NULL",
			"commentmeta":        "SELECT COUNT(*) FROM wp_commentmeta m LEFT JOIN wp_comments c ON c.comment_ID = m.comment_id WHERE c.comment_ID IS NULL",
			"termmeta":           "SELECT COUNT(*) FROM wp_termmeta m LEFT JOIN wp_terms t ON t.term_id = m.term_id WHERE t.term_id IS NULL",
			"usermeta":           "SELECT COUNT(*) FROM wp_usermeta m LEFT JOIN wp_users u ON u.ID = m.user_id WHERE u.ID IS NULL",
			"term_taxonomy":      "SELECT COUNT(*) FROM wp_term_taxonomy tt LEFT JOIN wp_terms t ON t.term_id = tt.term_id WHERE t.term_id IS NULL",
		}
		for _, name := range slices.Sorted(func(yield func(string) bool) {
			for k := range orphans {
				if !yield(k) {
					return
				}
			}
		}) {
			require.Zero(t, count(t, db, orphans[name]), "orphaned %s", name)
		}
		require.NotEmpty(t, mediaFile)
		_, err = os.Stat(mediaFile)
		require.ErrorIs(t, err, os.ErrNotExist, "the files of removed media are removed")
	})
}

// TestWithoutUploads checks a site opened with no uploads directory: the
// Host refuses to store files and says so, and a Generator over it keeps
// images as the README says: recorded by the URL they came from, and,
// for images drawn locally, which have none, left out with a warning,
// the posts made all the same.
func TestWithoutUploads(t *testing.T) {
	o := siteOptions(t)
	o.Uploads = ""
	ctx := t.Context()
	site := openSite(t, o)
	_, err := site.Host().StoreMedia(ctx, contentgen.Media{Title: "x", MIMEType: "image/png", Filename: "x.png"}, []byte("x"))
	require.ErrorIs(t, err, wphost.ErrNoUploads)
	require.ErrorIs(t, err, errors.ErrUnsupported)
	_, _, err = site.Host().MediaBytes(ctx, 1)
	require.ErrorIs(t, err, wphost.ErrNoUploads)
	require.True(t, site.Host().Capabilities().MediaRecordsOnly)

	img, err := local.New(nil)
	require.NoError(t, err)
	gen, err := contentgen.New(site.Host(), nil, &contentgen.Config{ImageProviders: []providers.ImageProvider{img, imagetest.Linked(img)}, Seed: ptr(int64(3))})
	require.NoError(t, err)
	t.Cleanup(func() { _, _ = gen.DeleteAll(context.Background()) })

	t.Run("images with a URL are recorded by it", func(t *testing.T) {
		res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{
			PostType: "book", Count: ptr(2), SetFeaturedImage: ptr(true), ImageProvider: providers.Random,
			ImageWidth: ptr(200), ImageHeight: ptr(150),
		})
		require.NoError(t, err)
		require.Empty(t, res.Warnings)
		require.Equal(t, 2, res.WithFeaturedImage)
		posts, err := site.Host().Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
		require.NoError(t, err)
		require.Len(t, posts, 2)
		for _, p := range posts {
			require.NotZero(t, p.FeaturedMediaID)
			var media struct {
				SourceURL    string `json:"source_url"`
				MediaDetails struct {
					Width int `json:"width"`
				} `json:"media_details"`
			}
			restGet(t, o, fmt.Sprintf("/wp-json/wp/v2/media/%d", p.FeaturedMediaID), &media)
			require.True(t, strings.HasPrefix(media.SourceURL, "https://images.example.com/"), "WordPress serves the image from where it came: %s", media.SourceURL)
			require.Equal(t, 200, media.MediaDetails.Width)
		}
	})

	t.Run("images without a URL are left out", func(t *testing.T) {
		res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{
			PostType: "post", Count: ptr(3), SetFeaturedImage: ptr(true), ImageProvider: providers.Local,
		})
		require.NoError(t, err, "a failed image never fails the run")
		require.Len(t, res.IDs, 3)
		require.Equal(t, 3, res.WithoutFeaturedImage)
		require.Equal(t, []string{"3 images from provider_local were left out: the site keeps no media files, and these images have no URL to be recorded by"}, res.Warnings)
		posts, err := site.Host().Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
		require.NoError(t, err)
		require.Len(t, posts, 3)
		for _, p := range posts {
			require.Zero(t, p.FeaturedMediaID)
		}
	})

	removed, err := gen.DeleteAll(ctx)
	require.NoError(t, err)
	require.Equal(t, 5, removed.Posts)
	require.Equal(t, 2, removed.Media)
}
