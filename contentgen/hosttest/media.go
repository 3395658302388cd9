package hosttest

import (
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

func mediaTests() []test {
	return []test{
		{"RoundTrip", func(t *testing.T, f *fixture) {
			parent := f.createPost(t, "Gallery")
			in := f.media("Sunset", "image/jpeg")
			in.ParentID = parent
			in.Meta["alt"] = "A sunset"
			batch := []contentgen.Media{f.media("Before", "image/png"), in}
			snapshot := slices.Clone(batch)
			ids, err := f.h.CreateMedia(f.ctx, batch)
			require.NoError(t, err)
			require.Equal(t, snapshot, batch, "CreateMedia must not modify its input")
			require.Len(t, ids, 2)
			requireDistinctPositive(t, ids)
			got := f.getMedia(t, ids[1])
			require.Equal(t, in.Title, got.Title)
			require.Equal(t, in.MIMEType, got.MIMEType)
			require.Equal(t, in.Width, got.Width)
			require.Equal(t, in.Height, got.Height)
			require.Equal(t, in.ParentID, got.ParentID)
			require.NotEmpty(t, got.URL)
			require.True(t, in.Date.Equal(got.Date), "date %v, want %v", got.Date, in.Date)
			requireSubset(t, in.Meta, got.Meta)
			require.Equal(t, "Before", f.getMedia(t, ids[0]).Title)
			empty, err := f.h.CreateMedia(f.ctx, nil)
			require.NoError(t, err)
			require.Empty(t, empty)
		}},
		{"QueryFilters", func(t *testing.T, f *fixture) {
			a, b, c := f.media("Red barn", "image/jpeg"), f.media("Manual", "application/pdf"), f.media("Blue BARN", "image/png")
			c.Meta["album"] = "farm"
			ids, err := f.h.CreateMedia(f.ctx, []contentgen.Media{a, b, c})
			require.NoError(t, err)
			cases := []struct {
				name string
				q    contentgen.MediaQuery
				want []int64
			}{
				{"no filter", contentgen.MediaQuery{}, ids},
				{"images", contentgen.MediaQuery{MIMEPrefixes: []string{"image/"}}, []int64{ids[0], ids[2]}},
				{"two prefixes", contentgen.MediaQuery{MIMEPrefixes: []string{"application/pdf", "image/png"}}, ids[1:]},
				{"search ignores case", contentgen.MediaQuery{Search: "barn"}, []int64{ids[0], ids[2]}},
				{"ids", contentgen.MediaQuery{IDs: contentgen.OnlyIDs(ids[2])}, ids[2:]},
				{"limit and offset", contentgen.MediaQuery{Limit: 1, Offset: 2}, sorted(ids)[2:]},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					require.Equal(t, idsOrEmpty(sorted(tc.want)), mediaIDs(f.mediaItems(t, tc.q)))
				})
			}
			t.Run("meta value", func(t *testing.T) {
				got, err := f.h.Media(f.ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(ids...), MetaKey: "album", MetaValue: "farm"})
				require.NoError(t, err)
				require.Equal(t, ids[2:], mediaIDs(got))
			})
		}},
		{"ResultsAreCopies", func(t *testing.T, f *fixture) {
			id := f.createMedia(t, "Copied", "image/png")
			got := f.getMedia(t, id)
			want := maps.Clone(got.Meta)
			got.Meta[TagKey] = "changed"
			require.Equal(t, want, f.getMedia(t, id).Meta)
		}},
		{"DeleteClearsFeaturedImages", func(t *testing.T, f *fixture) {
			media := f.createMedia(t, "Featured", "image/png")
			kept := f.createMedia(t, "Kept", "image/png")
			p, q := f.post("Illustrated"), f.post("Also illustrated")
			p.FeaturedMediaID, q.FeaturedMediaID = media, kept
			posts := f.createPosts(t, p, q)
			require.NoError(t, f.h.DeleteMedia(f.ctx, []int64{media, f.removedID(t, contentgen.KindMedia)}))
			require.False(t, f.exists(t, contentgen.KindMedia, media))
			f.requireMetaGone(t, contentgen.KindMedia, media)
			require.Equal(t, int64(0), f.getPost(t, posts[0]).FeaturedMediaID)
			require.Equal(t, kept, f.getPost(t, posts[1]).FeaturedMediaID)
			require.NoError(t, f.h.DeleteMedia(f.ctx, nil))
			require.True(t, f.exists(t, contentgen.KindMedia, kept))
		}},
	}
}
