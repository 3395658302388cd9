package local

import "math"

// skyPalette is a sky with its light source and horizon haze.
type skyPalette struct {
	top, bottom, sun rgb
	cloud            rgb
}

var (
	skyDay    = skyPalette{hex(0x3f7fc9), hex(0xbfe0f5), hex(0xfff6d8), hex(0xffffff)}
	skySunset = skyPalette{hex(0x3b3f7a), hex(0xf7a35c), hex(0xffe2a8), hex(0xf6c3a0)}
	skyDawn   = skyPalette{hex(0x7d8fc7), hex(0xf6c7c0), hex(0xfff1e0), hex(0xfde9e6)}
	skyMist   = skyPalette{hex(0x8fa7b3), hex(0xdfe6e2), hex(0xffffff), hex(0xf2f4f2)}
	skyDusk   = skyPalette{hex(0x24193f), hex(0xe0637a), hex(0xffd29a), hex(0xb0708a)}
	skyGolden = skyPalette{hex(0xc8602a), hex(0xf8d37a), hex(0xfff3c4), hex(0xf9dca0)}
)

// sceneNature: a mountain landscape with layered ridges in aerial
// perspective, a sun, clouds and a foreground hill with fir trees.
func sceneNature(c *canvas, r *rng) {
	W, H, M := c.dims()
	sky := pick(r, []skyPalette{skyDay, skySunset, skyDawn, skyMist})
	greens := pick(r, [][3]rgb{
		{hex(0x5b7f6e), hex(0x2f5d46), hex(0x1d3b2a)},
		{hex(0x6f7f9a), hex(0x3d5a6c), hex(0x203a36)},
		{hex(0x8a8f6a), hex(0x4f6b3a), hex(0x2b4220)},
	})
	horizon := H * r.f(0.5, 0.62)
	c.vgrad(0, H, sky.top, sky.bottom, 0.9)
	sx, sy := W*r.f(0.15, 0.85), horizon-H*r.f(0.12, 0.35)
	c.sun(sx, sy, M*r.f(0.04, 0.07), sky.sun, 0.3)
	for range r.i(1, 4) {
		c.cloud(r, W*r.f(0, 1), H*r.f(0.08, 0.35), M*r.f(0.08, 0.16), sky.cloud, r.f(0.55, 0.85))
	}
	// Ridges from far (hazy, pale) to near (dark, saturated).
	layers := 3
	for i := range layers {
		t := float64(i) / float64(layers-1)
		col := mix(mix(sky.bottom, greens[0], 0.55), greens[1], t)
		base := horizon + H*0.06*float64(i)
		amp := H * (0.28 - 0.07*float64(i)) * r.f(0.7, 1.1)
		c.poly(1, col, ridge(0, W, base, amp, H, profile(r, 128, 0.55-0.05*float64(i))))
		c.glow(W/2, base, W*0.8, H*0.08, sky.bottom, 0.25*(1-t))
	}
	// Foreground hill with trees.
	hw := newWaves(r, 0.8)
	base := H * r.f(0.8, 0.88)
	amp := H * 0.05
	c.poly(1, greens[2], wavyBand(W, base, amp, H+1, hw))
	trees := int(W / M * float64(r.i(5, 12)))
	for range trees {
		t := r.Float64()
		x := W * t
		y := base + amp*hw.at(t) + M*0.01
		c.pine(x, y, M*r.f(0.1, 0.24), r.vary(shade(greens[2], 0.8), 6))
	}
	c.tint(H*0.85, H, shade(greens[2], 0.5), 0, 0.35)
	c.vignette(0.35)
}

