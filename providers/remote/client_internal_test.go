package remote

import (
	"context"
	"image"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers"
)

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"7", 7 * time.Second, true},
		{" 30 ", 30 * time.Second, true},
		{"Sat, 01 Mar 2025 12:00:45 GMT", 45 * time.Second, true},
		{"Sat, 01 Mar 2025 11:00:00 GMT", 0, true},
		{"99999999", 24 * time.Hour, true},
		{"", 0, false},
		{"-3", 0, false},
		{"soon", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.in, now)
		require.Equal(t, tt.ok, ok, tt.in)
		require.Equal(t, tt.want, got, tt.in)
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	base, limit := 100*time.Millisecond, 2*time.Second
	for attempt := 1; attempt <= 8; attempt++ {
		ideal := min(base<<(attempt-1), limit)
		got := backoff(base, limit, attempt, 7)
		require.LessOrEqual(t, got, limit)
		if ideal < limit {
			require.InDelta(t, float64(ideal), float64(got), float64(ideal)/4+1, "attempt %d", attempt)
		}
	}
	require.Equal(t, backoff(base, limit, 2, 7), backoff(base, limit, 2, 7), "deterministic")
	require.NotEqual(t, backoff(base, limit, 2, 7), backoff(base, limit, 2, 8), "jittered by seed")
}

func TestThumbStep(t *testing.T) {
	t.Parallel()
	tests := map[int]int{1: 120, 120: 120, 121: 250, 800: 960, 1200: 1280, 1281: 1920, 3000: 3840, 6000: 3840}
	for in, want := range tests {
		require.Equal(t, want, thumbStep(in), in)
	}
}

func TestPlainText(t *testing.T) {
	t.Parallel()
	require.Equal(t, "Jane Doe (talk)", plainText(`<a href="//x">Jane Doe</a> (<span>talk</span>)`))
	require.Equal(t, "A & B", plainText("A &amp;\n B"))
	require.Equal(t, "Some name", fileTitle("File:Some_name.jpg"))
}

func TestPlainTextBlocks(t *testing.T) {
	t.Parallel()
	require.Equal(t, "Line one Line two", plainText("Line one<br/>Line two"))
	require.Equal(t, "a b", plainText("<p>a</p><p>b</p>"))
	require.Equal(t, "unclosed", plainText("unclosed<a href"))
}

// TestAttemptTimeoutIsRetried ends the first attempt as its timeout would
// (on cue, once the server has the request) and checks that the provider
// retries and succeeds. No attempt has a deadline on the clock, so a slow
// machine cannot make the second attempt time out too.
func TestAttemptTimeoutIsRetried(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	arrived := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			close(arrived)
			<-r.Context().Done() // stalls until the attempt ends
			return
		}
		m := image.NewGray(image.Rect(0, 0, 320, 200))
		_ = jpeg.Encode(w, m, nil)
	}))
	t.Cleanup(srv.Close)
	p, err := NewRandom(&Options{BaseURL: srv.URL, Client: srv.Client(), MaxRetries: 2, RetryBase: time.Millisecond})
	require.NoError(t, err)
	var attempts atomic.Int32
	p.c.attemptContext = func(ctx context.Context) (context.Context, context.CancelFunc) {
		actx, cancel := context.WithCancelCause(ctx)
		if attempts.Add(1) == 1 {
			go func() {
				<-arrived
				cancel(context.DeadlineExceeded)
			}()
		}
		return actx, func() { cancel(nil) }
	}
	img, err := p.Image(context.Background(), providers.ImageRequest{Width: 320, Height: 200, Seed: 3})
	require.NoError(t, err)
	require.Equal(t, [2]int{320, 200}, [2]int{img.Width, img.Height})
	require.Equal(t, int32(2), calls.Load())
	require.Equal(t, int32(2), attempts.Load())
}
