package hosttest

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

func metaTests() []test {
	return []test{
		{"NotFound", func(t *testing.T, f *fixture) {
			for _, kind := range kinds() {
				t.Run(string(kind), func(t *testing.T) {
					id := f.removedID(t, kind)
					_, err := f.h.Meta(f.ctx, kind, id)
					require.ErrorIs(t, err, contentgen.ErrHostNotFound)
					err = f.h.SetMeta(f.ctx, kind, id, contentgen.Meta{"k": "v"})
					require.ErrorIs(t, err, contentgen.ErrHostNotFound)
				})
			}
		}},
		{"SetMetaMergesAndMetaCopies", func(t *testing.T, f *fixture) {
			for _, kind := range kinds() {
				t.Run(string(kind), func(t *testing.T) {
					id := f.object(t, kind)
					require.NoError(t, f.h.SetMeta(f.ctx, kind, id, contentgen.Meta{"a": "1", "b": "2"}))
					in := contentgen.Meta{"b": "3", "c": "4"}
					require.NoError(t, f.h.SetMeta(f.ctx, kind, id, in))
					in["c"] = "changed after the call"
					got, err := f.h.Meta(f.ctx, kind, id)
					require.NoError(t, err)
					requireSubset(t, contentgen.Meta{TagKey: f.tag, "a": "1", "b": "3", "c": "4"}, got)
					want := maps.Clone(got)
					got["a"] = "changed"
					got["added"] = "x"
					again, err := f.h.Meta(f.ctx, kind, id)
					require.NoError(t, err)
					require.Equal(t, want, again, "Meta must return a copy")
					require.NoError(t, f.h.SetMeta(f.ctx, kind, id, nil), "setting no keys succeeds")
				})
			}
		}},
		{"PostMetaFollowsTheObject", func(t *testing.T, f *fixture) {
			id := f.createPost(t, "Meta")
			require.NoError(t, f.h.SetMeta(f.ctx, contentgen.KindPost, id, contentgen.Meta{"seen": "yes"}))
			require.Equal(t, "yes", f.getPost(t, id).Meta["seen"], "Posts reports the meta set by SetMeta")
			got, err := f.h.Posts(f.ctx, contentgen.PostQuery{MetaKey: "seen", MetaValue: "yes"})
			require.NoError(t, err)
			require.Equal(t, []int64{id}, postIDs(got))
		}},
	}
}

