package imaging

import (
	"image"
	"image/draw"
)

// weightBits is the fixed-point precision of filter weights.
const weightBits = 14

// kernel holds, for every destination index, the first source index and
// the weights of the consecutive source samples that make it.
type kernel struct {
	start []int
	n     []int
	w     []int32 // flattened, n[i] weights per destination index
	off   []int   // offset of the weights of index i in w
}

// newKernel builds the weights that map src samples onto dst samples: an
// area average when shrinking, a linear interpolation when enlarging.
func newKernel(src, dst int) kernel {
	k := kernel{start: make([]int, dst), n: make([]int, dst), off: make([]int, dst)}
	scale := float64(src) / float64(dst)
	if scale > 1 {
		k.w = make([]int32, 0, dst*(int(scale)+2))
		for i := range dst {
			lo, hi := float64(i)*scale, float64(i+1)*scale
			j0 := int(lo)
			j1 := min(int(hi+0.999999), src)
			k.start[i], k.off[i] = j0, len(k.w)
			var sum int32
			for j := j0; j < j1; j++ {
				a := max(lo, float64(j))
				b := min(hi, float64(j+1))
				wt := int32((b - a) / scale * (1 << weightBits))
				k.w = append(k.w, wt)
				sum += wt
			}
			// Give the rounding remainder to the largest weight so that
			// each row sums to exactly one.
			k.n[i] = j1 - j0
			if k.n[i] > 0 {
				k.w[k.off[i]+k.n[i]/2] += 1<<weightBits - sum
			}
		}
		return k
	}
	k.w = make([]int32, 0, dst*2)
	for i := range dst {
		c := (float64(i)+0.5)*scale - 0.5
		c = max(c, 0)
		j0 := int(c)
		f := c - float64(j0)
		k.start[i], k.off[i] = j0, len(k.w)
		if j0+1 >= src || f == 0 {
			k.n[i] = 1
			k.w = append(k.w, 1<<weightBits)
			continue
		}
		w1 := int32(f * (1 << weightBits))
		k.n[i] = 2
		k.w = append(k.w, 1<<weightBits-w1, w1)
	}
	return k
}

// ToRGBA returns img as *image.RGBA with bounds starting at (0, 0). An
// *image.RGBA with that origin is returned as is; other images are
// converted through image/draw, which has fast paths for the types the
// standard decoders produce.
func ToRGBA(img image.Image) *image.RGBA {
	if m := originRGBA(img); m != nil {
		return m
	}
	b := img.Bounds()
	return convertRGBA(img, make([]uint8, 4*b.Dx()*b.Dy()))
}

// originRGBA returns img when it is an *image.RGBA with origin (0, 0), nil
// otherwise.
func originRGBA(img image.Image) *image.RGBA {
	if m, ok := img.(*image.RGBA); ok && m.Rect.Min == (image.Point{}) {
		return m
	}
	return nil
}

// convertRGBA draws img into pix (4 bytes a pixel of img's size) as an
// *image.RGBA with origin (0, 0).
func convertRGBA(img image.Image, pix []uint8) *image.RGBA {
	b := img.Bounds()
	m := &image.RGBA{Pix: pix, Stride: 4 * b.Dx(), Rect: image.Rect(0, 0, b.Dx(), b.Dy())}
	draw.Draw(m, m.Rect, img, b.Min, draw.Src)
	return m
}

// Resize scales img to exactly w x h pixels, ignoring its aspect ratio.
// It returns nil when w or h is not positive or img is empty.
func Resize(img image.Image, w, h int) *image.RGBA {
	b := img.Bounds()
	return resizeRect(ToRGBA(img), image.Rect(0, 0, b.Dx(), b.Dy()), w, h)
}

// Cover scales img so that it covers w x h and crops the centre: the
// result is exactly w x h with img's aspect ratio kept. It returns nil when
// w or h is not positive or img is empty.
func Cover(img image.Image, w, h int) *image.RGBA {
	b := img.Bounds()
	return resizeRect(ToRGBA(img), CoverRect(b.Dx(), b.Dy(), w, h), w, h)
}

