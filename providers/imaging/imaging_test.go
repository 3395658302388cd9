package imaging_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers/imaging"
)

func gradient(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			i := m.PixOffset(x, y)
			m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = uint8(x*255/max(w-1, 1)), uint8(y*255/max(h-1, 1)), 90, 255
		}
	}
	return m
}

func encodeJPEG(t testing.TB, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, jpeg.Encode(&buf, gradient(w, h), nil))
	return buf.Bytes()
}

func encodePNG(t testing.TB, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, gradient(w, h)))
	return buf.Bytes()
}

func encodeGIF(t testing.TB, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	require.NoError(t, gif.Encode(&buf, gradient(w, h), nil))
	return buf.Bytes()
}

// webp builds a minimal WebP header of the given chunk kind.
func webp(kind string, w, h int) []byte {
	b := make([]byte, 40)
	copy(b, "RIFF")
	binary.LittleEndian.PutUint32(b[4:], 32)
	copy(b[8:], "WEBP")
	copy(b[12:], kind)
	binary.LittleEndian.PutUint32(b[16:], 20)
	switch kind {
	case "VP8X":
		b[24], b[25], b[26] = byte(w-1), byte((w-1)>>8), byte((w-1)>>16)
		b[27], b[28], b[29] = byte(h-1), byte((h-1)>>8), byte((h-1)>>16)
	case "VP8L":
		b[20] = 0x2f
		binary.LittleEndian.PutUint32(b[21:], uint32(w-1)|uint32(h-1)<<14)
	case "VP8 ":
		b[23], b[24], b[25] = 0x9d, 0x01, 0x2a
		binary.LittleEndian.PutUint16(b[26:], uint16(w))
		binary.LittleEndian.PutUint16(b[28:], uint16(h))
	}
	return b
}

func TestIdentify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		data   []byte
		format string
		mime   string
		w, h   int
	}{
		{"jpeg", encodeJPEG(t, 64, 48), imaging.JPEG, "image/jpeg", 64, 48},
		{"png", encodePNG(t, 30, 70), imaging.PNG, "image/png", 30, 70},
		{"gif", encodeGIF(t, 17, 9), imaging.GIF, "image/gif", 17, 9},
		{"webp extended", webp("VP8X", 4000, 3000), imaging.WebP, "image/webp", 4000, 3000},
		{"webp lossless", webp("VP8L", 1200, 800), imaging.WebP, "image/webp", 1200, 800},
		{"webp lossy", webp("VP8 ", 640, 480), imaging.WebP, "image/webp", 640, 480},
		{"text", []byte("<html><body>not an image</body></html>"), "", "", 0, 0},
		{"empty", nil, "", "", 0, 0},
		{"truncated png", encodePNG(t, 30, 70)[:12], "", "", 0, 0},
		{"webp without chunk", []byte("RIFF\x00\x00\x00\x00WEBPJUNK"), "", "", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			info, err := imaging.Identify(tt.data)
			if tt.format == "" {
				require.ErrorIs(t, err, imaging.ErrFormat)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.format, info.Format)
			require.Equal(t, tt.mime, info.MIMEType)
			require.Equal(t, tt.w, info.Width)
			require.Equal(t, tt.h, info.Height)
		})
	}
}

func TestDimensionsAndRatio(t *testing.T) {
	t.Parallel()
	tests := []struct {
		w, h        int
		dims, ratio string
	}{
		{1200, 800, "1200x800", "3:2"},
		{1920, 1080, "1920x1080", "16:9"},
		{800, 800, "800x800", "1:1"},
		{600, 900, "600x900", "2:3"},
		{1366, 768, "1366x768", "683:384"},
		{0, 800, "", ""},
		{100, -1, "", ""},
	}
	for _, tt := range tests {
		require.Equal(t, tt.dims, imaging.Dimensions(tt.w, tt.h))
		require.Equal(t, tt.ratio, imaging.Ratio(tt.w, tt.h))
	}
}

func TestFitSize(t *testing.T) {
	t.Parallel()
	tests := []struct{ w, h, max, ww, wh int }{
		{1200, 800, 300, 300, 200},
		{800, 1200, 300, 200, 300},
		{200, 100, 300, 200, 100},
		{4000, 10, 300, 300, 1},
	}
	for _, tt := range tests {
		w, h := imaging.FitSize(tt.w, tt.h, tt.max)
		require.Equal(t, []int{tt.ww, tt.wh}, []int{w, h}, "%dx%d in %d", tt.w, tt.h, tt.max)
	}
}

func uniform(w, h int, c color.RGBA) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(m.Pix); i += 4 {
		m.Pix[i], m.Pix[i+1], m.Pix[i+2], m.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	return m
}

func TestResizeKeepsUniformColour(t *testing.T) {
	t.Parallel()
	c := color.RGBA{200, 100, 50, 255}
	src := uniform(123, 77, c)
	for _, size := range [][2]int{{10, 10}, {61, 38}, {122, 77}, {300, 200}, {1, 1}} {
		dst := imaging.Resize(src, size[0], size[1])
		require.Equal(t, image.Rect(0, 0, size[0], size[1]), dst.Rect)
		for i := 0; i < len(dst.Pix); i += 4 {
			require.Equal(t, []uint8{c.R, c.G, c.B, c.A}, dst.Pix[i:i+4], "size %v at %d", size, i)
		}
	}
}

