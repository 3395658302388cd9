package local_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/local"
)

func newProvider(t testing.TB, opts *local.Options) *local.Provider {
	t.Helper()
	p, err := local.New(opts)
	require.NoError(t, err)
	return p
}

func TestImageHasExactSizeForEveryCategory(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil)
	sizes := [][2]int{{100, 100}, {1200, 800}, {800, 1200}, {333, 777}, {4000, 120}, {120, 4000}, {16, 16}, {96, 96}}
	cats := append(providers.CategorySlugs(), "", "unknown-category")
	for _, cat := range cats {
		t.Run("category="+cat, func(t *testing.T) {
			t.Parallel()
			for i, s := range sizes {
				img, err := p.Image(context.Background(), providers.ImageRequest{Width: s[0], Height: s[1], Category: cat, Seed: uint64(i + 1), Caption: "Caption"})
				require.NoError(t, err)
				require.Equal(t, "image/jpeg", img.MIMEType)
				require.Equal(t, "jpg", img.Ext)
				require.Equal(t, [2]int{s[0], s[1]}, [2]int{img.Width, img.Height})
				cfg, err := jpeg.DecodeConfig(bytes.NewReader(img.Data))
				require.NoError(t, err)
				require.Equal(t, [2]int{s[0], s[1]}, [2]int{cfg.Width, cfg.Height}, "decoded size")
				require.Equal(t, "Caption", img.Title, "the caption is the title")
				require.Empty(t, img.Source, "generated images have no source URL")
			}
		})
	}
}

func TestImageIsDeterministic(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil)
	q := newProvider(t, nil) // another instance must agree too
	ctx := context.Background()
	req := providers.ImageRequest{Width: 320, Height: 200, Category: "nature", Seed: 42, Caption: "Same"}
	a, err := p.Image(ctx, req)
	require.NoError(t, err)
	b, err := q.Image(ctx, req)
	require.NoError(t, err)
	require.Equal(t, a.Data, b.Data, "same request, same bytes")

	for name, other := range map[string]providers.ImageRequest{
		"seed":     {Width: 320, Height: 200, Category: "nature", Seed: 43, Caption: "Same"},
		"category": {Width: 320, Height: 200, Category: "food", Seed: 42, Caption: "Same"},
		"caption":  {Width: 320, Height: 200, Category: "nature", Seed: 42, Caption: "Other"},
	} {
		c, err := p.Image(ctx, other)
		require.NoError(t, err)
		require.NotEqual(t, a.Data, c.Data, "a different %s must change the image", name)
	}
}

func TestImageConcurrentUseIsSafe(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil)
	ctx := context.Background()
	reqs := []providers.ImageRequest{
		{Width: 200, Height: 150, Category: "architecture", Seed: 1},
		{Width: 150, Height: 200, Category: "people", Seed: 2},
		{Width: 64, Height: 64, Category: "portrait", Seed: 3},
	}
	want := make([][]byte, len(reqs))
	for i, r := range reqs {
		img, err := p.Image(ctx, r)
		require.NoError(t, err)
		want[i] = img.Data
	}
	var wg sync.WaitGroup
	errs := make(chan error, 24)
	for g := range 24 {
		wg.Go(func() {
			i := g % len(reqs)
			img, err := p.Image(ctx, reqs[i])
			if err == nil && !bytes.Equal(img.Data, want[i]) {
				err = fmt.Errorf("goroutine %d: image %d differs under concurrency", g, i)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
}

// signature summarises an image: mean colour of a 4x4 grid of cells.
func signature(t *testing.T, data []byte) []float64 {
	t.Helper()
	m, err := jpeg.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	b := m.Bounds()
	sig := make([]float64, 0, 48)
	for cy := range 4 {
		for cx := range 4 {
			var r, g, bl, n float64
			for y := b.Dy() * cy / 4; y < b.Dy()*(cy+1)/4; y++ {
				for x := b.Dx() * cx / 4; x < b.Dx()*(cx+1)/4; x++ {
					cr, cg, cb, _ := m.At(x, y).RGBA()
					r, g, bl, n = r+float64(cr>>8), g+float64(cg>>8), bl+float64(cb>>8), n+1
				}
			}
			sig = append(sig, r/n, g/n, bl/n)
		}
	}
	return sig
}

func TestCategoriesLookDifferent(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil)
	cats := providers.CategorySlugs()
	sigs := map[string][]float64{}
	for _, c := range cats {
		img, err := p.Image(context.Background(), providers.ImageRequest{Width: 240, Height: 160, Category: c, Seed: 7})
		require.NoError(t, err)
		sigs[c] = signature(t, img.Data)
	}
	// Each pair of categories differs clearly in layout or colour: the
	// root-mean-square difference of the cell means exceeds 12 levels.
	for i, a := range cats {
		for _, b := range cats[i+1:] {
			var sum float64
			for k := range sigs[a] {
				d := sigs[a][k] - sigs[b][k]
				sum += d * d
			}
			rms := math.Sqrt(sum / float64(len(sigs[a])))
			require.Greater(t, rms, 12.0, "%s and %s look alike", a, b)
		}
	}
}

func TestCaptionOnlyChangesTheBottom(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil)
	req := providers.ImageRequest{Width: 600, Height: 400, Category: "travel", Seed: 5}
	plain, _, err := p.Render(req)
	require.NoError(t, err)
	req.Caption = "Sommer in Überlingen – ein Tag am See"
	captioned, cat, err := p.Render(req)
	require.NoError(t, err)
	require.Equal(t, "travel", cat)
	top := func(m *image.YCbCr) []uint8 { return m.Y[:m.YStride*300] }
	bottom := func(m *image.YCbCr) []uint8 { return m.Y[m.YStride*380:] }
	require.Equal(t, top(plain), top(captioned), "the caption band stays at the bottom")
	require.NotEqual(t, bottom(plain), bottom(captioned), "the caption is drawn")

	noCap := newProvider(t, &local.Options{NoCaption: true})
	ignored, _, err := noCap.Render(req)
	require.NoError(t, err)
	require.Equal(t, plain.Y, ignored.Y, "NoCaption ignores the caption")
}

func TestPortraitSuitsAvatars(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil)
	for _, size := range []int{48, 96, 256, 512} {
		m, cat, err := p.Render(providers.ImageRequest{Width: size, Height: size, Category: "portrait", Seed: 11})
		require.NoError(t, err)
		require.Equal(t, "portrait", cat)
		// A figure is centred: the middle column differs from the
		// background at the left edge somewhere between head and chest.
		mid := 0
		for y := size / 4; y < size*3/4; y++ {
			d := int(m.Y[y*m.YStride+size/2]) - int(m.Y[y*m.YStride+1])
			if d > 25 || d < -25 {
				mid++
			}
		}
		require.Greater(t, mid, size/8, "size %d: no figure in the centre", size)
	}
}

