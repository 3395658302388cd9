package hosttest

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

// errRollback is returned by transaction functions that must be undone.
var errRollback = errors.New("hosttest: roll back")

func trasherTests() []test {
	trasher := func(t *testing.T, f *fixture) contentgen.Trasher {
		t.Helper()
		tr, ok := f.h.(contentgen.Trasher)
		if !ok {
			t.Skip("host does not implement contentgen.Trasher")
		}
		return tr
	}
	return []test{
		{"TrashPosts", func(t *testing.T, f *fixture) {
			tr := trasher(t, f)
			p := f.post("Trashed")
			p.Status = contentgen.StatusPublish
			p.Meta["kept"] = "yes"
			var term int64
			if f.hier != nil {
				term = f.createTerm(t, f.hier, "Trashed", 0)
				p.Terms = map[string][]int64{f.hier.Name: {term}}
			}
			ids := f.createPosts(t, p, f.post("Untouched"))
			comment := f.createComment(t, ids[0], 0, "On a trashed post")
			require.NoError(t, tr.TrashPosts(f.ctx, []int64{ids[0], f.removedID(t, contentgen.KindPost)}))
			require.NoError(t, tr.TrashPosts(f.ctx, nil))

			got := f.getPost(t, ids[0])
			require.Equal(t, contentgen.StatusTrash, got.Status)
			requireSubset(t, p.Meta, got.Meta)
			if term != 0 {
				require.Equal(t, []int64{term}, got.Terms[f.hier.Name], "trashed posts keep their terms")
			}
			require.True(t, f.exists(t, contentgen.KindComment, comment), "trashed posts keep their comments")
			require.Equal(t, []int64{ids[0]}, postIDs(f.posts(t, contentgen.PostQuery{Statuses: []string{contentgen.StatusTrash}})))
			require.Empty(t, f.posts(t, contentgen.PostQuery{Statuses: []string{contentgen.StatusPublish}}))
			require.Equal(t, contentgen.StatusDraft, f.getPost(t, ids[1]).Status)
			meta, err := f.h.Meta(f.ctx, contentgen.KindPost, ids[0])
			require.NoError(t, err)
			require.Equal(t, "yes", meta["kept"])
			// A trashed post can still be removed for good.
			require.NoError(t, f.h.DeletePosts(f.ctx, ids[:1]))
			require.False(t, f.exists(t, contentgen.KindPost, ids[0]))
		}},
		{"TrashComments", func(t *testing.T, f *fixture) {
			tr := trasher(t, f)
			post := f.createPost(t, "Discussed")
			in := f.comment(post, 0, "Trashed")
			in.Meta["kept"] = "yes"
			ids, err := f.h.CreateComments(f.ctx, []contentgen.Comment{in, f.comment(post, 0, "Untouched")})
			require.NoError(t, err)
			require.NoError(t, tr.TrashComments(f.ctx, []int64{ids[0], f.removedID(t, contentgen.KindComment)}))
			require.NoError(t, tr.TrashComments(f.ctx, nil))
			got := f.getComment(t, ids[0])
			require.Equal(t, contentgen.CommentTrash, got.Status)
			requireSubset(t, in.Meta, got.Meta)
			require.Equal(t, []int64{ids[0]}, commentIDs(f.comments(t, contentgen.CommentQuery{Statuses: []string{contentgen.CommentTrash}})))
			require.Equal(t, []int64{ids[1]}, commentIDs(f.comments(t, contentgen.CommentQuery{Statuses: []string{contentgen.CommentApproved}})))
		}},
	}
}

