package locales

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

// ErrUnknownLocale is returned (wrapped) by Registry.Lookup when no supported
// locale matches a code.
var ErrUnknownLocale = errors.New("locales: unknown locale")

// Locale describes one supported locale.
type Locale struct {
	// Code is the canonical code, such as "en_US", "de_DE" or "ja".
	Code string `json:"code"`
	// Name is the English name with the region, such as "German (Germany)".
	Name string `json:"name"`
	// NativeName is the name in the language itself, with the region, such
	// as "Deutsch (Deutschland)".
	NativeName string `json:"native_name"`
	// Flag is the flag emoji of the region, or empty when the code has none.
	Flag string `json:"flag"`
}

// Registry is the set of supported locales. It is immutable once built and
// safe for concurrent use; packs are built lazily, once each, on first
// Lookup.
type Registry struct {
	locales []Locale
	files   []shippedLocale
	byCode  map[string]int
	// byLower maps a lower-cased code with "_" ("de_de") to its index.
	byLower map[string]int
	// primary maps a bare language ("de") to the index it means by default.
	primary map[string]int
	tags    []language.Tag
	matcher language.Matcher
	packs   []packSlot

	loremOnce   sync.Once
	lorem       []string
	loremPacked []packedWord
}

type packSlot struct {
	once sync.Once
	pack *Pack
	err  error
}

// NewRegistry returns a registry of every locale this package ships. It
// reads no data: each pack is parsed on its first Lookup.
func NewRegistry() *Registry {
	r := &Registry{byCode: map[string]int{}, byLower: map[string]int{}, primary: map[string]int{}}
	for _, s := range shipped() {
		r.add(s)
	}
	r.matcher = language.NewMatcher(r.tags)
	r.packs = make([]packSlot, len(r.locales))
	return r
}

func (r *Registry) add(s shippedLocale) {
	tag := language.Make(strings.ReplaceAll(s.code, "_", "-"))
	base, _ := tag.Base()
	region, _ := tag.Region()
	full, _ := language.Compose(base, region)
	open, close := " (", ")"
	if b := base.String(); b == "ja" || b == "zh" {
		open, close = "（", "）"
	}
	loc := Locale{
		Code:       s.code,
		Name:       display.English.Languages().Name(base) + " (" + display.English.Regions().Name(region) + ")",
		NativeName: upperFirst(display.Languages(full).Name(base)) + open + display.Regions(full).Name(region) + close,
		Flag:       flag(region),
	}
	i := len(r.locales)
	r.byCode[s.code] = i
	r.byLower[strings.ToLower(s.code)] = i
	r.locales = append(r.locales, loc)
	r.files = append(r.files, s)
	r.tags = append(r.tags, tag)
	if _, ok := r.primary[base.String()]; !ok || s.primary {
		r.primary[base.String()] = i
	}
}

// upperFirst upper-cases the first letter, as language names stand in a
// menu ("Français", not "français").
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// flag derives the regional-indicator flag of a region.
func flag(region language.Region) string {
	s := region.String()
	if len(s) != 2 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' || s[1] > 'Z' {
		return ""
	}
	var b strings.Builder
	for _, c := range s {
		b.WriteRune(0x1F1E6 + (c - 'A'))
	}
	return b.String()
}

