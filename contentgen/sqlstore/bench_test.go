package sqlstore_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/history"
)

// benchEntries returns n post entries shaped like the Generator's, with
// the meta keys it records.
func benchEntries(n int, runID string) []history.Entry {
	now := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	out := make([]history.Entry, n)
	for i := range out {
		out[i] = history.Entry{
			ContentType: history.TypePost, ContentID: int64(i + 1), ContentSubtype: "post", CreatedAt: now,
			Meta: map[string]any{
				"locale":                  "en_US",
				"variation_profile":       "mixed",
				"has_featured_image":      i%2 == 0,
				"template_name":           "Blog",
				"custom_fields_populated": true,
				"taxonomies_assigned":     []string{"category", "post_tag"},
				"post_status":             "publish",
				"run_id":                  runID,
			},
		}
	}
	return out
}

// benchStores returns the history stores the benchmarks compare: the
// in-memory store (the floor), a SQLite file and, when postgresEnv is
// set, PostgreSQL.
func benchStores(b *testing.B) []struct {
	name string
	open func(b *testing.B) history.Store
} {
	stores := []struct {
		name string
		open func(b *testing.B) history.Store
	}{
		{"Memory", func(*testing.B) history.Store { return history.NewMemStore(nil) }},
		{"SQLite", func(b *testing.B) history.Store { return engine{"SQLite", freshSQLite}.open(b, nil).History() }},
	}
	if os.Getenv(postgresEnv) != "" {
		stores = append(stores, struct {
			name string
			open func(b *testing.B) history.Store
		}{"PostgreSQL", func(b *testing.B) history.Store { return engine{"PostgreSQL", freshPostgres}.open(b, nil).History() }})
	}
	if os.Getenv(mysqlEnv) != "" {
		stores = append(stores, struct {
			name string
			open func(b *testing.B) history.Store
		}{"MySQL", func(b *testing.B) history.Store { return engine{"MySQL", freshMySQL}.open(b, nil).History() }})
	}
	return stores
}

// BenchmarkHistoryAdd500 adds a batch of 500 post entries, as one
// Generator batch records them.
func BenchmarkHistoryAdd500(b *testing.B) {
	for _, s := range benchStores(b) {
		b.Run(s.name, func(b *testing.B) {
			st := s.open(b)
			ctx := context.Background()
			batch := benchEntries(500, "run")
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				require.NoError(b, st.Add(ctx, batch))
			}
			b.ReportMetric(float64(b.N*500)/b.Elapsed().Seconds(), "entries/s")
		})
	}
}

// BenchmarkHistoryList lists pages of 20 from a store of 5,000 entries:
// the first page, a page filtered by subtype and meta, and a deep page.
func BenchmarkHistoryList(b *testing.B) {
	for _, s := range benchStores(b) {
		b.Run(s.name, func(b *testing.B) {
			st := s.open(b)
			ctx := context.Background()
			for i := range 10 {
				batch := benchEntries(500, "run"+string(rune('0'+i)))
				require.NoError(b, st.Add(ctx, batch))
			}
			for _, c := range []struct {
				name string
				f    history.Filter
			}{
				{"FirstPage", history.Filter{Limit: 20}},
				{"Filtered", history.Filter{ContentType: history.TypePost, ContentSubtypes: []string{"post"},
					MetaEquals: map[string]string{"run_id": "run7", "has_featured_image": "true"}, Limit: 20, Offset: 40}},
				{"DeepPage", history.Filter{Limit: 20, Offset: 4000}},
			} {
				b.Run(c.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						entries, total, err := st.List(ctx, c.f)
						require.NoError(b, err)
						require.Len(b, entries, 20)
						require.Positive(b, total)
					}
				})
			}
			b.Run("Stats", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					st, err := st.Stats(ctx, time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC))
					require.NoError(b, err)
					require.Equal(b, 5000, st.Total)
				}
			})
		})
	}
}
