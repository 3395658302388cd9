package imaging

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"runtime"
	"sync"
)

// Defaults of Limits.
const (
	// DefaultMaxConcurrent is the floor of Limits.MaxConcurrent; the
	// default is the larger of it and GOMAXPROCS.
	DefaultMaxConcurrent = 2
	// DefaultMaxPixelsInFlight is the default of Limits.MaxPixelsInFlight:
	// about 400 MB of decoded and converted pixels at most.
	DefaultMaxPixelsInFlight = 2 * DefaultMaxPixels
)

// Limits bounds what decoding images may cost. The zero value (or nil)
// means defaults; a negative field is an error.
type Limits struct {
	// MaxPixels refuses an image whose header claims more pixels than this
	// (width times height), before anything is decoded (default
	// DefaultMaxPixels). A file of a few kilobytes can claim a size that
	// takes hundreds of megabytes to decode.
	MaxPixels int
	// MaxConcurrent is the number of images decoded and held decoded at
	// once; further callers wait their turn or until their context ends
	// (default the larger of DefaultMaxConcurrent and GOMAXPROCS).
	MaxConcurrent int
	// MaxPixelsInFlight bounds the pixels of all images decoded and held
	// at once (default DefaultMaxPixelsInFlight, and never below
	// MaxPixels), so that peak memory stays bounded whatever the mix of
	// sizes.
	MaxPixelsInFlight int
}

func (l *Limits) withDefaults() (Limits, error) {
	var c Limits
	if l != nil {
		c = *l
	}
	switch {
	case c.MaxPixels < 0:
		return c, fmt.Errorf("imaging: Limits.MaxPixels %d is negative", c.MaxPixels)
	case c.MaxConcurrent < 0:
		return c, fmt.Errorf("imaging: Limits.MaxConcurrent %d is negative", c.MaxConcurrent)
	case c.MaxPixelsInFlight < 0:
		return c, fmt.Errorf("imaging: Limits.MaxPixelsInFlight %d is negative", c.MaxPixelsInFlight)
	}
	if c.MaxPixels == 0 {
		c.MaxPixels = DefaultMaxPixels
	}
	if c.MaxConcurrent == 0 {
		c.MaxConcurrent = max(DefaultMaxConcurrent, runtime.GOMAXPROCS(0))
	}
	if c.MaxPixelsInFlight == 0 {
		c.MaxPixelsInFlight = DefaultMaxPixelsInFlight
	}
	c.MaxPixelsInFlight = max(c.MaxPixelsInFlight, c.MaxPixels)
	return c, nil
}

// Decoder decodes images within Limits: it reads the header first and
// refuses images above the pixel budget without decoding them, and it
// bounds how many images (and how many pixels) are decoded at once across
// all its callers. A server makes one Decoder and shares it between
// uploads, URL imports and providers; two Decoders do not limit each
// other. It is safe for concurrent use.
type Decoder struct {
	limits Limits
	gate   *gate
}

// NewDecoder returns a Decoder with limits (nil means defaults). It
// returns an error naming the field when a limit is negative.
func NewDecoder(limits *Limits) (*Decoder, error) {
	l, err := limits.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Decoder{limits: l, gate: newGate(int64(l.MaxConcurrent), int64(l.MaxPixelsInFlight))}, nil
}

// Limits returns the Decoder's limits with defaults applied.
func (d *Decoder) Limits() Limits { return d.limits }

// Decoded is an image decoded within a Decoder's limits. It holds its
// place in the Decoder until Release.
type Decoded struct {
	// Image is the decoded image; do not use it after Release.
	Image image.Image
	// Info is what the header said.
	Info    Info
	release func()
}

// Release gives the Decoded's place back to its Decoder. Call it once
// the pixels are no longer needed; later calls do nothing.
func (m *Decoded) Release() {
	if m != nil && m.release != nil {
		m.release()
	}
}

