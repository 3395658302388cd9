package imaging_test

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers/imaging"
)

// photo is a 4:2:0 image with what photographs have: smooth gradients,
// hard edges and fine noise.
func photo(w, h int, seed uint64) *image.YCbCr {
	m := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	r := rand.New(rand.NewPCG(seed, 1))
	for y := range h {
		for x := range w {
			v := 40 + 150*float64(x)/float64(max(w, 1)) + 20*math.Sin(float64(y)/9)
			if (x/23+y/17)%5 == 0 {
				v += 50
			}
			v += float64(r.IntN(9)) - 4
			m.Y[m.YOffset(x, y)] = uint8(min(max(v, 0), 255))
		}
	}
	for y := range (h + 1) / 2 {
		for x := range (w + 1) / 2 {
			m.Cb[y*m.CStride+x] = uint8(100 + 60*x/max((w+1)/2, 1))
			m.Cr[y*m.CStride+x] = uint8(180 - 70*y/max((h+1)/2, 1) + r.IntN(5))
		}
	}
	return m
}

// psnr compares the luma of two images of the same size.
func psnr(t *testing.T, a, b image.Image) float64 {
	t.Helper()
	require.Equal(t, a.Bounds().Size(), b.Bounds().Size())
	ya, yb := a.(*image.YCbCr), b.(*image.YCbCr)
	var se float64
	w, h := a.Bounds().Dx(), a.Bounds().Dy()
	for y := range h {
		for x := range w {
			d := float64(ya.Y[ya.YOffset(ya.Rect.Min.X+x, ya.Rect.Min.Y+y)]) - float64(yb.Y[yb.YOffset(yb.Rect.Min.X+x, yb.Rect.Min.Y+y)])
			se += d * d
		}
	}
	if se == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(255*255/(se/float64(w*h)))
}

// sosOffset is where the entropy-coded data of a JPEG starts.
func sosOffset(t *testing.T, data []byte) int {
	t.Helper()
	i := bytes.Index(data, []byte{0xff, 0xda})
	require.Positive(t, i)
	return i + 2 + int(data[i+2])<<8 | int(data[i+3])
}

// TestEncodeJPEGLikeImageJPEG checks that EncodeJPEG writes the same
// headers and tables as image/jpeg, and an image any decoder reads that is
// as close to the original as image/jpeg's, at about the same size.
func TestEncodeJPEGLikeImageJPEG(t *testing.T) {
	t.Parallel()
	sizes := []image.Point{{1, 1}, {2, 3}, {7, 5}, {8, 8}, {16, 16}, {17, 33}, {150, 150}, {301, 199}, {1200, 800}}
	for _, q := range []int{1, 30, 50, 82, 85, 100} {
		for _, sz := range sizes {
			if sz.X > 400 && q != 85 {
				continue // the full size once, at the provider's quality
			}
			src := photo(sz.X, sz.Y, uint64(q*sz.X+sz.Y))
			var ours, std bytes.Buffer
			require.NoError(t, imaging.EncodeJPEG(&ours, src, q))
			require.NoError(t, jpeg.Encode(&std, src, &jpeg.Options{Quality: q}))
			so, ss := sosOffset(t, ours.Bytes()), sosOffset(t, std.Bytes())
			require.Equal(t, std.Bytes()[:ss], ours.Bytes()[:so], "headers at %v q%d", sz, q)
			require.Equal(t, []byte{0xff, 0xd9}, ours.Bytes()[ours.Len()-2:])

			dOurs, err := jpeg.Decode(bytes.NewReader(ours.Bytes()))
			require.NoError(t, err, "%v q%d", sz, q)
			dStd, err := jpeg.Decode(bytes.NewReader(std.Bytes()))
			require.NoError(t, err)
			require.Equal(t, src.Rect, dOurs.Bounds())
			pOurs, pStd := psnr(t, src, dOurs), psnr(t, src, dStd)
			// A few pixels make a noisy measure: allow more there.
			slack := 0.5
			if sz.X*sz.Y < 64 {
				slack = 5
			}
			require.GreaterOrEqual(t, pOurs, pStd-slack, "%v q%d: %.2f dB against image/jpeg's %.2f dB", sz, q, pOurs, pStd)
			if sz.X*sz.Y >= 150*150 {
				ratio := float64(ours.Len()) / float64(std.Len())
				require.InDelta(t, 1, ratio, 0.05, "%v q%d: %d bytes against %d", sz, q, ours.Len(), std.Len())
			}
		}
	}
}

// TestEncodeJPEGOtherImages hands images it has no fast path for to
// image/jpeg: the same bytes.
func TestEncodeJPEGOtherImages(t *testing.T) {
	t.Parallel()
	sub := photo(64, 48, 3).SubImage(image.Rect(3, 1, 40, 30))
	yuv444 := image.NewYCbCr(image.Rect(0, 0, 33, 21), image.YCbCrSubsampleRatio444)
	for i := range yuv444.Y {
		yuv444.Y[i], yuv444.Cb[i], yuv444.Cr[i] = uint8(i), uint8(3*i), uint8(200-i)
	}
	for name, m := range map[string]image.Image{"rgba": gradient(50, 30), "odd origin": sub, "4:4:4": yuv444} {
		var ours, std bytes.Buffer
		require.NoError(t, imaging.EncodeJPEG(&ours, m, 77), name)
		require.NoError(t, jpeg.Encode(&std, m, &jpeg.Options{Quality: 77}), name)
		require.Equal(t, std.Bytes(), ours.Bytes(), name)
	}
}

// TestAppendJPEGAppends keeps what dst held and gives the same image as
// EncodeJPEG, whatever buffer it starts from.
func TestAppendJPEGAppends(t *testing.T) {
	t.Parallel()
	src := photo(40, 30, 9)
	var want bytes.Buffer
	require.NoError(t, imaging.EncodeJPEG(&want, src, 85))
	got, err := imaging.AppendJPEG([]byte("prefix"), src, 85)
	require.NoError(t, err)
	require.Equal(t, "prefix", string(got[:6]))
	require.Equal(t, want.Bytes(), got[6:])
	// Out-of-range qualities are clipped as image/jpeg does.
	lo, err := imaging.AppendJPEG(nil, src, -5)
	require.NoError(t, err)
	one, err := imaging.AppendJPEG(nil, src, 1)
	require.NoError(t, err)
	require.Equal(t, one, lo)
}

func BenchmarkEncodeJPEG1200x800(b *testing.B) {
	src := photo(1200, 800, 1)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = imaging.AppendJPEG(buf[:0], src, 85); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkImageJPEG1200x800 is the standard library's encoder on the
// same image, for comparison.
func BenchmarkImageJPEG1200x800(b *testing.B) {
	src := photo(1200, 800, 1)
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := jpeg.Encode(&buf, src, &jpeg.Options{Quality: 85}); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleEncodeJPEG() {
	// A 4:2:0 YCbCr image, as JPEG decoders and provider_local make them,
	// is encoded from its planes.
	m := image.NewYCbCr(image.Rect(0, 0, 320, 200), image.YCbCrSubsampleRatio420)
	for i := range m.Y {
		m.Y[i] = uint8(i % 251)
	}
	var buf bytes.Buffer
	if err := imaging.EncodeJPEG(&buf, m, 85); err != nil {
		panic(err)
	}
	cfg, err := jpeg.DecodeConfig(&buf)
	if err != nil {
		panic(err)
	}
	fmt.Println(cfg.Width, cfg.Height)
	// Output: 320 200
}
