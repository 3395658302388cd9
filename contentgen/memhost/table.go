package memhost

import (
	"slices"

	"github.com/contentgen/contentgen/contentgen"
)

// table holds the rows of one kind of object keyed by id, keeps their ids
// in ascending order for queries, and records the previous version of
// every row it changes while a transaction is open (one undo level per
// open transaction or savepoint).
//
// Rows are owned by the table: callers copy them on the way in and out.
// Indexes derived from rows are kept by the added and removed hooks, so
// that undoing a change restores them too. The rows of a batch may share
// one array: a row dropped from the table is cleared, so that what it held
// does not stay reachable through the rows left of its batch.
type table[T any] struct {
	rows map[int64]*T
	// order holds the ids in ascending order; while stale it may also hold
	// removed or duplicate ids, or be unsorted, until tidy runs.
	order []int64
	stale bool
	// levels are the undo logs of the open transactions, innermost last:
	// id to the row before its first change at that level (nil when the
	// row did not exist).
	levels  []map[int64]*T
	clone   func(*T) *T
	added   func(id int64, r *T)
	removed func(id int64, r *T)
}

func newTable[T any](clone func(*T) *T, added, removed func(int64, *T)) *table[T] {
	if added == nil {
		added = func(int64, *T) {}
	}
	if removed == nil {
		removed = func(int64, *T) {}
	}
	return &table[T]{rows: map[int64]*T{}, clone: clone, added: added, removed: removed}
}

// get returns the stored row, nil when absent. The row must not be changed
// except through update.
func (t *table[T]) get(id int64) *T { return t.rows[id] }

// has reports whether the row exists.
func (t *table[T]) has(id int64) bool {
	_, ok := t.rows[id]
	return ok
}

// save records the current version of row id in the innermost undo log,
// once per level.
func (t *table[T]) save(id int64) {
	n := len(t.levels)
	if n == 0 {
		return
	}
	top := t.levels[n-1]
	if _, ok := top[id]; ok {
		return
	}
	if r, ok := t.rows[id]; ok {
		top[id] = t.clone(r)
	} else {
		top[id] = nil
	}
}

// zeroRow zeroes a row the table dropped.
func zeroRow[T any](r *T) {
	var zero T
	*r = zero
}

// insert stores r under id, replacing any row.
func (t *table[T]) insert(id int64, r *T) {
	t.save(id)
	t.set(id, r)
}

// set stores r under id without recording an undo entry.
func (t *table[T]) set(id int64, r *T) {
	if old, ok := t.rows[id]; ok {
		t.removed(id, old)
		if old != r {
			zeroRow(old)
		}
	} else {
		if n := len(t.order); n > 0 && id <= t.order[n-1] {
			t.stale = true
		}
		t.order = append(t.order, id)
	}
	t.rows[id] = r
	t.added(id, r)
}

// update changes row id in place through fn and reports whether it exists.
func (t *table[T]) update(id int64, fn func(r *T)) bool {
	r, ok := t.rows[id]
	if !ok {
		return false
	}
	t.save(id)
	t.removed(id, r)
	fn(r)
	t.added(id, r)
	return true
}

// remove deletes row id and reports whether it existed.
func (t *table[T]) remove(id int64) bool {
	if !t.has(id) {
		return false
	}
	t.save(id)
	t.unset(id)
	return true
}

// unset deletes row id without recording an undo entry.
func (t *table[T]) unset(id int64) {
	r, ok := t.rows[id]
	if !ok {
		return
	}
	t.removed(id, r)
	delete(t.rows, id)
	zeroRow(r)
	t.stale = true
}

// tidy brings order back to the sorted ids of the existing rows. Writers
// call it before releasing the lock, so that readers never change order.
func (t *table[T]) tidy() {
	if !t.stale {
		return
	}
	out := t.order[:0]
	for _, id := range t.order {
		if _, ok := t.rows[id]; ok {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	t.order = slices.Compact(out)
	t.stale = false
}

// push opens an undo level.
func (t *table[T]) push() { t.levels = append(t.levels, map[int64]*T{}) }

// pop closes the innermost undo level. With undo, every row it recorded
// goes back to its saved version; otherwise the saved versions pass to the
// enclosing level for the rows that level has not saved yet.
func (t *table[T]) pop(undo bool) {
	n := len(t.levels)
	top := t.levels[n-1]
	t.levels = t.levels[:n-1]
	if undo {
		// Restore in id order so that derived indexes are rebuilt
		// deterministically.
		ids := make([]int64, 0, len(top))
		for id := range top {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			if before := top[id]; before == nil {
				t.unset(id)
			} else {
				t.set(id, before)
			}
		}
		t.tidy()
		return
	}
	if n == 1 {
		return
	}
	outer := t.levels[n-2]
	for id, before := range top {
		if _, ok := outer[id]; !ok {
			outer[id] = before
		}
	}
}

// scan calls fn for the rows in id order, or for the rows named by ids
// (deduplicated, in id order) when ids is non-nil, until fn returns false.
func (t *table[T]) scan(ids []int64, fn func(id int64, r *T) bool) {
	if ids == nil {
		for _, id := range t.order {
			if !fn(id, t.rows[id]) {
				return
			}
		}
		return
	}
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	for _, id := range sorted {
		if r, ok := t.rows[id]; ok {
			if !fn(id, r) {
				return
			}
		}
	}
}

// window applies an offset and a limit (0 = none) to a stream of matches.
type window struct {
	skip, left int
	capped     bool
}

func newWindow(limit, offset int) window {
	return window{skip: max(offset, 0), left: limit, capped: limit > 0}
}

// take reports whether the next match belongs to the result, and whether
// more matches may follow.
func (w *window) take() (keep, more bool) {
	if w.skip > 0 {
		w.skip--
		return false, true
	}
	if !w.capped {
		return true, true
	}
	w.left--
	return true, w.left > 0
}

// find returns copies of the rows that match, in id order, within the
// window of limit and offset. An empty ids slice does not filter.
func find[T, R any](t *table[T], f contentgen.IDFilter, match func(*T) bool, limit, offset int, out func(*T) R) []R {
	res := []R{}
	var ids []int64
	if f.Active() {
		if len(f.List()) == 0 {
			return res
		}
		ids = f.List()
	}
	w := newWindow(limit, offset)
	t.scan(ids, func(_ int64, r *T) bool {
		if !match(r) {
			return true
		}
		keep, more := w.take()
		if keep {
			res = append(res, out(r))
		}
		return more
	})
	return res
}