// Check returns an error wrapping ErrTooManyPixels when info's size is
// above the Decoder's pixel budget (or above maxPixels when that is
// positive and lower), nil otherwise.
func (d *Decoder) Check(info Info, maxPixels int) error {
	return checkPixels(info.Width, info.Height, d.maxPixels(maxPixels))
}

func (d *Decoder) maxPixels(override int) int {
	if override > 0 {
		return min(override, d.limits.MaxPixels)
	}
	return d.limits.MaxPixels
}

func checkPixels(w, h, maxPixels int) error {
	if w <= 0 || h <= 0 || w > maxPixels || h > maxPixels || w*h > maxPixels {
		return fmt.Errorf("%w: %dx%d is more than %d pixels", ErrTooManyPixels, w, h, maxPixels)
	}
	return nil
}

// Decode identifies data, refuses it when its header claims more pixels
// than the budget, waits for a free place (or ctx), and decodes it. The
// caller must Release the result. It returns errors wrapping ErrFormat
// for non-images and corrupt data, ErrUnsupported for WebP,
// ErrTooManyPixels above the budget, and ctx.Err() when ctx ends while
// waiting.
func (d *Decoder) Decode(ctx context.Context, data []byte) (*Decoded, error) {
	return d.decode(ctx, data, 0)
}

func (d *Decoder) decode(ctx context.Context, data []byte, maxPixels int) (*Decoded, error) {
	info, err := Identify(data)
	if err != nil {
		return nil, err
	}
	return d.decodeInfo(ctx, data, info, maxPixels)
}

func (d *Decoder) decodeInfo(ctx context.Context, data []byte, info Info, maxPixels int) (*Decoded, error) {
	if info.Format == WebP {
		return nil, fmt.Errorf("%w: %s", ErrUnsupported, info.Format)
	}
	if err := d.Check(info, maxPixels); err != nil {
		return nil, err
	}
	release, err := d.enter(ctx, info.Width*info.Height)
	if err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		release()
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if b := img.Bounds(); b.Dx() != info.Width || b.Dy() != info.Height {
		release()
		return nil, fmt.Errorf("%w: decoded %dx%d, header said %dx%d", ErrFormat, b.Dx(), b.Dy(), info.Width, info.Height)
	}
	return &Decoded{Image: img, Info: info, release: release}, nil
}

// enter takes a place for an image of pixels pixels and returns the
// function that gives it back (once).
func (d *Decoder) enter(ctx context.Context, pixels int) (func(), error) {
	if d.gate == nil {
		return func() {}, ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	w, err := d.gate.acquire(ctx, int64(pixels))
	if err != nil {
		return nil, err
	}
	return sync.OnceFunc(func() { d.gate.release(w) }), nil
}

// Renditions is the package's Renditions within the Decoder's limits: the
// decoding and the renditions made from it count against them. A
// positive Options.MaxPixels lowers the budget for this call.
func (d *Decoder) Renditions(ctx context.Context, data []byte, opts *Options) (*Set, error) {
	o := opts.withDefaults()
	info, err := Identify(data)
	if err != nil {
		return nil, err
	}
	s := newSet(info)
	m, err := d.decodeInfo(ctx, data, info, opts.maxPixels())
	if err != nil {
		return s, err
	}
	defer m.Release()
	return renditionsOf(ctx, s, m.Image, data, o)
}

// RenditionsOf is the package's RenditionsOf within the Decoder's limits:
// the pixels are not decoded again, but converting them counts against
// the limits, and an image above the pixel budget is refused.
func (d *Decoder) RenditionsOf(ctx context.Context, data []byte, img image.Image, opts *Options) (*Set, error) {
	o := opts.withDefaults()
	s, err := checkOf(data, img)
	if err != nil {
		return s, err
	}
	if err := d.Check(s.Info, opts.maxPixels()); err != nil {
		return s, err
	}
	release, err := d.enter(ctx, s.Info.Width*s.Info.Height)
	if err != nil {
		return s, err
	}
	defer release()
	return renditionsOf(ctx, s, img, data, o)
}
