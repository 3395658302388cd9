package local

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/contentgen/contentgen/internal/ascii"
)

// The caption font: 5 x 9 cells (rows 0-6 for capitals, 7-8 for
// descenders), one glyph per line: the character, then up to nine rows of
// five pixels ('#' on, '.' off). Missing rows are empty; characters not
// listed (and the space) are blank.
const fontData = `
A .###. #...# #...# ##### #...# #...# #...#
B ####. #...# #...# ####. #...# #...# ####.
C .###. #...# #.... #.... #.... #...# .###.
D ####. #...# #...# #...# #...# #...# ####.
E ##### #.... #.... ####. #.... #.... #####
F ##### #.... #.... ####. #.... #.... #....
G .###. #...# #.... #.### #...# #...# .####
H #...# #...# #...# ##### #...# #...# #...#
I .###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.
J ..### ...#. ...#. ...#. ...#. #..#. .##..
K #...# #..#. #.#.. ##... #.#.. #..#. #...#
L #.... #.... #.... #.... #.... #.... #####
M #...# ##.## #.#.# #.#.# #...# #...# #...#
N #...# #...# ##..# #.#.# #..## #...# #...#
O .###. #...# #...# #...# #...# #...# .###.
P ####. #...# #...# ####. #.... #.... #....
Q .###. #...# #...# #...# #.#.# #..#. .##.#
R ####. #...# #...# ####. #.#.. #..#. #...#
S .#### #.... #.... .###. ....# ....# ####.
T ##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..
U #...# #...# #...# #...# #...# #...# .###.
V #...# #...# #...# #...# #...# .#.#. ..#..
W #...# #...# #...# #.#.# #.#.# #.#.# .#.#.
X #...# #...# .#.#. ..#.. .#.#. #...# #...#
Y #...# #...# .#.#. ..#.. ..#.. ..#.. ..#..
Z ##### ....# ...#. ..#.. .#... #.... #####
a ..... ..... .###. ....# .#### #...# .####
b #.... #.... #.##. ##..# #...# #...# ####.
c ..... ..... .###. #.... #.... #...# .###.
d ....# ....# .##.# #..## #...# #...# .####
e ..... ..... .###. #...# ##### #.... .###.
f ..##. .#..# .#... ###.. .#... .#... .#...
g ..... ..... .#### #...# #...# #...# .#### ....# .###.
h #.... #.... #.##. ##..# #...# #...# #...#
i ..#.. ..... .##.. ..#.. ..#.. ..#.. .###.
j ...#. ..... ..##. ...#. ...#. ...#. ...#. #..#. .##..
k #.... #.... #..#. #.#.. ##... #.#.. #..#.
l .##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###.
m ..... ..... ##.#. #.#.# #.#.# #.#.# #.#.#
n ..... ..... #.##. ##..# #...# #...# #...#
o ..... ..... .###. #...# #...# #...# .###.
p ..... ..... ####. #...# #...# #...# ####. #.... #....
q ..... ..... .#### #...# #...# #...# .#### ....# ....#
r ..... ..... #.##. ##..# #.... #.... #....
s ..... ..... .#### #.... .###. ....# ####.
t .#... .#... ###.. .#... .#... .#..# ..##.
u ..... ..... #...# #...# #...# #..## .##.#
v ..... ..... #...# #...# #...# .#.#. ..#..
w ..... ..... #...# #...# #.#.# #.#.# .#.#.
x ..... ..... #...# .#.#. ..#.. .#.#. #...#
y ..... ..... #...# #...# #...# #...# .#### ....# .###.
z ..... ..... ##### ...#. ..#.. .#... #####
0 .###. #...# #..## #.#.# ##..# #...# .###.
1 ..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.
2 .###. #...# ....# ...#. ..#.. .#... #####
3 ####. ....# ....# .###. ....# ....# ####.
4 ...#. ..##. .#.#. #..#. ##### ...#. ...#.
5 ##### #.... ####. ....# ....# #...# .###.
6 ..##. .#... #.... ####. #...# #...# .###.
7 ##### ....# ...#. ..#.. .#... .#... .#...
8 .###. #...# #...# .###. #...# #...# .###.
9 .###. #...# #...# .#### ....# ...#. .##..
! ..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..
" .#.#. .#.#.
# .#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.
$ ..#.. .#### #.#.. .###. ..#.# ####. ..#..
% ##..# ##..# ...#. ..#.. .#... #..## #..##
& .##.. #..#. #.#.. .#... #.#.# #..#. .##.#
' ..#.. ..#..
( ...#. ..#.. .#... .#... .#... ..#.. ...#.
) .#... ..#.. ...#. ...#. ...#. ..#.. .#...
* ..... ..#.. #.#.# .###. #.#.# ..#..
+ ..... ..#.. ..#.. ##### ..#.. ..#..
, ..... ..... ..... ..... ..... ..#.. ..#.. .#...
- ..... ..... ..... ##### 
. ..... ..... ..... ..... ..... ..... ..#..
/ ....# ....# ...#. ..#.. .#... #.... #....
: ..... ..#.. ..... ..... ..... ..#..
; ..... ..#.. ..... ..... ..#.. ..#.. .#...
< ...#. ..#.. .#... #.... .#... ..#.. ...#.
= ..... ..... ##### ..... #####
> .#... ..#.. ...#. ....# ...#. ..#.. .#...
? .###. #...# ....# ...#. ..#.. ..... ..#..
@ .###. #...# #.### #.#.# #.### #.... .####
[ .###. .#... .#... .#... .#... .#... .###.
\ #.... #.... .#... ..#.. ...#. ....# ....#
] .###. ...#. ...#. ...#. ...#. ...#. .###.
^ ..#.. .#.#. #...#
_ ..... ..... ..... ..... ..... ..... #####
` + "` .#... ..#.." + `
{ ...#. ..#.. ..#.. .#... ..#.. ..#.. ...#.
| ..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#..
} .#... ..#.. ..#.. ...#. ..#.. ..#.. .#...
~ ..... ..... .#... #.#.# ...#.
`

