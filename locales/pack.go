package locales

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Pack is the immutable language data of one locale: names, vocabulary and
// sentence patterns, term and city names, typography and formatting rules.
// Obtain one with Registry.Lookup; it is safe for concurrent use.
type Pack struct {
	locale Locale
	// lorem is the Latin vocabulary of the Lorem source, shared by all packs
	// of a Registry.
	lorem []string
	// loremPacked holds the same words as fixed blocks, for the writer's
	// word loop.
	loremPacked []packedWord

	// female and male are given names; familyM and familyF are the family
	// names in their masculine and feminine forms (equal where the language
	// does not inflect them), index for index.
	female, male     []string
	familyM, familyF []string
	// roman maps names, terms and cities written in a non-Latin script to
	// their Latin form.
	roman       map[string]string
	maxRomanLen int
	familyFirst bool
	nameSep     string

	// textSep separates words of running text ("" in Chinese and Japanese).
	textSep   string
	titleCase bool
	turkish   bool
	stop      string
	exclaim   string
	quotes    [4]string
	// termJoin joins two term names ("Reisen und Musik").
	termJoin      string
	termJoinAlt   string
	termJoinAltOn []string
	termLower     bool
	// punctBefore and punctAfter are the characters that take a narrow
	// no-break space before or after them (French typography).
	punctBefore, punctAfter string

	g grammar
	// lex is the typed lexicon and the sentence frames, nil for a pack
	// that writes from its clause patterns alone.
	lex     *lexicon
	lists   [][]string
	terms   []string
	cities  []string
	domains []string
	clauses []pattern
	titles  []pattern
	bios    []pattern
	openers []pattern
	joiners []string
	// clauseWords is the average number of words of a clause, to size
	// sentences.
	clauseWords int

	translit map[rune][2]string

	// topics are the topics of the [topics] section, in the order of
	// topicDefs; topicNames maps folded term names and topic nouns to them.
	topics     []topic
	topicNames map[string]int
	// topicShare is the percentage of nouns real text about a topic takes
	// from the topic.
	topicShare int

	date     []string
	firstDay string
	months   [12]string
	decimal  string
	group    string
	minGroup int
	minus    string
}

// Locale returns the locale the pack belongs to.
func (p *Pack) Locale() Locale { return p.locale }

// FamilyFirst reports whether full names put the family name first
// (Japanese, Chinese, Korean).
func (p *Pack) FamilyFirst() bool { return p.familyFirst }

// Quote returns s between the locale's primary quotation marks, with the
// spacing the locale's typography asks for: “s” in English, „s“ in German,
// « s » in French (narrow no-break spaces), 「s」 in Japanese.
func (p *Pack) Quote(s string) string {
	return p.quotes[0] + s + p.quotes[1]
}

// QuoteInner is Quote with the secondary marks used for a quotation inside a
// quotation: ‘s’ in American English, ‚s‘ in German.
func (p *Pack) QuoteInner(s string) string {
	return p.quotes[2] + s + p.quotes[3]
}

// FormatDate returns the date of t (in t's location) as the locale writes
// it in running text: "January 2, 2006" (en_US), "2 January 2006" (en_GB),
// "2. Januar 2006" (de_DE), "2 января 2006 г." (ru_RU), "2006年1月2日" (ja).
func (p *Pack) FormatDate(t time.Time) string {
	b := make([]byte, 0, 32)
	for _, tok := range p.date {
		switch tok {
		case "{d}":
			if t.Day() == 1 && p.firstDay != "" {
				b = append(b, p.firstDay...)
				continue
			}
			b = strconv.AppendInt(b, int64(t.Day()), 10)
		case "{dd}":
			b = append2(b, t.Day())
		case "{m}":
			b = strconv.AppendInt(b, int64(t.Month()), 10)
		case "{mm}":
			b = append2(b, int(t.Month()))
		case "{month}":
			b = append(b, p.months[t.Month()-1]...)
		case "{yyyy}":
			b = strconv.AppendInt(b, int64(t.Year()), 10)
		default:
			b = append(b, tok...)
		}
	}
	return string(b)
}

func append2(b []byte, n int) []byte {
	if n < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(n), 10)
}

// FormatNumber returns f rounded to decimals places with the locale's
// decimal separator and digit grouping: 1,234.5 (en), 1.234,5 (de),
// 1 234,5 (fr, with a narrow no-break space), 1234,5 but 12.345,6 (es,
// where four-digit numbers are not grouped). A negative decimals counts as
// 0; NaN and infinities are written as strconv does.
func (p *Pack) FormatNumber(f float64, decimals int) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	var tmp [96]byte
	return string(p.appendNumber(tmp[:0], f, decimals))
}

// appendNumber appends f as FormatNumber writes it; f must be finite.
func (p *Pack) appendNumber(b []byte, f float64, decimals int) []byte {
	if decimals < 0 {
		decimals = 0
	}
	var tmp [64]byte
	digits := strconv.AppendFloat(tmp[:0], math.Abs(f), 'f', decimals, 64)
	intPart, frac := digits, digits[:0]
	if i := bytes.IndexByte(digits, '.'); i >= 0 {
		intPart, frac = digits[:i], digits[i+1:]
	}
	if f < 0 && len(bytes.Trim(digits, "0.")) > 0 {
		b = append(b, p.minus...)
	}
	if len(intPart) >= 3+p.minGroup {
		first := len(intPart) % 3
		if first == 0 {
			first = 3
		}
		b = append(b, intPart[:first]...)
		for i := first; i < len(intPart); i += 3 {
			b = append(b, p.group...)
			b = append(b, intPart[i:i+3]...)
		}
	} else {
		b = append(b, intPart...)
	}
	if len(frac) > 0 {
		b = append(b, p.decimal...)
		b = append(b, frac...)
	}
	return b
}

// packedWordMax is the longest word a packedWord holds.
const packedWordMax = 15

// packedWord is a word of at most packedWordMax bytes in a block of 16, its
// length in the last byte: copying it is one fixed-size move, not a call.
type packedWord [packedWordMax + 1]byte

func packWords(words []string) ([]packedWord, error) {
	out := make([]packedWord, len(words))
	for i, w := range words {
		if len(w) > packedWordMax {
			return nil, fmt.Errorf("locales: placeholder word %q is longer than %d bytes", w, packedWordMax)
		}
		copy(out[i][:], w)
		out[i][packedWordMax] = byte(len(w))
	}
	return out, nil
}
