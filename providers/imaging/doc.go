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
// Scaling is an area average (box filter with fractional coverage) when
// shrinking, which is what thumbnails need, and a linear filter when
// enlarging. It works on premultiplied RGBA rows directly, with no
// per-pixel interface calls.
package imaging
