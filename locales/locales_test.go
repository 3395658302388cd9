package locales

import (
	"math/rand/v2"
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// required are the locales the API promises (and /languages lists).
var required = []string{
	"cs_CZ", "da_DK", "de_DE", "en_GB", "en_US", "es_ES", "fr_FR", "it_IT", "ja", "ko_KR",
	"nl_NL", "pl_PL", "pt_BR", "pt_PT", "ru_RU", "sv_SE", "tr_TR", "uk", "zh_CN",
}

func TestRegistryListsEveryLocaleWithNames(t *testing.T) {
	reg := NewRegistry()
	list := reg.List()
	codes := make([]string, len(list))
	for i, l := range list {
		codes[i] = l.Code
		assert.NotEmpty(t, l.Name, l.Code)
		assert.NotEmpty(t, l.NativeName, l.Code)
		assert.Equal(t, 2, utf8.RuneCountInString(l.Flag), "flag of %s: %q", l.Code, l.Flag)
	}
	assert.Equal(t, required, codes)

	cases := map[string]Locale{
		"de_DE": {"de_DE", "German (Germany)", "Deutsch (Deutschland)", "🇩🇪"},
		"pt_BR": {"pt_BR", "Portuguese (Brazil)", "Português (Brasil)", "🇧🇷"},
		"en_GB": {"en_GB", "English (United Kingdom)", "English (United Kingdom)", "🇬🇧"},
		"ja":    {"ja", "Japanese (Japan)", "日本語（日本）", "🇯🇵"},
		"uk":    {"uk", "Ukrainian (Ukraine)", "Українська (Україна)", "🇺🇦"},
	}
	for code, want := range cases {
		got, ok := reg.Locale(code)
		require.True(t, ok, code)
		assert.Equal(t, want, got)
	}
	_, ok := reg.Locale("de")
	assert.False(t, ok, "Locale takes canonical codes only")
}

func TestMatchNearCodes(t *testing.T) {
	reg := NewRegistry()
	cases := []struct{ in, want string }{
		{"de_DE", "de_DE"},
		{"de", "de_DE"},
		{"de-AT", "de_DE"},
		{"de_CH", "de_DE"},
		{"DE-de", "de_DE"},
		{"de_DE.UTF-8", "de_DE"},
		{"de_DE_formal", "de_DE"},
		{"en", "en_US"},
		{"en-AU", "en_GB"},
		{"en_IE", "en_GB"},
		{"en_us", "en_US"},
		{"pt", "pt_BR"},
		{"pt-PT", "pt_PT"},
		{"pt_pt", "pt_PT"},
		{"pt-AO", "pt_PT"},
		{"pt_BR", "pt_BR"},
		{"es-MX", "es_ES"},
		{"fr-CA", "fr_FR"},
		{"ja-JP", "ja"},
		{"zh", "zh_CN"},
		{"zh-Hant-TW", "zh_CN"},
		{"ko", "ko_KR"},
		{"uk_UA", "uk"},
		{"ru-UA", "ru_RU"},
		{"tr", "tr_TR"},
		{"nb", "da_DK"},
		{"nn", "da_DK"},
		{"sk", "cs_CZ"},
		{"ca", "es_ES"},
		{"gl", "es_ES"},
	}
	for _, c := range cases {
		got, ok := reg.Match(c.in)
		if assert.True(t, ok, c.in) {
			assert.Equal(t, c.want, got, c.in)
		}
	}
	for _, bad := range []string{"", " ", "tlh", "xx", "qaa", "not a code", "../etc"} {
		got, ok := reg.Match(bad)
		assert.False(t, ok, "%q matched %q", bad, got)
		_, err := reg.Lookup(bad)
		assert.ErrorIs(t, err, ErrUnknownLocale, bad)
	}
}

// englishStopWords are English function words no other supported language
// writes: one of them in non-English real text means English leaked in.
var englishStopWords = []string{
	"the", "with", "this", "that", "every", "their", "which", "would", "about",
	"were", "there", "these", "those", "called", "while", "before", "after",
}

// vocabulary is every word a pack can put into real text, lower-cased: its
// names, word forms, list entries, determiners and pattern literals.
func vocabulary(p *Pack) map[string]bool {
	v := map[string]bool{}
	add := func(s string) {
		for _, w := range splitWords(s) {
			v[lower(p, w)] = true
		}
	}
	for _, list := range [][]string{p.female, p.male, p.familyM, p.familyF, p.g.nounForms, p.g.adjForms, p.g.verbForms, p.joiners} {
		for _, s := range list {
			add(s)
		}
	}
	if lx := p.lex; lx != nil {
		// A locale that converts the units of the lexicon it extends
		// (lex.convert) writes the units it converts to: "22°C", "£40".
		for c := range unitConvs {
			_, to, _ := strings.Cut(c, ":")
			add(to)
		}
		for _, e := range lx.entries {
			for _, f := range e.fields {
				add(f)
			}
		}
		for _, fs := range lx.roles {
			for _, f := range fs {
				for i, tk := range f.toks {
					add(tk.text)
					// An agreement ending joins the literal around it:
					// "fühl{=t|t|t|en}".
					var before, after string
					if i > 0 && f.toks[i-1].kind == fLit {
						t := f.toks[i-1].text
						before = t[strings.LastIndexAny(t, " \u00a0")+1:]
					}
					if i+1 < len(f.toks) && f.toks[i+1].kind == fLit {
						after = f.toks[i+1].text
						if k := strings.IndexAny(after, " ,.;:!?"); k >= 0 {
							after = after[:k]
						}
					}
					for _, a := range tk.alts {
						add(before + a + after)
					}
				}
			}
		}
	}
	for _, list := range p.lists {
		for _, s := range list {
			add(s)
		}
	}
	for _, c := range p.g.cases {
		for _, dets := range c.byClass {
			for _, d := range dets {
				add(d.word)
				add(d.elided)
			}
		}
	}
	for _, pats := range [][]pattern{p.clauses, p.titles, p.bios, p.openers} {
		for _, pat := range pats {
			for _, tok := range pat.toks {
				if tok.kind == tLit {
					add(tok.text)
				}
			}
		}
	}
	add(p.termJoin)
	add(p.termJoinAlt)
	for i := range p.topics {
		for _, n := range p.topics[i].names {
			add(n)
		}
	}
	return v
}

// lower lower-cases s under the pack's casing rules (Turkish I and İ).
func lower(p *Pack, s string) string {
	if p.turkish {
		return strings.ToLowerSpecial(unicode.TurkishCase, s)
	}
	return strings.ToLower(s)
}

// splitWords splits at everything that is not a letter or a combining mark
// (so "l'étoile" gives "l" and "étoile").
func splitWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) })
}

