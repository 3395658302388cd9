package wphost

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The PHP serialisation format, for the subset WordPress keeps in its
// options and meta: arrays, strings, integers, booleans, null and floats.
// A PHP value is one of nil, bool, int64, float64, string and phpArray.

// phpEntry is one key and value of a PHP array; the key is an int64 or a
// string.
type phpEntry struct {
	Key   any
	Value any
}

// phpArray is a PHP array: entries in their order.
type phpArray []phpEntry

// get returns the value of key (compared as PHP does for int and string
// keys of the same digits) and whether it is there.
func (a phpArray) get(key string) (any, bool) {
	for _, e := range a {
		switch k := e.Key.(type) {
		case string:
			if k == key {
				return e.Value, true
			}
		case int64:
			if strconv.FormatInt(k, 10) == key {
				return e.Value, true
			}
		}
	}
	return nil, false
}

// phpSerialize returns v in PHP's serialize format. It fails for a value
// of a type it does not know, or an array key that is neither an int64
// nor a string.
func phpSerialize(v any) (string, error) {
	var b strings.Builder
	if err := writePHP(&b, v); err != nil {
		return "", err
	}
	return b.String(), nil
}

func writePHP(b *strings.Builder, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("N;")
	case bool:
		if x {
			b.WriteString("b:1;")
		} else {
			b.WriteString("b:0;")
		}
	case int:
		b.WriteString("i:" + strconv.Itoa(x) + ";")
	case int64:
		b.WriteString("i:" + strconv.FormatInt(x, 10) + ";")
	case float64:
		b.WriteString("d:" + phpFloat(x) + ";")
	case string:
		// The length is in bytes, as PHP counts it.
		b.WriteString("s:" + strconv.Itoa(len(x)) + ":\"" + x + "\";")
	case phpArray:
		b.WriteString("a:" + strconv.Itoa(len(x)) + ":{")
		for _, e := range x {
			switch e.Key.(type) {
			case int64, int, string:
			default:
				return fmt.Errorf("php serialize: array key of type %T", e.Key)
			}
			if err := writePHP(b, e.Key); err != nil {
				return err
			}
			if err := writePHP(b, e.Value); err != nil {
				return err
			}
		}
		b.WriteString("}")
	default:
		return fmt.Errorf("php serialize: value of type %T", v)
	}
	return nil
}

// phpFloat formats f as PHP 7.1 and later serialise it
// (serialize_precision -1): the shortest form that reads back exactly,
// with an exponent from 1.0E+15 and below 1.0E-4.
func phpFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NAN"
	case math.IsInf(f, 1):
		return "INF"
	case math.IsInf(f, -1):
		return "-INF"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	if exp < -4 || exp >= 15 {
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return mant + "E" + sign + strconv.Itoa(exp)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// errPHPSyntax is wrapped by the errors of phpUnserialize.
var errPHPSyntax = errors.New("not PHP serialised data of the supported kinds")

// phpUnserialize reads a value in PHP's serialize format; objects and
// references are not supported. The whole input must be one value.
func phpUnserialize(s string) (any, error) {
	p := phpParser{s: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if p.i != len(p.s) {
		return nil, p.fail("trailing data")
	}
	return v, nil
}

type phpParser struct {
	s string
	i int
}

func (p *phpParser) fail(what string) error {
	return fmt.Errorf("php unserialize at byte %d: %s: %w", p.i, what, errPHPSyntax)
}

// until returns the text up to the byte c and moves past c.
func (p *phpParser) until(c byte) (string, error) {
	j := strings.IndexByte(p.s[p.i:], c)
	if j < 0 {
		return "", p.fail(fmt.Sprintf("missing %q", c))
	}
	out := p.s[p.i : p.i+j]
	p.i += j + 1
	return out, nil
}

func (p *phpParser) expect(c byte) error {
	if p.i >= len(p.s) || p.s[p.i] != c {
		return p.fail(fmt.Sprintf("expected %q", c))
	}
	p.i++
	return nil
}

// maxPHPDepth bounds the nesting of arrays.
const maxPHPDepth = 64

func (p *phpParser) value(depth int) (any, error) {
	if depth > maxPHPDepth {
		return nil, p.fail("arrays nested too deep")
	}
	if p.i+1 >= len(p.s) {
		return nil, p.fail("unexpected end")
	}
	kind := p.s[p.i]
	if kind == 'N' {
		p.i++
		return nil, p.expect(';')
	}
	p.i++
	if err := p.expect(':'); err != nil {
		return nil, err
	}
	switch kind {
	case 'b':
		t, err := p.until(';')
		if err != nil {
			return nil, err
		}
		switch t {
		case "0":
			return false, nil
		case "1":
			return true, nil
		}
		return nil, p.fail("bad boolean")
	case 'i':
		t, err := p.until(';')
		if err != nil {
			return nil, err
		}
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return nil, p.fail("bad integer")
		}
		return n, nil
	case 'd':
		t, err := p.until(';')
		if err != nil {
			return nil, err
		}
		switch t {
		case "INF":
			return math.Inf(1), nil
		case "-INF":
			return math.Inf(-1), nil
		case "NAN":
			return math.NaN(), nil
		}
		f, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return nil, p.fail("bad float")
		}
		return f, nil
	case 's':
		t, err := p.until(':')
		if err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(t)
		if err != nil || n < 0 {
			return nil, p.fail("bad string length")
		}
		if err := p.expect('"'); err != nil {
			return nil, err
		}
		if p.i+n > len(p.s) {
			return nil, p.fail("string longer than the data")
		}
		out := p.s[p.i : p.i+n]
		p.i += n
		if err := p.expect('"'); err != nil {
			return nil, err
		}
		return out, p.expect(';')
	case 'a':
		t, err := p.until(':')
		if err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(t)
		// Each entry takes at least 4 bytes ("i:0;N;" is 6).
		if err != nil || n < 0 || n > (len(p.s)-p.i)/4 {
			return nil, p.fail("bad array length")
		}
		if err := p.expect('{'); err != nil {
			return nil, err
		}
		arr := make(phpArray, 0, n)
		for range n {
			k, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			switch k.(type) {
			case int64, string:
			default:
				return nil, p.fail("array key neither integer nor string")
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, phpEntry{Key: k, Value: v})
		}
		return arr, p.expect('}')
	}
	p.i--
	return nil, p.fail(fmt.Sprintf("unsupported type %q", kind))
}
