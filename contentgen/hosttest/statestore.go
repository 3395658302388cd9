package hosttest

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

// RunStateStore runs the conformance suite of contentgen.StateStore
// against the stores newStore returns, one new, empty store per subtest:
//
//	func TestStateStore(t *testing.T) {
//		hosttest.RunStateStore(t, func(t *testing.T) contentgen.StateStore {
//			return mystore.NewState(t) // empty, closed by t.Cleanup
//		})
//	}
//
// It checks that a missing key loads as nil, that Update sees the value
// before it and that values of keys are kept apart, that an error from fn
// writes nothing, that a done context returns its error and changes
// nothing, that loaded values are the caller's, and that concurrent
// increments of one key from many goroutines are all counted. fn may be
// run more than once by the store; the suite's functions allow it.
func RunStateStore(t *testing.T, newStore func(t *testing.T) contentgen.StateStore) {
	t.Helper()
	tests := []struct {
		name string
		run  func(t *testing.T, s contentgen.StateStore)
	}{
		{"LoadMissing", testStateLoadMissing},
		{"UpdateSeesPrevious", testStateUpdateSeesPrevious},
		{"KeysApart", testStateKeysApart},
		{"ErrorWritesNothing", testStateErrorWritesNothing},
		{"DoneContext", testStateDoneContext},
		{"Copies", testStateCopies},
		{"ConcurrentIncrements", testStateConcurrentIncrements},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			require.NotNil(t, s, "newStore returned nil")
			tc.run(t, s)
		})
	}
}

// set stores v under key.
func set(t *testing.T, s contentgen.StateStore, key, v string) {
	t.Helper()
	require.NoError(t, s.Update(t.Context(), key, func([]byte) ([]byte, error) { return []byte(v), nil }))
}

// load returns the value under key as a string, and whether there is one.
func load(t *testing.T, s contentgen.StateStore, key string) (string, bool) {
	t.Helper()
	v, err := s.Load(t.Context(), key)
	require.NoError(t, err)
	return string(v), v != nil
}

func testStateLoadMissing(t *testing.T, s contentgen.StateStore) {
	v, err := s.Load(t.Context(), "settings")
	require.NoError(t, err, "loading a missing key is not an error")
	require.Nil(t, v, "a missing key loads as nil")
	set(t, s, "other", `{"a":1}`)
	v, err = s.Load(t.Context(), "settings")
	require.NoError(t, err)
	require.Nil(t, v, "a key never written stays missing when others are written")
}

func testStateUpdateSeesPrevious(t *testing.T, s contentgen.StateStore) {
	ctx := t.Context()
	var seen [][]byte
	step := func(next string) {
		t.Helper()
		require.NoError(t, s.Update(ctx, "counter", func(old []byte) ([]byte, error) {
			seen = append(seen, old)
			return []byte(next), nil
		}))
		got, ok := load(t, s, "counter")
		require.True(t, ok)
		require.Equal(t, next, got, "Load returns what the last Update wrote")
	}
	step(`{"n":1}`)
	require.Nil(t, seen[len(seen)-1], "fn receives nil for a missing key")
	step(`{"n":2}`)
	require.Equal(t, `{"n":1}`, string(seen[len(seen)-1]), "fn receives the value before it")
	step(`{"n":3,"text":"Grüße \"quoted\" \\ \u0001"}`)
	require.Equal(t, `{"n":2}`, string(seen[len(seen)-1]))
	step(`{"n":4}`)
	require.Equal(t, `{"n":3,"text":"Grüße \"quoted\" \\ \u0001"}`, string(seen[len(seen)-1]), "values round-trip byte for byte")
}

func testStateKeysApart(t *testing.T, s contentgen.StateStore) {
	keys := []string{"settings", "ai_keys", "time_saved", "license", "field_cache:book", "Settings", "settings "}
	for i, k := range keys {
		set(t, s, k, strconv.Itoa(i))
	}
	for i, k := range keys {
		got, ok := load(t, s, k)
		require.True(t, ok, "key %q", k)
		require.Equal(t, strconv.Itoa(i), got, "key %q holds its own value", k)
	}
}