// CoverRect returns the centred crop of a sw x sh image that has the
// aspect ratio of w x h.
func CoverRect(sw, sh, w, h int) image.Rectangle {
	if sw <= 0 || sh <= 0 || w <= 0 || h <= 0 {
		return image.Rectangle{}
	}
	cw, ch := sw, sh
	if sw*h > sh*w { // source is wider: crop the sides
		cw = max(1, (sh*w+h/2)/h)
	} else {
		ch = max(1, (sw*h+w/2)/w)
	}
	x0, y0 := (sw-cw)/2, (sh-ch)/2
	return image.Rect(x0, y0, x0+cw, y0+ch)
}

// Fit scales img down so that its longer side is at most maxSide, keeping
// the aspect ratio. An image that already fits is returned unscaled (as
// *image.RGBA). It returns nil when maxSide is not positive.
func Fit(img image.Image, maxSide int) *image.RGBA {
	if maxSide <= 0 {
		return nil
	}
	b := img.Bounds()
	w, h := FitSize(b.Dx(), b.Dy(), maxSide)
	if w == b.Dx() && h == b.Dy() {
		return ToRGBA(img)
	}
	return Resize(img, w, h)
}

// FitSize returns the size of a w x h image scaled down to fit a
// maxSide x maxSide box, never enlarged and never below 1 x 1.
func FitSize(w, h, maxSide int) (int, int) {
	if w <= maxSide && h <= maxSide {
		return w, h
	}
	if w >= h {
		return maxSide, max(1, (h*maxSide+w/2)/w)
	}
	return max(1, (w*maxSide+h/2)/h), maxSide
}

// resizeRect resamples the part r of src to a new w x h image in two
// separable passes: rows into a temporary of w x r.Dy(), then columns.
func resizeRect(src *image.RGBA, r image.Rectangle, w, h int) *image.RGBA {
	r = r.Intersect(src.Rect)
	if w <= 0 || h <= 0 || r.Empty() {
		return nil
	}
	sw, sh := r.Dx(), r.Dy()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	if sw == w && sh == h {
		for y := range h {
			i := src.PixOffset(r.Min.X, r.Min.Y+y)
			copy(dst.Pix[y*dst.Stride:y*dst.Stride+w*4], src.Pix[i:i+w*4])
		}
		return dst
	}
	// Horizontal pass.
	kx := newKernel(sw, w)
	tmpBuf := getScratch(&resizeScratch, w*4*sh)
	defer putScratch(&resizeScratch, tmpBuf)
	tmp := *tmpBuf
	for y := range sh {
		row := src.Pix[src.PixOffset(r.Min.X, r.Min.Y+y):]
		out := tmp[y*w*4 : (y+1)*w*4]
		for x := range w {
			var c0, c1, c2, c3 int32
			p := row[kx.start[x]*4:]
			ws := kx.w[kx.off[x] : kx.off[x]+kx.n[x]]
			for j, wt := range ws {
				q := p[j*4 : j*4+4 : j*4+4]
				c0 += int32(q[0]) * wt
				c1 += int32(q[1]) * wt
				c2 += int32(q[2]) * wt
				c3 += int32(q[3]) * wt
			}
			o := out[x*4 : x*4+4 : x*4+4]
			o[3] = clamp8(c3)
			o[0] = min(clamp8(c0), o[3])
			o[1] = min(clamp8(c1), o[3])
			o[2] = min(clamp8(c2), o[3])
		}
	}
	// Vertical pass, accumulating whole rows for cache-friendly access.
	ky := newKernel(sh, h)
	acc := make([]int32, w*4)
	for y := range h {
		clear(acc)
		ws := ky.w[ky.off[y] : ky.off[y]+ky.n[y]]
		for j, wt := range ws {
			in := tmp[(ky.start[y]+j)*w*4 : (ky.start[y]+j+1)*w*4]
			for i, v := range in {
				acc[i] += int32(v) * wt
			}
		}
		out := dst.Pix[y*dst.Stride : y*dst.Stride+w*4]
		for i := 0; i < len(out); i += 4 {
			a := clamp8(acc[i+3])
			out[i+3] = a
			out[i] = min(clamp8(acc[i]), a)
			out[i+1] = min(clamp8(acc[i+1]), a)
			out[i+2] = min(clamp8(acc[i+2]), a)
		}
	}
	return dst
}

// clamp8 rounds a fixed-point sample to a byte.
func clamp8(v int32) uint8 {
	v = (v + 1<<(weightBits-1)) >> weightBits
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return uint8(v)
}