// sceneTravel: a beach with sea, a palm tree and a sailing boat.
func sceneTravel(c *canvas, r *rng) {
	W, H, M := c.dims()
	sky := pick(r, []skyPalette{skyDay, skyGolden, skyDawn})
	seaFar, seaNear := hex(0x1f5f8b), hex(0x3fb7c4)
	if sky == skyGolden {
		seaFar, seaNear = hex(0x2b4a6b), hex(0x5c9aa8)
	}
	sand := pick(r, []rgb{hex(0xe9d3a6), hex(0xf0dcc0), hex(0xdcc08e)})
	horizon := H * r.f(0.42, 0.55)
	c.vgrad(0, horizon, sky.top, sky.bottom, 1.1)
	sx, sy := W*r.f(0.25, 0.75), horizon-H*r.f(0.08, 0.3)
	c.sun(sx, sy, M*r.f(0.035, 0.06), sky.sun, 0.3)
	for range r.i(1, 3) {
		c.cloud(r, W*r.f(0, 1), H*r.f(0.06, 0.25), M*r.f(0.07, 0.13), sky.cloud, r.f(0.6, 0.9))
	}
	// An island on the horizon.
	if r.chance(0.6) {
		ix, iw := W*r.f(0.1, 0.8), W*r.f(0.15, 0.35)
		prof := profile(r, 32, 0.5)
		pts := []pt{{ix, horizon + 1}}
		for i, v := range prof {
			t := float64(i) / float64(len(prof)-1)
			pts = append(pts, pt{ix + iw*t, horizon - H*0.05*v*math.Sin(math.Pi*t)})
		}
		pts = append(pts, pt{ix + iw, horizon + 1})
		c.poly(1, mix(sky.bottom, hex(0x3d6a5a), 0.5), pts)
	}
	c.vgrad(horizon, H, seaFar, seaNear, 0.8)
	// Glitter under the sun and long wave streaks.
	for i := range 18 {
		t := float64(i) / 18
		y := horizon + (H-horizon)*t*0.6
		w := M * (0.03 + 0.12*t) * r.f(0.5, 1.2)
		c.rect(sx-w/2+r.f(-1, 1)*w*0.3, y, sx+w/2, y+math.Max(1, M*0.004*(1+t)), sky.sun, 0.5*(1-t))
	}
	for range int(W / M * 30) {
		y := horizon + (H-horizon)*math.Pow(r.Float64(), 1.5)*0.8
		w := M * r.f(0.02, 0.12) * (y - horizon) / (H - horizon + 1)
		x := W * r.Float64()
		c.rect(x, y, x+w, y+math.Max(1, M*0.003), hex(0xffffff), 0.18)
	}
	// Boat.
	if r.chance(0.7) {
		bx, by, bs := W*r.f(0.2, 0.8), horizon+H*0.03, M*r.f(0.04, 0.07)
		c.poly(1, hex(0x2a2a33), []pt{{bx - bs*0.6, by}, {bx + bs*0.6, by}, {bx + bs*0.4, by + bs*0.18}, {bx - bs*0.4, by + bs*0.18}})
		c.poly(1, hex(0xfafafa), []pt{{bx, by - bs*1.3}, {bx + bs*0.55, by - bs*0.06}, {bx, by - bs*0.06}})
		c.poly(1, hex(0xe8e8e8), []pt{{bx - bs*0.05, by - bs*1.1}, {bx - bs*0.05, by - bs*0.06}, {bx - bs*0.5, by - bs*0.06}})
	}
	// Beach: wet sand, foam, dry sand.
	shore := newWaves(r, 0.7)
	base := H * r.f(0.74, 0.84)
	c.poly(1, shade(sand, 0.82), wavyBand(W, base-H*0.01, H*0.03, H+1, shore))
	c.poly(0.85, hex(0xffffff), wavyBand(W, base-H*0.012, H*0.03, base+H*0.008, shore))
	c.poly(1, sand, wavyBand(W, base+H*0.02, H*0.03, H+1, shore))
	c.tint(base, H, shade(sand, 1.15), 0, 0.25)
	// Palm tree on one side.
	left := r.chance(0.5)
	px := W * r.f(0.08, 0.22)
	if !left {
		px = W - px
	}
	lean := M * r.f(0.1, 0.25)
	if !left {
		lean = -lean
	}
	top := pt{px + lean, H * r.f(0.12, 0.25)}
	trunk := bezier(pt{px, H + 2}, pt{px + lean*0.1, (H + top.y) / 2}, top, 24)
	palm := hex(0x1f3b2a)
	c.poly(1, hex(0x5a4330), taper(trunk, M*0.045, M*0.022))
	for i := range r.i(6, 9) {
		a := -math.Pi + math.Pi*2*float64(i)/8 + r.f(-0.2, 0.2)
		l := M * r.f(0.2, 0.3)
		tip := pt{top.x + math.Cos(a)*l, top.y + math.Sin(a)*l*0.6 + l*0.35}
		ctrl := pt{top.x + math.Cos(a)*l*0.6, top.y + math.Sin(a)*l*0.5 - l*0.2}
		c.poly(1, r.vary(palm, 8), leaf(top, ctrl, tip, M*0.05))
	}
	for i := range 3 {
		c.poly(1, hex(0x4a3520), circlePts(top.x+M*0.015*float64(i-1), top.y+M*0.02, M*0.013))
	}
	c.vignette(0.25)
}