var tags = regexp.MustCompile(`</?[a-z0-9]+>`)

// sample returns real text of every kind a writer makes, HTML tags removed.
func sample(w *Writer) []string {
	var out []string
	for range 40 {
		out = append(out, w.Title(), w.Paragraph(2, 5), w.Excerpt(), w.Comment(), w.Bio(), w.TermName(), w.Words(6))
	}
	out = append(out, tags.ReplaceAllString(w.HTML(HTMLOptions{Paragraphs: 6, Headings: true, Lists: true}), "\n"))
	return out
}

func cjk(code string) bool { return code == "ja" || code == "zh_CN" }

// joinedName reports whether word is a family name and a given name of the
// pack written together, as Korean writes a full name.
func joinedName(p *Pack, word string) bool {
	for _, family := range slices.Concat(p.familyM, p.familyF) {
		if given, ok := strings.CutPrefix(word, family); ok && given != "" &&
			(slices.Contains(p.female, given) || slices.Contains(p.male, given)) {
			return true
		}
	}
	return false
}

func TestRealTextIsInTheLocalesLanguage(t *testing.T) {
	reg := NewRegistry()
	for _, code := range required {
		t.Run(code, func(t *testing.T) {
			p, err := reg.Lookup(code)
			require.NoError(t, err)
			w := NewWriter(p, RealText, rand.New(rand.NewPCG(7, uint64(len(code)))))
			texts := sample(w)
			vocab := vocabulary(p)
			english := strings.HasPrefix(code, "en_")
			for _, text := range texts {
				require.NotEmpty(t, text)
				assert.True(t, utf8.ValidString(text))
				for _, word := range splitWords(text) {
					lw := lower(p, word)
					if !cjk(code) {
						assert.True(t, vocab[lw] || joinedName(p, word), "%s: %q is not a word of the pack (in %q)", code, word, text)
					}
					if !english {
						for _, stop := range englishStopWords {
							assert.NotEqual(t, stop, lw, "%s: English %q in %q", code, stop, text)
						}
					}
				}
				switch code {
				case "ja", "zh_CN":
					assert.NotContains(t, text, " ", "%s text has spaces: %q", code, text)
					assertScript(t, text, unicode.Han, unicode.Hiragana, unicode.Katakana)
				case "ko_KR":
					assertScript(t, text, unicode.Hangul)
				case "ru_RU", "uk":
					assertScript(t, text, unicode.Cyrillic)
				default:
					assertScript(t, text, unicode.Latin)
				}
			}
		})
	}
}

