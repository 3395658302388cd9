package fields

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/contentgen/contentgen/internal/ascii"
)

// Detection is the semantic type found for one field.
type Detection struct {
	// Type is one of SemanticTypes, "" when nothing was detected.
	Type string `json:"detected_type"`
	// Confidence is between 0 and 1; 0 when Type is "".
	Confidence float64 `json:"confidence"`
	// Source says what gave the type away: "name", "label", "key",
	// "instructions" or "field_type".
	Source string `json:"source,omitempty"`
	// Match is the normalised word or phrase that matched.
	Match string `json:"match,omitempty"`
}

// MinConfidence is the confidence below which Detect reports nothing.
const MinConfidence = 0.5

// phrase is one normalised synonym.
type phrase struct {
	sem       string
	text      string // tokens joined by spaces
	tokens    int
	exactOnly bool
}

// index is the normalised synonym table, built once.
type index struct {
	spaced map[string][]phrase // "first name" -> phrases
	joined map[string][]phrase // "firstname" -> phrases (all tokens joined)
	// compound holds single-word keys long enough to be found inside
	// compound words ("kundentelefon").
	compound []string
}

var detectIndex = sync.OnceValue(buildIndex)

func buildIndex() *index {
	ix := &index{spaced: map[string][]phrase{}, joined: map[string][]phrase{}}
	seen := map[string]bool{}
	for _, st := range semanticTypes {
		for _, raw := range synonyms[st.name] {
			exact := strings.HasPrefix(raw, "=")
			raw = strings.TrimPrefix(raw, "=")
			for _, variant := range umlautVariants(raw) {
				toks := normalize(variant, nil)
				if len(toks) == 0 {
					continue
				}
				p := phrase{sem: st.name, text: strings.Join(toks, " "), tokens: len(toks), exactOnly: exact}
				if seen[p.sem+"|"+p.text] {
					continue
				}
				seen[p.sem+"|"+p.text] = true
				ix.spaced[p.text] = append(ix.spaced[p.text], p)
				j := strings.Join(toks, "")
				ix.joined[j] = append(ix.joined[j], p)
				if !exact && len(j) >= 5 && len(ix.joined[j]) == 1 {
					ix.compound = append(ix.compound, j)
				}
			}
		}
	}
	return ix
}

// umlautVariants returns s and, when it holds German umlauts, s with them
// written ae, oe, ue (both spellings occur in field names).
func umlautVariants(s string) []string {
	if !strings.ContainsAny(s, "äöüÄÖÜ") {
		return []string{s}
	}
	r := strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "Ä", "Ae", "Ö", "Oe", "Ü", "Ue")
	return []string{s, r.Replace(s)}
}

// noisePrefixes are leading words of field names that carry no meaning.
var noisePrefixes = map[string]bool{
	"field": true, "acf": true, "wpcf": true, "meta": true, "cf": true, "custom": true,
	"fld": true, "wp": true, "my": true, "pods": true, "mb": true, "jet": true,
}

// normalize splits s into lower-case ASCII words: accents folded, split at
// separators, camelCase humps and letter-digit boundaries, with
// hexadecimal ids ("5f8a1c" in "field_5f8a1c") and meaningless leading
// prefixes ("field_", "acf_", "wpcf-", ...) dropped. It appends to dst.
func normalize(s string, dst []string) []string {
	start := len(dst)
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			dst = append(dst, b.String())
			b.Reset()
		}
	}
	for _, chunk := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if looksLikeID(chunk) {
			continue
		}
		var prev rune
		for i, r := range chunk {
			next, _ := utf8.DecodeRuneInString(chunk[i+utf8.RuneLen(r):])
			switch {
			case unicode.IsUpper(r):
				// "firstName" and the "N" of "HTMLName" start a word.
				if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && unicode.IsLower(next) {
					flush()
				}
				writeFolded(&b, unicode.ToLower(r))
			case unicode.IsLetter(r):
				if unicode.IsDigit(prev) {
					flush()
				}
				writeFolded(&b, r)
			default: // digit
				if unicode.IsLetter(prev) {
					flush()
				}
				b.WriteRune(r)
			}
			prev = r
		}
		flush()
	}
	words := dst[start:]
	for len(words) > 1 && noisePrefixes[words[0]] {
		words = words[1:]
	}
	return append(dst[:start], words...)
}

func looksLikeID(s string) bool {
	if len(s) < 6 {
		return false
	}
	digits := 0
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		default:
			return false
		}
	}
	return digits > 0
}

func writeFolded(b *strings.Builder, r rune) {
	if r < utf8.RuneSelf {
		b.WriteRune(r)
		return
	}
	if f, ok := ascii.Fold(r); ok {
		b.WriteString(f)
		return
	}
	if unicode.IsLetter(r) {
		b.WriteRune(r)
	}
}

// candidate is one possible detection with the evidence behind it.
type candidate struct {
	sem    string
	score  float64
	source string
	match  string
	end    int // token position after the match: later words weigh more
	length int // characters matched
}

func (c candidate) beats(o candidate) bool {
	switch {
	case c.score != o.score:
		return c.score > o.score
	case c.end != o.end:
		return c.end > o.end
	case c.length != o.length:
		return c.length > o.length
	}
	return semRank(c.sem) < semRank(o.sem)
}