func cancelTests() []test {
	return []test{
		{"WritesReturnTheErrorAndWriteNothing", func(t *testing.T, f *fixture) {
			post := f.createPost(t, "Existing")
			user := f.createUsers(t, 1)[0]
			comment := f.createComment(t, post, 0, "Existing")
			media := f.createMedia(t, "Existing", "image/png")
			var term int64
			if f.hier != nil {
				term = f.createTerm(t, f.hier, "Existing", 0)
			}
			ctx, cancel := context.WithCancel(f.ctx)
			cancel()
			calls := map[string]func() error{
				"CreatePosts": func() error { _, err := f.h.CreatePosts(ctx, []contentgen.Post{f.post("Cancelled")}); return err },
				"CreateUsers": func() error { _, err := f.h.CreateUsers(ctx, []contentgen.User{f.user()}); return err },
				"CreateComments": func() error {
					_, err := f.h.CreateComments(ctx, []contentgen.Comment{f.comment(post, 0, "Cancelled")})
					return err
				},
				"CreateMedia": func() error {
					_, err := f.h.CreateMedia(ctx, []contentgen.Media{f.media("Cancelled", "image/png")})
					return err
				},
				"SetMeta":        func() error { return f.h.SetMeta(ctx, contentgen.KindPost, post, contentgen.Meta{"cancelled": "1"}) },
				"DeleteComments": func() error { return f.h.DeleteComments(ctx, []int64{comment}) },
				"DeletePosts":    func() error { return f.h.DeletePosts(ctx, []int64{post}) },
				"DeleteUsers":    func() error { return f.h.DeleteUsers(ctx, []int64{user}, 0) },
				"DeleteMedia":    func() error { return f.h.DeleteMedia(ctx, []int64{media}) },
			}
			if term != 0 {
				calls["CreateTerms"] = func() error {
					_, err := f.h.CreateTerms(ctx, []contentgen.Term{f.term(f.hier, "Cancelled", 0)})
					return err
				}
				calls["DeleteTerms"] = func() error { return f.h.DeleteTerms(ctx, []int64{term}) }
			}
			if tr, ok := f.h.(contentgen.Trasher); ok {
				calls["TrashPosts"] = func() error { return tr.TrashPosts(ctx, []int64{post}) }
				calls["TrashComments"] = func() error { return tr.TrashComments(ctx, []int64{comment}) }
			}
			if st, ok := f.h.(contentgen.MediaStorer); ok {
				calls["StoreMedia"] = func() error {
					_, err := st.StoreMedia(ctx, f.media("Cancelled", "image/png"), []byte("data"))
					return err
				}
			}
			if tx, ok := f.h.(contentgen.Transactor); ok {
				calls["InTx"] = func() error {
					return tx.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
						_, err := tx.CreatePosts(ctx, []contentgen.Post{f.post("Cancelled")})
						return err
					})
				}
			}
			for name, call := range calls {
				require.ErrorIs(t, call(), context.Canceled, name)
			}
			require.Equal(t, []int64{post}, postIDs(f.posts(t, contentgen.PostQuery{})))
			require.Equal(t, []int64{user}, userIDs(f.users(t, contentgen.UserQuery{})))
			require.Equal(t, []int64{comment}, commentIDs(f.comments(t, contentgen.CommentQuery{})))
			require.Equal(t, []int64{media}, mediaIDs(f.mediaItems(t, contentgen.MediaQuery{})))
			if term != 0 {
				require.Equal(t, []int64{term}, termIDs(f.terms(t, contentgen.TermQuery{})))
			}
			got := f.getPost(t, post)
			require.NotContains(t, got.Meta, "cancelled")
			require.Equal(t, contentgen.StatusDraft, got.Status)
			require.Equal(t, contentgen.CommentApproved, f.getComment(t, comment).Status)
		}},
		{"ReadsReturnTheError", func(t *testing.T, f *fixture) {
			post := f.createPost(t, "Existing")
			ctx, cancel := context.WithCancel(f.ctx)
			cancel()
			calls := map[string]func() error{
				"Site":       func() error { _, err := f.h.Site(ctx); return err },
				"PostTypes":  func() error { _, err := f.h.PostTypes(ctx); return err },
				"Taxonomies": func() error { _, err := f.h.Taxonomies(ctx); return err },
				"Roles":      func() error { _, err := f.h.Roles(ctx); return err },
				"Posts":      func() error { _, err := f.h.Posts(ctx, contentgen.PostQuery{}); return err },
				"Terms":      func() error { _, err := f.h.Terms(ctx, contentgen.TermQuery{}); return err },
				"Users":      func() error { _, err := f.h.Users(ctx, contentgen.UserQuery{}); return err },
				"Comments":   func() error { _, err := f.h.Comments(ctx, contentgen.CommentQuery{}); return err },
				"Media":      func() error { _, err := f.h.Media(ctx, contentgen.MediaQuery{}); return err },
				"Meta":       func() error { _, err := f.h.Meta(ctx, contentgen.KindPost, post); return err },
			}
			if ex, ok := f.h.(contentgen.Exister); ok {
				calls["Exist"] = func() error { _, err := ex.Exist(ctx, contentgen.KindPost, []int64{post}); return err }
			}
			for name, call := range calls {
				require.ErrorIs(t, call(), context.Canceled, name)
			}
		}},
	}
}

func concurrencyTests() []test {
	return []test{
		{"ParallelWritesAndReads", func(t *testing.T, f *fixture) {
			const workers, batches, size = 4, 5, 10
			// Build the input first: the fixture's helpers are not
			// goroutine-safe.
			posts := make([][]contentgen.Post, workers)
			users := make([][]contentgen.User, workers)
			for w := range workers {
				for i := range batches * size {
					posts[w] = append(posts[w], f.post(fmt.Sprintf("Worker %d post %d", w, i)))
				}
				for range batches {
					users[w] = append(users[w], f.user())
				}
			}
			var mu sync.Mutex
			var all []int64
			var errs []error
			report := func(ids []int64, err error) {
				mu.Lock()
				defer mu.Unlock()
				all = append(all, ids...)
				if err != nil {
					errs = append(errs, err)
				}
			}
			var wg sync.WaitGroup
			for w := range workers {
				wg.Go(func() {
					for b := range batches {
						ids, err := f.h.CreatePosts(f.ctx, posts[w][b*size:(b+1)*size])
						if err == nil && len(ids) != size {
							err = fmt.Errorf("CreatePosts returned %d ids for %d posts", len(ids), size)
						}
						report(ids, err)
						_, err = f.h.CreateUsers(f.ctx, users[w][b:b+1])
						report(nil, err)
					}
				})
				wg.Go(func() {
					for range batches {
						got, err := f.h.Posts(f.ctx, contentgen.PostQuery{MetaKey: TagKey, MetaValue: f.tag})
						if err == nil && len(got)%size != 0 {
							err = fmt.Errorf("a reader saw %d posts, part of a batch", len(got))
						}
						report(nil, err)
					}
				})
			}
			wg.Wait()
			require.Empty(t, errs)
			requireDistinctPositive(t, all)
			require.ElementsMatch(t, all, postIDs(f.posts(t, contentgen.PostQuery{})))
			require.Len(t, f.users(t, contentgen.UserQuery{}), workers*batches)
		}},
	}
}
