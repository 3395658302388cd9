package imaging

import (
	"image"
	"image/draw"
	"sync"
)

// scratch recycles the large temporary buffers of conversions and resizes:
// a batch making renditions of hundreds of images would otherwise allocate
// megabytes per image only to drop them at once.
var scratch sync.Pool // of *[]uint8

// getScratch returns a buffer of length n, recycled when one is at hand.
func getScratch(n int) *[]uint8 {
	if p, ok := scratch.Get().(*[]uint8); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	b := make([]uint8, n)
	return &b
}

func putScratch(p *[]uint8) { scratch.Put(p) }

// scratchRGBA returns img as *image.RGBA with origin (0, 0) and a function
// that releases it. An image already in that form is returned as is;
// otherwise the conversion lives in a recycled buffer that must not be used
// after release.
func scratchRGBA(img image.Image) (*image.RGBA, func()) {
	if m, ok := img.(*image.RGBA); ok && m.Rect.Min == (image.Point{}) {
		return m, func() {}
	}
	b := img.Bounds()
	buf := getScratch(4 * b.Dx() * b.Dy())
	m := &image.RGBA{Pix: *buf, Stride: 4 * b.Dx(), Rect: image.Rect(0, 0, b.Dx(), b.Dy())}
	draw.Draw(m, m.Rect, img, b.Min, draw.Src)
	return m, func() { putScratch(buf) }
}