// assertScript checks that every letter of text belongs to one of the
// scripts.
func assertScript(t *testing.T, text string, scripts ...*unicode.RangeTable) {
	t.Helper()
	for _, r := range text {
		// Common-script letters (the Japanese long-vowel mark ー) belong to
		// every script.
		if unicode.IsLetter(r) && !unicode.In(r, scripts...) && !unicode.Is(unicode.Common, r) {
			t.Errorf("letter %q outside the locale's script in %q", r, text)
			return
		}
	}
}

func TestLoremTextKeepsLocaleNames(t *testing.T) {
	reg := NewRegistry()
	for _, code := range required {
		t.Run(code, func(t *testing.T) {
			p, err := reg.Lookup(code)
			require.NoError(t, err)
			w := NewWriter(p, Lorem, rand.New(rand.NewPCG(3, 4)))
			lorem := map[string]bool{}
			for _, l := range p.lorem {
				lorem[l] = true
			}
			for range 30 {
				for _, text := range []string{w.Title(), w.Paragraph(2, 4), w.Comment(), w.Words(5), tags.ReplaceAllString(w.HTML(HTMLOptions{Paragraphs: 3, Headings: true, Lists: true}), " ")} {
					for _, word := range splitWords(text) {
						assert.True(t, lorem[strings.ToLower(word)], "%s: %q is not Latin placeholder text", code, word)
					}
				}
				person := w.Person()
				assert.Contains(t, append(append([]string{}, p.female...), p.male...), person.First)
			}
		})
	}
}

