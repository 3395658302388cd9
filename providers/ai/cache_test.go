package ai_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/ai"
)

// memStore is a Store in memory that can be told to fail.
type memStore struct {
	mu    sync.Mutex
	m     map[string][]byte
	fail  error
	saves int
}

func newMemStore() *memStore { return &memStore{m: map[string][]byte{}} }

func (s *memStore) Load(ctx context.Context, key string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return nil, s.fail
	}
	return s.m[key], nil
}

func (s *memStore) Save(ctx context.Context, key string, value []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil {
		return s.fail
	}
	s.saves++
	s.m[key] = append([]byte(nil), value...)
	return nil
}

func (s *memStore) setFail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = err
}

// fakeDetector answers from a fixed table and records what it was asked.
type fakeDetector struct {
	name    string
	answers map[string]string // key -> type
	err     error
	mu      sync.Mutex
	asked   [][]string
	calls   atomic.Int32
}

func (d *fakeDetector) Name() string { return d.name }

func (d *fakeDetector) Detect(ctx context.Context, postType string, fields []providers.Field, known []string) ([]providers.Detection, error) {
	d.calls.Add(1)
	var keys []string
	var out []providers.Detection
	for _, f := range fields {
		keys = append(keys, f.Key)
		if t, ok := d.answers[f.Key]; ok {
			out = append(out, providers.Detection{Key: f.Key, Type: t, Confidence: 0.9})
		}
	}
	d.mu.Lock()
	d.asked = append(d.asked, keys)
	d.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if d.err != nil {
		return nil, d.err
	}
	return out, nil
}

func TestCacheLookupPut(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := ai.NewCache(nil)
	fields := testFields()
	hits, misses, err := c.Lookup(ctx, "book", fields, knownTypes)
	require.NoError(t, err)
	require.Empty(t, hits)
	require.Equal(t, fields, misses)

	require.NoError(t, c.Put(ctx, "book", fields[:3], []providers.Detection{
		{Key: "field_contact", Type: "email", Confidence: 0.9},
		{Key: "field_town", Type: "city", Confidence: 0.7},
		{Key: "field_other", Type: "price", Confidence: 1}, // not asked: ignored
	}))
	hits, misses, err = c.Lookup(ctx, "book", fields, knownTypes)
	require.NoError(t, err)
	require.Equal(t, []providers.Detection{
		{Key: "field_contact", Type: "email", Confidence: 0.9},
		{Key: "field_town", Type: "city", Confidence: 0.7},
	}, hits)
	require.Equal(t, fields[3:], misses, "field_cost is remembered as not placeable")

	// Another post type, a changed field and a narrower known list.
	_, misses, _ = c.Lookup(ctx, "movie", fields[:1], knownTypes)
	require.Len(t, misses, 1)
	changed := fields[0]
	changed.Instructions = "Phone number of the author"
	_, misses, _ = c.Lookup(ctx, "book", []providers.Field{changed}, knownTypes)
	require.Len(t, misses, 1, "a changed definition is asked again")
	hits, misses, _ = c.Lookup(ctx, "book", fields[:3], []string{"city"})
	require.Equal(t, []providers.Detection{{Key: "field_town", Type: "city", Confidence: 0.7}}, hits)
	require.Empty(t, misses)

	n, err := c.Len(ctx)
	require.NoError(t, err)
	require.Equal(t, 3, n)
}

func TestCacheClear(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := ai.NewCache(nil)
	require.NoError(t, c.Put(ctx, "book", testFields(), nil))
	require.NoError(t, c.Put(ctx, "movie", testFields()[:2], nil))

	n, err := c.ClearPostType(ctx, "movie")
	require.NoError(t, err)
	require.Equal(t, 2, n)
	n, err = c.ClearPostType(ctx, "movie")
	require.NoError(t, err)
	require.Equal(t, 0, n)
	n, err = c.ClearAll(ctx)
	require.NoError(t, err)
	require.Equal(t, 5, n)
	n, err = c.ClearAll(ctx)
	require.NoError(t, err)
	require.Equal(t, 0, n)
	_, misses, _ := c.Lookup(ctx, "book", testFields(), knownTypes)
	require.Len(t, misses, 5)
}

