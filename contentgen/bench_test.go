package contentgen_test

import (
	"bytes"
	"context"
	"image"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/ai"
	"github.com/contentgen/contentgen/providers/ai/aitest"
	"github.com/contentgen/contentgen/providers/imaging"
	"github.com/contentgen/contentgen/providers/local"
)

// BenchmarkGeneratePosts500 generates 500 posts with the default options
// (full content, auto taxonomies, no image provider configured) into a
// fresh memhost demo site per iteration.
func BenchmarkGeneratePosts500(b *testing.B) {
	ctx := context.Background()
	seed := int64(1)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		host, err := demosite.New(nil)
		if err != nil {
			b.Fatal(err)
		}
		gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(500)})
		if err != nil || len(res.IDs) != 500 {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkGeneratePosts500RealText is BenchmarkGeneratePosts500 in real
// English text, where every post is about a topic: terms are named after
// topics, their topics read back, and the writer set to each post's topic.
func BenchmarkGeneratePosts500RealText(b *testing.B) {
	ctx := context.Background()
	seed := int64(1)
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		host, err := demosite.New(nil)
		if err != nil {
			b.Fatal(err)
		}
		gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.TextSource = "realtext"; s.Locale = "en_US" }); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(500)})
		if err != nil || len(res.IDs) != 500 {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkFloor500 is the floor of BenchmarkGeneratePosts500: the same
// volume of text with the same structure (title, 4-8 paragraphs of 3-6
// sentences of 6-16 words, h2 and h3 headings, emphasis, strong text and
// links in paragraphs, a bulleted or numbered list in half the posts, a
// quote with its attribution in half, an excerpt), built by picking words
// from a plain []string with math/rand/v2 and kept in a slice. It leaves
// out the tables and code of posts filed under technical terms.
func BenchmarkFloor500(b *testing.B) {
	words := []string{
		"lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do",
		"eiusmod", "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "enim",
		"minim", "veniam", "quis", "nostrud", "exercitation", "ullamco", "laboris", "nisi", "aliquip", "commodo",
	}
	b.ReportAllocs()
	for b.Loop() {
		r := rand.New(rand.NewPCG(1, 2))
		posts := make([]contentgen.Post, 0, 500)
		var buf []byte
		between := func(lo, hi int) int { return lo + r.IntN(hi-lo+1) }
		appendWords := func(n int) {
			for i := 0; i < n; i++ {
				if i > 0 {
					buf = append(buf, ' ')
				}
				buf = append(buf, words[r.IntN(len(words))]...)
			}
		}
		appendSentence := func(n int) {
			appendWords(n)
			buf = append(buf, '.')
		}
		// appendWrapped writes n words, the one at wrap between open and
		// close.
		appendWrapped := func(n, wrap int, open, close string) {
			for i := 0; i < n; i++ {
				if i > 0 {
					buf = append(buf, ' ')
				}
				if i == wrap {
					buf = append(buf, open...)
				}
				buf = append(buf, words[r.IntN(len(words))]...)
				if i == wrap {
					buf = append(buf, close...)
				}
			}
			buf = append(buf, '.')
		}
		spans := [...][2]string{{"<em>", "</em>"}, {"<strong>", "</strong>"}, {`<a href="https://www.example.com/guides/getting-started">`, "</a>"}}
		for i := 0; i < 500; i++ {
			var p contentgen.Post
			buf = buf[:0]
			appendWords(between(3, 8))
			p.Title = string(buf)

			buf = buf[:0]
			n := between(4, 8)
			listAt := -1
			if r.IntN(2) == 0 {
				listAt = r.IntN(n)
			}
			quoteAt := -1
			if r.IntN(2) == 0 {
				quoteAt = r.IntN(n)
			}
			list, item := [2]string{"<ul>\n", "</ul>\n"}, [2]string{"<li>", "</li>\n"}
			if r.IntN(2) == 0 {
				list = [2]string{"<ol>\n", "</ol>\n"}
			}
			next := 0
			for j := 0; j < n; j++ {
				if j == next {
					h := [2]string{"<h2>", "</h2>\n"}
					if j > 0 && r.IntN(2) == 0 {
						h = [2]string{"<h3>", "</h3>\n"}
					}
					buf = append(buf, h[0]...)
					appendWords(between(2, 5))
					buf = append(buf, h[1]...)
					next = j + between(2, 3)
				}
				buf = append(buf, "<p>"...)
				// One or two inline elements in most paragraphs.
				spanIn, span := -1, spans[r.IntN(len(spans))]
				k := between(3, 6)
				if r.IntN(4) != 3 {
					spanIn = r.IntN(k)
				}
				for s := 0; s < k; s++ {
					if s > 0 {
						buf = append(buf, ' ')
					}
					m := between(6, 16)
					if s == spanIn {
						appendWrapped(m, r.IntN(m), span[0], span[1])
					} else {
						appendSentence(m)
					}
				}
				buf = append(buf, "</p>\n"...)
				if j == listAt {
					buf = append(buf, list[0]...)
					for k, m := 0, between(3, 6); k < m; k++ {
						buf = append(buf, item[0]...)
						appendWords(between(2, 6))
						buf = append(buf, item[1]...)
					}
					buf = append(buf, list[1]...)
				}
				if j == quoteAt {
					buf = append(buf, "<blockquote>\n<p>"...)
					appendSentence(between(6, 16))
					buf = append(buf, "</p>\n<cite>"...)
					appendWords(2)
					buf = append(buf, "</cite>\n</blockquote>\n"...)
				}
			}
			p.Content = string(buf)

			buf = buf[:0]
			for s, k := 0, between(1, 2); s < k; s++ {
				if s > 0 {
					buf = append(buf, ' ')
				}
				appendSentence(between(8, 20))
			}
			p.Excerpt = string(buf)
			posts = append(posts, p)
		}
		if len(posts) != 500 {
			b.Fatal(len(posts))
		}
	}
}

// BenchmarkGeneratePosts100LocalImages generates 100 posts, each with a
// 1200x800 featured image drawn by provider_local (with its renditions).
func BenchmarkGeneratePosts100LocalImages(b *testing.B) {
	benchLocalImages(b, 100)
}

// BenchmarkGeneratePosts500LocalImages is the whole job of a large batch:
// 500 posts, each with a 1200x800 featured image drawn by provider_local
// and its thumbnail and medium renditions, into a fresh memhost demo site
// per iteration. Its floor is BenchmarkFloor500LocalImages.
func BenchmarkGeneratePosts500LocalImages(b *testing.B) {
	benchLocalImages(b, 500)
}

func benchLocalImages(b *testing.B, n int) {
	ctx := context.Background()
	seed := int64(1)
	prov, err := local.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		b.StopTimer()
		host, err := demosite.New(nil)
		if err != nil {
			b.Fatal(err)
		}
		gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed, ImageProviders: []providers.ImageProvider{prov}})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(n), ImageProvider: providers.Local})
		if err != nil || res.WithFeaturedImage != n {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkFloor500LocalImages is the floor of
// BenchmarkGeneratePosts500LocalImages: 500 JPEGs of 1200x800 with a
// 300x200 medium and a 150x150 thumbnail each, on GOMAXPROCS goroutines,
// with no posts, no host and no drawing: the pictures are the 14 scenes of
// provider_local drawn before the timer starts, encoded with the project's
// fastest JPEG encoder, and the renditions are taken by the cheapest
// scaling there is, one sample in four. What is left is the cost of
// encoding alone.
func BenchmarkFloor500LocalImages(b *testing.B) {
	prov, err := local.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	var scenes []*image.YCbCr
	for i, cat := range providers.CategorySlugs() {
		m, _, err := prov.Render(providers.ImageRequest{Width: 1200, Height: 800, Category: cat, Seed: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		scenes = append(scenes, m)
	}
	// sample takes every step-th sample of the part of src starting at
	// (x0, y0), w x h samples of the result.
	sample := func(src *image.YCbCr, x0, y0, w, h, step int) *image.YCbCr {
		dst := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
		for y := range h {
			for x := range w {
				dst.Y[y*dst.YStride+x] = src.Y[(y0+y*step)*src.YStride+x0+x*step]
			}
		}
		for y := range (h + 1) / 2 {
			for x := range (w + 1) / 2 {
				i := (y0/2+y*step)*src.CStride + x0/2 + x*step
				dst.Cb[y*dst.CStride+x], dst.Cr[y*dst.CStride+x] = src.Cb[i], src.Cr[i]
			}
		}
		return dst
	}
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		out := make([][3][]byte, 500)
		var next atomic.Int64
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				var buf []byte
				for i := int(next.Add(1)) - 1; i < len(out); i = int(next.Add(1)) - 1 {
					m := scenes[i%len(scenes)]
					medium := sample(m, 0, 0, 300, 200, 4)
					thumb := sample(medium, 74, 24, 150, 150, 1)
					for k, img := range []*image.YCbCr{m, medium, thumb} {
						var err error
						if buf, err = imaging.AppendJPEG(buf[:0], img, local.DefaultQuality); err != nil {
							b.Error(err)
							return
						}
						out[i][k] = bytes.Clone(buf)
					}
				}
			})
		}
		wg.Wait()
		for i := range out {
			if len(out[i][2]) == 0 {
				b.Fatal("image", i, "missing")
			}
		}
	}
}

