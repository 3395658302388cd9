package local

import (
	"math"
	"slices"
)

// person is the look of one head-and-shoulders figure.
type person struct {
	skin, hair, shirt rgb
	style             int // hair style: 0 short, 1 long, 2 bun, 3 curly, 4 bald
	collar            bool
}

var (
	skinTones  = []rgb{hex(0xf3d2b8), hex(0xe8b994), hex(0xd39a72), hex(0xb07650), hex(0x8a5a3c), hex(0x5e3d2b)}
	hairColors = []rgb{hex(0x1f1a17), hex(0x3b2a20), hex(0x5a3b25), hex(0x8a5a2e), hex(0xc9a35e), hex(0xa0a0a0), hex(0x7a2e1e)}
	shirtCols  = []rgb{hex(0x2f4f6f), hex(0xc0504d), hex(0x4a7a5a), hex(0xe0b040), hex(0x6a4c93), hex(0x2a9d8f), hex(0xf4a261), hex(0x3d3d3d), hex(0xe9e6df)}
)

func randomPerson(r *rng) person {
	p := person{
		skin:   pick(r, skinTones),
		hair:   pick(r, hairColors),
		shirt:  pick(r, shirtCols),
		style:  r.IntN(5),
		collar: r.chance(0.4),
	}
	// Hair must stand out from the face, and the collar from the skin.
	for i := 0; tooClose(p.hair, p.skin, 120) && i < len(hairColors); i++ {
		p.hair = hairColors[(slices.Index(hairColors, p.hair)+1)%len(hairColors)]
	}
	if tooClose(p.hair, p.skin, 120) {
		p.hair = shade(p.skin, 0.45)
	}
	if tooClose(p.shirt, p.skin, 90) {
		p.shirt = shade(p.shirt, 0.55)
	}
	return p
}

// figure draws a head-and-shoulders figure whose head (radius hr) is
// centred at (x, y); the shoulders run down past y + 5*hr.
func figure(c *canvas, x, y, hr float64, p person) {
	skinShade := shade(p.skin, 0.86)
	// Long hair falls behind the shoulders.
	if p.style == 1 {
		c.poly(1, p.hair, roundRectPts(x-hr*1.08, y-hr*0.9, x+hr*1.08, y+hr*2.1, hr*0.9))
	}
	// Torso with rounded shoulders.
	c.poly(1, p.shirt, roundRectPts(x-hr*2.2, y+hr*1.55, x+hr*2.2, y+hr*6, hr*1.1))
	c.glow(x, y+hr*6, hr*2.6, hr*3, shade(p.shirt, 0.6), 0.35)
	// Neck with the shadow of the chin.
	c.poly(1, skinShade, roundRectPts(x-hr*0.4, y+hr*0.5, x+hr*0.4, y+hr*1.8, hr*0.3))
	c.poly(1, skinShade, []pt{{x - hr*0.42, y + hr*1.55}, {x + hr*0.42, y + hr*1.55}, {x, y + hr*2.2}})
	if p.collar {
		c.poly(1, shade(p.shirt, 1.35), []pt{{x - hr*0.5, y + hr*1.5}, {x, y + hr*2.25}, {x - hr*0.15, y + hr*2.4}, {x - hr*0.75, y + hr*1.65}})
		c.poly(1, shade(p.shirt, 1.35), []pt{{x + hr*0.5, y + hr*1.5}, {x, y + hr*2.25}, {x + hr*0.15, y + hr*2.4}, {x + hr*0.75, y + hr*1.65}})
	}
	// Ears and head.
	c.poly(1, skinShade, ellipsePts(x-hr*0.8, y+hr*0.1, hr*0.16, hr*0.24, 0), ellipsePts(x+hr*0.8, y+hr*0.1, hr*0.16, hr*0.24, 0))
	c.poly(1, p.skin, ellipsePts(x, y, hr*0.8, hr, 0))
	c.glow(x-hr*0.25, y-hr*0.3, hr*0.6, hr*0.6, shade(p.skin, 1.12), 0.4)
	// Hair on top.
	switch p.style {
	case 0, 1, 2:
		c.poly(1, p.hair, hairCap(x, y, hr, p.style == 1))
		if p.style == 2 {
			c.poly(1, p.hair, circlePts(x, y-hr*1.15, hr*0.42))
		}
	case 3:
		var curls [][]pt
		for i := range 11 {
			a := math.Pi + math.Pi*float64(i)/10
			s, co := math.Sincos(a)
			curls = append(curls, circlePts(x+co*hr*0.82, y-hr*0.1+s*hr*0.92, hr*0.3))
		}
		curls = append(curls, ellipsePts(x, y-hr*0.55, hr*0.8, hr*0.5, 0))
		c.poly(1, p.hair, curls...)
	}
}

