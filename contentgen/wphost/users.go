package wphost

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// maxNicenameBytes is the length of user_nicename WordPress keeps.
const maxNicenameBytes = 50

// CreateUsers stores users as wp_insert_user does: a row with a unique
// user_nicename, a phpass hash of a random password (nobody can log in
// until the password is reset), the registration date in GMT, and the
// user meta WordPress writes (nickname, names, description, editor
// settings, {prefix}capabilities and {prefix}user_level for the roles).
// Logins and e-mail addresses must be unused: a clash fails the batch
// with an error wrapping contentgen.ErrHostConflict.
func (h *Host) CreateUsers(ctx context.Context, users []contentgen.User) ([]int64, error) {
	if len(users) == 0 {
		return []int64{}, ctx.Err()
	}
	var ids []int64
	err := h.write(ctx, "creating users", func(ctx context.Context, q sqlstore.Querier) error {
		t := h.s.t
		roles, err := h.roles(ctx, q)
		if err != nil {
			return err
		}
		levels := map[string]int{}
		for _, r := range roles {
			levels[r.slug] = r.level
		}
		logins := map[string]bool{}
		emails := map[string]bool{}
		for i := range users {
			u := &users[i]
			if strings.TrimSpace(u.Login) == "" {
				return invalidf("user login must not be empty")
			}
			if len(u.Login) > 60 {
				return invalidf("user login %q is longer than 60 bytes", u.Login)
			}
			for _, r := range u.Roles {
				if _, ok := levels[r]; !ok {
					return invalidf("unknown role %q", r)
				}
			}
			l, e := strings.ToLower(u.Login), strings.ToLower(u.Email)
			if logins[l] {
				return conflictf("login %q is used twice in the batch", u.Login)
			}
			if e != "" && emails[e] {
				return conflictf("e-mail address %q is used twice in the batch", u.Email)
			}
			logins[l] = true
			if e != "" {
				emails[e] = true
			}
		}
		if err := h.lockWrites(ctx, q); err != nil {
			return err
		}
		var clash string
		err = q.QueryEach(ctx, "SELECT user_login, user_email FROM "+t.users+" WHERE user_login IN ("+marks(len(logins))+") OR user_email IN ("+marks(len(emails))+") LIMIT 1",
			append(stringArgs(sortedKeys(logins)), stringArgs(sortedKeys(emails))...), func(r *sql.Rows) error {
				var l, e string
				if err := r.Scan(&l, &e); err != nil {
					return err
				}
				clash = l + " / " + e
				return nil
			})
		if err != nil {
			return err
		}
		if clash != "" {
			return conflictf("a user with the login or e-mail address of the batch exists (%s)", clash)
		}
		nicenames, err := h.nicenames(ctx, q, users)
		if err != nil {
			return err
		}
		now := h.s.o.Now()
		ids, err = h.insertIDs(ctx, q, t.users, []string{"user_login", "user_pass", "user_nicename", "user_email", "user_url", "user_registered", "user_activation_key", "user_status", "display_name"},
			len(users), func(i int) []any {
				u := &users[i]
				reg := u.Registered
				if reg.IsZero() {
					reg = now
				}
				dn := u.DisplayName
				if dn == "" {
					dn = u.Login
				}
				return []any{u.Login, randomPasswordHash(), nicenames[i], u.Email, u.URL, reg.UTC().Truncate(time.Second).Format(mysqlTime), "", 0, dn}
			})
		if err != nil {
			return err
		}
		var meta []metaRow
		for i := range users {
			u := &users[i]
			caps := phpArray{}
			level := 0
			for _, r := range u.Roles {
				caps = append(caps, phpEntry{r, true})
				level = max(level, levels[r])
			}
			capStr, err := phpSerialize(caps)
			if err != nil {
				return err
			}
			m := contentgen.Meta{
				"nickname": u.Login, "first_name": u.FirstName, "last_name": u.LastName, "description": u.Description,
				"rich_editing": "true", "syntax_highlighting": "true", "comment_shortcuts": "false", "admin_color": "fresh",
				"use_ssl": "0", "show_admin_bar_front": "true", "locale": "", "dismissed_wp_pointers": "",
			}
			fields := map[string]string{"first_name": u.FirstName, "last_name": u.LastName, "description": u.Description}
			for k, v := range u.Meta {
				if k == t.prefix+"capabilities" || k == t.prefix+"user_level" || fields[k] != "" {
					continue
				}
				m[k] = v
			}
			m[t.prefix+"capabilities"], m[t.prefix+"user_level"] = capStr, strconv.Itoa(level)
			meta = sortedMeta(meta, ids[i], m)
		}
		return insertMeta(ctx, q, t.usermeta, "user_id", meta)
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// nicenames returns a unique user_nicename per user: the login's slug cut
// to 50 bytes, numbered when taken, as wp_insert_user makes it.
func (h *Host) nicenames(ctx context.Context, q sqlstore.Querier, users []contentgen.User) ([]string, error) {
	bases := make([]string, len(users))
	uniq := map[string]bool{}
	for i := range users {
		b := truncateSlug(sanitizeTitle(users[i].Login), maxNicenameBytes)
		if b == "" {
			b = "user"
		}
		bases[i] = b
		uniq[b] = true
	}
	taken := map[string]bool{}
	scan := func(r *sql.Rows) error {
		var n string
		if err := r.Scan(&n); err != nil {
			return err
		}
		taken[strings.ToLower(n)] = true
		return nil
	}
	keys := sortedKeys(uniq)
	if err := q.QueryEach(ctx, "SELECT user_nicename FROM "+h.s.t.users+" WHERE user_nicename IN ("+marks(len(keys))+")", stringArgs(keys), scan); err != nil {
		return nil, err
	}
	for _, b := range keys {
		if taken[b] {
			if err := q.QueryEach(ctx, "SELECT user_nicename FROM "+h.s.t.users+" WHERE user_nicename LIKE ? ESCAPE '!'", []any{likePrefix(b) + "-%"}, scan); err != nil {
				return nil, err
			}
		}
	}
	out := make([]string, len(users))
	for i, b := range bases {
		n := b
		for k := 2; taken[n]; k++ {
			suffix := "-" + strconv.Itoa(k)
			n = truncateSlug(b, maxNicenameBytes-len(suffix)) + suffix
		}
		taken[n] = true
		out[i] = n
	}
	return out, nil
}

// Users returns the users matching uq, ordered by id; Roles are read from
// {prefix}capabilities.
func (h *Host) Users(ctx context.Context, uq contentgen.UserQuery) ([]contentgen.User, error) {
	t := h.s.t
	where := "1=1"
	var args []any
	if uq.IDs.Active() {
		ids := dedupe(uq.IDs.List())
		if len(ids) == 0 {
			return []contentgen.User{}, ctx.Err()
		}
		where += " AND u.ID IN (" + marks(len(ids)) + ")"
		args = append(args, int64Args(ids)...)
	}
	if uq.Login != "" {
		where += " AND u.user_login = ?"
		args = append(args, uq.Login)
	}
	if uq.Email != "" {
		where += " AND LOWER(u.user_email) = LOWER(?)"
		args = append(args, uq.Email)
	}
	if uq.Search != "" {
		where += " AND (u.user_login LIKE ? ESCAPE '!' OR u.display_name LIKE ? ESCAPE '!' OR u.user_email LIKE ? ESCAPE '!')"
		l := likeArg(uq.Search)
		args = append(args, l, l, l)
	}
	if len(uq.Roles) > 0 {
		var ors []string
		for _, r := range uq.Roles {
			ors = append(ors, "rm.meta_value LIKE ? ESCAPE '!'")
			s, _ := phpSerialize(r)
			args = append(args, likeArg(s+"b:1;"))
		}
		where += " AND EXISTS (SELECT 1 FROM " + t.usermeta + " rm WHERE rm.user_id = u.ID AND rm.meta_key = '" + t.prefix + "capabilities' AND (" + strings.Join(ors, " OR ") + "))"
	}
	if uq.MetaKey != "" {
		c, a := metaFilter(t.usermeta, "user_id", "u.ID", uq.MetaKey, uq.MetaValue)
		where += " AND " + c
		args = append(args, a...)
	}
	q := h.q(ctx)
	var out []contentgen.User
	query := "SELECT u.ID, u.user_login, u.user_email, u.display_name, u.user_url, u.user_registered FROM " + t.users + " u WHERE " + where +
		" ORDER BY u.ID" + limitClause(uq.Limit, uq.Offset)
	err := q.QueryEach(ctx, query, args, func(r *sql.Rows) error {
		var u contentgen.User
		if err := r.Scan(&u.ID, &u.Login, &u.Email, &u.DisplayName, &u.URL, &u.Registered); err != nil {
			return err
		}
		u.Registered = u.Registered.UTC()
		out = append(out, u)
		return nil
	})
	if err != nil {
		return nil, h.fail(ctx, "reading users", err)
	}
	if len(out) == 0 {
		return []contentgen.User{}, nil
	}
	ids := make([]int64, len(out))
	for i := range out {
		ids[i] = out[i].ID
	}
	all, err := h.loadMeta(ctx, q, contentgen.KindUser, ids, false)
	if err != nil {
		return nil, h.fail(ctx, "reading user meta", err)
	}
	for i := range out {
		u := &out[i]
		m := all[u.ID]
		u.FirstName, u.LastName, u.Description = m["first_name"], m["last_name"], m["description"]
		if v, err := phpUnserialize(m[t.prefix+"capabilities"]); err == nil {
			arr, _ := v.(phpArray)
			for _, e := range arr {
				if k, ok := e.Key.(string); ok && phpTruthy(e.Value) {
					u.Roles = append(u.Roles, k)
				}
			}
		}
		for k := range m {
			if h.hiddenMeta(contentgen.KindUser, k) {
				delete(m, k)
			}
		}
		u.Meta = m
	}
	return out, nil
}

// DeleteUsers removes users and their meta, as wp_delete_user does. Their
// posts (and media) go to reassignTo when it is non-zero, and are removed
// otherwise; their comments stay, as anonymous ones. reassignTo must
// exist and not be among ids.
func (h *Host) DeleteUsers(ctx context.Context, ids []int64, reassignTo int64) error {
	ids = dedupe(ids)
	if len(ids) == 0 {
		return ctx.Err()
	}
	for _, id := range ids {
		if id == reassignTo {
			return invalidf("cannot reassign posts to user %d, which is being removed", reassignTo)
		}
	}
	t := h.s.t
	return h.write(ctx, "deleting users", func(ctx context.Context, q sqlstore.Querier) error {
		in, args := marks(len(ids)), int64Args(ids)
		if reassignTo != 0 {
			if err := h.requireIDs(ctx, q, "user", "SELECT ID FROM "+t.users+" WHERE ID IN (%s) LOCK IN SHARE MODE", []int64{reassignTo}); err != nil {
				return err
			}
			if _, err := q.ExecContext(ctx, "UPDATE "+t.posts+" SET post_author = ? WHERE post_author IN ("+in+")", append([]any{reassignTo}, args...)...); err != nil {
				return err
			}
			if _, err := q.ExecContext(ctx, "UPDATE "+t.links+" SET link_owner = ? WHERE link_owner IN ("+in+")", append([]any{reassignTo}, args...)...); err != nil {
				return err
			}
		} else {
			posts, err := h.idSet(ctx, q, "SELECT ID FROM "+t.posts+" WHERE post_author IN ("+in+") AND post_type NOT IN ('attachment', 'revision')", args)
			if err != nil {
				return err
			}
			if len(posts) > 0 {
				if err := h.deletePosts(ctx, q, sortedKeys(posts), "p.post_type NOT IN ('attachment', 'revision')"); err != nil {
					return err
				}
			}
			media, err := h.idSet(ctx, q, "SELECT ID FROM "+t.posts+" WHERE post_author IN ("+in+") AND post_type = 'attachment'", args)
			if err != nil {
				return err
			}
			if len(media) > 0 {
				if err := h.deleteMedia(ctx, q, sortedKeys(media)); err != nil {
					return err
				}
			}
			if _, err := q.ExecContext(ctx, "DELETE FROM "+t.links+" WHERE link_owner IN ("+in+")", args...); err != nil {
				return err
			}
		}
		for _, s := range []string{
			"UPDATE " + t.comments + " SET user_id = 0 WHERE user_id IN (" + in + ")",
			"DELETE FROM " + t.usermeta + " WHERE user_id IN (" + in + ")",
			"DELETE FROM " + t.users + " WHERE ID IN (" + in + ")",
		} {
			if _, err := q.ExecContext(ctx, s, args...); err != nil {
				return err
			}
		}
		return nil
	})
}
