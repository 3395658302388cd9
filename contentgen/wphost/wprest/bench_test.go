package wprest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/wphost/wprest"
)

const benchPosts = 500

// benchText returns n words of filler text.
func benchText(seed, n int) string {
	words := []string{"lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do", "eiusmod", "tempor"}
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[(seed*7+i*5)%len(words)])
	}
	return b.String()
}

// benchPost is post i of the benchmarks: a 10-word title, three 60-word
// paragraphs, an excerpt, 3 meta and 2 categories.
func benchPost(i int, cats []int64, tag string) contentgen.Post {
	content := "<p>" + benchText(i, 60) + "</p>\n<p>" + benchText(i+1, 60) + "</p>\n<p>" + benchText(i+2, 60) + "</p>"
	return contentgen.Post{
		Type: "post", Status: contentgen.StatusPublish, Title: benchText(i, 10), Content: content,
		Excerpt: benchText(i+3, 20), Date: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour),
		Terms: map[string][]int64{"category": cats},
		Meta:  contentgen.Meta{contentgen.MarkerKey: contentgen.MarkerValue, "_wprest_bench": tag, "rating": strconv.Itoa(i % 5)},
	}
}

// benchCategories creates two categories for the benchmark and removes
// them when it ends.
func benchCategories(b *testing.B, h *wprest.Host, tag string) []int64 {
	b.Helper()
	ids, err := h.CreateTerms(context.Background(), []contentgen.Term{
		{Taxonomy: "category", Name: "Bench A " + tag, Meta: contentgen.Meta{"_wprest_bench": tag}},
		{Taxonomy: "category", Name: "Bench B " + tag, Meta: contentgen.Meta{"_wprest_bench": tag}},
	})
	require.NoError(b, err)
	b.Cleanup(func() { removeTagged(b, h, "_wprest_bench", tag) })
	return ids
}

// BenchmarkREST500 creates 500 posts (content, excerpt, 3 meta, 2 terms)
// through Host.CreatePosts in one call: batches of 25 on up to 4
// connections, then the meta in one plugin call.
func BenchmarkREST500(b *testing.B) {
	h := siteHost(b)
	tag := "rest-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	cats := benchCategories(b, h, tag)
	posts := make([]contentgen.Post, benchPosts)
	for i := range posts {
		posts[i] = benchPost(i, cats, tag)
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		ids, err := h.CreatePosts(ctx, posts)
		require.NoError(b, err)
		require.Len(b, ids, benchPosts)
		b.StopTimer()
		require.NoError(b, h.DeletePosts(ctx, ids))
		b.StartTimer()
	}
	b.ReportMetric(float64(benchPosts*b.N)/b.Elapsed().Seconds(), "posts/s")
}

// BenchmarkRESTSequentialFloor500 is WordPress's own REST rate for one
// client: the same 500 posts (without the meta, which core REST does not
// write for unregistered keys) as plain sequential POST /wp/v2/posts
// requests with the cheapest code.
func BenchmarkRESTSequentialFloor500(b *testing.B) {
	o := siteOptions(b)
	h := siteHost(b)
	tag := "floor-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	cats := benchCategories(b, h, tag)
	bodies := make([][]byte, benchPosts)
	for i := range bodies {
		p := benchPost(i, cats, tag)
		bodies[i], _ = json.Marshal(map[string]any{
			"title": p.Title, "content": p.Content, "excerpt": p.Excerpt, "status": p.Status,
			"date_gmt": p.Date.Format("2006-01-02T15:04:05"), "categories": cats,
		})
	}
	endpoint := strings.TrimRight(o.URL, "/") + "/wp-json/wp/v2/posts?_fields=id"
	hc := &http.Client{Timeout: time.Minute}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		ids := make([]int64, 0, benchPosts)
		for _, body := range bodies {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
			require.NoError(b, err)
			req.SetBasicAuth(o.User, o.AppPassword)
			req.Header.Set("Content-Type", "application/json")
			resp, err := hc.Do(req)
			require.NoError(b, err)
			var out struct {
				ID int64 `json:"id"`
			}
			err = json.NewDecoder(resp.Body).Decode(&out)
			resp.Body.Close()
			require.NoError(b, err)
			require.Equal(b, http.StatusCreated, resp.StatusCode, fmt.Sprint(out))
			ids = append(ids, out.ID)
		}
		b.StopTimer()
		require.NoError(b, h.DeletePosts(ctx, ids))
		b.StartTimer()
	}
	b.ReportMetric(float64(benchPosts*b.N)/b.Elapsed().Seconds(), "posts/s")
}
