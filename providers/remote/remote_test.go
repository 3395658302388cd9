package remote_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/fetch"
	"github.com/contentgen/contentgen/providers/remote"
)

// jpegOf encodes a w x h JPEG.
func jpegOf(t testing.TB, w, h int) []byte {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			i := m.PixOffset(x, y)
			m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = uint8(x), uint8(y), 128, 255
		}
	}
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, m, &jpeg.Options{Quality: 60}))
	return buf.Bytes()
}

// webpOf is a WebP header (VP8X) announcing w x h.
func webpOf(w, h int) []byte {
	b := make([]byte, 40)
	copy(b, "RIFF")
	binary.LittleEndian.PutUint32(b[4:], 32)
	copy(b[8:], "WEBPVP8X")
	b[24], b[25] = byte(w-1), byte((w-1)>>8)
	b[27], b[28] = byte(h-1), byte((h-1)>>8)
	return b
}

// script is a scripted fake service: each request takes the next step;
// the last step repeats.
type script struct {
	t     testing.TB
	mu    sync.Mutex
	steps []func(w http.ResponseWriter, r *http.Request)
	paths []string
	calls atomic.Int32
}

func (s *script) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	n := int(s.calls.Add(1)) - 1
	s.paths = append(s.paths, r.URL.RequestURI())
	step := s.steps[min(n, len(s.steps)-1)]
	s.mu.Unlock()
	step(w, r)
}

func (s *script) lastPath() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.paths[len(s.paths)-1]
}

// serveSized answers /{w}/{h}/... and /seed/{s}/{w}/{h} with a JPEG of
// that size.
func serveSized(t testing.TB) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		if parts[0] == "seed" {
			parts = parts[2:]
		}
		if parts[0] == "cache" {
			parts = parts[1:]
		}
		wd, _ := strconv.Atoi(parts[0])
		ht, _ := strconv.Atoi(parts[1])
		w.Header().Set("Content-Type", "image/jpeg")
		w.Header().Set("Picsum-ID", "237")
		_, _ = w.Write(jpegOf(t, wd, ht))
	}
}

func status(code int, retryAfter string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		http.Error(w, http.StatusText(code), code)
	}
}

func newServer(t testing.TB, steps ...func(http.ResponseWriter, *http.Request)) (*httptest.Server, *script) {
	t.Helper()
	s := &script{t: t, steps: steps}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return srv, s
}

// fast are options for tests: tiny waits between retries, the test
// server's client, and an attempt timeout far longer than any answer of a
// test server takes, even on a loaded machine, so that no outcome depends
// on the clock.
func fast(srv *httptest.Server) *remote.Options {
	return &remote.Options{
		BaseURL:      srv.URL,
		Client:       srv.Client(),
		MaxRetries:   2,
		RetryBase:    time.Millisecond,
		MaxRetryWait: 200 * time.Millisecond,
		Timeout:      time.Minute,
	}
}

type provider interface {
	providers.ImageProvider
}

func keyword(t testing.TB, o *remote.Options) provider {
	t.Helper()
	p, err := remote.NewKeyword(o)
	require.NoError(t, err)
	return p
}

func random(t testing.TB, o *remote.Options) provider {
	t.Helper()
	p, err := remote.NewRandom(o)
	require.NoError(t, err)
	return p
}

var req = providers.ImageRequest{Width: 320, Height: 200, Category: "nature", Seed: 41}