// reportCPU starts measuring processor time; the function it returns
// reports it per operation as cpu-ms/op, where it can be measured: on a
// shared machine a steadier figure than elapsed time.
func reportCPU(b *testing.B) func() {
	start, ok := cpuTime()
	return func() {
		if end, ok2 := cpuTime(); ok && ok2 && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		}
	}
}

// BenchmarkGeneratePosts50AI is 50 posts with the ai text source against
// an in-process OpenAI-compatible server that answers at once: what the
// AI path costs besides the model (prompts, HTTP round trips, reading and
// rendering the Markdown), per post in ns/post. Every iteration has its own
// seed, so the cache never answers. A real model adds its own latency per
// post, seconds for a local one, divided by the requests in flight.
func BenchmarkGeneratePosts50AI(b *testing.B) {
	ctx := context.Background()
	fake := aitest.NewServer(b)
	seed := int64(1)
	b.ReportAllocs()
	n := int64(0)
	for b.Loop() {
		b.StopTimer()
		host, err := demosite.New(nil)
		if err != nil {
			b.Fatal(err)
		}
		gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed, AIProviders: map[string]ai.Options{
			contentgen.AIOne: {BaseURL: fake.BaseURL(), Model: "bench", KeyOptional: true},
		}})
		if err != nil {
			b.Fatal(err)
		}
		n++
		b.StartTimer()
		res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(50), TextSource: contentgen.TextSourceAI, Seed: new(n), SetFeaturedImage: new(false)})
		if err != nil || len(res.IDs) != 50 || res.AIText.Posts != 50 {
			b.Fatal(res, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*50), "ns/post")
}
