package sqlstore_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
)

// BenchmarkHostPosts500 writes a batch of 500 posts, each with two terms
// and four meta keys, and their 500 history entries, in one transaction:
// what the Generator does per batch. memhost with the in-memory history is
// the floor.
func BenchmarkHostPosts500(b *testing.B) {
	type target struct {
		name string
		open func(b *testing.B) (contentgen.Host, history.Store)
	}
	targets := []target{
		{"Memory", func(b *testing.B) (contentgen.Host, history.Store) {
			h := memhost.New(nil)
			require.NoError(b, h.RegisterPostType(contentgen.PostType{Name: "article", Taxonomies: []string{"section"}}))
			require.NoError(b, h.RegisterTaxonomy(contentgen.Taxonomy{Name: "section", Hierarchical: true, PostTypes: []string{"article"}}))
			require.NoError(b, h.RegisterTaxonomy(contentgen.Taxonomy{Name: "label", PostTypes: []string{"article"}}))
			return h, history.NewMemStore(nil)
		}},
		{"SQLite", func(b *testing.B) (contentgen.Host, history.Store) {
			db := engine{"SQLite", freshSQLite}.open(b, nil)
			return newHost(b, db), db.History()
		}},
	}
	if os.Getenv(postgresEnv) != "" {
		targets = append(targets, target{"PostgreSQL", func(b *testing.B) (contentgen.Host, history.Store) {
			db := engine{"PostgreSQL", freshPostgres}.open(b, nil)
			return newHost(b, db), db.History()
		}})
	}
	if os.Getenv(mysqlEnv) != "" {
		targets = append(targets, target{"MySQL", func(b *testing.B) (contentgen.Host, history.Store) {
			db := engine{"MySQL", freshMySQL}.open(b, nil)
			return newHost(b, db), db.History()
		}})
	}
	for _, tg := range targets {
		b.Run(tg.name, func(b *testing.B) {
			ctx := context.Background()
			h, hist := tg.open(b)
			terms, err := h.CreateTerms(ctx, []contentgen.Term{
				{Taxonomy: "section", Name: "News"}, {Taxonomy: "label", Name: "go"},
			})
			require.NoError(b, err)
			posts := make([]contentgen.Post, 500)
			for i := range posts {
				posts[i] = contentgen.Post{
					Type: "article", Status: contentgen.StatusPublish, Title: "Post " + strconv.Itoa(i),
					Content: "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p>", Excerpt: "Lorem ipsum",
					Terms: map[string][]int64{"section": {terms[0]}, "label": {terms[1]}},
					Meta:  contentgen.Meta{contentgen.MarkerKey: contentgen.MarkerValue, "price": "12.50", "isbn": "978-3-16-148410-0", "_svc_template_id": "3"},
				}
			}
			entries := benchEntries(500, "run")
			tx := h.(contentgen.Transactor)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				err := tx.InTx(ctx, func(ctx context.Context, h contentgen.Host) error {
					ids, err := h.CreatePosts(ctx, posts)
					if err != nil {
						return err
					}
					for i := range entries {
						entries[i].ContentID = ids[i]
					}
					return hist.Add(ctx, entries)
				})
				require.NoError(b, err)
			}
			b.ReportMetric(float64(b.N*500)/b.Elapsed().Seconds(), "posts/s")
		})
	}
}