func TestKeywordURLAndCategoryMapping(t *testing.T) {
	t.Parallel()
	tests := []struct {
		category string
		path     string
	}{
		{"nature", "/320/200/nature,landscape?lock=42"},
		{"real-estate", "/320/200/house,home?lock=42"},
		{"interior", "/320/200/interior,livingroom?lock=42"},
		{"", "/320/200?lock=42"},
		{"unknown", "/320/200?lock=42"},
	}
	for _, tt := range tests {
		t.Run(tt.category, func(t *testing.T) {
			t.Parallel()
			// LoremFlickr redirects to a cached file; follow it.
			srv, s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "/cache/320/200/photo.jpg", http.StatusFound)
			}, serveSized(t))
			r := req
			r.Category = tt.category
			img, err := keyword(t, fast(srv)).Image(context.Background(), r)
			require.NoError(t, err)
			require.Equal(t, tt.path, s.paths[0])
			require.Equal(t, srv.URL+"/cache/320/200/photo.jpg", img.Source, "Source is the final URL")
			require.Equal(t, [2]int{320, 200}, [2]int{img.Width, img.Height})
			require.Equal(t, "image/jpeg", img.MIMEType)
			require.Equal(t, "jpg", img.Ext)
			require.Empty(t, img.Title, "LoremFlickr reports no title")
		})
	}
}

func TestRandomIgnoresCategory(t *testing.T) {
	t.Parallel()
	srv, s := newServer(t, serveSized(t))
	img, err := random(t, fast(srv)).Image(context.Background(), req)
	require.NoError(t, err)
	require.Equal(t, "/seed/41/320/200", s.lastPath())
	require.NotContains(t, s.lastPath(), "nature")
	require.Equal(t, "Lorem Picsum photo 237", img.Title)
	require.Equal(t, [2]int{320, 200}, [2]int{img.Width, img.Height})
}

func TestRetries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		steps   []func(http.ResponseWriter, *http.Request)
		calls   int
		status  int // expected StatusError code, 0 for success
		after   time.Duration
		wantErr error // other expected error
	}{
		{"429 then success", []func(http.ResponseWriter, *http.Request){status(429, "0"), serveSized(t)}, 2, 0, 0, nil},
		{"503 then success", []func(http.ResponseWriter, *http.Request){status(503, ""), serveSized(t)}, 2, 0, 0, nil},
		{"500 exhausts retries", []func(http.ResponseWriter, *http.Request){status(500, "")}, 3, 500, 0, nil},
		{"429 asking too long a pause", []func(http.ResponseWriter, *http.Request){status(429, "3600"), serveSized(t)}, 1, 429, time.Hour, nil},
		{"404 is not retried", []func(http.ResponseWriter, *http.Request){status(404, ""), serveSized(t)}, 1, 404, 0, nil},
		{"non-image body", []func(http.ResponseWriter, *http.Request){func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "image/jpeg") // lies
			fmt.Fprint(w, "<html>rate limited</html>")
		}}, 1, 0, 0, providers.ErrNotImage},
		{"announced oversize", []func(http.ResponseWriter, *http.Request){func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "5000")
			_, _ = w.Write(make([]byte, 5000))
		}}, 1, 0, 0, providers.ErrTooLarge},
		{"streamed oversize", []func(http.ResponseWriter, *http.Request){func(w http.ResponseWriter, r *http.Request) {
			for range 5 {
				_, _ = w.Write(append([]byte{0xff, 0xd8, 0xff}, make([]byte, 1000)...))
				w.(http.Flusher).Flush()
			}
		}}, 1, 0, 0, providers.ErrTooLarge},
		{"redirect to ftp", []func(http.ResponseWriter, *http.Request){func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "ftp://example.com/x.jpg", http.StatusFound)
		}}, 1, 0, 0, fetch.ErrSchemeNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, s := newServer(t, tt.steps...)
			o := fast(srv)
			o.MaxBytes = 4096
			img, err := random(t, o).Image(context.Background(), req)
			require.Equal(t, int32(tt.calls), s.calls.Load(), "requests made")
			switch {
			case tt.status != 0:
				var se *providers.StatusError
				require.ErrorAs(t, err, &se)
				require.Equal(t, tt.status, se.StatusCode)
				require.Equal(t, tt.calls, se.Attempts)
				require.Equal(t, tt.after, se.RetryAfter)
				require.Equal(t, providers.Random, se.Provider)
			case tt.wantErr != nil:
				require.ErrorIs(t, err, tt.wantErr)
			default:
				require.NoError(t, err)
				require.Equal(t, 320, img.Width)
			}
		})
	}
}

