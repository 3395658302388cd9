package contentgen_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/providers"
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
		host, err := memhost.NewDemo(nil)
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

// BenchmarkFloor500 is the floor of BenchmarkGeneratePosts500: the same
// volume of text with the same structure (title, 4-8 paragraphs of 3-6
// sentences of 6-16 words, headings, a list in half the posts, an excerpt),
// built by picking words from a plain []string with math/rand/v2 and kept
// in a slice.
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
			next := 0
			for j := 0; j < n; j++ {
				if j == next {
					buf = append(buf, "<h2>"...)
					appendWords(between(2, 5))
					buf = append(buf, "</h2>\n"...)
					next = j + between(2, 3)
				}
				buf = append(buf, "<p>"...)
				for s, k := 0, between(3, 6); s < k; s++ {
					if s > 0 {
						buf = append(buf, ' ')
					}
					appendSentence(between(6, 16))
				}
				buf = append(buf, "</p>\n"...)
				if j == listAt {
					buf = append(buf, "<ul>\n"...)
					for k, m := 0, between(3, 6); k < m; k++ {
						buf = append(buf, "<li>"...)
						appendWords(between(2, 6))
						buf = append(buf, "</li>\n"...)
					}
					buf = append(buf, "</ul>\n"...)
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
	ctx := context.Background()
	seed := int64(1)
	prov, err := local.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		host, err := memhost.NewDemo(nil)
		if err != nil {
			b.Fatal(err)
		}
		gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed, ImageProviders: []providers.ImageProvider{prov}})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(100), ImageProvider: providers.Local})
		if err != nil || res.WithFeaturedImage != 100 {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkGeneratePosts500LocalImages is the whole job of a large batch:
// 500 posts, each with a 1200x800 featured image drawn by provider_local
// and its thumbnail and medium renditions, into a fresh memhost demo site
// per iteration.
func BenchmarkGeneratePosts500LocalImages(b *testing.B) {
	ctx := context.Background()
	seed := int64(1)
	prov, err := local.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		host, err := memhost.NewDemo(nil)
		if err != nil {
			b.Fatal(err)
		}
		gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed, ImageProviders: []providers.ImageProvider{prov}})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(500), ImageProvider: providers.Local})
		if err != nil || res.WithFeaturedImage != 500 {
			b.Fatal(res, err)
		}
	}
}