// hairCap is hair covering the top of a head centred at (x, y): an arc
// over the crown closed by a fringe line across the forehead.
func hairCap(x, y, hr float64, long bool) []pt {
	var pts []pt
	side := 0.15
	if long {
		side = 0.6
	}
	for i := 0; i <= 24; i++ {
		a := math.Pi - 0.25 + (math.Pi+0.5)*float64(i)/24
		s, co := math.Sincos(a)
		pts = append(pts, pt{x + co*hr*0.9, y + s*hr*1.1 - hr*0.05})
	}
	pts = append(pts, pt{x + hr*0.84, y + hr*side})
	for i := 0; i <= 12; i++ {
		t := float64(i) / 12
		fx := x + hr*0.78 - t*hr*1.56
		fy := y - hr*0.45 + math.Sin(t*math.Pi)*(-hr*0.12) + t*hr*0.1
		pts = append(pts, pt{fx, fy})
	}
	pts = append(pts, pt{x - hr*0.84, y + hr*side})
	return pts
}

// scenePortrait: one head-and-shoulders figure on a soft two-tone
// background, centred and sized for square avatars.
func scenePortrait(c *canvas, r *rng) {
	W, H, M := c.dims()
	bg := pick(r, [][2]rgb{
		{hex(0xdfe7f2), hex(0xa9bfdc)}, {hex(0xf6e3d6), hex(0xe2b8a0)}, {hex(0xe2efe4), hex(0xa8cdb0)},
		{hex(0xece4f4), hex(0xbfaee0)}, {hex(0xf7efd5), hex(0xe6c97e)}, {hex(0xe4e4e4), hex(0xb5b5b5)},
	})
	c.vgrad(0, H, bg[0], bg[1], 1)
	c.glow(W/2, H*0.42, M*0.75, M*0.75, shade(bg[0], 1.1), 0.7)
	p := randomPerson(r)
	if tooClose(p.shirt, bg[1], 90) {
		p.shirt = shade(p.shirt, 0.6)
	}
	hr := M * 0.19
	figure(c, W/2, H/2-M*0.08, hr, p)
	c.vignette(0.2)
}

// tooClose reports whether two colours differ by less than limit (sum of
// the channel differences), so that one would vanish on the other.
func tooClose(a, b rgb, limit float64) bool {
	d := math.Abs(float64(a.r)-float64(b.r)) + math.Abs(float64(a.g)-float64(b.g)) + math.Abs(float64(a.b)-float64(b.b))
	return d < limit
}

// scenePeople: a group of figures in front of a warm out-of-focus
// background with bokeh lights.
func scenePeople(c *canvas, r *rng) {
	W, H, M := c.dims()
	bg := pick(r, [][3]rgb{
		{hex(0x3a3026), hex(0x8a6a4a), hex(0xffd9a0)},
		{hex(0x27323f), hex(0x6a8094), hex(0xcfe6ff)},
		{hex(0x3b2a3a), hex(0x9a6a7a), hex(0xffc7d6)},
		{hex(0xcfd8d0), hex(0xf2efe6), hex(0xffffff)},
	})
	c.vgrad(0, H, bg[0], bg[1], 1)
	for range int(W / M * 18) {
		rad := M * r.f(0.02, 0.09)
		c.poly(r.f(0.08, 0.25), mix(bg[2], pick(r, shirtCols), 0.25), circlePts(W*r.Float64(), H*r.f(0, 0.7), rad))
	}
	c.glow(W*r.f(0.2, 0.8), H*0.2, M*0.8, M*0.5, bg[2], 0.2)
	n := max(2, min(int(W/M*2.2+0.5)+r.IntN(2), 6))
	hr := math.Min(W/float64(n)*0.2, H*0.13)
	// Back row first, smaller; front row larger and lower.
	back := n / 2
	for i := range back {
		x := W * (float64(i) + 0.5 + r.f(-0.1, 0.1)) / float64(back)
		figure(c, x, H*0.42, hr*0.85, randomPerson(r))
	}
	c.tint(0, H, bg[1], 0.12, 0.12)
	front := n - back
	for i := range front {
		x := W * (float64(i) + 0.5 + r.f(-0.12, 0.12)) / float64(front)
		figure(c, x, H*0.58, hr*r.f(1, 1.12), randomPerson(r))
	}
	c.vignette(0.35)
}
