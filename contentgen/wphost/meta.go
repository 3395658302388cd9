package wphost

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// metaTable describes where the meta of a kind of object lives.
type metaTable struct {
	table, idCol string
	// exists is a query of the existing ids among a list (one "%s" for
	// the placeholders).
	exists string
}

func (h *Host) metaTable(kind contentgen.ObjectKind) (metaTable, error) {
	t := h.s.t
	switch kind {
	case contentgen.KindPost:
		return metaTable{t.postmeta, "post_id", "SELECT ID FROM " + t.posts + " WHERE ID IN (%s) AND post_type NOT IN ('attachment', 'revision')"}, nil
	case contentgen.KindMedia:
		return metaTable{t.postmeta, "post_id", "SELECT ID FROM " + t.posts + " WHERE ID IN (%s) AND post_type = 'attachment'"}, nil
	case contentgen.KindTerm:
		return metaTable{t.termmeta, "term_id", "SELECT term_id FROM " + t.termTaxonomy + " WHERE term_id IN (%s)"}, nil
	case contentgen.KindUser:
		return metaTable{t.usermeta, "user_id", "SELECT ID FROM " + t.users + " WHERE ID IN (%s)"}, nil
	case contentgen.KindComment:
		return metaTable{t.commentmeta, "comment_id", "SELECT comment_ID FROM " + t.comments + " WHERE comment_ID IN (%s)"}, nil
	}
	return metaTable{}, invalidf("unknown object kind %q", kind)
}

// hiddenMeta reports whether a meta key holds a field of the object (the
// featured image, roles, names, the file of a media item) rather than
// free meta, and so is left out of the Meta of query results.
func (h *Host) hiddenMeta(kind contentgen.ObjectKind, key string) bool {
	switch kind {
	case contentgen.KindPost:
		return key == "_thumbnail_id"
	case contentgen.KindMedia:
		return key == "_wp_attached_file" || key == "_wp_attachment_metadata"
	case contentgen.KindUser:
		switch key {
		case h.s.t.prefix + "capabilities", h.s.t.prefix + "user_level", "first_name", "last_name", "description":
			return true
		}
	}
	return false
}

// loadMeta reads the meta of ids (the first value of a key wins, as
// get_metadata with $single does); with hide, field keys are left out.
func (h *Host) loadMeta(ctx context.Context, q sqlstore.Querier, kind contentgen.ObjectKind, ids []int64, hide bool) (map[int64]contentgen.Meta, error) {
	out := make(map[int64]contentgen.Meta, len(ids))
	for _, id := range ids {
		out[id] = contentgen.Meta{}
	}
	if len(ids) == 0 {
		return out, nil
	}
	mt, err := h.metaTable(kind)
	if err != nil {
		return nil, err
	}
	query := "SELECT " + mt.idCol + ", meta_key, meta_value FROM " + mt.table + " WHERE " + mt.idCol + " IN (" + marks(len(ids)) + ") ORDER BY " + mt.idCol + ", " + metaIDCol(mt.table, h.s.t)
	err = q.QueryEach(ctx, query, int64Args(ids), func(r *sql.Rows) error {
		var id int64
		var k, v sql.NullString
		if err := r.Scan(&id, &k, &v); err != nil {
			return err
		}
		m := out[id]
		if m == nil || (hide && h.hiddenMeta(kind, k.String)) {
			return nil
		}
		if _, seen := m[k.String]; !seen {
			m[k.String] = v.String
		}
		return nil
	})
	return out, err
}

// metaIDCol is the primary key of a meta table.
func metaIDCol(table string, t tables) string {
	if table == t.usermeta {
		return "umeta_id"
	}
	return "meta_id"
}

// Meta returns a copy of every meta value of an object (the first value
// of a key), or an error wrapping contentgen.ErrHostNotFound.
func (h *Host) Meta(ctx context.Context, kind contentgen.ObjectKind, id int64) (contentgen.Meta, error) {
	mt, err := h.metaTable(kind)
	if err != nil {
		return nil, err
	}
	q := h.q(ctx)
	found, err := h.idSet(ctx, q, fmt.Sprintf(mt.exists, "?"), []any{id})
	if err != nil {
		return nil, h.fail(ctx, "reading meta", err)
	}
	if !found[id] {
		return nil, fmt.Errorf("wphost: %s %d: %w", kind, id, contentgen.ErrHostNotFound)
	}
	all, err := h.loadMeta(ctx, q, kind, []int64{id}, false)
	if err != nil {
		return nil, h.fail(ctx, "reading meta", err)
	}
	return all[id], nil
}

// SetMeta sets the keys of m on an object, replacing every earlier value
// of each, and leaves other keys as they are; an error wrapping
// contentgen.ErrHostNotFound when the object does not exist.
func (h *Host) SetMeta(ctx context.Context, kind contentgen.ObjectKind, id int64, m contentgen.Meta) error {
	mt, err := h.metaTable(kind)
	if err != nil {
		return err
	}
	return h.write(ctx, "setting meta", func(ctx context.Context, q sqlstore.Querier) error {
		found, err := h.idSet(ctx, q, fmt.Sprintf(mt.exists, "?")+" LOCK IN SHARE MODE", []any{id})
		if err != nil {
			return err
		}
		if !found[id] {
			return fmt.Errorf("wphost: %s %d: %w", kind, id, contentgen.ErrHostNotFound)
		}
		if len(m) == 0 {
			return nil
		}
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range m {
				if !yield(k) {
					return
				}
			}
		})
		args := append([]any{id}, stringArgs(keys)...)
		if _, err := q.ExecContext(ctx, "DELETE FROM "+mt.table+" WHERE "+mt.idCol+" = ? AND meta_key IN ("+marks(len(keys))+")", args...); err != nil {
			return err
		}
		return insertRows(ctx, q, mt.table, []string{mt.idCol, "meta_key", "meta_value"}, len(keys), func(i int) []any {
			return []any{id, keys[i], m[keys[i]]}
		}, nil)
	})
}

// metaRow is one meta row to insert.
type metaRow struct {
	id         int64
	key, value string
}

// insertMeta inserts meta rows into a meta table.
func insertMeta(ctx context.Context, q sqlstore.Querier, table, idCol string, rows []metaRow) error {
	return insertRows(ctx, q, table, []string{idCol, "meta_key", "meta_value"}, len(rows), func(i int) []any {
		return []any{rows[i].id, rows[i].key, rows[i].value}
	}, nil)
}

// sortedMeta appends the rows of m for id, by key, so that statements are
// reproducible.
func sortedMeta(rows []metaRow, id int64, m contentgen.Meta) []metaRow {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		rows = append(rows, metaRow{id, k, m[k]})
	}
	return rows
}

// stringArgs returns strings as statement arguments.
func stringArgs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// metaFilter returns the condition and arguments of a MetaKey/MetaValue
// filter on objects whose id is idExpr.
func metaFilter(table, idCol, idExpr, key, value string) (string, []any) {
	if value == "" {
		return "EXISTS (SELECT 1 FROM " + table + " mf WHERE mf." + idCol + " = " + idExpr + " AND mf.meta_key = ?)", []any{key}
	}
	return "EXISTS (SELECT 1 FROM " + table + " mf WHERE mf." + idCol + " = " + idExpr + " AND mf.meta_key = ? AND mf.meta_value = BINARY ?)", []any{key, value}
}
