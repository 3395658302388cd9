package wprest

import (
	"context"
	"crypto/rand"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
)

type wireUser struct {
	ID          int64      `json:"id"`
	Username    string     `json:"username"`
	Email       string     `json:"email"`
	Name        string     `json:"name"`
	FirstName   string     `json:"first_name"`
	LastName    string     `json:"last_name"`
	Description string     `json:"description"`
	URL         string     `json:"url"`
	Roles       []string   `json:"roles"`
	Registered  string     `json:"registered_date"`
	Extra       *wireExtra `json:"contentgen"`
}

// randomPassword returns a password of 24 random letters and digits; it
// is sent once to WordPress and never kept or logged.
func randomPassword() string {
	return rand.Text()[:24]
}

// CreateUsers creates users with random passwords (the users endpoint
// allows no batch: requests run concurrently), then writes their meta and
// registration dates in one plugin call. Logins and e-mail addresses that
// clash with each other or with stored users fail with an error wrapping
// contentgen.ErrHostConflict. On failure it deletes what it created.
// Without the plugin, registration dates are WordPress's (now).
func (h *Host) CreateUsers(ctx context.Context, users []contentgen.User) ([]int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(users) == 0 {
		return []int64{}, nil
	}
	logins, emails := map[string]int{}, map[string]int{}
	needPlugin := false
	for i, u := range users {
		param := "users[" + strconv.Itoa(i) + "]"
		if u.Login == "" {
			return nil, invalid(param+".Login", "the login is required")
		}
		if u.Email == "" {
			return nil, invalid(param+".Email", "the e-mail address is required")
		}
		l, e := strings.ToLower(u.Login), strings.ToLower(u.Email)
		if j, ok := logins[l]; ok {
			return nil, fmt.Errorf("wprest: %s.Login %q repeats users[%d]: %w", param, u.Login, j, contentgen.ErrHostConflict)
		}
		if j, ok := emails[e]; ok {
			return nil, fmt.Errorf("wprest: %s.Email %q repeats users[%d]: %w", param, u.Email, j, contentgen.ErrHostConflict)
		}
		logins[l], emails[e] = i, i
		if len(u.Meta) > 0 {
			needPlugin = true
		}
	}
	hasPlugin, err := h.HasPlugin(ctx)
	if err != nil {
		return nil, err
	}
	if needPlugin && !hasPlugin {
		return nil, fmt.Errorf("CreateUsers with meta needs the companion plugin: %w", ErrPluginMissing)
	}
	ids := make([]int64, len(users))
	err = parallelAll(ctx, len(users), func(ctx context.Context, i int) error {
		u := users[i]
		b := map[string]any{
			"username": u.Login, "email": u.Email, "password": randomPassword(),
			"first_name": u.FirstName, "last_name": u.LastName, "description": u.Description, "url": u.URL,
		}
		if u.DisplayName != "" {
			b["name"] = u.DisplayName
		}
		if len(u.Roles) > 0 {
			b["roles"] = slices.Clone(u.Roles)
		}
		var out struct {
			ID int64 `json:"id"`
		}
		req := &request{method: http.MethodPost, path: "/wp/v2/users", query: url.Values{"_fields": {"id"}}, body: b}
		if _, err := h.c.do(ctx, req, &out); err != nil {
			return err
		}
		ids[i] = out.ID
		return nil
	})
	if err == nil && hasPlugin {
		var items []writeItem
		for i, u := range users {
			it := writeItem{ID: ids[i], Meta: maps.Clone(u.Meta)}
			if !u.Registered.IsZero() {
				it.Registered = formatDBDate(u.Registered)
			}
			if len(it.Meta) > 0 || it.Registered != "" {
				items = append(items, it)
			}
		}
		err = h.write(ctx, contentgen.KindUser, items)
	}
	if err != nil {
		h.undo(ctx, "users", func(ctx context.Context) error { return h.deleteUsers(ctx, ids, 0) })
		return nil, fmt.Errorf("wprest: CreateUsers: %w", err)
	}
	return ids, nil
}

