package local

import "math"

// sceneArchitecture: a city skyline in two rows, the front one with
// window grids, by day, at dusk or at night.
func sceneArchitecture(c *canvas, r *rng) {
	W, H, M := c.dims()
	type pal struct {
		sky       skyPalette
		back, bld rgb
		lit, dark rgb
		litP      float64
	}
	p := pick(r, []pal{
		{skyDay, hex(0x9fb4c8), hex(0x50647a), hex(0xcfe3f2), hex(0x34455a), 0.45},
		{skyDusk, hex(0x5b4a6e), hex(0x2a2436), hex(0xffd27a), hex(0x1d1827), 0.5},
		{skyPalette{hex(0x070b1e), hex(0x27375f), hex(0xf3f0e0), hex(0x3a4a70)}, hex(0x1c2440), hex(0x10152a), hex(0xffcf6b), hex(0x0b0f1f), 0.35},
		{skySunset, hex(0xb07a74), hex(0x45384a), hex(0xffe0a3), hex(0x2e2634), 0.3},
	})
	ground := H * r.f(0.86, 0.92)
	c.vgrad(0, ground, p.sky.top, p.sky.bottom, 1.2)
	c.sun(W*r.f(0.2, 0.8), H*r.f(0.15, 0.4), M*r.f(0.03, 0.05), p.sky.sun, 0.25)
	// Back row: plain hazy blocks.
	for x := -W * 0.02; x < W; {
		bw := W * r.f(0.04, 0.1)
		bh := H * r.f(0.2, 0.5)
		c.rect(x, ground-bh, x+bw, ground, r.vary(p.back, 6), 1)
		if r.chance(0.3) {
			c.rect(x+bw*0.45, ground-bh-H*0.05, x+bw*0.5, ground-bh, p.back, 1)
		}
		x += bw * r.f(0.85, 1.1)
	}
	c.tint(0, ground, p.sky.bottom, 0, 0.25)
	// Front row with windows.
	cell := math.Max(3, M*r.f(0.018, 0.026))
	for x := -W * r.f(0, 0.05); x < W; {
		bw := W * r.f(0.09, 0.2)
		bh := H * r.f(0.3, 0.78)
		col := r.vary(p.bld, 8)
		top := ground - bh
		if r.chance(0.35) { // setback crown
			sw := bw * r.f(0.5, 0.7)
			sx := x + (bw-sw)/2
			c.rect(sx, top-bh*0.12, sx+sw, top, col, 1)
			if r.chance(0.6) {
				c.rect(sx+sw/2-math.Max(1, M*0.002), top-bh*0.25, sx+sw/2+math.Max(1, M*0.002), top-bh*0.12, col, 1)
			}
		}
		c.rect(x, top, x+bw, ground, col, 1)
		// Windows.
		cols := int((bw - cell) / cell)
		rows := int((bh - cell*1.5) / cell)
		ww, wh := cell*0.55, cell*0.6
		litP := p.litP * r.f(0.5, 1.2)
		for j := range rows {
			y := top + cell + float64(j)*cell
			for i := range cols {
				wx := x + cell*0.7 + float64(i)*cell
				wc, a := p.dark, 0.9
				if r.chance(litP) {
					wc, a = r.vary(p.lit, 10), 0.95
				}
				c.rect(wx, y, wx+ww, y+wh, wc, a)
			}
		}
		// Shaded side.
		c.rect(x+bw*0.72, top, x+bw, ground, rgb{}, 0.22)
		x += bw + W*r.f(0.0, 0.03)
	}
	c.rect(0, ground, W, H, shade(p.bld, 0.5), 1)
	c.tint(ground, H, rgb{}, 0.1, 0.5)
	c.vignette(0.3)
}

