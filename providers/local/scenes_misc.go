package local

import (
	"fmt"
	"math"
)

// sceneFood: a table from above with a dish, cutlery, a napkin and a cup.
func sceneFood(c *canvas, r *rng) {
	W, H, M := c.dims()
	table := pick(r, []rgb{hex(0x8a5a3a), hex(0xb08660), hex(0x5a3e2b), hex(0xe8e4de), hex(0x3a3f45)})
	c.fill(table)
	if table == hex(0xe8e4de) { // marble: a few soft veins
		for range 5 {
			y := H * r.Float64()
			w := newWaves(r, 1.5)
			var line []pt
			for i := 0; i <= 40; i++ {
				t := float64(i) / 40
				line = append(line, pt{W * t, y + H*0.15*w.at(t)})
			}
			c.poly(0.12, hex(0x8a8a90), polylinePts(line, math.Max(1, M*0.004)))
		}
	} else { // boards with grain
		bw := M * r.f(0.14, 0.22)
		for x := 0.0; x < W; x += bw {
			c.rect(x, 0, x+bw, H, r.vary(table, 10), 1)
			c.rect(x, 0, x+math.Max(1, M*0.003), H, shade(table, 0.6), 1)
			for range 4 {
				gx := x + bw*r.Float64()
				w := newWaves(r, 0.8)
				var line []pt
				for i := 0; i <= 20; i++ {
					t := float64(i) / 20
					line = append(line, pt{gx + bw*0.05*w.at(t), H * t})
				}
				c.poly(0.1, shade(table, 0.7), polylinePts(line, math.Max(1, M*0.003)))
			}
		}
	}
	cx, cy := W/2+W*r.f(-0.08, 0.08), H/2+H*r.f(-0.05, 0.05)
	rad := M * 0.36
	// Napkin and cutlery to the right of the dish.
	nx := cx + rad*1.25
	napkin := pick(r, []rgb{hex(0xf2efe8), hex(0xc9d6c4), hex(0xe8c4b8), hex(0x9fb3c8)})
	c.glow(nx+M*0.01, cy+M*0.02, M*0.14, rad*0.85, rgb{}, 0.3)
	c.poly(1, napkin, rectPts(nx, cy, M*0.2, rad*1.5, r.f(-0.12, 0.12)))
	silver := hex(0xd6d9de)
	c.poly(1, silver, roundRectPts(nx-M*0.055, cy-rad*0.1, nx-M*0.035, cy+rad*0.6, M*0.01))
	c.poly(1, silver, roundRectPts(nx-M*0.065, cy-rad*0.5, nx-M*0.025, cy-rad*0.1, M*0.012))
	for i := range 4 {
		tx := nx - M*0.065 + float64(i)*M*0.011
		c.rect(tx, cy-rad*0.7, tx+M*0.006, cy-rad*0.45, silver, 1)
	}
	c.poly(1, silver, roundRectPts(nx+M*0.03, cy-rad*0.65, nx+M*0.055, cy+rad*0.05, M*0.012))
	c.poly(1, hex(0x2b2b2b), roundRectPts(nx+M*0.028, cy+rad*0.05, nx+M*0.057, cy+rad*0.6, M*0.012))
	// Cup at the top left.
	ux, uy := cx-rad*1.15, cy-rad*0.8
	if ux > M*0.05 && uy > M*0.05 {
		cr := M * 0.09
		c.glow(ux+cr*0.2, uy+cr*0.3, cr*1.7, cr*1.7, rgb{}, 0.3)
		c.poly(1, hex(0xf4f2ee), circlePts(ux, uy, cr*1.45))
		c.poly(1, hex(0xffffff), circlePts(ux, uy, cr), roundRectPts(ux+cr*0.8, uy-cr*0.2, ux+cr*1.35, uy+cr*0.2, cr*0.2))
		c.poly(1, hex(0x5a3a22), circlePts(ux, uy, cr*0.82))
		c.poly(1, hex(0xc89a6a), ellipsePts(ux-cr*0.1, uy-cr*0.1, cr*0.45, cr*0.35, 0.4))
	}
	// The dish.
	c.glow(cx+rad*0.08, cy+rad*0.12, rad*1.25, rad*1.25, rgb{}, 0.45)
	switch r.IntN(3) {
	case 0: // salad bowl
		c.poly(1, hex(0xf7f5f1), circlePts(cx, cy, rad))
		c.poly(1, hex(0xe6e2db), circlePts(cx, cy, rad*0.9))
		greens := []rgb{hex(0x5a9a3a), hex(0x7ab84a), hex(0x3f7a2f), hex(0x9ac85a)}
		for range 60 {
			a, d := r.f(0, 2*math.Pi), rad*0.75*math.Sqrt(r.Float64())
			s, co := math.Sincos(a)
			c.poly(1, pick(r, greens), ellipsePts(cx+co*d, cy+s*d, rad*r.f(0.1, 0.18), rad*r.f(0.05, 0.09), r.f(0, math.Pi)))
		}
		for range 9 {
			a, d := r.f(0, 2*math.Pi), rad*0.6*math.Sqrt(r.Float64())
			s, co := math.Sincos(a)
			tr := rad * r.f(0.08, 0.11)
			c.poly(1, hex(0xd8352a), circlePts(cx+co*d, cy+s*d, tr))
			c.poly(1, hex(0xf06a50), circlePts(cx+co*d, cy+s*d, tr*0.55))
		}
		for range 8 {
			a, d := r.f(0, 2*math.Pi), rad*0.6*math.Sqrt(r.Float64())
			s, co := math.Sincos(a)
			c.poly(1, hex(0xf2d04a), rectPts(cx+co*d, cy+s*d, rad*0.2, rad*0.04, r.f(0, math.Pi)))
		}
	case 1: // pizza on a board
		c.poly(1, hex(0xc49a6c), circlePts(cx, cy, rad*1.05))
		c.poly(1, hex(0xd88f3a), circlePts(cx, cy, rad*0.95))
		c.poly(1, hex(0xc0392b), circlePts(cx, cy, rad*0.84))
		for range 22 {
			a, d := r.f(0, 2*math.Pi), rad*0.7*math.Sqrt(r.Float64())
			s, co := math.Sincos(a)
			c.poly(0.9, hex(0xf6e3a8), ellipsePts(cx+co*d, cy+s*d, rad*r.f(0.1, 0.17), rad*r.f(0.07, 0.12), r.f(0, math.Pi)))
		}
		for range 8 {
			a, d := r.f(0, 2*math.Pi), rad*0.65*math.Sqrt(r.Float64())
			s, co := math.Sincos(a)
			c.poly(1, hex(0x9a2a22), circlePts(cx+co*d, cy+s*d, rad*0.09))
		}
		for range 6 {
			a, d := r.f(0, 2*math.Pi), rad*0.6*math.Sqrt(r.Float64())
			s, co := math.Sincos(a)
			c.poly(1, hex(0x2f7a2f), ellipsePts(cx+co*d, cy+s*d, rad*0.07, rad*0.035, r.f(0, math.Pi)))
		}
		for i := range 4 {
			a := math.Pi / 4 * float64(i)
			s, co := math.Sincos(a)
			c.poly(0.25, hex(0x5a2a10), linePts(pt{cx - co*rad*0.95, cy - s*rad*0.95}, pt{cx + co*rad*0.95, cy + s*rad*0.95}, math.Max(1, M*0.004)))
		}
	default: // yogurt bowl with berries
		c.poly(1, pick(r, []rgb{hex(0x2f5a7a), hex(0xe9e4da), hex(0xc9704a)}), circlePts(cx, cy, rad))
		c.poly(1, hex(0xf6f2ea), circlePts(cx, cy, rad*0.86))
		berries := []rgb{hex(0x3a2a6a), hex(0xc0203a), hex(0x6a1a3a), hex(0xe04a4a)}
		for range 45 {
			a, d := r.f(0, 2*math.Pi), rad*0.7*math.Sqrt(r.Float64())
			s, co := math.Sincos(a)
			br := rad * r.f(0.05, 0.09)
			x, y := cx+co*d, cy+s*d
			c.poly(1, pick(r, berries), circlePts(x, y, br))
			c.poly(0.5, hex(0xffffff), circlePts(x-br*0.35, y-br*0.35, br*0.25))
		}
		for range 3 {
			a := r.f(0, 2*math.Pi)
			s, co := math.Sincos(a)
			c.poly(1, hex(0x4a9a3a), leaf(pt{cx + co*rad*0.2, cy + s*rad*0.2}, pt{cx + co*rad*0.35, cy + s*rad*0.2}, pt{cx + co*rad*0.45, cy + s*rad*0.45}, rad*0.12))
		}
	}
	c.vignette(0.35)
}

