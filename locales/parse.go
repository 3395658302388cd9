package locales

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// grammar is the part of a pack that builds noun phrases: nouns with a
// grammatical class (gender), adjectives and verbs with their inflected
// forms precomputed, and per grammatical case the determiners of each class
// with the adjective and noun forms they take.
type grammar struct {
	classes   []string
	nounClass []uint8
	// general and generalAdjs are the numbers of nouns and adjectives of
	// the general vocabulary; topic vocabulary follows them.
	general, generalAdjs int
	// nounForms holds nNounForms forms per noun, the base form first.
	nounForms  []string
	nNounForms int
	adjForms   []string
	nAdjForms  int
	verbForms  []string
	nVerbForms int
	// vFin and vJoin are the verb forms that end a sentence and that end a
	// clause followed by another.
	vFin, vJoin int
	adjBefore   bool
	adjChance   int
	vowels      string
	// vowelStarts and consonantStarts are word beginnings that sound
	// against their first letter: "hour" takes "an", "university" "a".
	vowelStarts, consonantStarts []string
	caseNames                    []string
	cases                        []npCase
}

type npCase struct {
	byClass [][]det
}

// det is one way to open a noun phrase of a case and class: the determiner
// (possibly with a preposition), its form before a vowel, and the forms of
// adjective and noun it takes.
type det struct {
	word, elided string
	adj          int8 // adjective form, -1 for none
	adjReq       bool
	noun         uint8
}

func (g *grammar) noun(i, form int) string { return g.nounForms[i*g.nNounForms+form] }
func (g *grammar) adj(i, form int) string  { return g.adjForms[i*g.nAdjForms+form] }
func (g *grammar) verb(i, form int) string { return g.verbForms[i*g.nVerbForms+form] }
func (g *grammar) nouns() int              { return g.general }
func (g *grammar) adjs() int               { return len(g.adjForms) / g.nAdjForms }
func (g *grammar) genAdjs() int            { return g.generalAdjs }
func (g *grammar) verbs() int              { return len(g.verbForms) / g.nVerbForms }

// pattern is a compiled sentence pattern: literal text and slots.
type pattern struct {
	toks []token
}

type tokKind uint8

const (
	tLit   tokKind = iota
	tNP            // a noun phrase of case idx
	tVerb          // a verb
	tList          // a pick from list idx
	tNoun          // a bare noun
	tAdj           // a bare adjective
	tQuote         // a term name in quotation marks
)

type token struct {
	kind tokKind
	// mod is 'l' to lower-case the slot or 'c' to capitalise its first letter.
	mod  byte
	idx  int
	text string
}

// lineSections are the sections read line by line; every other section is a
// list whose lines may hold several entries separated by commas.
var lineSections = []string{"meta", "np", "rules", "translit", "clauses", "titles", "bios", "openers", "joiners", "topics"}

// lineSection reports the sections of the lexicon and frames, read line by
// line.
func lineSection(name string) bool {
	return name == "lexicon" || name == "respell" || strings.HasPrefix(name, "lexicon.") || strings.HasPrefix(name, "frames.")
}

// rawPack is a data file split into sections.
type rawPack struct {
	meta     map[string]string
	sections map[string][]string
}

// splitFile parses the sectioned format: "[name]" starts a section, "#"
// starts a comment line, meta lines are "key = value".
func splitFile(src string, into *rawPack) error {
	name := ""
	seen := map[string]bool{}
	lineNo := 0
	for line := range strings.Lines(src) {
		lineNo++
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '[' && line[len(line)-1] == ']' {
			name = line[1 : len(line)-1]
			if seen[name] {
				return fmt.Errorf("line %d: section [%s] twice", lineNo, name)
			}
			seen[name] = true
			if name != "meta" {
				into.sections[name] = nil
			}
			continue
		}
		switch {
		case name == "":
			return fmt.Errorf("line %d: text before the first section", lineNo)
		case name == "meta":
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				return fmt.Errorf("line %d: meta line without '='", lineNo)
			}
			into.meta[strings.TrimSpace(k)] = strings.TrimSpace(v)
		case slices.Contains(lineSections, name) || lineSection(name):
			into.sections[name] = append(into.sections[name], line)
		default:
			for e := range strings.SplitSeq(line, ",") {
				if e = strings.TrimSpace(e); e != "" {
					into.sections[name] = append(into.sections[name], e)
				}
			}
		}
	}
	return nil
}