// Glyph metrics in font pixels.
const (
	glyphW   = 5
	glyphH   = 9
	advance  = 6 // glyph width plus one pixel of spacing
	capLines = 7 // rows above the baseline
)

// glyph is a character's rows, bit 4 being the leftmost pixel.
type glyph [glyphH]uint8

// font holds the printable ASCII glyphs, indexed by character - 32.
type font [95]glyph

// parseFont decodes fontData.
func parseFont() *font {
	f := new(font)
	for line := range strings.SplitSeq(fontData, "\n") {
		if len(line) < 2 || line[0] < 32 || line[0] > 126 {
			continue
		}
		var g glyph
		for i, row := range strings.Fields(line[1:]) {
			if i >= glyphH {
				break
			}
			for j := 0; j < glyphW && j < len(row); j++ {
				if row[j] == '#' {
					g[i] |= 1 << (glyphW - 1 - j)
				}
			}
		}
		f[line[0]-32] = g
	}
	return f
}

// asciiText folds text to the font's printable ASCII: accents are removed
// (é becomes e), a few letters are spelled out (ß becomes ss), controls
// become spaces and anything else becomes '?'.
func asciiText(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case r >= 32 && r <= 126:
			b.WriteRune(r)
		case unicode.Is(unicode.Mn, r):
		case unicode.IsSpace(r) || unicode.IsControl(r):
			b.WriteByte(' ')
		default:
			if t, ok := spelled(r); ok {
				b.WriteString(t)
			} else {
				b.WriteByte('?')
			}
		}
	}
	return b.String()
}

// spelled returns an ASCII spelling of letters that have no decomposition
// and of typographic punctuation.
func spelled(r rune) (string, bool) {
	if t, ok := ascii.Letter(r); ok {
		return t, true
	}
	switch r {
	case '–', '—', '‐':
		return "-", true
	case '‘', '’', '‚':
		return "'", true
	case '“', '”', '„', '«', '»':
		return `"`, true
	case '…':
		return "...", true
	case '€':
		return "EUR", true
	}
	return "", false
}

// text draws s (ASCII) with its top-left corner at (x, y), each font pixel
// a square of size px, in colour col.
func (c *canvas) text(f *font, s string, x, y, px float64, col rgb, alpha float64) {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch > 32 && ch < 127 {
			g := &f[ch-32]
			for row, bits := range g {
				if bits == 0 {
					continue
				}
				// Merge runs of lit pixels into one rectangle.
				for col0 := 0; col0 < glyphW; col0++ {
					if bits&(1<<(glyphW-1-col0)) == 0 {
						continue
					}
					col1 := col0
					for col1+1 < glyphW && bits&(1<<(glyphW-2-col1)) != 0 {
						col1++
					}
					c.rect(x+float64(col0)*px, y+float64(row)*px, x+float64(col1+1)*px, y+float64(row+1)*px, col, alpha)
					col0 = col1
				}
			}
		}
		x += advance * px
	}
}

// wrapText splits s into at most maxLines lines of at most width
// characters, breaking at spaces where possible and ending with "..." when
// the text does not fit.
func wrapText(s string, width, maxLines int) []string {
	if width <= 0 || maxLines <= 0 {
		return nil
	}
	words := strings.Fields(s)
	var lines []string
	var cur strings.Builder
	for i := 0; i < len(words); i++ {
		w := words[i]
		for len(w) > width { // a word longer than a line is cut
			if cur.Len() > 0 {
				lines = append(lines, cur.String())
				cur.Reset()
			}
			lines = append(lines, w[:width])
			w = w[width:]
		}
		switch {
		case cur.Len() == 0:
			cur.WriteString(w)
		case cur.Len()+1+len(w) <= width:
			cur.WriteByte(' ')
			cur.WriteString(w)
		default:
			lines = append(lines, cur.String())
			cur.Reset()
			cur.WriteString(w)
		}
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	if len(lines) > maxLines {
		last := lines[maxLines-1]
		if len(last)+3 > width {
			last = strings.TrimRight(last[:max(width-3, 0)], " ")
		}
		lines = append(lines[:maxLines-1], last+"...")
	}
	return lines
}
