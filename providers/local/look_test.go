package local_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"image"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers"
)

var update = flag.Bool("update", false, "rewrite testdata/looks.json from the current images")

// TestScenesKeepTheirLook compares each category's image with the
// signature recorded in testdata/looks.json (the mean colour of a 4x4
// grid of cells, for two seeds): speed work must not change what the
// scenes look like. Refresh the file with -update only for a change of
// look that is meant.
func TestScenesKeepTheirLook(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil)
	got := map[string][]float64{}
	for _, cat := range providers.CategorySlugs() {
		for _, seed := range []uint64{3, 8} {
			img, err := p.Image(context.Background(), providers.ImageRequest{Width: 300, Height: 200, Category: cat, Seed: seed, Caption: "Caption"})
			require.NoError(t, err)
			got[cat+"/"+string(rune('0'+seed))] = signature(t, img.Data)
		}
	}
	file := filepath.Join("testdata", "looks.json")
	if *update {
		data, err := json.MarshalIndent(got, "", "  ")
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(file, append(data, '\n'), 0o644))
	}
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	var want map[string][]float64
	require.NoError(t, json.Unmarshal(data, &want))
	require.Len(t, got, len(want))
	for key, sig := range want {
		require.Len(t, got[key], len(sig), key)
		for i := range sig {
			require.InDelta(t, sig[i], got[key][i], 1.5, "%s: cell %d, channel %d", key, i/3, i%3)
		}
	}
}

// TestImageIsFaithfulToTheDrawing decodes each scene's JPEG and compares
// it with the drawn pixels: encoding keeps the look (above 36 dB, where
// JPEG artefacts are hard to see), as close as image/jpeg gets.
func TestImageIsFaithfulToTheDrawing(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil)
	for _, cat := range providers.CategorySlugs() {
		req := providers.ImageRequest{Width: 600, Height: 400, Category: cat, Seed: 21}
		drawn, _, err := p.Render(req)
		require.NoError(t, err)
		img, err := p.Image(context.Background(), req)
		require.NoError(t, err)
		ours, err := jpeg.Decode(bytes.NewReader(img.Data))
		require.NoError(t, err)
		var std bytes.Buffer
		require.NoError(t, jpeg.Encode(&std, drawn, &jpeg.Options{Quality: 85}))
		ref, err := jpeg.Decode(&std)
		require.NoError(t, err)
		pOurs, pStd := lumaPSNR(drawn, ours.(*image.YCbCr)), lumaPSNR(drawn, ref.(*image.YCbCr))
		require.Greater(t, pOurs, 36.0, cat)
		require.Greater(t, pOurs, pStd-0.3, "%s: %.2f dB against image/jpeg's %.2f dB", cat, pOurs, pStd)
		img.Release()
	}
}

func lumaPSNR(a, b *image.YCbCr) float64 {
	var se float64
	for y := range a.Rect.Dy() {
		for x := range a.Rect.Dx() {
			d := float64(a.Y[y*a.YStride+x]) - float64(b.Y[y*b.YStride+x])
			se += d * d
		}
	}
	return 10 * math.Log10(255*255*float64(a.Rect.Dx()*a.Rect.Dy())/max(se, 1e-9))
}

// TestImageDoesNotDependOnEarlierImages draws each scene after others
// through the provider's pool of canvases and compares it with a drawing
// on a new canvas: the same pixels, whatever came before.
func TestImageDoesNotDependOnEarlierImages(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil)
	ctx := context.Background()
	cats := providers.CategorySlugs()
	for i, cat := range cats {
		// Leave another scene of the same size in the pool first.
		prev, err := p.Image(ctx, providers.ImageRequest{Width: 360, Height: 240, Category: cats[(i+5)%len(cats)], Seed: 2})
		require.NoError(t, err)
		prev.Release()
		for seed := range uint64(2) {
			req := providers.ImageRequest{Width: 360, Height: 240, Category: cat, Seed: seed}
			fresh, _, err := p.Render(req)
			require.NoError(t, err)
			img, err := p.Image(ctx, req)
			require.NoError(t, err)
			pooled := img.Pixels.(*image.YCbCr)
			require.Equal(t, fresh.Y, pooled.Y, "%s seed %d", cat, seed)
			require.Equal(t, fresh.Cb, pooled.Cb, "%s seed %d", cat, seed)
			require.Equal(t, fresh.Cr, pooled.Cr, "%s seed %d", cat, seed)
			img.Release()
		}
	}
}
