package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/internal/wptest"
)

// wpPost is what WordPress's REST API says of a post.
type wpPost struct {
	ID            int64   `json:"id"`
	Author        int64   `json:"author"`
	FeaturedMedia int64   `json:"featured_media"`
	Categories    []int64 `json:"categories"`
	Tags          []int64 `json:"tags"`
}

// wpGet reads path of the site's REST API into v.
func wpGet(t *testing.T, s wptest.Site, path string, v any) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.URL+"/wp-json"+path, nil)
	require.NoError(t, err)
	req.SetBasicAuth(s.User, s.AppPassword)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "GET %s: %s", path, body)
	require.NoError(t, json.Unmarshal(body, v), "GET %s", path)
}

// sitePosts returns the posts of ids that the site has, in any status.
func sitePosts(t *testing.T, s wptest.Site, ids []int64) []wpPost {
	t.Helper()
	list := make([]string, len(ids))
	for i, id := range ids {
		list[i] = fmt.Sprint(id)
	}
	var got []wpPost
	wpGet(t, s, "/wp/v2/posts?context=edit&status=any&per_page=100&include="+strings.Join(list, ","), &got)
	return got
}

// generated is the JSON result of generate posts.
type generated struct {
	Count int     `json:"count"`
	IDs   []int64 `json:"ids"`
}

// TestWordPress generates posts on a real WordPress site through both
// write paths, checks them with the site's own REST API, and removes
// them again with cleanup.
func TestWordPress(t *testing.T) {
	s := wptest.Get(t, wptest.EnvDB, wptest.EnvUploads)
	wptest.Exclusive(t, s)
	site := []string{"--wordpress-url", s.URL, "--wordpress-user", s.User}
	t.Setenv("CONTENTGEN_WORDPRESS_APP_PASSWORD", s.AppPassword)
	var hello []wpPost
	wpGet(t, s, "/wp/v2/posts?context=edit&status=any&per_page=100&slug=hello-world", &hello)
	require.Len(t, hello, 1, "the site's hand-made post")

	for _, mode := range []struct {
		name  string
		flags []string
	}{
		{"Database", []string{"--wordpress-db", s.DB, "--wordpress-uploads", s.Uploads}},
		{"REST", []string{"--db", filepath.Join(t.TempDir(), "history.db")}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			flags := append(append([]string{}, site...), mode.flags...)
			count := 12
			if mode.name == "REST" {
				count = 4
			}
			r := runCLI(t, false, "", append(flags, "--json", "generate", "posts", "--count", fmt.Sprint(count),
				"--image-provider", "provider_local", "--image-width", "320", "--image-height", "200", "--seed", "3")...)
			require.Equal(t, 0, r.code, r.stderr)
			var res generated
			require.NoError(t, json.Unmarshal([]byte(r.stdout), &res), r.stdout)
			require.Len(t, res.IDs, count)

			posts := sitePosts(t, s, res.IDs)
			require.Len(t, posts, count, "WordPress lists every post made")
			for _, p := range posts {
				require.NotZero(t, p.Author, "post %d has an author", p.ID)
				require.NotEmpty(t, p.Categories, "post %d has categories", p.ID)
				require.NotZero(t, p.FeaturedMedia, "post %d has a featured image", p.ID)
			}
			var media struct {
				SourceURL string `json:"source_url"`
			}
			wpGet(t, s, fmt.Sprintf("/wp/v2/media/%d?context=edit", posts[0].FeaturedMedia), &media)
			resp, err := http.Get(media.SourceURL)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode, media.SourceURL)
			require.Equal(t, "image/jpeg", resp.Header.Get("Content-Type"))

			r = runCLI(t, false, "", append(flags, "cleanup", "--yes")...)
			require.Equal(t, 0, r.code, r.stderr)
			require.Empty(t, sitePosts(t, s, res.IDs), "cleanup removed every post made")
			require.Len(t, sitePosts(t, s, []int64{hello[0].ID}), 1, "and kept the hand-made one")
			var gone []json.RawMessage
			wpGet(t, s, fmt.Sprintf("/wp/v2/media?context=edit&include=%d", posts[0].FeaturedMedia), &gone)
			require.Empty(t, gone, "and the images")
		})
	}
}

// TestWordPressFlagsNeedCredentials: a site without its user or password
// is a usage error naming the flag, before anything is contacted.
func TestWordPressFlagsNeedCredentials(t *testing.T) {
	r := runCLI(t, false, "", "--wordpress-url", "http://127.0.0.1:1", "history", "stats")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "--wordpress-user")
	r = runCLI(t, false, "", "--wordpress-url", "http://127.0.0.1:1", "--wordpress-user", "admin", "history", "stats")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "--wordpress-app-password")
}

// TestWordPressRuns: on a WordPress site written through its database a
// generation above the per-request limit is a run whose jobs are kept
// where --db says and whose posts go into the site; through the REST API
// a run is refused, saying why.
func TestWordPressRuns(t *testing.T) {
	s := wptest.Get(t, wptest.EnvDB)
	wptest.Exclusive(t, s)
	t.Setenv("CONTENTGEN_WORDPRESS_APP_PASSWORD", s.AppPassword)
	site := []string{"--wordpress-url", s.URL, "--wordpress-user", s.User}
	jobs := filepath.Join(t.TempDir(), "runs.db")
	db := append(append([]string{}, site...), "--wordpress-db", s.DB, "--db", jobs)
	defer runCLI(t, false, "", append(db, "cleanup", "--yes")...)

	r := runCLI(t, false, "", append(db, "generate", "posts", "--count", "501", "--batch-size", "167", "--set-featured-image=false")...)
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, "succeeded, 501 of 501 posts (3 of 3 batches)")
	var stats struct {
		Stats struct {
			ByType map[string]int `json:"by_type"`
		} `json:"stats"`
	}
	r = runCLI(t, false, "", append(db, "--json", "history", "stats")...)
	require.Equal(t, exitOK, r.code, r.stderr)
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &stats), r.stdout)
	require.Equal(t, 501, stats.Stats.ByType["post"], "the run's posts are tracked in the site")
	r = runCLI(t, false, "", append(db, "runs", "list")...)
	require.Equal(t, exitOK, r.code, r.stderr)
	require.Contains(t, r.stdout, "succeeded  posts  501/501", "the run is kept in --db")

	rest := append(append([]string{}, site...), "--db", filepath.Join(t.TempDir(), "history.db"))
	r = runCLI(t, false, "", append(rest, "generate", "posts", "--count", "501")...)
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "reached through its REST API")
	require.Contains(t, r.stderr, "give --wordpress-db")
}