// sceneAnimals: animal silhouettes on a savanna at sunset, with an acacia
// tree and birds.
func sceneAnimals(c *canvas, r *rng) {
	W, H, M := c.dims()
	sky := pick(r, []skyPalette{skySunset, skyGolden, skyDusk})
	dark := pick(r, []rgb{hex(0x1b1410), hex(0x2a1a1e), hex(0x141a22)})
	ground := H * r.f(0.72, 0.8)
	c.vgrad(0, ground, sky.top, sky.bottom, 1.4)
	sx := W * r.f(0.2, 0.8)
	c.sun(sx, ground-H*r.f(0.05, 0.2), M*r.f(0.1, 0.16), sky.sun, 0.35)
	for range r.i(0, 2) {
		c.cloud(r, W*r.f(0, 1), H*r.f(0.1, 0.3), M*r.f(0.1, 0.18), sky.cloud, 0.35)
	}
	// Distant hills and the ground. The hills reach the bottom, so that
	// no pixel is left unpainted where the wavy ground dips.
	c.poly(1, mix(dark, sky.bottom, 0.45), ridge(0, W, ground, H*0.06, H+1, profile(r, 64, 0.5)))
	c.poly(1, dark, wavyBand(W, ground, H*0.012, H+1, newWaves(r, 1.2)))
	// Acacia.
	tx := W * pick(r, []float64{r.f(0.05, 0.25), r.f(0.75, 0.95)})
	th := M * r.f(0.3, 0.45)
	for _, dx := range []float64{-0.35, 0.05, 0.4} {
		c.poly(1, dark, taper(bezier(pt{tx, ground + 2}, pt{tx, ground - th*0.5}, pt{tx + th*dx, ground - th*0.9}, 10), M*0.03, M*0.01))
	}
	var canopy [][]pt
	for i := range 7 {
		t := float64(i)/6 - 0.5
		canopy = append(canopy, ellipsePts(tx+t*th*1.2, ground-th*(0.95+0.08*math.Cos(t*3)), th*0.28, th*0.08, 0))
	}
	c.poly(1, dark, canopy...)
	// Animals.
	n := r.i(1, 3)
	kind := r.IntN(3)
	for i := range n {
		s := M * r.f(0.16, 0.24) * (1 - 0.15*float64(i))
		x := W * (0.3 + 0.4*float64(i)/float64(max(n-1, 1))) * r.f(0.9, 1.1)
		if n == 1 {
			x = W * r.f(0.35, 0.65)
		}
		face := 1.0
		if r.chance(0.5) {
			face = -1
		}
		switch kind {
		case 0:
			giraffe(c, x, ground+M*0.005, s, face, dark)
		case 1:
			elephant(c, x, ground+M*0.005, s, face, dark)
		default:
			deer(c, x, ground+M*0.005, s, face, dark)
		}
	}
	for range r.i(2, 6) {
		c.bird(W*r.f(0.1, 0.9), H*r.f(0.08, 0.35), M*r.f(0.015, 0.03), dark)
	}
	c.vignette(0.3)
}

