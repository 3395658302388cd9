package imaging

import (
	"image"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBoxPlaneIsTheAreaAverage checks the whole-factor shortcut against
// the general two-pass filter: the same means, up to the rounding the
// general filter does between its passes.
func TestBoxPlaneIsTheAreaAverage(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ sw, sh, w, h int }{{1200, 800, 300, 200}, {600, 400, 150, 100}, {90, 60, 30, 20}, {70, 70, 7, 35}, {36, 8, 9, 2}, {4, 4, 1, 1}} {
		src := make([]uint8, c.sw*c.sh)
		for i := range src {
			src[i] = uint8(r.IntN(256))
		}
		rect := image.Rect(0, 0, c.sw, c.sh)
		got := make([]uint8, c.w*c.h)
		boxPlane(got, c.w, c.w, c.h, src, c.sw, rect, c.sw/c.w, c.sh/c.h)
		// The general filter, without the shortcut.
		kx, ky := newKernel(c.sw, c.w), newKernel(c.sh, c.h)
		tmp := make([]uint8, c.w*c.sh)
		for y := range c.sh {
			for x := range c.w {
				var acc int32
				for j, wt := range kx.w[kx.off[x] : kx.off[x]+kx.n[x]] {
					acc += int32(src[y*c.sw+kx.start[x]+j]) * wt
				}
				tmp[y*c.w+x] = clamp8(acc)
			}
		}
		for y := range c.h {
			for x := range c.w {
				var acc int32
				for j, wt := range ky.w[ky.off[y] : ky.off[y]+ky.n[y]] {
					acc += int32(tmp[(ky.start[y]+j)*c.w+x]) * wt
				}
				require.InDelta(t, int(clamp8(acc)), int(got[y*c.w+x]), 1, "%v at %d,%d", c, x, y)
			}
		}
		// And exactly the rounded mean.
		fx, fy := c.sw/c.w, c.sh/c.h
		var sum int
		for y := range fy {
			for x := range fx {
				sum += int(src[y*c.sw+x])
			}
		}
		n := fx * fy
		require.Equal(t, uint8((2*sum+n)/(2*n)), got[0], "%v", c)
	}
}
