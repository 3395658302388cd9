package sqlstore_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

// TestListPostsAcrossBlocks lists a site of several blocks of post_counts
// and checks every page against the posts as made, at the boundaries of
// blocks and pages, in both orders, after deletes and trash.
func TestListPostsAcrossBlocks(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := t.Context()
		h := newHost(t, e.open(t, nil))
		require.NoError(t, h.RegisterPostType(ctx, contentgen.PostType{Name: "note", Public: true}))
		require.NoError(t, h.RegisterPostType(ctx, contentgen.PostType{Name: "revision", Internal: true}))
		type made struct {
			id          int64
			typ, status string
			generated   bool
		}
		var model []made
		const n = 3300
		posts := make([]contentgen.Post, 0, n)
		for i := range n {
			p := contentgen.Post{Type: "article", Status: contentgen.StatusPublish, Title: "P"}
			switch {
			case i%7 == 0:
				p.Type = "note"
			case i%11 == 0:
				p.Type = "revision"
			}
			if i%3 == 0 {
				p.Status = contentgen.StatusDraft
			}
			if i%5 < 2 {
				p.Meta = contentgen.Meta{contentgen.MarkerKey: contentgen.MarkerValue}
			}
			posts = append(posts, p)
		}
		for lo := 0; lo < n; lo += 1000 {
			hi := min(lo+1000, n)
			ids, err := h.CreatePosts(ctx, posts[lo:hi])
			require.NoError(t, err)
			for i, id := range ids {
				p := posts[lo+i]
				model = append(model, made{id, p.Type, p.Status, p.Meta.Generated()})
			}
		}
		// Remove a run of posts that spans a block boundary, and trash
		// some, so that blocks are uneven.
		var gone []int64
		for _, m := range model[1000:1100] {
			gone = append(gone, m.id)
		}
		require.NoError(t, h.DeletePosts(ctx, gone))
		model = slices.Delete(model, 1000, 1100)
		var trashed []int64
		for i := 2000; i < 2300; i += 2 {
			trashed = append(trashed, model[i].id)
			model[i].status = contentgen.StatusTrash
		}
		require.NoError(t, h.TrashPosts(ctx, trashed))

		queries := []contentgen.Listing{
			{},
			{Order: contentgen.NewestFirst},
			{Subtypes: []string{"note"}},
			{Statuses: []string{contentgen.StatusDraft}, Order: contentgen.NewestFirst},
			{Origin: contentgen.OnlyGenerated},
			{Origin: contentgen.NotGenerated, Subtypes: []string{"article", "revision"}, Order: contentgen.NewestFirst},
			{Statuses: []string{contentgen.StatusTrash}},
		}
		for _, q := range queries {
			var want []int64
			for _, m := range model {
				if len(q.Subtypes) == 0 && m.typ == "revision" || len(q.Subtypes) > 0 && !slices.Contains(q.Subtypes, m.typ) ||
					len(q.Statuses) > 0 && !slices.Contains(q.Statuses, m.status) ||
					q.Origin == contentgen.OnlyGenerated && !m.generated || q.Origin == contentgen.NotGenerated && m.generated {
					continue
				}
				want = append(want, m.id)
			}
			if q.Order == contentgen.NewestFirst {
				slices.Reverse(want)
			}
			all, total, err := h.List(ctx, contentgen.KindPost, q)
			require.NoError(t, err)
			require.Equal(t, len(want), total, "%+v", q)
			require.Equal(t, want, all, "%+v", q)
			for _, limit := range []int{1, 20, 700, 1500} {
				for _, off := range []int{0, 19, 20, 511, 1023, 1024, 1025, 2047, 2048, len(want) - limit, len(want) - 1, len(want)} {
					if off < 0 {
						continue
					}
					q.Limit, q.Offset = limit, off
					got, total, err := h.List(ctx, contentgen.KindPost, q)
					require.NoError(t, err)
					require.Equal(t, len(want), total)
					lo, hi := min(off, len(want)), min(off+limit, len(want))
					require.Equal(t, want[lo:hi], got, "%+v", q)
				}
			}
		}
	})
}