// giraffe draws a giraffe standing on y, s tall at the back, facing right
// when face > 0.
func giraffe(c *canvas, x, y, s, face float64, col rgb) {
	bx, by := x, y-s*0.95
	var parts [][]pt
	parts = append(parts, ellipsePts(bx, by, s*0.42, s*0.2, -0.12*face))
	for _, lx := range []float64{-0.3, -0.18, 0.2, 0.32} {
		parts = append(parts, taper([]pt{{bx + lx*s*face, by + s*0.05}, {bx + lx*s*face*1.05, y}}, s*0.07, s*0.04))
	}
	neckTop := pt{bx + face*s*0.55, by - s*0.95}
	parts = append(parts, taper([]pt{{bx + face*s*0.3, by - s*0.02}, neckTop}, s*0.2, s*0.08))
	parts = append(parts, ellipsePts(neckTop.x+face*s*0.1, neckTop.y+s*0.02, s*0.14, s*0.06, 0.5*face))
	parts = append(parts, taper([]pt{{neckTop.x, neckTop.y}, {neckTop.x - face*s*0.02, neckTop.y - s*0.1}}, s*0.025, s*0.02))
	parts = append(parts, taper([]pt{{bx - face*s*0.4, by - s*0.05}, {bx - face*s*0.5, by + s*0.35}}, s*0.03, s*0.015))
	c.poly(1, col, parts...)
}

// elephant draws an elephant standing on y.
func elephant(c *canvas, x, y, s, face float64, col rgb) {
	bx, by := x, y-s*0.62
	var parts [][]pt
	parts = append(parts, ellipsePts(bx, by, s*0.55, s*0.36, 0))
	for _, lx := range []float64{-0.38, -0.18, 0.18, 0.36} {
		parts = append(parts, taper([]pt{{bx + lx*s*face, by + s*0.1}, {bx + lx*s*face, y}}, s*0.17, s*0.15))
	}
	hx, hy := bx+face*s*0.58, by-s*0.12
	parts = append(parts, ellipsePts(hx, hy, s*0.25, s*0.27, 0))
	parts = append(parts, ellipsePts(hx-face*s*0.12, hy+s*0.02, s*0.17, s*0.24, 0.2*face))
	trunk := bezier(pt{hx + face*s*0.2, hy + s*0.05}, pt{hx + face*s*0.35, hy + s*0.35}, pt{hx + face*s*0.3, y - s*0.05}, 12)
	parts = append(parts, taper(trunk, s*0.14, s*0.06))
	parts = append(parts, taper([]pt{{bx - face*s*0.53, by - s*0.1}, {bx - face*s*0.6, by + s*0.25}}, s*0.03, s*0.015))
	c.poly(1, col, parts...)
}

