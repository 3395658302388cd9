package fill

import (
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TextSource makes up running text for field values. The Writer of the
// locales package satisfies it (and Titler, CityNamer and DomainNamer);
// LoremText is a self-contained one. A TextSource is used from one
// goroutine at a time.
type TextSource interface {
	// Words returns n words separated by spaces, without punctuation.
	Words(n int) string
	// Sentence returns one capitalised sentence of min to max words.
	Sentence(min, max int) string
	// Paragraph returns min to max sentences as plain text.
	Paragraph(min, max int) string
}

// Titler is an optional TextSource capability: a title of a few words.
type Titler interface{ Title() string }

// CityNamer is an optional TextSource capability: a city name of the
// locale.
type CityNamer interface{ City() string }

// DomainNamer is an optional TextSource capability: a reserved example
// domain for made-up e-mail addresses and URLs.
type DomainNamer interface{ Domain() string }

// PersonNamer is an optional TextSource capability: given and family
// names of the locale.
type PersonNamer interface {
	FirstName() string
	LastName() string
}

// LoremText is a TextSource of Latin placeholder text with small built-in
// lists of names, cities and example domains. It implements every optional
// capability. It is not safe for concurrent use.
type LoremText struct {
	r   *rand.Rand
	buf []byte
}

var _ interface {
	TextSource
	Titler
	CityNamer
	DomainNamer
	PersonNamer
} = (*LoremText)(nil)

// NewLoremText returns a LoremText drawing from r.
func NewLoremText(r *rand.Rand) *LoremText { return &LoremText{r: r, buf: make([]byte, 0, 1024)} }

func pick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

func between(r *rand.Rand, lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + r.IntN(hi-lo+1)
}

func (l *LoremText) appendWords(n int) {
	for i := 0; i < n; i++ {
		if i > 0 {
			l.buf = append(l.buf, ' ')
		}
		l.buf = append(l.buf, pick(l.r, loremWords)...)
	}
}

// appendSentence appends n words (at least one), capitalised, with a
// full stop.
func (l *LoremText) appendSentence(n int) {
	start := len(l.buf)
	l.appendWords(max(n, 1))
	if c := l.buf[start]; 'a' <= c && c <= 'z' {
		l.buf[start] = c - 'a' + 'A'
	}
	l.buf = append(l.buf, '.')
}

// Words implements TextSource.
func (l *LoremText) Words(n int) string {
	l.buf = l.buf[:0]
	l.appendWords(n)
	return string(l.buf)
}

// Sentence implements TextSource.
func (l *LoremText) Sentence(lo, hi int) string {
	l.buf = l.buf[:0]
	l.appendSentence(between(l.r, lo, hi))
	return string(l.buf)
}

// Paragraph implements TextSource.
func (l *LoremText) Paragraph(lo, hi int) string {
	l.buf = l.buf[:0]
	for i, n := 0, max(between(l.r, lo, hi), 1); i < n; i++ {
		if i > 0 {
			l.buf = append(l.buf, ' ')
		}
		l.appendSentence(between(l.r, 6, 14))
	}
	return string(l.buf)
}

// Title implements Titler.
func (l *LoremText) Title() string { return titleCase(l.Words(between(l.r, 2, 6))) }

// City implements CityNamer.
func (l *LoremText) City() string { return pick(l.r, fallbackCities) }

// Domain implements DomainNamer.
func (l *LoremText) Domain() string { return pick(l.r, exampleDomains) }

// FirstName implements PersonNamer.
func (l *LoremText) FirstName() string { return pick(l.r, fallbackFirstNames) }

// LastName implements PersonNamer.
func (l *LoremText) LastName() string { return pick(l.r, fallbackLastNames) }

func capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 || unicode.IsUpper(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

func titleCase(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = capitalize(w)
	}
	return strings.Join(words, " ")
}

var loremWords = strings.Fields(`lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod
tempor incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation
ullamco laboris nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit
esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non proident sunt culpa qui officia
deserunt mollit anim id est laborum porta nibh venenatis cras pulvinar mattis nunc vitae tortor
condimentum lacinia quis vel eros donec ac odio tempor orci dapibus ultrices iaculis urna`)

var fallbackFirstNames = []string{"Anna", "Ben", "Clara", "David", "Elena", "Felix", "Greta", "Hugo", "Ines", "Jonas", "Klara", "Lucas", "Marie", "Noah", "Olivia", "Paul", "Rosa", "Samuel", "Tara", "Victor"}

var fallbackLastNames = []string{"Adler", "Berger", "Costa", "Dubois", "Evans", "Fischer", "Garcia", "Hansen", "Jansen", "Kowalski", "Lambert", "Moreau", "Novak", "Rossi", "Schmidt", "Silva", "Taylor", "Weber", "Wright", "Young"}

var fallbackCities = []string{"Amsterdam", "Berlin", "Bordeaux", "Cologne", "Gdansk", "Hamburg", "Krakow", "Lisbon", "Lyon", "Madrid", "Milan", "Munich", "Porto", "Rotterdam", "Seville", "Turin", "Valencia", "Vienna", "Warsaw", "Zurich"}

// exampleDomains are reserved for documentation (RFC 2606), so generated
// addresses never reach anyone.
var exampleDomains = []string{"example.com", "example.org", "example.net"}