// sceneBusiness: a dashboard of cards with a bar and line chart, a donut
// chart and a key figure.
func sceneBusiness(c *canvas, r *rng) {
	W, H, M := c.dims()
	type pal struct{ bg0, bg1, card, text, a, b, accent rgb }
	p := pick(r, []pal{
		{hex(0xeef2f7), hex(0xd9e2ee), hex(0xffffff), hex(0xc7cfdb), hex(0x2f6fde), hex(0x74b3ff), hex(0xff7a45)},
		{hex(0x0f1626), hex(0x1d2a44), hex(0x22304d), hex(0x3d4d6e), hex(0x36c2b4), hex(0x6be3d5), hex(0xffc44d)},
		{hex(0xf6f1ea), hex(0xe9dfd2), hex(0xffffff), hex(0xd8cfc3), hex(0x1f7a5c), hex(0x7cc9a5), hex(0xe0523a)},
	})
	c.vgrad(0, H, p.bg0, p.bg1, 1)
	m := M * 0.06
	card := func(x0, y0, x1, y1 float64) {
		c.glow((x0+x1)/2, (y0+y1)/2+M*0.02, (x1-x0)*0.6, (y1-y0)*0.6, rgb{}, 0.12)
		c.poly(1, p.card, roundRectPts(x0, y0, x1, y1, M*0.025))
	}
	split := W * 0.62
	if W < H*1.1 {
		split = W - m
	}
	// Main chart card.
	x0, y0, x1, y1 := m, m, split-m/2, H-m
	card(x0, y0, x1, y1)
	c.poly(1, p.text, roundRectPts(x0+m*0.6, y0+m*0.6, x0+(x1-x0)*0.35, y0+m*0.6+M*0.025, M*0.012))
	c.poly(0.6, p.text, roundRectPts(x0+m*0.6, y0+m*0.6+M*0.045, x0+(x1-x0)*0.22, y0+m*0.6+M*0.06, M*0.008))
	gx0, gy0, gx1, gy1 := x0+m*0.8, y0+(y1-y0)*0.28, x1-m*0.6, y1-m*0.7
	for i := range 5 {
		y := gy0 + (gy1-gy0)*float64(i)/4
		c.rect(gx0, y, gx1, y+math.Max(1, M*0.002), p.text, 0.5)
	}
	n := r.i(6, 10)
	bw := (gx1 - gx0) / float64(n)
	level := r.f(0.25, 0.45)
	var line []pt
	for i := range n {
		level = math.Min(0.95, math.Max(0.1, level+r.f(-0.08, 0.16)))
		bx := gx0 + bw*float64(i) + bw*0.18
		by := gy1 - (gy1-gy0)*level
		c.poly(1, mix(p.a, p.b, float64(i)/float64(n)), roundRectPts(bx, by, bx+bw*0.64, gy1, bw*0.12))
		line = append(line, pt{bx + bw*0.32, by - (gy1-gy0)*r.f(0.05, 0.15)})
	}
	lw := math.Max(1.5, M*0.007)
	c.poly(1, p.accent, polylinePts(line, lw))
	for _, q := range line {
		c.poly(1, p.card, circlePts(q.x, q.y, lw*1.8))
		c.poly(1, p.accent, circlePts(q.x, q.y, lw*1.1))
	}
	if split >= W-m {
		c.vignette(0.15)
		return
	}
	// Donut card.
	dx0, dx1 := split+m/2, W-m
	dy1 := H*0.58 - m/4
	card(dx0, m, dx1, dy1)
	dcx, dcy := (dx0+dx1)/2, (m+dy1)/2
	dr := math.Min(dx1-dx0, dy1-m) * 0.3
	segs := []rgb{p.a, p.b, p.accent, p.text}
	a := -math.Pi / 2
	for i, col := range segs {
		span := r.f(0.15, 0.4) * 2 * math.Pi
		if i == len(segs)-1 {
			span = 3*math.Pi/2 - a
		}
		c.poly(1, col, arcPts(dcx, dcy, dr, dr*0.45, a, a+span-0.04))
		a += span
	}
	// Key figure card.
	ky0 := H*0.58 + m/4
	card(dx0, ky0, dx1, H-m)
	kpi := fmt.Sprintf("+%d.%d%%", r.i(3, 48), r.IntN(10))
	px := math.Floor((dx1 - dx0) * 0.8 / (float64(len(kpi)) * advance))
	if px >= 1 && c.font != nil {
		tw := float64(len(kpi)) * advance * px
		c.text(c.font, kpi, (dx0+dx1)/2-tw/2, (ky0+H-m)/2-glyphH*px*0.4, px, p.accent, 1)
	}
	c.vignette(0.15)
}

