package wphost_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/contentgen/wphost"
	"github.com/contentgen/contentgen/history"
)

// benchBatch is the size of a benchmark batch.
const benchBatch = 500

// benchContent is the body of every benchmark post (about 1 KiB).
var benchContent = strings.Repeat("<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p>", 8)

// benchFixture is a category and a tag the benchmark posts use.
type benchFixture struct {
	site     *wphost.Site
	cat, tag int64
}

func newBenchFixture(b *testing.B) *benchFixture {
	b.Helper()
	site := openSite(b, siteOptions(b))
	ctx := context.Background()
	tag := fmt.Sprintf("bench-%d", time.Now().UnixNano())
	ids, err := site.Host().CreateTerms(ctx, []contentgen.Term{
		{Taxonomy: "category", Name: "Bench category " + tag},
		{Taxonomy: "post_tag", Name: "Bench tag " + tag},
	})
	require.NoError(b, err)
	b.Cleanup(func() { require.NoError(b, site.Host().DeleteTerms(context.Background(), ids)) })
	return &benchFixture{site: site, cat: ids[0], tag: ids[1]}
}

// posts returns the benchmark batch: content, excerpt, 3 meta, 2 terms.
func (f *benchFixture) posts() []contentgen.Post {
	out := make([]contentgen.Post, benchBatch)
	date := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for i := range out {
		out[i] = contentgen.Post{
			Type: "post", Status: contentgen.StatusPublish, Title: fmt.Sprintf("Benchmark post %d", i),
			Content: benchContent, Excerpt: "A short excerpt of the benchmark post.", AuthorID: 1,
			Date:  date.Add(time.Duration(i) * time.Minute),
			Terms: map[string][]int64{"category": {f.cat}, "post_tag": {f.tag}},
			Meta:  contentgen.Meta{contentgen.MarkerKey: contentgen.MarkerValue, "rating": strconv.Itoa(i % 5), "source": "benchmark"},
		}
	}
	return out
}

// BenchmarkWordPressDB500 writes 500 posts with their terms and meta
// through the Host, and their history entries, in one transaction, as a
// Generator over the Host writes a batch.
func BenchmarkWordPressDB500(b *testing.B) {
	f := newBenchFixture(b)
	ctx := context.Background()
	h := f.site.Host()
	hist := f.site.DB().History()
	posts := f.posts()
	entries := make([]history.Entry, benchBatch)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		err := h.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
			ids, err := tx.CreatePosts(ctx, posts)
			if err != nil {
				return err
			}
			for i, id := range ids {
				entries[i] = history.Entry{ContentType: history.TypePost, ContentID: id, ContentSubtype: "post"}
			}
			return hist.Add(ctx, entries)
		})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		removeBatch(b, f, entries)
		b.StartTimer()
	}
	b.ReportMetric(float64(b.N*benchBatch)/b.Elapsed().Seconds(), "posts/s")
}

// removeBatch deletes the posts of entries and the entries.
func removeBatch(b *testing.B, f *benchFixture, entries []history.Entry) {
	b.Helper()
	ctx := context.Background()
	ids := make([]int64, len(entries))
	var hids []string
	for i, e := range entries {
		ids[i] = e.ContentID
		if e.ID != "" {
			hids = append(hids, e.ID)
		}
	}
	require.NoError(b, f.site.Host().DeletePosts(ctx, ids))
	_, err := f.site.DB().History().Delete(ctx, hids...)
	require.NoError(b, err)
}