func TestNamesAndAddresses(t *testing.T) {
	reg := NewRegistry()
	login := regexp.MustCompile(`^[a-z0-9]+(\.[a-z0-9]+)*[0-9]*$`)
	for _, code := range required {
		t.Run(code, func(t *testing.T) {
			p, err := reg.Lookup(code)
			require.NoError(t, err)
			for _, list := range [][]string{p.female, p.male, p.familyM, p.familyF} {
				assert.GreaterOrEqual(t, len(list), 60, "%s: a name list is too short to look varied", code)
				for _, name := range list {
					r := p.Romanize(name)
					assert.Regexp(t, `^[a-z]+$`, r, "%s: %q romanises to %q", code, name, r)
				}
			}
			assert.GreaterOrEqual(t, len(p.terms), 50, code)
			assert.GreaterOrEqual(t, len(p.cities), 40, code)

			w := NewWriter(p, RealText, rand.New(rand.NewPCG(11, 12)))
			seen := map[string]bool{}
			for i := range 200 {
				person := w.Person()
				if p.FamilyFirst() {
					assert.Equal(t, person.Last+person.First, person.Display)
				} else {
					assert.Equal(t, person.First+" "+person.Last, person.Display)
				}
				assert.True(t, contains(p.familyM, person.Last) || contains(p.familyF, person.Last), person.Last)

				email := w.Email(person, i)
				addr, err := mail.ParseAddress(email)
				if assert.NoError(t, err, email) {
					assert.Equal(t, email, addr.Address)
				}
				assert.False(t, seen[email], "duplicate %s", email)
				seen[email] = true
				for j := 0; j < len(email); j++ {
					require.Less(t, email[j], byte(0x80), "non-ASCII e-mail %q", email)
				}
				local, domain, _ := strings.Cut(email, "@")
				assert.Regexp(t, login, local)
				assert.False(t, strings.HasPrefix(local, "user"), "%s: %q lost the name %q", code, email, person.Display)
				assert.True(t, strings.HasSuffix(domain, ".example") || strings.HasSuffix(domain, ".test") ||
					strings.HasPrefix(domain, "example."), "%s: %q is not a reserved domain", code, domain)
				assert.Regexp(t, login, w.Login(person, 0))

				slug := p.Slug(w.TermName())
				assert.Regexp(t, `^[a-z0-9%]+(-[a-z0-9%]+)*$`, slug)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func TestTransliteration(t *testing.T) {
	reg := NewRegistry()
	cases := []struct{ code, in, want string }{
		{"de_DE", "Jürgen Größe", "juergengroesse"},
		{"sv_SE", "Åsa Björk", "asabjork"},
		{"da_DK", "Søren Ærø", "sorenaero"},
		{"fr_FR", "Hélène Lefèvre", "helenelefevre"},
		{"pl_PL", "Łukasz Żółć", "lukaszzolc"},
		{"tr_TR", "Şükrü Işık", "sukruisik"},
		{"ru_RU", "Иван", "ivan"},
		{"ko_KR", "서울", "seoul"},
	}
	for _, c := range cases {
		p, err := reg.Lookup(c.code)
		require.NoError(t, err)
		assert.Equal(t, c.want, p.Romanize(c.in), c.code)
	}
}

func TestTypography(t *testing.T) {
	reg := NewRegistry()
	quotes := map[string]string{
		"en_US": "“x”", "en_GB": "‘x’", "de_DE": "„x“", "fr_FR": "«\u202fx\u202f»",
		"ja": "「x」", "zh_CN": "“x”", "ru_RU": "«x»", "pl_PL": "„x”", "cs_CZ": "„x“",
	}
	for code, want := range quotes {
		p, err := reg.Lookup(code)
		require.NoError(t, err)
		assert.Equal(t, want, p.Quote("x"), code)
	}

	// French: a narrow no-break space, never a plain one, before ; : ! ?
	fr, err := reg.Lookup("fr_FR")
	require.NoError(t, err)
	w := NewWriter(fr, RealText, rand.New(rand.NewPCG(1, 1)))
	punct := 0
	for range 300 {
		s := w.Paragraph(3, 6) + w.Comment()
		for _, bad := range []string{" ;", " :", " !", " ?", "\u00a0;", ";\u202f\u202f"} {
			assert.NotContains(t, s, bad)
		}
		punct += strings.Count(s, "\u202f;") + strings.Count(s, "\u202f:") + strings.Count(s, "\u202f!")
	}
	assert.Positive(t, punct, "French sample never used ; : or !")

	// Titles: title case in American English, sentence case elsewhere.
	en, err := reg.Lookup("en_US")
	require.NoError(t, err)
	we := NewWriter(en, RealText, rand.New(rand.NewPCG(2, 2)))
	for range 100 {
		for i, word := range strings.Fields(we.Title()) {
			if i > 0 && minorWord(word) || word[0] >= '0' && word[0] <= '9' {
				continue
			}
			r, _ := utf8.DecodeRuneInString(word)
			assert.True(t, unicode.IsUpper(r), "English title word %q", word)
		}
	}
	for _, code := range []string{"fr_FR", "es_ES", "it_IT", "pl_PL", "ru_RU", "tr_TR", "nl_NL", "pt_BR"} {
		p, err := reg.Lookup(code)
		require.NoError(t, err)
		adjs := map[string]bool{}
		for _, a := range p.g.adjForms {
			adjs[a] = true
		}
		w := NewWriter(p, RealText, rand.New(rand.NewPCG(5, 5)))
		lowerAdj := 0
		for range 200 {
			for i, word := range strings.Fields(w.Title()) {
				word = strings.TrimFunc(word, func(r rune) bool { return !unicode.IsLetter(r) })
				r, _ := utf8.DecodeRuneInString(word)
				if i > 0 && unicode.IsUpper(r) && adjs[strings.ToLower(word)] {
					t.Errorf("%s: adjective %q capitalised inside a title", code, word)
				}
				if i > 0 && adjs[word] {
					lowerAdj++
				}
			}
		}
		assert.Positive(t, lowerAdj, "%s: titles never used an adjective", code)
	}
}

func TestDatesAndNumbers(t *testing.T) {
	reg := NewRegistry()
	date := time.Date(2024, 3, 7, 10, 0, 0, 0, time.UTC)
	first := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		code, date, first, big, small string
	}{
		{"en_US", "March 7, 2024", "May 1, 2024", "-1,234,567.89", "1,234.5"},
		{"en_GB", "7 March 2024", "1 May 2024", "-1,234,567.89", "1,234.5"},
		{"de_DE", "7. März 2024", "1. Mai 2024", "-1.234.567,89", "1.234,5"},
		{"fr_FR", "7 mars 2024", "1er mai 2024", "-1\u202f234\u202f567,89", "1\u202f234,5"},
		{"es_ES", "7 de marzo de 2024", "1 de mayo de 2024", "-1.234.567,89", "1234,5"},
		{"ru_RU", "7 марта 2024 г.", "1 мая 2024 г.", "-1\u00a0234\u00a0567,89", "1\u00a0234,5"},
		{"ja", "2024年3月7日", "2024年5月1日", "-1,234,567.89", "1,234.5"},
		{"zh_CN", "2024年3月7日", "2024年5月1日", "-1,234,567.89", "1,234.5"},
		{"ko_KR", "2024년 3월 7일", "2024년 5월 1일", "-1,234,567.89", "1,234.5"},
	}
	for _, c := range cases {
		p, err := reg.Lookup(c.code)
		require.NoError(t, err)
		assert.Equal(t, c.date, p.FormatDate(date), c.code)
		assert.Equal(t, c.first, p.FormatDate(first), c.code)
		assert.Equal(t, c.big, p.FormatNumber(-1234567.891, 2), c.code)
		assert.Equal(t, c.small, p.FormatNumber(1234.5, 1), c.code)
	}
}

func TestTermNamesNeverRepeatATerm(t *testing.T) {
	p, err := NewRegistry().Lookup("en_US")
	require.NoError(t, err)
	// Real text of a pack with topics names terms after topics alone (see
	// TestTopicTermNames); lorem keeps the combined names.
	w := NewWriter(p, Lorem, rand.New(rand.NewPCG(1, 1)))
	joined := 0
	for range 2000 {
		a, b, ok := strings.Cut(w.TermName(), " and ")
		if ok {
			joined++
			assert.NotEqual(t, strings.ToLower(a), strings.ToLower(b))
		}
	}
	assert.Positive(t, joined)
}

func TestWriterIsDeterministic(t *testing.T) {
	reg := NewRegistry()
	for _, code := range required {
		p, err := reg.Lookup(code)
		require.NoError(t, err)
		run := func(seed uint64) string {
			w := NewWriter(p, RealText, rand.New(rand.NewPCG(seed, 9)))
			person := w.Person()
			return strings.Join(sample(w), "|") + w.Email(person, 3)
		}
		assert.Equal(t, run(1), run(1), code)
		assert.NotEqual(t, run(1), run(2), code)
	}
}

func TestPacksAreSharedAndConcurrencySafe(t *testing.T) {
	reg := NewRegistry()
	done := make(chan *Pack, 8)
	for range 8 {
		go func() {
			p, err := reg.Lookup("de-AT")
			if err != nil {
				done <- nil
				return
			}
			w := NewWriter(p, RealText, rand.New(rand.NewPCG(1, 2)))
			_ = w.Paragraph(2, 3)
			done <- p
		}()
	}
	first := <-done
	require.NotNil(t, first)
	for range 7 {
		assert.Same(t, first, <-done)
	}
}

// TestWriterAllocatesOnlyItsResult guards the hot path: once the buffer
// has grown, each call allocates the returned string and nothing else.
func TestWriterAllocatesOnlyItsResult(t *testing.T) {
	reg := NewRegistry()
	for _, code := range []string{"en_US", "de_DE", "fr_FR", "ru_RU", "ja", "zh_CN", "ko_KR", "tr_TR"} {
		p, err := reg.Lookup(code)
		require.NoError(t, err)
		w := NewWriter(p, RealText, rand.New(rand.NewPCG(1, 2)))
		for range 50 {
			_ = w.HTML(HTMLOptions{Paragraphs: 8, Headings: true, Lists: true})
		}
		person := w.Person()
		for name, f := range map[string]func(){
			"Email":     func() { _ = w.Email(person, 7) },
			"Paragraph": func() { _ = w.Paragraph(3, 6) },
			"Title":     func() { _ = w.Title() },
			"Comment":   func() { _ = w.Comment() },
			"HTML":      func() { _ = w.HTML(HTMLOptions{Paragraphs: 4, Headings: true, Lists: true}) },
		} {
			assert.LessOrEqual(t, testing.AllocsPerRun(200, f), 1.0, "%s %s", code, name)
		}
	}
}

// TestLoremWordsPack checks that every placeholder word fits the writer's
// packed blocks and reads back whole, and that a longer word is refused.
func TestLoremWordsPack(t *testing.T) {
	words, packed := NewRegistry().loremWords()
	require.Len(t, packed, len(words))
	for i, w := range words {
		n := int(packed[i][packedWordMax])
		assert.Equal(t, w, string(packed[i][:n]))
	}
	_, err := packWords([]string{"pneumonoultramicroscopic"})
	assert.ErrorContains(t, err, "pneumonoultramicroscopic")
}