// sceneTechnology: a glowing circuit board with traces, pads and a chip
// on a dark background.
func sceneTechnology(c *canvas, r *rng) {
	W, H, M := c.dims()
	type pal struct{ bg0, bg1, trace, glow, chip rgb }
	p := pick(r, []pal{
		{hex(0x070b1a), hex(0x12204a), hex(0x2fd6ff), hex(0x4a8cff), hex(0x141c34)},
		{hex(0x0d0717), hex(0x2a0f4a), hex(0xff4fd8), hex(0x8a4aff), hex(0x1c1030)},
		{hex(0x04110d), hex(0x0b3326), hex(0x3dffa8), hex(0x1fbf7a), hex(0x0f241c)},
	})
	c.vgrad(0, H, p.bg0, p.bg1, 1)
	grid := math.Max(6, M*0.05)
	lw := math.Max(1, M*0.0015)
	for x := grid; x < W; x += grid {
		c.rect(x, 0, x+lw, H, p.trace, 0.06)
	}
	for y := grid; y < H; y += grid {
		c.rect(0, y, W, y+lw, p.trace, 0.06)
	}
	cx, cy := W/2+W*r.f(-0.15, 0.15), H/2+H*r.f(-0.1, 0.1)
	cs := M * r.f(0.22, 0.3)
	c.glow(cx, cy, cs*2.2, cs*2.2, p.glow, 0.45)
	tw := math.Max(1.2, M*0.005)
	dirs := [][2]float64{{1, 0}, {0, 1}, {-1, 0}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	n := int(W / M * float64(r.i(16, 26)))
	for range n {
		// Traces start at the chip edge and run outwards.
		side := r.IntN(4)
		var q pt
		var d [2]float64
		switch side {
		case 0:
			q, d = pt{cx + cs/2, cy + r.f(-0.4, 0.4)*cs}, dirs[0]
		case 1:
			q, d = pt{cx + r.f(-0.4, 0.4)*cs, cy + cs/2}, dirs[1]
		case 2:
			q, d = pt{cx - cs/2, cy + r.f(-0.4, 0.4)*cs}, dirs[2]
		default:
			q, d = pt{cx + r.f(-0.4, 0.4)*cs, cy - cs/2}, dirs[3]
		}
		line := []pt{q}
		for range r.i(2, 4) {
			l := grid * float64(r.i(1, 4))
			q = pt{q.x + d[0]*l, q.y + d[1]*l}
			line = append(line, q)
			if d[0] != 0 && d[1] != 0 || r.chance(0.5) { // turn
				if d[0] == 0 || d[1] == 0 {
					d = pick(r, dirs[4:])
					if d[0]*line[0].x > d[0]*cx+cs || d[1]*line[0].y > d[1]*cy+cs {
						d = dirs[side]
					}
				} else {
					d = dirs[side]
				}
			}
		}
		a := r.f(0.45, 0.9)
		c.poly(a, p.trace, polylinePts(line, tw))
		c.shape(a, p.trace, ring(q.x, q.y, tw*2.2, tw*1.2)...)
		if r.chance(0.3) {
			c.glow(q.x, q.y, tw*10, tw*10, p.trace, 0.5)
		}
	}
	// Chip.
	for i := range 10 {
		t := (float64(i) + 0.5) / 10
		for _, s := range []float64{-1, 1} {
			c.rect(cx-cs/2+cs*t-tw, cy+s*cs/2-tw*2, cx-cs/2+cs*t+tw, cy+s*cs/2+tw*2, hex(0xc0c8d0), 1)
			c.rect(cx+s*cs/2-tw*2, cy-cs/2+cs*t-tw, cx+s*cs/2+tw*2, cy-cs/2+cs*t+tw, hex(0xc0c8d0), 1)
		}
	}
	c.poly(1, shade(p.trace, 0.5), roundRectPts(cx-cs/2, cy-cs/2, cx+cs/2, cy+cs/2, cs*0.06))
	c.poly(1, p.chip, roundRectPts(cx-cs/2+tw*1.5, cy-cs/2+tw*1.5, cx+cs/2-tw*1.5, cy+cs/2-tw*1.5, cs*0.05))
	label := pick(r, []string{"CPU", "GPU", "AI", "IOT", "5G", "API", "NPU"})
	if px := math.Floor(cs * 0.5 / (float64(len(label)) * advance)); px >= 1 && c.font != nil {
		w := float64(len(label))*advance*px - px
		c.text(c.font, label, cx-w/2, cy-capLines*px/2, px, shade(p.trace, 1.3), 1)
	}
	for range int(W / M * 40) {
		c.poly(r.f(0.3, 0.9), shade(p.trace, 1.4), circlePts(W*r.Float64(), H*r.Float64(), math.Max(0.8, M*r.f(0.001, 0.003))))
	}
	c.vignette(0.4)
}

// sceneAbstract: Bauhaus-like geometry, layered paper waves or a soft mesh
// of colour.
func sceneAbstract(c *canvas, r *rng) {
	W, H, M := c.dims()
	pal := pick(r, [][5]rgb{
		{hex(0xf4efe6), hex(0xe63946), hex(0x1d3557), hex(0x457b9d), hex(0xf1c453)},
		{hex(0x0b132b), hex(0x5bc0be), hex(0x3a506b), hex(0xf25f5c), hex(0xffe066)},
		{hex(0xfdf0d5), hex(0x780000), hex(0xc1121f), hex(0x003049), hex(0x669bbc)},
		{hex(0x1a1423), hex(0x3d314a), hex(0x684756), hex(0x96705b), hex(0xab8476)},
		{hex(0xe9f5db), hex(0x87986a), hex(0x718355), hex(0xcfe1b9), hex(0xb5c99a)},
	})
	switch r.IntN(3) {
	case 0: // geometry
		c.fill(pal[0])
		for range r.i(7, 12) {
			col := pal[1+r.IntN(4)]
			a := pick(r, []float64{1, 1, 0.85, 0.6})
			x, y, s := W*r.Float64(), H*r.Float64(), M*r.f(0.12, 0.45)
			switch r.IntN(5) {
			case 0:
				c.poly(a, col, circlePts(x, y, s/2))
			case 1:
				c.poly(a, col, rectPts(x, y, s, s*r.f(0.3, 1), pick(r, []float64{0, math.Pi / 4, r.f(0, math.Pi)})))
			case 2:
				a0 := pick(r, []float64{0, math.Pi / 2, math.Pi, 3 * math.Pi / 2})
				pts := []pt{{x, y}}
				for i := 0; i <= 32; i++ {
					sn, cs := math.Sincos(a0 + math.Pi*float64(i)/32)
					pts = append(pts, pt{x + cs*s/2, y + sn*s/2})
				}
				c.poly(a, col, pts)
			case 3:
				c.poly(a, col, []pt{{x, y - s/2}, {x + s/2, y + s/2}, {x - s/2, y + s/2}})
			default:
				c.poly(a, col, arcPts(x, y, s/2, s*0.12, r.f(0, math.Pi), r.f(math.Pi, 2*math.Pi)))
			}
		}
		for range r.i(1, 3) {
			c.poly(1, pal[2], linePts(pt{W * r.Float64(), 0}, pt{W * r.Float64(), H}, math.Max(1, M*0.01)))
		}
	case 1: // paper waves
		c.fill(pal[0])
		n := r.i(5, 8)
		for i := range n {
			t := float64(i) / float64(n)
			col := mix(pal[1+i%4], pal[1+(i+1)%4], 0.3)
			base := H * (0.12 + 0.85*t)
			c.glow(W/2, base, W, H*0.06, rgb{}, 0.12)
			c.poly(1, col, wavyBand(W, base, H*0.07, H+1, newWaves(r, 1.1)))
		}
	default: // colour mesh
		c.fill(pal[0])
		for range 5 {
			rad := M * r.f(0.6, 1)
			c.glow(W*r.Float64(), H*r.Float64(), rad*W/M*0.8, rad, pal[1+r.IntN(4)], 0.85)
		}
		for range 3 {
			c.shape(0.25, hex(0xffffff), ring(W*r.Float64(), H*r.Float64(), M*r.f(0.1, 0.4), math.Max(1, M*0.004))...)
		}
	}
	c.vignette(0.2)
}
