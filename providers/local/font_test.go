package local

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFontCoversPrintableASCII(t *testing.T) {
	t.Parallel()
	f := parseFont()
	for ch := byte(33); ch < 127; ch++ {
		g := f[ch-32]
		lit := 0
		for _, row := range g {
			require.Zero(t, row>>glyphW, "glyph %q is wider than %d", ch, glyphW)
			for ; row != 0; row &= row - 1 {
				lit++
			}
		}
		require.Greater(t, lit, 0, "glyph %q is blank", ch)
	}
	require.Equal(t, glyph{}, f[0], "space is blank")
	// Spot checks: the crossbar of A and the descender of g.
	require.Equal(t, uint8(0b11111), f['A'-32][3])
	require.NotZero(t, f['g'-32][8])
	require.Zero(t, f['A'-32][8])
}

func TestASCIIText(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"Hello, World!":     "Hello, World!",
		"Größe – Über":      "Grosse - Uber",
		"Café crème":        "Cafe creme",
		"Smørrebrød Łódź":   "Smorrebrod Lodz",
		"tab\tand\nnewline": "tab and newline",
		"日本":                "??",
		"„Zitat“ …":         `"Zitat" ...`,
	}
	for in, want := range tests {
		require.Equal(t, want, asciiText(in), in)
	}
}

func TestWrapText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		width int
		lines int
		want  []string
	}{
		{"short", 10, 2, []string{"short"}},
		{"one two three four", 9, 2, []string{"one two", "three..."}},
		{"one two three", 9, 2, []string{"one two", "three"}},
		{"abcdefghijkl", 5, 3, []string{"abcde", "fghij", "kl"}},
		{"a b", 0, 2, nil},
		{"", 10, 2, nil},
	}
	for _, tt := range tests {
		got := wrapText(tt.in, tt.width, tt.lines)
		require.Equal(t, tt.want, got, "%q in %d", tt.in, tt.width)
		for _, l := range got {
			require.LessOrEqual(t, len(l), tt.width)
		}
	}
}
