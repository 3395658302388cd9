package sqlstore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/history"
)

// bulkRows is a batch large enough to take the bulk path of every
// engine (COPY on PostgreSQL).
const bulkRows = 150

// TestBulkWrites writes batches of many rows inside one transaction:
// every row reads back as written, NULLs included, and a failing bulk
// write inside the transaction is undone while the transaction goes on.
// On PostgreSQL the table prefix has capitals, which the engine folds to
// lower case (to TestTablePrefix's prefix, so that the schemas the tests
// share hold no other).
func TestBulkWrites(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := t.Context()
		dsn, o := e.fresh(t)
		if e.name == "PostgreSQL" {
			o.TablePrefix = "WP_contentgen_"
		}
		db := openAt(t, dsn, o)
		h := newHost(t, db)

		terms := make([]contentgen.Term, bulkRows)
		for i := range terms {
			terms[i] = contentgen.Term{Taxonomy: "label", Name: fmt.Sprintf("Label %d", i), Meta: contentgen.Meta{"n": fmt.Sprint(i)}}
		}
		posts := make([]contentgen.Post, bulkRows)
		entries := make([]history.Entry, bulkRows)
		var postIDs, termIDs []int64
		err := db.InTx(ctx, func(ctx context.Context) error {
			var err error
			if termIDs, err = h.CreateTerms(ctx, terms); err != nil {
				return err
			}
			for i := range posts {
				posts[i] = contentgen.Post{
					Type: "article", Status: contentgen.StatusPublish, Title: fmt.Sprintf("Post %d", i),
					Content: fmt.Sprintf("<p>Body %d ü</p>", i), Excerpt: "",
					Terms: map[string][]int64{"label": {termIDs[i], termIDs[(i+1)%bulkRows]}},
					Meta:  contentgen.Meta{"k": fmt.Sprint(i), "empty": ""},
				}
			}
			if postIDs, err = h.CreatePosts(ctx, posts); err != nil {
				return err
			}
			// A bulk write that fails on its last row: a slug taken.
			clash := make([]contentgen.Term, bulkRows)
			for i := range clash {
				clash[i] = contentgen.Term{Taxonomy: "label", Name: fmt.Sprintf("Other %d", i), Slug: fmt.Sprintf("other-%d", i)}
			}
			clash[bulkRows-1].Slug = "label-0"
			_, err = h.CreateTerms(ctx, clash)
			require.ErrorIs(t, err, contentgen.ErrHostConflict)
			for i := range entries {
				entries[i] = history.Entry{ContentType: history.TypePost, ContentID: postIDs[i], ContentSubtype: "article"}
				if i%2 == 0 {
					entries[i].Meta = map[string]any{"i": i}
				}
			}
			return db.History().Add(ctx, entries)
		})
		require.NoError(t, err, "the transaction goes on after the failed write")

		got, err := h.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(postIDs...)})
		require.NoError(t, err)
		require.Len(t, got, bulkRows)
		for i, p := range got {
			require.Equal(t, postIDs[i], p.ID)
			require.Equal(t, posts[i].Title, p.Title)
			require.Equal(t, posts[i].Content, p.Content)
			require.Equal(t, posts[i].Terms, p.Terms)
			require.Equal(t, posts[i].Meta, p.Meta)
		}
		all, err := h.Terms(ctx, contentgen.TermQuery{Taxonomies: []string{"label"}})
		require.NoError(t, err)
		require.Len(t, all, bulkRows, "the failed batch left no term")
		list, total, err := db.History().List(ctx, history.Filter{})
		require.NoError(t, err)
		require.Equal(t, bulkRows, total)
		byContent := map[int64]history.Entry{}
		for _, en := range list {
			byContent[en.ContentID] = en
		}
		for i, id := range postIDs {
			en := byContent[id]
			if i%2 == 0 {
				require.EqualValues(t, i, en.Meta["i"])
			} else {
				require.Nil(t, en.Meta)
			}
		}
	})
}
