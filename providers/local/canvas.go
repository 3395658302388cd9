package local

import (
	"encoding/binary"
	"image"
	"image/color"
	"math"
	"math/bits"
	"slices"
)

// rgb is an opaque colour.
type rgb struct{ r, g, b uint8 }

// hex makes a colour from 0xRRGGBB.
func hex(v uint32) rgb { return rgb{uint8(v >> 16), uint8(v >> 8), uint8(v)} }

// mix interpolates from a to b by t in [0, 1].
func mix(a, b rgb, t float64) rgb {
	t = clamp01(t)
	return rgb{
		uint8(float64(a.r) + (float64(b.r)-float64(a.r))*t + 0.5),
		uint8(float64(a.g) + (float64(b.g)-float64(a.g))*t + 0.5),
		uint8(float64(a.b) + (float64(b.b)-float64(a.b))*t + 0.5),
	}
}

// shade darkens (f < 1) or lightens towards white (f > 1) a colour.
func shade(c rgb, f float64) rgb {
	if f >= 1 {
		return mix(c, rgb{255, 255, 255}, f-1)
	}
	return mix(rgb{}, c, f)
}

func clamp01(t float64) float64 {
	if t < 0 {
		return 0
	}
	if t > 1 {
		return 1
	}
	return t
}

// ycc is a colour in the JPEG (JFIF) YCbCr space.
type ycc [3]uint8

func (c rgb) ycc() ycc {
	y, cb, cr := color.RGBToYCbCr(c.r, c.g, c.b)
	return ycc{y, cb, cr}
}

// plane is one sample plane of the canvas. scale maps canvas coordinates
// (full resolution) to plane coordinates: 1 for luma, 0.5 for the
// subsampled chroma planes.
type plane struct {
	pix    []uint8
	w, h   int
	stride int
	scale  float64
}

// canvas renders straight into the planes of a 4:2:0 YCbCr image, which is
// what the JPEG encoder consumes without conversion. Alpha blending is
// linear, so blending in YCbCr gives the same result as in RGB. Shapes are
// rasterised twice: once for luma and once, at half resolution, for both
// chroma planes.
type canvas struct {
	img  *image.YCbCr
	w, h int
	font *font // for scenes that write text
	y    plane
	cb   plane
	cr   plane

	// Rasteriser scratch, reused between shapes.
	cover   []float32
	touched []uint64
	edges   []edge
	act     []int
	xs      []crossing
	gx      []float32
	vx      []int32
	vruns   [][2]int
}

// crossing is where a scanline meets an edge, with the edge's winding
// direction.
type crossing struct {
	x   float64
	dir int
}

// pt is a point in canvas coordinates.
type pt struct{ x, y float64 }

// reset prepares the canvas for a w x h image, reusing memory when it
// fits.
func (c *canvas) reset(w, h int) {
	r := image.Rect(0, 0, w, h)
	cw, ch := (w+1)/2, (h+1)/2
	need := w*h + 2*cw*ch
	if c.img == nil || cap(c.img.Y)+2*cap(c.img.Cb) < need || c.w != w || c.h != h {
		buf := make([]uint8, need)
		c.img = &image.YCbCr{
			Y:              buf[: w*h : w*h],
			Cb:             buf[w*h : w*h+cw*ch : w*h+cw*ch],
			Cr:             buf[w*h+cw*ch:],
			YStride:        w,
			CStride:        cw,
			SubsampleRatio: image.YCbCrSubsampleRatio420,
			Rect:           r,
		}
	} else {
		// A canvas from the pool starts as blank as a new one, so that
		// an image never depends on what was drawn before it.
		clear(c.img.Y)
		clear(c.img.Cb)
		clear(c.img.Cr)
	}
	c.w, c.h = w, h
	c.y = plane{pix: c.img.Y, w: w, h: h, stride: w, scale: 1}
	c.cb = plane{pix: c.img.Cb, w: cw, h: ch, stride: cw, scale: 0.5}
	c.cr = plane{pix: c.img.Cr, w: cw, h: ch, stride: cw, scale: 0.5}
	if len(c.cover) < w+2 {
		c.cover = make([]float32, w+2)
		c.touched = make([]uint64, (w+2+63)/64)
	}
}

// fill paints the whole canvas with one colour.
func (c *canvas) fill(col rgb) {
	v := col.ycc()
	fillBytes(c.y.pix, v[0])
	fillBytes(c.cb.pix, v[1])
	fillBytes(c.cr.pix, v[2])
}