// deer draws a stag standing on y.
func deer(c *canvas, x, y, s, face float64, col rgb) {
	bx, by := x, y-s*0.62
	var parts [][]pt
	parts = append(parts, ellipsePts(bx, by, s*0.36, s*0.16, 0))
	for _, lx := range []float64{-0.28, -0.2, 0.2, 0.28} {
		parts = append(parts, taper([]pt{{bx + lx*s*face, by + s*0.05}, {bx + lx*s*face*1.04, y}}, s*0.06, s*0.03))
	}
	nt := pt{bx + face*s*0.42, by - s*0.38}
	parts = append(parts, taper([]pt{{bx + face*s*0.24, by - s*0.02}, nt}, s*0.15, s*0.08))
	parts = append(parts, ellipsePts(nt.x+face*s*0.07, nt.y+s*0.02, s*0.11, s*0.05, 0.45*face))
	parts = append(parts, ellipsePts(nt.x-face*s*0.04, nt.y-s*0.04, s*0.06, s*0.02, -0.6*face))
	for _, d := range []float64{-1, 1} {
		a0 := pt{nt.x + d*s*0.02, nt.y - s*0.03}
		tip := pt{nt.x + d*s*0.18 - face*s*0.05, nt.y - s*0.38}
		parts = append(parts, taper(bezier(a0, pt{a0.x + d*s*0.15, a0.y - s*0.1}, tip, 8), s*0.025, s*0.01))
		mid := bezier(a0, pt{a0.x + d*s*0.15, a0.y - s*0.1}, tip, 8)[4]
		parts = append(parts, taper([]pt{mid, {mid.x + face*s*0.08, mid.y - s*0.1}}, s*0.02, s*0.008))
	}
	parts = append(parts, ellipsePts(bx-face*s*0.36, by-s*0.06, s*0.05, s*0.03, 0))
	c.poly(1, col, parts...)
}

// sceneSports: a football pitch from above, a running track, or a
// basketball court, each with its ball or lines.
func sceneSports(c *canvas, r *rng) {
	switch r.IntN(3) {
	case 0:
		sportsPitch(c, r)
	case 1:
		sportsTrack(c, r)
	default:
		sportsCourt(c, r)
	}
	c.vignette(0.3)
}

func sportsPitch(c *canvas, r *rng) {
	W, H, M := c.dims()
	g1, g2 := hex(0x3f8f3a), hex(0x4ea447)
	c.fill(g1)
	n := r.i(8, 12)
	for i := 0; i < n; i += 2 {
		c.rect(W*float64(i)/float64(n), 0, W*float64(i+1)/float64(n), H, g2, 1)
	}
	white := hex(0xf4f6f0)
	lw := math.Max(1.5, M*0.008)
	m := M * 0.06
	var lines [][]pt
	lines = append(lines, frame(m, m, W-m, H-m, lw)...)
	lines = append(lines, rectPts(W/2, H/2, lw, H-2*m, 0))
	lines = append(lines, ring(W/2, H/2, M*0.16, lw)...)
	boxH, boxW := (H-2*m)*0.55, (W-2*m)*0.14
	lines = append(lines, frame(m, H/2-boxH/2, m+boxW, H/2+boxH/2, lw)...)
	lines = append(lines, frame(W-m-boxW, H/2-boxH/2, W-m, H/2+boxH/2, lw)...)
	c.shape(0.9, white, lines...)
	c.poly(1, white, circlePts(W/2, H/2, lw*1.5))
	ball(c, W*r.f(0.25, 0.75), H*r.f(0.3, 0.7), M*r.f(0.05, 0.08), r.f(0, math.Pi))
}

// ball draws a football with its pentagon pattern.
func ball(c *canvas, x, y, rad, rot float64) {
	c.glow(x+rad*0.4, y+rad*0.5, rad*1.6, rad*1.2, rgb{}, 0.45)
	c.poly(1, hex(0xf8f8f8), circlePts(x, y, rad))
	pent := func(cx, cy, s, a float64) []pt {
		pts := make([]pt, 5)
		for i := range pts {
			sn, cs := math.Sincos(a + 2*math.Pi*float64(i)/5)
			pts[i] = pt{cx + cs*s, cy + sn*s}
		}
		return pts
	}
	dark := hex(0x1c1c1c)
	parts := [][]pt{pent(x, y, rad*0.32, rot)}
	for i := range 5 {
		sn, cs := math.Sincos(rot + math.Pi/5 + 2*math.Pi*float64(i)/5)
		parts = append(parts, pent(x+cs*rad*0.8, y+sn*rad*0.8, rad*0.18, rot+math.Pi/5+2*math.Pi*float64(i)/5))
	}
	c.poly(1, dark, parts...)
	c.glow(x-rad*0.35, y-rad*0.4, rad*0.6, rad*0.5, hex(0xffffff), 0.5)
}

