package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
)

// CreateUsers implements contentgen.Host. Logins and e-mail addresses
// (ignoring case) are unique by constraint: a clash, with a stored user or
// within the batch, fails the batch with ErrHostConflict.
func (h *Host) CreateUsers(ctx context.Context, users []contentgen.User) ([]int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(users) == 0 {
		return []int64{}, nil
	}
	var ids []int64
	err := h.write(ctx, func(ctx context.Context, q querier) error {
		roles, err := registered[contentgen.Role](ctx, h, q, regRole)
		if err != nil {
			return err
		}
		type userRole struct {
			user, pos int64
			role      string
		}
		var links []userRole
		if ids, err = h.db.d.reserveIDs(ctx, q, h.db.t.users, len(users)); err != nil {
			return fail(ctx, "creating users", err)
		}
		for i, u := range users {
			if u.Login == "" {
				return fmt.Errorf("%w: user %d has no login", ErrInvalid, i)
			}
			for j, r := range u.Roles {
				if !slices.ContainsFunc(roles, func(x contentgen.Role) bool { return x.Slug == r }) {
					return fmt.Errorf("%w: user %d: role %q is not registered", ErrInvalid, i, r)
				}
				links = append(links, userRole{ids[i], int64(j), r})
			}
		}
		err = h.db.d.insertRows(ctx, q, newRows(h.db.t.users, len(users)).
			bigint("id", func(i int) int64 { return ids[i] }).
			text("login", func(i int) string { return users[i].Login }).
			text("email", func(i int) string { return users[i].Email }).
			text("email_lower", func(i int) string { return strings.ToLower(users[i].Email) }).
			text("display_name", func(i int) string { return users[i].DisplayName }).
			text("first_name", func(i int) string { return users[i].FirstName }).
			text("last_name", func(i int) string { return users[i].LastName }).
			text("description", func(i int) string { return users[i].Description }).
			text("url", func(i int) string { return users[i].URL }).
			bigint("registered", func(i int) int64 { return encDate(users[i].Registered) }))
		if err != nil {
			return h.conflict(ctx, "creating users", err)
		}
		if len(links) > 0 {
			err = h.db.d.insertRows(ctx, q, newRows(h.db.t.userRoles, len(links)).
				bigint("user_id", func(i int) int64 { return links[i].user }).
				bigint("position", func(i int) int64 { return links[i].pos }).
				text("role", func(i int) string { return links[i].role }))
			if err != nil {
				return fail(ctx, "storing user roles", err)
			}
		}
		metas := make([]contentgen.Meta, len(users))
		for i := range users {
			metas[i] = users[i].Meta
		}
		return fail(ctx, "storing user meta", h.insertMeta(ctx, q, contentgen.KindUser, ids, metas))
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// Users implements contentgen.Host in three queries: the users, their
// roles and their meta.
func (h *Host) Users(ctx context.Context, uq contentgen.UserQuery) ([]contentgen.User, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	q, err := h.reader(ctx)
	if err != nil {
		return nil, err
	}
	w := h.where()
	w.ids("id", uq.IDs)
	if len(uq.Roles) > 0 {
		c, a := h.db.d.inList("r.role", slices.Clone(uq.Roles))
		w.add("EXISTS (SELECT 1 FROM "+h.db.t.userRoles+" r WHERE r.user_id = "+h.db.t.users+".id AND "+c+")", a...)
	}
	if uq.Login != "" {
		w.add("login = ?", uq.Login)
	}
	if uq.Email != "" {
		w.add("email_lower = ?", strings.ToLower(uq.Email))
	}
	w.hasMeta(contentgen.KindUser, h.db.t.users+".id", uq.MetaKey, uq.MetaValue)
	w.search(uq.Search, "login", "display_name", "email")
	out := []contentgen.User{}
	if w.none {
		return out, nil
	}
	query := "SELECT id, login, email, display_name, first_name, last_name, description, url, registered FROM " + h.db.t.users +
		w.sql() + w.page(uq.Limit, uq.Offset)
	err = h.db.readTxOn(ctx, q, func(ctx context.Context, q querier) error {
		out = out[:0]
		err := queryEach(ctx, q, h.db.stmt(query), w.args, func(rows *sql.Rows) error {
			var u contentgen.User
			var reg int64
			if err := rows.Scan(&u.ID, &u.Login, &u.Email, &u.DisplayName, &u.FirstName, &u.LastName, &u.Description, &u.URL, &reg); err != nil {
				return err
			}
			u.Registered = decDate(reg)
			out = append(out, u)
			return nil
		})
		if err != nil || len(out) == 0 {
			return err
		}
		ids := make([]int64, len(out))
		byID := make(map[int64]*contentgen.User, len(out))
		for i := range out {
			ids[i] = out[i].ID
			byID[out[i].ID] = &out[i]
		}
		metas, err := h.loadMeta(ctx, q, contentgen.KindUser, ids)
		if err != nil {
			return err
		}
		for i := range out {
			out[i].Meta = metas[out[i].ID]
		}
		cond, args := h.db.d.inList("user_id", ids)
		return queryEach(ctx, q, h.db.stmt("SELECT user_id, role FROM "+h.db.t.userRoles+" WHERE "+cond+" ORDER BY user_id, position"), args,
			func(rows *sql.Rows) error {
				var id int64
				var role string
				if err := rows.Scan(&id, &role); err != nil {
					return err
				}
				if u := byID[id]; u != nil {
					u.Roles = append(u.Roles, role)
				}
				return nil
			})
	})
	if err != nil {
		return nil, fail(ctx, "reading users", err)
	}
	return out, nil
}

// DeleteUsers implements contentgen.Host.
func (h *Host) DeleteUsers(ctx context.Context, ids []int64, reassignTo int64) error {
	if reassignTo != 0 && slices.Contains(ids, reassignTo) {
		return fmt.Errorf("%w: cannot reassign posts to user %d, which is being deleted", ErrInvalid, reassignTo)
	}
	return h.write(ctx, func(ctx context.Context, q querier) error {
		found, err := h.lockRows(ctx, q, h.db.t.users, ids)
		if err != nil || len(found) == 0 {
			return fail(ctx, "deleting users", err)
		}
		removed := make([]int64, 0, len(found))
		for id := range found {
			removed = append(removed, id)
		}
		slices.Sort(removed)
		cond, args := h.db.d.inList("author_id", removed)
		if reassignTo != 0 {
			if err := h.requireRefs(ctx, q, h.db.t.users, "heir", []int64{reassignTo}); err != nil {
				return err
			}
			if _, err := q.ExecContext(ctx, h.db.stmt("UPDATE "+h.db.t.posts+" SET author_id = ? WHERE "+cond), append([]any{reassignTo}, args...)...); err != nil {
				return fail(ctx, "reassigning posts", err)
			}
		} else {
			var posts []int64
			err := queryEach(ctx, q, h.db.stmt("SELECT id FROM "+h.db.t.posts+" WHERE "+cond), args, func(rows *sql.Rows) error {
				var id int64
				err := rows.Scan(&id)
				posts = append(posts, id)
				return err
			})
			if err == nil {
				_, err = h.deletePosts(ctx, q, posts)
			}
			if err != nil {
				return fail(ctx, "deleting the posts of users", err)
			}
		}
		cond, args = h.db.d.inList("user_id", removed)
		if _, err := q.ExecContext(ctx, h.db.stmt("UPDATE "+h.db.t.comments+" SET user_id = 0 WHERE "+cond), args...); err != nil {
			return fail(ctx, "deleting users", err)
		}
		err = h.deleteIn(ctx, q, h.db.t.userRoles, "user_id", removed)
		if err == nil {
			err = h.deleteMeta(ctx, q, contentgen.KindUser, removed)
		}
		if err == nil {
			err = h.deleteIn(ctx, q, h.db.t.users, "id", removed)
		}
		return fail(ctx, "deleting users", err)
	})
}

// CreateComments implements contentgen.Host.
func (h *Host) CreateComments(ctx context.Context, comments []contentgen.Comment) ([]int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(comments) == 0 {
		return []int64{}, nil
	}
	var ids []int64
	err := h.write(ctx, func(ctx context.Context, q querier) error {
		var posts, users, parents []int64
		for _, c := range comments {
			posts = append(posts, c.PostID)
			users = append(users, c.UserID)
			parents = append(parents, c.ParentID)
		}
		for i, c := range comments {
			if c.PostID == 0 {
				return fmt.Errorf("%w: comment %d names no post", ErrInvalid, i)
			}
		}
		// Users before posts, as in every write (see lockOrder).
		if err := h.requireRefs(ctx, q, h.db.t.users, "user", users); err != nil {
			return err
		}
		if err := h.requireRefs(ctx, q, h.db.t.posts, "post", posts); err != nil {
			return err
		}
		parentPost := map[int64]int64{}
		if ps := uniqueIDs(parents); len(ps) > 0 {
			cond, args := h.db.d.inList("id", ps)
			err := queryEach(ctx, q, h.db.stmt("SELECT id, post_id FROM "+h.db.t.comments+" WHERE "+cond+h.db.d.forShare()), args,
				func(rows *sql.Rows) error {
					var id, post int64
					err := rows.Scan(&id, &post)
					parentPost[id] = post
					return err
				})
			if err != nil {
				return fail(ctx, "checking parent comments", err)
			}
		}
		for i, c := range comments {
			if c.ParentID == 0 {
				continue
			}
			post, ok := parentPost[c.ParentID]
			if !ok {
				return fmt.Errorf("sqlstore: %w: parent comment %d does not exist", contentgen.ErrHostReference, c.ParentID)
			}
			if post != c.PostID {
				return fmt.Errorf("%w: comment %d: parent %d is on post %d, not %d", ErrInvalid, i, c.ParentID, post, c.PostID)
			}
		}
		var err error
		if ids, err = h.db.d.reserveIDs(ctx, q, h.db.t.comments, len(comments)); err != nil {
			return fail(ctx, "creating comments", err)
		}
		err = h.db.d.insertRows(ctx, q, newRows(h.db.t.comments, len(comments)).
			bigint("id", func(i int) int64 { return ids[i] }).
			bigint("post_id", func(i int) int64 { return comments[i].PostID }).
			bigint("parent_id", func(i int) int64 { return comments[i].ParentID }).
			bigint("user_id", func(i int) int64 { return comments[i].UserID }).
			text("author_name", func(i int) string { return comments[i].AuthorName }).
			text("author_email", func(i int) string { return comments[i].AuthorEmail }).
			text("author_url", func(i int) string { return comments[i].AuthorURL }).
			text("content", func(i int) string { return comments[i].Content }).
			text("status", func(i int) string { return cmp.Or(comments[i].Status, contentgen.CommentApproved) }).
			bigint("date", func(i int) int64 { return encDate(comments[i].Date) }))
		if err != nil {
			return fail(ctx, "creating comments", err)
		}
		metas := make([]contentgen.Meta, len(comments))
		for i := range comments {
			metas[i] = comments[i].Meta
		}
		return fail(ctx, "storing comment meta", h.insertMeta(ctx, q, contentgen.KindComment, ids, metas))
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// Comments implements contentgen.Host in two queries: the comments and
// their meta.
func (h *Host) Comments(ctx context.Context, cq contentgen.CommentQuery) ([]contentgen.Comment, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	q, err := h.reader(ctx)
	if err != nil {
		return nil, err
	}
	w := h.where()
	w.ids("id", cq.IDs)
	w.ids("post_id", cq.PostIDs)
	w.strs("status", cq.Statuses)
	w.hasMeta(contentgen.KindComment, h.db.t.comments+".id", cq.MetaKey, cq.MetaValue)
	out := []contentgen.Comment{}
	if w.none {
		return out, nil
	}
	query := "SELECT id, post_id, parent_id, user_id, author_name, author_email, author_url, content, status, date FROM " + h.db.t.comments +
		w.sql() + w.page(cq.Limit, cq.Offset)
	err = h.db.readTxOn(ctx, q, func(ctx context.Context, q querier) error {
		out = out[:0]
		err := queryEach(ctx, q, h.db.stmt(query), w.args, func(rows *sql.Rows) error {
			var c contentgen.Comment
			var date int64
			if err := rows.Scan(&c.ID, &c.PostID, &c.ParentID, &c.UserID, &c.AuthorName, &c.AuthorEmail, &c.AuthorURL, &c.Content, &c.Status, &date); err != nil {
				return err
			}
			c.Date = decDate(date)
			out = append(out, c)
			return nil
		})
		if err != nil || len(out) == 0 {
			return err
		}
		ids := make([]int64, len(out))
		for i := range out {
			ids[i] = out[i].ID
		}
		metas, err := h.loadMeta(ctx, q, contentgen.KindComment, ids)
		for i := range out {
			out[i].Meta = metas[out[i].ID]
		}
		return err
	})
	if err != nil {
		return nil, fail(ctx, "reading comments", err)
	}
	return out, nil
}

// DeleteComments implements contentgen.Host.
func (h *Host) DeleteComments(ctx context.Context, ids []int64) error {
	return h.write(ctx, func(ctx context.Context, q querier) error {
		anc, err := h.parents(ctx, q, h.db.t.comments, ids)
		if err != nil || len(anc) == 0 {
			return fail(ctx, "deleting comments", err)
		}
		removed := make([]int64, 0, len(anc))
		for id := range anc {
			removed = append(removed, id)
		}
		slices.Sort(removed)
		err = h.reparent(ctx, q, h.db.t.comments, anc)
		if err == nil {
			err = h.deleteMeta(ctx, q, contentgen.KindComment, removed)
		}
		if err == nil {
			err = h.deleteIn(ctx, q, h.db.t.comments, "id", removed)
		}
		return fail(ctx, "deleting comments", err)
	})
}

// CreateMedia implements contentgen.Host. A record without a URL gets one
// under the site's uploads; the bytes of sizes are not kept.
func (h *Host) CreateMedia(ctx context.Context, media []contentgen.Media) ([]int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(media) == 0 {
		return []int64{}, nil
	}
	sizes := make([]string, len(media))
	for i, m := range media {
		s := make([]contentgen.MediaSize, len(m.Sizes))
		for j, z := range m.Sizes {
			z.Data = nil
			s[j] = z
		}
		b, err := json.Marshal(s)
		if err != nil {
			return nil, fmt.Errorf("sqlstore: encoding media sizes: %w", err)
		}
		sizes[i] = string(b)
	}
	var ids []int64
	err := h.write(ctx, func(ctx context.Context, q querier) error {
		parents := make([]int64, len(media))
		for i, m := range media {
			parents[i] = m.ParentID
		}
		if err := h.requireRefs(ctx, q, h.db.t.posts, "parent post", parents); err != nil {
			return err
		}
		var err error
		if ids, err = h.db.d.reserveIDs(ctx, q, h.db.t.media, len(media)); err != nil {
			return fail(ctx, "creating media", err)
		}
		err = h.db.d.insertRows(ctx, q, newRows(h.db.t.media, len(media)).
			bigint("id", func(i int) int64 { return ids[i] }).
			text("title", func(i int) string { return media[i].Title }).
			text("filename", func(i int) string { return media[i].Filename }).
			text("mime_type", func(i int) string { return media[i].MIMEType }).
			text("url", func(i int) string {
				return cmp.Or(media[i].URL, h.site.URL+"/wp-content/uploads/"+media[i].Filename)
			}).
			bigint("width", func(i int) int64 { return int64(media[i].Width) }).
			bigint("height", func(i int) int64 { return int64(media[i].Height) }).
			bigint("filesize", func(i int) int64 { return media[i].Filesize }).
			bigint("parent_id", func(i int) int64 { return media[i].ParentID }).
			bigint("date", func(i int) int64 { return encDate(media[i].Date) }).
			text("sizes", func(i int) string { return sizes[i] }))
		if err != nil {
			return fail(ctx, "creating media", err)
		}
		metas := make([]contentgen.Meta, len(media))
		for i := range media {
			metas[i] = media[i].Meta
		}
		return fail(ctx, "storing media meta", h.insertMeta(ctx, q, contentgen.KindMedia, ids, metas))
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// Media implements contentgen.Host in two queries: the records and their
// meta.
func (h *Host) Media(ctx context.Context, mq contentgen.MediaQuery) ([]contentgen.Media, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	q, err := h.reader(ctx)
	if err != nil {
		return nil, err
	}
	w := h.where()
	w.ids("id", mq.IDs)
	if len(mq.MIMEPrefixes) > 0 {
		parts := make([]string, len(mq.MIMEPrefixes))
		args := make([]any, len(mq.MIMEPrefixes))
		for i, p := range mq.MIMEPrefixes {
			parts[i] = "mime_type LIKE ? ESCAPE '\\'"
			args[i] = likeEscaper.Replace(p) + "%"
		}
		w.add("("+strings.Join(parts, " OR ")+")", args...)
	}
	w.hasMeta(contentgen.KindMedia, h.db.t.media+".id", mq.MetaKey, mq.MetaValue)
	w.search(mq.Search, "title")
	out := []contentgen.Media{}
	if w.none {
		return out, nil
	}
	query := "SELECT id, title, filename, mime_type, url, width, height, filesize, parent_id, date, sizes FROM " + h.db.t.media +
		w.sql() + w.page(mq.Limit, mq.Offset)
	err = h.db.readTxOn(ctx, q, func(ctx context.Context, q querier) error {
		out = out[:0]
		err := queryEach(ctx, q, h.db.stmt(query), w.args, func(rows *sql.Rows) error {
			var m contentgen.Media
			var date int64
			var sizes string
			if err := rows.Scan(&m.ID, &m.Title, &m.Filename, &m.MIMEType, &m.URL, &m.Width, &m.Height, &m.Filesize, &m.ParentID, &date, &sizes); err != nil {
				return err
			}
			m.Date = decDate(date)
			if err := json.Unmarshal([]byte(sizes), &m.Sizes); err != nil {
				return fmt.Errorf("decoding the sizes of media %d: %w", m.ID, err)
			}
			if len(m.Sizes) == 0 {
				m.Sizes = nil
			}
			out = append(out, m)
			return nil
		})
		if err != nil || len(out) == 0 {
			return err
		}
		ids := make([]int64, len(out))
		for i := range out {
			ids[i] = out[i].ID
		}
		metas, err := h.loadMeta(ctx, q, contentgen.KindMedia, ids)
		for i := range out {
			out[i].Meta = metas[out[i].ID]
		}
		return err
	})
	if err != nil {
		return nil, fail(ctx, "reading media", err)
	}
	return out, nil
}

// DeleteMedia implements contentgen.Host: posts using a removed item as
// featured image lose it, and the files kept in MediaDir go once the
// deletion commits.
func (h *Host) DeleteMedia(ctx context.Context, ids []int64) error {
	return h.write(ctx, func(ctx context.Context, q querier) error {
		found, err := h.lockRows(ctx, q, h.db.t.media, ids)
		if err != nil || len(found) == 0 {
			return fail(ctx, "deleting media", err)
		}
		paths, err := h.mediaPaths(ctx, ids)
		if err != nil {
			return err
		}
		h.db.after(ctx, func() { h.files.remove(paths) }, nil)
		removed := make([]int64, 0, len(found))
		for id := range found {
			removed = append(removed, id)
		}
		slices.Sort(removed)
		cond, args := h.db.d.inList("featured_media_id", removed)
		_, err = q.ExecContext(ctx, h.db.stmt("UPDATE "+h.db.t.posts+" SET featured_media_id = 0 WHERE "+cond), args...)
		if err == nil {
			err = h.deleteMeta(ctx, q, contentgen.KindMedia, removed)
		}
		if err == nil {
			err = h.deleteIn(ctx, q, h.db.t.media, "id", removed)
		}
		return fail(ctx, "deleting media", err)
	})
}