// TestAttemptTimeoutEndsStalledAttempts lets every attempt stall until
// the per-attempt timeout ends it: the only way out is that timeout, so
// the outcome does not depend on how fast the machine is. How many
// attempts reached the server is not checked: on a loaded machine the
// timeout may end an attempt before the server sees it. (That a timed
// out attempt is retried and the retry can succeed is
// TestAttemptTimeoutIsRetried, which ends the attempt on cue.)
func TestAttemptTimeoutEndsStalledAttempts(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	o := fast(srv)
	o.Timeout = 20 * time.Millisecond
	o.MaxRetries = 1
	_, err := random(t, o).Image(context.Background(), req)
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestContextCancellation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		step func(http.ResponseWriter, *http.Request)
	}{
		{"while the server stalls", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }},
		// The service asks for an hour's pause and the options allow it:
		// only the cancellation can end the wait.
		{"while waiting to retry", status(503, "3600")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			answered := make(chan struct{}, 1)
			srv, s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
				answered <- struct{}{}
				tt.step(w, r)
			})
			o := fast(srv)
			o.MaxRetryWait = 2 * time.Hour
			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-answered; cancel() }()
			_, err := keyword(t, o).Image(ctx, req)
			require.ErrorIs(t, err, context.Canceled)
			require.Equal(t, int32(1), s.calls.Load(), "no retry after cancellation")
		})
	}
}

func TestWebPAcceptedByHeader(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(webpOf(320, 200)) })
	img, err := random(t, fast(srv)).Image(context.Background(), req)
	require.NoError(t, err)
	require.Equal(t, "image/webp", img.MIMEType)
	require.Equal(t, [2]int{320, 200}, [2]int{img.Width, img.Height})
}

func TestDefaultClientRefusesPrivateAddresses(t *testing.T) {
	t.Parallel()
	srv, s := newServer(t, serveSized(t))
	_, err := random(t, &remote.Options{BaseURL: srv.URL}).Image(context.Background(), req)
	require.ErrorIs(t, err, fetch.ErrAddressNotAllowed)
	require.Zero(t, s.calls.Load(), "refused before any request")

	img, err := random(t, &remote.Options{BaseURL: srv.URL, AllowPrivateAddresses: true}).Image(context.Background(), req)
	require.NoError(t, err)
	require.Equal(t, 320, img.Width)
}

func TestInvalidRequests(t *testing.T) {
	t.Parallel()
	srv, s := newServer(t, serveSized(t))
	_, err := keyword(t, fast(srv)).Image(context.Background(), providers.ImageRequest{Width: 5000, Height: 100})
	require.ErrorIs(t, err, providers.ErrInvalidSize)
	require.Zero(t, s.calls.Load())

	for _, base := range []string{"ftp://example.com", "not a url", "http://user:pw@example.com"} {
		_, err := remote.NewRandom(&remote.Options{BaseURL: base})
		require.ErrorContains(t, err, "BaseURL", base)
	}
}

func TestKeywordsFor(t *testing.T) {
	t.Parallel()
	for _, c := range providers.CategorySlugs() {
		require.NotEmpty(t, remote.KeywordsFor(providers.Keyword, c), c)
		require.NotEmpty(t, remote.KeywordsFor(providers.Curated, c), c)
		require.Nil(t, remote.KeywordsFor(providers.Random, c), "random has no categories")
		require.Nil(t, remote.KeywordsFor(providers.Local, c))
	}
	require.Nil(t, remote.KeywordsFor(providers.Keyword, ""))
	kw := remote.KeywordsFor(providers.Keyword, "food")
	kw[0] = "changed"
	require.NotEqual(t, "changed", remote.KeywordsFor(providers.Keyword, "food")[0])
}