// List returns the supported locales sorted by code.
func (r *Registry) List() []Locale {
	out := append([]Locale(nil), r.locales...)
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Locale returns the supported locale with exactly the canonical code, such
// as "de_DE" (see Match for near codes).
func (r *Registry) Locale(code string) (Locale, bool) {
	i, ok := r.byCode[code]
	if !ok {
		return Locale{}, false
	}
	return r.locales[i], true
}

// nearLanguages are languages that CLDR's matching data does not send to a
// supported locale although a reader of one reads the other far better than
// English: Slovak and Czech, Nynorsk and Danish (as Bokmål already does),
// Cantonese and Wu written as Chinese, Catalan and Spanish, Rusyn and
// Ukrainian.
func nearLanguage(base string) string {
	switch base {
	case "sk":
		return "cs_CZ"
	case "nn":
		return "da_DK"
	case "yue", "wuu", "gan", "hak", "nan":
		return "zh_CN"
	case "ca":
		return "es_ES"
	case "rue":
		return "uk"
	}
	return ""
}

// Match returns the canonical code of the supported locale that best fits
// code. It accepts BCP 47 tags and POSIX or WordPress-style codes, in any
// case, with "-" or "_" ("de-AT", "pt_br", "zh-Hant-TW", "de_DE.UTF-8",
// "de_DE_formal"). An exact code wins; otherwise a locale of the same
// language, the regional variant closest to the one asked ("pt-AO" gives
// "pt_PT", "en-AU" gives "en_GB", "de-CH" gives "de_DE"); otherwise a locale
// of a closely related language ("nb" gives "da_DK", "sk" gives "cs_CZ",
// "gl" gives "es_ES"). English is chosen only for English or where the
// language matching data of golang.org/x/text names it. It reports false
// when nothing fits.
func (r *Registry) Match(code string) (string, bool) {
	i, ok := r.match(code)
	if !ok {
		return "", false
	}
	return r.locales[i].Code, true
}

func (r *Registry) match(code string) (int, bool) {
	code = strings.TrimSpace(code)
	if i := strings.IndexAny(code, ".@"); i >= 0 {
		code = code[:i]
	}
	if code == "" {
		return 0, false
	}
	if i, ok := r.byLower[strings.ToLower(strings.ReplaceAll(code, "-", "_"))]; ok {
		return i, true
	}
	tag, ok := parseTag(strings.ReplaceAll(code, "_", "-"))
	if !ok {
		return 0, false
	}
	base, conf := tag.Base()
	if conf == language.No {
		return 0, false
	}
	_, i, mconf := r.matcher.Match(tag)
	if p, ok := r.primary[base.String()]; ok {
		// The language is supported: never leave it for another one.
		if mb, _ := r.tags[i].Base(); mb != base || mconf == language.No {
			return p, true
		}
		return i, true
	}
	if i, ok := r.byCode[nearLanguage(base.String())]; ok {
		return i, true
	}
	// A supported locale of another language is taken only when the
	// matching data rates it a high-confidence fallback (Zulu readers read
	// English); a low-confidence guess means the language is unknown to us.
	if mconf < language.High {
		return 0, false
	}
	return i, true
}

// parseTag parses a tag, dropping trailing subtags that do not parse
// ("de-DE-formal" gives de-DE).
func parseTag(s string) (language.Tag, bool) {
	for s != "" {
		if t, err := language.Parse(s); err == nil {
			return t, true
		}
		i := strings.LastIndexByte(s, '-')
		if i < 0 {
			break
		}
		s = s[:i]
	}
	return language.Und, false
}

// Lookup returns the pack of the locale that best matches code (see Match).
// It returns an error wrapping ErrUnknownLocale when none does. The pack is
// parsed on the first Lookup of its locale and shared afterwards.
func (r *Registry) Lookup(code string) (*Pack, error) {
	i, ok := r.match(code)
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownLocale, code)
	}
	slot := &r.packs[i]
	slot.once.Do(func() {
		slot.pack, slot.err = r.build(i)
	})
	return slot.pack, slot.err
}

// parsed holds the packs of the shipped data files, parsed once per
// process: a pack is immutable, so every Registry shares them, and a
// generator made for one request does not parse its locale again.
var parsed struct {
	sync.Mutex
	packs map[string]*packSlot
}

// build returns the pack of locale i, parsed on top of its base locale's
// file on the first call in the process.
func (r *Registry) build(i int) (*Pack, error) {
	code := r.files[i].code
	parsed.Lock()
	if parsed.packs == nil {
		parsed.packs = map[string]*packSlot{}
	}
	slot, ok := parsed.packs[code]
	if !ok {
		slot = &packSlot{}
		parsed.packs[code] = slot
	}
	parsed.Unlock()
	slot.once.Do(func() { slot.pack, slot.err = r.parse(i) })
	return slot.pack, slot.err
}

// parse parses the pack of locale i, on top of its base locale's file.
func (r *Registry) parse(i int) (*Pack, error) {
	s := r.files[i]
	var files []string
	if s.base != "" {
		files = append(files, *r.files[r.byCode[s.base]].file)
	}
	files = append(files, *s.file)
	p, err := parsePack(files...)
	if err != nil {
		return nil, fmt.Errorf("locales: data of %s: %w", s.code, err)
	}
	p.locale = r.locales[i]
	p.lorem, p.loremPacked = r.loremWords()
	return p, nil
}

// loremWords returns the Latin placeholder vocabulary, parsed once, as
// strings and as packed words.
func (r *Registry) loremWords() ([]string, []packedWord) {
	r.loremOnce.Do(func() {
		for line := range strings.Lines(loremFile) {
			line = strings.TrimSpace(line)
			if line == "" || line[0] == '#' {
				continue
			}
			for w := range strings.FieldsSeq(line) {
				r.lorem = append(r.lorem, w)
			}
		}
		var err error
		if r.loremPacked, err = packWords(r.lorem); err != nil {
			panic(err) // the embedded file is checked by TestLoremWordsPack
		}
	})
	return r.lorem, r.loremPacked
}
