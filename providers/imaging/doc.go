// Package imaging identifies, scales and re-encodes images for the media
// library: it checks that bytes really are an image (Identify), makes the
// thumbnail and medium renditions a media record lists (Renditions),
// encodes JPEGs (EncodeJPEG, AppendJPEG), and formats the record's
// dimensions and ratio strings (Dimensions, Ratio).
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
// per-pixel interface calls. The pixels of a JPEG (YCbCr, as decoders and
// provider_local give them) are scaled plane by plane instead, with no
// conversion to RGB: an area average is linear, so the colours are those
// of scaling in RGB. A whole shrinking factor (1200x800 to the 300x200
// medium size) is a plain mean, summed several samples per instruction.
//
// # JPEG
//
// EncodeJPEG writes baseline JPEGs with 4:2:0 chroma and the tables
// image/jpeg writes, so its images look the same and are about the same
// size, but it reads a 4:2:0 YCbCr image's planes directly and is about
// three times faster: image/jpeg converts every block through per-pixel
// offset calls, re-averages chroma that is already subsampled and divides
// every coefficient. Blocks of one value, or whose rows or columns are
// each one value (most of a drawn scene), take a fraction of the
// transform and give exactly the coefficients of the full one. Other
// images are handed to image/jpeg. JPEG renditions are encoded with it.
package imaging