func TestCachePersistence(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := newMemStore()
	c := ai.NewCache(&ai.CacheOptions{Store: store})
	require.NoError(t, c.Put(ctx, "book", testFields()[:2], []providers.Detection{{Key: "field_contact", Type: "email", Confidence: 0.8}}))
	require.Contains(t, store.m, ai.DefaultCacheKey)

	// A second cache (a restart) sees the same entries.
	c2 := ai.NewCache(&ai.CacheOptions{Store: store})
	hits, misses, err := c2.Lookup(ctx, "book", testFields(), knownTypes)
	require.NoError(t, err)
	require.Equal(t, []providers.Detection{{Key: "field_contact", Type: "email", Confidence: 0.8}}, hits)
	require.Len(t, misses, 3)

	// Clearing a fresh cache counts and removes the persisted entries.
	c3 := ai.NewCache(&ai.CacheOptions{Store: store})
	n, err := c3.ClearAll(ctx)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	n, err = ai.NewCache(&ai.CacheOptions{Store: store}).Len(ctx)
	require.NoError(t, err)
	require.Equal(t, 0, n)

	// A custom key, and unreadable data is discarded.
	store.m["k"] = []byte("{not json")
	c4 := ai.NewCache(&ai.CacheOptions{Store: store, Key: "k"})
	n, err = c4.Len(ctx)
	require.NoError(t, err)
	require.Equal(t, 0, n)

	// A failing store is reported and retried.
	broken := newMemStore()
	broken.setFail(errors.New("disk on fire"))
	c5 := ai.NewCache(&ai.CacheOptions{Store: broken})
	_, misses, err = c5.Lookup(ctx, "book", testFields(), knownTypes)
	require.ErrorContains(t, err, "disk on fire")
	require.Len(t, misses, 5)
	broken.setFail(nil)
	_, _, err = c5.Lookup(ctx, "book", testFields(), knownTypes)
	require.NoError(t, err)
}

func TestCacheConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := ai.NewCache(&ai.CacheOptions{Store: newMemStore()})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pt := fmt.Sprintf("type%d", i%3)
			for range 20 {
				_ = c.Put(ctx, pt, testFields(), []providers.Detection{{Key: "field_cost", Type: "price", Confidence: 1}})
				_, _, _ = c.Lookup(ctx, pt, testFields(), knownTypes)
				if i == 0 {
					_, _ = c.ClearPostType(ctx, "type1")
				}
			}
		}()
	}
	wg.Wait()
	n, err := c.Len(ctx)
	require.NoError(t, err)
	require.LessOrEqual(t, n, 15)
}

func TestFieldSignature(t *testing.T) {
	t.Parallel()
	f := testFields()[2]
	require.Equal(t, ai.FieldSignature(f), ai.FieldSignature(f))
	require.Len(t, ai.FieldSignature(f), 32)
	g := f
	g.Choices = []string{"Berlin", "Hamburg", "Köln"}
	require.NotEqual(t, ai.FieldSignature(f), ai.FieldSignature(g))
	// Field boundaries cannot be shifted.
	a := providers.Field{Key: "ab", Name: "c"}
	b := providers.Field{Key: "a", Name: "bc"}
	require.NotEqual(t, ai.FieldSignature(a), ai.FieldSignature(b))
}

func TestCachedDetector(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inner := &fakeDetector{name: ai.SlugOne, answers: map[string]string{"field_contact": "email", "field_town": "city"}}
	cd := ai.NewCachedDetector(inner, ai.NewCache(nil), nil)
	require.Equal(t, ai.SlugOne, cd.Name())

	got, err := cd.Detect(ctx, "book", testFields(), knownTypes)
	require.NoError(t, err)
	want := []providers.Detection{
		{Key: "field_contact", Type: "email", Confidence: 0.9},
		{Key: "field_town", Type: "city", Confidence: 0.9},
	}
	require.Equal(t, want, got)
	require.EqualValues(t, 1, inner.calls.Load())

	// Second run: everything from the cache, no call.
	got, err = cd.Detect(ctx, "book", testFields(), knownTypes)
	require.NoError(t, err)
	require.Equal(t, want, got)
	require.EqualValues(t, 1, inner.calls.Load())

	// A new field: only it is asked about.
	extra := providers.Field{Key: "field_phone", Name: "telefon", Type: "text"}
	inner.answers = map[string]string{"field_phone": "phone"}
	got, err = cd.Detect(ctx, "book", append(testFields(), extra), knownTypes)
	require.NoError(t, err)
	require.Len(t, got, 3)
	require.Equal(t, "field_phone", got[2].Key)
	require.Equal(t, []string{"field_phone"}, inner.asked[1])

	// A failing detector: cached hits are still returned with the error,
	// and nothing is remembered for the new field.
	other := providers.Field{Key: "field_zip", Name: "plz"}
	inner.err = ai.ErrUnreachable
	got, err = cd.Detect(ctx, "book", []providers.Field{testFields()[0], other}, knownTypes)
	require.ErrorIs(t, err, ai.ErrUnreachable)
	require.Equal(t, want[:1], got)
	inner.err = nil
	_, err = cd.Detect(ctx, "book", []providers.Field{other}, knownTypes)
	require.NoError(t, err)
	require.Equal(t, []string{"field_zip"}, inner.asked[len(inner.asked)-1])
}

