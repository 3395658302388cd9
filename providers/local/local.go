package local

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/imaging"
)

// Output formats of Options.Format.
const (
	FormatJPEG = "jpeg"
	FormatPNG  = "png"
)

// DefaultQuality is the JPEG quality used when Options.Quality is zero.
const DefaultQuality = 85

// Options configures a Provider. The zero value (or nil) means defaults.
type Options struct {
	// Quality is the JPEG quality 1-100 (default DefaultQuality).
	Quality int
	// Format is FormatJPEG (default; right for photo-like images and
	// several times faster and smaller than PNG here) or FormatPNG.
	Format string
	// NoCaption ignores ImageRequest.Caption.
	NoCaption bool
}

// Provider generates placeholder images offline. It is safe for
// concurrent use; render buffers are pooled per Provider.
type Provider struct {
	quality   int
	format    string
	noCaption bool
	font      *font
	pool      sync.Pool // *canvas
	out       sync.Pool // *[]byte: encoder output before it is copied
}

var _ providers.ImageProvider = (*Provider)(nil)

// New returns a Provider. It returns an error naming the field when an
// option is invalid.
func New(opts *Options) (*Provider, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Quality == 0 {
		o.Quality = DefaultQuality
	}
	if o.Quality < 1 || o.Quality > 100 {
		return nil, fmt.Errorf("local: Options.Quality %d not in 1-100", o.Quality)
	}
	switch o.Format {
	case "":
		o.Format = FormatJPEG
	case FormatJPEG, FormatPNG:
	default:
		return nil, fmt.Errorf("local: Options.Format %q is neither %q nor %q", o.Format, FormatJPEG, FormatPNG)
	}
	p := &Provider{quality: o.Quality, format: o.Format, noCaption: o.NoCaption, font: parseFont()}
	p.out.New = func() any { return new([]byte) }
	return p, nil
}

// Info describes the provider: it supports categories, needs no key and is
// always configured.
func (p *Provider) Info() providers.Info {
	return providers.Info{
		Slug:             providers.Local,
		Name:             "Local generator",
		Description:      "Placeholder images drawn offline per category; no network, no limits.",
		URL:              "",
		SupportsCategory: true,
		Configured:       true,
	}
}

// Image draws and encodes one image of exactly req.Width x req.Height. The
// same request (size, category, seed, caption) gives the same bytes. An
// empty or unknown category picks a scene from the seed. It returns an
// error wrapping providers.ErrInvalidSize for sizes outside
// providers.MinImageSize..MaxImageSize and ctx.Err() when ctx is done.
func (p *Provider) Image(ctx context.Context, req providers.ImageRequest) (*providers.Image, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	// The canvas goes back to the pool on an error, or when the caller
	// releases the pixels it gets: never while they may still be read.
	c := p.canvas()
	p.render(c, req)
	if err := ctx.Err(); err != nil {
		p.pool.Put(c)
		return nil, err
	}
	out := p.out.Get().(*[]byte)
	defer p.out.Put(out)
	img := &providers.Image{Width: req.Width, Height: req.Height, Title: title(req)}
	if p.format == FormatPNG {
		rgba := image.NewRGBA(c.img.Rect)
		draw.Draw(rgba, rgba.Rect, c.img, image.Point{}, draw.Src)
		p.pool.Put(c)
		buf := bytes.NewBuffer((*out)[:0])
		err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(buf, rgba)
		*out = buf.Bytes()
		if err != nil {
			return nil, fmt.Errorf("local: encode png: %w", err)
		}
		img.MIMEType, img.Ext, img.Pixels = "image/png", "png", rgba
	} else {
		var err error
		*out, err = imaging.AppendJPEG((*out)[:0], c.img, p.quality)
		if err != nil {
			p.pool.Put(c)
			return nil, fmt.Errorf("local: encode jpeg: %w", err)
		}
		img.MIMEType, img.Ext, img.Pixels = "image/jpeg", "jpg", c.img
		img.Release = sync.OnceFunc(func() { p.pool.Put(c) })
	}
	// The image keeps a copy of its exact size; the buffer that grew while
	// encoding stays with the Provider.
	img.Data = bytes.Clone(*out)
	return img, nil
}

