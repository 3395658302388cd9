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