func TestChain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	primary := &fakeDetector{name: ai.SlugOne, err: fmt.Errorf("x: %w", ai.ErrUnreachable)}
	secondary := &fakeDetector{name: ai.SlugTwo, answers: map[string]string{"field_cost": "price"}}
	var failed []string
	ch := ai.NewChain(primary, nil, secondary)
	ch.OnFailure = func(name string, err error) { failed = append(failed, name+": "+err.Error()) }
	require.Equal(t, ai.SlugOne, ch.Name())

	got, err := ch.Detect(ctx, "book", testFields(), knownTypes)
	require.NoError(t, err)
	require.Equal(t, []providers.Detection{{Key: "field_cost", Type: "price", Confidence: 0.9}}, got)
	require.Equal(t, []string{"ai_one: x: connection failed"}, failed)

	// Primary fine: secondary not asked.
	primary.err = nil
	primary.answers = map[string]string{"field_town": "city"}
	got, err = ch.Detect(ctx, "book", testFields(), knownTypes)
	require.NoError(t, err)
	require.Equal(t, "field_town", got[0].Key)
	require.EqualValues(t, 1, secondary.calls.Load())

	// Both fail: both errors are visible.
	primary.err = &ai.APIError{Provider: ai.SlugOne, StatusCode: 401}
	secondary.err = fmt.Errorf("y: %w", ai.ErrUnreachable)
	_, err = ch.Detect(ctx, "book", testFields(), knownTypes)
	require.ErrorIs(t, err, ai.ErrUnauthorized)
	require.ErrorIs(t, err, ai.ErrUnreachable)

	// A cancelled run does not move on to the secondary.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	before := secondary.calls.Load()
	_, err = ch.Detect(cctx, "book", testFields(), knownTypes)
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, before, secondary.calls.Load())

	// No detector at all.
	_, err = ai.NewChain().Detect(ctx, "book", testFields(), knownTypes)
	require.ErrorIs(t, err, providers.ErrNotConfigured)
	require.Equal(t, "chain", ai.NewChain().Name())
}

func TestChainWithRealClients(t *testing.T) {
	t.Parallel()
	cases := wireCases()
	down := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
		writeJSON(w, 503, cases[0].errorBody(503, "overloaded"))
	})
	up := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
		writeJSON(w, 200, cases[1].success(`{"detections":[{"key":"field_contact","type":"email","confidence":0.95}]}`))
	})
	primary := newClient(t, cases[0], options(down.srv.URL))
	secondary := newClient(t, cases[1], options(up.srv.URL))
	cd := ai.NewCachedDetector(ai.NewChain(primary, secondary), ai.NewCache(nil), nil)
	for range 2 {
		got, err := cd.Detect(context.Background(), "book", testFields(), knownTypes)
		require.NoError(t, err)
		require.Equal(t, []providers.Detection{{Key: "field_contact", Type: "email", Confidence: 0.95}}, got)
	}
	require.Len(t, down.requests(), 2, "primary tried and retried once")
	require.Len(t, up.requests(), 1, "second run served from the cache")
}

func BenchmarkCacheLookup(b *testing.B) {
	ctx := context.Background()
	c := ai.NewCache(nil)
	fields := testFields()
	_ = c.Put(ctx, "book", fields, []providers.Detection{{Key: "field_contact", Type: "email", Confidence: 0.9}})
	b.ReportAllocs()
	for b.Loop() {
		if _, misses, _ := c.Lookup(ctx, "book", fields, knownTypes); len(misses) != 0 {
			b.Fatal("miss")
		}
	}
}
