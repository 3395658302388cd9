package remote_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/jpeg"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/imaging"
	"github.com/contentgen/contentgen/providers/remote"
)

// commons fakes the MediaWiki API and the thumbnail server of Wikimedia
// Commons on one test server.
type commons struct {
	t        testing.TB
	srv      *httptest.Server
	apiCalls atomic.Int32
	thumbs   atomic.Int32
	mu       sync.Mutex
	queries  []url.Values
	answer   func(q url.Values) any // nil: the standard answer
}

func newCommons(t testing.TB) *commons {
	c := &commons{t: t}
	mux := http.NewServeMux()
	mux.HandleFunc("/w/api.php", func(w http.ResponseWriter, r *http.Request) {
		c.apiCalls.Add(1)
		q := r.URL.Query()
		c.mu.Lock()
		c.queries = append(c.queries, q)
		answer := c.answer
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if answer != nil {
			_ = json.NewEncoder(w).Encode(answer(q))
			return
		}
		_ = json.NewEncoder(w).Encode(c.standard(q))
	})
	// /thumb/{w}x{h}/name.jpg serves a JPEG of that size.
	mux.HandleFunc("/thumb/", func(w http.ResponseWriter, r *http.Request) {
		c.thumbs.Add(1)
		dims := strings.Split(strings.Split(strings.TrimPrefix(r.URL.Path, "/thumb/"), "/")[0], "x")
		wd, _ := strconv.Atoi(dims[0])
		ht, _ := strconv.Atoi(dims[1])
		_, _ = w.Write(jpegOf(t, wd, ht))
	})
	c.srv = httptest.NewServer(mux)
	t.Cleanup(c.srv.Close)
	return c
}

func page(title, thumb string, tw, th int, mime string, meta map[string]any) map[string]any {
	return map[string]any{
		"title": title,
		"imageinfo": []any{map[string]any{
			"thumburl": thumb, "thumbwidth": tw, "thumbheight": th, "mime": mime,
			"descriptionurl": "https://commons.wikimedia.org/wiki/" + url.PathEscape(title),
			"extmetadata":    meta,
		}},
	}
}

// standard answers with three landscape pictures at the requested width,
// one portrait that is too short, and a PNG that must be skipped.
func (c *commons) standard(q url.Values) any {
	step, _ := strconv.Atoi(q.Get("iiurlwidth"))
	host := strings.TrimPrefix(c.srv.URL, "http:")
	pages := []any{
		page("File:Alpine_lake.jpg", fmt.Sprintf("%s/thumb/%dx%d/a.jpg", c.srv.URL, step, step*2/3), step, step*2/3, "image/jpeg", map[string]any{
			"ObjectName":       map[string]any{"value": "Alpine lake at dawn"},
			"Artist":           map[string]any{"value": `<a href="//commons.wikimedia.org/wiki/User:Jane">Jane Doe</a>`},
			"LicenseShortName": map[string]any{"value": "CC BY-SA 4.0"},
		}),
		page("File:Beech_forest.jpg", fmt.Sprintf("%s/thumb/%dx%d/b.jpg", host, step, step*3/4), step, step*3/4, "image/jpeg", map[string]any{
			"Artist":           map[string]any{"value": "John &amp; Co"},
			"LicenseShortName": map[string]any{"value": "CC BY 2.0"},
		}),
		page("File:Cliffs.jpg", fmt.Sprintf("/thumb/%dx%d/c.jpg", step, step*9/16), step, step*9/16, "image/jpeg", nil),
		page("File:Diagram.png", c.srv.URL+"/thumb/10x10/d.png", 10, 10, "image/png", nil),
		page("File:Tiny.jpg", c.srv.URL+"/thumb/200x100/e.jpg", 200, 100, "image/jpeg", nil),
	}
	return map[string]any{"batchcomplete": true, "query": map[string]any{"pages": pages}}
}

func (c *commons) options() *remote.CuratedOptions {
	return &remote.CuratedOptions{Options: remote.Options{
		BaseURL:      c.srv.URL + "/w/api.php",
		Client:       c.srv.Client(),
		RetryBase:    time.Millisecond,
		MaxRetryWait: 100 * time.Millisecond,
	}}
}

func curated(t testing.TB, o *remote.CuratedOptions) *remote.Curated {
	t.Helper()
	p, err := remote.NewCurated(o)
	require.NoError(t, err)
	return p
}

func TestCuratedCutsToExactSize(t *testing.T) {
	t.Parallel()
	c := newCommons(t)
	p := curated(t, c.options())
	sources := map[string]bool{}
	for seed := range uint64(8) {
		img, err := p.Image(context.Background(), providers.ImageRequest{Width: 600, Height: 400, Category: "nature", Seed: seed})
		require.NoError(t, err)
		require.Equal(t, [2]int{600, 400}, [2]int{img.Width, img.Height})
		require.Equal(t, "image/jpeg", img.MIMEType)
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(img.Data))
		require.NoError(t, err)
		require.Equal(t, [2]int{600, 400}, [2]int{cfg.Width, cfg.Height}, "really cut to size")
		require.NotContains(t, img.Source, "Diagram", "PNG results are skipped")
		require.NotContains(t, img.Source, "Tiny", "results too small to cover are avoided")
		sources[img.Source] = true
		if strings.HasSuffix(img.Source, "Alpine_lake.jpg") {
			require.Equal(t, "Alpine lake at dawn", img.Title)
			require.Equal(t, "Jane Doe", img.Credit)
			require.Equal(t, "CC BY-SA 4.0", img.License)
		}
		if strings.HasSuffix(img.Source, "Cliffs.jpg") {
			require.Equal(t, "Cliffs", img.Title, "title from the file name")
		}
	}
	require.Greater(t, len(sources), 1, "seeds pick different pictures")

	q := c.queries[0]
	require.Equal(t, "960", q.Get("iiurlwidth"), "a standard thumbnail width")
	require.Equal(t, "6", q.Get("gsrnamespace"))
	search := q.Get("gsrsearch")
	require.Contains(t, search, `incategory:"Featured_pictures_on_Wikimedia_Commons"`)
	kw := strings.SplitN(search, " filetype:", 2)[0]
	require.Contains(t, remote.KeywordsFor(providers.Curated, "nature"), kw, "the search uses a nature keyword")
}

