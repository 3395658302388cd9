package locales

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Slug returns an ASCII URL slug of s: lower case, words joined by hyphens.
// Letters are transliterated without knowing the locale: German umlauts
// become ae, oe, ue and ß ss; ø, æ, œ, ł and the like their usual Latin
// letters; other diacritics are stripped (é gives e); Cyrillic follows
// Russian romanisation, Hangul the Revised Romanization and kana Hepburn.
// Letters with no rule (Chinese characters, kanji) are percent-encoded as
// UTF-8, as a browser would write them in a URL. Slug returns "" when s
// has nothing to keep. Pack.Slug knows the locale and its names.
func Slug(s string) string {
	return string(appendFold(nil, nil, s, true))
}

// Slug is the package Slug with the locale's rules: its transliteration
// (ä gives a in Swedish and ae in German, и gives y in Ukrainian and i in
// Russian) and the romanised forms of its names, terms and cities ("東京"
// gives "tokyo" in Japanese).
func (p *Pack) Slug(s string) string {
	return string(appendFold(nil, p, s, true))
}

// Romanize returns the lower-case ASCII letters and digits of s under the
// locale's rules (see Slug), without separators: "Jürgen" gives "juergen"
// in German, "山田" gives "yamada" in Japanese. E-mail addresses and logins
// are built from it.
func (p *Pack) Romanize(s string) string {
	return string(appendFold(nil, p, s, false))
}

// appendFold appends the ASCII form of s. With slug set, runs of anything
// but letters and digits become one hyphen and letters without a rule are
// percent-encoded; without it they are dropped.
func appendFold(b []byte, p *Pack, s string, slug bool) []byte {
	start := len(b)
	pending := false
	prevLetter := false
	put := func(part string) {
		if part == "" {
			return
		}
		if pending && len(b) > start {
			b = append(b, '-')
		}
		pending = false
		for i := 0; i < len(part); i++ {
			c := part[i]
			switch {
			case 'A' <= c && c <= 'Z':
				b = append(b, c+'a'-'A')
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '%':
				b = append(b, c)
			default:
				pending = slug
			}
		}
	}
	double := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
				if pending && len(b) > start {
					b = append(b, '-')
				}
				pending = false
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				b = append(b, c)
				prevLetter = true
			} else {
				pending = slug
				prevLetter = false
			}
			i++
			continue
		}
		if p != nil && p.maxRomanLen > 0 {
			if roman, n := p.romanAt(s[i:]); n > 0 {
				if prevLetter {
					pending = slug
				}
				put(roman)
				pending = slug
				prevLetter = false
				i += n
				continue
			}
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		lower := unicode.ToLower(r)
		if p != nil && p.turkish && r == 'I' {
			lower = 'ı'
		}
		letter := unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Mn, r)
		var part string
		found := true
		if t, ok := p.translitRune(lower); ok {
			part = t[0]
			if prevLetter {
				part = t[1]
			}
		} else if t, ok := foldRune(lower, p == nil); ok {
			part = t
		} else if hangulSyllable(r) {
			initial, medial, final := hangulRoman(r)
			put(initial)
			put(medial)
			part = final
		} else if k := kanaRoman(r); k != "" || r == 'っ' || r == 'ッ' || r == 'ー' {
			if r == 'っ' || r == 'ッ' {
				double = true
				i += n
				continue
			}
			if r == 'ー' {
				i += n
				continue
			}
			if next, m := utf8.DecodeRuneInString(s[i+n:]); m > 0 {
				if v := smallKana(next); v != "" {
					k = combineKana(k, v)
					n += m
				}
			}
			if double {
				k = doubleConsonant(k)
				double = false
			}
			part = k
		} else if d := norm.NFD.PropertiesString(s[i:]).Decomposition(); len(d) > 0 && d[0] < utf8.RuneSelf {
			part = asciiPrefix(d)
		} else {
			found = false
		}
		switch {
		case found:
			put(part)
			prevLetter = letter
		case letter && slug:
			if pending && len(b) > start {
				b = append(b, '-')
			}
			pending = false
			const hex = "0123456789abcdef"
			for j := i; j < i+n; j++ {
				b = append(b, '%', hex[s[j]>>4], hex[s[j]&15])
			}
			prevLetter = true
		case letter:
			prevLetter = true
		default:
			pending = slug
			prevLetter = false
		}
		i += n
	}
	return b
}

