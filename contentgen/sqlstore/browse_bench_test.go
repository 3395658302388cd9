package sqlstore_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/auth"
)

// admin is an Authenticator that lets every request in as an
// administrator, so that the browse benchmarks measure the read.
type admin struct{}

func (admin) Authenticate(*http.Request) (*auth.Principal, error) {
	return &auth.Principal{UserID: 1, Login: "admin", Capabilities: []string{contentgen.ManageOptions}}, nil
}

// fillBrowse adds n posts with an author, a featured image, two terms
// and the generated marker, in batches of 1000.
func fillBrowse(b *testing.B, h *sqlstore.Host, n int) {
	b.Helper()
	ctx := context.Background()
	users := make([]contentgen.User, 20)
	media := make([]contentgen.Media, 20)
	for i := range users {
		users[i] = contentgen.User{Login: fmt.Sprintf("author%d", i), Email: fmt.Sprintf("author%d@example.com", i), DisplayName: fmt.Sprintf("Author %d", i)}
		media[i] = contentgen.Media{Title: fmt.Sprintf("Image %d", i), Filename: fmt.Sprintf("image%d.jpg", i), MIMEType: "image/jpeg", URL: fmt.Sprintf("https://example.com/image%d.jpg", i)}
	}
	userIDs, err := h.CreateUsers(ctx, users)
	require.NoError(b, err)
	mediaIDs, err := h.CreateMedia(ctx, media)
	require.NoError(b, err)
	termIDs, err := h.CreateTerms(ctx, []contentgen.Term{{Taxonomy: "section", Name: "News"}, {Taxonomy: "section", Name: "Sport"}, {Taxonomy: "label", Name: "go"}})
	require.NoError(b, err)
	date := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for lo := 0; lo < n; lo += 1000 {
		posts := make([]contentgen.Post, min(1000, n-lo))
		for i := range posts {
			k := lo + i
			posts[i] = contentgen.Post{
				Type: "article", Status: contentgen.StatusPublish, Title: fmt.Sprintf("Post %d", k),
				Content: "<p>Body of a post.</p>", Excerpt: "A post.", AuthorID: userIDs[k%len(userIDs)],
				FeaturedMediaID: mediaIDs[k%len(mediaIDs)], Date: date.Add(time.Duration(k) * time.Minute),
				Terms: map[string][]int64{"section": {termIDs[k%2]}, "label": {termIDs[2]}},
				Meta:  contentgen.Meta{contentgen.MarkerKey: contentgen.MarkerValue},
			}
		}
		_, err := h.CreatePosts(ctx, posts)
		require.NoError(b, err)
	}
}

// browse requests path from srv and checks the answer.
func browse(b *testing.B, client *http.Client, url string) []byte {
	resp, err := client.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("%d %s %v", resp.StatusCode, body, err)
	}
	return body
}

// BenchmarkBrowsePosts is the admin page's browse view at scale: GET
// /content/posts?per_page=20 on page 1 and page 2,000 of a site of 1,000
// and of 50,000 posts, over HTTP, in SQLite and (with
// CONTENTGEN_TEST_POSTGRES) PostgreSQL. A page should cost about the
// same at both sizes; BenchmarkBrowsePostsFloor is the floor.
func BenchmarkBrowsePosts(b *testing.B) {
	engs := []engine{{"SQLite", freshSQLite}}
	if os.Getenv(postgresEnv) != "" {
		engs = append(engs, engine{"PostgreSQL", freshPostgres})
	} else {
		b.Logf("set %s to a PostgreSQL DSN to benchmark PostgreSQL too", postgresEnv)
	}
	for _, e := range engs {
		b.Run(e.name, func(b *testing.B) {
			for _, n := range []int{1000, 50000} {
				b.Run(fmt.Sprintf("posts=%d", n), func(b *testing.B) {
					db := e.open(b, nil)
					h := newHost(b, db)
					fillBrowse(b, h, n)
					gen, err := contentgen.New(h, nil, nil)
					require.NoError(b, err)
					api, err := httpapi.New(gen, &httpapi.Options{Auth: admin{}})
					require.NoError(b, err)
					srv := httptest.NewServer(api)
					b.Cleanup(srv.Close)
					for _, page := range []int{1, 2000} {
						b.Run(fmt.Sprintf("page=%d", page), func(b *testing.B) {
							url := fmt.Sprintf("%s/content/posts?per_page=20&page=%d", srv.URL, page)
							body := browse(b, srv.Client(), url)
							want := `"total":` + fmt.Sprint(n)
							if !bytes.Contains(body, []byte(want)) {
								b.Fatalf("answer without %s: %.200s", want, body)
							}
							b.ReportAllocs()
							for b.Loop() {
								browse(b, srv.Client(), url)
							}
						})
					}
				})
			}
		})
	}
}

// BenchmarkBrowsePostsFloor is the floor of BenchmarkBrowsePosts: the
// same HTTP round trip answering a page of 20 posts that is already
// encoded, with no database, no host and no API.
func BenchmarkBrowsePostsFloor(b *testing.B) {
	db := engine{"SQLite", freshSQLite}.open(b, nil)
	h := newHost(b, db)
	fillBrowse(b, h, 20)
	gen, err := contentgen.New(h, nil, nil)
	require.NoError(b, err)
	api, err := httpapi.New(gen, &httpapi.Options{Auth: admin{}})
	require.NoError(b, err)
	real := httptest.NewServer(api)
	page := browse(b, real.Client(), real.URL+"/content/posts?per_page=20")
	real.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(page)
	}))
	b.Cleanup(srv.Close)
	b.ReportAllocs()
	for b.Loop() {
		browse(b, srv.Client(), srv.URL+"/content/posts?per_page=20")
	}
}