func transactorTests() []test {
	transactor := func(t *testing.T, f *fixture) contentgen.Transactor {
		t.Helper()
		tx, ok := f.h.(contentgen.Transactor)
		if !ok {
			t.Skip("host does not implement contentgen.Transactor")
		}
		return tx
	}
	return []test{
		{"Commit", func(t *testing.T, f *fixture) {
			tr := transactor(t, f)
			var posts, users []int64
			err := tr.InTx(f.ctx, func(ctx context.Context, tx contentgen.Host) error {
				var err error
				if users, err = tx.CreateUsers(ctx, []contentgen.User{f.user()}); err != nil {
					return err
				}
				p := f.post("In a transaction")
				p.AuthorID = users[0]
				if posts, err = tx.CreatePosts(ctx, []contentgen.Post{p}); err != nil {
					return err
				}
				seen, err := tx.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(posts...)})
				if err != nil {
					return err
				}
				if len(seen) != 1 {
					return errors.New("the transaction does not see its own post")
				}
				return tx.SetMeta(ctx, contentgen.KindPost, posts[0], contentgen.Meta{"committed": "yes"})
			})
			require.NoError(t, err)
			got := f.getPost(t, posts[0])
			require.Equal(t, users[0], got.AuthorID)
			require.Equal(t, "yes", got.Meta["committed"])
			require.True(t, f.exists(t, contentgen.KindUser, users[0]))
		}},
		{"RollbackOnError", func(t *testing.T, f *fixture) {
			tr := transactor(t, f)
			post := f.createPost(t, "Before")
			comment := f.createComment(t, post, 0, "Before")
			user := f.createUsers(t, 1)[0]
			var term int64
			if f.hier != nil {
				term = f.createTerm(t, f.hier, "Before", 0)
			}
			beforePost := f.getPost(t, post)
			err := tr.InTx(f.ctx, func(ctx context.Context, tx contentgen.Host) error {
				steps := []func() error{
					func() error { _, err := tx.CreatePosts(ctx, []contentgen.Post{f.post("Undone")}); return err },
					func() error { _, err := tx.CreateUsers(ctx, []contentgen.User{f.user()}); return err },
					func() error {
						_, err := tx.CreateComments(ctx, []contentgen.Comment{f.comment(post, comment, "Undone")})
						return err
					},
					func() error {
						_, err := tx.CreateMedia(ctx, []contentgen.Media{f.media("Undone", "image/png")})
						return err
					},
					func() error {
						return tx.SetMeta(ctx, contentgen.KindPost, post, contentgen.Meta{TagKey: "undone", "new": "x"})
					},
					func() error { return tx.DeletePosts(ctx, []int64{post}) },
					func() error { return tx.DeleteUsers(ctx, []int64{user}, 0) },
				}
				if term != 0 {
					steps = append(steps,
						func() error {
							_, err := tx.CreateTerms(ctx, []contentgen.Term{f.term(f.hier, "Undone", term)})
							return err
						},
						func() error { return tx.DeleteTerms(ctx, []int64{term}) },
					)
				}
				for _, step := range steps {
					if err := step(); err != nil {
						return err
					}
				}
				return errRollback
			})
			require.ErrorIs(t, err, errRollback)
			require.Equal(t, []int64{post}, postIDs(f.posts(t, contentgen.PostQuery{})))
			require.Equal(t, beforePost, f.getPost(t, post), "the post is back as it was")
			require.Equal(t, []int64{comment}, commentIDs(f.comments(t, contentgen.CommentQuery{})))
			require.Equal(t, []int64{user}, userIDs(f.users(t, contentgen.UserQuery{})))
			require.Empty(t, f.mediaItems(t, contentgen.MediaQuery{}))
			if term != 0 {
				require.Equal(t, []int64{term}, termIDs(f.terms(t, contentgen.TermQuery{})))
			}
		}},
		{"RollbackWhenCancelled", func(t *testing.T, f *fixture) {
			tr := transactor(t, f)
			ctx, cancel := context.WithCancel(f.ctx)
			defer cancel()
			err := tr.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
				if _, err := tx.CreatePosts(ctx, []contentgen.Post{f.post("Undone")}); err != nil {
					return err
				}
				cancel()
				return nil
			})
			require.ErrorIs(t, err, context.Canceled, "a context done before the commit fails the transaction")
			require.Empty(t, f.posts(t, contentgen.PostQuery{}))
		}},
		{"OthersDoNotSeeUncommittedWrites", func(t *testing.T, f *fixture) {
			tr := transactor(t, f)
			seen := make(chan []contentgen.Post, 1)
			failed := make(chan error, 1)
			err := tr.InTx(f.ctx, func(ctx context.Context, tx contentgen.Host) error {
				if _, err := tx.CreatePosts(ctx, []contentgen.Post{f.post("Uncommitted")}); err != nil {
					return err
				}
				go func() {
					// Outside the transaction: may wait for it, must not
					// see its post.
					got, err := f.h.Posts(f.ctx, contentgen.PostQuery{MetaKey: TagKey, MetaValue: f.tag})
					if err != nil {
						failed <- err
						return
					}
					seen <- got
				}()
				time.Sleep(20 * time.Millisecond)
				return errRollback
			})
			require.ErrorIs(t, err, errRollback)
			select {
			case got := <-seen:
				require.Empty(t, got, "another goroutine saw an uncommitted post")
			case err := <-failed:
				require.NoError(t, err)
			case <-time.After(10 * time.Second):
				t.Fatal("a reader outside the transaction did not return after it ended")
			}
		}},
	}
}

func existerTests() []test {
	return []test{
		{"Exist", func(t *testing.T, f *fixture) {
			ex, ok := f.h.(contentgen.Exister)
			if !ok {
				t.Skip("host does not implement contentgen.Exister")
			}
			for _, kind := range kinds() {
				t.Run(string(kind), func(t *testing.T) {
					a, gone, b := f.object(t, kind), f.removedID(t, kind), f.object(t, kind)
					got, err := ex.Exist(f.ctx, kind, []int64{b, gone, a, 0, a})
					require.NoError(t, err)
					require.Equal(t, []bool{true, false, true, false, true}, got)
					for _, id := range []int64{a, gone, b} {
						res, err := ex.Exist(f.ctx, kind, []int64{id})
						require.NoError(t, err)
						require.Equal(t, []bool{f.exists(t, kind, id)}, res, "Exist agrees with the queries")
					}
					empty, err := ex.Exist(f.ctx, kind, nil)
					require.NoError(t, err)
					require.Empty(t, empty)
				})
			}
		}},
	}
}