func TestResizeAveragesArea(t *testing.T) {
	t.Parallel()
	// A one-pixel checkerboard halves to mid grey everywhere.
	src := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for y := range 64 {
		for x := range 64 {
			v := uint8(0)
			if (x+y)%2 == 0 {
				v = 255
			}
			i := src.PixOffset(x, y)
			src.Pix[i], src.Pix[i+1], src.Pix[i+2], src.Pix[i+3] = v, v, v, 255
		}
	}
	dst := imaging.Resize(src, 32, 32)
	for i := 0; i < len(dst.Pix); i += 4 {
		require.InDelta(t, 127.5, float64(dst.Pix[i]), 1)
	}
}

func TestCoverCropsTheCentre(t *testing.T) {
	t.Parallel()
	// Three vertical bands: red, green, blue. A square cover of the wide
	// image keeps only the green middle.
	src := image.NewRGBA(image.Rect(0, 0, 300, 100))
	for y := range 100 {
		for x := range 300 {
			i := src.PixOffset(x, y)
			src.Pix[i+x/100] = 255
			src.Pix[i+3] = 255
		}
	}
	dst := imaging.Cover(src, 50, 50)
	require.Equal(t, image.Rect(0, 0, 50, 50), dst.Rect)
	for i := 0; i < len(dst.Pix); i += 4 {
		require.Equal(t, []uint8{0, 255, 0, 255}, dst.Pix[i:i+4])
	}
	require.Equal(t, image.Rect(100, 0, 200, 100), imaging.CoverRect(300, 100, 50, 50))
	require.Equal(t, image.Rect(0, 25, 100, 75), imaging.CoverRect(100, 100, 200, 100))
}

func TestRenditions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name         string
		data         []byte
		dims, ratio  string
		thumb, med   [2]int
		thumbOrig    bool
		medOrig      bool
		renditionExt string
	}{
		{"landscape jpeg", encodeJPEG(t, 1200, 800), "1200x800", "3:2", [2]int{150, 150}, [2]int{300, 200}, false, false, "jpg"},
		{"portrait png", encodePNG(t, 400, 1000), "400x1000", "2:5", [2]int{150, 150}, [2]int{120, 300}, false, false, "png"},
		{"gif becomes png", encodeGIF(t, 320, 320), "320x320", "1:1", [2]int{150, 150}, [2]int{300, 300}, false, false, "png"},
		{"small image", encodePNG(t, 120, 80), "120x80", "3:2", [2]int{80, 80}, [2]int{120, 80}, false, true, "png"},
		{"thumbnail-sized", encodeJPEG(t, 150, 150), "150x150", "1:1", [2]int{150, 150}, [2]int{150, 150}, true, true, "jpg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := imaging.Renditions(ctx, tt.data, nil)
			require.NoError(t, err)
			require.Equal(t, tt.dims, s.Dimensions)
			require.Equal(t, tt.ratio, s.Ratio)
			for _, c := range []struct {
				r    imaging.Rendition
				size [2]int
				orig bool
			}{{s.Thumbnail, tt.thumb, tt.thumbOrig}, {s.Medium, tt.med, tt.medOrig}} {
				require.Equal(t, c.orig, c.r.Original)
				require.Equal(t, c.size, [2]int{c.r.Width, c.r.Height})
				info, err := imaging.Identify(c.r.Data)
				require.NoError(t, err, "rendition must be a valid image")
				require.Equal(t, c.size, [2]int{info.Width, info.Height})
				require.Equal(t, info.MIMEType, c.r.MIMEType)
				if !c.orig {
					require.Equal(t, tt.renditionExt, c.r.Ext)
				}
			}
		})
	}
}

func TestRenditionsErrors(t *testing.T) {
	t.Parallel()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		data []byte
		opts *imaging.Options
		want error
	}{
		{"not an image", context.Background(), []byte("plain text"), nil, imaging.ErrFormat},
		{"webp cannot be decoded", context.Background(), webp("VP8X", 800, 600), nil, imaging.ErrUnsupported},
		{"too many pixels", context.Background(), encodePNG(t, 100, 100), &imaging.Options{MaxPixels: 9999}, imaging.ErrTooManyPixels},
		{"cancelled", cancelled, encodePNG(t, 100, 100), nil, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := imaging.Renditions(tt.ctx, tt.data, tt.opts)
			require.ErrorIs(t, err, tt.want)
			if tt.want == imaging.ErrUnsupported {
				require.Equal(t, "800x600", s.Dimensions, "dimensions are known even without decoding")
				require.Equal(t, "4:3", s.Ratio)
			}
		})
	}
}

func ExampleRatio() {
	fmt.Println(imaging.Dimensions(1200, 800), imaging.Ratio(1200, 800))
	fmt.Println(imaging.Dimensions(1920, 1080), imaging.Ratio(1920, 1080))
	// Output:
	// 1200x800 3:2
	// 1920x1080 16:9
}

func BenchmarkRenditions1200x800(b *testing.B) {
	data := encodeJPEG(b, 1200, 800)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := imaging.Renditions(ctx, data, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkResize1200x800To300x200(b *testing.B) {
	src := gradient(1200, 800)
	b.ReportAllocs()
	for b.Loop() {
		imaging.Resize(src, 300, 200)
	}
}