// Render draws the image of req without encoding it and returns it with
// the category that was drawn (the one chosen from the seed when
// req.Category is empty or unknown). Use it to compose further or to
// encode differently.
func (p *Provider) Render(req providers.ImageRequest) (*image.YCbCr, string, error) {
	if err := req.Validate(); err != nil {
		return nil, "", err
	}
	c := new(canvas)
	cat := p.render(c, req)
	return c.img, cat, nil
}

func (p *Provider) canvas() *canvas {
	if c, ok := p.pool.Get().(*canvas); ok {
		return c
	}
	return new(canvas)
}

// render draws req onto c and returns the category drawn.
func (p *Provider) render(c *canvas, req providers.ImageRequest) string {
	c.reset(req.Width, req.Height)
	c.font = p.font
	r := rand.New(rand.NewPCG(req.Seed, req.Seed^0x9e3779b97f4a7c15))
	cat := SceneFor(req.Category, req.Seed)
	paint := scene(cat)
	paint(c, &rng{r})
	if req.Caption != "" && !p.noCaption {
		c.caption(p.font, asciiText(req.Caption))
	}
	return cat
}

// SceneFor returns the category whose scene the provider draws for a
// requested category and seed: the category itself when it is one of
// providers.Categories, otherwise one picked from the seed (never
// "portrait", which is reserved for avatars).
func SceneFor(category string, seed uint64) string {
	if providers.IsCategory(category) {
		return category
	}
	all := providers.CategorySlugs()
	all = all[:len(all)-1] // portrait is last
	return all[splitmix(seed)%uint64(len(all))]
}

// splitmix scrambles a seed so that consecutive seeds pick unrelated
// scenes.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// title is the caption, the only text a generated image has.
func title(req providers.ImageRequest) string { return req.Caption }

// caption draws s in white on a translucent dark band along the bottom,
// wrapped to at most two lines. Text too small to read is not drawn.
func (c *canvas) caption(f *font, s string) {
	W, H := float64(c.w), float64(c.h)
	px := math.Max(1, math.Floor(math.Min(W, H)/200))
	margin := px * 4
	cols := int((W - 2*margin) / (advance * px))
	lines := wrapText(s, cols, 2)
	if len(lines) == 0 || cols < 4 {
		return
	}
	lineH := float64(glyphH+2) * px
	bandH := float64(len(lines))*lineH + 2*margin - 2*px
	if bandH > H/2 {
		return
	}
	c.rect(0, H-bandH, W, H, rgb{10, 12, 16}, 0.58)
	y := H - bandH + margin
	for _, l := range lines {
		x := margin
		c.text(f, l, x+px*0.5, y+px*0.5, px, rgb{}, 0.35) // shadow
		c.text(f, l, x, y, px, rgb{250, 250, 250}, 1)
		y += lineH
	}
}

// rng wraps the per-image random source with range helpers.
type rng struct{ *rand.Rand }

// f returns a float in [a, b).
func (r *rng) f(a, b float64) float64 { return a + r.Float64()*(b-a) }

// i returns an int in [a, b].
func (r *rng) i(a, b int) int { return a + r.IntN(b-a+1) }

// chance is true with probability p.
func (r *rng) chance(p float64) bool { return r.Float64() < p }

// pick returns one element of xs.
func pick[T any](r *rng, xs []T) T { return xs[r.IntN(len(xs))] }

// vary shifts each channel of col by up to ±amount.
func (r *rng) vary(col rgb, amount int) rgb {
	ch := func(v uint8) uint8 { return uint8(min(max(int(v)+r.IntN(2*amount+1)-amount, 0), 255)) }
	return rgb{ch(col.r), ch(col.g), ch(col.b)}
}
