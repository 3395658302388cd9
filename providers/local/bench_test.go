package local

import (
	"context"
	"testing"
	"time"

	"github.com/contentgen/contentgen/providers"
)

func benchImage(b *testing.B, req providers.ImageRequest) {
	b.Helper()
	p, err := New(nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var n int
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		req.Seed++
		img, err := p.Image(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		n += len(img.Data)
		img.Release() // as a caller done with the pixels does
	}
	b.ReportMetric(float64(n)/float64(b.N), "jpeg-bytes/op")
}

// BenchmarkLocal1200x800 is a featured image of the default size, cycling
// through scenes by seed (the category is left empty).
func BenchmarkLocal1200x800(b *testing.B) {
	benchImage(b, providers.ImageRequest{Width: 1200, Height: 800})
}

// BenchmarkLocal1200x800Caption adds a caption.
func BenchmarkLocal1200x800Caption(b *testing.B) {
	benchImage(b, providers.ImageRequest{Width: 1200, Height: 800, Caption: "A caption of a typical length for a post"})
}

// BenchmarkLocalAvatar96 and BenchmarkLocalAvatar512 are portrait avatars.
func BenchmarkLocalAvatar96(b *testing.B) {
	benchImage(b, providers.ImageRequest{Width: 96, Height: 96, Category: "portrait"})
}

// BenchmarkLocalAvatar512 is a large portrait avatar.
func BenchmarkLocalAvatar512(b *testing.B) {
	benchImage(b, providers.ImageRequest{Width: 512, Height: 512, Category: "portrait"})
}

// BenchmarkLocalCategories1200x800 renders each category once per
// iteration, to spot slow scenes.
func BenchmarkLocalCategories1200x800(b *testing.B) {
	for _, cat := range providers.CategorySlugs() {
		b.Run(cat, func(b *testing.B) {
			benchImage(b, providers.ImageRequest{Width: 1200, Height: 800, Category: cat})
		})
	}
}

// BenchmarkLocal1200x800Parallel runs featured images on all cores, as a
// generator with bounded concurrency does; ns/op is the batch throughput.
func BenchmarkLocal1200x800Parallel(b *testing.B) {
	p, err := New(nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	defer reportCPU(b)()
	b.RunParallel(func(pb *testing.PB) {
		var seed uint64
		for pb.Next() {
			seed++
			img, err := p.Image(ctx, providers.ImageRequest{Width: 1200, Height: 800, Seed: seed})
			if err != nil {
				b.Error(err)
				return
			}
			img.Release()
		}
	})
}

// reportCPU starts measuring processor time; the function it returns
// reports it per operation as cpu-ms/op, where it can be measured.
func reportCPU(b *testing.B) func() {
	start, ok := cpuTime()
	return func() {
		if end, ok2 := cpuTime(); ok && ok2 && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		}
	}
}