// arena collects derived strings so that they share one backing string.
type arena struct {
	b   []byte
	fix []fixup
}

type fixup struct {
	dst    *string
	off, n int
}

func (a *arena) set(dst *string, s string) {
	a.fix = append(a.fix, fixup{dst, len(a.b), len(s)})
	a.b = append(a.b, s...)
}

func (a *arena) done() {
	s := string(a.b)
	for _, f := range a.fix {
		*f.dst = s[f.off : f.off+f.n]
	}
}

// parsePack builds a pack from data files, later files overriding the
// sections (and single meta keys) of earlier ones.
func parsePack(files ...string) (*Pack, error) {
	raw := rawPack{meta: map[string]string{}, sections: map[string][]string{}}
	for _, f := range files {
		if err := splitFile(f, &raw); err != nil {
			return nil, err
		}
	}
	b := builder{raw: raw, p: &Pack{roman: map[string]string{}}}
	if err := b.build(); err != nil {
		return nil, err
	}
	return b.p, nil
}

type builder struct {
	raw   rawPack
	p     *Pack
	a     arena
	rules map[string][]rule
	lists map[string]int
	errs  []error

	// topicRaw is the [topics] section by topic, before the grammar;
	// topicNouns and topicAdjs count its nouns and adjectives.
	topicRaw              []rawTopic
	topicNouns, topicAdjs int
}

type rule struct{ suf, rep string }

func (b *builder) fail(format string, args ...any) {
	b.errs = append(b.errs, fmt.Errorf(format, args...))
}

func (b *builder) meta(key, def string) string {
	if v, ok := b.raw.meta[key]; ok {
		return v
	}
	return def
}

func (b *builder) section(name string, required bool) []string {
	s := b.raw.sections[name]
	if required && len(s) == 0 {
		b.fail("section [%s] is missing or empty", name)
	}
	return s
}

func (b *builder) build() error {
	p := b.p
	// Typography first: literals below go through typo.
	p.punctBefore = b.meta("punctspace.before", "")
	p.punctAfter = b.meta("punctspace.after", "")
	p.turkish = b.meta("casing", "") == "turkish"
	p.titleCase = b.meta("titles", "sentence") == "title"
	p.familyFirst = b.meta("nameorder", "given family") == "family given"
	p.nameSep = " "
	if b.meta("namespace", "yes") == "no" {
		p.nameSep = ""
	}
	p.textSep = " "
	if b.meta("textspace", "yes") == "no" {
		p.textSep = ""
	}
	p.stop = b.typo(b.meta("stop", "."))
	p.exclaim = b.typo(b.meta("exclaim", "!"))
	q := strings.Fields(b.meta("quotes", "“ ” ‘ ’"))
	if len(q) != 4 {
		b.fail("meta quotes: want 4 marks, have %d", len(q))
	} else {
		for i := range q {
			p.quotes[i] = b.typo(q[i])
		}
	}
	tj, tjRoman, _ := strings.Cut(b.meta("termjoin", "&"), "|")
	if tjRoman != "" {
		p.roman[tj] = tjRoman
		p.maxRomanLen = max(p.maxRomanLen, utf8.RuneCountInString(tj))
	}
	p.termJoin = p.textSep + tj + p.textSep
	if alt := strings.Fields(b.meta("termjoin.alt", "")); len(alt) > 1 {
		p.termJoinAlt = p.textSep + alt[0] + p.textSep
		p.termJoinAltOn = alt[1:]
	}
	p.termLower = b.meta("termlower", "no") == "yes"
	b.formats()
	b.names()
	b.translit()
	b.readTopics()
	b.grammar()
	b.topics()
	b.patterns()
	b.readLexicon()
	b.a.done()
	b.topicsDone()
	return errors.Join(b.errs...)
}