// scan finds the synonyms in one text, calling add for each.
func (ix *index) scan(toks []string, source string, weight float64, add func(candidate)) {
	n := len(toks)
	matched := make([]bool, n)
	for i := 0; i < n; i++ {
		for j := i + 1; j <= n && j-i <= 5; j++ {
			exact := i == 0 && j == n
			spaced := strings.Join(toks[i:j], " ")
			ps := ix.spaced[spaced]
			if len(ps) == 0 {
				ps = ix.joined[strings.Join(toks[i:j], "")]
			}
			for _, p := range ps {
				if p.exactOnly && !exact {
					continue
				}
				// The last word of a name is its head ("shipping_address_city"
				// is a city), so a match there counts more.
				score := 0.6 + 0.15*float64(j-i)/float64(n)
				if j == n {
					score += 0.15
				}
				if exact {
					score = 0.95
				}
				if source == "instructions" {
					score = 0.55
				}
				for k := i; k < j; k++ {
					matched[k] = true
				}
				add(candidate{sem: p.sem, score: score * weight, source: source, match: p.text, end: j, length: len(spaced)})
			}
		}
	}
	if source == "instructions" {
		return
	}
	// Compound words: "kundentelefon" ends with "telefon".
	for i, t := range toks {
		if matched[i] || len(t) < 6 {
			continue
		}
		for _, key := range ix.compound {
			if len(key) >= len(t) || !(strings.HasSuffix(t, key) || strings.HasPrefix(t, key)) {
				continue
			}
			for _, p := range ix.joined[key] {
				if p.exactOnly {
					continue
				}
				cover := float64(len(key)) / float64(len(t))
				score := (0.5 + 0.2*cover) * (0.75 + 0.25/float64(n))
				add(candidate{sem: p.sem, score: score * weight, source: source, match: key, end: i + 1, length: len(key)})
			}
		}
	}
}

// typeDetections are the semantic types a field's type alone implies.
var typeDetections = map[string]Detection{
	TypeEmail:          {Type: SemEmail, Confidence: 0.9, Source: "field_type"},
	TypeURL:            {Type: SemURL, Confidence: 0.9, Source: "field_type"},
	TypeColorPicker:    {Type: SemColor, Confidence: 0.9, Source: "field_type"},
	TypeDatePicker:     {Type: SemDate, Confidence: 0.8, Source: "field_type"},
	TypeDateTimePicker: {Type: SemDateTime, Confidence: 0.8, Source: "field_type"},
	TypeTimePicker:     {Type: SemTime, Confidence: 0.8, Source: "field_type"},
}

// Detect finds what f means from its name, label, key, instructions and
// type, without any network call: names in English, German, French,
// Spanish, Italian, Dutch, Portuguese and Polish are recognised after
// normalisation (case, separators, camelCase, accents, prefixes such as
// "field_" or "wpcf-"). Only semantic types that fit f's field type are
// reported (see SemanticFits); relational, media, layout and true_false
// fields get none. It returns the zero Detection when nothing reaches
// MinConfidence. Detect is deterministic and safe for concurrent use.
func Detect(f *Field) Detection {
	switch f.Type {
	case TypeRelationship, TypePostObject, TypeTaxonomy, TypeUser, TypeImage, TypeFile, TypeGallery,
		TypeRepeater, TypeGroup, TypeTrueFalse, TypeLink, TypeGoogleMap, TypePassword:
		return Detection{}
	}
	ix := detectIndex()
	fieldType := f.Type
	if _, known := fieldTypeSet()[fieldType]; !known {
		fieldType = TypeText
	}
	best := map[string]candidate{}
	agree := map[string]map[string]bool{}
	add := func(c candidate) {
		if !SemanticFits(c.sem, fieldType) {
			return
		}
		if agree[c.sem] == nil {
			agree[c.sem] = map[string]bool{}
		}
		agree[c.sem][c.source] = true
		if b, ok := best[c.sem]; !ok || c.beats(b) {
			best[c.sem] = c
		}
	}
	var buf [16]string
	ix.scan(normalize(f.Name, buf[:0]), "name", 1, add)
	ix.scan(normalize(f.Label, buf[:0]), "label", 0.97, add)
	if f.Key != f.Name {
		ix.scan(normalize(f.Key, buf[:0]), "key", 0.9, add)
	}
	if len(best) == 0 && f.Instructions != "" {
		ix.scan(normalize(f.Instructions, nil), "instructions", 1, add)
	}
	var top candidate
	found := false
	for sem, c := range best {
		if n := len(agree[sem]); n > 1 {
			c.score = min(0.99, c.score+0.04*float64(n-1))
		}
		if !found || c.beats(top) {
			top, found = c, true
		}
	}
	td, typed := typeDetections[f.Type]
	if typed && (!found || td.Confidence >= top.score) {
		return td
	}
	if !found || top.score < MinConfidence {
		return Detection{}
	}
	return Detection{Type: top.sem, Confidence: round2(top.score), Source: top.source, Match: top.match}
}

func round2(f float64) float64 { return float64(int(f*100+0.5)) / 100 }

var fieldTypeSet = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, t := range Types() {
		m[t] = true
	}
	return m
})

// DetectFields returns a copy of fields with DetectedType set by Detect on
// every field (sub-fields included) that has none yet.
func DetectFields(fields []Field) []Field {
	out := make([]Field, len(fields))
	for i, f := range fields {
		f = f.Clone()
		if f.DetectedType == "" {
			f.DetectedType = Detect(&f).Type
		}
		if len(f.SubFields) > 0 {
			f.SubFields = DetectFields(f.SubFields)
		}
		out[i] = f
	}
	return out
}