func mediaStorerTests() []test {
	storer := func(t *testing.T, f *fixture) contentgen.MediaStorer {
		t.Helper()
		st, ok := f.h.(contentgen.MediaStorer)
		if !ok {
			t.Skip("host does not implement contentgen.MediaStorer")
		}
		if d, ok := f.h.(contentgen.Describer); ok && d.Capabilities().MediaRecordsOnly {
			t.Skip("host keeps no media files as it is set up (Capabilities.MediaRecordsOnly)")
		}
		return st
	}
	png := func() []byte {
		return append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{1, 2, 3, 4}, 64)...)
	}
	return []test{
		{"RoundTrip", func(t *testing.T, f *fixture) {
			st := storer(t, f)
			data := png()
			in := f.media("Stored", "image/png")
			in.URL, in.Filesize = "", 0
			id, err := st.StoreMedia(f.ctx, in, data)
			require.NoError(t, err)
			require.Positive(t, id)
			want := bytes.Clone(data)
			data[0] = 'X' // the host keeps its own copy

			got := f.getMedia(t, id)
			require.NotEmpty(t, got.URL, "StoreMedia sets the URL")
			require.Equal(t, int64(len(want)), got.Filesize, "StoreMedia sets the file size")
			require.Equal(t, in.Title, got.Title)
			requireSubset(t, in.Meta, got.Meta)

			stored, mimeType, err := st.MediaBytes(f.ctx, id)
			require.NoError(t, err)
			require.Equal(t, want, stored)
			require.Equal(t, "image/png", mimeType)
			stored[0] = 'Y'
			again, _, err := st.MediaBytes(f.ctx, id)
			require.NoError(t, err)
			require.Equal(t, want, again, "MediaBytes returns a copy")
		}},
		{"SameFilenameGetsItsOwnURL", func(t *testing.T, f *fixture) {
			st := storer(t, f)
			in := f.media("Twin", "image/png")
			a, err := st.StoreMedia(f.ctx, in, png())
			require.NoError(t, err)
			b, err := st.StoreMedia(f.ctx, in, []byte("other bytes"))
			require.NoError(t, err)
			require.NotEqual(t, a, b)
			require.NotEqual(t, f.getMedia(t, a).URL, f.getMedia(t, b).URL)
			first, _, err := st.MediaBytes(f.ctx, a)
			require.NoError(t, err)
			require.Equal(t, png(), first)
		}},
		{"NotFound", func(t *testing.T, f *fixture) {
			st := storer(t, f)
			_, _, err := st.MediaBytes(f.ctx, f.removedID(t, contentgen.KindMedia))
			require.ErrorIs(t, err, contentgen.ErrHostNotFound)
			id, err := st.StoreMedia(f.ctx, f.media("Deleted", "image/png"), png())
			require.NoError(t, err)
			require.NoError(t, f.h.DeleteMedia(f.ctx, []int64{id}))
			_, _, err = st.MediaBytes(f.ctx, id)
			require.ErrorIs(t, err, contentgen.ErrHostNotFound, "DeleteMedia removes the stored bytes")
		}},
	}
}

func postDeleterTests() []test {
	return []test{
		{"DeletePostsWithComments", func(t *testing.T, f *fixture) {
			pd, ok := f.h.(contentgen.PostDeleter)
			if !ok {
				t.Skip("host does not implement contentgen.PostDeleter")
			}
			ids := f.createPosts(t, f.post("Deleted"), f.post("Kept"), f.post("Also deleted"))
			c1 := f.createComment(t, ids[0], 0, "On a deleted post")
			reply := f.createComment(t, ids[0], c1, "A reply")
			kept := f.createComment(t, ids[1], 0, "On a kept post")
			c3 := f.createComment(t, ids[2], 0, "On the other deleted post")

			got, err := pd.DeletePostsWithComments(f.ctx, []int64{ids[2], ids[0], f.removedID(t, contentgen.KindPost)})
			require.NoError(t, err)
			require.Equal(t, []int64{c1, reply, c3}, got, "the comments removed, ascending")
			for _, id := range []int64{ids[0], ids[2]} {
				require.False(t, f.exists(t, contentgen.KindPost, id))
			}
			for _, id := range got {
				require.False(t, f.exists(t, contentgen.KindComment, id))
				_, err := f.h.Meta(f.ctx, contentgen.KindComment, id)
				require.ErrorIs(t, err, contentgen.ErrHostNotFound, "the comments' meta goes with them")
			}
			require.True(t, f.exists(t, contentgen.KindPost, ids[1]))
			require.True(t, f.exists(t, contentgen.KindComment, kept))

			got, err = pd.DeletePostsWithComments(f.ctx, []int64{ids[0]})
			require.NoError(t, err)
			require.Empty(t, got, "posts already gone remove nothing")
			got, err = pd.DeletePostsWithComments(f.ctx, nil)
			require.NoError(t, err)
			require.Empty(t, got)
		}},
	}
}