// sceneRealEstate: a detached family house with a gable roof, lawn, path,
// bushes and a for-sale sign.
func sceneRealEstate(c *canvas, r *rng) {
	W, H, M := c.dims()
	sky := pick(r, []skyPalette{skyDay, skyDawn, skyGolden})
	siding := pick(r, []rgb{hex(0xf2efe8), hex(0xd9e2e6), hex(0xe8d8c0), hex(0xc6d3c4), hex(0xb8c4d6)})
	roof := pick(r, []rgb{hex(0x4a4f58), hex(0x7a3d32), hex(0x3b4a5a), hex(0x5a4a40)})
	accent := pick(r, []rgb{hex(0x2f4f6f), hex(0x8a2f2f), hex(0x2f5a3f), hex(0x333333)})
	lawn := pick(r, []rgb{hex(0x5e9a45), hex(0x6da552), hex(0x4f8a3e)})
	ground := H * r.f(0.74, 0.8)
	c.vgrad(0, ground, sky.top, sky.bottom, 1)
	for range r.i(1, 3) {
		c.cloud(r, W*r.f(0, 1), H*r.f(0.08, 0.25), M*r.f(0.07, 0.12), sky.cloud, 0.85)
	}
	// Trees behind.
	for range int(W / M * 4) {
		c.roundTree(r, W*r.f(0, 1), ground+M*0.02, M*r.f(0.3, 0.5), r.vary(shade(lawn, 0.6), 8), hex(0x4a3a2a))
	}
	c.vgrad(ground, H, shade(lawn, 0.9), lawn, 1)
	hw := math.Min(W*0.56, M*1.1)
	x0 := W/2 - hw/2 + W*r.f(-0.08, 0.08)
	x1 := x0 + hw
	bodyH := M * r.f(0.3, 0.36)
	top := ground - bodyH
	roofH := bodyH * r.f(0.6, 0.8)
	mid := (x0 + x1) / 2
	// Chimney, then roof over it.
	cx := x0 + hw*r.f(0.6, 0.75)
	c.rect(cx, top-roofH*0.85, cx+hw*0.06, top-roofH*0.3, shade(roof, 1.2), 1)
	c.rect(x0, top, x1, ground, siding, 1)
	for y := top + M*0.02; y < ground; y += math.Max(3, M*0.014) {
		c.rect(x0, y, x1, y+math.Max(1, M*0.002), rgb{}, 0.07)
	}
	over := hw * 0.05
	c.poly(1, roof, []pt{{x0 - over, top + M*0.01}, {mid, top - roofH}, {x1 + over, top + M*0.01}})
	c.poly(1, shade(roof, 0.7), []pt{{x0 - over, top + M*0.01}, {x1 + over, top + M*0.01}, {x1 + over, top + M*0.025}, {x0 - over, top + M*0.025}})
	// Gable window.
	c.poly(1, hex(0xffffff), circlePts(mid, top-roofH*0.38, roofH*0.16))
	c.poly(1, hex(0x5f7f99), circlePts(mid, top-roofH*0.38, roofH*0.12))
	// Door and windows.
	dw, dh := hw*0.11, bodyH*0.5
	dx := mid - dw/2
	c.rect(dx-M*0.008, ground-dh-M*0.008, dx+dw+M*0.008, ground, hex(0xfafafa), 1)
	c.rect(dx, ground-dh, dx+dw, ground, accent, 1)
	c.poly(1, hex(0xd4b25a), circlePts(dx+dw*0.8, ground-dh*0.45, math.Max(1, M*0.006)))
	win := func(wx, wy, ww, wh float64) {
		c.rect(wx-ww*0.28, wy, wx-ww*0.05, wy+wh, accent, 1)
		c.rect(wx+ww*1.05, wy, wx+ww*1.28, wy+wh, accent, 1)
		c.rect(wx-M*0.006, wy-M*0.006, wx+ww+M*0.006, wy+wh+M*0.006, hex(0xfbfbfb), 1)
		c.rectV(wx, wy, wx+ww, wy+wh, mix(sky.top, hex(0xffffff), 0.3), shade(sky.bottom, 0.7), 1)
		bar := math.Max(1, M*0.004)
		c.rect(wx+ww/2-bar/2, wy, wx+ww/2+bar/2, wy+wh, hex(0xfbfbfb), 1)
		c.rect(wx, wy+wh/2-bar/2, wx+ww, wy+wh/2+bar/2, hex(0xfbfbfb), 1)
	}
	ww, wh := hw*0.12, bodyH*0.32
	for _, t := range []float64{0.14, 0.74} {
		win(x0+hw*t, top+bodyH*0.25, ww, wh)
	}
	// Path, steps and bushes.
	c.poly(1, hex(0xcfc6b8), []pt{{dx - dw*0.1, ground}, {dx + dw*1.1, ground}, {mid + dw*1.6, H + 1}, {mid - dw*1.6, H + 1}})
	c.rect(dx-dw*0.2, ground-M*0.006, dx+dw*1.2, ground+M*0.012, hex(0xbdb5a8), 1)
	for _, side := range []float64{-1, 1} {
		var bush [][]pt
		for i := range 5 {
			bx := mid + side*(dw*1.2+float64(i)*hw*0.08)
			bush = append(bush, circlePts(bx, ground-M*0.01, M*r.f(0.03, 0.045)))
		}
		bc := r.vary(shade(lawn, 0.7), 6)
		c.poly(1, bc, bush...)
		for range 8 {
			c.poly(1, pick(r, []rgb{hex(0xf2d0e0), hex(0xffffff), hex(0xf4c542)}), circlePts(mid+side*(dw*1.2+r.f(0, hw*0.35)), ground-M*r.f(0.005, 0.04), math.Max(1, M*0.005)))
		}
	}
	// For-sale sign.
	sx := W * pick(r, []float64{0.12, 0.88})
	sy := ground + (H-ground)*0.55
	sw, sh := M*0.16, M*0.07
	c.rect(sx-M*0.004, sy-sh*1.6, sx+M*0.004, sy, hex(0x3a3a3a), 1)
	c.rect(sx-sw/2, sy-sh*1.9, sx+sw/2, sy-sh*0.9, hex(0xfafafa), 1)
	c.rect(sx-sw/2, sy-sh*1.9, sx+sw/2, sy-sh*1.72, hex(0xc0392b), 1)
	if px := math.Floor(sw / 8 / advance); px >= 1 {
		tw := 8 * advance * px
		c.text(c.font, "FOR SALE", sx-tw/2+px/2, sy-sh*1.62, px, hex(0xc0392b), 1)
	}
	c.vignette(0.25)
}

