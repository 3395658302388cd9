// Package local is provider_local: placeholder images drawn offline, in
// pure Go, for every image category of the specification.
//
// Each category has its own scene with a few palettes and compositions
// picked by the seed: layered mountain ridges with fir trees (nature), a
// skyline with window grids (architecture), a group of figures before
// bokeh lights (people), a table from above with a dish (food), a
// dashboard of charts (business), a glowing circuit board (technology),
// animal silhouettes at sunset (animals), a pitch, track or court
// (sports), a beach with a palm tree (travel), geometric or wave
// compositions (abstract), a family house with a for-sale sign
// (real-estate), a living room (interior), a modern villa with a pool
// (exterior), and a head-and-shoulders figure on a soft background
// (portrait), which is what avatars should ask for. An empty or unknown
// category picks a scene from the seed (never portrait).
//
// The same request gives the same bytes. An optional caption is drawn
// along the bottom with a small built-in bitmap font (ASCII; accents are
// folded, so "Größe" prints as "Grosse").
//
// # Speed
//
// Shapes are anti-aliased polygons rasterised straight into the Y, Cb and
// Cr planes of a 4:2:0 image (chroma at half resolution), the layout the
// JPEG encoder reads without conversion; there are no per-pixel interface
// calls, rows inside a shape are filled run by run, the vignette scales
// eight samples at a time where its factor is constant, and render
// buffers are pooled per Provider (a pooled canvas is cleared, so an image
// never depends on the one drawn before it). Images are encoded with
// imaging.AppendJPEG, which reads the planes directly and skips most of
// the transform for flat blocks and gradients. At 1200x800 an image takes
// under 10 ms of one core to draw and encode (a third of what per-pixel
// drawing and image/jpeg took), and its renditions (imaging.RenditionsOf
// on the pixels the image comes with) a millisecond or two more. A
// Generator draws several at once: 500 posts with featured images and
// their renditions take about 6 s of processor time, about 3 s on two
// idle cores.
//
// JPEG suits every scene: each has gradients, glows and a vignette, which
// a palette PNG would band (and mapping to a palette costs more than the
// whole JPEG).
package local
