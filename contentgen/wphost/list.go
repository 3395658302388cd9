package wphost

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/contentgen/contentgen/contentgen"
)

var _ contentgen.Lister = (*Host)(nil)

// List implements contentgen.Lister for posts and media, on WordPress's
// own index of wp_posts (post_type, post_status, ...): a COUNT(*) for the
// total and the page's ids by ID with LIMIT and OFFSET. Terms and users
// are left to the Generator (errors.ErrUnsupported). The count and the
// page are two statements: under MySQL's READ COMMITTED a write committed
// between them may show in one and not the other.
func (h *Host) List(ctx context.Context, kind contentgen.ObjectKind, lq contentgen.Listing) ([]int64, int, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	var where string
	var args []any
	switch kind {
	case contentgen.KindPost:
		types := lq.Subtypes
		if len(types) == 0 {
			h.s.mu.RLock()
			for _, name := range h.s.typeList {
				if !h.s.types[name].Internal {
					types = append(types, name)
				}
			}
			h.s.mu.RUnlock()
			if len(types) == 0 {
				return []int64{}, 0, nil
			}
		}
		where = "p.post_type NOT IN ('attachment', 'revision') AND p.post_type IN (" + marks(len(types)) + ")"
		args = stringArgs(types)
		if len(lq.Statuses) > 0 {
			where += " AND p.post_status IN (" + marks(len(lq.Statuses)) + ")"
			args = append(args, stringArgs(lq.Statuses)...)
		}
	case contentgen.KindMedia:
		where = "p.post_type = 'attachment'"
	default:
		return nil, 0, fmt.Errorf("wphost: listing %s: %w", kind, errors.ErrUnsupported)
	}
	if lq.Search != "" {
		where += " AND p.post_title LIKE ? ESCAPE '!'"
		args = append(args, likeArg(lq.Search))
	}
	marker := "EXISTS (SELECT 1 FROM " + h.s.t.postmeta + " mf WHERE mf.post_id = p.ID AND mf.meta_key = ? AND mf.meta_value = BINARY ?)"
	switch {
	case lq.Origin == contentgen.OnlyGenerated && kind == contentgen.KindMedia:
		where += " AND EXISTS (SELECT 1 FROM " + h.s.t.postmeta + " mf WHERE mf.post_id = p.ID AND mf.meta_key IN (?, ?) AND mf.meta_value = BINARY ?)"
		args = append(args, contentgen.MarkerKey, contentgen.UploadedKey, contentgen.MarkerValue)
	case lq.Origin == contentgen.OnlyGenerated:
		where += " AND " + marker
		args = append(args, contentgen.MarkerKey, contentgen.MarkerValue)
	case lq.Origin == contentgen.NotGenerated:
		where += " AND NOT " + marker
		args = append(args, contentgen.MarkerKey, contentgen.MarkerValue)
	}
	q := h.q(ctx)
	total := 0
	err := q.QueryEach(ctx, "SELECT COUNT(*) FROM "+h.s.t.posts+" p WHERE "+where, args, func(r *sql.Rows) error { return r.Scan(&total) })
	if err != nil {
		return nil, 0, h.fail(ctx, "counting "+string(kind)+"s", err)
	}
	ids := []int64{}
	offset := max(lq.Offset, 0)
	if offset >= total {
		return ids, total, nil
	}
	order := " ORDER BY p.ID"
	if lq.Order == contentgen.NewestFirst {
		order += " DESC"
	}
	err = q.QueryEach(ctx, "SELECT p.ID FROM "+h.s.t.posts+" p WHERE "+where+order+limitClause(max(lq.Limit, 0), offset), args, func(r *sql.Rows) error {
		var id int64
		err := r.Scan(&id)
		ids = append(ids, id)
		return err
	})
	if err != nil {
		return nil, 0, h.fail(ctx, "listing "+string(kind)+"s", err)
	}
	return ids, total, nil
}
