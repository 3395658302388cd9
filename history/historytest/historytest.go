// Package historytest is the conformance suite for history.Store
// implementations. A store runs it in one line from its own tests:
//
//	func TestStore(t *testing.T) {
//		historytest.Run(t, func(t *testing.T) history.Store {
//			return mystore.New(...) // empty, closed by t.Cleanup
//		})
//	}
//
// A store whose constructor takes a clock runs RunWithClock instead, which
// also checks that CreatedAt comes from that clock:
//
//	historytest.RunWithClock(t, func(t *testing.T, now func() time.Time) history.Store {
//		return history.NewMemStore(now)
//	})
//
// Every subtest asks for a fresh, empty store, so a store backed by a
// database should hand out a new schema, table or database per call and
// remove it with t.Cleanup. Subtests run one after the other.
//
// # What the suite assumes
//
// Only the contract written on history.Store. Times the suite sets are
// whole seconds, so a store may keep CreatedAt with second precision and
// in any time zone; the suite compares instants with time.Time.Equal.
// Meta is compared by its JSON encoding, so a store that keeps meta as JSON
// may return float64 for int and []any for []string; nil and empty meta
// are the same. Filter.MetaEquals must select exactly what Filter.Matches
// selects, which formats values with history.MetaString (an absent key is
// "", a list is its elements joined with ","). Order within BySubtype and
// zero counts in ByType are not checked.
//
// Add must assign a new ID even when the entry already has one, so adding
// the same slice twice stores two copies. To check that Add is all or
// nothing, the suite adds a batch holding a NaN, which JSON cannot encode:
// the store may accept the whole batch or reject the whole batch.
//
// The clock RunWithClock passes may be called any number of times and
// from any goroutine.
package historytest

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/history"
)

// Run runs the conformance suite against the stores newStore returns, one
// fresh empty store per subtest. The store takes CreatedAt from its own
// clock, which must be close to time.Now.
func Run(t *testing.T, newStore func(t *testing.T) history.Store) {
	t.Helper()
	run(t, func(t *testing.T) *fixture {
		t.Helper()
		return newFixture(t, newStore(t), nil)
	})
}

// RunWithClock runs the conformance suite against the stores newStore
// returns, one fresh empty store per subtest, each built with a clock the
// suite controls. The store must take the CreatedAt of entries added
// without one from now. Besides everything Run checks, the suite then
// checks the exact CreatedAt assigned.
func RunWithClock(t *testing.T, newStore func(t *testing.T, now func() time.Time) history.Store) {
	t.Helper()
	run(t, func(t *testing.T) *fixture {
		t.Helper()
		c := &clock{t: baseTime}
		return newFixture(t, newStore(t, c.Now), c)
	})
}

// baseTime is the reference time of the fixtures: whole seconds, UTC.
var baseTime = time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)

// test is one subtest of the suite.
type test struct {
	name string
	run  func(t *testing.T, f *fixture)
}

func run(t *testing.T, open func(t *testing.T) *fixture) {
	t.Helper()
	groups := []struct {
		name  string
		tests []test
	}{
		{"Add", addTests()},
		{"Get", getTests()},
		{"List", listTests()},
		{"Filter", filterTests()},
		{"Delete", deleteTests()},
		{"Clear", clearTests()},
		{"Stats", statsTests()},
		{"Cancelled", cancelTests()},
		{"Concurrency", concurrencyTests()},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			for _, tc := range g.tests {
				t.Run(tc.name, func(t *testing.T) {
					tc.run(t, open(t))
				})
			}
		})
	}
}

// clock is a settable clock, safe for concurrent use.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

// Now returns the time last set.
func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set makes Now return t.
func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// fixture is a store under test.
type fixture struct {
	s   history.Store
	ctx context.Context
	// clock is the store's clock, nil when the store uses its own.
	clock *clock
}

func newFixture(t *testing.T, s history.Store, c *clock) *fixture {
	t.Helper()
	require.NotNil(t, s, "newStore returned nil")
	f := &fixture{s: s, ctx: t.Context(), clock: c}
	entries, total, err := s.List(f.ctx, history.Filter{})
	require.NoError(t, err)
	require.Empty(t, entries, "newStore must return an empty store")
	require.Zero(t, total, "newStore must return an empty store")
	return f
}

