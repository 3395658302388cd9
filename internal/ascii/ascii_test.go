package ascii

import "testing"

func TestLetter(t *testing.T) {
	for in, want := range map[rune]string{'ß': "ss", 'Æ': "AE", 'ø': "o", 'Ł': "L", 'þ': "th", 'Þ': "TH", 'œ': "oe"} {
		if got, ok := Letter(in); !ok || got != want {
			t.Errorf("Letter(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, r := range []rune{'a', 'é', '–', '東', 'ж'} {
		if got, ok := Letter(r); ok {
			t.Errorf("Letter(%q) = %q; want no spelling", r, got)
		}
	}
}
