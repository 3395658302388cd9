package sqlstore_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// TestGenerateWhileDeleting runs, on two DBs of one database (two
// servers), generators of posts with authors, terms and comments while
// others delete the generated users and the generated posts with what
// came with them: no request fails. Deadlocks between them are avoided
// by the order in which rows are locked, and retried where the engine
// still reports one; a reference deleted meanwhile is the Generator's to
// plan around, not an error.
func TestGenerateWhileDeleting(t *testing.T) {
	for _, e := range engines() {
		if e.name == "SQLite" {
			continue // one writer at a time: nothing to race
		}
		t.Run(e.name, func(t *testing.T) {
			dsn, opts := e.fresh(t)
			ctx := t.Context()
			dbs := []*sqlstore.DB{openAt(t, dsn, opts), openAt(t, dsn, opts)}
			h := dbs[0].Host(nil)
			require.NoError(t, h.RegisterPostType(ctx, contentgen.PostType{
				Name: "post", Label: "Posts", Public: true, Supports: []string{"title", "editor", "comments", "author"},
				Taxonomies: []string{"category", "post_tag"},
			}))
			require.NoError(t, h.RegisterTaxonomy(ctx, contentgen.Taxonomy{Name: "category", Hierarchical: true, Public: true, PostTypes: []string{"post"}}))
			require.NoError(t, h.RegisterTaxonomy(ctx, contentgen.Taxonomy{Name: "post_tag", Public: true, PostTypes: []string{"post"}}))
			require.NoError(t, h.RegisterRole(ctx, contentgen.Role{Slug: "administrator", Capabilities: []string{contentgen.ManageOptions}}))
			require.NoError(t, h.RegisterRole(ctx, contentgen.Role{Slug: "author", Capabilities: []string{"edit_posts", "publish_posts"}}))
			_, err := h.CreateUsers(ctx, []contentgen.User{{Login: "admin", Email: "admin@example.com", Roles: []string{"administrator"}}})
			require.NoError(t, err)

			// Six generators, with seeds of their own, on the two DBs.
			gens := make([]*contentgen.Generator, 6)
			for i := range gens {
				seed := int64(i + 1)
				db := dbs[i%len(dbs)]
				gens[i], err = contentgen.New(db.Host(nil), nil, &contentgen.Config{Seed: &seed, BatchSize: 4})
				require.NoError(t, err)
			}
			const rounds = 25
			var wg sync.WaitGroup
			var mu sync.Mutex
			var failures []string
			report := func(what string, err error) {
				if err != nil {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%s: %v", what, err))
					mu.Unlock()
				}
			}
			for i := range 4 {
				g := gens[i]
				wg.Go(func() {
					for r := range rounds {
						_, err := g.GeneratePosts(ctx, contentgen.PostsRequest{
							Count: new(8), SetFeaturedImage: new(false), AutoComments: true,
						})
						report(fmt.Sprintf("generator %d round %d", i, r), err)
					}
				})
			}
			wg.Go(func() {
				for r := range rounds * 2 {
					_, err := gens[4].Delete(ctx, contentgen.KindUser, contentgen.IDFilter{}, true)
					report(fmt.Sprintf("deleting users, round %d", r), err)
				}
			})
			wg.Go(func() {
				for r := range rounds * 2 {
					_, err := gens[5].DeletePosts(ctx, contentgen.DeletePostsRequest{
						PostType: "post", DeleteRelatedAuthors: new(true), DeleteRelatedComments: new(true), DeleteRelatedTerms: new(true),
					})
					report(fmt.Sprintf("deleting posts, round %d", r), err)
				}
			})
			wg.Wait()
			require.Empty(t, failures)
		})
	}
}