// asciiPrefix returns the leading ASCII bytes of a decomposition ("e" of é).
func asciiPrefix(d []byte) string {
	n := 0
	for n < len(d) && d[n] < utf8.RuneSelf {
		n++
	}
	return string(d[:n])
}

// romanAt returns the romanised form of the longest name, term or city at
// the start of s, and its length in bytes.
func (p *Pack) romanAt(s string) (string, int) {
	var ends [32]int
	k := 0
	for i := range s {
		if i > 0 {
			ends[k] = i
			k++
			if k == p.maxRomanLen || k == len(ends)-1 {
				break
			}
		}
	}
	if k < p.maxRomanLen && k < len(ends)-1 {
		ends[k] = len(s)
		k++
	}
	for j := k - 1; j >= 0; j-- {
		if r, ok := p.roman[s[:ends[j]]]; ok {
			return r, ends[j]
		}
	}
	return "", 0
}

func (p *Pack) translitRune(r rune) ([2]string, bool) {
	if p == nil || p.translit == nil {
		return [2]string{}, false
	}
	t, ok := p.translit[r]
	return t, ok
}

// foldRune transliterates the lower-case letters that decomposition does not
// reduce to ASCII. German umlauts are folded to ae, oe, ue only when no
// locale says otherwise (deflt).
func foldRune(r rune, deflt bool) (string, bool) {
	if deflt {
		switch r {
		case 'ä':
			return "ae", true
		case 'ö':
			return "oe", true
		case 'ü':
			return "ue", true
		}
	}
	switch r {
	case 'ß':
		return "ss", true
	case 'æ':
		return "ae", true
	case 'ø':
		return "o", true
	case 'œ':
		return "oe", true
	case 'ł':
		return "l", true
	case 'đ', 'ð':
		return "d", true
	case 'þ':
		return "th", true
	case 'ı':
		return "i", true
	case 'ħ':
		return "h", true
	case 'ŋ':
		return "ng", true
	case 'ſ':
		return "s", true
	// Cyrillic: Russian romanisation, with the Ukrainian and Belarusian letters.
	case 'а':
		return "a", true
	case 'б':
		return "b", true
	case 'в':
		return "v", true
	case 'г':
		return "g", true
	case 'ґ':
		return "g", true
	case 'д':
		return "d", true
	case 'е', 'ё', 'э':
		return "e", true
	case 'є':
		return "ye", true
	case 'ж':
		return "zh", true
	case 'з':
		return "z", true
	case 'и', 'і':
		return "i", true
	case 'ї':
		return "yi", true
	case 'й':
		return "y", true
	case 'к':
		return "k", true
	case 'л':
		return "l", true
	case 'м':
		return "m", true
	case 'н':
		return "n", true
	case 'о':
		return "o", true
	case 'п':
		return "p", true
	case 'р':
		return "r", true
	case 'с':
		return "s", true
	case 'т':
		return "t", true
	case 'у':
		return "u", true
	case 'ў':
		return "w", true
	case 'ф':
		return "f", true
	case 'х':
		return "kh", true
	case 'ц':
		return "ts", true
	case 'ч':
		return "ch", true
	case 'ш':
		return "sh", true
	case 'щ':
		return "shch", true
	case 'ъ', 'ь', '’', 'ʼ':
		return "", true
	case 'ы':
		return "y", true
	case 'ю':
		return "yu", true
	case 'я':
		return "ya", true
	}
	return "", false
}

// Hangul syllables are composed of an initial, a medial and an optional
// final jamo: 0xAC00 + (initial*21 + medial)*28 + final.

func hangulSyllable(r rune) bool { return r >= 0xAC00 && r <= 0xD7A3 }

