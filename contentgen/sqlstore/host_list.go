package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
)

// postBlock is the number of ids of a block of post_counts; a listing of
// posts reads the counts of every block and at most about one block of
// posts besides its page.
const postBlock = 1024

// countPosts adds sign (+1 or -1) times the posts among ids, with their
// type, status and marker as they are now, to post_counts. Writes call
// it with -1 before they remove or change posts and with +1 after they
// add or change them, in their transaction, so the counts are exact at
// every commit. Increments commute, so concurrent writers do not lose
// each other's.
func (h *Host) countPosts(ctx context.Context, q querier, ids []int64, sign int64) error {
	ids = uniqueIDs(ids)
	if len(ids) == 0 {
		return nil
	}
	type group struct {
		first         int64
		typ, status   string
		marked, count int64
	}
	var groups []group
	cond, args := h.db.d.inList("p.id", ids)
	marked := "CASE WHEN EXISTS (SELECT 1 FROM " + h.db.t.meta + " m WHERE m.kind = ? AND m.object_id = p.id AND m.meta_key = ? AND m.meta_value = ?) THEN 1 ELSE 0 END"
	query := "SELECT p.id - p.id % " + fmt.Sprint(postBlock) + ", p.type, p.status, " + marked + ", COUNT(*) FROM " + h.db.t.posts + " p WHERE " + cond +
		" GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4"
	all := append([]any{string(contentgen.KindPost), contentgen.MarkerKey, contentgen.MarkerValue}, args...)
	err := queryEach(ctx, q, h.db.stmt(query), all, func(rows *sql.Rows) error {
		var g group
		err := rows.Scan(&g.first, &g.typ, &g.status, &g.marked, &g.count)
		groups = append(groups, g)
		return err
	})
	if err != nil || len(groups) == 0 {
		return err
	}
	stmt := "INSERT INTO " + h.db.t.postCounts + " (first_id, type, status, marked, n) VALUES " +
		strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?), ", len(groups)), ", ") +
		h.db.d.upsertAdd(h.db.t.postCounts, []string{"first_id", "type", "status", "marked"}, "n")
	vals := make([]any, 0, 5*len(groups))
	for _, g := range groups {
		vals = append(vals, g.first, g.typ, g.status, g.marked, sign*g.count)
	}
	_, err = q.ExecContext(ctx, h.db.stmt(stmt), vals...)
	return err
}

var _ contentgen.Lister = (*Host)(nil)

// List implements contentgen.Lister for posts, terms, users and media,
// each total and page read on one snapshot. A listing of posts that
// searches nothing takes its total, and the block where its page
// begins, from post_counts, and reads the posts from there by id, so a
// page costs about the same at any depth and on any size of site; other
// listings count their matches and read their page with LIMIT and
// OFFSET in the order of the primary key.
func (h *Host) List(ctx context.Context, kind contentgen.ObjectKind, lq contentgen.Listing) ([]int64, int, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	switch kind {
	case contentgen.KindPost, contentgen.KindTerm, contentgen.KindUser, contentgen.KindMedia:
	default:
		return nil, 0, fmt.Errorf("sqlstore: listing %s: %w", kind, errors.ErrUnsupported)
	}
	lq.Limit, lq.Offset = max(lq.Limit, 0), max(lq.Offset, 0)
	q, err := h.reader(ctx)
	if err != nil {
		return nil, 0, err
	}
	var ids []int64
	var total int
	err = h.db.readTxOn(ctx, q, func(ctx context.Context, q querier) error {
		ids, total = []int64{}, 0
		if kind == contentgen.KindPost {
			types := lq.Subtypes
			if len(types) == 0 {
				all, err := registered[contentgen.PostType](ctx, h, q, regPostType)
				if err != nil {
					return err
				}
				for _, pt := range all {
					if !pt.Internal {
						types = append(types, pt.Name)
					}
				}
				if len(types) == 0 {
					return nil
				}
			}
			lq.Subtypes = types
			if lq.Search == "" {
				return h.listPostsByBlock(ctx, q, lq, &ids, &total)
			}
		}
		table, w := h.listWhere(kind, lq)
		if w.none {
			return nil
		}
		var n int64
		if err := queryRow(ctx, q, h.db.stmt("SELECT COUNT(*) FROM "+table+w.sql()), w.args, &n); err != nil {
			return err
		}
		total = int(n)
		if lq.Offset >= total {
			return nil
		}
		return h.listIDs(ctx, q, table, w, lq, &ids)
	})
	if err != nil {
		return nil, 0, fail(ctx, "listing "+string(kind), err)
	}
	return ids, total, nil
}

