package wphost

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// commentApproved maps a comment status to comment_approved.
func commentApproved(status string) (string, bool) {
	switch status {
	case contentgen.CommentApproved:
		return "1", true
	case contentgen.CommentPending:
		return "0", true
	case contentgen.CommentTrash:
		return "trash", true
	case "spam":
		return "spam", true
	}
	return "", false
}

// commentStatus maps comment_approved back to a status.
func commentStatus(approved string) string {
	switch approved {
	case "1":
		return contentgen.CommentApproved
	case "0":
		return contentgen.CommentPending
	}
	return approved
}

// CreateComments stores comments (type "comment"), their meta, and brings
// the comment_count of their posts up to date. A ParentID must name a
// comment on the same post; an empty Status is approved.
func (h *Host) CreateComments(ctx context.Context, comments []contentgen.Comment) ([]int64, error) {
	if len(comments) == 0 {
		return []int64{}, ctx.Err()
	}
	var ids []int64
	err := h.write(ctx, "creating comments", func(ctx context.Context, q sqlstore.Querier) error {
		t := h.s.t
		approved := make([]string, len(comments))
		var posts, users, parents []int64
		for i := range comments {
			c := &comments[i]
			st := c.Status
			if st == "" {
				st = contentgen.CommentApproved
			}
			a, ok := commentApproved(st)
			if !ok {
				return invalidf("unknown comment status %q", c.Status)
			}
			approved[i] = a
			posts = append(posts, c.PostID)
			if c.UserID != 0 {
				users = append(users, c.UserID)
			}
			if c.ParentID != 0 {
				parents = append(parents, c.ParentID)
			}
		}
		if err := h.requireIDs(ctx, q, "post", "SELECT ID FROM "+t.posts+" WHERE ID IN (%s) LOCK IN SHARE MODE", posts); err != nil {
			return err
		}
		if err := h.requireIDs(ctx, q, "user", "SELECT ID FROM "+t.users+" WHERE ID IN (%s) LOCK IN SHARE MODE", users); err != nil {
			return err
		}
		if ps := dedupe(parents); len(ps) > 0 {
			onPost := map[int64]int64{}
			err := q.QueryEach(ctx, "SELECT comment_ID, comment_post_ID FROM "+t.comments+" WHERE comment_ID IN ("+marks(len(ps))+") LOCK IN SHARE MODE", int64Args(ps),
				func(r *sql.Rows) error {
					var id, post int64
					if err := r.Scan(&id, &post); err != nil {
						return err
					}
					onPost[id] = post
					return nil
				})
			if err != nil {
				return err
			}
			for _, c := range comments {
				if c.ParentID != 0 && onPost[c.ParentID] != c.PostID {
					return missingf("parent comment %d does not exist on post %d", c.ParentID, c.PostID)
				}
			}
		}
		now := h.s.o.Now()
		var err error
		ids, err = h.insertIDs(ctx, q, t.comments, []string{
			"comment_post_ID", "comment_author", "comment_author_email", "comment_author_url", "comment_author_IP",
			"comment_date", "comment_date_gmt", "comment_content", "comment_karma", "comment_approved", "comment_agent",
			"comment_type", "comment_parent", "user_id",
		}, len(comments), func(i int) []any {
			c := &comments[i]
			d := c.Date
			if d.IsZero() {
				d = now
			}
			local, gmt := localAndGMT(d, h.s.loc)
			return []any{c.PostID, c.AuthorName, c.AuthorEmail, c.AuthorURL, "", local, gmt, c.Content, 0, approved[i], "", "comment", c.ParentID, c.UserID}
		})
		if err != nil {
			return err
		}
		var meta []metaRow
		for i := range comments {
			meta = sortedMeta(meta, ids[i], comments[i].Meta)
		}
		if err := insertMeta(ctx, q, t.commentmeta, "comment_id", meta); err != nil {
			return err
		}
		return h.recountComments(ctx, q, dedupe(posts))
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// recountComments sets the comment_count of posts to their approved
// comments, as wp_update_comment_count_now does.
func (h *Host) recountComments(ctx context.Context, q sqlstore.Querier, posts []int64) error {
	if len(posts) == 0 {
		return nil
	}
	t := h.s.t
	_, err := q.ExecContext(ctx, "UPDATE "+t.posts+" p SET p.comment_count = (SELECT COUNT(*) FROM "+t.comments+
		" c WHERE c.comment_post_ID = p.ID AND c.comment_approved = '1') WHERE p.ID IN ("+marks(len(posts))+")", int64Args(posts)...)
	return err
}

// Comments returns the comments matching cq, ordered by id.
func (h *Host) Comments(ctx context.Context, cq contentgen.CommentQuery) ([]contentgen.Comment, error) {
	t := h.s.t
	where := "1=1"
	var args []any
	for _, f := range []struct {
		col string
		ids contentgen.IDFilter
	}{{"c.comment_ID", cq.IDs}, {"c.comment_post_ID", cq.PostIDs}} {
		if !f.ids.Active() {
			continue
		}
		ids := dedupe(f.ids.List())
		if len(ids) == 0 {
			return []contentgen.Comment{}, ctx.Err()
		}
		where += " AND " + f.col + " IN (" + marks(len(ids)) + ")"
		args = append(args, int64Args(ids)...)
	}
	if len(cq.Statuses) > 0 {
		var st []string
		for _, s := range cq.Statuses {
			if a, ok := commentApproved(s); ok {
				st = append(st, a)
			} else {
				st = append(st, s)
			}
		}
		where += " AND c.comment_approved IN (" + marks(len(st)) + ")"
		args = append(args, stringArgs(st)...)
	}
	if cq.MetaKey != "" {
		c, a := metaFilter(t.commentmeta, "comment_id", "c.comment_ID", cq.MetaKey, cq.MetaValue)
		where += " AND " + c
		args = append(args, a...)
	}
	q := h.q(ctx)
	var out []contentgen.Comment
	query := "SELECT c.comment_ID, c.comment_post_ID, c.comment_parent, c.user_id, c.comment_author, c.comment_author_email, c.comment_author_url, c.comment_content, c.comment_approved, c.comment_date, c.comment_date_gmt FROM " +
		t.comments + " c WHERE " + where + " ORDER BY c.comment_ID" + limitClause(cq.Limit, cq.Offset)
	err := q.QueryEach(ctx, query, args, func(r *sql.Rows) error {
		var c contentgen.Comment
		var approved string
		var local, gmt time.Time
		if err := r.Scan(&c.ID, &c.PostID, &c.ParentID, &c.UserID, &c.AuthorName, &c.AuthorEmail, &c.AuthorURL, &c.Content, &approved, &local, &gmt); err != nil {
			return err
		}
		c.Status = commentStatus(approved)
		c.Date = fromColumns(local, gmt, h.s.loc)
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, h.fail(ctx, "reading comments", err)
	}
	if len(out) == 0 {
		return []contentgen.Comment{}, nil
	}
	ids := make([]int64, len(out))
	for i := range out {
		ids[i] = out[i].ID
	}
	all, err := h.loadMeta(ctx, q, contentgen.KindComment, ids, false)
	if err != nil {
		return nil, h.fail(ctx, "reading comment meta", err)
	}
	for i := range out {
		out[i].Meta = all[out[i].ID]
	}
	return out, nil
}

// DeleteComments removes comments and their meta, as wp_delete_comment
// does; replies move to the removed comment's parent; comment counts
// follow.
func (h *Host) DeleteComments(ctx context.Context, ids []int64) error {
	ids = dedupe(ids)
	if len(ids) == 0 {
		return ctx.Err()
	}
	t := h.s.t
	return h.write(ctx, "deleting comments", func(ctx context.Context, q sqlstore.Querier) error {
		parents := map[int64]int64{}
		posts := map[int64]bool{}
		err := q.QueryEach(ctx, "SELECT comment_ID, comment_parent, comment_post_ID FROM "+t.comments+" WHERE comment_ID IN ("+marks(len(ids))+") FOR UPDATE",
			int64Args(ids), func(r *sql.Rows) error {
				var id, parent, post int64
				if err := r.Scan(&id, &parent, &post); err != nil {
					return err
				}
				parents[id] = parent
				posts[post] = true
				return nil
			})
		if err != nil || len(parents) == 0 {
			return err
		}
		if err := h.reparent(ctx, q, t.comments, "comment_parent", "comment_ID", parents); err != nil {
			return err
		}
		doomed := sortedKeys(parents)
		in, args := marks(len(doomed)), int64Args(doomed)
		for _, s := range []string{
			"DELETE FROM " + t.commentmeta + " WHERE comment_id IN (" + in + ")",
			"DELETE FROM " + t.comments + " WHERE comment_ID IN (" + in + ")",
		} {
			if _, err := q.ExecContext(ctx, s, args...); err != nil {
				return err
			}
		}
		return h.recountComments(ctx, q, sortedKeys(posts))
	})
}

// TrashComments moves comments to the trash as wp_trash_comment does:
// comment_approved trash, the former status and the time in
// _wp_trash_meta_status and _wp_trash_meta_time; comment counts follow.
func (h *Host) TrashComments(ctx context.Context, ids []int64) error {
	ids = dedupe(ids)
	if len(ids) == 0 {
		return ctx.Err()
	}
	t := h.s.t
	return h.write(ctx, "trashing comments", func(ctx context.Context, q sqlstore.Querier) error {
		olds := map[int64]string{}
		posts := map[int64]bool{}
		err := q.QueryEach(ctx, "SELECT comment_ID, comment_approved, comment_post_ID FROM "+t.comments+" WHERE comment_ID IN ("+marks(len(ids))+") AND comment_approved <> 'trash' FOR UPDATE",
			int64Args(ids), func(r *sql.Rows) error {
				var id, post int64
				var a string
				if err := r.Scan(&id, &a, &post); err != nil {
					return err
				}
				olds[id] = a
				posts[post] = true
				return nil
			})
		if err != nil || len(olds) == 0 {
			return err
		}
		live := sortedKeys(olds)
		in, args := marks(len(live)), int64Args(live)
		when := strconv.FormatInt(h.s.o.Now().Unix(), 10)
		var meta []metaRow
		for _, id := range live {
			meta = append(meta, metaRow{id, "_wp_trash_meta_status", olds[id]}, metaRow{id, "_wp_trash_meta_time", when})
		}
		if _, err := q.ExecContext(ctx, "DELETE FROM "+t.commentmeta+" WHERE comment_id IN ("+in+") AND meta_key IN ('_wp_trash_meta_status', '_wp_trash_meta_time')", args...); err != nil {
			return err
		}
		if err := insertMeta(ctx, q, t.commentmeta, "comment_id", meta); err != nil {
			return err
		}
		if _, err := q.ExecContext(ctx, "UPDATE "+t.comments+" SET comment_approved = 'trash' WHERE comment_ID IN ("+in+")", args...); err != nil {
			return err
		}
		return h.recountComments(ctx, q, sortedKeys(posts))
	})
}
