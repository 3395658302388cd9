package providers_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// flaky is a provider that fails while down is set and counts its calls.
// When gate is set, each call waits for it first.
type flaky struct {
	down  atomic.Bool
	calls atomic.Int32
	gate  chan struct{}
	err   error
}

var errService = errors.New("service unavailable")

func (f *flaky) Info() providers.Info { return providers.Info{Slug: providers.Random} }

func (f *flaky) Image(ctx context.Context, req providers.ImageRequest) (*providers.Image, error) {
	f.calls.Add(1)
	if f.gate != nil {
		select {
		case <-f.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if f.down.Load() {
		if f.err != nil {
			return nil, f.err
		}
		return nil, errService
	}
	return &providers.Image{Width: req.Width, Height: req.Height}, nil
}

var breakerReq = providers.ImageRequest{Width: 100, Height: 100}

func newBreaker(t *testing.T, p providers.ImageProvider, clock *fakeClock) *providers.Breaker {
	t.Helper()
	b, err := providers.NewBreaker(p, &providers.BreakerOptions{Failures: 3, CoolDown: time.Minute, Now: clock.Now})
	require.NoError(t, err)
	return b
}

func TestBreakerOpensAfterFailuresInARow(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	p := &flaky{}
	p.down.Store(true)
	b := newBreaker(t, p, clock)
	ctx := context.Background()

	for i := range 3 {
		_, err := b.Image(ctx, breakerReq)
		require.ErrorIs(t, err, errService, "failure %d reaches the provider", i+1)
		require.NotErrorIs(t, err, providers.ErrProviderDown)
	}
	require.Equal(t, providers.BreakerOpen, b.State())
	for range 40 {
		_, err := b.Image(ctx, breakerReq)
		require.ErrorIs(t, err, providers.ErrProviderDown)
		require.ErrorContains(t, err, providers.Random)
	}
	require.Equal(t, int32(3), p.calls.Load(), "an open breaker does not ask the provider")
	require.Equal(t, 40, b.Skipped())

	// Still open one tick before the cool-down ends.
	clock.Advance(time.Minute - time.Nanosecond)
	_, err := b.Image(ctx, breakerReq)
	require.ErrorIs(t, err, providers.ErrProviderDown)
	require.Equal(t, int32(3), p.calls.Load())
}

func TestBreakerHalfOpenTrial(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	open := func(t *testing.T) (*providers.Breaker, *flaky, *fakeClock) {
		clock := newFakeClock()
		p := &flaky{}
		p.down.Store(true)
		b := newBreaker(t, p, clock)
		for range 3 {
			_, _ = b.Image(ctx, breakerReq)
		}
		require.Equal(t, providers.BreakerOpen, b.State())
		clock.Advance(time.Minute)
		require.Equal(t, providers.BreakerHalfOpen, b.State())
		return b, p, clock
	}

	t.Run("trial fails: open for another cool-down", func(t *testing.T) {
		t.Parallel()
		b, p, clock := open(t)
		_, err := b.Image(ctx, breakerReq)
		require.ErrorIs(t, err, errService)
		require.Equal(t, int32(4), p.calls.Load(), "one trial")
		require.Equal(t, providers.BreakerOpen, b.State())
		_, err = b.Image(ctx, breakerReq)
		require.ErrorIs(t, err, providers.ErrProviderDown)
		clock.Advance(time.Minute)
		require.Equal(t, providers.BreakerHalfOpen, b.State())
	})

	t.Run("trial succeeds: closed, failures counted anew", func(t *testing.T) {
		t.Parallel()
		b, p, _ := open(t)
		p.down.Store(false)
		img, err := b.Image(ctx, breakerReq)
		require.NoError(t, err)
		require.Equal(t, 100, img.Width)
		require.Equal(t, providers.BreakerClosed, b.State())
		p.down.Store(true)
		for range 2 {
			_, err := b.Image(ctx, breakerReq)
			require.ErrorIs(t, err, errService)
		}
		require.Equal(t, providers.BreakerClosed, b.State(), "two failures after a success do not open it")
	})

	t.Run("only one trial at a time", func(t *testing.T) {
		t.Parallel()
		b, p, _ := open(t)
		p.down.Store(false)
		p.gate = make(chan struct{})
		done := make(chan error, 1)
		go func() {
			_, err := b.Image(ctx, breakerReq)
			done <- err
		}()
		for p.calls.Load() < 4 { // wait until the trial is with the provider
			runtime.Gosched()
		}
		for range 10 {
			_, err := b.Image(ctx, breakerReq)
			require.ErrorIs(t, err, providers.ErrProviderDown, "others are refused while the trial runs")
		}
		close(p.gate)
		require.NoError(t, <-done)
		require.Equal(t, providers.BreakerClosed, b.State())
		_, err := b.Image(ctx, breakerReq)
		require.NoError(t, err)
	})

	t.Run("trial abandoned by its caller: next request is the trial", func(t *testing.T) {
		t.Parallel()
		b, p, _ := open(t)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		p.gate = make(chan struct{}) // the provider waits; the cancelled context ends it
		_, err := b.Image(cctx, breakerReq)
		require.ErrorIs(t, err, context.Canceled)
		require.Equal(t, providers.BreakerHalfOpen, b.State())
		p.gate = nil
		p.down.Store(false)
		_, err = b.Image(ctx, breakerReq)
		require.NoError(t, err)
		require.Equal(t, providers.BreakerClosed, b.State())
	})
}

func TestBreakerIgnoresCallerErrors(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	ctx := context.Background()
	for _, err := range []error{providers.ErrInvalidSize, providers.ErrNoResults} {
		p := &flaky{err: err}
		p.down.Store(true)
		b := newBreaker(t, p, clock)
		for range 10 {
			_, got := b.Image(ctx, breakerReq)
			require.ErrorIs(t, got, err)
		}
		require.Equal(t, providers.BreakerClosed, b.State(), err.Error())
	}
	// The caller's cancellation does not count either.
	p := &flaky{gate: make(chan struct{})}
	b := newBreaker(t, p, clock)
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	for range 10 {
		_, err := b.Image(cctx, breakerReq)
		require.ErrorIs(t, err, context.Canceled)
	}
	require.Equal(t, providers.BreakerClosed, b.State())
}

func TestBreakerSuccessResetsTheCount(t *testing.T) {
	t.Parallel()
	p := &flaky{}
	b := newBreaker(t, p, newFakeClock())
	ctx := context.Background()
	for range 5 {
		p.down.Store(true)
		for range 2 {
			_, _ = b.Image(ctx, breakerReq)
		}
		p.down.Store(false)
		_, err := b.Image(ctx, breakerReq)
		require.NoError(t, err)
	}
	require.Equal(t, providers.BreakerClosed, b.State(), "failures must be in a row")
}

// TestBreakerManyAtOnce sends many requests from goroutines to a dead
// provider: once open, the provider sees no more of them.
func TestBreakerManyAtOnce(t *testing.T) {
	t.Parallel()
	p := &flaky{}
	p.down.Store(true)
	b := newBreaker(t, p, newFakeClock())
	var wg sync.WaitGroup
	var down atomic.Int32
	for range 200 {
		wg.Go(func() {
			if _, err := b.Image(context.Background(), breakerReq); errors.Is(err, providers.ErrProviderDown) {
				down.Add(1)
			}
		})
	}
	wg.Wait()
	require.Equal(t, providers.BreakerOpen, b.State())
	require.Equal(t, int32(200), p.calls.Load()+down.Load(), "every request either reached the provider or was skipped")
	require.Equal(t, int(down.Load()), b.Skipped())
	before := p.calls.Load()
	for range 100 {
		_, err := b.Image(context.Background(), breakerReq)
		require.ErrorIs(t, err, providers.ErrProviderDown)
	}
	require.Equal(t, before, p.calls.Load())
}

func TestNewBreakerValidates(t *testing.T) {
	t.Parallel()
	_, err := providers.NewBreaker(&flaky{}, &providers.BreakerOptions{Failures: -1})
	require.ErrorContains(t, err, "BreakerOptions.Failures")
	_, err = providers.NewBreaker(&flaky{}, &providers.BreakerOptions{CoolDown: -time.Second})
	require.ErrorContains(t, err, "BreakerOptions.CoolDown")
	_, err = providers.NewBreaker(nil, nil)
	require.Error(t, err)
	b, err := providers.NewBreaker(&flaky{}, nil)
	require.NoError(t, err)
	require.Equal(t, providers.Random, b.Info().Slug)
	require.Equal(t, "closed", b.State().String())
}

// TestBreakerOpensAtOnceWhenUnreachable: one failure saying the service
// cannot be reached at all opens the breaker, and what it refuses says so.
func TestBreakerOpensAtOnceWhenUnreachable(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	p := &flaky{err: fmt.Errorf("remote: %w: %w", providers.ErrUnreachable, &net.DNSError{Err: "no such host", Name: "example.com", IsNotFound: true})}
	p.down.Store(true)
	b := newBreaker(t, p, clock)
	ctx := context.Background()

	_, err := b.Image(ctx, breakerReq)
	require.ErrorIs(t, err, providers.ErrUnreachable)
	require.Equal(t, providers.BreakerOpen, b.State(), "open after one failure, not three")
	_, err = b.Image(ctx, breakerReq)
	require.ErrorIs(t, err, providers.ErrProviderDown)
	require.ErrorIs(t, err, providers.ErrUnreachable)
	require.Equal(t, int32(1), p.calls.Load())
	snap := b.Snapshot()
	require.Equal(t, providers.BreakerSnapshot{Open: true, OpenedAt: clock.Now(), Unreachable: true}, snap)

	// Another failure kind still needs failures in a row.
	q := &flaky{}
	q.down.Store(true)
	c := newBreaker(t, q, clock)
	_, _ = c.Image(ctx, breakerReq)
	require.Equal(t, providers.BreakerClosed, c.State())
	require.Equal(t, providers.BreakerSnapshot{}, c.Snapshot())
}

// TestBreakerRestore: an opening kept elsewhere (another process, an
// earlier run) is honoured for the rest of its cool-down.
func TestBreakerRestore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := newFakeClock()
	opened := clock.Now()
	clock.Advance(40 * time.Second)
	p := &flaky{}
	b := newBreaker(t, p, clock)
	b.Restore(providers.BreakerSnapshot{}) // nothing open: nothing changes
	require.Equal(t, providers.BreakerClosed, b.State())

	b.Restore(providers.BreakerSnapshot{Open: true, OpenedAt: opened, Unreachable: true})
	_, err := b.Image(ctx, breakerReq)
	require.ErrorIs(t, err, providers.ErrProviderDown)
	require.ErrorIs(t, err, providers.ErrUnreachable)
	require.Zero(t, p.calls.Load())

	// The cool-down counts from the original opening: 20 s later, a trial.
	clock.Advance(20 * time.Second)
	_, err = b.Image(ctx, breakerReq)
	require.NoError(t, err)
	require.Equal(t, providers.BreakerClosed, b.State())

	// An older opening does not reopen a breaker that opened since.
	p.down.Store(true)
	for range 3 {
		_, _ = b.Image(ctx, breakerReq)
	}
	mine := b.Snapshot()
	b.Restore(providers.BreakerSnapshot{Open: true, OpenedAt: opened})
	require.Equal(t, mine, b.Snapshot())
}

// A service breaker guards calls that are not image requests: it opens
// after the failures, refuses calls without making them, and closes after
// a successful trial.
func TestServiceBreakerCall(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	b, err := providers.NewServiceBreaker("ai_one", &providers.BreakerOptions{Failures: 2, CoolDown: time.Minute, Now: clock.Now})
	require.NoError(t, err)
	require.Equal(t, "ai_one", b.Info().Slug)
	_, err = b.Image(context.Background(), providers.ImageRequest{})
	require.Error(t, err)
	calls := 0
	fail := func(context.Context) error { calls++; return errors.New("boom") }
	ok := func(context.Context) error { calls++; return nil }
	require.Error(t, b.Call(context.Background(), fail))
	require.Error(t, b.Call(context.Background(), fail))
	require.ErrorIs(t, b.Call(context.Background(), ok), providers.ErrProviderDown)
	require.Equal(t, 2, calls, "an open breaker makes no call")
	clock.Advance(time.Minute)
	require.NoError(t, b.Call(context.Background(), ok))
	require.Equal(t, providers.BreakerClosed, b.State())
}
