package imaging

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"strconv"
)

// Defaults of Options.
const (
	DefaultThumbnailSize = 150
	DefaultMediumSize    = 300
	DefaultQuality       = 82
	// DefaultMaxPixels is the default pixel budget of one image: 25
	// million pixels, such as a 6000x4000 camera photo. Decoding and
	// converting it takes up to about 200 MB.
	DefaultMaxPixels = 25_000_000
)

// Options configures Renditions. The zero value (or nil) means defaults.
type Options struct {
	// ThumbnailSize is the side of the square thumbnail crop (default 150).
	ThumbnailSize int
	// MediumSize is the longest side of the medium rendition (default 300).
	MediumSize int
	// Quality is the JPEG quality 1-100 of JPEG renditions (default 82).
	Quality int
	// MaxPixels refuses images with more pixels than this before decoding
	// them (default DefaultMaxPixels), so that a small file claiming a
	// huge size cannot exhaust memory. With a Decoder it can only lower
	// the Decoder's budget.
	MaxPixels int
}

// maxPixels is the MaxPixels set by the caller, 0 when none.
func (o *Options) maxPixels() int {
	if o == nil || o.MaxPixels <= 0 {
		return 0
	}
	return o.MaxPixels
}

func (o *Options) withDefaults() Options {
	var c Options
	if o != nil {
		c = *o
	}
	if c.ThumbnailSize <= 0 {
		c.ThumbnailSize = DefaultThumbnailSize
	}
	if c.MediumSize <= 0 {
		c.MediumSize = DefaultMediumSize
	}
	if c.Quality <= 0 || c.Quality > 100 {
		c.Quality = DefaultQuality
	}
	if c.MaxPixels <= 0 {
		c.MaxPixels = DefaultMaxPixels
	}
	return c
}

// Rendition is one encoded size of an image.
type Rendition struct {
	// Width and Height are the rendition's pixel size.
	Width, Height int
	// MIMEType is the media type of Data.
	MIMEType string
	// Ext is the file extension without the dot.
	Ext string
	// Data is the encoded image.
	Data []byte
	// Original is true when Data is the original bytes because the image
	// already had the rendition's size or was smaller.
	Original bool
}

// Dimensions returns the rendition's size as "WxH".
func (r Rendition) Dimensions() string { return Dimensions(r.Width, r.Height) }

// Set is an image with its renditions and the strings a media record
// shows.
type Set struct {
	// Info is the identified original.
	Info Info
	// Dimensions is "WxH" of the original.
	Dimensions string
	// Ratio is the reduced aspect ratio of the original, such as "3:2".
	Ratio string
	// Thumbnail is a square centre crop of ThumbnailSize (smaller when the
	// original is smaller; never enlarged).
	Thumbnail Rendition
	// Medium fits MediumSize on its longest side (the original when it
	// already fits).
	Medium Rendition
}

// Dimensions formats a size as the specification's "WxH" string, or ""
// when either side is not positive.
func Dimensions(w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	return strconv.Itoa(w) + "x" + strconv.Itoa(h)
}

// Ratio returns the aspect ratio w:h reduced by the greatest common
// divisor, such as "3:2" for 1200x800 or "683:384" for 1366x768, or ""
// when either side is not positive.
func Ratio(w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	a, b := w, h
	for b != 0 {
		a, b = b, a%b
	}
	return strconv.Itoa(w/a) + ":" + strconv.Itoa(h/a)
}

// Renditions identifies data, decodes it and makes the thumbnail and
// medium renditions. JPEG input gives JPEG renditions; PNG and GIF give
// PNG (keeping transparency). It returns an error wrapping ErrFormat for
// non-images, ErrUnsupported for WebP, ErrTooManyPixels above
// Options.MaxPixels (checked on the header, before decoding), and
// ctx.Err() when ctx is done between steps. With ErrUnsupported and
// ErrTooManyPixels the returned Set still has the Info, Dimensions and
// Ratio read from the header.
//
// Renditions bounds each image but not how many are decoded at once: a
// server handling images from many clients should share one Decoder and
// call its Renditions instead.
func Renditions(ctx context.Context, data []byte, opts *Options) (*Set, error) {
	return unbounded(opts).Renditions(ctx, data, opts)
}

// RenditionsOf is Renditions for an image whose decoded pixels the caller
// already has (img must be the decoding of data), which saves decoding it.
// Like Renditions it does not bound concurrent work; see
// Decoder.RenditionsOf.
func RenditionsOf(ctx context.Context, data []byte, img image.Image, opts *Options) (*Set, error) {
	return unbounded(opts).RenditionsOf(ctx, data, img, opts)
}

// unbounded is a Decoder with the pixel budget of opts and no bound on
// concurrent decodes, for the package functions.
func unbounded(opts *Options) *Decoder {
	return &Decoder{limits: Limits{MaxPixels: opts.withDefaults().MaxPixels}}
}

func newSet(info Info) *Set {
	return &Set{Info: info, Dimensions: Dimensions(info.Width, info.Height), Ratio: Ratio(info.Width, info.Height)}
}

