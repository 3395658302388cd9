package imaging

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"runtime"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func testPNG(t testing.TB, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))))
	return buf.Bytes()
}

// waitQueued yields until g has n waiters: a synchronisation point, not
// a timed wait.
func waitQueued(g *gate, n int) {
	for {
		g.mu.Lock()
		k := len(g.waiters)
		g.mu.Unlock()
		if k >= n {
			return
		}
		runtime.Gosched()
	}
}

func TestDecoderBoundsConcurrentDecodes(t *testing.T) {
	t.Parallel()
	d, err := NewDecoder(&Limits{MaxConcurrent: 2})
	require.NoError(t, err)
	data := testPNG(t, 40, 30)
	ctx := context.Background()

	a, err := d.Decode(ctx, data)
	require.NoError(t, err)
	b, err := d.Decode(ctx, data)
	require.NoError(t, err)

	third := make(chan error, 1)
	go func() {
		m, err := d.Decode(ctx, data)
		if err == nil {
			m.Release()
		}
		third <- err
	}()
	waitQueued(d.gate, 1)
	select {
	case err := <-third:
		t.Fatalf("a third decode ran while two were held: %v", err)
	default:
	}
	a.Release()
	a.Release() // a second release changes nothing
	require.NoError(t, <-third)
	b.Release()
	require.Equal(t, int64(2), d.gate.peakN)
	require.Zero(t, d.gate.n, "every place given back")
}

func TestDecoderBoundsPixelsInFlight(t *testing.T) {
	t.Parallel()
	d, err := NewDecoder(&Limits{MaxPixels: 100 * 100, MaxConcurrent: 10, MaxPixelsInFlight: 2 * 100 * 100})
	require.NoError(t, err)
	big, small := testPNG(t, 100, 100), testPNG(t, 10, 10)
	ctx := context.Background()

	a, err := d.Decode(ctx, big)
	require.NoError(t, err)
	b, err := d.Decode(ctx, big)
	require.NoError(t, err)

	// A third large image waits, and a small one queued after it waits
	// behind it rather than overtaking it.
	results := make(chan string, 2)
	decode := func(name string, data []byte) {
		m, err := d.Decode(ctx, data)
		if err != nil {
			results <- err.Error()
			return
		}
		results <- name
		m.Release()
	}
	go decode("big", big)
	waitQueued(d.gate, 1)
	go decode("small", small)
	waitQueued(d.gate, 2)
	a.Release()
	require.Equal(t, "big", <-results)
	require.Equal(t, "small", <-results)
	b.Release()
	require.LessOrEqual(t, d.gate.peakW, int64(2*100*100))
}

func TestDecoderWaitEndsWithContext(t *testing.T) {
	t.Parallel()
	d, err := NewDecoder(&Limits{MaxConcurrent: 1})
	require.NoError(t, err)
	data := testPNG(t, 20, 20)
	held, err := d.Decode(context.Background(), data)
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := d.Decode(ctx, data)
		done <- err
	}()
	waitQueued(d.gate, 1)
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	d.gate.mu.Lock()
	require.Empty(t, d.gate.waiters, "a cancelled waiter leaves the queue")
	d.gate.mu.Unlock()

	held.Release()
	m, err := d.Decode(context.Background(), data)
	require.NoError(t, err, "the place is free again")
	m.Release()
}

// TestDecoderManyAtOnce mixes images under and over the budget from many
// goroutines: the large ones are refused, the others decoded, and no more
// than the limits are ever held.
func TestDecoderManyAtOnce(t *testing.T) {
	t.Parallel()
	const side = 64
	d, err := NewDecoder(&Limits{MaxPixels: side * side, MaxConcurrent: 3, MaxPixelsInFlight: 2 * side * side})
	require.NoError(t, err)
	under, over := testPNG(t, side, side), testPNG(t, side+1, side)
	var wg sync.WaitGroup
	errs := make([]error, 64)
	for i := range errs {
		wg.Go(func() {
			data := under
			if i%2 == 1 {
				data = over
			}
			s, err := d.Renditions(context.Background(), data, &Options{ThumbnailSize: 16, MediumSize: 32})
			if err == nil && s.Medium.Width != 32 {
				err = errTest
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if i%2 == 1 {
			require.ErrorIs(t, err, ErrTooManyPixels, i)
		} else {
			require.NoError(t, err, i)
		}
	}
	require.LessOrEqual(t, d.gate.peakN, int64(3))
	require.LessOrEqual(t, d.gate.peakW, int64(2*side*side))
	require.Zero(t, d.gate.n)
	require.Zero(t, d.gate.w)
}

var errTest = errors.New("medium rendition of the wrong size")

func TestScratchPoolsKeepOnlySmallBuffers(t *testing.T) {
	t.Parallel()
	var pool sync.Pool
	big := make([]uint8, maxPooledScratch+1)
	putScratch(&pool, &big)
	got, _ := pool.Get().(*[]uint8)
	require.Nil(t, got, "a large buffer is not kept")
}

func TestNewDecoderValidates(t *testing.T) {
	t.Parallel()
	for field, l := range map[string]Limits{
		"Limits.MaxPixels":         {MaxPixels: -1},
		"Limits.MaxConcurrent":     {MaxConcurrent: -1},
		"Limits.MaxPixelsInFlight": {MaxPixelsInFlight: -1},
	} {
		_, err := NewDecoder(&l)
		require.ErrorContains(t, err, field)
	}
	d, err := NewDecoder(nil)
	require.NoError(t, err)
	l := d.Limits()
	require.Equal(t, DefaultMaxPixels, l.MaxPixels)
	require.GreaterOrEqual(t, l.MaxConcurrent, DefaultMaxConcurrent)
	require.Equal(t, DefaultMaxPixelsInFlight, l.MaxPixelsInFlight)
}
