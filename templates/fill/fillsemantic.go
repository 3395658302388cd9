package fill

import (
	"github.com/contentgen/contentgen/templates/fields"
	"strconv"
	"strings"

	"github.com/brianvoe/gofakeit/v7/data"

	"github.com/contentgen/contentgen/internal/ascii"
)

// semanticText makes a string value of semantic type sem, for text-like
// fields; false when sem has no text form.
func (g *Filler) semanticText(sem string, f *fields.Field) (string, bool) {
	switch sem {
	case fields.SemEmail:
		return g.email(f.MaxLength), true
	case fields.SemURL:
		return g.url(f.MaxLength), true
	case fields.SemPhone:
		return g.phone(), true
	case fields.SemFirstName:
		return g.firstName(), true
	case fields.SemLastName:
		return g.lastName(), true
	case fields.SemFullName:
		return g.firstName() + " " + g.lastName(), true
	case fields.SemUsername:
		return asciiLower(g.firstName()) + "." + asciiLower(g.lastName()) + strconv.Itoa(between(g.r, 1, 99)), true
	case fields.SemCompany:
		return g.lastName() + " " + pick(g.r, companySuffixes), true
	case fields.SemJobTitle:
		return pick(g.r, jobTitles), true
	case fields.SemAddress:
		return g.address(), true
	case fields.SemCity:
		return g.city(), true
	case fields.SemPostcode:
		return strconv.Itoa(between(g.r, 10000, 99999)), true
	case fields.SemState:
		return pick(g.r, regions), true
	case fields.SemCountry:
		return pick(g.r, countries), true
	case fields.SemCurrency:
		return pick(g.r, currencies), true
	case fields.SemISBN:
		return g.isbn(f.MaxLength), true
	case fields.SemSKU:
		return string(rune('A'+g.r.IntN(26))) + string(rune('A'+g.r.IntN(26))) + string(rune('A'+g.r.IntN(26))) +
			"-" + strconv.Itoa(between(g.r, 10000, 99999)), true
	case fields.SemColor:
		return g.color(f.EnableOpacity), true
	case fields.SemDate:
		g.buf = AppendPHPDate(g.buf[:0], g.randomTime(sem), "Y-m-d")
		return string(g.buf), true
	case fields.SemBirthDate:
		g.buf = AppendPHPDate(g.buf[:0], g.randomTime(sem), "Y-m-d")
		return string(g.buf), true
	case fields.SemDateTime:
		g.buf = AppendPHPDate(g.buf[:0], g.randomTime(sem), "Y-m-d H:i:s")
		return string(g.buf), true
	case fields.SemTime:
		g.buf = AppendPHPDate(g.buf[:0], g.randomTime(sem), "H:i")
		return string(g.buf), true
	case fields.SemIPAddress:
		return pick(g.r, docNets) + strconv.Itoa(between(g.r, 1, 254)), true
	case fields.SemIBAN:
		return g.iban(), true
	case fields.SemLanguage:
		return pick(g.r, languages), true
	case fields.SemTitle:
		if t, ok := g.text.(Titler); ok {
			return t.Title(), true
		}
		return titleCase(g.text.Words(between(g.r, 2, 6))), true
	case fields.SemDescription:
		if f.Type == fields.TypeText {
			return g.text.Sentence(8, 16), true
		}
		return g.text.Paragraph(2, 4), true
	}
	if r, ok := semanticRanges[sem]; ok {
		// A number kept in a text field.
		v := g.number(&fields.Field{Type: fields.TypeNumber, DetectedType: sem, Min: f.Min, Max: f.Max, Step: f.Step}, nil)
		switch x := v.(type) {
		case int:
			return strconv.Itoa(x), true
		case float64:
			return strconv.FormatFloat(x, 'f', r.decimals, 64), true
		}
	}
	return "", false
}

func (g *Filler) firstName() string {
	if p, ok := g.text.(PersonNamer); ok {
		return p.FirstName()
	}
	return pick(g.r, fallbackFirstNames)
}

func (g *Filler) lastName() string {
	if p, ok := g.text.(PersonNamer); ok {
		return p.LastName()
	}
	return pick(g.r, fallbackLastNames)
}

func (g *Filler) city() string {
	if c, ok := g.text.(CityNamer); ok {
		return c.City()
	}
	return pick(g.r, fallbackCities)
}

func (g *Filler) domain() string {
	if d, ok := g.text.(DomainNamer); ok {
		return d.Domain()
	}
	return pick(g.r, exampleDomains)
}