// BenchmarkWordPressDB500Floor is the floor of BenchmarkWordPressDB500:
// the same rows (posts, 3 meta each, 2 term links each) written by plain
// multi-row INSERTs in one transaction, with no check, slug, count or
// history.
func BenchmarkWordPressDB500Floor(b *testing.B) {
	f := newBenchFixture(b)
	ctx := context.Background()
	db := f.site.DB()
	tts := map[int64]int64{}
	require.NoError(b, db.Querier(ctx).QueryEach(ctx, "SELECT term_id, term_taxonomy_id FROM wp_term_taxonomy WHERE term_id IN (?, ?)", []any{f.cat, f.tag},
		func(r *sql.Rows) error {
			var id, tt int64
			err := r.Scan(&id, &tt)
			tts[id] = tt
			return err
		}))
	posts := f.posts()
	now := time.Now().UTC().Format("2006-01-02 15:04:05")
	b.ReportAllocs()
	b.ResetTimer()
	var first int64
	for b.Loop() {
		err := db.InTxWith(ctx, func(ctx context.Context, q sqlstore.Querier) error {
			var sb strings.Builder
			args := make([]any, 0, benchBatch*22)
			sb.WriteString("INSERT INTO wp_posts (post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status, comment_status, ping_status, post_password, post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, post_parent, guid, menu_order, post_type, post_mime_type, comment_count) VALUES ")
			for i, p := range posts {
				if i > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString("(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)")
				d := p.Date.Format("2006-01-02 15:04:05")
				args = append(args, p.AuthorID, d, d, p.Content, p.Title, p.Excerpt, p.Status, "open", "open", "",
					fmt.Sprintf("benchmark-post-%d", i), "", "", now, now, "", 0, "", 0, p.Type, "", 0)
			}
			res, err := q.ExecContext(ctx, sb.String(), args...)
			if err != nil {
				return err
			}
			first, err = res.LastInsertId()
			if err != nil {
				return err
			}
			sb.Reset()
			args = args[:0]
			sb.WriteString("INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES ")
			for i, p := range posts {
				for _, k := range []string{contentgen.MarkerKey, "rating", "source"} {
					if len(args) > 0 {
						sb.WriteByte(',')
					}
					sb.WriteString("(?,?,?)")
					args = append(args, first+int64(i), k, p.Meta[k])
				}
			}
			if _, err := q.ExecContext(ctx, sb.String(), args...); err != nil {
				return err
			}
			sb.Reset()
			args = args[:0]
			sb.WriteString("INSERT INTO wp_term_relationships (object_id, term_taxonomy_id, term_order) VALUES ")
			for i := range posts {
				for _, tt := range []int64{tts[f.cat], tts[f.tag]} {
					if len(args) > 0 {
						sb.WriteByte(',')
					}
					sb.WriteString("(?,?,0)")
					args = append(args, first+int64(i), tt)
				}
			}
			_, err = q.ExecContext(ctx, sb.String(), args...)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		ids := make([]int64, benchBatch)
		for i := range ids {
			ids[i] = first + int64(i)
		}
		require.NoError(b, f.site.Host().DeletePosts(ctx, ids))
		b.StartTimer()
	}
	b.ReportMetric(float64(b.N*benchBatch)/b.Elapsed().Seconds(), "posts/s")
}

// BenchmarkWordPressInsertPost500 writes the same 500 posts through
// WordPress's own wp_insert_post, in a PHP process (testdata/
// insert_posts.php) against the same site. ns/op includes starting PHP
// and loading WordPress; posts/s counts the insert loop alone.
func BenchmarkWordPressInsertPost500(b *testing.B) {
	root := os.Getenv(envRoot)
	if root == "" {
		b.Skipf("set %s to the WordPress directory holding wp-load.php to run this benchmark", envRoot)
	}
	if _, err := exec.LookPath("php"); err != nil {
		b.Skip("php is not installed")
	}
	f := newBenchFixture(b)
	ctx := context.Background()
	var loop time.Duration
	b.ResetTimer()
	for b.Loop() {
		out, err := exec.CommandContext(ctx, "php", "testdata/insert_posts.php", root,
			strconv.FormatInt(f.cat, 10), strconv.FormatInt(f.tag, 10), strconv.Itoa(benchBatch)).Output()
		if err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		var res struct {
			NS  int64   `json:"ns"`
			IDs []int64 `json:"ids"`
		}
		if err := json.Unmarshal(out, &res); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		loop += time.Duration(res.NS)
		b.StopTimer()
		require.NoError(b, f.site.Host().DeletePosts(ctx, res.IDs))
		b.StartTimer()
	}
	b.ReportMetric(float64(b.N*benchBatch)/loop.Seconds(), "posts/s")
}