// sceneExterior: a modern flat-roofed villa of offset boxes with large
// glass fronts, wood cladding, a pool and trees.
func sceneExterior(c *canvas, r *rng) {
	W, H, M := c.dims()
	sky := pick(r, []skyPalette{skyDay, skyGolden, skyDusk})
	wall := pick(r, []rgb{hex(0xf1f0ec), hex(0xe2ded6), hex(0xd0d3d6)})
	wood := pick(r, []rgb{hex(0x9a6a44), hex(0x7a5236), hex(0xb07c52)})
	lawn := pick(r, []rgb{hex(0x5d8f4a), hex(0x6f9a55)})
	ground := H * r.f(0.68, 0.74)
	c.vgrad(0, ground, sky.top, sky.bottom, 1)
	c.sun(W*r.f(0.1, 0.9), H*r.f(0.1, 0.3), M*0.04, sky.sun, 0.2)
	// Tree line.
	var line [][]pt
	for x := -M * 0.05; x < W+M*0.05; x += M * 0.06 {
		line = append(line, circlePts(x, ground-M*r.f(0.02, 0.1), M*r.f(0.05, 0.09)))
	}
	c.poly(1, mix(shade(lawn, 0.55), sky.bottom, 0.25), line...)
	c.vgrad(ground, H, shade(lawn, 0.85), lawn, 1)
	light := sky == skyDusk
	glass := func(x0, y0, x1, y1 float64) {
		top, bot := hex(0x2b3a48), hex(0x4f6878)
		if light {
			top, bot = hex(0xf0b968), hex(0xc98a48)
		}
		c.rectV(x0, y0, x1, y1, top, bot, 1)
		c.poly(0.14, hex(0xffffff), []pt{{x0 + (x1-x0)*0.2, y0}, {x0 + (x1-x0)*0.45, y0}, {x0 + (x1-x0)*0.15, y1}, {x0 - (x1-x0)*0.1, y1}})
		for i := 1; i < 4; i++ {
			x := x0 + (x1-x0)*float64(i)/4
			c.rect(x-math.Max(1, M*0.002), y0, x+math.Max(1, M*0.002), y1, hex(0x1e2328), 1)
		}
	}
	hw := math.Min(W*0.7, M*1.3)
	x0 := W/2 - hw/2 + W*r.f(-0.06, 0.06)
	floor := M * r.f(0.15, 0.19)
	g := ground + M*0.02
	// Ground floor box.
	c.rect(x0, g-floor, x0+hw*0.7, g, wall, 1)
	glass(x0+hw*0.05, g-floor*0.85, x0+hw*0.45, g)
	c.rect(x0+hw*0.48, g-floor, x0+hw*0.7, g, wood, 1)
	for x := x0 + hw*0.48; x < x0+hw*0.7; x += math.Max(3, M*0.012) {
		c.rect(x, g-floor, x+math.Max(1, M*0.002), g, shade(wood, 0.7), 1)
	}
	// Upper box, cantilevered.
	ux0, ux1 := x0+hw*0.3, x0+hw
	c.rect(ux0, g-floor*2.05, ux1, g-floor, wall, 1)
	c.rect(ux0, g-floor, ux1, g-floor+M*0.01, rgb{}, 0.25)
	glass(ux0+hw*0.08, g-floor*1.85, ux1-hw*0.05, g-floor*1.15)
	c.rect(x0+hw*0.7, g-floor*0.9, ux1-hw*0.02, g, shade(wall, 0.55), 1) // shade under the overhang
	glass(x0+hw*0.74, g-floor*0.8, ux1-hw*0.06, g)
	// Roof slabs.
	c.rect(ux0-hw*0.02, g-floor*2.12, ux1+hw*0.02, g-floor*2.04, hex(0x2a2c30), 1)
	c.rect(x0-hw*0.02, g-floor*1.06, x0+hw*0.3, g-floor*0.98, hex(0x2a2c30), 1)
	// Pool and terrace.
	py := g + (H-g)*0.25
	c.rect(x0-hw*0.05, g, x0+hw*0.9, py+(H-g)*0.05, hex(0xd8d2c6), 1)
	px0, px1 := x0+hw*0.05, x0+hw*0.75
	py1 := math.Min(H-M*0.02, py+(H-g)*0.5)
	c.rectV(px0, py, px1, py1, hex(0x2aa6c6), hex(0x6fd6e6), 1)
	for range 14 {
		y := r.f(py, py1)
		x := r.f(px0, px1)
		c.rect(x, y, math.Min(x+M*r.f(0.02, 0.08), px1), y+math.Max(1, M*0.003), hex(0xffffff), 0.3)
	}
	c.shape(1, hex(0xf2efe8), frame(px0, py, px1, py1, M*0.01)...)
	// Trees at the sides.
	for _, t := range []float64{r.f(0.02, 0.12), r.f(0.88, 0.98)} {
		c.roundTree(r, W*t, g+M*0.02, M*r.f(0.4, 0.6), r.vary(shade(lawn, 0.7), 8), hex(0x4a3a2a))
	}
	if light {
		c.glow(x0+hw*0.3, g-floor*0.5, hw*0.5, floor*1.2, hex(0xffc070), 0.2)
	}
	c.vignette(0.25)
}