func TestImageErrors(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		req  providers.ImageRequest
		want error
	}{
		{"too small", context.Background(), providers.ImageRequest{Width: 8, Height: 100}, providers.ErrInvalidSize},
		{"too large", context.Background(), providers.ImageRequest{Width: 100, Height: 4001}, providers.ErrInvalidSize},
		{"cancelled", cancelled, providers.ImageRequest{Width: 100, Height: 100}, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Image(tt.ctx, tt.req)
			require.ErrorIs(t, err, tt.want)
		})
	}
}

func TestNewValidatesOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		opts  *local.Options
		field string
	}{
		{"quality too high", &local.Options{Quality: 101}, "Quality"},
		{"negative quality", &local.Options{Quality: -1}, "Quality"},
		{"unknown format", &local.Options{Format: "gif"}, "Format"},
	}
	for _, tt := range tests {
		_, err := local.New(tt.opts)
		require.ErrorContains(t, err, tt.field, tt.name)
	}
}

func TestPNGFormat(t *testing.T) {
	t.Parallel()
	p := newProvider(t, &local.Options{Format: local.FormatPNG})
	img, err := p.Image(context.Background(), providers.ImageRequest{Width: 120, Height: 90, Category: "abstract", Seed: 1})
	require.NoError(t, err)
	require.Equal(t, "image/png", img.MIMEType)
	require.Equal(t, "png", img.Ext)
	cfg, err := png.DecodeConfig(bytes.NewReader(img.Data))
	require.NoError(t, err)
	require.Equal(t, [2]int{120, 90}, [2]int{cfg.Width, cfg.Height})
}

func TestSceneFor(t *testing.T) {
	t.Parallel()
	for _, c := range providers.CategorySlugs() {
		require.Equal(t, c, local.SceneFor(c, 99))
	}
	seen := map[string]bool{}
	for seed := range uint64(400) {
		c := local.SceneFor("", seed)
		require.Contains(t, providers.Categories(), c)
		require.NotEqual(t, "portrait", c, "portraits are only drawn when asked for")
		require.Equal(t, c, local.SceneFor("no-such-category", seed), "unknown categories act like none")
		seen[c] = true
	}
	require.Len(t, seen, len(providers.Categories())-1, "every other scene is reachable from a seed")
}

func ExampleProvider_Image() {
	p, err := local.New(nil)
	if err != nil {
		panic(err)
	}
	img, err := p.Image(context.Background(), providers.ImageRequest{
		Width: 1200, Height: 800, Category: "nature", Seed: 1, Caption: "Hello",
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(img.MIMEType, img.Width, img.Height, img.Title)
	// Output: image/jpeg 1200 800 Hello
}

// TestPixelsStayTheCallersUntilReleased guards the canvas pool: the pixels
// an image comes with must not be drawn over by the next image until the
// caller releases them.
func TestPixelsStayTheCallersUntilReleased(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil)
	ctx := context.Background()
	req := providers.ImageRequest{Width: 200, Height: 120, Category: "nature", Seed: 1}
	first, err := p.Image(ctx, req)
	require.NoError(t, err)
	require.NotNil(t, first.Pixels)
	require.NotNil(t, first.Release)
	before := append([]uint8(nil), first.Pixels.(*image.YCbCr).Y...)

	for seed := uint64(2); seed < 6; seed++ {
		other, err := p.Image(ctx, providers.ImageRequest{Width: 200, Height: 120, Category: "food", Seed: seed})
		require.NoError(t, err)
		other.Release()
	}
	require.Equal(t, before, first.Pixels.(*image.YCbCr).Y, "pixels changed before release")
	first.Release()
	first.Release() // a second call is harmless
}
