package imaging

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"math"
	"math/bits"
	"sync"
)

// EncodeJPEG writes m as a baseline JPEG of the given quality (1-100,
// clipped), with the same quantisation and Huffman tables as image/jpeg
// and the same 4:2:0 chroma subsampling, so the result looks the same and
// has about the same size. An *image.YCbCr with 4:2:0 subsampling and an
// even origin (what a JPEG decoder and provider_local produce) is encoded
// straight from its planes, about three times faster than image/jpeg;
// any other image is handed to image/jpeg.
func EncodeJPEG(w io.Writer, m image.Image, quality int) error {
	out, err := AppendJPEG(nil, m, quality)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// AppendJPEG is EncodeJPEG appending to dst, so that a caller can reuse
// its buffer.
func AppendJPEG(dst []byte, m image.Image, quality int) ([]byte, error) {
	quality = min(max(quality, 1), 100)
	y, ok := m.(*image.YCbCr)
	if !ok || !fastJPEG(y) {
		buf := bytes.NewBuffer(dst)
		if err := jpeg.Encode(buf, m, &jpeg.Options{Quality: quality}); err != nil {
			return dst, err
		}
		return buf.Bytes(), nil
	}
	b := y.Rect
	if b.Dx() >= 1<<16 || b.Dy() >= 1<<16 {
		return dst, errors.New("imaging: image is too large to encode as JPEG")
	}
	t, err := stdTables()
	if err != nil {
		return dst, err
	}
	e := encoderPool.Get().(*jpegEncoder)
	defer encoderPool.Put(e)
	e.init(t, quality)
	e.out = dst
	e.header(b.Dx(), b.Dy())
	e.scan420(y)
	e.out = append(e.out, 0xff, 0xd9)
	out := e.out
	e.out = nil
	return out, nil
}

// fastJPEG tells whether m can be encoded from its planes: 4:2:0 with an
// even origin, so that every chroma sample covers a 2x2 block of pixels of
// the image.
func fastJPEG(m *image.YCbCr) bool {
	return m.SubsampleRatio == image.YCbCrSubsampleRatio420 &&
		m.Rect.Min.X%2 == 0 && m.Rect.Min.Y%2 == 0 && !m.Rect.Empty()
}

// jpegTables are the standard tables of the JPEG specification (its annex
// K) as image/jpeg writes them: the quantisation tables at quality 50
// (where they are unscaled), in zig-zag order, and the Huffman tables as
// the bytes of their DHT segment and as codes.
type jpegTables struct {
	quant [2][64]byte
	dht   []byte
	dc    [2]huffCodes
	ac    [2]huffCodes
}

// huffCodes maps a symbol to its code (low bits) and code length.
type huffCodes struct {
	code [256]uint32
	size [256]uint8
}

var (
	tablesOnce sync.Once
	tables     *jpegTables
	tablesErr  error
)

// stdTables returns the standard tables, read once from what image/jpeg
// writes for a tiny image, so that both encoders write the same tables.
func stdTables() (*jpegTables, error) {
	tablesOnce.Do(func() {
		var buf bytes.Buffer
		m := image.NewYCbCr(image.Rect(0, 0, 8, 8), image.YCbCrSubsampleRatio420)
		if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: 50}); err != nil {
			tablesErr = err
			return
		}
		tables, tablesErr = parseTables(buf.Bytes())
	})
	return tables, tablesErr
}