// sceneInterior: a living room with a window, sofa, art, lamp, plant and
// rug on a wooden floor.
func sceneInterior(c *canvas, r *rng) {
	W, H, M := c.dims()
	wallC := pick(r, []rgb{hex(0xe8e2d6), hex(0xc9d4c5), hex(0xd7dde3), hex(0xe9d9cf), hex(0x9fb0a6)})
	woodC := pick(r, []rgb{hex(0xb58657), hex(0x9c6e45), hex(0xc9a27a)})
	sofaC := pick(r, []rgb{hex(0x3e5a73), hex(0x7c8a6a), hex(0xb5654a), hex(0x8a8a8a), hex(0xc9b79c)})
	floorY := H * r.f(0.68, 0.74)
	c.vgrad(0, floorY, shade(wallC, 1.08), shade(wallC, 0.92), 1)
	// Floor planks.
	c.rect(0, floorY, W, H, woodC, 1)
	ph := math.Max(3, (H-floorY)/r.f(6, 9))
	for y, row := floorY, 0; y < H; y, row = y+ph, row+1 {
		c.rect(0, y, W, y+ph, r.vary(woodC, 8), 1)
		c.rect(0, y, W, y+math.Max(1, M*0.002), shade(woodC, 0.7), 1)
		off := float64(row%3) * W * 0.13
		for x := off; x < W; x += W * 0.38 {
			c.rect(x, y, x+math.Max(1, M*0.002), y+ph, shade(woodC, 0.7), 1)
		}
	}
	c.tint(floorY, H, rgb{}, 0.15, 0)
	c.rect(0, floorY-M*0.025, W, floorY, hex(0xf4f1ea), 1)
	// Window with light falling in.
	left := r.chance(0.5)
	wx0 := W * 0.06
	if !left {
		wx0 = W*0.94 - M*0.42
	}
	wx1, wy0, wy1 := wx0+M*0.42, H*0.1, floorY-H*0.14
	c.rect(wx0-M*0.012, wy0-M*0.012, wx1+M*0.012, wy1+M*0.012, hex(0xfafafa), 1)
	c.rectV(wx0, wy0, wx1, wy1, hex(0x8ec3ea), hex(0xe3f1f8), 1)
	c.poly(1, hex(0x9cc28a), ridge(wx0, wx1-wx0, wy1-(wy1-wy0)*0.1, (wy1-wy0)*0.25, wy1, profile(r, 16, 0.5)))
	bar := math.Max(1, M*0.008)
	c.rect((wx0+wx1)/2-bar/2, wy0, (wx0+wx1)/2+bar/2, wy1, hex(0xfafafa), 1)
	c.rect(wx0, (wy0+wy1)/2-bar/2, wx1, (wy0+wy1)/2+bar/2, hex(0xfafafa), 1)
	c.poly(0.08, hex(0xfff8e0), []pt{{wx0, wy1}, {wx1, wy1}, {wx1 + M*0.25, H}, {wx0 + M*0.25, H}})
	// Sofa, opposite the window.
	sw := math.Min(W*0.5, M*0.95)
	sx0 := W*0.94 - sw
	if !left {
		sx0 = W * 0.06
	}
	sx1 := sx0 + sw
	seat := floorY + (H-floorY)*0.2
	sh := M * 0.26
	// Art above the sofa.
	ax0, ax1 := sx0+sw*0.25, sx1-sw*0.25
	ay0, ay1 := seat-sh-M*0.32, seat-sh-M*0.06
	c.rect(ax0-M*0.01, ay0-M*0.01, ax1+M*0.01, ay1+M*0.01, hex(0x2b2b2b), 1)
	c.rect(ax0, ay0, ax1, ay1, hex(0xf7f5f0), 1)
	artPal := []rgb{hex(0xe07a5f), hex(0x3d405b), hex(0x81b29a), hex(0xf2cc8f)}
	c.rect(ax0+(ax1-ax0)*0.1, ay0+(ay1-ay0)*0.15, ax0+(ax1-ax0)*0.55, ay1-(ay1-ay0)*0.15, pick(r, artPal), 1)
	c.poly(0.9, pick(r, artPal), circlePts(ax0+(ax1-ax0)*0.65, ay0+(ay1-ay0)*0.45, (ay1-ay0)*0.25))
	// Rug and shadow.
	c.poly(1, pick(r, []rgb{hex(0xe9e1d3), hex(0xb8a48a), hex(0x5a6b7a)}), ellipsePts((sx0+sx1)/2, seat+(H-seat)*0.55, sw*0.55, (H-seat)*0.35, 0))
	c.glow((sx0+sx1)/2, seat+M*0.01, sw*0.6, M*0.05, rgb{}, 0.35)
	// Sofa: back, seat, cushions, arms, legs.
	rad := M * 0.03
	c.rect(sx0+sw*0.08, seat-M*0.005, sx0+sw*0.08+M*0.015, seat+M*0.03, hex(0x3a2a1a), 1)
	c.rect(sx1-sw*0.08-M*0.015, seat-M*0.005, sx1-sw*0.08, seat+M*0.03, hex(0x3a2a1a), 1)
	c.poly(1, shade(sofaC, 0.85), roundRectPts(sx0+sw*0.05, seat-sh, sx1-sw*0.05, seat-sh*0.35, rad))
	c.poly(1, sofaC, roundRectPts(sx0+sw*0.06, seat-sh*0.45, sx1-sw*0.06, seat, rad))
	for i := range 3 {
		cx0 := sx0 + sw*0.1 + float64(i)*sw*0.27
		c.poly(1, shade(sofaC, 1.1), roundRectPts(cx0, seat-sh*0.47, cx0+sw*0.26, seat-sh*0.3, rad*0.6))
	}
	c.poly(1, shade(sofaC, 0.92), roundRectPts(sx0, seat-sh*0.65, sx0+sw*0.09, seat, rad))
	c.poly(1, shade(sofaC, 0.92), roundRectPts(sx1-sw*0.09, seat-sh*0.65, sx1, seat, rad))
	c.poly(1, pick(r, artPal), rectPts(sx0+sw*0.25, seat-sh*0.55, sw*0.12, sw*0.12, 0.15))
	// Floor lamp beside the sofa and a plant on the far side.
	lx := sx1 + M*0.08
	if !left {
		lx = sx0 - M*0.08
	}
	if lx > M*0.05 && lx < W-M*0.05 {
		ly := seat - sh - M*0.2
		c.glow(lx, ly+M*0.02, M*0.3, M*0.3, hex(0xffe2a0), 0.35)
		c.rect(lx-math.Max(1, M*0.004), ly, lx+math.Max(1, M*0.004), seat+M*0.03, hex(0x2b2b2b), 1)
		c.poly(1, hex(0x2b2b2b), ellipsePts(lx, seat+M*0.03, M*0.05, M*0.012, 0))
		c.poly(1, hex(0xf3e6c8), []pt{{lx - M*0.04, ly - M*0.1}, {lx + M*0.04, ly - M*0.1}, {lx + M*0.07, ly + M*0.02}, {lx - M*0.07, ly + M*0.02}})
	}
	px := sx0 - M*0.12
	if !left {
		px = sx1 + M*0.12
	}
	if px > M*0.06 && px < W-M*0.06 {
		py := seat + M*0.03
		plant(c, r, px, py, M*0.45)
	}
	c.vignette(0.3)
}

// plant draws a potted plant standing at (x, y), h tall.
func plant(c *canvas, r *rng, x, y, h float64) {
	pot := pick(r, []rgb{hex(0xc96f4a), hex(0xe8e4dc), hex(0x3a3f44)})
	green := pick(r, []rgb{hex(0x3f7a4a), hex(0x2f6a3f), hex(0x5a8a4a)})
	for range 11 {
		a := -math.Pi/2 + r.f(-1.1, 1.1)
		l := h * r.f(0.45, 0.75)
		base := pt{x, y - h*0.22}
		tip := pt{x + math.Cos(a)*l, base.y + math.Sin(a)*l}
		ctrl := pt{x + math.Cos(a)*l*0.3, base.y + math.Sin(a)*l*0.7}
		c.poly(1, r.vary(green, 12), leaf(base, ctrl, tip, h*0.1))
	}
	c.poly(1, pot, []pt{{x - h*0.14, y - h*0.25}, {x + h*0.14, y - h*0.25}, {x + h*0.1, y}, {x - h*0.1, y}})
	c.rect(x-h*0.15, y-h*0.27, x+h*0.15, y-h*0.23, shade(pot, 0.85), 1)
}
