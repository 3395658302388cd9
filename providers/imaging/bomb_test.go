package imaging_test

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers/imaging"
)

// pngBomb returns a valid 1-bit greyscale PNG of w x h black pixels. The
// rows compress to almost nothing, so a 7000x7000 image is a few
// kilobytes while decoding it costs tens of megabytes.
func pngBomb(tb testing.TB, w, h int) []byte {
	tb.Helper()
	var out bytes.Buffer
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(data)))
		out.Write(n[:])
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		crc.Write(data)
		out.WriteString(typ)
		out.Write(data)
		binary.BigEndian.PutUint32(n[:], crc.Sum32())
		out.Write(n[:])
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 1, 0 // bit depth 1, greyscale
	chunk("IHDR", ihdr)
	var idat bytes.Buffer
	zw, err := zlib.NewWriterLevel(&idat, zlib.BestCompression)
	if err != nil {
		tb.Fatal(err)
	}
	row := make([]byte, 1+(w+7)/8) // filter byte 0, then zero bits
	for range h {
		if _, err := zw.Write(row); err != nil {
			tb.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	chunk("IDAT", idat.Bytes())
	chunk("IEND", nil)
	return out.Bytes()
}

// jpegBomb returns the start of a baseline JPEG whose frame header claims
// w x h pixels (at most 65535 a side); it has no image data.
func jpegBomb(w, h int) []byte {
	b := []byte{0xff, 0xd8, 0xff, 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0} // SOI, JFIF APP0
	b = append(b, 0xff, 0xc0, 0, 11, 8, byte(h>>8), byte(h), byte(w>>8), byte(w), 1, 1, 0x11, 0)
	return append(b, 0xff, 0xd9)
}

// memPeak samples HeapInuse until stop is called and returns the highest
// value seen.
func memPeak() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond): // sampling period only, nothing is asserted on it
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak.Load()
	}
}

const mb = 1 << 20

// burstMemory runs n concurrent calls of do and reports the heap figures
// of the burst: peak HeapInuse above the start, bytes allocated, and
// HeapInuse still held after one garbage collection.
func burstMemory(b *testing.B, n int, do func() error) {
	b.Helper()
	var refused atomic.Int64
	for b.Loop() {
		runtime.GC()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		stop := memPeak()
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				if do() != nil {
					refused.Add(1)
				}
			})
		}
		wg.Wait()
		peak := stop()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(peak-min(peak, before.HeapInuse))/mb, "peak-MB")
		b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/mb, "alloc-MB")
		b.ReportMetric(float64(after.HeapInuse-min(after.HeapInuse, before.HeapInuse))/mb, "held-after-GC-MB")
		b.ReportMetric(float64(refused.Load()), "refused")
	}
}

// BenchmarkBombBurstRenditions is the finding's case: 32 uploads of a
// 7000x7000 PNG of a few kilobytes at once through the package function.
// Run with: go test ./providers/imaging -run '^$' -bench BombBurst -benchtime 1x
func BenchmarkBombBurstRenditions(b *testing.B) {
	data := pngBomb(b, 7000, 7000)
	b.Logf("bomb: %d bytes for 7000x7000", len(data))
	ctx := context.Background()
	burstMemory(b, 32, func() error {
		_, err := imaging.Renditions(ctx, data, nil)
		return err
	})
}

// TestPixelBombs feeds images just under and just over the pixel budget,
// and tiny files whose headers claim enormous sizes.
func TestPixelBombs(t *testing.T) {
	t.Parallel()
	const side = 200 // budget: side*side pixels
	d, err := imaging.NewDecoder(&imaging.Limits{MaxPixels: side * side})
	require.NoError(t, err)
	tests := []struct {
		name string
		data []byte
		want error // nil: decoded and rendered
	}{
		{"png at the budget", pngBomb(t, side, side), nil},
		{"png just under", pngBomb(t, side-1, side), nil},
		{"png one column over", pngBomb(t, side+1, side), imaging.ErrTooManyPixels},
		{"png one row over", pngBomb(t, side, side+1), imaging.ErrTooManyPixels},
		{"png thin and long", pngBomb(t, 1, side*side+1), imaging.ErrTooManyPixels},
		{"png 7000x7000", pngBomb(t, 7000, 7000), imaging.ErrTooManyPixels},
		{"png header claiming 100000x100000", pngHeader(100000, 100000), imaging.ErrTooManyPixels},
		{"png header claiming 2^31-1 a side", pngHeader(1<<31-1, 1<<31-1), imaging.ErrFormat},
		{"jpeg header at the budget, no data", jpegBomb(side, side), imaging.ErrFormat},
		{"jpeg header one over", jpegBomb(side+1, side), imaging.ErrTooManyPixels},
		{"jpeg header 65535x65535", jpegBomb(65535, 65535), imaging.ErrTooManyPixels},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Less(t, len(tt.data), 64<<10, "bombs are small files")
			s, err := d.Renditions(context.Background(), tt.data, nil)
			if tt.want == nil {
				require.NoError(t, err)
				require.NotEmpty(t, s.Thumbnail.Data)
				return
			}
			require.ErrorIs(t, err, tt.want)
			m, err := d.Decode(context.Background(), tt.data)
			require.ErrorIs(t, err, tt.want)
			require.Nil(t, m)
		})
	}
}

// pngHeader is a PNG signature and IHDR claiming w x h, without data.
func pngHeader(w, h uint32) []byte {
	b := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 0
	b = append(b, ihdr...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(append([]byte("IHDR"), ihdr...)))
}

// TestBombRefusedWithoutDecoding refuses the finding's 7000x7000 PNG many
// times at once through the package function with default options, and
// checks that the refusals allocated next to nothing: the header is read,
// the pixels never are. It runs alone (not parallel) so that the
// allocation count is its own.
func TestBombRefusedWithoutDecoding(t *testing.T) {
	data := pngBomb(t, 7000, 7000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var wg sync.WaitGroup
	errs := make([]error, 32)
	for i := range errs {
		wg.Go(func() {
			s, err := imaging.Renditions(context.Background(), data, nil)
			if s == nil || s.Dimensions != "7000x7000" {
				err = fmt.Errorf("dimensions not reported: %+v", s)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	runtime.ReadMemStats(&after)
	for _, err := range errs {
		require.ErrorIs(t, err, imaging.ErrTooManyPixels)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("32 refusals of a %d-byte 7000x7000 PNG allocated %d KB in all", len(data), alloc>>10)
	require.Less(t, alloc, uint64(8<<20), "refusing must not decode (one decode is 49 MB and more)")
}

// BenchmarkBombBurstDecoder sends 32 images just under the default budget
// (4999x5000, a few kilobytes each) at once through one default Decoder:
// all are rendered, and the Decoder's bound on pixels in flight keeps the
// peak to a few images' worth.
// Run with: go test ./providers/imaging -run '^$' -bench BombBurst -benchtime 1x
func BenchmarkBombBurstDecoder(b *testing.B) {
	data := pngBomb(b, 4999, 5000)
	b.Logf("bomb: %d bytes for 4999x5000", len(data))
	d, err := imaging.NewDecoder(nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	burstMemory(b, 32, func() error {
		_, err := d.Renditions(ctx, data, nil)
		return err
	})
}