// parseTables reads the DQT and DHT segments of a JPEG up to its first
// scan.
func parseTables(data []byte) (*jpegTables, error) {
	t := new(jpegTables)
	bad := func(what string) (*jpegTables, error) {
		return nil, fmt.Errorf("imaging: reading the standard JPEG tables: %s", what)
	}
	if len(data) < 4 || data[0] != 0xff || data[1] != 0xd8 {
		return bad("no SOI")
	}
	var haveQ, haveDC, haveAC [2]bool
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xff {
			return bad("marker expected")
		}
		marker := data[i+1]
		n := int(data[i+2])<<8 | int(data[i+3])
		if n < 2 || i+2+n > len(data) {
			return bad("short segment")
		}
		seg := data[i+4 : i+2+n]
		switch marker {
		case 0xdb: // DQT
			for len(seg) >= 65 {
				pq, tq := seg[0]>>4, seg[0]&15
				if pq != 0 || tq > 1 {
					return bad("unexpected DQT")
				}
				copy(t.quant[tq][:], seg[1:65])
				haveQ[tq] = true
				seg = seg[65:]
			}
		case 0xc4: // DHT
			t.dht = append(t.dht, data[i:i+2+n]...)
			for len(seg) >= 17 {
				tc, th := seg[0]>>4, seg[0]&15
				total := 0
				for _, c := range seg[1:17] {
					total += int(c)
				}
				if tc > 1 || th > 1 || len(seg) < 17+total {
					return bad("unexpected DHT")
				}
				var h huffCodes
				code, k := uint32(0), 0
				for l := 1; l <= 16; l++ {
					for range seg[l] {
						sym := seg[17+k]
						h.code[sym], h.size[sym] = code, uint8(l)
						code++
						k++
					}
					code <<= 1
				}
				if tc == 0 {
					t.dc[th], haveDC[th] = h, true
				} else {
					t.ac[th], haveAC[th] = h, true
				}
				seg = seg[17+total:]
			}
		case 0xda: // SOS: the tables come before it
			if haveQ != [2]bool{true, true} || haveDC != [2]bool{true, true} || haveAC != [2]bool{true, true} {
				return bad("missing tables")
			}
			return t, nil
		}
		i += 2 + n
	}
	return bad("no SOS")
}

// zigzag[k] is the index in natural (row-major) order of the k-th
// coefficient in zig-zag order.
var zigzag = func() [64]uint8 {
	var z [64]uint8
	k := 0
	for s := 0; s < 15; s++ { // anti-diagonals x+y = s
		for i := 0; i <= s; i++ {
			x, y := i, s-i // odd diagonals run down-left... even ones up-right
			if s%2 == 1 {
				x, y = s-i, i
			}
			if x < 8 && y < 8 {
				z[k] = uint8(y*8 + x)
				k++
			}
		}
	}
	return z
}()

// columnZigzag[r] is the zig-zag index of the coefficient in row r of the
// first column.
var columnZigzag = func() [8]uint8 {
	var c [8]uint8
	for k, n := range zigzag {
		if n%8 == 0 {
			c[n/8] = uint8(k)
		}
	}
	return c
}()

// rowZigzag[u] is the zig-zag index of the coefficient in column u of
// the first row.
var rowZigzag = func() [8]uint8 {
	var c [8]uint8
	for k, n := range zigzag {
		if n < 8 {
			c[n] = uint8(k)
		}
	}
	return c
}()

// aanScale are the scale factors the AAN forward DCT leaves on its
// outputs, folded into the quantisation.
var aanScale = func() [8]float64 {
	var s [8]float64
	s[0] = 1
	for k := 1; k < 8; k++ {
		s[k] = math.Cos(float64(k)*math.Pi/16) * math.Sqrt2
	}
	return s
}()

// jpegEncoder holds the state of one encoding; it is pooled.
type jpegEncoder struct {
	t       *jpegTables
	quality int
	quant   [2][64]byte    // scaled, zig-zag order
	recip   [2][64]float32 // per zig-zag index: 1 / (quant * AAN scale * 8)
	out     []byte
	acc     uint64 // pending bits, the oldest highest
	nacc    uint   // number of pending bits
	blk     [64]float32
	coef    [64]int32
}

var encoderPool = sync.Pool{New: func() any { return new(jpegEncoder) }}

