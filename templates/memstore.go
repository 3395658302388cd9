package templates

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"
)

// MemStore is an in-memory Store, safe for concurrent use. Atomic holds
// the store's lock for the whole of its fn, so fn must use the Store it
// receives: calling the MemStore itself from fn deadlocks. The zero value
// is not usable; call NewMemStore.
type MemStore struct {
	mu     sync.RWMutex
	byID   map[int64]*Template
	nextID int64
	mark   SyncMark
}

var _ Store = (*MemStore)(nil)

// NewMemStore returns an empty store.
func NewMemStore() *MemStore {
	return &MemStore{byID: map[int64]*Template{}, nextID: 1}
}

// errUnitDone is returned by the Store an Atomic fn received when it is
// used after fn returned.
var errUnitDone = errors.New("templates: store of an atomic unit used after the unit ended")

// cloneStored copies t deeply, without LinkedParents, which a Store never
// keeps.
func cloneStored(t *Template) Template {
	c := *t
	c.FieldConfig = t.FieldConfig.Clone()
	c.TaxonomyConfig = t.TaxonomyConfig.Clone()
	c.LinkedParents = nil
	c.FieldSignature = slices.Clone(t.FieldSignature)
	return c
}

func cloneMark(m SyncMark) SyncMark {
	out := SyncMark{SeenAt: m.SeenAt}
	if m.Signatures != nil {
		out.Signatures = make(map[string]Signature, len(m.Signatures))
		for k, v := range m.Signatures {
			out.Signatures[k] = slices.Clone(v)
		}
	}
	return out
}

// Get implements Store.
func (s *MemStore) Get(ctx context.Context, id int64) (Template, error) {
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.getLocked(id)
}

// List implements Store.
func (s *MemStore) List(ctx context.Context, f Filter) ([]Template, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.listLocked(f), nil
}

