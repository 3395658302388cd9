package imaging

import (
	"image"
	"sync"
)

// The pools recycle the large temporary buffers of conversions and
// resizes: a batch making renditions of hundreds of images would otherwise
// allocate megabytes per image only to drop them at once. Each pool holds
// buffers of one use, so that their sizes stay alike.
var (
	rgbaScratch   sync.Pool // of *[]uint8: full-size RGBA conversions
	resizeScratch sync.Pool // of *[]uint8: the rows pass of a resize
	encodeScratch sync.Pool // of *[]uint8: encoded renditions before copying
	ycbcrScratch  sync.Pool // of *[]uint8: scaled YCbCr images before encoding
)

// maxPooledScratch is the largest buffer handed back to a pool (8 MiB,
// a 1920x1080 RGBA image). Larger ones, made for the occasional big
// upload, are left to the garbage collector, so that memory goes back
// after a burst instead of staying parked in the pools.
const maxPooledScratch = 8 << 20

// getScratch returns a buffer of length n from pool, or a new one when the
// pool has none large enough.
func getScratch(pool *sync.Pool, n int) *[]uint8 {
	if p, ok := pool.Get().(*[]uint8); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	b := make([]uint8, n)
	return &b
}

// scratchRGBA is ToRGBA with the conversion in a recycled buffer, and a
// function that hands the buffer back: the image must not be used after.
func scratchRGBA(img image.Image) (*image.RGBA, func()) {
	if m := originRGBA(img); m != nil {
		return m, func() {}
	}
	b := img.Bounds()
	buf := getScratch(&rgbaScratch, 4*b.Dx()*b.Dy())
	return convertRGBA(img, *buf), func() { putScratch(&rgbaScratch, buf) }
}

// putScratch hands buf back to pool unless it is too large to keep.
func putScratch(pool *sync.Pool, buf *[]uint8) {
	if cap(*buf) <= maxPooledScratch {
		pool.Put(buf)
	}
}