// init prepares e for a new image of the given quality.
func (e *jpegEncoder) init(t *jpegTables, quality int) {
	e.acc, e.nacc = 0, 0
	if e.t == t && e.quality == quality {
		return
	}
	e.t, e.quality = t, quality
	scale := 200 - quality*2
	if quality < 50 {
		scale = 5000 / quality
	}
	for i := range e.quant {
		for k, x := range t.quant[i] {
			q := min(max((int(x)*scale+50)/100, 1), 255)
			e.quant[i][k] = uint8(q)
			n := int(zigzag[k])
			e.recip[i][k] = float32(1 / (float64(q) * aanScale[n%8] * aanScale[n/8] * 8))
		}
	}
}

// header writes SOI, DQT, SOF0 (three components, luma sampled 2x2), DHT
// and SOS.
func (e *jpegEncoder) header(w, h int) {
	o := append(e.out, 0xff, 0xd8)
	o = append(o, 0xff, 0xdb, 0, 2+2*65)
	for i := range e.quant {
		o = append(o, byte(i))
		o = append(o, e.quant[i][:]...)
	}
	o = append(o, 0xff, 0xc0, 0, 17, 8, byte(h>>8), byte(h), byte(w>>8), byte(w), 3,
		1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1)
	o = append(o, e.t.dht...)
	o = append(o, 0xff, 0xda, 0, 12, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0)
	e.out = o
}

// scan420 writes the entropy-coded data of m: MCUs of 16x16 pixels, four
// luma blocks then one block of each chroma plane, edges padded by
// repeating the last row and column.
func (e *jpegEncoder) scan420(m *image.YCbCr) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	cw, ch := (w+1)/2, (h+1)/2
	var dcY, dcCb, dcCr int32
	for my := 0; my < h; my += 16 {
		for mx := 0; mx < w; mx += 16 {
			for i := range 4 {
				k := e.transform(m.Y, m.YStride, w, h, mx+(i&1)*8, my+(i>>1)*8)
				dcY = e.block(0, k, dcY)
			}
			k := e.transform(m.Cb, m.CStride, cw, ch, mx/2, my/2)
			dcCb = e.block(1, k, dcCb)
			k = e.transform(m.Cr, m.CStride, cw, ch, mx/2, my/2)
			dcCr = e.block(1, k, dcCr)
		}
	}
	// Pad the last byte with one bits.
	if pad := (8 - e.nacc%8) % 8; pad > 0 {
		e.put(1<<pad-1, pad)
	}
	for e.nacc >= 8 {
		e.nacc -= 8
		e.byte(byte(e.acc >> e.nacc))
	}
}

// Kinds of block, by what their coefficients can be.
const (
	blockFull   = iota
	blockColumn // every row is one value: only the first column of coefficients is not zero
	blockRow    // every column is one value: only the first row of coefficients is not zero
	blockFlat   // one value: only the DC coefficient is not zero
)

