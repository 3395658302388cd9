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
// calls and render buffers are pooled per Provider. At 1200x800 an image
// takes about 20 ms on one core, two thirds of it in image/jpeg, so 500
// featured images are a matter of seconds.
package local
