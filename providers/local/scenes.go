package local

import (
	"math"
)

// sceneFunc draws a whole image onto c.
type sceneFunc func(c *canvas, r *rng)

// scene returns the drawing of a category.
func scene(cat string) sceneFunc {
	switch cat {
	case "nature":
		return sceneNature
	case "architecture":
		return sceneArchitecture
	case "people":
		return scenePeople
	case "food":
		return sceneFood
	case "business":
		return sceneBusiness
	case "technology":
		return sceneTechnology
	case "animals":
		return sceneAnimals
	case "sports":
		return sceneSports
	case "travel":
		return sceneTravel
	case "abstract":
		return sceneAbstract
	case "real-estate":
		return sceneRealEstate
	case "interior":
		return sceneInterior
	case "exterior":
		return sceneExterior
	case "portrait":
		return scenePortrait
	}
	return sceneAbstract
}

// dims returns the canvas width, height and shorter side as floats.
func (c *canvas) dims() (W, H, M float64) {
	W, H = float64(c.w), float64(c.h)
	return W, H, math.Min(W, H)
}

// tint blends col over whole rows y0..y1 with alpha going from a0 to a1.
func (c *canvas) tint(y0, y1 float64, col rgb, a0, a1 float64) {
	v := col.ycc()
	for i, p := range c.planes() {
		py0, py1 := max(int(y0*p.scale), 0), min(int(math.Ceil(y1*p.scale)), p.h)
		span := math.Max((y1-y0)*p.scale, 1)
		for y := py0; y < py1; y++ {
			t := (float64(y) + 0.5 - y0*p.scale) / span
			a := a0 + (a1-a0)*clamp01(t)
			if a <= 0 {
				continue
			}
			blendSpan(p, y, 0, p.w, v[i], int(a*256+0.5))
		}
	}
}

// rectV fills a rectangle with a vertical gradient.
func (c *canvas) rectV(x0, y0, x1, y1 float64, top, bottom rgb, alpha float64) {
	if y1 <= y0 {
		return
	}
	step := math.Max(1, (y1-y0)/64)
	for y := y0; y < y1; y += step {
		t := (y - y0 + step/2) / (y1 - y0)
		c.rect(x0, y, x1, math.Min(y+step, y1), mix(top, bottom, t), alpha)
	}
}

// profile returns n+1 heights in [0, 1] from midpoint displacement;
// rough in (0, 1) sets how jagged the result is.
func profile(r *rng, n int, rough float64) []float64 {
	size := 1
	for size < n {
		size *= 2
	}
	h := make([]float64, size+1)
	h[0], h[size] = r.Float64(), r.Float64()
	amp := 1.0
	for step := size; step > 1; step /= 2 {
		for i := step / 2; i < size; i += step {
			h[i] = (h[i-step/2]+h[i+step/2])/2 + (r.Float64()-0.5)*amp
		}
		amp *= rough
	}
	lo, hi := h[0], h[0]
	for _, v := range h {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	for i := range h {
		h[i] = (h[i] - lo) / math.Max(hi-lo, 1e-9)
	}
	return h[:n+1]
}

// ridge returns the polygon under a height profile spanning x0..x0+w: the
// top edge is base - amp*prof(x), the bottom is at bottom.
func ridge(x0, w, base, amp, bottom float64, prof []float64) []pt {
	n := len(prof) - 1
	pts := make([]pt, 0, n+3)
	for i, v := range prof {
		pts = append(pts, pt{x0 + w*float64(i)/float64(n), base - amp*v})
	}
	return append(pts, pt{x0 + w, bottom}, pt{x0, bottom})
}

// waves is a smooth random curve: sum of a few sines, in [-1, 1].
type waves struct{ f, ph, a [4]float64 }

func newWaves(r *rng, freq float64) waves {
	var w waves
	sum := 0.0
	for i := range w.f {
		w.f[i] = freq * math.Pow(2.1, float64(i)) * r.f(0.8, 1.25)
		w.ph[i] = r.f(0, 2*math.Pi)
		w.a[i] = math.Pow(0.5, float64(i))
		sum += w.a[i]
	}
	for i := range w.a {
		w.a[i] /= sum
	}
	return w
}

// at evaluates the curve at t (in canvas widths).
func (w waves) at(t float64) float64 {
	v := 0.0
	for i := range w.f {
		v += w.a[i] * math.Sin(t*w.f[i]*2*math.Pi+w.ph[i])
	}
	return v
}

// wavyBand is the polygon under the curve y = base + amp*w(x), down to
// bottom.
func wavyBand(W, base, amp, bottom float64, w waves) []pt {
	n := 96
	pts := make([]pt, 0, n+3)
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		pts = append(pts, pt{W * t, base + amp*w.at(t)})
	}
	return append(pts, pt{W, bottom}, pt{0, bottom})
}

// sun draws a disc with a wide soft halo.
func (c *canvas) sun(x, y, r float64, col rgb, halo float64) {
	c.glow(x, y, r*6, r*6, col, halo)
	c.glow(x, y, r*2.2, r*2.2, col, 0.5)
	c.poly(1, col, circlePts(x, y, r))
}