func sportsTrack(c *canvas, r *rng) {
	W, H, M := c.dims()
	c.fill(hex(0x4a9a48))
	cx, cy := -W*r.f(0.05, 0.3), H*r.f(1.1, 1.5)
	r0 := math.Hypot(W*0.3-cx, H*0.7-cy)
	lane := M * 0.09
	track := hex(0xc4553a)
	c.shape(1, track, ring(cx, cy, r0+lane*4, lane*8)...)
	white := hex(0xf5f2ec)
	lw := math.Max(1.2, M*0.005)
	var lines [][]pt
	for i := 0; i <= 8; i++ {
		lines = append(lines, ring(cx, cy, r0+lane*float64(i), lw)...)
	}
	c.shape(0.9, white, lines...)
	// Start line and lane numbers across the lanes.
	a := math.Atan2(H*0.5-cy, W*0.6-cx)
	sn, cs := math.Sincos(a)
	c.poly(0.95, white, linePts(pt{cx + cs*r0, cy + sn*r0}, pt{cx + cs*(r0+lane*8), cy + sn*(r0+lane*8)}, lw*3))
	c.tint(0, H, hex(0xfff2dd), 0.05, 0)
}

func sportsCourt(c *canvas, r *rng) {
	W, H, M := c.dims()
	wood := pick(r, []rgb{hex(0xd9a86c), hex(0xe2b57e), hex(0xc9955b)})
	c.fill(wood)
	plank := math.Max(4, M*0.035)
	for x, i := 0.0, 0; x < W; x, i = x+plank, i+1 {
		c.rect(x, 0, x+plank, H, r.vary(wood, 7), 1)
		c.rect(x, 0, x+math.Max(1, plank*0.04), H, shade(wood, 0.8), 0.5)
	}
	paint := pick(r, []rgb{hex(0x2c5aa0), hex(0xa0302c), hex(0x2f7a4a)})
	white := hex(0xfbfbf8)
	lw := math.Max(1.5, M*0.007)
	bx := W * 0.5
	keyW, keyH := M*0.38, M*0.55
	c.rect(bx-keyW/2, H-keyH, bx+keyW/2, H, paint, 0.85)
	var lines [][]pt
	lines = append(lines, frame(bx-keyW/2, H-keyH, bx+keyW/2, H+lw*4, lw)...)
	lines = append(lines, ring(bx, H-keyH, keyW/2, lw)...)
	lines = append(lines, arcPts(bx, H-M*0.08, M*0.75, lw, math.Pi, 2*math.Pi))
	c.shape(0.95, white, lines...)
	// Ball with seams.
	x, y, rad := W*r.f(0.2, 0.8), H*r.f(0.2, 0.45), M*r.f(0.06, 0.09)
	c.glow(x+rad*0.3, y+rad*0.5, rad*1.5, rad*1.1, rgb{}, 0.4)
	c.poly(1, hex(0xd86a1e), circlePts(x, y, rad))
	seam := math.Max(1, rad*0.05)
	dark := hex(0x2a1a10)
	c.poly(1, dark, linePts(pt{x - rad, y}, pt{x + rad, y}, seam), linePts(pt{x, y - rad}, pt{x, y + rad}, seam))
	c.poly(1, dark, arcPts(x-rad*1.25, y, rad*0.95, seam, -0.8, 0.8), arcPts(x+rad*1.25, y, rad*0.95, seam, math.Pi-0.8, math.Pi+0.8))
	c.glow(x-rad*0.35, y-rad*0.4, rad*0.6, rad*0.5, hex(0xffffff), 0.35)
}
