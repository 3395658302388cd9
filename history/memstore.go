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
	entries entryList // insertion order
	// index maps the IDs of entries[:indexed] to their positions. Add
	// leaves the entries it appends out; the first lookup by ID indexes
	// them, all at once (see indexAll).
	index   map[string]int
	indexed int
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
	ids, err := newIDs(len(entries))
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range entries {
		e := &entries[i]
		// The store owns IDs: an ID already set (for example by an earlier
		// Add of the same slice) is replaced, so that no two entries share one.
		e.ID = ids[i*idLen : (i+1)*idLen]
		if e.CreatedAt.IsZero() {
			e.CreatedAt = now
		}
		if clone {
			s.entries.add(cloneEntry(*e))
		} else {
			s.entries.add(*e)
		}
	}
	return nil
}

// chunkLen is the number of entries in a chunk of an entryList.
const chunkLen = 512

// entryList holds entries in chunks of chunkLen, all full but the last:
// a growing list adds chunks instead of copying every entry it holds into
// a larger array.
type entryList struct {
	chunks [][]Entry
}

func (l *entryList) len() int {
	if len(l.chunks) == 0 {
		return 0
	}
	return (len(l.chunks)-1)*chunkLen + len(l.chunks[len(l.chunks)-1])
}

// at returns entry i, which must exist.
func (l *entryList) at(i int) *Entry { return &l.chunks[i/chunkLen][i%chunkLen] }

// add appends e.
func (l *entryList) add(e Entry) {
	n := len(l.chunks)
	if n == 0 || len(l.chunks[n-1]) == chunkLen {
		// The first chunk grows as a slice does, so that a small list
		// stays small; the others are made whole.
		size := chunkLen
		if n == 0 {
			size = 0
		}
		l.chunks = append(l.chunks, make([]Entry, 0, size))
		n++
	}
	l.chunks[n-1] = append(l.chunks[n-1], e)
}

// truncate keeps the first n entries.
func (l *entryList) truncate(n int) {
	keep := (n + chunkLen - 1) / chunkLen
	for i := keep; i < len(l.chunks); i++ {
		l.chunks[i] = nil
	}
	l.chunks = l.chunks[:keep]
	if keep > 0 {
		last := l.chunks[keep-1]
		rest := n - (keep-1)*chunkLen
		clear(last[rest:])
		l.chunks[keep-1] = last[:rest]
	}
}

// idLen is the length of an ID, a UUID in its canonical form.
const idLen = 36

// newIDs returns n new IDs, version 4 UUIDs, one after the other in one
// string (one read of the system's random source, one allocation, for a
// batch).
func newIDs(n int) (string, error) {
	random := make([]byte, 16*n)
	if _, err := rand.Read(random); err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(idLen * n)
	var text [idLen]byte
	for i := range n {
		var u uuid.UUID
		copy(u[:], random[16*i:])
		u[6] = u[6]&0x0f | 0x40 // version 4
		u[8] = u[8]&0x3f | 0x80 // variant RFC 4122
		encodeUUID(&text, u)
		b.Write(text[:])
	}
	return b.String(), nil
}

// encodeUUID writes u in the canonical form, as u.String does.
func encodeUUID(dst *[idLen]byte, u uuid.UUID) {
	const digits = "0123456789abcdef"
	j := 0
	for i, b := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst[j] = '-'
			j++
		}
		dst[j], dst[j+1] = digits[b>>4], digits[b&0x0f]
		j += 2
	}
}

// indexAll indexes the entries Add appended since the last lookup by ID:
// in one go, into a map sized for them, rather than one by one as they
// come, which most entries of a large store, never looked up by ID, would
// pay for nothing. s.mu must be held for writing.
func (s *MemStore) indexAll() {
	n := s.entries.len()
	if s.indexed == n {
		return
	}
	if len(s.index) == 0 {
		s.index = make(map[string]int, n)
	}
	for i := s.indexed; i < n; i++ {
		s.index[s.entries.at(i).ID] = i
	}
	s.indexed = n
}

// Get implements Store.
func (s *MemStore) Get(ctx context.Context, id string) (Entry, error) {
	if err := ctx.Err(); err != nil {
		return Entry{}, err
	}
	s.mu.RLock()
	if s.indexed < s.entries.len() {
		s.mu.RUnlock()
		s.mu.Lock()
		s.indexAll()
		s.mu.Unlock()
		s.mu.RLock()
	}
	defer s.mu.RUnlock()
	// An Add between the locks may leave the newest entries unindexed: the
	// entry id names, if any, was indexed before this Get began.
	i, ok := s.index[id]
	if !ok {
		return Entry{}, ErrNotFound
	}
	return cloneEntry(*s.entries.at(i)), nil
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
	for i := s.entries.len() - 1; i >= 0; i-- {
		if f.Matches(s.entries.at(i)) {
			matched = append(matched, i)
		}
	}
	if f.ByContentID {
		// Content id, then insertion order.
		slices.Reverse(matched)
		slices.SortStableFunc(matched, func(a, b int) int {
			return cmp.Compare(s.entries.at(a).ContentID, s.entries.at(b).ContentID)
		})
	} else {
		// Newest first; insertion order (already reversed) breaks ties.
		slices.SortStableFunc(matched, func(a, b int) int {
			return s.entries.at(b).CreatedAt.Compare(s.entries.at(a).CreatedAt)
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
		out[i] = cloneEntry(*s.entries.at(idx))
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
	s.indexAll()
	drop := map[int]bool{}
	for _, id := range ids {
		if i, ok := s.index[id]; ok {
			drop[i] = true
		}
	}
	if len(drop) == 0 {
		return 0, nil
	}
	kept := 0
	for i := range s.entries.len() {
		e := s.entries.at(i)
		if drop[i] {
			delete(s.index, e.ID)
			continue
		}
		s.index[e.ID] = kept
		*s.entries.at(kept) = *e
		kept++
	}
	s.entries.truncate(kept)
	s.indexed = kept
	return len(drop), nil
}

// Clear implements Store.
func (s *MemStore) Clear(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries = entryList{}
	s.index, s.indexed = map[string]int{}, 0
	return nil
}

// Stats implements Store.
func (s *MemStore) Stats(ctx context.Context, since time.Time) (Stats, error) {
	if err := ctx.Err(); err != nil {
		return Stats{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := Stats{Total: s.entries.len(), ByType: map[string]int{}}
	sub := map[[2]string]int{}
	days := map[string]int{}
	for i := range s.entries.len() {
		e := s.entries.at(i)
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
