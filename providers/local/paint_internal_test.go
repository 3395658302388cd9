package local

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers"
)

// TestScenesPaintEveryPixel draws each scene over two different
// backgrounds: a pixel that differs was never painted, and would show
// whatever the canvas held before.
func TestScenesPaintEveryPixel(t *testing.T) {
	t.Parallel()
	sizes := [][2]int{{600, 400}, {300, 200}, {200, 300}, {96, 96}}
	var unpainted []string
	fnt := parseFont()
	for _, cat := range providers.CategorySlugs() {
		for seed := range uint64(6) {
			size := sizes[seed%uint64(len(sizes))]
			var planes [2][]uint8
			for i, bg := range []rgb{{0, 0, 0}, {255, 40, 200}} {
				c := new(canvas)
				c.reset(size[0], size[1])
				c.font = fnt
				c.fill(bg)
				scene(cat)(c, &rng{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))})
				planes[i] = append(append(append([]uint8(nil), c.img.Y...), c.img.Cb...), c.img.Cr...)
			}
			diff := 0
			for i := range planes[0] {
				if planes[0][i] != planes[1][i] {
					diff++
				}
			}
			if diff > 0 {
				unpainted = append(unpainted, fmt.Sprintf("%s seed %d at %dx%d: %d samples", cat, seed, size[0], size[1], diff))
			}
		}
	}
	require.Empty(t, unpainted, "samples left unpainted")
}

// TestScaleRunIsScaleSamples checks the word-at-a-time vignette against
// the sample-by-sample formula, for every factor and sample value.
func TestScaleRunIsScaleSamples(t *testing.T) {
	t.Parallel()
	row := make([]uint8, 256+5)
	for i := range row {
		row[i] = uint8(i * 7)
	}
	for _, chroma := range []bool{false, true} {
		for g := int32(-3); g <= 260; g++ {
			got := append([]uint8(nil), row...)
			scaleRun(got, g, chroma)
			want := append([]uint8(nil), row...)
			fx := make([]int32, len(want))
			for i := range fx {
				fx[i] = g
			}
			scaleSamples(want, fx, 256, chroma)
			require.Equal(t, want, got, "g %d chroma %v", g, chroma)
		}
	}
}
