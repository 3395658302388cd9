package hosttest

import (
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

func commentTests() []test {
	return []test{
		{"RoundTrip", func(t *testing.T, f *fixture) {
			post := f.createPost(t, "Discussed")
			user := f.createUsers(t, 1)[0]
			in := f.comment(post, 0, "<p>Nice post.</p>")
			in.UserID = user
			in.AuthorURL = "https://visitor.hosttest.example"
			in.Status = contentgen.CommentPending
			in.Meta["rating"] = "5"
			batch := []contentgen.Comment{f.comment(post, 0, "Before"), in}
			snapshot := slices.Clone(batch)
			ids, err := f.h.CreateComments(f.ctx, batch)
			require.NoError(t, err)
			require.Equal(t, snapshot, batch, "CreateComments must not modify its input")
			require.Len(t, ids, 2)
			requireDistinctPositive(t, ids)
			got := f.getComment(t, ids[1])
			require.Equal(t, in.PostID, got.PostID)
			require.Equal(t, in.ParentID, got.ParentID)
			require.Equal(t, in.UserID, got.UserID)
			require.Equal(t, in.AuthorName, got.AuthorName)
			require.Equal(t, in.AuthorEmail, got.AuthorEmail)
			require.Equal(t, in.AuthorURL, got.AuthorURL)
			require.Equal(t, in.Content, got.Content)
			require.Equal(t, in.Status, got.Status)
			require.True(t, in.Date.Equal(got.Date), "date %v, want %v", got.Date, in.Date)
			requireSubset(t, in.Meta, got.Meta)
			require.Equal(t, "Before", f.getComment(t, ids[0]).Content)
		}},
		{"Threads", func(t *testing.T, f *fixture) {
			posts := f.createPosts(t, f.post("Thread"), f.post("Other thread"))
			top := f.createComment(t, posts[0], 0, "Top")
			reply := f.createComment(t, posts[0], top, "Reply")
			require.Equal(t, top, f.getComment(t, reply).ParentID)

			_, err := f.h.CreateComments(f.ctx, []contentgen.Comment{f.comment(posts[1], top, "Misplaced")})
			require.Error(t, err, "a parent on another post must fail")
			gone := f.removedID(t, contentgen.KindComment)
			_, err = f.h.CreateComments(f.ctx, []contentgen.Comment{f.comment(posts[0], gone, "Orphan")})
			require.Error(t, err, "a parent that does not exist must fail")
		}},
		{"BatchIsAllOrNothing", func(t *testing.T, f *fixture) {
			post := f.createPost(t, "Discussed")
			gone := f.removedID(t, contentgen.KindComment)
			_, err := f.h.CreateComments(f.ctx, []contentgen.Comment{
				f.comment(post, 0, "Good"), f.comment(post, gone, "Bad"),
			})
			require.Error(t, err)
			require.Empty(t, f.comments(t, contentgen.CommentQuery{}), "no comment of a failed batch may be stored")
			ids, err := f.h.CreateComments(f.ctx, nil)
			require.NoError(t, err)
			require.Empty(t, ids)
		}},
		{"QueryFilters", func(t *testing.T, f *fixture) {
			posts := f.createPosts(t, f.post("One"), f.post("Two"), f.post("Three"))
			pending := f.comment(posts[1], 0, "Held")
			pending.Status = contentgen.CommentPending
			pending.Meta["flag"] = "yes"
			ids, err := f.h.CreateComments(f.ctx, []contentgen.Comment{
				f.comment(posts[0], 0, "A"), pending, f.comment(posts[0], 0, "B"), f.comment(posts[2], 0, "C"),
			})
			require.NoError(t, err)
			inOrder := sorted(ids)
			cases := []struct {
				name string
				q    contentgen.CommentQuery
				want []int64
			}{
				{"no filter", contentgen.CommentQuery{}, ids},
				{"one post", contentgen.CommentQuery{PostIDs: contentgen.OnlyIDs(posts[0])}, []int64{ids[0], ids[2]}},
				{"two posts", contentgen.CommentQuery{PostIDs: contentgen.OnlyIDs(posts[2], posts[1])}, []int64{ids[1], ids[3]}},
				{"status", contentgen.CommentQuery{Statuses: []string{contentgen.CommentApproved}}, []int64{ids[0], ids[2], ids[3]}},
				{"post and status", contentgen.CommentQuery{PostIDs: contentgen.OnlyIDs(posts[1]), Statuses: []string{contentgen.CommentApproved}}, nil},
				{"ids", contentgen.CommentQuery{IDs: contentgen.OnlyIDs(ids[3], ids[0])}, []int64{ids[0], ids[3]}},
				{"limit and offset", contentgen.CommentQuery{Limit: 2, Offset: 1}, inOrder[1:3]},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					require.Equal(t, idsOrEmpty(sorted(tc.want)), commentIDs(f.comments(t, tc.q)))
				})
			}
			t.Run("meta value", func(t *testing.T) {
				got, err := f.h.Comments(f.ctx, contentgen.CommentQuery{IDs: contentgen.OnlyIDs(ids...), MetaKey: "flag", MetaValue: "yes"})
				require.NoError(t, err)
				require.Equal(t, []int64{ids[1]}, commentIDs(got))
			})
		}},
		{"ResultsAreCopies", func(t *testing.T, f *fixture) {
			id := f.createComment(t, f.createPost(t, "Copied"), 0, "Copied")
			got := f.getComment(t, id)
			want := maps.Clone(got.Meta)
			got.Meta[TagKey] = "changed"
			require.Equal(t, want, f.getComment(t, id).Meta)
		}},
		{"DeleteMovesRepliesUp", func(t *testing.T, f *fixture) {
			post := f.createPost(t, "Thread")
			a := f.createComment(t, post, 0, "A")
			b := f.createComment(t, post, a, "B")
			c := f.createComment(t, post, b, "C")
			d := f.createComment(t, post, c, "D")
			require.NoError(t, f.h.DeleteComments(f.ctx, []int64{b}))
			require.False(t, f.exists(t, contentgen.KindComment, b))
			f.requireMetaGone(t, contentgen.KindComment, b)
			require.Equal(t, a, f.getComment(t, c).ParentID, "replies to a removed comment move to its parent")
			require.NoError(t, f.h.DeleteComments(f.ctx, []int64{a, c}))
			require.Equal(t, int64(0), f.getComment(t, d).ParentID)
			require.NoError(t, f.h.DeleteComments(f.ctx, []int64{a, b, c}))
			require.NoError(t, f.h.DeleteComments(f.ctx, nil))
			require.True(t, f.exists(t, contentgen.KindComment, d))
			require.True(t, f.exists(t, contentgen.KindPost, post), "removing comments keeps their post")
		}},
	}
}