func testStateErrorWritesNothing(t *testing.T, s contentgen.StateStore) {
	ctx := t.Context()
	errBoom := errors.New("boom")
	err := s.Update(ctx, "fresh", func(old []byte) ([]byte, error) { return []byte("x"), errBoom })
	require.ErrorIs(t, err, errBoom, "Update returns fn's error")
	_, ok := load(t, s, "fresh")
	require.False(t, ok, "a failed Update of a missing key leaves it missing")

	set(t, s, "kept", "before")
	err = s.Update(ctx, "kept", func(old []byte) ([]byte, error) {
		require.Equal(t, "before", string(old))
		return []byte("after"), errBoom
	})
	require.ErrorIs(t, err, errBoom)
	got, _ := load(t, s, "kept")
	require.Equal(t, "before", got, "a failed Update leaves the value as it was")

	set(t, s, "kept", "later")
	got, _ = load(t, s, "kept")
	require.Equal(t, "later", got, "the store works after a failed Update")
}

func testStateDoneContext(t *testing.T, s contentgen.StateStore) {
	set(t, s, "kept", "before")
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	expired, cancel2 := context.WithDeadline(t.Context(), time.Now().Add(-time.Minute))
	defer cancel2()
	for name, ctx := range map[string]context.Context{"Canceled": cancelled, "DeadlineExceeded": expired} {
		_, err := s.Load(ctx, "kept")
		require.Error(t, err, "%s: Load", name)
		require.ErrorIs(t, err, ctx.Err(), "%s: Load returns the context's error", name)
		for _, key := range []string{"kept", "fresh"} {
			err = s.Update(ctx, key, func([]byte) ([]byte, error) { return []byte("changed"), nil })
			require.Error(t, err, "%s: Update of %q", name, key)
			require.ErrorIs(t, err, ctx.Err(), "%s: Update returns the context's error", name)
		}
	}
	got, _ := load(t, s, "kept")
	require.Equal(t, "before", got, "an Update under a done context changes nothing")
	_, ok := load(t, s, "fresh")
	require.False(t, ok, "an Update under a done context creates nothing")
}

func testStateCopies(t *testing.T, s contentgen.StateStore) {
	ctx := t.Context()
	in := []byte("value")
	require.NoError(t, s.Update(ctx, "k", func([]byte) ([]byte, error) { return in, nil }))
	in[0] = 'X'
	v, err := s.Load(ctx, "k")
	require.NoError(t, err)
	require.Equal(t, "value", string(v), "the store keeps a copy of what fn returned")
	v[0] = 'Y'
	require.NoError(t, s.Update(ctx, "k", func(old []byte) ([]byte, error) {
		require.Equal(t, "value", string(old), "a loaded value is the caller's")
		old[0] = 'Z' // fn may change what it receives
		return []byte("next"), nil
	}))
	got, _ := load(t, s, "k")
	require.Equal(t, "next", got)
}

func testStateConcurrentIncrements(t *testing.T, s contentgen.StateStore) {
	const workers, rounds = 16, 10
	ctx := t.Context()
	incr := func(old []byte) ([]byte, error) {
		n := 0
		if old != nil {
			var err error
			if n, err = strconv.Atoi(string(old)); err != nil {
				return nil, err
			}
		}
		return []byte(strconv.Itoa(n + 1)), nil
	}
	var wg sync.WaitGroup
	errs := make(chan error, workers*rounds*2)
	for w := range workers {
		wg.Go(func() {
			for range rounds {
				// Two keys: one missing at the start, raced for creation,
				// and one shared by every worker.
				errs <- s.Update(ctx, "hits", incr)
				errs <- s.Update(ctx, "worker"+strconv.Itoa(w%4), incr)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	got, _ := load(t, s, "hits")
	require.Equal(t, strconv.Itoa(workers*rounds), got, "every increment is counted")
	for i := range 4 {
		got, _ := load(t, s, "worker"+strconv.Itoa(i))
		require.Equal(t, strconv.Itoa(workers/4*rounds), got, "every increment of worker%d is counted", i)
	}
}
