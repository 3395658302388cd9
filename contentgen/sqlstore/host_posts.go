package sqlstore

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/contentgen/contentgen/contentgen"
)

// CreatePosts implements contentgen.Host: one transaction that checks
// the post types, taxonomies and every reference (locking the referenced
// rows), then inserts the posts, their term links and their meta with a
// bulk insert each.
func (h *Host) CreatePosts(ctx context.Context, posts []contentgen.Post) ([]int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(posts) == 0 {
		return []int64{}, nil
	}
	var ids []int64
	err := h.write(ctx, func(ctx context.Context, q querier) error {
		types, err := registered[contentgen.PostType](ctx, h, q, regPostType)
		if err != nil {
			return err
		}
		taxes, err := registered[contentgen.Taxonomy](ctx, h, q, regTaxonomy)
		if err != nil {
			return err
		}
		var authors, parents, media, terms []int64
		for i := range posts {
			p := &posts[i]
			if !slices.ContainsFunc(types, func(pt contentgen.PostType) bool { return pt.Name == p.Type }) {
				return fmt.Errorf("%w: post %d: post type %q is not registered", ErrInvalid, i, p.Type)
			}
			for tax, list := range p.Terms {
				if !slices.ContainsFunc(taxes, func(tx contentgen.Taxonomy) bool { return tx.Name == tax }) {
					return fmt.Errorf("%w: post %d: taxonomy %q is not registered", ErrInvalid, i, tax)
				}
				terms = append(terms, list...)
			}
			authors = append(authors, p.AuthorID)
			parents = append(parents, p.ParentID)
			media = append(media, p.FeaturedMediaID)
		}
		// The rows referred to are locked in the order every write of the
		// Host follows (see lockOrder).
		if err := h.requireRefs(ctx, q, h.db.t.users, "author", authors); err != nil {
			return err
		}
		termTax, err := h.termTaxonomies(ctx, q, terms)
		if err != nil {
			return err
		}
		if err := h.requireRefs(ctx, q, h.db.t.media, "featured media item", media); err != nil {
			return err
		}
		if err := h.requireRefs(ctx, q, h.db.t.posts, "parent post", parents); err != nil {
			return err
		}
		type link struct {
			post, term int64
			tax        string
			pos        int64
		}
		var links []link
		if ids, err = h.db.d.reserveIDs(ctx, q, h.db.t.posts, len(posts)); err != nil {
			return fail(ctx, "creating posts", err)
		}
		for i := range posts {
			taxNames := make([]string, 0, len(posts[i].Terms))
			for tax := range posts[i].Terms {
				taxNames = append(taxNames, tax)
			}
			slices.Sort(taxNames)
			for _, tax := range taxNames {
				seen := map[int64]bool{}
				for _, term := range posts[i].Terms[tax] {
					got, ok := termTax[term]
					if !ok {
						return fmt.Errorf("sqlstore: %w: term %d does not exist", contentgen.ErrHostReference, term)
					}
					if got != tax {
						return fmt.Errorf("%w: post %d: term %d is of taxonomy %q, not %q", ErrInvalid, i, term, got, tax)
					}
					if !seen[term] {
						seen[term] = true
						links = append(links, link{ids[i], term, tax, int64(len(seen))})
					}
				}
			}
		}
		err = h.db.d.insertRows(ctx, q, newRows(h.db.t.posts, len(posts)).
			bigint("id", func(i int) int64 { return ids[i] }).
			text("type", func(i int) string { return posts[i].Type }).
			text("status", func(i int) string { return cmp.Or(posts[i].Status, contentgen.StatusDraft) }).
			text("title", func(i int) string { return posts[i].Title }).
			text("content", func(i int) string { return posts[i].Content }).
			text("excerpt", func(i int) string { return posts[i].Excerpt }).
			bigint("author_id", func(i int) int64 { return posts[i].AuthorID }).
			bigint("parent_id", func(i int) int64 { return posts[i].ParentID }).
			bigint("date", func(i int) int64 { return encDate(posts[i].Date) }).
			bigint("featured_media_id", func(i int) int64 { return posts[i].FeaturedMediaID }))
		if err != nil {
			return fail(ctx, "creating posts", err)
		}
		if len(links) > 0 {
			err = h.db.d.insertRows(ctx, q, newRows(h.db.t.termLinks, len(links)).
				bigint("post_id", func(i int) int64 { return links[i].post }).
				bigint("term_id", func(i int) int64 { return links[i].term }).
				text("taxonomy", func(i int) string { return links[i].tax }).
				bigint("position", func(i int) int64 { return links[i].pos }))
			if err != nil {
				return fail(ctx, "linking terms", err)
			}
		}
		metas := make([]contentgen.Meta, len(posts))
		for i := range posts {
			metas[i] = posts[i].Meta
		}
		if err := h.insertMeta(ctx, q, contentgen.KindPost, ids, metas); err != nil {
			return fail(ctx, "storing post meta", err)
		}
		return fail(ctx, "counting posts", h.countPosts(ctx, q, ids, +1))
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// termTaxonomies returns the taxonomy of each existing term among ids,
// locking the terms against deletion until the commit.
func (h *Host) termTaxonomies(ctx context.Context, q querier, ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	ids = uniqueIDs(ids)
	if len(ids) == 0 {
		return out, nil
	}
	cond, args := h.db.d.inList("id", ids)
	err := queryEach(ctx, q, h.db.stmt("SELECT id, taxonomy FROM "+h.db.t.terms+" WHERE "+cond+h.db.d.forShare()), args,
		func(rows *sql.Rows) error {
			var id int64
			var tax string
			err := rows.Scan(&id, &tax)
			out[id] = tax
			return err
		})
	if err != nil {
		return nil, fail(ctx, "checking terms", err)
	}
	return out, nil
}

// Posts implements contentgen.Host in three queries: the posts, their
// term links and their meta.
func (h *Host) Posts(ctx context.Context, pq contentgen.PostQuery) ([]contentgen.Post, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	q, err := h.reader(ctx)
	if err != nil {
		return nil, err
	}
	w := h.where()
	w.ids("id", pq.IDs)
	w.strs("type", pq.Types)
	w.strs("status", pq.Statuses)
	if pq.AuthorID != 0 {
		w.add("author_id = ?", pq.AuthorID)
	}
	w.hasMeta(contentgen.KindPost, h.db.t.posts+".id", pq.MetaKey, pq.MetaValue)
	w.search(pq.Search, "title")
	out := []contentgen.Post{}
	if w.none {
		return out, nil
	}
	query := "SELECT id, type, status, title, content, excerpt, author_id, parent_id, date, featured_media_id FROM " + h.db.t.posts + w.sql()
	query += w.page(pq.Limit, pq.Offset)
	err = h.db.readTxOn(ctx, q, func(ctx context.Context, q querier) error {
		out = out[:0]
		err := queryEach(ctx, q, h.db.stmt(query), w.args, func(rows *sql.Rows) error {
			var p contentgen.Post
			var date int64
			if err := rows.Scan(&p.ID, &p.Type, &p.Status, &p.Title, &p.Content, &p.Excerpt, &p.AuthorID, &p.ParentID, &date, &p.FeaturedMediaID); err != nil {
				return err
			}
			p.Date = decDate(date)
			out = append(out, p)
			return nil
		})
		if err != nil || len(out) == 0 {
			return err
		}
		ids := make([]int64, len(out))
		for i := range out {
			ids[i] = out[i].ID
			out[i].Terms = map[string][]int64{}
		}
		metas, err := h.loadMeta(ctx, q, contentgen.KindPost, ids)
		if err != nil {
			return err
		}
		byID := make(map[int64]*contentgen.Post, len(out))
		for i := range out {
			out[i].Meta = metas[out[i].ID]
			byID[out[i].ID] = &out[i]
		}
		cond, args := h.db.d.inList("post_id", ids)
		return queryEach(ctx, q, h.db.stmt("SELECT post_id, term_id, taxonomy FROM "+h.db.t.termLinks+" WHERE "+cond+" ORDER BY post_id, taxonomy, position"), args,
			func(rows *sql.Rows) error {
				var post, term int64
				var tax string
				if err := rows.Scan(&post, &term, &tax); err != nil {
					return err
				}
				if p := byID[post]; p != nil {
					p.Terms[tax] = append(p.Terms[tax], term)
				}
				return nil
			})
	})
	if err != nil {
		return nil, fail(ctx, "reading posts", err)
	}
	return out, nil
}

// DeletePosts implements contentgen.Host.
func (h *Host) DeletePosts(ctx context.Context, ids []int64) error {
	return h.write(ctx, func(ctx context.Context, q querier) error {
		_, err := h.deletePosts(ctx, q, ids)
		return fail(ctx, "deleting posts", err)
	})
}

var _ contentgen.PostDeleter = (*Host)(nil)

// DeletePostsWithComments implements contentgen.PostDeleter: one
// transaction of a statement per table.
func (h *Host) DeletePostsWithComments(ctx context.Context, ids []int64) ([]int64, error) {
	var comments []int64
	err := h.write(ctx, func(ctx context.Context, q querier) error {
		var err error
		comments, err = h.deletePosts(ctx, q, ids)
		return fail(ctx, "deleting posts", err)
	})
	if err != nil {
		return nil, err
	}
	return comments, nil
}

// deletePosts removes posts with their meta, term links and comments,
// and returns the ids of the comments, ascending; child posts and
// attached media move to the nearest remaining ancestor.
func (h *Host) deletePosts(ctx context.Context, q querier, ids []int64) ([]int64, error) {
	anc, err := h.parents(ctx, q, h.db.t.posts, ids)
	if err != nil || len(anc) == 0 {
		return nil, err
	}
	removed := make([]int64, 0, len(anc))
	for id := range anc {
		removed = append(removed, id)
	}
	slices.Sort(removed)
	if err := h.countPosts(ctx, q, removed, -1); err != nil {
		return nil, err
	}
	if err := h.reparent(ctx, q, h.db.t.posts, anc); err != nil {
		return nil, err
	}
	if err := h.reparent(ctx, q, h.db.t.media, anc); err != nil {
		return nil, err
	}
	var comments []int64
	cond, args := h.db.d.inList("post_id", removed)
	err = queryEach(ctx, q, h.db.stmt("SELECT id FROM "+h.db.t.comments+" WHERE "+cond+" ORDER BY id"), args, func(rows *sql.Rows) error {
		var id int64
		err := rows.Scan(&id)
		comments = append(comments, id)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := h.deleteMeta(ctx, q, contentgen.KindComment, comments); err != nil {
		return nil, err
	}
	if err := h.deleteIn(ctx, q, h.db.t.comments, "post_id", removed); err != nil {
		return nil, err
	}
	if err := h.deleteIn(ctx, q, h.db.t.termLinks, "post_id", removed); err != nil {
		return nil, err
	}
	if err := h.deleteMeta(ctx, q, contentgen.KindPost, removed); err != nil {
		return nil, err
	}
	return comments, h.deleteIn(ctx, q, h.db.t.posts, "id", removed)
}

// TrashPosts implements contentgen.Trasher.
func (h *Host) TrashPosts(ctx context.Context, ids []int64) error {
	return h.setStatus(ctx, h.db.t.posts, "posts", contentgen.StatusTrash, ids)
}

// TrashComments implements contentgen.Trasher.
func (h *Host) TrashComments(ctx context.Context, ids []int64) error {
	return h.setStatus(ctx, h.db.t.comments, "comments", contentgen.CommentTrash, ids)
}

// setStatus sets the status of the rows of table among ids; what names
// them in errors.
func (h *Host) setStatus(ctx context.Context, table, what, status string, ids []int64) error {
	return h.write(ctx, func(ctx context.Context, q querier) error {
		ids := uniqueIDs(ids)
		if len(ids) == 0 {
			return nil
		}
		counted := table == h.db.t.posts
		if counted {
			if err := h.countPosts(ctx, q, ids, -1); err != nil {
				return fail(ctx, "counting posts", err)
			}
		}
		cond, args := h.db.d.inList("id", ids)
		_, err := q.ExecContext(ctx, h.db.stmt("UPDATE "+table+" SET status = ? WHERE "+cond), append([]any{status}, args...)...)
		if err == nil && counted {
			err = h.countPosts(ctx, q, ids, +1)
		}
		return fail(ctx, "trashing "+what, err)
	})
}
