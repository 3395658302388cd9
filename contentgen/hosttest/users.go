package hosttest

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

func userTests() []test {
	return []test{
		{"RoundTrip", func(t *testing.T, f *fixture) {
			in := f.user()
			in.FirstName, in.LastName = "Ada", "Lovelace"
			in.Description = "Writes about engines."
			in.URL = "https://ada.hosttest.example"
			in.Meta["nickname"] = "ada"
			batch := []contentgen.User{in, f.user()}
			snapshot := slices.Clone(batch)
			ids, err := f.h.CreateUsers(f.ctx, batch)
			require.NoError(t, err)
			require.Equal(t, snapshot, batch, "CreateUsers must not modify its input")
			require.Len(t, ids, 2)
			requireDistinctPositive(t, ids)
			got := f.getUser(t, ids[0])
			require.Equal(t, in.Login, got.Login)
			require.Equal(t, in.Email, got.Email)
			require.Equal(t, in.DisplayName, got.DisplayName)
			require.Equal(t, in.FirstName, got.FirstName)
			require.Equal(t, in.LastName, got.LastName)
			require.Equal(t, in.Description, got.Description)
			require.Equal(t, in.URL, got.URL)
			require.ElementsMatch(t, in.Roles, got.Roles)
			require.True(t, in.Registered.Equal(got.Registered), "registered %v, want %v", got.Registered, in.Registered)
			requireSubset(t, in.Meta, got.Meta)
		}},
		{"Conflicts", func(t *testing.T, f *fixture) {
			existing := f.user()
			_, err := f.h.CreateUsers(f.ctx, []contentgen.User{existing})
			require.NoError(t, err)

			sameLogin := f.user()
			sameLogin.Login = existing.Login
			sameEmail := f.user()
			sameEmail.Email = strings.ToUpper(existing.Email)
			twin := f.user()
			twinLogin := twin
			twinLogin.Email = "other-" + twin.Email
			twinEmail := f.user()
			twinEmail.Email = twin.Email

			cases := []struct {
				name  string
				batch []contentgen.User
			}{
				{"login of a stored user", []contentgen.User{f.user(), sameLogin}},
				{"e-mail of a stored user, other case", []contentgen.User{f.user(), sameEmail}},
				{"login twice in the batch", []contentgen.User{twin, twinLogin}},
				{"e-mail twice in the batch", []contentgen.User{twin, twinEmail}},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					_, err := f.h.CreateUsers(f.ctx, tc.batch)
					require.ErrorIs(t, err, contentgen.ErrHostConflict)
					got, err := f.h.Users(f.ctx, contentgen.UserQuery{Login: tc.batch[0].Login})
					require.NoError(t, err)
					require.Empty(t, got, "no user of a failed batch may be stored")
				})
			}
			require.Len(t, f.users(t, contentgen.UserQuery{}), 1)
		}},
		{"QueryFilters", func(t *testing.T, f *fixture) {
			a, b, c := f.user(), f.user(), f.user()
			a.DisplayName = "Grace Hopper"
			b.Email = "Mixed.Case." + b.Email
			c.Meta["team"] = "blue"
			ids, err := f.h.CreateUsers(f.ctx, []contentgen.User{a, b, c})
			require.NoError(t, err)
			cases := []struct {
				name string
				q    contentgen.UserQuery
				want []int64
			}{
				{"no filter", contentgen.UserQuery{}, ids},
				{"login", contentgen.UserQuery{Login: a.Login}, ids[:1]},
				{"login matches exactly", contentgen.UserQuery{Login: a.Login[:len(a.Login)-1]}, nil},
				{"e-mail ignores case", contentgen.UserQuery{Email: strings.ToUpper(b.Email)}, ids[1:2]},
				{"search display name", contentgen.UserQuery{Search: "hopper"}, ids[:1]},
				{"search login", contentgen.UserQuery{Search: strings.ToUpper(c.Login)}, ids[2:]},
				{"search e-mail", contentgen.UserQuery{Search: "mixed.case"}, ids[1:2]},
				{"ids", contentgen.UserQuery{IDs: contentgen.OnlyIDs(ids[2], ids[0])}, []int64{ids[0], ids[2]}},
				{"unknown role", contentgen.UserQuery{Roles: []string{"hosttest_no_such_role"}}, nil},
				{"limit and offset", contentgen.UserQuery{Limit: 1, Offset: 1}, sorted(ids)[1:2]},
			}
			if f.role != "" {
				cases = append(cases, struct {
					name string
					q    contentgen.UserQuery
					want []int64
				}{"role", contentgen.UserQuery{Roles: []string{"hosttest_no_such_role", f.role}}, ids})
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					require.Equal(t, idsOrEmpty(sorted(tc.want)), userIDs(f.users(t, tc.q)))
				})
			}
			t.Run("meta value", func(t *testing.T) {
				got, err := f.h.Users(f.ctx, contentgen.UserQuery{IDs: contentgen.OnlyIDs(ids...), MetaKey: "team", MetaValue: "blue"})
				require.NoError(t, err)
				require.Equal(t, ids[2:], userIDs(got))
			})
		}},
		{"ResultsAreCopies", func(t *testing.T, f *fixture) {
			id := f.createUsers(t, 1)[0]
			got := f.getUser(t, id)
			wantMeta, wantRoles := maps.Clone(got.Meta), slices.Clone(got.Roles)
			got.Meta[TagKey] = "changed"
			if len(got.Roles) > 0 {
				got.Roles[0] = "changed"
			}
			again := f.getUser(t, id)
			require.Equal(t, wantMeta, again.Meta)
			require.Equal(t, wantRoles, again.Roles)
		}},
		{"DeleteReassignsPosts", func(t *testing.T, f *fixture) {
			users := f.createUsers(t, 2)
			gone, heir := users[0], users[1]
			p := f.post("Inherited")
			p.AuthorID = gone
			posts := f.createPosts(t, p, p)
			require.NoError(t, f.h.DeleteUsers(f.ctx, []int64{gone}, heir))
			require.False(t, f.exists(t, contentgen.KindUser, gone))
			f.requireMetaGone(t, contentgen.KindUser, gone)
			for _, id := range posts {
				require.Equal(t, heir, f.getPost(t, id).AuthorID)
			}
			require.Len(t, f.posts(t, contentgen.PostQuery{AuthorID: heir}), 2)
		}},
		{"DeleteWithoutHeirRemovesPosts", func(t *testing.T, f *fixture) {
			users := f.createUsers(t, 2)
			gone, other := users[0], users[1]
			mine, theirs := f.post("Mine"), f.post("Theirs")
			mine.AuthorID, theirs.AuthorID = gone, other
			ids := f.createPosts(t, mine, theirs)
			comment := f.createComment(t, ids[0], 0, "On a post that goes")
			require.NoError(t, f.h.DeleteUsers(f.ctx, []int64{gone}, 0))
			require.False(t, f.exists(t, contentgen.KindUser, gone))
			require.False(t, f.exists(t, contentgen.KindPost, ids[0]))
			require.False(t, f.exists(t, contentgen.KindComment, comment), "posts removed with their author lose their comments")
			require.True(t, f.exists(t, contentgen.KindPost, ids[1]))
			require.True(t, f.exists(t, contentgen.KindUser, other))
		}},
		{"DeleteIgnoresUnknownIDs", func(t *testing.T, f *fixture) {
			keep := f.createUsers(t, 1)[0]
			gone := f.removedID(t, contentgen.KindUser)
			require.NoError(t, f.h.DeleteUsers(f.ctx, []int64{gone}, 0))
			require.NoError(t, f.h.DeleteUsers(f.ctx, nil, 0))
			require.True(t, f.exists(t, contentgen.KindUser, keep))
		}},
	}
}
