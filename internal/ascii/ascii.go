// Package ascii spells letters that Unicode decomposition cannot reduce to
// ASCII, for file names and captions.
package ascii

// Letter returns the usual ASCII spelling of a Latin letter that has no
// decomposition (ß gives ss, ø gives o, Þ gives TH), keeping its case, and
// false for any other rune.
func Letter(r rune) (string, bool) {
	switch r {
	case 'ß':
		return "ss", true
	case 'æ':
		return "ae", true
	case 'Æ':
		return "AE", true
	case 'ø':
		return "o", true
	case 'Ø':
		return "O", true
	case 'œ':
		return "oe", true
	case 'Œ':
		return "OE", true
	case 'ł':
		return "l", true
	case 'Ł':
		return "L", true
	case 'đ':
		return "d", true
	case 'Đ':
		return "D", true
	case 'þ':
		return "th", true
	case 'Þ':
		return "TH", true
	}
	return "", false
}

// Fold returns the ASCII spelling of a lower-case accented Latin letter
// of the languages field names are written in (ä gives a, ß gives ss,
// ł gives l), and false for any other rune.
func Fold(r rune) (string, bool) {
	f, ok := fold[r]
	return f, ok
}

var fold = map[rune]string{
	'ä': "a", 'ö': "o", 'ü': "u", 'ß': "ss", 'à': "a", 'á': "a", 'â': "a", 'ã': "a", 'å': "a",
	'æ': "ae", 'ç': "c", 'è': "e", 'é': "e", 'ê': "e", 'ë': "e", 'ì': "i", 'í': "i", 'î': "i",
	'ï': "i", 'ñ': "n", 'ò': "o", 'ó': "o", 'ô': "o", 'õ': "o", 'ø': "o", 'ù': "u", 'ú': "u",
	'û': "u", 'ý': "y", 'ÿ': "y", 'ł': "l", 'ś': "s", 'ź': "z", 'ż': "z", 'ć': "c", 'ń': "n",
	'ę': "e", 'ą': "a", 'č': "c", 'ř': "r", 'š': "s", 'ž': "z", 'ě': "e", 'ů': "u", 'œ': "oe",
}