// typo applies the locale's spacing around punctuation to a literal: a
// narrow no-break space replaces any space before each character of
// punctBefore and after each of punctAfter, or is added there.
func (b *builder) typo(s string) string {
	before, after := b.p.punctBefore, b.p.punctAfter
	if before == "" && after == "" || !strings.ContainsAny(s, before+after) {
		return s
	}
	isSpace := func(r rune) bool { return r == ' ' || r == '\u00a0' || r == '\u202f' }
	out := make([]rune, 0, len(s)+4)
	skip := false
	for _, r := range s {
		switch {
		case skip && isSpace(r):
			continue
		case strings.ContainsRune(before, r):
			for len(out) > 0 && isSpace(out[len(out)-1]) {
				out = out[:len(out)-1]
			}
			out = append(out, '\u202f', r)
		case strings.ContainsRune(after, r):
			out = append(out, r, '\u202f')
			skip = true
			continue
		default:
			out = append(out, r)
		}
		skip = false
	}
	return string(out)
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

func (b *builder) formats() {
	p := b.p
	p.decimal = b.meta("decimal", ".")
	p.group = spaceKeyword(b.meta("group", ","))
	p.minus = b.meta("minus", "-")
	mg, err := strconv.Atoi(b.meta("mingroup", "1"))
	if err != nil || mg < 1 {
		b.fail("meta mingroup: %q", b.meta("mingroup", ""))
	}
	p.minGroup = mg
	months := strings.Fields(b.meta("months", ""))
	if len(months) != 12 {
		b.fail("meta months: want 12, have %d", len(months))
	} else {
		copy(p.months[:], months)
	}
	p.firstDay = b.meta("firstday", "")
	date := b.meta("date", "")
	if date == "" {
		b.fail("meta date is missing")
	}
	for date != "" {
		i := strings.IndexByte(date, '{')
		switch {
		case i < 0:
			p.date = append(p.date, date)
			date = ""
		case i > 0:
			p.date = append(p.date, date[:i])
			date = date[i:]
		default:
			j := strings.IndexByte(date, '}')
			if j < 0 {
				b.fail("meta date: unclosed {")
				return
			}
			p.date = append(p.date, date[:j+1])
			date = date[j+1:]
		}
	}
}

func spaceKeyword(s string) string {
	switch s {
	case "space":
		return " "
	case "nbsp":
		return "\u00a0"
	case "nnbsp":
		return "\u202f"
	case "none":
		return ""
	}
	return s
}

// romanised splits "name|roman" and records the romanisation.
func (b *builder) romanised(e string) string {
	name, roman, ok := strings.Cut(e, "|")
	if ok {
		b.p.roman[name] = roman
		b.p.maxRomanLen = max(b.p.maxRomanLen, utf8.RuneCountInString(name))
	}
	return name
}

func (b *builder) names() {
	p := b.p
	for _, e := range b.section("female", true) {
		p.female = append(p.female, b.romanised(e))
	}
	for _, e := range b.section("male", true) {
		p.male = append(p.male, b.romanised(e))
	}
	for _, e := range b.section("family", true) {
		e = b.romanised(e)
		m, f, ok := strings.Cut(e, "/")
		if !ok {
			f = m
		}
		p.familyM = append(p.familyM, m)
		p.familyF = append(p.familyF, f)
	}
}

func (b *builder) translit() {
	lines := b.section("translit", false)
	if len(lines) == 0 {
		return
	}
	b.p.translit = make(map[rune][2]string, len(lines))
	for _, l := range lines {
		f := strings.Fields(l)
		r, n := utf8.DecodeRuneInString(f[0])
		if n != len(f[0]) || len(f) < 2 || len(f) > 3 {
			b.fail("translit %q: want a letter and one or two replacements", l)
			continue
		}
		if f[1] == "-" {
			f[1] = ""
		}
		v := [2]string{f[1], f[1]}
		if len(f) == 3 {
			v[1] = f[2]
			if f[2] == "-" {
				v[1] = ""
			}
		}
		b.p.translit[r] = v
	}
}

func (b *builder) grammar() {
	p := b.p
	g := &p.g
	g.classes = strings.Fields(b.meta("classes", ""))
	if len(g.classes) == 0 {
		g.classes = []string{"*"}
	}
	g.adjBefore = b.meta("adjpos", "before") == "before"
	g.vowels = b.meta("vowels", "aeiou")
	g.vowelStarts = strings.Fields(strings.ToLower(b.meta("vowelstarts", "")))
	g.consonantStarts = strings.Fields(strings.ToLower(b.meta("consonantstarts", "")))
	chance, err := strconv.Atoi(b.meta("adjchance", "50"))
	if err != nil || chance < 0 || chance > 100 {
		b.fail("meta adjchance: %q", b.meta("adjchance", ""))
	}
	g.adjChance = chance
	nounForms := append([]string{"base"}, strings.Fields(b.meta("nounforms", ""))...)
	adjForms := append([]string{"base"}, strings.Fields(b.meta("adjforms", ""))...)
	verbForms := append([]string{"base"}, strings.Fields(b.meta("verbforms", ""))...)
	g.nNounForms, g.nAdjForms, g.nVerbForms = len(nounForms), len(adjForms), len(verbForms)
	g.vFin = max(slices.Index(verbForms, "fin"), 0)
	g.vJoin = slices.Index(verbForms, "join")
	if g.vJoin < 0 {
		g.vJoin = g.vFin
	}

	b.rules = map[string][]rule{}
	for _, l := range b.section("rules", false) {
		f := strings.Fields(l)
		if len(f) < 4 {
			b.fail("rule %q: want kind form class and rules", l)
			continue
		}
		key := f[0] + "." + f[1] + "." + f[2]
		for _, r := range f[3:] {
			suf, rep, ok := strings.Cut(r, ">")
			if !ok {
				b.fail("rule %q: %q has no '>'", l, r)
			}
			b.rules[key] = append(b.rules[key], rule{suf, rep})
		}
		slices.SortStableFunc(b.rules[key], func(x, y rule) int { return len(y.suf) - len(x.suf) })
	}

	nouns := b.section("nouns", true)
	// The topic vocabulary is appended later within this capacity: the
	// arena holds pointers into these slices until it is done.
	g.nounClass = make([]uint8, len(nouns), len(nouns)+b.topicNouns)
	g.nounForms = make([]string, len(nouns)*g.nNounForms, (len(nouns)+b.topicNouns)*g.nNounForms)
	for i, l := range nouns {
		b.noun(i, l, nounForms)
	}
	g.general = len(nouns)
	adjs := b.section("adjectives", true)
	g.adjForms = make([]string, len(adjs)*g.nAdjForms, (len(adjs)+b.topicAdjs)*g.nAdjForms)
	for i, l := range adjs {
		b.forms("adj", "*", l, adjForms, g.adjForms[i*g.nAdjForms:(i+1)*g.nAdjForms])
	}
	g.generalAdjs = len(adjs)
	verbs := b.section("verbs", true)
	g.verbForms = make([]string, len(verbs)*g.nVerbForms)
	for i, l := range verbs {
		b.forms("verb", "*", l, verbForms, g.verbForms[i*g.nVerbForms:(i+1)*g.nVerbForms])
	}

	for _, l := range b.section("np", true) {
		f := strings.Fields(l)
		if len(f) < 5 {
			b.fail("np %q: want case class determiner adjective-form noun-form", l)
			continue
		}
		ci := slices.Index(g.caseNames, f[0])
		if ci < 0 {
			ci = len(g.caseNames)
			g.caseNames = append(g.caseNames, f[0])
			g.cases = append(g.cases, npCase{byClass: make([][]det, len(g.classes))})
		}
		var d det
		word := strings.Join(f[2:len(f)-2], " ")
		if word != "-" {
			d.word, d.elided, _ = strings.Cut(word, "/")
		}
		af := f[len(f)-2]
		switch {
		case af == "-":
			d.adj = -1
		default:
			if af[0] == '+' {
				d.adjReq, af = true, af[1:]
			}
			ai := slices.Index(adjForms, af)
			if ai < 0 {
				b.fail("np %q: unknown adjective form %q", l, af)
			}
			d.adj = int8(ai)
		}
		nf := f[len(f)-1]
		if nf == "-" {
			nf = "base"
		}
		ni := slices.Index(nounForms, nf)
		if ni < 0 {
			b.fail("np %q: unknown noun form %q", l, nf)
			ni = 0
		}
		d.noun = uint8(ni)
		for k, c := range g.classes {
			if f[1] == "*" || f[1] == c {
				g.cases[ci].byClass[k] = append(g.cases[ci].byClass[k], d)
			}
		}
	}
	for ci, c := range g.cases {
		for k, dets := range c.byClass {
			if len(dets) == 0 {
				b.fail("np case %s has nothing for class %s", g.caseNames[ci], g.classes[k])
			}
		}
	}
}

// noun fills noun i of the grammar from an entry "class base|form...",
// the class left out when the language has none. It reports whether the
// entry was valid.
func (b *builder) noun(i int, l string, nounForms []string) bool {
	g := &b.p.g
	class := "*"
	if len(g.classes) > 1 || g.classes[0] != "*" {
		c, rest, ok := strings.Cut(l, " ")
		ci := slices.Index(g.classes, c)
		if !ok || ci < 0 {
			b.fail("noun %q: no class of %v", l, g.classes)
			return false
		}
		g.nounClass[i] = uint8(ci)
		class, l = c, strings.TrimSpace(rest)
	}
	b.forms("noun", class, l, nounForms, g.nounForms[i*g.nNounForms:(i+1)*g.nNounForms])
	return true
}

// forms fills dst with the forms of one entry: "base|form1|form2..." with
// explicit forms in the declared order, missing ones derived by the rules.
func (b *builder) forms(kind, class, entry string, names []string, dst []string) {
	var one [1]string
	parts := one[:]
	if strings.Contains(entry, "|") {
		parts = strings.Split(entry, "|")
	} else {
		one[0] = entry
	}
	if len(parts) > len(names) {
		b.fail("%s %q: more forms than %v", kind, entry, names)
	}
	base := parts[0]
	dst[0] = base
	for k := 1; k < len(names); k++ {
		if k < len(parts) && parts[k] != "" {
			dst[k] = parts[k]
			continue
		}
		rules, ok := b.rules[kind+"."+names[k]+"."+class]
		if !ok {
			rules = b.rules[kind+"."+names[k]+".*"]
		}
		s, changed := applyRules(base, rules)
		if changed {
			b.a.set(&dst[k], s)
		} else {
			dst[k] = base
		}
	}
}

// applyRules applies the first rule whose suffix ends base (rules are sorted
// longest suffix first).
func applyRules(base string, rules []rule) (string, bool) {
	for _, r := range rules {
		if strings.HasSuffix(base, r.suf) {
			return expand(base[:len(base)-len(r.suf)], r.rep), true
		}
	}
	return base, false
}

// expand returns stem followed by rep, resolving the markers of rep:
// "X/Y" takes X after a Hangul final consonant and Y otherwise; a leading
// Hangul consonant letter merges into an open final syllable; "(y)" is y
// after a vowel; {I}, {A} and {D} follow Turkish vowel harmony and
// consonant assimilation.
func expand(stem, rep string) string {
	if x, y, ok := strings.Cut(rep, "/"); ok {
		if hangulFinal(stem) {
			rep = x
		} else {
			rep = y
		}
	}
	if r, n := utf8.DecodeRuneInString(rep); r >= 0x3131 && r <= 0x314E {
		if merged, ok := mergeFinal(stem, r); ok {
			return merged + rep[n:]
		}
	}
	if !strings.ContainsAny(rep, "({") {
		return stem + rep
	}
	var out strings.Builder
	out.WriteString(stem)
	for rep != "" {
		switch {
		case strings.HasPrefix(rep, "(y)"):
			if endsWithVowel(stem) {
				out.WriteByte('y')
			}
			rep = rep[3:]
		case strings.HasPrefix(rep, "{I}"):
			out.WriteString(harmony(out.String(), "ı", "i", "u", "ü"))
			rep = rep[3:]
		case strings.HasPrefix(rep, "{A}"):
			out.WriteString(harmony(out.String(), "a", "e", "a", "e"))
			rep = rep[3:]
		case strings.HasPrefix(rep, "{D}"):
			if r := lastRune(out.String()); strings.ContainsRune("çfhkpsşt", r) {
				out.WriteByte('t')
			} else {
				out.WriteByte('d')
			}
			rep = rep[3:]
		default:
			r, n := utf8.DecodeRuneInString(rep)
			out.WriteRune(r)
			rep = rep[n:]
		}
	}
	return out.String()
}

const turkishVowels = "aıoueiöüâîû"

func endsWithVowel(s string) bool {
	return s != "" && strings.ContainsRune(turkishVowels, unicode.ToLower(lastRune(s)))
}

// harmony picks the suffix vowel after the last vowel of s: back unrounded,
// front unrounded, back rounded, front rounded.
func harmony(s, backU, frontU, backR, frontR string) string {
	for i := len(s); i > 0; {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		i -= n
		switch unicode.ToLower(r) {
		case 'a', 'ı', 'â':
			return backU
		case 'e', 'i', 'î':
			return frontU
		case 'o', 'u', 'û':
			return backR
		case 'ö', 'ü':
			return frontR
		}
	}
	return frontU
}

func (b *builder) patterns() {
	p := b.p
	b.lists = map[string]int{}
	special := []string{"female", "male", "family", "nouns", "adjectives", "verbs"}
	names := make([]string, 0, len(b.raw.sections))
	for name := range b.raw.sections {
		if !slices.Contains(lineSections, name) && !lineSection(name) && !slices.Contains(special, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		list := make([]string, 0, len(b.raw.sections[name]))
		for _, e := range b.raw.sections[name] {
			list = append(list, b.romanised(e))
		}
		b.lists[name] = len(p.lists)
		p.lists = append(p.lists, list)
	}
	p.terms = b.list("terms")
	p.cities = b.list("cities")
	p.domains = b.list("domains")
	for _, j := range b.section("joiners", true) {
		j = b.typo(j)
		if r, _ := utf8.DecodeRuneInString(j); unicode.IsLetter(r) {
			j = p.textSep + j
		}
		p.joiners = append(p.joiners, j+p.textSep)
	}
	p.clauses = b.compileAll("clauses", true)
	p.titles = b.compileAll("titles", true)
	p.bios = b.compileAll("bios", true)
	p.openers = b.compileAll("openers", false)
	words := 0
	for _, c := range p.clauses {
		for _, t := range c.toks {
			switch t.kind {
			case tNP:
				words += 2
			case tLit:
				words += strings.Count(t.text, " ")
			default:
				words++
			}
		}
	}
	if len(p.clauses) > 0 {
		p.clauseWords = max(2, words/len(p.clauses))
	}
}

func (b *builder) list(name string) []string {
	i, ok := b.lists[name]
	if !ok || len(b.p.lists[i]) == 0 {
		b.fail("section [%s] is missing or empty", name)
		return []string{"?"}
	}
	return b.p.lists[i]
}

func (b *builder) compileAll(section string, required bool) []pattern {
	var out []pattern
	for _, l := range b.section(section, required) {
		pat, err := b.compile(l)
		if err != nil {
			b.fail("[%s] %q: %v", section, l, err)
			continue
		}
		out = append(out, pat)
	}
	return out
}

// compile parses a pattern: literal text with slots {name} or {name.mod}.
// A slot names a grammatical case of [np] (a noun phrase), v (a verb), noun
// or adj (a bare word), q (a quoted term) or a list section.
func (b *builder) compile(s string) (pattern, error) {
	var pat pattern
	g := &b.p.g
	for s != "" {
		i := strings.IndexByte(s, '{')
		if i != 0 {
			lit := s
			if i > 0 {
				lit = s[:i]
			}
			pat.toks = append(pat.toks, token{kind: tLit, text: b.typo(lit)})
			s = s[len(lit):]
			continue
		}
		j := strings.IndexByte(s, '}')
		if j < 0 {
			return pat, errors.New("unclosed {")
		}
		name, mod, _ := strings.Cut(s[1:j], ".")
		s = s[j+1:]
		t := token{}
		if mod != "" {
			t.mod = mod[0]
		}
		switch {
		case slices.Contains(g.caseNames, name):
			t.kind, t.idx = tNP, slices.Index(g.caseNames, name)
		case name == "v":
			t.kind = tVerb
		case name == "noun":
			t.kind = tNoun
		case name == "adj":
			t.kind = tAdj
		case name == "q":
			t.kind = tQuote
		default:
			switch name {
			case "city":
				name = "cities"
			case "term":
				name = "terms"
			}
			li, ok := b.lists[name]
			if !ok {
				return pat, fmt.Errorf("unknown slot {%s}", name)
			}
			t.kind, t.idx = tList, li
		}
		pat.toks = append(pat.toks, t)
	}
	return pat, nil
}