// checkOf identifies data and checks that img has its size; WebP is
// reported as ErrUnsupported.
func checkOf(data []byte, img image.Image) (*Set, error) {
	info, err := Identify(data)
	if err != nil {
		return nil, err
	}
	s := newSet(info)
	if b := img.Bounds(); b.Dx() != info.Width || b.Dy() != info.Height {
		return s, fmt.Errorf("%w: pixels are %dx%d, data is %dx%d", ErrFormat, b.Dx(), b.Dy(), info.Width, info.Height)
	}
	if info.Format == WebP {
		return s, fmt.Errorf("%w: %s", ErrUnsupported, info.Format)
	}
	return s, nil
}

func renditionsOf(ctx context.Context, s *Set, img image.Image, data []byte, o Options) (*Set, error) {
	if err := ctx.Err(); err != nil {
		return s, err
	}
	// A JPEG's own pixels (4:2:0 YCbCr, as decoders and provider_local
	// give them) are scaled plane by plane and encoded without any
	// conversion to RGB.
	if m, ok := img.(*image.YCbCr); ok && s.Info.Format == JPEG && planeScalable(m) {
		return cutRenditions(ctx, s, planeSource{m: m}, data, o)
	}
	src, release := scratchRGBA(img)
	defer release()
	return cutRenditions(ctx, s, rgbaSource{src}, data, o)
}

// source is the image renditions are cut from.
type source interface {
	// scale returns the part r of the image scaled to w x h.
	scale(r image.Rectangle, w, h int) source
	// encode encodes the image in format.
	encode(format string, quality int) (Rendition, error)
	// release hands back the memory of an image made by scale; the image
	// must not be used after.
	release()
}

type rgbaSource struct{ m *image.RGBA }

func (s rgbaSource) scale(r image.Rectangle, w, h int) source {
	return rgbaSource{resizeRect(s.m, r, w, h)}
}

func (s rgbaSource) encode(format string, quality int) (Rendition, error) {
	return encodeRendition(s.m, format, quality)
}

func (rgbaSource) release() {}

// planeSource is a YCbCr image; buf holds its pixels when they come from
// ycbcrScratch, and is nil for the caller's own image.
type planeSource struct {
	m   *image.YCbCr
	buf *[]uint8
}

func (s planeSource) scale(r image.Rectangle, w, h int) source {
	buf := getScratch(&ycbcrScratch, 0)
	return planeSource{resizeYCbCr(s.m, r, w, h, buf), buf}
}

func (s planeSource) release() {
	if s.buf != nil {
		putScratch(&ycbcrScratch, s.buf)
	}
}

func (s planeSource) encode(_ string, quality int) (Rendition, error) {
	buf := getScratch(&encodeScratch, 0)
	defer putScratch(&encodeScratch, buf)
	data, err := AppendJPEG((*buf)[:0], s.m, quality)
	*buf = data
	if err != nil {
		return Rendition{}, fmt.Errorf("imaging: encode rendition: %w", err)
	}
	// The rendition keeps a copy of its exact size; the buffer that grew
	// while encoding goes back to the pool.
	return Rendition{Width: s.m.Rect.Dx(), Height: s.m.Rect.Dy(), MIMEType: "image/jpeg", Ext: "jpg", Data: bytes.Clone(data)}, nil
}

// cutRenditions makes the medium and thumbnail renditions of src, the
// pixels of data.
func cutRenditions(ctx context.Context, s *Set, src source, data []byte, o Options) (*Set, error) {
	info := s.Info
	var err error
	w, h := info.Width, info.Height
	full := image.Rect(0, 0, w, h)

	// Medium.
	mw, mh := FitSize(w, h, o.MediumSize)
	thumbSrc, tw, th := src, w, h
	if mw == w && mh == h {
		s.Medium = Rendition{Width: w, Height: h, MIMEType: info.MIMEType, Ext: info.Ext, Data: data, Original: true}
	} else {
		medium := src.scale(full, mw, mh)
		defer medium.release()
		if s.Medium, err = medium.encode(info.Format, o.Quality); err != nil {
			return s, err
		}
		// The thumbnail is cut from the medium size when that covers it:
		// a fraction of the work of cutting it from the original.
		if side := min(o.ThumbnailSize, w, h); min(mw, mh) >= side {
			thumbSrc, tw, th = medium, mw, mh
		}
	}
	if err := ctx.Err(); err != nil {
		return s, err
	}

	// Thumbnail.
	side := min(o.ThumbnailSize, w, h)
	if side == w && side == h {
		s.Thumbnail = Rendition{Width: w, Height: h, MIMEType: info.MIMEType, Ext: info.Ext, Data: data, Original: true}
		return s, nil
	}
	thumb := thumbSrc.scale(CoverRect(tw, th, side, side), side, side)
	defer thumb.release()
	if s.Thumbnail, err = thumb.encode(info.Format, o.Quality); err != nil {
		return s, err
	}
	return s, nil
}

func encodeRendition(m *image.RGBA, format string, quality int) (Rendition, error) {
	r := Rendition{Width: m.Rect.Dx(), Height: m.Rect.Dy()}
	var buf bytes.Buffer
	var err error
	if format == JPEG {
		r.MIMEType, r.Ext = "image/jpeg", "jpg"
		err = jpeg.Encode(&buf, m, &jpeg.Options{Quality: quality})
	} else {
		r.MIMEType, r.Ext = "image/png", "png"
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		err = enc.Encode(&buf, m)
	}
	if err != nil {
		return Rendition{}, fmt.Errorf("imaging: encode rendition: %w", err)
	}
	r.Data = buf.Bytes()
	return r, nil
}