// cloud draws a puffy cloud of united circles, flat at the bottom.
func (c *canvas) cloud(r *rng, x, y, size float64, col rgb, alpha float64) {
	n := r.i(4, 7)
	var cs [][]pt
	for i := range n {
		t := float64(i)/float64(n-1) - 0.5
		rad := size * (0.55 - math.Abs(t)*0.5) * r.f(0.8, 1.2)
		cs = append(cs, circlePts(x+t*size*1.6, y-rad*0.5, rad))
	}
	cs = append(cs, roundRectPts(x-size*0.85, y-size*0.2, x+size*0.85, y+size*0.12, size*0.16))
	c.poly(alpha, col, cs...)
	// A lighter top and a shaded bottom give some volume.
	c.glow(x, y-size*0.45, size*0.9, size*0.35, shade(col, 1.2), alpha*0.35)
}

// pine draws a fir tree standing at (x, y) of height h.
func (c *canvas) pine(x, y, h float64, col rgb) {
	w := h * 0.42
	c.rect(x-h*0.03, y-h*0.15, x+h*0.03, y, shade(col, 0.6), 1)
	var tiers [][]pt
	for i := range 3 {
		top := y - h + float64(i)*h*0.22
		bot := y - h*0.1 - float64(2-i)*h*0.18
		hw := w * (0.55 + 0.22*float64(i))
		tiers = append(tiers, []pt{{x, top}, {x + hw, bot}, {x - hw, bot}})
	}
	c.poly(1, col, tiers...)
}

// roundTree draws a deciduous tree with a trunk and a crown of circles.
func (c *canvas) roundTree(r *rng, x, y, h float64, leaf, trunk rgb) {
	c.poly(1, trunk, []pt{{x - h*0.05, y}, {x + h*0.05, y}, {x + h*0.025, y - h*0.55}, {x - h*0.025, y - h*0.55}})
	cr := h * 0.3
	var cs [][]pt
	for range 6 {
		cs = append(cs, circlePts(x+r.f(-cr, cr)*0.7, y-h*0.68+r.f(-cr, cr)*0.5, cr*r.f(0.55, 0.8)))
	}
	c.poly(1, leaf, cs...)
	c.glow(x-cr*0.3, y-h*0.8, cr*0.9, cr*0.7, shade(leaf, 1.3), 0.35)
}

// bird draws a gliding bird as two thin arcs.
func (c *canvas) bird(x, y, s float64, col rgb) {
	c.poly(1, col,
		arcPts(x-s/2, y+s*0.35, s/2, s*0.09, -math.Pi*0.85, -math.Pi*0.15),
		arcPts(x+s/2, y+s*0.35, s/2, s*0.09, -math.Pi*0.85, -math.Pi*0.15))
}

// taper is a thick curve through line whose width goes from w0 to w1.
func taper(line []pt, w0, w1 float64) []pt {
	n := len(line)
	if n < 2 {
		return nil
	}
	left := make([]pt, n)
	right := make([]pt, n)
	for i := range line {
		a, b := line[max(i-1, 0)], line[min(i+1, n-1)]
		dx, dy := b.x-a.x, b.y-a.y
		l := math.Max(math.Hypot(dx, dy), 1e-9)
		w := (w0 + (w1-w0)*float64(i)/float64(n-1)) / 2
		left[i] = pt{line[i].x - dy/l*w, line[i].y + dx/l*w}
		right[n-1-i] = pt{line[i].x + dy/l*w, line[i].y - dx/l*w}
	}
	return append(left, right...)
}

// bezier samples a quadratic Bézier curve.
func bezier(a, ctrl, b pt, n int) []pt {
	pts := make([]pt, n+1)
	for i := range pts {
		t := float64(i) / float64(n)
		u := 1 - t
		pts[i] = pt{u*u*a.x + 2*u*t*ctrl.x + t*t*b.x, u*u*a.y + 2*u*t*ctrl.y + t*t*b.y}
	}
	return pts
}

// leaf is a pointed leaf shape along a Bézier curve of maximum width w.
func leaf(a, ctrl, b pt, w float64) []pt {
	line := bezier(a, ctrl, b, 16)
	n := len(line)
	left := make([]pt, n)
	right := make([]pt, n)
	for i := range line {
		p, q := line[max(i-1, 0)], line[min(i+1, n-1)]
		dx, dy := q.x-p.x, q.y-p.y
		l := math.Max(math.Hypot(dx, dy), 1e-9)
		hw := w / 2 * math.Sin(math.Pi*float64(i)/float64(n-1))
		left[i] = pt{line[i].x - dy/l*hw, line[i].y + dx/l*hw}
		right[n-1-i] = pt{line[i].x + dy/l*hw, line[i].y - dx/l*hw}
	}
	return append(left, right...)
}

// ring is a circle outline of the given stroke width.
func ring(cx, cy, r, width float64) [][]pt {
	return [][]pt{circlePts(cx, cy, r+width/2), reversed(circlePts(cx, cy, math.Max(r-width/2, 0)))}
}

// frame is a rectangle outline of the given stroke width.
func frame(x0, y0, x1, y1, width float64) [][]pt {
	h := width / 2
	return [][]pt{
		{{x0 - h, y0 - h}, {x1 + h, y0 - h}, {x1 + h, y1 + h}, {x0 - h, y1 + h}},
		reversed([]pt{{x0 + h, y0 + h}, {x1 - h, y0 + h}, {x1 - h, y1 - h}, {x0 + h, y1 - h}}),
	}
}
