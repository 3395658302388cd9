package imaging

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTransformShortcutsAreExact checks that flat, column and row blocks get
// exactly the coefficients of the full transform.
func TestTransformShortcutsAreExact(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		var pix [64]uint8
		want := blockColumn
		for row := range 8 {
			v := uint8(r.IntN(256))
			if i%3 == 0 {
				v = uint8(i) // every row the same: flat
			}
			for c := range 8 {
				pix[row*8+c] = v
			}
		}
		switch i % 3 {
		case 0:
			want = blockFlat
		case 2: // every column one value
			want = blockRow
			for c := range 8 {
				v := uint8(r.IntN(256))
				for row := range 8 {
					pix[row*8+c] = v
				}
			}
		}
		var e jpegEncoder
		require.Equal(t, want, e.transform(pix[:], 8, 8, 8, 0, 0))

		var full [64]float32
		for row := range 8 {
			var v uint64
			for c := range 8 {
				v |= uint64(pix[row*8+c]) << (8 * c)
			}
			fdctRow(full[row*8:row*8+8], v)
		}
		for c := range 8 {
			fdctColumn(&full, c)
		}
		require.Equal(t, full, e.blk, "block %d", i)
	}
}
