package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"github.com/contentgen/contentgen/contentgen"
)

// of returns the table of a kind of object.
func (t *tables) of(kind contentgen.ObjectKind) (string, error) {
	switch kind {
	case contentgen.KindPost:
		return t.posts, nil
	case contentgen.KindTerm:
		return t.terms, nil
	case contentgen.KindUser:
		return t.users, nil
	case contentgen.KindComment:
		return t.comments, nil
	case contentgen.KindMedia:
		return t.media, nil
	}
	return "", fmt.Errorf("%w: unknown object kind %q", ErrInvalid, kind)
}

// uniqueIDs returns the distinct non-zero ids, sorted.
func uniqueIDs(ids []int64) []int64 {
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if id != 0 {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// lockOrder: the writes of the Host lock the rows they delete (FOR
// UPDATE) or refer to (FOR SHARE) table by table in one order, users,
// terms, media, posts, comments, and within a table by ascending id,
// before they change anything, so that two writes never wait for each
// other in a circle. A delete locks the rows it removes first: a write
// that refers to one of them waits for the delete to commit and then
// finds it gone (contentgen.ErrHostReference), and leaves nothing behind
// that names it.

// lockRows returns which of ids exist in table, locking them (FOR UPDATE
// on PostgreSQL and MySQL, in ascending id order) for the delete that
// follows.
func (h *Host) lockRows(ctx context.Context, q querier, table string, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	ids = uniqueIDs(ids)
	if len(ids) == 0 {
		return out, nil
	}
	cond, args := h.db.d.inList("id", ids)
	err := queryEach(ctx, q, h.db.stmt("SELECT id FROM "+table+" WHERE "+cond+" ORDER BY id"+h.db.d.forUpdate()), args,
		func(rows *sql.Rows) error {
			var id int64
			err := rows.Scan(&id)
			out[id] = true
			return err
		})
	return out, err
}

// parents returns the parent_id of the rows of table among ids that exist,
// by id, locking them (FOR UPDATE on PostgreSQL and MySQL, in ascending
// id order) for the delete that follows.
func (h *Host) parents(ctx context.Context, q querier, table string, ids []int64) (map[int64]int64, error) {
	out := map[int64]int64{}
	ids = uniqueIDs(ids)
	if len(ids) == 0 {
		return out, nil
	}
	cond, args := h.db.d.inList("id", ids)
	err := queryEach(ctx, q, h.db.stmt("SELECT id, parent_id FROM "+table+" WHERE "+cond+" ORDER BY id"+h.db.d.forUpdate()), args,
		func(rows *sql.Rows) error {
			var id, parent int64
			err := rows.Scan(&id, &parent)
			out[id] = parent
			return err
		})
	return out, err
}

// existing returns which of ids exist in table, locking them against
// deletion until the transaction ends (FOR SHARE on PostgreSQL, LOCK IN
// SHARE MODE on MySQL) when lock is set.
func (h *Host) existing(ctx context.Context, q querier, table string, ids []int64, lock bool) (map[int64]bool, error) {
	out := map[int64]bool{}
	ids = uniqueIDs(ids)
	if len(ids) == 0 {
		return out, nil
	}
	cond, args := h.db.d.inList("id", ids)
	suffix := ""
	if lock {
		suffix = " ORDER BY id" + h.db.d.forShare()
	}
	err := queryEach(ctx, q, h.db.stmt("SELECT id FROM "+table+" WHERE "+cond+suffix), args, func(rows *sql.Rows) error {
		var id int64
		err := rows.Scan(&id)
		out[id] = true
		return err
	})
	return out, err
}

// requireRefs checks, inside the write, that every non-zero id of refs
// exists in table, and keeps them from being deleted until the commit.
func (h *Host) requireRefs(ctx context.Context, q querier, table, what string, refs []int64) error {
	found, err := h.existing(ctx, q, table, refs, true)
	if err != nil {
		return fail(ctx, "checking "+what+"s", err)
	}
	for _, id := range refs {
		if id != 0 && !found[id] {
			return fmt.Errorf("sqlstore: %w: %s %d does not exist", contentgen.ErrHostReference, what, id)
		}
	}
	return nil
}

// reparent moves the rows of table whose parent is being removed to the
// nearest ancestor that stays: anc maps each removed id to its parent.
func (h *Host) reparent(ctx context.Context, q querier, table string, anc map[int64]int64) error {
	if len(anc) == 0 {
		return nil
	}
	removed := make([]int64, 0, len(anc))
	for id := range anc {
		removed = append(removed, id)
	}
	slices.Sort(removed)
	cond, args := h.db.d.inList("parent_id", removed)
	moves := map[int64][]int64{}
	err := queryEach(ctx, q, h.db.stmt("SELECT id, parent_id FROM "+table+" WHERE "+cond), args, func(rows *sql.Rows) error {
		var id, p int64
		if err := rows.Scan(&id, &p); err != nil {
			return err
		}
		if _, gone := anc[id]; gone && table != h.db.t.media {
			return nil
		}
		for range len(anc) + 1 {
			next, gone := anc[p]
			if !gone {
				break
			}
			p = next
		}
		moves[p] = append(moves[p], id)
		return nil
	})
	if err != nil {
		return err
	}
	for p, ids := range moves {
		cond, args := h.db.d.inList("id", ids)
		if _, err := q.ExecContext(ctx, h.db.stmt("UPDATE "+table+" SET parent_id = ? WHERE "+cond), append([]any{p}, args...)...); err != nil {
			return err
		}
	}
	return nil
}

// deleteIn deletes the rows of table whose column col is among ids.
func (h *Host) deleteIn(ctx context.Context, q querier, table, col string, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	cond, args := h.db.d.inList(col, ids)
	_, err := q.ExecContext(ctx, h.db.stmt("DELETE FROM "+table+" WHERE "+cond), args...)
	return err
}

// deleteMeta removes the meta of objects.
func (h *Host) deleteMeta(ctx context.Context, q querier, kind contentgen.ObjectKind, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	cond, args := h.db.d.inList("object_id", ids)
	_, err := q.ExecContext(ctx, h.db.stmt("DELETE FROM "+h.db.t.meta+" WHERE kind = ? AND "+cond), append([]any{string(kind)}, args...)...)
	return err
}

// insertMeta stores the meta of new objects.
func (h *Host) insertMeta(ctx context.Context, q querier, kind contentgen.ObjectKind, ids []int64, metas []contentgen.Meta) error {
	type kv struct {
		id   int64
		k, v string
	}
	var rows []kv
	for i, m := range metas {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			rows = append(rows, kv{ids[i], k, m[k]})
		}
	}
	if len(rows) == 0 {
		return nil
	}
	return h.db.d.insertRows(ctx, q, newRows(h.db.t.meta, len(rows)).
		text("kind", func(int) string { return string(kind) }).
		bigint("object_id", func(i int) int64 { return rows[i].id }).
		text("meta_key", func(i int) string { return rows[i].k }).
		text("meta_value", func(i int) string { return rows[i].v }))
}

// loadMeta reads the meta of objects in one query; every id gets a
// non-nil Meta.
func (h *Host) loadMeta(ctx context.Context, q querier, kind contentgen.ObjectKind, ids []int64) (map[int64]contentgen.Meta, error) {
	out := make(map[int64]contentgen.Meta, len(ids))
	for _, id := range ids {
		out[id] = contentgen.Meta{}
	}
	if len(ids) == 0 {
		return out, nil
	}
	cond, args := h.db.d.inList("object_id", ids)
	err := queryEach(ctx, q, h.db.stmt("SELECT object_id, meta_key, meta_value FROM "+h.db.t.meta+" WHERE kind = ? AND "+cond),
		append([]any{string(kind)}, args...), func(rows *sql.Rows) error {
			var id int64
			var k, v string
			if err := rows.Scan(&id, &k, &v); err != nil {
				return err
			}
			if m := out[id]; m != nil {
				m[k] = v
			}
			return nil
		})
	return out, err
}

// Meta implements contentgen.Host.
func (h *Host) Meta(ctx context.Context, kind contentgen.ObjectKind, id int64) (contentgen.Meta, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	table, err := h.db.t.of(kind)
	if err != nil {
		return nil, err
	}
	q, err := h.reader(ctx)
	if err != nil {
		return nil, err
	}
	var m contentgen.Meta
	err = h.db.readTxOn(ctx, q, func(ctx context.Context, q querier) error {
		found, err := h.existing(ctx, q, table, []int64{id}, false)
		if err != nil {
			return err
		}
		if !found[id] {
			return fmt.Errorf("sqlstore: %w: %s %d", contentgen.ErrHostNotFound, kind, id)
		}
		all, err := h.loadMeta(ctx, q, kind, []int64{id})
		m = all[id]
		return err
	})
	if err != nil {
		return nil, fail(ctx, "reading meta", err)
	}
	return m, nil
}

// SetMeta implements contentgen.Host, with one multi-row upsert.
func (h *Host) SetMeta(ctx context.Context, kind contentgen.ObjectKind, id int64, m contentgen.Meta) error {
	table, err := h.db.t.of(kind)
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(m))
	args := make([]any, 0, 4*len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		args = append(args, string(kind), id, k, m[k])
	}
	return h.write(ctx, func(ctx context.Context, q querier) error {
		found, err := h.existing(ctx, q, table, []int64{id}, true)
		if err != nil {
			return fail(ctx, "setting meta", err)
		}
		if !found[id] {
			return fmt.Errorf("sqlstore: %w: %s %d", contentgen.ErrHostNotFound, kind, id)
		}
		if len(keys) == 0 {
			return nil
		}
		stmt := "INSERT INTO " + h.db.t.meta + " (kind, object_id, meta_key, meta_value) VALUES (?,?,?,?)"
		for range len(keys) - 1 {
			stmt += ",(?,?,?,?)"
		}
		stmt += h.db.d.upsert([]string{"kind", "object_id", "meta_key"}, []string{"meta_value"})
		// A post's marker is counted in post_counts.
		_, marker := m[contentgen.MarkerKey]
		counted := kind == contentgen.KindPost && marker
		if counted {
			if err := h.countPosts(ctx, q, []int64{id}, -1); err != nil {
				return fail(ctx, "counting posts", err)
			}
		}
		_, err = q.ExecContext(ctx, h.db.stmt(stmt), args...)
		if err == nil && counted {
			err = h.countPosts(ctx, q, []int64{id}, +1)
		}
		return fail(ctx, "setting meta", err)
	})
}

// Exist implements contentgen.Exister in one query. In a transaction it
// locks the rows it finds (FOR SHARE on PostgreSQL and MySQL) until the
// transaction ends, so that what the caller writes next may refer to them:
// a concurrent delete of one either has committed, and Exist reports it
// gone, or waits for the transaction.
func (h *Host) Exist(ctx context.Context, kind contentgen.ObjectKind, ids []int64) ([]bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	table, err := h.db.t.of(kind)
	if err != nil {
		return nil, err
	}
	q, err := h.reader(ctx)
	if err != nil {
		return nil, err
	}
	// In a transaction, the rows found stay until it ends: what the caller
	// goes on to write may refer to them (see lockOrder).
	_, inTx := q.(lockedTx)
	found, err := h.existing(ctx, q, table, ids, inTx)
	if err != nil {
		return nil, fail(ctx, "checking existence", err)
	}
	out := make([]bool, len(ids))
	for i, id := range ids {
		out[i] = found[id]
	}
	return out, nil
}