func TestCuratedIsDeterministicAndCached(t *testing.T) {
	t.Parallel()
	c := newCommons(t)
	p := curated(t, c.options())
	r := providers.ImageRequest{Width: 400, Height: 300, Category: "food", Seed: 9}
	a, err := p.Image(context.Background(), r)
	require.NoError(t, err)
	b, err := p.Image(context.Background(), r)
	require.NoError(t, err)
	require.Equal(t, a.Source, b.Source)
	require.Equal(t, a.Data, b.Data)
	require.Equal(t, int32(1), c.apiCalls.Load(), "the search is cached")
	require.Equal(t, int32(2), c.thumbs.Load())
}

func TestCuratedConcurrentSearchRunsOnce(t *testing.T) {
	t.Parallel()
	c := newCommons(t)
	p := curated(t, c.options())
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = p.Image(context.Background(), providers.ImageRequest{Width: 200, Height: 200, Category: "animals", Seed: 3})
		})
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, int32(1), c.apiCalls.Load())
}

func TestCuratedCacheExpires(t *testing.T) {
	t.Parallel()
	c := newCommons(t)
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	o := c.options()
	o.CacheTTL = time.Minute
	o.Now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	p := curated(t, o)
	r := providers.ImageRequest{Width: 200, Height: 200, Category: "travel", Seed: 1}
	_, err := p.Image(context.Background(), r)
	require.NoError(t, err)
	_, err = p.Image(context.Background(), r)
	require.NoError(t, err)
	require.Equal(t, int32(1), c.apiCalls.Load())
	mu.Lock()
	now = now.Add(2 * time.Minute)
	mu.Unlock()
	_, err = p.Image(context.Background(), r)
	require.NoError(t, err)
	require.Equal(t, int32(2), c.apiCalls.Load(), "searched again after the TTL")
}

func TestCuratedFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		answer func(url.Values) any
		want   error
		text   string
	}{
		{"no results", func(url.Values) any { return map[string]any{"batchcomplete": true} }, providers.ErrNoResults, ""},
		{"only unusable results", func(url.Values) any {
			return map[string]any{"query": map[string]any{"pages": []any{page("File:X.png", "/thumb/10x10/x.png", 10, 10, "image/png", nil)}}}
		}, providers.ErrNoResults, ""},
		{"API error", func(url.Values) any {
			return map[string]any{"error": map[string]any{"code": "maxlag", "info": "Waiting for a database server"}}
		}, nil, "maxlag"},
		{"thumbnail with a bad scheme", func(url.Values) any {
			return map[string]any{"query": map[string]any{"pages": []any{page("File:X.jpg", "ftp://example.com/x.jpg", 2000, 2000, "image/jpeg", nil)}}}
		}, nil, "scheme"},
		{"thumbnail is not an image", func(url.Values) any {
			return map[string]any{"query": map[string]any{"pages": []any{page("File:X.jpg", "/w/api.php?x", 2000, 2000, "image/jpeg", nil)}}}
		}, providers.ErrNotImage, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := newCommons(t)
			c.answer = tt.answer
			_, err := curated(t, c.options()).Image(context.Background(), providers.ImageRequest{Width: 300, Height: 200, Seed: 1})
			require.Error(t, err)
			if tt.want != nil {
				require.ErrorIs(t, err, tt.want)
			}
			require.ErrorContains(t, err, tt.text)
		})
	}
}

func TestCuratedOptions(t *testing.T) {
	t.Parallel()
	_, err := remote.NewCurated(&remote.CuratedOptions{Quality: 101})
	require.ErrorContains(t, err, "Quality")
	_, err = remote.NewCurated(&remote.CuratedOptions{Collection: `x" OR "y`})
	require.ErrorContains(t, err, "Collection")
	c := newCommons(t)
	o := c.options()
	o.Collection = "Quality_images"
	_, err = curated(t, o).Image(context.Background(), providers.ImageRequest{Width: 300, Height: 200, Seed: 1})
	require.NoError(t, err)
	require.Contains(t, c.queries[0].Get("gsrsearch"), `incategory:"Quality_images"`)
	require.True(t, strings.HasPrefix(c.queries[0].Get("gsrsearch"), "filetype:"), "no keyword without a category")
}

func TestCuratedDecodesWithinTheDecodersLimits(t *testing.T) {
	t.Parallel()
	c := newCommons(t)
	d, err := imaging.NewDecoder(&imaging.Limits{MaxPixels: 100_000})
	require.NoError(t, err)
	o := c.options()
	o.Decoder = d
	_, err = curated(t, o).Image(context.Background(), providers.ImageRequest{Width: 600, Height: 400, Category: "nature", Seed: 1})
	require.ErrorIs(t, err, imaging.ErrTooManyPixels, "a 960-wide thumbnail is above the shared budget")

	o = c.options()
	o.MaxPixels = 100_000
	_, err = curated(t, o).Image(context.Background(), providers.ImageRequest{Width: 600, Height: 400, Category: "nature", Seed: 1})
	require.ErrorIs(t, err, imaging.ErrTooManyPixels, "the provider's own budget")
}
