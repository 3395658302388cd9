package memhost

import (
	"context"
	"slices"

	"github.com/contentgen/contentgen/contentgen"
)

// validCommentStatus reports whether a comment may have status s.
func validCommentStatus(s string) bool {
	switch s {
	case contentgen.CommentApproved, contentgen.CommentPending, contentgen.CommentTrash, "spam":
		return true
	}
	return false
}

// CreateComments stores comments (ID ignored) and returns their ids in
// input order. PostID must name an existing post, a ParentID an existing
// comment on the same post (created in an earlier call) and a non-zero
// UserID an existing user; Status must be approved, pending, spam or
// trash (empty becomes approved). Failures wrap ErrInvalid and store
// nothing. A zero Date becomes the current time.
func (h *Host) CreateComments(ctx context.Context, comments []contentgen.Comment) ([]int64, error) {
	var ids []int64
	err := h.write(ctx, func(st *state) error {
		// The rows of a batch are made in one array.
		rows := make([]contentgen.Comment, len(comments))
		for i := range comments {
			if err := h.newComment(st, &comments[i], &rows[i]); err != nil {
				return err
			}
		}
		ids = make([]int64, len(rows))
		for i := range rows {
			c := &rows[i]
			st.seq.comment++
			c.ID = st.seq.comment
			ids[i] = c.ID
			st.comments.insert(c.ID, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// newComment validates in and makes the row to store in c.
func (h *Host) newComment(st *state, in *contentgen.Comment, c *contentgen.Comment) error {
	if !st.posts.has(in.PostID) {
		return missingf("post %d does not exist", in.PostID)
	}
	if in.ParentID != 0 {
		parent := st.comments.get(in.ParentID)
		if parent == nil || parent.PostID != in.PostID {
			return missingf("parent comment %d does not exist on post %d", in.ParentID, in.PostID)
		}
	}
	if in.UserID != 0 && !st.users.has(in.UserID) {
		return missingf("user %d does not exist", in.UserID)
	}
	*c = *in
	c.ID = 0
	if c.Status == "" {
		c.Status = contentgen.CommentApproved
	}
	if !validCommentStatus(c.Status) {
		return invalidf("unknown comment status %q", c.Status)
	}
	c.Date = h.timestamp(c.Date)
	c.Meta = storedMeta(in.Meta)
	return nil
}

// Comments returns copies of the comments matching q, ordered by id.
// MetaKey without MetaValue keeps comments that have the key.
func (h *Host) Comments(ctx context.Context, q contentgen.CommentQuery) ([]contentgen.Comment, error) {
	var out []contentgen.Comment
	err := h.read(ctx, func(st *state) error {
		ids := q.IDs
		var onPost map[int64]bool
		if q.PostIDs.Active() {
			posts := q.PostIDs.List()
			onPost = make(map[int64]bool, len(posts))
			for _, pid := range posts {
				onPost[pid] = true
			}
			if !ids.Active() {
				// Only the comments of those posts can match.
				var cids []int64
				for _, pid := range posts {
					cids = append(cids, st.postComments[pid]...)
				}
				ids = contentgen.OnlyIDs(cids...)
			}
		}
		out = find(st.comments, ids, func(c *contentgen.Comment) bool {
			return (onPost == nil || onPost[c.PostID]) &&
				(len(q.Statuses) == 0 || slices.Contains(q.Statuses, c.Status)) &&
				metaMatch(c.Meta, q.MetaKey, q.MetaValue)
		}, q.Limit, q.Offset, func(c *contentgen.Comment) contentgen.Comment { return *cloneComment(c) })
		return nil
	})
	return out, err
}

// DeleteComments removes comments permanently with their meta; replies to
// a removed comment move to its parent (the nearest one not removed).
// Unknown ids are ignored.
func (h *Host) DeleteComments(ctx context.Context, ids []int64) error {
	return h.write(ctx, func(st *state) error {
		gone := map[int64]int64{} // removed comment → its parent
		posts := map[int64]bool{}
		for _, id := range ids {
			if c := st.comments.get(id); c != nil {
				gone[id] = c.ParentID
				posts[c.PostID] = true
			}
		}
		up := func(parent int64) int64 {
			for {
				next, removed := gone[parent]
				if !removed {
					return parent
				}
				parent = next
			}
		}
		for id := range gone {
			st.comments.remove(id)
		}
		var replies []int64
		for pid := range posts {
			for _, cid := range st.postComments[pid] {
				if _, removed := gone[st.comments.get(cid).ParentID]; removed {
					replies = append(replies, cid)
				}
			}
		}
		for _, cid := range replies {
			st.comments.update(cid, func(c *contentgen.Comment) { c.ParentID = up(c.ParentID) })
		}
		return nil
	})
}