// transform reads the 8x8 block at (x0, y0) of a w x h plane into e.blk,
// level shifted to -128..127 (samples past the plane's edge repeat its
// last column and row), applies the forward DCT and returns the kind of
// block. Flat, column and row blocks, common in drawn images, take a
// fraction of the work and give the same coefficients as the full
// transform.
func (e *jpegEncoder) transform(pix []uint8, stride, w, h, x0, y0 int) int {
	var rows [8]uint64
	if x0+8 <= w && y0+8 <= h {
		for r := range rows {
			rows[r] = binary.LittleEndian.Uint64(pix[(y0+r)*stride+x0:])
		}
	} else {
		for r := range rows {
			row := pix[min(y0+r, h-1)*stride:]
			var v uint64
			for c := range 8 {
				v |= uint64(row[min(x0+c, w-1)]) << (8 * c)
			}
			rows[r] = v
		}
	}
	b := &e.blk
	const ones = 0x0101010101010101
	column := true
	for _, v := range rows {
		if v != (v&0xff)*ones {
			column = false
			break
		}
	}
	if column {
		clear(b[:])
		if rows[0] == rows[1] && rows[0] == rows[2] && rows[0] == rows[3] &&
			rows[0] == rows[4] && rows[0] == rows[5] && rows[0] == rows[6] && rows[0] == rows[7] {
			b[0] = float32(64 * (int(rows[0]&0xff) - 128))
			return blockFlat
		}
		for r, v := range rows {
			// The row pass of a constant row leaves 8 times its value in
			// the first column and zeros elsewhere.
			b[r*8] = float32(8 * (int(v&0xff) - 128))
		}
		fdctColumn(b, 0)
		return blockColumn
	}
	if rows[0] == rows[1] && rows[0] == rows[2] && rows[0] == rows[3] &&
		rows[0] == rows[4] && rows[0] == rows[5] && rows[0] == rows[6] && rows[0] == rows[7] {
		// Eight equal rows transform alike, and the column pass of a
		// constant column leaves 8 times its value in the first row.
		clear(b[8:])
		fdctRow(b[:8], rows[0])
		for i := range 8 {
			b[i] *= 8
		}
		return blockRow
	}
	for r, v := range rows {
		fdctRow(b[r*8:r*8+8:r*8+8], v)
	}
	for i := range 8 {
		fdctColumn(b, i)
	}
	return blockFull
}

// The forward DCT is the one of Arai, Agui and Nakajima, rows then
// columns; each output still carries the factor aanScale[u] * aanScale[v]
// * 8, which the quantisation divides out.
const (
	c4   = 0.707106781 // cos(4π/16)
	c6s  = 0.382683433 // cos(6π/16)
	c2c6 = 0.541196100 // cos(2π/16) - cos(6π/16)
	c2p6 = 1.306562965 // cos(2π/16) + cos(6π/16)
)

// fdctRow transforms the eight samples packed in v (the first in the low
// byte) into d.
func fdctRow(d []float32, v uint64) {
	s0 := float32(int(v&0xff) - 128)
	s1 := float32(int(v>>8&0xff) - 128)
	s2 := float32(int(v>>16&0xff) - 128)
	s3 := float32(int(v>>24&0xff) - 128)
	s4 := float32(int(v>>32&0xff) - 128)
	s5 := float32(int(v>>40&0xff) - 128)
	s6 := float32(int(v>>48&0xff) - 128)
	s7 := float32(int(v>>56) - 128)
	t0, t7 := s0+s7, s0-s7
	t1, t6 := s1+s6, s1-s6
	t2, t5 := s2+s5, s2-s5
	t3, t4 := s3+s4, s3-s4
	// Even part.
	t10, t13 := t0+t3, t0-t3
	t11, t12 := t1+t2, t1-t2
	d[0], d[4] = t10+t11, t10-t11
	z1 := (t12 + t13) * c4
	d[2], d[6] = t13+z1, t13-z1
	// Odd part.
	t10, t11, t12 = t4+t5, t5+t6, t6+t7
	z5 := (t10 - t12) * c6s
	z2 := c2c6*t10 + z5
	z4 := c2p6*t12 + z5
	z3 := t11 * c4
	z11, z13 := t7+z3, t7-z3
	d[5], d[3] = z13+z2, z13-z2
	d[1], d[7] = z11+z4, z11-z4
}

// fdctColumn transforms column i of b in place.
func fdctColumn(b *[64]float32, i int) {
	i &= 7
	t0, t7 := b[i]+b[56+i], b[i]-b[56+i]
	t1, t6 := b[8+i]+b[48+i], b[8+i]-b[48+i]
	t2, t5 := b[16+i]+b[40+i], b[16+i]-b[40+i]
	t3, t4 := b[24+i]+b[32+i], b[24+i]-b[32+i]
	t10, t13 := t0+t3, t0-t3
	t11, t12 := t1+t2, t1-t2
	b[i], b[32+i] = t10+t11, t10-t11
	z1 := (t12 + t13) * c4
	b[16+i], b[48+i] = t13+z1, t13-z1
	t10, t11, t12 = t4+t5, t5+t6, t6+t7
	z5 := (t10 - t12) * c6s
	z2 := c2c6*t10 + z5
	z4 := c2p6*t12 + z5
	z3 := t11 * c4
	z11, z13 := t7+z3, t7-z3
	b[40+i], b[24+i] = z13+z2, z13-z2
	b[8+i], b[56+i] = z11+z4, z11-z4
}

