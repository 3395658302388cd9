// Package imaging identifies, scales and re-encodes images for the media
// library: it checks that bytes really are an image (Identify), makes the
// thumbnail and medium renditions a media record lists (Renditions), and
// formats the record's dimensions and ratio strings (Dimensions, Ratio).
//
// Everything is pure Go on the standard library. JPEG, PNG and GIF are
// decoded; WebP is recognised by its header only (the standard library has
// no WebP decoder), so Identify accepts it with its real size while
// Renditions reports ErrUnsupported for it.
//
// # Limits
//
// Decoding is where a hostile image costs memory: a PNG of a few kilobytes
// can claim 7000x7000 pixels and take hundreds of megabytes to decode. A
// Decoder reads the header first and refuses an image above its pixel
// budget (ErrTooManyPixels) before decoding anything, and bounds how many
// images, and how many pixels, are decoded and held at once by all its
// callers. A server owns one Decoder (NewDecoder) and passes it to
// everything that decodes images from outside; the package functions
// Renditions and RenditionsOf keep the per-image budget but do not bound
// concurrency. Large scratch buffers are not kept for reuse, so memory
// goes back after a burst.
//
// # Scaling
//
// Scaling is an area average (box filter with fractional coverage) when
// shrinking, which is what thumbnails need, and a linear filter when
// enlarging. It works on premultiplied RGBA rows directly, with no
// per-pixel interface calls.
package imaging
