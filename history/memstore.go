package history

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
)

// MemStore is an in-memory Store. The zero value is not usable; call
// NewMemStore.
type MemStore struct {
	now func() time.Time

	mu      sync.RWMutex
	entries []Entry        // insertion order
	index   map[string]int // id -> position in entries
}

var _ Store = (*MemStore)(nil)

// NewMemStore returns an empty store. now supplies CreatedAt for entries
// that have none; nil means time.Now.
func NewMemStore(now func() time.Time) *MemStore {
	if now == nil {
		now = time.Now
	}
	return &MemStore{now: now, index: map[string]int{}}
}

var _ Adopter = (*MemStore)(nil)

// Add implements Store.
func (s *MemStore) Add(ctx context.Context, entries []Entry) error {
	return s.add(ctx, entries, true)
}

// Adopt implements Adopter: the store keeps the entries' Meta maps as
// they are, without the copy Add makes.
func (s *MemStore) Adopt(ctx context.Context, entries []Entry) error {
	return s.add(ctx, entries, false)
}

// add stores entries, with copies of their meta when clone is set.
func (s *MemStore) add(ctx context.Context, entries []Entry, clone bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.now()
	// One read of the system's random source for the IDs of the batch.
	random := make([]byte, 16*len(entries))
	if _, err := rand.Read(random); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries = slices.Grow(s.entries, len(entries))
	for i := range entries {
		e := &entries[i]
		// The store owns IDs: an ID already set (for example by an earlier
		// Add of the same slice) is replaced, so that no two entries share one.
		e.ID = newID(random[16*i : 16*i+16])
		if e.CreatedAt.IsZero() {
			e.CreatedAt = now
		}
		s.index[e.ID] = len(s.entries)
		if clone {
			s.entries = append(s.entries, cloneEntry(*e))
		} else {
			s.entries = append(s.entries, *e)
		}
	}
	return nil
}

// newID returns the version 4 UUID of 16 random bytes.
func newID(random []byte) string {
	var u uuid.UUID
	copy(u[:], random)
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // variant RFC 4122
	return u.String()
}

