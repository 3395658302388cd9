package memhost

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
)

// CreateUsers stores users (ID ignored) and returns their ids in input
// order. Login must be non-empty; logins (exactly) and non-empty e-mail
// addresses (ignoring case) must be unique among stored users and within
// the batch, else the batch fails with an error wrapping
// contentgen.ErrHostConflict. Roles must be registered (ErrInvalid). An empty
// DisplayName becomes the login and a zero Registered the current time.
func (h *Host) CreateUsers(ctx context.Context, users []contentgen.User) ([]int64, error) {
	var ids []int64
	err := h.write(ctx, func(st *state) error {
		rows := make([]*contentgen.User, len(users))
		logins := map[string]bool{}
		emails := map[string]bool{}
		for i := range users {
			u, err := h.newUser(st, &users[i])
			if err != nil {
				return err
			}
			if _, ok := st.logins[u.Login]; ok || logins[u.Login] {
				return fmt.Errorf("%w: login %q is already taken", contentgen.ErrHostConflict, u.Login)
			}
			logins[u.Login] = true
			if u.Email != "" {
				email := strings.ToLower(u.Email)
				if _, ok := st.emails[email]; ok || emails[email] {
					return fmt.Errorf("%w: e-mail address %q is already taken", contentgen.ErrHostConflict, u.Email)
				}
				emails[email] = true
			}
			rows[i] = u
		}
		ids = make([]int64, len(rows))
		for i, u := range rows {
			st.seq.user++
			u.ID = st.seq.user
			ids[i] = u.ID
			st.users.insert(u.ID, u)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// newUser validates in and returns the row to store.
func (h *Host) newUser(st *state, in *contentgen.User) (*contentgen.User, error) {
	if strings.TrimSpace(in.Login) == "" {
		return nil, invalidf("user login must not be empty")
	}
	for _, r := range in.Roles {
		if !st.hasRole(r) {
			return nil, invalidf("unknown role %q", r)
		}
	}
	u := *in
	u.ID = 0
	u.Roles = slices.Compact(slices.Clone(in.Roles))
	if u.DisplayName == "" {
		u.DisplayName = u.Login
	}
	u.Registered = h.timestamp(u.Registered)
	u.Meta = storedMeta(in.Meta)
	return &u, nil
}

// Users returns copies of the users matching q, ordered by id. Roles keeps
// users holding any of the roles; Search matches login, display name or
// e-mail ignoring case; MetaKey without MetaValue keeps users that have
// the key.
func (h *Host) Users(ctx context.Context, q contentgen.UserQuery) ([]contentgen.User, error) {
	var out []contentgen.User
	search := strings.ToLower(q.Search)
	err := h.read(ctx, func(st *state) error {
		out = find(st.users, q.IDs, func(u *contentgen.User) bool {
			return (len(q.Roles) == 0 || slices.ContainsFunc(u.Roles, func(r string) bool { return slices.Contains(q.Roles, r) })) &&
				(q.Login == "" || u.Login == q.Login) &&
				(q.Email == "" || strings.EqualFold(u.Email, q.Email)) &&
				(search == "" || contains(u.Login, search) || contains(u.DisplayName, search) || contains(u.Email, search)) &&
				metaMatch(u.Meta, q.MetaKey, q.MetaValue)
		}, q.Limit, q.Offset, func(u *contentgen.User) contentgen.User { return *cloneUser(u) })
		return nil
	})
	return out, err
}

// DeleteUsers removes users. Their posts go to reassignTo when it is
// non-zero and are removed (with their comments) otherwise; their comments
// stay, as anonymous comments keeping the author name and e-mail.
// reassignTo must name a user that is not being removed (else an error
// wrapping contentgen.ErrHostNotFound or ErrInvalid). Unknown ids are
// ignored.
func (h *Host) DeleteUsers(ctx context.Context, ids []int64, reassignTo int64) error {
	return h.write(ctx, func(st *state) error {
		gone := map[int64]bool{}
		for _, id := range ids {
			if st.users.has(id) {
				gone[id] = true
			}
		}
		if reassignTo != 0 {
			if !st.users.has(reassignTo) {
				return notFound(contentgen.KindUser, reassignTo)
			}
			if gone[reassignTo] {
				return invalidf("cannot reassign posts to user %d, which is being removed", reassignTo)
			}
		}
		if len(gone) == 0 {
			return nil
		}
		var orphans []int64
		for _, id := range st.posts.order {
			if p := st.posts.get(id); p != nil && gone[p.AuthorID] {
				if reassignTo != 0 {
					st.posts.update(id, func(p *contentgen.Post) { p.AuthorID = reassignTo })
				} else {
					orphans = append(orphans, id)
				}
			}
		}
		st.deletePosts(orphans)
		for _, id := range st.comments.order {
			if c := st.comments.get(id); c != nil && gone[c.UserID] {
				st.comments.update(id, func(c *contentgen.Comment) { c.UserID = 0 })
			}
		}
		for id := range gone {
			st.users.remove(id)
		}
		return nil
	})
}