// quantise rounds x * recip to the nearest integer; the offset keeps the
// value positive for the truncating conversion.
func quantise(x, recip float32) int32 { return int32(x*recip+16384.5) - 16384 }

// block quantises and entropy-codes e.blk, a block of the given kind,
// with the tables of component class c (0 luma, 1 chroma), and returns
// its DC value, the predictor of the next block of the component.
func (e *jpegEncoder) block(c, kind int, prevDC int32) int32 {
	recip := &e.recip[c]
	coef := &e.coef
	last := 0
	switch kind {
	case blockFlat:
		coef[0] = quantise(e.blk[0], recip[0])
	case blockColumn:
		clear(coef[:])
		for r := range 8 {
			k := columnZigzag[r]
			if v := quantise(e.blk[r*8], recip[k]); v != 0 {
				coef[k] = v
				last = max(last, int(k))
			}
		}
		coef[0] = quantise(e.blk[0], recip[0])
	case blockRow:
		clear(coef[:])
		for u := range 8 {
			k := rowZigzag[u]
			if v := quantise(e.blk[u], recip[k]); v != 0 {
				coef[k] = v
				last = max(last, int(k))
			}
		}
		coef[0] = quantise(e.blk[0], recip[0])
	default:
		for k := range 64 {
			v := quantise(e.blk[zigzag[k]&63], recip[k])
			coef[k] = v
			if v != 0 {
				last = k
			}
		}
	}
	dc, ac := &e.t.dc[c], &e.t.ac[c]
	diff := coef[0] - prevDC
	n, v := magnitude(diff)
	e.put(dc.code[n]<<n|v, uint(dc.size[n])+uint(n))
	run := uint32(0)
	for k := 1; k <= last; k++ {
		x := coef[k]
		if x == 0 {
			run++
			continue
		}
		for run > 15 {
			e.put(ac.code[0xf0], uint(ac.size[0xf0]))
			run -= 16
		}
		n, v := magnitude(x)
		sym := run<<4 | n
		e.put(ac.code[sym]<<n|v, uint(ac.size[sym])+uint(n))
		run = 0
	}
	if last < 63 {
		e.put(ac.code[0], uint(ac.size[0]))
	}
	return coef[0]
}

// magnitude returns the size category of v and its additional bits: v
// itself when positive, v-1 in the low bits when negative.
func magnitude(v int32) (uint32, uint32) {
	a := v
	if v < 0 {
		a = -v
		v--
	}
	n := uint32(bits.Len32(uint32(a)))
	return n, uint32(v) & (1<<n - 1)
}

// put appends the low n bits of code (n <= 32) to the bit stream.
func (e *jpegEncoder) put(code uint32, n uint) {
	e.acc = e.acc<<n | uint64(code)
	e.nacc += n
	if e.nacc >= 32 {
		e.nacc -= 32
		v := uint32(e.acc >> e.nacc)
		// A byte 0xff must be followed by a stuffed zero byte.
		if t := ^v; (t-0x01010101)&^t&0x80808080 == 0 {
			e.out = append(e.out, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
			return
		}
		e.byte(byte(v >> 24))
		e.byte(byte(v >> 16))
		e.byte(byte(v >> 8))
		e.byte(byte(v))
	}
}

// byte appends one byte of entropy-coded data, stuffing a zero after 0xff.
func (e *jpegEncoder) byte(b byte) {
	e.out = append(e.out, b)
	if b == 0xff {
		e.out = append(e.out, 0)
	}
}
