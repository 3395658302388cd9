package imaging

import (
	"encoding/binary"
	"image"
)

// chromaDivisors returns how many pixels share a chroma sample
// horizontally and vertically under ratio, and false for a ratio this
// package does not know.
func chromaDivisors(ratio image.YCbCrSubsampleRatio) (dx, dy int, ok bool) {
	switch ratio {
	case image.YCbCrSubsampleRatio444:
		return 1, 1, true
	case image.YCbCrSubsampleRatio422:
		return 2, 1, true
	case image.YCbCrSubsampleRatio420:
		return 2, 2, true
	case image.YCbCrSubsampleRatio440:
		return 1, 2, true
	case image.YCbCrSubsampleRatio411:
		return 4, 1, true
	case image.YCbCrSubsampleRatio410:
		return 4, 2, true
	}
	return 0, 0, false
}

// planeScalable tells whether resizeYCbCr can scale m: its origin is
// (0, 0) and its subsample ratio is known.
func planeScalable(m *image.YCbCr) bool {
	_, _, ok := chromaDivisors(m.SubsampleRatio)
	return ok && m.Rect.Min == (image.Point{}) && !m.Rect.Empty()
}

// resizeYCbCr scales the part r of src (which must be planeScalable) to a
// w x h image with 4:2:0 subsampling, the layout EncodeJPEG writes
// fastest, in buf (grown when short). Each plane is scaled on its own,
// with no conversion to RGB: an area average is linear, so averaging Y, Cb
// and Cr gives the colours that averaging R, G and B would.
func resizeYCbCr(src *image.YCbCr, r image.Rectangle, w, h int, buf *[]uint8) *image.YCbCr {
	r = r.Intersect(src.Rect)
	if w <= 0 || h <= 0 || r.Empty() {
		return nil
	}
	cw, ch := (w+1)/2, (h+1)/2
	n := w*h + 2*cw*ch
	if cap(*buf) < n {
		*buf = make([]uint8, n)
	}
	pix := (*buf)[:n]
	dst := &image.YCbCr{
		Y:              pix[: w*h : w*h],
		Cb:             pix[w*h : w*h+cw*ch : w*h+cw*ch],
		Cr:             pix[w*h+cw*ch:],
		YStride:        w,
		CStride:        cw,
		SubsampleRatio: image.YCbCrSubsampleRatio420,
		Rect:           image.Rect(0, 0, w, h),
	}
	luma := newPlaneScale(r, w, h)
	luma.apply(dst.Y, dst.YStride, src.Y, src.YStride)
	dx, dy, _ := chromaDivisors(src.SubsampleRatio)
	chroma := newPlaneScale(image.Rect(r.Min.X/dx, r.Min.Y/dy, (r.Max.X+dx-1)/dx, (r.Max.Y+dy-1)/dy), cw, ch)
	chroma.apply(dst.Cb, dst.CStride, src.Cb, src.CStride)
	chroma.apply(dst.Cr, dst.CStride, src.Cr, src.CStride)
	return dst
}

// planeScale scales the part r of a plane to w x h samples: by a plain
// mean over fx by fy samples when both factors are whole (boxPlane),
// otherwise with the filters kx and ky (resizePlane).
type planeScale struct {
	r      image.Rectangle
	w, h   int
	fx, fy int
	kx, ky kernel
}

func newPlaneScale(r image.Rectangle, w, h int) planeScale {
	s := planeScale{r: r, w: w, h: h}
	switch sw, sh := r.Dx(), r.Dy(); {
	case sw == w && sh == h:
	case sw%w == 0 && sh%h == 0:
		s.fx, s.fy = sw/w, sh/h
	default:
		s.kx, s.ky = newKernel(sw, w), newKernel(sh, h)
	}
	return s
}

func (s *planeScale) apply(dst []uint8, dstStride int, src []uint8, srcStride int) {
	if s.fx > 0 {
		boxPlane(dst, dstStride, s.w, s.h, src, srcStride, s.r, s.fx, s.fy)
		return
	}
	resizePlane(dst, dstStride, s.w, s.h, src, srcStride, s.r, s.kx, s.ky)
}

