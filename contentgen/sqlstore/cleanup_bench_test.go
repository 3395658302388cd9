package sqlstore_test

import (
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/history"
)

// seedGenerated fills h with posts generated posts, each with
// commentsPer generated comments, their meta and history entries as the
// Generator records them, written in bulk.
func seedGenerated(tb testing.TB, db *sqlstore.DB, h *sqlstore.Host, posts, commentsPer int) {
	tb.Helper()
	ctx := context.Background()
	now := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	body := "<!-- wp:paragraph --><p>" + fmt.Sprint(make([]byte, 600)) + "</p><!-- /wp:paragraph -->"
	const batch = 1000
	for lo := 0; lo < posts; lo += batch {
		n := min(batch, posts-lo)
		err := h.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
			ps := make([]contentgen.Post, n)
			for i := range ps {
				ps[i] = contentgen.Post{Type: "article", Title: "Post " + strconv.Itoa(lo+i), Content: body, Status: contentgen.StatusPublish,
					Date: now, Meta: contentgen.Meta{contentgen.MarkerKey: contentgen.MarkerValue, "_svc_run_id": "bench"}}
			}
			ids, err := tx.CreatePosts(ctx, ps)
			if err != nil {
				return err
			}
			entries := make([]history.Entry, 0, n*(1+commentsPer))
			var cs []contentgen.Comment
			for _, id := range ids {
				entries = append(entries, history.Entry{ContentType: history.TypePost, ContentID: id, ContentSubtype: "article", CreatedAt: now,
					Meta: map[string]any{"run_id": "bench", "locale": "en_US", "post_status": "publish"}})
				for range commentsPer {
					cs = append(cs, contentgen.Comment{PostID: id, AuthorName: "Reader", AuthorEmail: "reader@example.com",
						Content: "A comment that says something about the post, as readers do.", Status: contentgen.CommentApproved, Date: now,
						Meta: contentgen.Meta{contentgen.MarkerKey: contentgen.MarkerValue}})
				}
			}
			cids, err := tx.CreateComments(ctx, cs)
			if err != nil {
				return err
			}
			for i, id := range cids {
				entries = append(entries, history.Entry{ContentType: history.TypeComment, ContentID: id, ContentSubtype: "article", CreatedAt: now,
					Meta: map[string]any{"run_id": "bench", "post_id": cs[i].PostID}})
			}
			return db.History().Add(ctx, entries)
		})
		require.NoError(tb, err)
	}
}

// heapPeak samples the bytes of live and not yet collected heap objects
// until stop is called, which returns the highest sample.
func heapPeak() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(200 * time.Microsecond)
		defer t.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak
	}
}

// BenchmarkCleanupLargeSite removes every generated item of a large
// SQLite site (DeleteAll) and reports the peak heap it used above what
// was in use before it began: flat whatever the site's size, since
// cleanup pages through history and deletes in bounded batches.
func BenchmarkCleanupLargeSite(b *testing.B) {
	for _, size := range []struct{ posts, commentsPer int }{{10_000, 5}, {50_000, 5}} {
		b.Run(fmt.Sprintf("%dk-posts-%dk-comments", size.posts/1000, size.posts*size.commentsPer/1000), func(b *testing.B) {
			ctx := context.Background()
			var peakMB float64
			for range b.N {
				b.StopTimer()
				db := engine{"SQLite", freshSQLite}.open(b, nil)
				h := newHost(b, db)
				_, err := h.CreateUsers(ctx, []contentgen.User{{Login: "admin", Email: "admin@example.com", Roles: []string{"administrator"}}})
				require.NoError(b, err)
				seedGenerated(b, db, h, size.posts, size.commentsPer)
				gen, err := contentgen.New(h, nil, nil)
				require.NoError(b, err)
				runtime.GC()
				var base runtime.MemStats
				runtime.ReadMemStats(&base)
				stop := heapPeak()
				b.StartTimer()
				rm, err := gen.DeleteAll(ctx)
				b.StopTimer()
				peak := stop()
				require.NoError(b, err)
				require.Equal(b, size.posts, rm.Posts)
				require.Equal(b, size.posts*size.commentsPer, rm.Comments)
				peakMB = max(peakMB, float64(peak-min(peak, base.HeapAlloc))/1e6)
				require.NoError(b, db.Close())
			}
			b.ReportMetric(peakMB, "peak-heap-MB")
		})
	}
}