// email returns an address at an example domain, as short as maxLen
// demands when possible (0: no cap).
func (g *Filler) email(maxLen int) string {
	first, last, dom := asciiLower(g.firstName()), asciiLower(g.lastName()), g.domain()
	e := first + "." + last
	if g.r.IntN(2) == 0 {
		e += strconv.Itoa(between(g.r, 1, 99))
	}
	e += "@" + dom
	if maxLen > 0 && len(e) > maxLen {
		e = first[:1] + last[:1] + "@" + dom
		if len(e) > maxLen {
			e = e[:maxLen]
		}
	}
	return e
}

// url returns an https URL at an example domain (0: no length cap).
func (g *Filler) url(maxLen int) string {
	u := "https://www." + g.domain() + "/" + strings.ReplaceAll(asciiLower(g.text.Words(between(g.r, 1, 3))), " ", "-")
	if maxLen > 0 && len(u) > maxLen {
		u = "https://" + g.domain()
		if len(u) > maxLen {
			u = u[:maxLen]
		}
	}
	return u
}

// phone returns a number from ranges reserved for fiction: the North
// American 555-01xx block and the UK's 020 7946 0xxx drama range.
func (g *Filler) phone() string {
	if g.r.IntN(2) == 0 {
		return "+1 555-01" + twoDigits(g.r.IntN(100))
	}
	return "+44 20 7946 0" + twoDigits(g.r.IntN(100)) + strconv.Itoa(g.r.IntN(10))
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func (g *Filler) address() string {
	return strconv.Itoa(between(g.r, 1, 199)) + " " + capitalize(g.text.Words(1)) + " " + pick(g.r, streetKinds)
}

func (g *Filler) password(maxLen int) string {
	const chars = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!#%+-"
	n := 16
	if maxLen > 0 {
		n = min(n, maxLen)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[g.r.IntN(len(chars))]
	}
	return string(b)
}

// isbn returns a valid ISBN-13, hyphenated when maxLen allows.
func (g *Filler) isbn(maxLen int) string {
	d := make([]byte, 13)
	copy(d, "978")
	for i := 3; i < 12; i++ {
		d[i] = byte('0' + g.r.IntN(10))
	}
	d[12] = byte('0' + isbnCheck(d[:12]))
	if maxLen > 0 && maxLen < 17 {
		return string(d)
	}
	s := string(d)
	return s[:3] + "-" + s[3:4] + "-" + s[4:8] + "-" + s[8:12] + "-" + s[12:]
}

// isbnCheck returns the ISBN-13 check digit of 12 digits.
func isbnCheck(d []byte) int {
	sum := 0
	for i, c := range d {
		w := 1
		if i%2 == 1 {
			w = 3
		}
		sum += int(c-'0') * w
	}
	return (10 - sum%10) % 10
}

// iban returns a German IBAN with valid check digits.
func (g *Filler) iban() string {
	bban := make([]byte, 18)
	for i := range bban {
		bban[i] = byte('0' + g.r.IntN(10))
	}
	// Check digits: BBAN + "DE00" as digits (D=13, E=14), mod 97.
	rem := 0
	for _, c := range string(bban) + "131400" {
		rem = (rem*10 + int(c-'0')) % 97
	}
	return "DE" + twoDigits(98-rem) + string(bban)
}

// asciiLower lower-cases s, folds accents and drops everything but ASCII
// letters and digits.
func asciiLower(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			if f, ok := ascii.Fold(r); ok {
				b.WriteString(f)
			}
		}
	}
	if b.Len() == 0 {
		return "x"
	}
	return b.String()
}

var companySuffixes = []string{"Group", "& Partners", "Ltd", "Inc.", "Holding", "Labs", "Studio", "Trading", "Consulting", "Works"}

// The job titles, countries, currency codes and language names are gofakeit's
// English reference tables (read only; drawn with the run's seeded source,
// so values stay reproducible).
var (
	jobTitles  = data.Job["title"]
	countries  = data.Address["country"]
	currencies = data.Currency["short"]
	languages  = data.Languages["long"]
)

var streetKinds = []string{"Street", "Road", "Avenue", "Lane", "Way", "Square"}

var regions = []string{"Bavaria", "California", "Catalonia", "Lombardy", "Ontario", "Provence", "Queensland", "Saxony", "Texas", "Tuscany", "Utrecht", "Masovia", "Andalusia", "Normandy"}

// docNets are the IPv4 blocks reserved for documentation (RFC 5737).
var docNets = []string{"192.0.2.", "198.51.100.", "203.0.113."}