// add adds entries and returns them with what the store assigned.
func (f *fixture) add(t *testing.T, entries ...history.Entry) []history.Entry {
	t.Helper()
	require.NoError(t, f.s.Add(f.ctx, entries))
	for i, e := range entries {
		require.NotEmpty(t, e.ID, "Add must write the assigned ID back into entry %d", i)
		require.False(t, e.CreatedAt.IsZero(), "Add must write CreatedAt back into entry %d", i)
	}
	return entries
}

// get returns the entry with id, failing the test when there is none.
func (f *fixture) get(t *testing.T, id string) history.Entry {
	t.Helper()
	e, err := f.s.Get(f.ctx, id)
	require.NoError(t, err, "Get(%q)", id)
	return e
}

// list lists with filter and checks that the total is sane.
func (f *fixture) list(t *testing.T, filter history.Filter) ([]history.Entry, int) {
	t.Helper()
	entries, total, err := f.s.List(f.ctx, filter)
	require.NoError(t, err, "List(%+v)", filter)
	if !filter.NoTotal {
		require.GreaterOrEqual(t, total, len(entries), "List total counts at least the entries returned")
	}
	return entries, total
}

// all lists every entry.
func (f *fixture) all(t *testing.T) []history.Entry {
	t.Helper()
	entries, total := f.list(t, history.Filter{})
	require.Len(t, entries, total, "List without Limit returns every matching entry")
	return entries
}

// stats returns the stats since since.
func (f *fixture) stats(t *testing.T, since time.Time) history.Stats {
	t.Helper()
	st, err := f.s.Stats(f.ctx, since)
	require.NoError(t, err)
	return st
}

// entry returns a post entry with the given content id and creation time.
func entry(contentID int64, created time.Time) history.Entry {
	return history.Entry{ContentType: history.TypePost, ContentSubtype: "post", ContentID: contentID, CreatedAt: created}
}

// at returns baseTime plus minutes.
func at(minutes int) time.Time {
	return baseTime.Add(time.Duration(minutes) * time.Minute)
}

// ids returns the IDs of entries in order.
func ids(entries []history.Entry) []string {
	out := make([]string, len(entries))
	for i, e := range entries {
		out[i] = e.ID
	}
	return out
}

// requireEntry checks that got is the entry want.
func requireEntry(t *testing.T, want, got history.Entry, msgAndArgs ...any) {
	t.Helper()
	require.Equal(t, want.ID, got.ID, msgAndArgs...)
	require.Equal(t, want.ContentType, got.ContentType, msgAndArgs...)
	require.Equal(t, want.ContentID, got.ContentID, msgAndArgs...)
	require.Equal(t, want.ContentSubtype, got.ContentSubtype, msgAndArgs...)
	require.Truef(t, want.CreatedAt.Equal(got.CreatedAt), "CreatedAt: want %v, got %v", want.CreatedAt, got.CreatedAt)
	requireMeta(t, want.Meta, got.Meta, msgAndArgs...)
}

// requireMeta checks that got has the JSON encoding of want; nil and empty
// meta are the same.
func requireMeta(t *testing.T, want, got map[string]any, msgAndArgs ...any) {
	t.Helper()
	if len(want) == 0 {
		require.Empty(t, got, msgAndArgs...)
		return
	}
	require.JSONEq(t, metaJSON(t, want), metaJSON(t, got), msgAndArgs...)
}

func metaJSON(t *testing.T, m map[string]any) string {
	t.Helper()
	b, err := json.Marshal(m)
	require.NoError(t, err)
	return string(b)
}

// requireUnique checks that ids holds no duplicates and no empty id.
func requireUnique(t *testing.T, ids []string) {
	t.Helper()
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		require.NotEmpty(t, id)
		require.Falsef(t, seen[id], "ID %q assigned twice", id)
		seen[id] = true
	}
}

// reversed returns a reversed copy of s.
func reversed[T any](s []T) []T {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}