// Get implements Store.
func (s *MemStore) Get(ctx context.Context, id string) (Entry, error) {
	if err := ctx.Err(); err != nil {
		return Entry{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	i, ok := s.index[id]
	if !ok {
		return Entry{}, ErrNotFound
	}
	return cloneEntry(s.entries[i]), nil
}

// Matches reports whether e is selected by f, ignoring Limit and Offset.
// Store implementations may use it to share the filter semantics.
func (f Filter) Matches(e *Entry) bool {
	if f.ContentType != "" && e.ContentType != f.ContentType {
		return false
	}
	if len(f.ContentSubtypes) > 0 && !containsString(f.ContentSubtypes, e.ContentSubtype) {
		return false
	}
	if f.AfterContentID > 0 && e.ContentID <= f.AfterContentID {
		return false
	}
	if len(f.ContentIDs) > 0 {
		found := false
		for _, id := range f.ContentIDs {
			if id == e.ContentID {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	for k, want := range f.MetaEquals {
		if MetaString(e.Meta[k]) != want {
			return false
		}
	}
	return true
}

// MetaString formats a meta value the way Filter.MetaEquals compares it:
// strings as they are, booleans as "true"/"false", numbers in decimal
// (the shortest form that reads back to the same value, so 3.0 is "3"),
// lists ([]string, or []any as decoded from JSON) as their elements so
// formatted and joined with ",", and nil (an absent key) as "". Other
// values, such as maps, format as "".
func MetaString(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case int:
		return strconv.Itoa(v)
	case int8:
		return strconv.FormatInt(int64(v), 10)
	case int16:
		return strconv.FormatInt(int64(v), 10)
	case int32:
		return strconv.FormatInt(int64(v), 10)
	case int64:
		return strconv.FormatInt(v, 10)
	case uint:
		return strconv.FormatUint(uint64(v), 10)
	case uint8:
		return strconv.FormatUint(uint64(v), 10)
	case uint16:
		return strconv.FormatUint(uint64(v), 10)
	case uint32:
		return strconv.FormatUint(uint64(v), 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case float32:
		return strconv.FormatFloat(float64(v), 'f', -1, 32)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return strconv.FormatInt(n, 10)
		}
		if f, err := v.Float64(); err == nil {
			return strconv.FormatFloat(f, 'f', -1, 64)
		}
		return v.String()
	case []string:
		return strings.Join(v, ",")
	case []any:
		var b strings.Builder
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(MetaString(x))
		}
		return b.String()
	}
	return ""
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// List implements Store.
func (s *MemStore) List(ctx context.Context, f Filter) ([]Entry, int, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	var matched []int
	for i := len(s.entries) - 1; i >= 0; i-- {
		if f.Matches(&s.entries[i]) {
			matched = append(matched, i)
		}
	}
	if f.ByContentID {
		// Content id, then insertion order.
		slices.Reverse(matched)
		slices.SortStableFunc(matched, func(a, b int) int {
			return cmp.Compare(s.entries[a].ContentID, s.entries[b].ContentID)
		})
	} else {
		// Newest first; insertion order (already reversed) breaks ties.
		slices.SortStableFunc(matched, func(a, b int) int {
			return s.entries[b].CreatedAt.Compare(s.entries[a].CreatedAt)
		})
	}
	total := len(matched)
	if f.NoTotal {
		total = 0
	}
	if f.Offset > 0 {
		if f.Offset >= len(matched) {
			matched = nil
		} else {
			matched = matched[f.Offset:]
		}
	}
	if f.Limit > 0 && len(matched) > f.Limit {
		matched = matched[:f.Limit]
	}
	out := make([]Entry, len(matched))
	for i, idx := range matched {
		out[i] = cloneEntry(s.entries[idx])
	}
	return out, total, nil
}

// Delete implements Store.
func (s *MemStore) Delete(ctx context.Context, ids ...string) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	drop := map[int]bool{}
	for _, id := range ids {
		if i, ok := s.index[id]; ok {
			drop[i] = true
		}
	}
	if len(drop) == 0 {
		return 0, nil
	}
	kept := s.entries[:0]
	for i, e := range s.entries {
		if drop[i] {
			delete(s.index, e.ID)
			continue
		}
		s.index[e.ID] = len(kept)
		kept = append(kept, e)
	}
	clear(s.entries[len(kept):])
	s.entries = kept
	return len(drop), nil
}

// Clear implements Store.
func (s *MemStore) Clear(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries = nil
	s.index = map[string]int{}
	return nil
}

// Stats implements Store.
func (s *MemStore) Stats(ctx context.Context, since time.Time) (Stats, error) {
	if err := ctx.Err(); err != nil {
		return Stats{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := Stats{Total: len(s.entries), ByType: map[string]int{}}
	sub := map[[2]string]int{}
	days := map[string]int{}
	for i := range s.entries {
		e := &s.entries[i]
		st.ByType[e.ContentType]++
		sub[[2]string{e.ContentType, e.ContentSubtype}]++
		if !e.CreatedAt.Before(since) {
			days[e.CreatedAt.UTC().Format("2006-01-02")]++
		}
	}
	for k, n := range sub {
		st.BySubtype = append(st.BySubtype, SubtypeCount{ContentType: k[0], ContentSubtype: k[1], Count: n})
	}
	sort.Slice(st.BySubtype, func(i, j int) bool {
		a, b := st.BySubtype[i], st.BySubtype[j]
		if a.ContentType != b.ContentType {
			return a.ContentType < b.ContentType
		}
		return a.ContentSubtype < b.ContentSubtype
	})
	for d, n := range days {
		st.Daily = append(st.Daily, DayCount{Date: d, Count: n})
	}
	sort.Slice(st.Daily, func(i, j int) bool { return st.Daily[i].Date < st.Daily[j].Date })
	return st, nil
}

func cloneEntry(e Entry) Entry {
	if e.Meta != nil {
		m := make(map[string]any, len(e.Meta))
		for k, v := range e.Meta {
			m[k] = cloneValue(v)
		}
		e.Meta = m
	}
	return e
}

// cloneValue deep-copies the lists and maps of a meta value, keeping nil
// apart from empty so that both encode as they did.
func cloneValue(v any) any {
	switch v := v.(type) {
	case []string:
		return slices.Clone(v)
	case []any:
		if v == nil {
			return v
		}
		out := make([]any, len(v))
		for i := range v {
			out[i] = cloneValue(v[i])
		}
		return out
	case map[string]any:
		if v == nil {
			return v
		}
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = cloneValue(x)
		}
		return out
	}
	return v
}
