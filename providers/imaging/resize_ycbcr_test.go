package imaging_test

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers/imaging"
)

// rgbPSNR compares two images of the same size in RGB.
func rgbPSNR(t *testing.T, a, b image.Image) float64 {
	t.Helper()
	require.Equal(t, a.Bounds().Size(), b.Bounds().Size())
	ra, rb := imaging.ToRGBA(a), imaging.ToRGBA(b)
	var se float64
	for i := range ra.Pix {
		if i%4 == 3 {
			continue
		}
		d := float64(ra.Pix[i]) - float64(rb.Pix[i])
		se += d * d
	}
	if se == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(255*255/(se/float64(len(ra.Pix)*3/4)))
}

func decodeJPEG(t *testing.T, data []byte) image.Image {
	t.Helper()
	m, err := jpeg.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	return m
}

// withRatio copies a 4:2:0 image into one of another subsample ratio.
func withRatio(src *image.YCbCr, ratio image.YCbCrSubsampleRatio) *image.YCbCr {
	m := image.NewYCbCr(src.Rect, ratio)
	for y := src.Rect.Min.Y; y < src.Rect.Max.Y; y++ {
		for x := src.Rect.Min.X; x < src.Rect.Max.X; x++ {
			m.Y[m.YOffset(x, y)] = src.Y[src.YOffset(x, y)]
			m.Cb[m.COffset(x, y)] = src.Cb[src.COffset(x, y)]
			m.Cr[m.COffset(x, y)] = src.Cr[src.COffset(x, y)]
		}
	}
	return m
}

// TestRenditionsOfYCbCrLikeRGBA checks that renditions scaled plane by
// plane from YCbCr pixels look like those scaled in RGB, for the subsample
// ratios decoders produce and for sizes whose crops fall on odd pixels.
func TestRenditionsOfYCbCrLikeRGBA(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const r420, r444, r422 = image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422
	for _, c := range []struct {
		sz    image.Point
		ratio image.YCbCrSubsampleRatio
	}{
		{image.Pt(1200, 800), r420}, // a 4x4 mean to the medium size
		{image.Pt(600, 400), r444},  // a 2x2 mean
		{image.Pt(301, 199), r420}, {image.Pt(301, 199), r444}, {image.Pt(301, 199), r422},
		{image.Pt(640, 1000), r422},
		{image.Pt(160, 151), r420},
	} {
		sz, ratio := c.sz, c.ratio
		src := withRatio(photo(sz.X, sz.Y, 7), ratio)
		var data bytes.Buffer
		require.NoError(t, jpeg.Encode(&data, src, &jpeg.Options{Quality: 90}))
		planes, err := imaging.RenditionsOf(ctx, data.Bytes(), src, nil)
		require.NoError(t, err)
		rgb, err := imaging.RenditionsOf(ctx, data.Bytes(), imaging.ToRGBA(src), nil)
		require.NoError(t, err)
		for _, pair := range [][2]imaging.Rendition{{planes.Medium, rgb.Medium}, {planes.Thumbnail, rgb.Thumbnail}} {
			got, want := pair[0], pair[1]
			require.Equal(t, [2]int{want.Width, want.Height}, [2]int{got.Width, got.Height})
			require.Equal(t, "image/jpeg", got.MIMEType)
			require.Equal(t, "jpg", got.Ext)
			info, err := imaging.Identify(got.Data)
			require.NoError(t, err)
			require.Equal(t, [2]int{got.Width, got.Height}, [2]int{info.Width, info.Height})
			p := rgbPSNR(t, decodeJPEG(t, got.Data), decodeJPEG(t, want.Data))
			require.Greater(t, p, 38.0, "%v %v %dx%d: %.1f dB", sz, ratio, got.Width, got.Height, p)
		}
	}
}

// TestRenditionsOfYCbCrKeepsColour scales a flat colour to the same
// colour.
func TestRenditionsOfYCbCrKeepsColour(t *testing.T) {
	t.Parallel()
	src := image.NewYCbCr(image.Rect(0, 0, 901, 601), image.YCbCrSubsampleRatio420)
	fill := func(b []uint8, v uint8) {
		for i := range b {
			b[i] = v
		}
	}
	fill(src.Y, 140)
	fill(src.Cb, 90)
	fill(src.Cr, 170)
	var data bytes.Buffer
	require.NoError(t, imaging.EncodeJPEG(&data, src, 90))
	s, err := imaging.RenditionsOf(context.Background(), data.Bytes(), src, nil)
	require.NoError(t, err)
	for _, r := range []imaging.Rendition{s.Medium, s.Thumbnail} {
		m := decodeJPEG(t, r.Data).(*image.YCbCr)
		for _, c := range [][3]int{{0, 0, 0}, {r.Width - 1, r.Height - 1, 0}, {r.Width / 2, r.Height / 2, 0}} {
			yy, cb, cr := m.Y[m.YOffset(c[0], c[1])], m.Cb[m.COffset(c[0], c[1])], m.Cr[m.COffset(c[0], c[1])]
			require.InDelta(t, 140, int(yy), 1)
			require.InDelta(t, 90, int(cb), 1)
			require.InDelta(t, 170, int(cr), 1)
		}
	}
}

// BenchmarkRenditionsOf1200x800 makes the renditions of a JPEG whose
// pixels the caller has, as the generator does for provider_local.
func BenchmarkRenditionsOf1200x800(b *testing.B) {
	src := photo(1200, 800, 1)
	var data bytes.Buffer
	if err := jpeg.Encode(&data, src, nil); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := imaging.RenditionsOf(ctx, data.Bytes(), src, nil); err != nil {
			b.Fatal(err)
		}
	}
}