// listWhere returns the table and the conditions of a listing of kind.
func (h *Host) listWhere(kind contentgen.ObjectKind, lq contentgen.Listing) (string, *where) {
	w := h.where()
	var table string
	switch kind {
	case contentgen.KindPost:
		table = h.db.t.posts
		w.strs("type", lq.Subtypes)
		w.strs("status", lq.Statuses)
		w.search(lq.Search, "title")
	case contentgen.KindTerm:
		table = h.db.t.terms
		w.strs("taxonomy", lq.Subtypes)
		if lq.Parent != nil {
			w.add("parent_id = ?", *lq.Parent)
		}
		w.search(lq.Search, "name")
	case contentgen.KindUser:
		table = h.db.t.users
		if len(lq.Subtypes) > 0 {
			c, a := h.db.d.inList("r.role", append([]string(nil), lq.Subtypes...))
			w.add("EXISTS (SELECT 1 FROM "+h.db.t.userRoles+" r WHERE r.user_id = "+table+".id AND "+c+")", a...)
		}
		w.search(lq.Search, "login", "display_name", "email")
	case contentgen.KindMedia:
		table = h.db.t.media
		w.search(lq.Search, "title")
	}
	w.origin(kind, table+".id", lq.Origin)
	return table, w
}

// origin keeps the objects of kind (whose id is in idCol) of origin o.
func (w *where) origin(kind contentgen.ObjectKind, idCol string, o contentgen.Origin) {
	exists := "EXISTS (SELECT 1 FROM " + w.meta + " m WHERE m.kind = ? AND m.object_id = " + idCol + " AND m.meta_key = ? AND m.meta_value = ?)"
	switch {
	case o == contentgen.OnlyGenerated && kind == contentgen.KindMedia:
		w.add("EXISTS (SELECT 1 FROM "+w.meta+" m WHERE m.kind = ? AND m.object_id = "+idCol+" AND m.meta_key IN (?, ?) AND m.meta_value = ?)",
			string(kind), contentgen.MarkerKey, contentgen.UploadedKey, contentgen.MarkerValue)
	case o == contentgen.OnlyGenerated:
		w.add(exists, string(kind), contentgen.MarkerKey, contentgen.MarkerValue)
	case o == contentgen.NotGenerated:
		w.add("NOT "+exists, string(kind), contentgen.MarkerKey, contentgen.MarkerValue)
	}
}

// listIDs reads the ids of one page of a listing of table: its matches
// in order of id, from the Offset-th on.
func (h *Host) listIDs(ctx context.Context, q querier, table string, w *where, lq contentgen.Listing, ids *[]int64) error {
	limit := int64(math.MaxInt64)
	if lq.Limit > 0 {
		limit = int64(lq.Limit)
	}
	order := " ORDER BY id"
	if lq.Order == contentgen.NewestFirst {
		order += " DESC"
	}
	args := append(w.args, limit, int64(lq.Offset))
	return queryEach(ctx, q, h.db.stmt("SELECT id FROM "+table+w.sql()+order+" LIMIT ? OFFSET ?"), args, func(rows *sql.Rows) error {
		var id int64
		err := rows.Scan(&id)
		*ids = append(*ids, id)
		return err
	})
}

// listPostsByBlock lists posts without a search through post_counts: the
// sum of the counts is the total; the counts per block, in the order of
// the listing, say in which block the page begins and how many matches
// of that block come before it; the page is read from there.
func (h *Host) listPostsByBlock(ctx context.Context, q querier, lq contentgen.Listing, ids *[]int64, total *int) error {
	cw := h.where()
	cw.strs("type", lq.Subtypes)
	cw.strs("status", lq.Statuses)
	switch lq.Origin {
	case contentgen.OnlyGenerated:
		cw.add("marked = 1")
	case contentgen.NotGenerated:
		cw.add("marked = 0")
	}
	desc := lq.Order == contentgen.NewestFirst
	order := " ORDER BY first_id"
	if desc {
		order += " DESC"
	}
	type block struct{ first, n int64 }
	var blocks []block
	err := queryEach(ctx, q, h.db.stmt("SELECT first_id, SUM(n) FROM "+h.db.t.postCounts+cw.sql()+" GROUP BY first_id"+order), cw.args,
		func(rows *sql.Rows) error {
			var b block
			err := rows.Scan(&b.first, &b.n)
			if b.n > 0 {
				blocks = append(blocks, b)
				*total += int(b.n)
			}
			return err
		})
	if err != nil || lq.Offset >= *total {
		return err
	}
	// The block where the page begins, the matches of the listing
	// before it, and the block after the page's last match.
	skip := int64(lq.Offset)
	i := 0
	for ; skip >= blocks[i].n; i++ {
		skip -= blocks[i].n
	}
	end := len(blocks)
	if lq.Limit > 0 {
		need := skip + int64(lq.Limit)
		for end = i; end < len(blocks) && need > 0; end++ {
			need -= blocks[end].n
		}
	}
	w := h.where()
	if desc {
		w.add("id < ?", blocks[i].first+postBlock)
		if end < len(blocks) {
			w.add("id >= ?", blocks[end-1].first)
		}
	} else {
		w.add("id >= ?", blocks[i].first)
		if end < len(blocks) {
			w.add("id < ?", blocks[end-1].first+postBlock)
		}
	}
	w.strs(h.db.d.byKey("type"), lq.Subtypes)
	w.strs(h.db.d.byKey("status"), lq.Statuses)
	w.origin(contentgen.KindPost, h.db.t.posts+".id", lq.Origin)
	lq.Offset = int(skip)
	return h.listIDs(ctx, q, h.db.t.posts, w, lq, ids)
}