// hangulFinal reports whether s ends with a Hangul syllable closed by a
// final consonant (which takes 은, 이, 을 rather than 는, 가, 를).
func hangulFinal(s string) bool {
	r := lastRune(s)
	return hangulSyllable(r) && (r-0xAC00)%28 != 0
}

// mergeFinal closes the open last syllable of s with the consonant letter
// c (ㅂ turns 바꾸 into 바꿉).
func mergeFinal(s string, c rune) (string, bool) {
	finals := [...]int{1, 2, 3, 4, 5, 6, 7, 0, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 0, 18, 19, 20, 21, 22, 0, 23, 24, 25, 26, 27}
	r, n := utf8.DecodeLastRuneInString(s)
	if !hangulSyllable(r) || (r-0xAC00)%28 != 0 || c < 0x3131 || int(c-0x3131) >= len(finals) {
		return s, false
	}
	f := finals[c-0x3131]
	if f == 0 {
		return s, false
	}
	return s[:len(s)-n] + string(r+rune(f)), true
}

// hangulRoman romanises one syllable by the Revised Romanization, letter by
// letter (without the sound changes across syllables): its initial, medial
// and final, returned apart so that nothing is allocated.
func hangulRoman(r rune) (initial, medial, final string) {
	initials := [...]string{"g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"}
	medials := [...]string{"a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi", "yu", "eu", "ui", "i"}
	finals := [...]string{"", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t", "t", "ng", "t", "t", "k", "t", "p", "t"}
	v := int(r - 0xAC00)
	return initials[v/(21*28)], medials[v/28%21], finals[v%28]
}

// kanaRoman romanises one hiragana or katakana letter (Hepburn).
func kanaRoman(r rune) string {
	if r >= 0x30A1 && r <= 0x30F6 {
		r -= 0x60 // katakana to hiragana
	}
	if r < 0x3041 || r > 0x3096 {
		return ""
	}
	const table = "a a i i u u e e o o ka ga ki gi ku gu ke ge ko go sa za shi ji su zu se ze so zo ta da chi ji - tsu zu te de to do na ni nu ne no ha ba pa hi bi pi fu bu pu he be pe ho bo po ma mi mu me mo ya ya yu yu yo yo ra ri ru re ro wa wa wi we o n vu ka ke"
	i := int(r - 0x3041)
	for j, w := 0, 0; j < len(table); w++ {
		k := j
		for k < len(table) && table[k] != ' ' {
			k++
		}
		if w == i {
			if table[j:k] == "-" {
				return ""
			}
			return table[j:k]
		}
		j = k + 1
	}
	return ""
}

// smallKana returns the sound of a small kana that combines with the one
// before it (ゃ in きゃ, ィ in ティ), or "".
func smallKana(r rune) string {
	if r >= 0x30A1 && r <= 0x30F6 {
		r -= 0x60
	}
	switch r {
	case 'ゃ':
		return "ya"
	case 'ゅ':
		return "yu"
	case 'ょ':
		return "yo"
	case 'ぁ':
		return "a"
	case 'ぃ':
		return "i"
	case 'ぅ':
		return "u"
	case 'ぇ':
		return "e"
	case 'ぉ':
		return "o"
	}
	return ""
}

// combineKana joins a kana and the small one after it: ki+ya gives kya,
// shi+ya sha, te+i ti, fu+a fa.
func combineKana(k, small string) string {
	stem := k[:len(k)-1]
	if small[0] == 'y' {
		if stem == "sh" || stem == "ch" || stem == "j" {
			return stem + small[1:]
		}
		return stem + small
	}
	return stem + small
}

// doubleConsonant doubles the first consonant after a small tsu (tchi for
// chi).
func doubleConsonant(k string) string {
	if k == "" || k[0] == 'a' || k[0] == 'i' || k[0] == 'u' || k[0] == 'e' || k[0] == 'o' {
		return k
	}
	if k[0] == 'c' {
		return "t" + k
	}
	return k[:1] + k
}