// resizePlane scales the part r of a plane of samples to w x h samples of
// dst, in two separable passes like resizeRect, with the kernels kx (from
// r.Dx() to w) and ky (from r.Dy() to h); the same size is a copy.
func resizePlane(dst []uint8, dstStride, w, h int, src []uint8, srcStride int, r image.Rectangle, kx, ky kernel) {
	sw, sh := r.Dx(), r.Dy()
	if sw == w && sh == h {
		for y := range h {
			i := (r.Min.Y+y)*srcStride + r.Min.X
			copy(dst[y*dstStride:y*dstStride+w], src[i:i+w])
		}
		return
	}
	tmpBuf := getScratch(&resizeScratch, w*sh)
	defer putScratch(&resizeScratch, tmpBuf)
	tmp := *tmpBuf
	for y := range sh {
		row := src[(r.Min.Y+y)*srcStride+r.Min.X:]
		out := tmp[y*w : (y+1)*w]
		for x := range out {
			var acc int32
			p := row[kx.start[x]:]
			ws := kx.w[kx.off[x] : kx.off[x]+kx.n[x]]
			p = p[:len(ws)]
			for j, wt := range ws {
				acc += int32(p[j]) * wt
			}
			out[x] = clamp8(acc)
		}
	}
	acc := make([]int32, w)
	for y := range h {
		clear(acc)
		ws := ky.w[ky.off[y] : ky.off[y]+ky.n[y]]
		for j, wt := range ws {
			in := tmp[(ky.start[y]+j)*w : (ky.start[y]+j+1)*w]
			in = in[:len(acc)]
			for i, v := range in {
				acc[i] += int32(v) * wt
			}
		}
		out := dst[y*dstStride : y*dstStride+w]
		for i, a := range acc {
			out[i] = clamp8(a)
		}
	}
}

// boxPlane is resizePlane for a whole shrinking factor in each direction
// (fx by fy source samples make one): the area average is then a plain
// mean, summed in one pass over the source.
func boxPlane(dst []uint8, dstStride, w, h int, src []uint8, srcStride int, r image.Rectangle, fx, fy int) {
	n := uint32(fx * fy)
	// Dividing by n is multiplying by recip and shifting, with rounding.
	const shift = 24
	recip := (1<<shift + n - 1) / n
	if fx == 4 && fy == 4 {
		box4(dst, dstStride, w, h, src, srcStride, r)
		return
	}
	acc := make([]uint32, w)
	for y := range h {
		clear(acc)
		for j := range fy {
			row := src[(r.Min.Y+y*fy+j)*srcStride+r.Min.X:]
			row = row[:w*fx]
			for x := range acc {
				var s uint32
				for _, v := range row[x*fx : x*fx+fx] {
					s += uint32(v)
				}
				acc[x] += s
			}
		}
		out := dst[y*dstStride : y*dstStride+w]
		for x, a := range acc {
			out[x] = uint8((uint64(a)*uint64(recip) + 1<<(shift-1)) >> shift)
		}
	}
}

// box4 is boxPlane for 4x4 samples, the medium size of the common 3:2
// and 4:3 featured images. It sums eight columns of four rows at once in
// the 16-bit lanes of a word.
func box4(dst []uint8, dstStride, w, h int, src []uint8, srcStride int, r image.Rectangle) {
	const even = 0x00ff00ff00ff00ff
	const low = 0x0000ffff0000ffff
	for y := range h {
		base := (r.Min.Y+4*y)*srcStride + r.Min.X
		r0 := src[base : base+4*w]
		r1 := src[base+srcStride : base+srcStride+4*w]
		r2 := src[base+2*srcStride : base+2*srcStride+4*w]
		r3 := src[base+3*srcStride : base+3*srcStride+4*w]
		out := dst[y*dstStride : y*dstStride+w]
		x := 0
		for ; x+2 <= w; x += 2 {
			i := 4 * x
			// Four lanes of sums of pairs, over four rows.
			v0 := binary.LittleEndian.Uint64(r0[i : i+8])
			v1 := binary.LittleEndian.Uint64(r1[i : i+8])
			v2 := binary.LittleEndian.Uint64(r2[i : i+8])
			v3 := binary.LittleEndian.Uint64(r3[i : i+8])
			s := v0&even + v0>>8&even + v1&even + v1>>8&even +
				v2&even + v2>>8&even + v3&even + v3>>8&even
			t := s&low + s>>16&low // two lanes: sums of 4x4 samples
			out[x] = uint8((t&0xffffffff + 8) >> 4)
			out[x+1] = uint8((t>>32 + 8) >> 4)
		}
		if x < w {
			var sum uint32
			for _, row := range [][]uint8{r0, r1, r2, r3} {
				for _, v := range row[4*x : 4*x+4] {
					sum += uint32(v)
				}
			}
			out[x] = uint8((sum + 8) >> 4)
		}
	}
}