// Insert implements Store.
func (s *MemStore) Insert(ctx context.Context, t Template) (Template, error) {
	if err := ctx.Err(); err != nil {
		return Template{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.insertLocked(nil, t), nil
}

// Put implements Store.
func (s *MemStore) Put(ctx context.Context, t Template) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.putLocked(nil, t)
}

// Delete implements Store.
func (s *MemStore) Delete(ctx context.Context, ids []int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deleteLocked(nil, ids)
	return nil
}

// SyncMark implements Store.
func (s *MemStore) SyncMark(ctx context.Context) (SyncMark, error) {
	if err := ctx.Err(); err != nil {
		return SyncMark{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return cloneMark(s.mark), nil
}

// SetSyncMark implements Store.
func (s *MemStore) SetSyncMark(ctx context.Context, m SyncMark) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.setMarkLocked(nil, m)
	return nil
}

// Atomic implements Store. It holds the store's write lock until fn
// returns, so units run one at a time and plain reads wait for them.
func (s *MemStore) Atomic(ctx context.Context, fn func(ctx context.Context, s Store) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.runLocked(ctx, &memUnit{s: s}, fn)
}

func (s *MemStore) getLocked(id int64) (Template, error) {
	t, ok := s.byID[id]
	if !ok {
		return Template{}, ErrNotFound
	}
	return cloneStored(t), nil
}

func (s *MemStore) listLocked(f Filter) []Template {
	out := []Template{}
	for _, t := range s.byID {
		if f.Matches(t) {
			out = append(out, cloneStored(t))
		}
	}
	slices.SortFunc(out, func(a, b Template) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// The write methods below record what they replace in u (nil outside a
// unit) so that a failed unit can be undone. Stored templates are never
// changed in place: a write stores a new pointer, so the recorded old one
// stays intact.

func (s *MemStore) insertLocked(u *memUnit, t Template) Template {
	t.ID = s.nextID
	s.nextID++
	u.remember(t.ID)
	c := cloneStored(&t)
	s.byID[t.ID] = &c
	return cloneStored(&c)
}

func (s *MemStore) putLocked(u *memUnit, t Template) error {
	if _, ok := s.byID[t.ID]; !ok {
		return ErrNotFound
	}
	u.remember(t.ID)
	c := cloneStored(&t)
	s.byID[t.ID] = &c
	return nil
}

func (s *MemStore) deleteLocked(u *memUnit, ids []int64) {
	for _, id := range ids {
		if _, ok := s.byID[id]; ok {
			u.remember(id)
			delete(s.byID, id)
		}
	}
}

func (s *MemStore) setMarkLocked(u *memUnit, m SyncMark) {
	u.rememberMark()
	s.mark = cloneMark(m)
}

// runLocked runs fn as the unit u, undoing u's writes unless fn returns
// nil while ctx is still live. The caller holds s.mu.
func (s *MemStore) runLocked(ctx context.Context, u *memUnit, fn func(ctx context.Context, s Store) error) error {
	kept := false
	defer func() {
		u.done = true
		if !kept {
			u.undo()
		}
	}()
	if err := fn(ctx, u); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	kept = true
	u.handUp()
	return nil
}

// memUnit is the Store an Atomic fn of a MemStore receives. It works on
// the store directly, under the lock the unit holds, and remembers the
// previous state of everything it writes.
type memUnit struct {
	s      *MemStore
	outer  *memUnit // the enclosing unit of a nested one
	done   bool
	before map[int64]*Template // previous value per written id; nil when absent
	mark   *SyncMark           // previous sync mark, once written
}

var _ Store = (*memUnit)(nil)

// remember records the state of id before the unit first writes it. A nil
// u (a write outside a unit) remembers nothing.
func (u *memUnit) remember(id int64) {
	if u == nil {
		return
	}
	if _, ok := u.before[id]; ok {
		return
	}
	if u.before == nil {
		u.before = map[int64]*Template{}
	}
	u.before[id] = u.s.byID[id]
}

func (u *memUnit) rememberMark() {
	if u != nil && u.mark == nil {
		m := u.s.mark
		u.mark = &m
	}
}

// undo restores what the unit overwrote.
func (u *memUnit) undo() {
	for id, t := range u.before {
		if t == nil {
			delete(u.s.byID, id)
		} else {
			u.s.byID[id] = t
		}
	}
	if u.mark != nil {
		u.s.mark = *u.mark
	}
}

// handUp passes a kept nested unit's memory of the previous state to its
// outer unit, so that the outer unit can still undo it.
func (u *memUnit) handUp() {
	o := u.outer
	if o == nil {
		return
	}
	for id, t := range u.before {
		if _, ok := o.before[id]; !ok {
			if o.before == nil {
				o.before = map[int64]*Template{}
			}
			o.before[id] = t
		}
	}
	if u.mark != nil && o.mark == nil {
		o.mark = u.mark
	}
}

func (u *memUnit) live(ctx context.Context) error {
	if u.done {
		return errUnitDone
	}
	return ctx.Err()
}

// Get implements Store.
func (u *memUnit) Get(ctx context.Context, id int64) (Template, error) {
	if err := u.live(ctx); err != nil {
		return Template{}, err
	}
	return u.s.getLocked(id)
}

// List implements Store.
func (u *memUnit) List(ctx context.Context, f Filter) ([]Template, error) {
	if err := u.live(ctx); err != nil {
		return nil, err
	}
	return u.s.listLocked(f), nil
}

// Insert implements Store.
func (u *memUnit) Insert(ctx context.Context, t Template) (Template, error) {
	if err := u.live(ctx); err != nil {
		return Template{}, err
	}
	return u.s.insertLocked(u, t), nil
}

// Put implements Store.
func (u *memUnit) Put(ctx context.Context, t Template) error {
	if err := u.live(ctx); err != nil {
		return err
	}
	return u.s.putLocked(u, t)
}

// Delete implements Store.
func (u *memUnit) Delete(ctx context.Context, ids []int64) error {
	if err := u.live(ctx); err != nil {
		return err
	}
	u.s.deleteLocked(u, ids)
	return nil
}

// SyncMark implements Store.
func (u *memUnit) SyncMark(ctx context.Context) (SyncMark, error) {
	if err := u.live(ctx); err != nil {
		return SyncMark{}, err
	}
	return cloneMark(u.s.mark), nil
}

// SetSyncMark implements Store.
func (u *memUnit) SetSyncMark(ctx context.Context, m SyncMark) error {
	if err := u.live(ctx); err != nil {
		return err
	}
	u.s.setMarkLocked(u, m)
	return nil
}

// Atomic implements Store: a nested unit under the lock u holds.
func (u *memUnit) Atomic(ctx context.Context, fn func(ctx context.Context, s Store) error) error {
	if err := u.live(ctx); err != nil {
		return err
	}
	return u.s.runLocked(ctx, &memUnit{s: u.s, outer: u}, fn)
}