func fillBytes(b []uint8, v uint8) {
	if len(b) == 0 {
		return
	}
	b[0] = v
	for n := 1; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

// vgrad paints rows y0..y1 with a vertical gradient from top to bottom,
// eased by the exponent ease (1 is linear).
func (c *canvas) vgrad(y0, y1 float64, top, bottom rgb, ease float64) {
	for _, p := range c.planes() {
		py0, py1 := int(math.Floor(y0*p.scale)), int(math.Ceil(y1*p.scale))
		py0, py1 = max(py0, 0), min(py1, p.h)
		span := max((y1-y0)*p.scale, 1)
		for y := py0; y < py1; y++ {
			t := (float64(y) + 0.5 - y0*p.scale) / span
			col := mix(top, bottom, math.Pow(clamp01(t), ease)).ycc()
			fillBytes(p.pix[y*p.stride:y*p.stride+p.w], col[p.idx(c)])
		}
	}
}

// planes returns the three planes; idx tells which YCbCr component each
// one holds.
func (c *canvas) planes() [3]*plane { return [3]*plane{&c.y, &c.cb, &c.cr} }

func (p *plane) idx(c *canvas) int {
	switch p {
	case &c.cb:
		return 1
	case &c.cr:
		return 2
	}
	return 0
}

// blendSpan blends value v with alpha a (0-256) into pixels x0..x1 of row
// y of p.
func blendSpan(p *plane, y, x0, x1 int, v uint8, a int) {
	row := p.pix[y*p.stride+x0 : y*p.stride+x1]
	if a >= 256 {
		fillBytes(row, v)
		return
	}
	vv := int(v)
	for i, o := range row {
		row[i] = uint8(int(o) + (vv-int(o))*a>>8)
	}
}

// blendRun blends value v with alpha a (0-256) into every sample of row.
func blendRun(row []uint8, v uint8, a int) {
	if a == 256 {
		fillBytes(row, v)
		return
	}
	vv := int(v)
	for i, o := range row {
		row[i] = uint8(int(o) + (vv-int(o))*a>>8)
	}
}

// rect fills an axis-aligned rectangle with alpha in [0, 1], with
// fractional coverage at its edges.
func (c *canvas) rect(x0, y0, x1, y1 float64, col rgb, alpha float64) {
	if x1 <= x0 || y1 <= y0 || alpha <= 0 {
		return
	}
	v := col.ycc()
	for i, p := range c.planes() {
		sx0, sy0, sx1, sy1 := x0*p.scale, y0*p.scale, x1*p.scale, y1*p.scale
		iy0, iy1 := max(int(math.Floor(sy0)), 0), min(int(math.Ceil(sy1)), p.h)
		ix0, ix1 := max(int(math.Floor(sx0)), 0), min(int(math.Ceil(sx1)), p.w)
		if ix0 >= ix1 || iy0 >= iy1 {
			continue
		}
		for y := iy0; y < iy1; y++ {
			cy := min(sy1, float64(y+1)) - max(sy0, float64(y))
			a := alpha * cy
			// Left and right edge pixels get partial coverage.
			lx := min(sx1, float64(ix0+1)) - max(sx0, float64(ix0))
			blendSpan(p, y, ix0, ix0+1, v[i], int(a*lx*256+0.5))
			if ix1-1 > ix0 {
				rx := min(sx1, float64(ix1)) - max(sx0, float64(ix1-1))
				blendSpan(p, y, ix1-1, ix1, v[i], int(a*rx*256+0.5))
				if ix1-1 > ix0+1 {
					blendSpan(p, y, ix0+1, ix1-1, v[i], int(a*256+0.5))
				}
			}
		}
	}
}

// glow adds a soft radial spot: alpha falls smoothly from the centre to
// zero at radius r.
func (c *canvas) glow(cx, cy, rx, ry float64, col rgb, alpha float64) {
	if rx <= 0 || ry <= 0 || alpha <= 0 {
		return
	}
	v := col.ycc()
	var lut [257]int32
	for i := range lut {
		t := 1 - float64(i)/256
		lut[i] = int32(alpha * t * t * 256)
	}
	// Pixels at a distance of limit or more get an alpha of zero: the
	// rows and spans drawn stop there.
	limit := 256
	for limit > 0 && lut[limit-1] == 0 {
		limit--
	}
	c.glowPlane(&c.y, nil, cx, cy, rx, ry, v[0], 0, &lut, limit)
	c.glowPlane(&c.cb, &c.cr, cx, cy, rx, ry, v[1], v[2], &lut, limit)
}

// glowPlane draws a glow into p with value v (and into p2, which shares
// its geometry, with value v2, when p2 is not nil).
func (c *canvas) glowPlane(p, p2 *plane, cx, cy, rx, ry float64, v, v2 uint8, lut *[257]int32, limit int) {
	pcx, pcy, prx, pry := cx*p.scale, cy*p.scale, rx*p.scale, ry*p.scale
	iy0, iy1 := max(int(pcy-pry), 0), min(int(pcy+pry)+1, p.h)
	ix0, ix1 := max(int(pcx-prx), 0), min(int(pcx+prx)+1, p.w)
	if ix0 >= ix1 || iy0 >= iy1 {
		return
	}
	vv, vv2 := int32(v), int32(v2)
	ky, kx := 256/(pry*pry), 256/(prx*prx)
	if cap(c.gx) < ix1 {
		c.gx = make([]float32, ix1)
	}
	gx := c.gx[:ix1]
	for x := ix0; x < ix1; x++ {
		dx := float64(x) + 0.5 - pcx
		gx[x] = float32(dx * dx * kx)
	}
	flimit := float32(limit)
	for y := iy0; y < iy1; y++ {
		dy := float64(y) + 0.5 - pcy
		dy2 := dy * dy * ky
		if dy2 >= float64(limit) {
			continue
		}
		// Only the span where the alpha is not zero on this row, with a
		// pixel to spare on each side for rounding.
		hw := prx * math.Sqrt((float64(limit)-dy2)/256)
		x0, x1 := max(int(pcx-hw)-1, ix0), min(int(pcx+hw)+2, ix1)
		row := p.pix[y*p.stride:]
		fy := float32(dy2)
		if p2 == nil {
			for x := x0; x < x1; x++ {
				d := gx[x] + fy
				if d >= flimit {
					continue
				}
				a := lut[int(d)]
				o := int32(row[x])
				row[x] = uint8(o + (vv-o)*a>>8)
			}
			continue
		}
		row2 := p2.pix[y*p2.stride:]
		for x := x0; x < x1; x++ {
			d := gx[x] + fy
			if d >= flimit {
				continue
			}
			a := lut[int(d)]
			o := int32(row[x])
			row[x] = uint8(o + (vv-o)*a>>8)
			o = int32(row2[x])
			row2[x] = uint8(o + (vv2-o)*a>>8)
		}
	}
}

// vignette darkens the canvas towards its corners by up to strength (0-1),
// scaling luma and pulling chroma towards neutral in step.
func (c *canvas) vignette(strength float64) {
	for _, p := range c.planes() {
		if cap(c.vx) < p.w {
			c.vx = make([]int32, p.w)
		}
		fx := c.vx[:p.w]
		for x := range fx {
			t := (float64(x)+0.5)/float64(p.w)*2 - 1
			fx[x] = int32((1 - strength*0.5*t*t*t*t) * 256)
		}
		// The factor of a column changes slowly, least in the middle:
		// long runs of equal factors are scaled a word at a time.
		const long = 16
		runs := c.vruns[:0]
		for x0 := 0; x0 < len(fx); {
			x1 := x0 + 1
			for x1 < len(fx) && fx[x1] == fx[x0] {
				x1++
			}
			if x1-x0 >= long {
				runs = append(runs, [2]int{x0, x1})
			}
			x0 = x1
		}
		c.vruns = runs
		chroma := p != &c.y
		for y := range p.h {
			t := (float64(y)+0.5)/float64(p.h)*2 - 1
			fy := int32((1 - strength*0.6*t*t*t*t) * 256)
			row := p.pix[y*p.stride : y*p.stride+p.w]
			x := 0
			for _, r := range runs {
				scaleSamples(row[x:r[0]], fx[x:r[0]], fy, chroma)
				scaleRun(row[r[0]:r[1]], fx[r[0]]*fy>>8, chroma)
				x = r[1]
			}
			scaleSamples(row[x:], fx[x:], fy, chroma)
		}
	}
}

// scaleSamples scales each sample of row by fx[i]*fy/65536, as scaleRun
// does with one factor.
func scaleSamples(row []uint8, fx []int32, fy int32, chroma bool) {
	fx = fx[:len(row)]
	if chroma {
		for i, o := range row {
			row[i] = uint8(128 + (int32(o)-128)*(fx[i]*fy>>8)>>8)
		}
		return
	}
	for i, o := range row {
		row[i] = uint8(int32(o) * (fx[i] * fy >> 8) >> 8)
	}
}

// scaleRun scales every sample o of row by g/256: to o*g>>8 for luma,
// and to 128+(o-128)*g>>8 for chroma, which pulls it towards neutral.
func scaleRun(row []uint8, g int32, chroma bool) {
	i := 0
	if g >= 0 && g <= 256 {
		// Eight samples at once, as 16-bit lanes of two words (even and
		// odd bytes): o*g and, for chroma, the equal (o-128)*g + 128*256
		// stay below 65536, so no lane carries into the next.
		const even = 0x00ff00ff00ff00ff
		gg := uint64(g)
		var add uint64
		if chroma {
			add = uint64(128*256-128*g) * 0x0001000100010001
		}
		for ; i+8 <= len(row); i += 8 {
			w := row[i : i+8 : i+8]
			v := binary.LittleEndian.Uint64(w)
			lo := (v&even)*gg + add
			hi := (v>>8&even)*gg + add
			binary.LittleEndian.PutUint64(w, lo>>8&even|(hi>>8&even)<<8)
		}
	}
	for ; i < len(row); i++ {
		o := int32(row[i])
		if chroma {
			row[i] = uint8(128 + (o-128)*g>>8)
		} else {
			row[i] = uint8(o * g >> 8)
		}
	}
}

// edge is a polygon edge with y0 < y1, in plane coordinates; dir is +1
// when the contour runs downwards along it and -1 otherwise.
type edge struct {
	x0, y0, y1, dxdy float64
	dir              int
}

// subRows is the number of scanlines sampled per pixel row.
const subRows = 4

// poly fills the union of the closed point lists with colour col and
// alpha in [0, 1]. Edges are anti-aliased: coverage is exact horizontally
// and sampled on four sub-scanlines vertically.
func (c *canvas) poly(alpha float64, col rgb, contours ...[]pt) {
	for i, pts := range contours {
		if area(pts) < 0 {
			contours[i] = reversed(pts)
		}
	}
	c.shape(alpha, col, contours...)
}

// shape fills contours by the non-zero winding rule without reorienting
// them: a contour in the opposite orientation to another (see reversed)
// cuts a hole in it.
func (c *canvas) shape(alpha float64, col rgb, contours ...[]pt) {
	if alpha <= 0 {
		return
	}
	v := col.ycc()
	c.raster(&c.y, alpha, contours, v[0], nil, 0)
	c.raster(&c.cb, alpha, contours, v[1], &c.cr, v[2])
}

// raster fills contours into p (and into p2 with value v2, which shares
// its geometry, when p2 is not nil).
func (c *canvas) raster(p *plane, alpha float64, contours [][]pt, v uint8, p2 *plane, v2 uint8) {
	s := p.scale
	c.edges = c.edges[:0]
	minY, maxY := math.Inf(1), math.Inf(-1)
	for _, pts := range contours {
		for i := range pts {
			a, b := pts[i], pts[(i+1)%len(pts)]
			ax, ay, bx, by := a.x*s, a.y*s, b.x*s, b.y*s
			if ay == by {
				continue
			}
			dir := 1
			if ay > by {
				ax, ay, bx, by = bx, by, ax, ay
				dir = -1
			}
			c.edges = append(c.edges, edge{x0: ax, y0: ay, y1: by, dxdy: (bx - ax) / (by - ay), dir: dir})
			minY, maxY = min(minY, ay), max(maxY, by)
		}
	}
	if len(c.edges) == 0 {
		return
	}
	slices.SortFunc(c.edges, func(a, b edge) int {
		switch {
		case a.y0 < b.y0:
			return -1
		case a.y0 > b.y0:
			return 1
		}
		return 0
	})
	iy0, iy1 := max(int(math.Floor(minY)), 0), min(int(math.Ceil(maxY)), p.h)
	cover := c.cover[:p.w+2]
	// touched has a bit set for every index of cover written on the
	// current row, where the coverage may change.
	touched := c.touched[:(p.w+2+63)/64]
	next := 0
	c.act = c.act[:0]
	const wgt = 1.0 / subRows
	fw := float64(p.w)
	for y := iy0; y < iy1; y++ {
		lo, hi := p.w+1, -1
		for sub := range subRows {
			sy := float64(y) + (float64(sub)+0.5)/subRows
			for next < len(c.edges) && c.edges[next].y0 <= sy {
				c.act = append(c.act, next)
				next++
			}
			c.xs = c.xs[:0]
			k := 0
			for _, ei := range c.act {
				e := &c.edges[ei]
				if e.y1 <= sy {
					continue
				}
				c.act[k] = ei
				k++
				if e.y0 <= sy {
					c.xs = append(c.xs, crossing{e.x0 + (sy-e.y0)*e.dxdy, e.dir})
				}
			}
			c.act = c.act[:k]
			xs := c.xs
			// Insertion sort: crossing lists are short.
			for i := 1; i < len(xs); i++ {
				for j := i; j > 0 && xs[j].x < xs[j-1].x; j-- {
					xs[j], xs[j-1] = xs[j-1], xs[j]
				}
			}
			wind := 0
			for i := 0; i+1 < len(xs); i++ {
				wind += xs[i].dir
				if wind == 0 {
					continue
				}
				xa, xb := max(xs[i].x, 0), min(xs[i+1].x, fw)
				if xb <= xa {
					continue
				}
				ia, ib := int(xa), int(xb)
				fa, fb := float32(xa-float64(ia)), float32(xb-float64(ib))
				if ia == ib {
					d := float32(xb-xa) * wgt
					cover[ia] += d
					cover[ia+1] -= d
				} else {
					cover[ia] += (1 - fa) * wgt
					cover[ia+1] += fa * wgt
					cover[ib] -= (1 - fb) * wgt
					cover[ib+1] -= fb * wgt
					mark(touched, ib)
					mark(touched, ib+1)
				}
				mark(touched, ia)
				mark(touched, ia+1)
				lo, hi = min(lo, ia), max(hi, ib+1)
			}
		}
		if hi < 0 {
			continue
		}
		hi = min(hi, p.w)
		var acc float32
		row := p.pix[y*p.stride : y*p.stride+p.w]
		var row2 []uint8
		if p2 != nil {
			row2 = p2.pix[y*p2.stride : y*p2.stride+p2.w]
		}
		fa := float32(alpha * 256)
		for x := lo; x < hi; {
			acc += cover[x]
			cover[x] = 0
			touched[x>>6] &^= 1 << (x & 63)
			// The pixels up to the next place an edge touched have the
			// same coverage: one run, which inside a shape is a plain
			// fill.
			e := nextMark(touched, x+1, hi)
			if cv := min(acc, 1); cv > 0.002 {
				a := int(cv*fa + 0.5)
				blendRun(row[x:e], v, a)
				if row2 != nil {
					blendRun(row2[x:e], v2, a)
				}
			}
			x = e
		}
		for x := hi; x < p.w+2 && x <= hi+1; x++ {
			cover[x] = 0
			touched[x>>6] &^= 1 << (x & 63)
		}
	}
}

// mark sets bit i of a bitset.
func mark(set []uint64, i int) { set[i>>6] |= 1 << (i & 63) }

// nextMark returns the first set bit at or after from, or limit when none
// is before limit.
func nextMark(set []uint64, from, limit int) int {
	i := from >> 6
	if i >= len(set) {
		return limit
	}
	if w := set[i] >> (from & 63); w != 0 {
		return min(from+bits.TrailingZeros64(w), limit)
	}
	for i++; i < len(set) && i<<6 < limit; i++ {
		if set[i] != 0 {
			return min(i<<6+bits.TrailingZeros64(set[i]), limit)
		}
	}
	return limit
}

// Shape builders. Each returns a new closed contour in canvas coordinates,
// all in the same orientation, so that several can be united in one poly
// call.

// area returns the signed area of a contour: positive when it runs
// clockwise on screen (y pointing down).
func area(pts []pt) float64 {
	a := 0.0
	for i := range pts {
		p, q := pts[i], pts[(i+1)%len(pts)]
		a += p.x*q.y - q.x*p.y
	}
	return a / 2
}

// reversed returns pts in the opposite orientation, to cut a hole.
func reversed(pts []pt) []pt {
	out := slices.Clone(pts)
	slices.Reverse(out)
	return out
}

// ellipsePts approximates an ellipse rotated by rot radians.
func ellipsePts(cx, cy, rx, ry, rot float64) []pt {
	r := max(rx, ry)
	n := int(math.Ceil(math.Pi * math.Sqrt(2*max(r, 1))))
	n = min(max(n, 12), 360)
	pts := make([]pt, n)
	sr, cr := math.Sincos(rot)
	for i := range pts {
		s, co := math.Sincos(2 * math.Pi * float64(i) / float64(n))
		x, y := co*rx, s*ry
		pts[i] = pt{cx + x*cr - y*sr, cy + x*sr + y*cr}
	}
	return pts
}

// circlePts approximates a circle.
func circlePts(cx, cy, r float64) []pt { return ellipsePts(cx, cy, r, r, 0) }

// rectPts is a rectangle of size w x h centred at (cx, cy), rotated by rot.
func rectPts(cx, cy, w, h, rot float64) []pt {
	sr, cr := math.Sincos(rot)
	hw, hh := w/2, h/2
	corner := func(x, y float64) pt { return pt{cx + x*cr - y*sr, cy + x*sr + y*cr} }
	return []pt{corner(-hw, -hh), corner(hw, -hh), corner(hw, hh), corner(-hw, hh)}
}

// roundRectPts is an axis-aligned rectangle with corner radius r.
func roundRectPts(x0, y0, x1, y1, r float64) []pt {
	r = min(r, min(x1-x0, y1-y0)/2)
	if r <= 0.5 {
		return []pt{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
	}
	n := min(max(int(r/2), 3), 16)
	pts := make([]pt, 0, 4*(n+1))
	arc := func(cx, cy, a0 float64) {
		for i := 0; i <= n; i++ {
			s, co := math.Sincos(a0 + math.Pi/2*float64(i)/float64(n))
			pts = append(pts, pt{cx + co*r, cy + s*r})
		}
	}
	arc(x1-r, y0+r, -math.Pi/2)
	arc(x1-r, y1-r, 0)
	arc(x0+r, y1-r, math.Pi/2)
	arc(x0+r, y0+r, math.Pi)
	return pts
}

// linePts is a thick straight line from a to b.
func linePts(a, b pt, width float64) []pt {
	dx, dy := b.x-a.x, b.y-a.y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return nil
	}
	nx, ny := -dy/l*width/2, dx/l*width/2
	return []pt{{a.x + nx, a.y + ny}, {b.x + nx, b.y + ny}, {b.x - nx, b.y - ny}, {a.x - nx, a.y - ny}}
}

// arcPts is a thick circular arc (a ring segment) from angle a0 to a1.
func arcPts(cx, cy, r, width, a0, a1 float64) []pt {
	n := int(math.Ceil(math.Abs(a1-a0) * math.Sqrt(max(r, 1))))
	n = min(max(n, 8), 360)
	pts := make([]pt, 0, 2*(n+1))
	for i := 0; i <= n; i++ {
		s, co := math.Sincos(a0 + (a1-a0)*float64(i)/float64(n))
		pts = append(pts, pt{cx + co*(r+width/2), cy + s*(r+width/2)})
	}
	for i := n; i >= 0; i-- {
		s, co := math.Sincos(a0 + (a1-a0)*float64(i)/float64(n))
		pts = append(pts, pt{cx + co*(r-width/2), cy + s*(r-width/2)})
	}
	return pts
}

// polylinePts is a thick polyline, built as one outline (good for gentle
// curves; sharp turns are mitred by averaging the normals).
func polylinePts(line []pt, width float64) []pt {
	n := len(line)
	if n < 2 {
		return nil
	}
	left := make([]pt, n)
	right := make([]pt, n)
	for i := range line {
		var dx, dy float64
		switch {
		case i == 0:
			dx, dy = line[1].x-line[0].x, line[1].y-line[0].y
		case i == n-1:
			dx, dy = line[n-1].x-line[n-2].x, line[n-1].y-line[n-2].y
		default:
			dx, dy = line[i+1].x-line[i-1].x, line[i+1].y-line[i-1].y
		}
		l := math.Hypot(dx, dy)
		if l == 0 {
			l = 1
		}
		nx, ny := -dy/l*width/2, dx/l*width/2
		left[i] = pt{line[i].x + nx, line[i].y + ny}
		right[i] = pt{line[i].x - nx, line[i].y - ny}
	}
	slices.Reverse(right)
	return append(left, right...)
}
