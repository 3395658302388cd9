package memhost

import (
	"context"
	"slices"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
)

// validPostStatus reports whether a post may have status s.
func validPostStatus(s string) bool {
	switch s {
	case contentgen.StatusPublish, contentgen.StatusDraft, contentgen.StatusPending,
		contentgen.StatusPrivate, contentgen.StatusFuture, contentgen.StatusTrash,
		"inherit", "auto-draft":
		return true
	}
	return false
}

// CreatePosts stores posts (ID ignored) with their terms and meta and
// returns their ids in input order. Every post is checked before any is
// stored; the batch fails with an error wrapping ErrInvalid when a post has
// an unregistered type or an unknown status, an AuthorID, ParentID or
// FeaturedMediaID naming no user, post or media item, or a term that does
// not exist in a taxonomy registered for its type. An empty Status becomes
// "draft" and a zero Date the current time.
func (h *Host) CreatePosts(ctx context.Context, posts []contentgen.Post) ([]int64, error) {
	var ids []int64
	err := h.write(ctx, func(st *state) error {
		// The rows of a batch are made in one array.
		rows := make([]contentgen.Post, len(posts))
		for i := range posts {
			if err := h.newPost(st, &posts[i], &rows[i]); err != nil {
				return err
			}
		}
		ids = make([]int64, len(rows))
		for i := range rows {
			p := &rows[i]
			st.seq.post++
			p.ID = st.seq.post
			ids[i] = p.ID
			st.posts.insert(p.ID, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// newPost validates in and makes the row to store in p.
func (h *Host) newPost(st *state, in *contentgen.Post, p *contentgen.Post) error {
	pt := st.postType(in.Type)
	if pt == nil {
		return invalidf("unknown post type %q", in.Type)
	}
	*p = *in
	p.ID = 0
	if p.Status == "" {
		p.Status = contentgen.StatusDraft
	}
	if !validPostStatus(p.Status) {
		return invalidf("unknown post status %q", p.Status)
	}
	if p.AuthorID != 0 && !st.users.has(p.AuthorID) {
		return missingf("author %d does not exist", p.AuthorID)
	}
	if p.ParentID != 0 && !st.posts.has(p.ParentID) {
		return missingf("parent post %d does not exist", p.ParentID)
	}
	if p.FeaturedMediaID != 0 && !st.media.has(p.FeaturedMediaID) {
		return missingf("featured media %d does not exist", p.FeaturedMediaID)
	}
	p.Terms = make(map[string][]int64, len(in.Terms))
	// The term ids of every taxonomy in one array, each list in a part
	// of its own, capped there.
	total := 0
	for _, ids := range in.Terms {
		total += len(ids)
	}
	all := make([]int64, total)
	for tax, ids := range in.Terms {
		if len(ids) == 0 {
			continue
		}
		if !slices.Contains(pt.Taxonomies, tax) || st.taxonomy(tax) == nil {
			return invalidf("taxonomy %q is not registered for post type %q", tax, pt.Name)
		}
		out := all[:0:len(ids)]
		all = all[len(ids):]
		for _, id := range ids {
			t := st.terms.get(id)
			if t == nil || t.Taxonomy != tax {
				return missingf("term %d does not exist in taxonomy %q", id, tax)
			}
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
		p.Terms[tax] = out
	}
	p.Meta = storedMeta(in.Meta)
	p.Date = h.timestamp(p.Date)
	return nil
}

// Posts returns copies of the posts matching q, ordered by id. Search
// matches the title ignoring case; MetaKey without MetaValue keeps posts
// that have the key.
func (h *Host) Posts(ctx context.Context, q contentgen.PostQuery) ([]contentgen.Post, error) {
	var out []contentgen.Post
	search := strings.ToLower(q.Search)
	err := h.read(ctx, func(st *state) error {
		out = find(st.posts, q.IDs, func(p *contentgen.Post) bool {
			return (len(q.Types) == 0 || slices.Contains(q.Types, p.Type)) &&
				(len(q.Statuses) == 0 || slices.Contains(q.Statuses, p.Status)) &&
				(q.AuthorID == 0 || p.AuthorID == q.AuthorID) &&
				metaMatch(p.Meta, q.MetaKey, q.MetaValue) &&
				contains(p.Title, search)
		}, q.Limit, q.Offset, func(p *contentgen.Post) contentgen.Post { return *clonePost(p) })
		return nil
	})
	return out, err
}

// DeletePosts removes posts permanently with their meta, term links and
// comments. Child posts and attached media move to the parent of the
// removed post (the nearest one not removed). Unknown ids are ignored.
func (h *Host) DeletePosts(ctx context.Context, ids []int64) error {
	return h.write(ctx, func(st *state) error {
		st.deletePosts(ids)
		return nil
	})
}

var _ contentgen.PostDeleter = (*Host)(nil)

// DeletePostsWithComments implements contentgen.PostDeleter.
func (h *Host) DeletePostsWithComments(ctx context.Context, ids []int64) ([]int64, error) {
	var comments []int64
	err := h.write(ctx, func(st *state) error {
		comments = st.deletePosts(ids)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(comments)
	return comments, nil
}

// deletePosts removes the posts ids and everything hanging from them, and
// returns the ids of the comments removed.
func (st *state) deletePosts(ids []int64) (comments []int64) {
	gone := map[int64]int64{} // removed post → its parent
	for _, id := range ids {
		if p := st.posts.get(id); p != nil {
			gone[id] = p.ParentID
		}
	}
	if len(gone) == 0 {
		return nil
	}
	for id := range gone {
		// Removing a comment takes it from the post's list: a copy is
		// walked.
		for _, cid := range slices.Clone(st.postComments[id]) {
			st.comments.remove(cid)
			comments = append(comments, cid)
		}
		st.posts.remove(id)
	}
	// up finds the nearest ancestor that survives.
	up := func(parent int64) int64 {
		for {
			next, removed := gone[parent]
			if !removed {
				return parent
			}
			parent = next
		}
	}
	for _, id := range st.posts.order {
		if p := st.posts.get(id); p != nil && p.ParentID != 0 {
			if _, removed := gone[p.ParentID]; removed {
				st.posts.update(id, func(p *contentgen.Post) { p.ParentID = up(p.ParentID) })
			}
		}
	}
	for _, id := range st.media.order {
		if m := st.media.get(id); m != nil && m.ParentID != 0 {
			if _, removed := gone[m.ParentID]; removed {
				st.media.update(id, func(m *mediaRow) { m.ParentID = up(m.ParentID) })
			}
		}
	}
	return comments
}