// Users returns the users matching q, ordered by id. Login, Email and
// Search are sent to WordPress's search and then matched exactly as
// contentgen.UserQuery says.
func (h *Host) Users(ctx context.Context, q contentgen.UserQuery) ([]contentgen.User, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ids, none, err := h.idRestriction(ctx, contentgen.KindUser, q.IDs, q.MetaKey, q.MetaValue)
	if err != nil || none {
		return []contentgen.User{}, err
	}
	base := url.Values{
		"context": {"edit"}, "orderby": {"id"}, "order": {"asc"},
		"_fields": {"id,username,email,name,first_name,last_name,description,url,roles,registered_date,contentgen"},
	}
	if len(q.Roles) > 0 {
		base.Set("roles", joinStrings(q.Roles))
	}
	switch {
	case q.Login != "":
		base.Set("search", q.Login)
	case q.Email != "":
		base.Set("search", q.Email)
	case q.Search != "":
		base.Set("search", q.Search)
	}
	chunks := includeChunks(ids)
	results := make([][]wireUser, len(chunks))
	limit := want(q.Offset, q.Limit)
	if q.Login != "" || q.Email != "" || q.Search != "" {
		limit = 0 // matched again below
	}
	err = parallel(ctx, len(chunks), func(ctx context.Context, i int) error {
		v := cloneValues(base)
		if chunks[i] != "" {
			v.Set("include", chunks[i])
		}
		var err error
		results[i], err = listAll[wireUser](ctx, h.c, "/wp/v2/users", v, limit)
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []contentgen.User
	for _, res := range results {
		for _, w := range res {
			u := contentgen.User{
				ID: w.ID, Login: w.Username, Email: w.Email, DisplayName: w.Name, FirstName: w.FirstName,
				LastName: w.LastName, Description: w.Description, URL: w.URL, Roles: slices.Clone(w.Roles),
				Registered: parseDate(w.Registered), Meta: w.Extra.meta(),
			}
			if u.Roles == nil {
				u.Roles = []string{}
			}
			if q.Login != "" && u.Login != q.Login {
				continue
			}
			if q.Email != "" && !strings.EqualFold(u.Email, q.Email) {
				continue
			}
			if q.Search != "" && !containsFold(u.Login, q.Search) && !containsFold(u.DisplayName, q.Search) && !containsFold(u.Email, q.Search) {
				continue
			}
			out = append(out, u)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return page(out, q.Offset, q.Limit), nil
}

// DeleteUsers removes users (force=true): their posts go to reassignTo
// when it is not zero, and are removed otherwise. The users endpoint
// allows no batch: requests run concurrently.
func (h *Host) DeleteUsers(ctx context.Context, ids []int64, reassignTo int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if reassignTo != 0 && slices.Contains(ids, reassignTo) {
		return invalid("reassignTo", "the heir must not be among the removed users")
	}
	return h.deleteUsers(ctx, ids, reassignTo)
}

func (h *Host) deleteUsers(ctx context.Context, ids []int64, reassignTo int64) error {
	ids = distinctSorted(ids)
	if len(ids) == 0 {
		return nil
	}
	if reassignTo == 0 {
		// WordPress would move the posts of some types to the trash:
		// remove them for good first.
		var posts []int64
		for _, id := range ids {
			ps, err := h.Posts(ctx, contentgen.PostQuery{AuthorID: id})
			if err != nil {
				return err
			}
			for _, p := range ps {
				posts = append(posts, p.ID)
			}
		}
		if err := h.deletePosts(ctx, posts, true); err != nil {
			return err
		}
	}
	q := url.Values{"force": {"true"}, "reassign": {""}}
	if reassignTo != 0 {
		q.Set("reassign", strconv.FormatInt(reassignTo, 10))
	}
	return h.deleteMany(ctx, "/wp/v2/users", ids, q, false)
}
