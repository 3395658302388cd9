package wphost

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
)

var _ contentgen.Lister = (*Host)(nil)

// List implements contentgen.Lister for posts, media, terms and users,
// on WordPress's own indexes (wp_posts by post_type and post_status,
// term_taxonomy by taxonomy): a COUNT(*) for the total and the page's ids
// by id with LIMIT and OFFSET. The count and the page are two statements:
// under MySQL's READ COMMITTED a write committed between them may show in
// one and not the other.
func (h *Host) List(ctx context.Context, kind contentgen.ObjectKind, lq contentgen.Listing) ([]int64, int, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	t := h.s.t
	// from is the table (or join), id the id column, meta the meta table
	// and its id column.
	var from, id, meta, metaID, where string
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
		from, id, meta, metaID = t.posts+" p", "p.ID", t.postmeta, "post_id"
		where = "p.post_type NOT IN ('attachment', 'revision') AND p.post_type IN (" + marks(len(types)) + ")"
		args = stringArgs(types)
		if len(lq.Statuses) > 0 {
			where += " AND p.post_status IN (" + marks(len(lq.Statuses)) + ")"
			args = append(args, stringArgs(lq.Statuses)...)
		}
		if lq.Search != "" {
			where += " AND p.post_title LIKE ? ESCAPE '!'"
			args = append(args, likeArg(lq.Search))
		}
	case contentgen.KindMedia:
		from, id, meta, metaID = t.posts+" p", "p.ID", t.postmeta, "post_id"
		where = "p.post_type = 'attachment'"
		if lq.Search != "" {
			where += " AND p.post_title LIKE ? ESCAPE '!'"
			args = append(args, likeArg(lq.Search))
		}
	case contentgen.KindTerm:
		from, id, meta, metaID = t.terms+" te JOIN "+t.termTaxonomy+" tt ON tt.term_id = te.term_id", "te.term_id", t.termmeta, "term_id"
		where = "1=1"
		if len(lq.Subtypes) > 0 {
			where += " AND tt.taxonomy IN (" + marks(len(lq.Subtypes)) + ")"
			args = append(args, stringArgs(lq.Subtypes)...)
		}
		if lq.Parent != nil {
			where += " AND tt.parent = ?"
			args = append(args, *lq.Parent)
		}
		if lq.Search != "" {
			where += " AND te.name LIKE ? ESCAPE '!'"
			args = append(args, likeArg(lq.Search))
		}
	case contentgen.KindUser:
		from, id, meta, metaID = t.users+" u", "u.ID", t.usermeta, "user_id"
		where = "1=1"
		if lq.Search != "" {
			where += " AND (u.user_login LIKE ? ESCAPE '!' OR u.display_name LIKE ? ESCAPE '!' OR u.user_email LIKE ? ESCAPE '!')"
			l := likeArg(lq.Search)
			args = append(args, l, l, l)
		}
		if len(lq.Subtypes) > 0 {
			var ors []string
			for _, r := range lq.Subtypes {
				ors = append(ors, "rm.meta_value LIKE ? ESCAPE '!'")
				s, _ := phpSerialize(r)
				args = append(args, likeArg(s+"b:1;"))
			}
			where += " AND EXISTS (SELECT 1 FROM " + t.usermeta + " rm WHERE rm.user_id = u.ID AND rm.meta_key = '" + t.prefix + "capabilities' AND (" + strings.Join(ors, " OR ") + "))"
		}
	default:
		return nil, 0, fmt.Errorf("wphost: listing %s: %w", kind, errors.ErrUnsupported)
	}
	marker := "EXISTS (SELECT 1 FROM " + meta + " mf WHERE mf." + metaID + " = " + id + " AND mf.meta_key = ? AND mf.meta_value = BINARY ?)"
	switch {
	case lq.Origin == contentgen.OnlyGenerated && kind == contentgen.KindMedia:
		where += " AND EXISTS (SELECT 1 FROM " + meta + " mf WHERE mf." + metaID + " = " + id + " AND mf.meta_key IN (?, ?) AND mf.meta_value = BINARY ?)"
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
	err := q.QueryEach(ctx, "SELECT COUNT(*) FROM "+from+" WHERE "+where, args, func(r *sql.Rows) error { return r.Scan(&total) })
	if err != nil {
		return nil, 0, h.fail(ctx, "counting "+string(kind)+"s", err)
	}
	ids := []int64{}
	offset := max(lq.Offset, 0)
	if offset >= total {
		return ids, total, nil
	}
	order := " ORDER BY " + id
	if lq.Order == contentgen.NewestFirst {
		order += " DESC"
	}
	err = q.QueryEach(ctx, "SELECT "+id+" FROM "+from+" WHERE "+where+order+limitClause(max(lq.Limit, 0), offset), args, func(r *sql.Rows) error {
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
