package remote

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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
