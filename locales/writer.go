package locales

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/contentgen/contentgen/locales/markup"
)

// Source chooses what kind of running text a Writer produces.
type Source string

const (
	// Lorem is classic Latin placeholder text; names, e-mail addresses and
	// terms still follow the locale.
	Lorem Source = "lorem"
	// RealText is text in the locale's own language.
	RealText Source = "realtext"
)

// A Writer makes up text from a Pack with a caller's random source: the same
// pack, source and random state give the same text. It is not safe for
// concurrent use; make one per goroutine. Every method returns a new string
// and allocates nothing else once the internal buffer has grown.
type Writer struct {
	p   *Pack
	r   *rand.Rand
	src Source
	buf []byte
	// tmp holds a copy of text that Body writes again with inline markup.
	tmp []byte
	// low is scratch space for a lower-cased title.
	low []byte
	// sep separates words and sentences: the pack's for real text, a space
	// for Latin placeholder text.
	sep string
	// topic is the topic real text is about, nil for none; force makes the
	// next noun drawn one of the topic's.
	topic *topic
	ti    int
	force bool
	// d is the document real text from a lexicon is about.
	d docState
	// plain is set for placeholder text whose words are ASCII letters
	// only: its paragraphs, headings and list items (those words with the
	// spaces, commas and full stops between them) need no escaping in any
	// format, and are not scanned for it (see text).
	plain bool
	// trace, when set (in tests), sees every entry a frame slot takes;
	// picked every frame drawn for a sentence.
	trace  func(t *ftok, e int32)
	picked func(f *frame)
}

// topicAdjShare is the percentage of adjectives real text about a topic
// takes from the topic; the share of nouns is the pack's (60 unless its
// meta topicshare says otherwise).
const topicAdjShare = 40

// NewWriter returns a Writer over p drawing from r. An unknown source is
// treated as Lorem.
func NewWriter(p *Pack, src Source, r *rand.Rand) *Writer {
	w := &Writer{p: p, r: r, src: src, buf: make([]byte, 0, 4096), sep: " "}
	if src != RealText {
		w.src = Lorem
		w.plain = lettersOnly(p.lorem)
	} else {
		w.sep = p.textSep
	}
	return w
}

// lettersOnly reports whether every word is made of ASCII letters.
func lettersOnly(words []string) bool {
	for _, word := range words {
		for i := 0; i < len(word); i++ {
			if c := word[i] | 0x20; c < 'a' || c > 'z' {
				return false
			}
		}
	}
	return true
}

// Pack returns the pack the writer uses.
func (w *Writer) Pack() *Pack { return w.p }

// Source returns the text source the writer uses (Lorem or RealText).
func (w *Writer) Source() Source { return w.src }

// SetTopic makes the real text that follows about t: most nouns and some
// adjectives of titles, headings, sentences, excerpts and comments come
// from its vocabulary, every title and comment names at least one of its
// nouns, and term names are its names. A topic of another pack stands for
// the topic of the writer's pack with the same id; the zero Topic, or a
// topic the writer's pack lacks, ends the topic. Lorem text ignores it.
func (w *Writer) SetTopic(t Topic) {
	w.topic, w.force = nil, false
	if t.p == nil {
		return
	}
	if t.p != w.p {
		var ok bool
		if t, ok = w.p.Topic(t.ID()); !ok {
			return
		}
	}
	w.topic, w.ti = &w.p.topics[t.i], t.i
}

// Topic returns the topic set by SetTopic, or the zero Topic.
func (w *Writer) Topic() Topic {
	if w.topic == nil {
		return Topic{}
	}
	return Topic{w.p, w.ti}
}

// DrawTopic returns a random topic of the writer's pack, or the zero Topic
// when the pack has none. It does not set the topic.
func (w *Writer) DrawTopic() Topic {
	if len(w.p.topics) == 0 {
		return Topic{}
	}
	return Topic{w.p, w.r.IntN(len(w.p.topics))}
}

// nounIndex draws a noun: one of the topic's when the writer has a topic
// (always when force is set, else at the pack's topic share), else one of
// the general vocabulary.
func (w *Writer) nounIndex() int {
	if t := w.topic; t != nil && (w.force || w.r.IntN(100) < w.p.topicShare) {
		w.force = false
		return int(t.nouns[w.r.IntN(len(t.nouns))])
	}
	return w.r.IntN(w.p.g.nouns())
}

// adjIndex draws an adjective as nounIndex draws a noun, at topicAdjShare
// percent from the topic.
func (w *Writer) adjIndex() int {
	if t := w.topic; t != nil && w.r.IntN(100) < topicAdjShare {
		return int(t.adjs[w.r.IntN(len(t.adjs))])
	}
	return w.r.IntN(w.p.g.genAdjs())
}

func (w *Writer) pick(list []string) string { return list[w.r.IntN(len(list))] }

func (w *Writer) between(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + w.r.IntN(hi-lo+1)
}

func (w *Writer) out() string {
	s := string(w.buf)
	w.buf = w.buf[:0]
	return s
}

// setBuf makes b the buffer: a slice the markup and number functions
// returned for w.buf with more written to it. When b is in w.buf's own
// array, only its length is stored, since storing the slice writes its
// pointer, which costs a write barrier whenever the collector is marking.
func (w *Writer) setBuf(b []byte) {
	if cap(b) == cap(w.buf) && cap(b) > 0 && &b[:1][0] == &w.buf[:1][0] {
		w.buf = w.buf[:len(b)]
		return
	}
	w.buf = b
}

// text escapes the text written since start, w.buf[start:], for d: the
// text of a paragraph, heading or list item, or a stretch of one. Plain
// placeholder text is left as it is, which every format takes as it is.
func (w *Writer) text(d *markup.Doc, start int) {
	if w.plain {
		return
	}
	w.setBuf(d.Text(w.buf, start))
}

// add appends s to the buffer. While it fits, only the buffer's length is
// stored (see setBuf).
func (w *Writer) add(s string) {
	n := len(w.buf)
	if n+len(s) > cap(w.buf) {
		w.buf = append(w.buf, s...)
		return
	}
	w.buf = w.buf[:n+len(s)]
	copy(w.buf[n:], s)
}

// addBytes is add of a byte slice.
func (w *Writer) addBytes(b []byte) {
	n := len(w.buf)
	if n+len(b) > cap(w.buf) {
		w.buf = append(w.buf, b...)
		return
	}
	w.buf = w.buf[:n+len(b)]
	copy(w.buf[n:], b)
}

func (w *Writer) space() { w.add(w.sep) }

// word appends one running-text word: Latin, or a noun or adjective of the
// pack in its dictionary form.
func (w *Writer) word() {
	if w.src == Lorem {
		w.add(w.pick(w.p.lorem))
		return
	}
	g := &w.p.g
	if w.r.IntN(3) == 0 {
		w.add(g.adj(w.adjIndex(), 0))
		return
	}
	w.add(g.noun(w.nounIndex(), 0))
}

// Words returns n words of running text without punctuation, separated as
// the language separates words (not at all in Chinese and Japanese real
// text), each in its dictionary form (German nouns keep their capital).
func (w *Writer) Words(n int) string {
	for i := 0; i < n; i++ {
		if i > 0 {
			w.space()
		}
		w.word()
	}
	return w.out()
}

// appendSentence appends one sentence of about n words, capitalised and
// closed with the language's full stop.
func (w *Writer) appendSentence(n int) {
	if n < 1 {
		n = 1
	}
	if w.lex() != nil {
		w.ensureDoc()
		w.appendLexSentence(w.p.lex.roles["body"])
		return
	}
	if w.src == RealText {
		w.appendRealSentence(n)
		return
	}
	start := len(w.buf)
	// At most one comma, before a word in the middle, with the chance of
	// one in twelve per middle word: one draw per sentence, not per word.
	commaAt := -1
	if k := w.r.IntN(12); k < n-6 {
		commaAt = 4 + k
	}
	// Four words from each 64-bit draw: a word takes 16 bits, scaled to
	// the list by a multiply and shift (a bias of at most len/65536). Each
	// word is copied as one 16-byte block, then the slice is cut to it.
	// The sentence is written into the room made for it, at most two
	// separator bytes and a block per word, through a local slice: w.buf
	// is set once at the end instead of at every byte.
	words := w.p.loremPacked
	size := uint64(len(words))
	if need := n*(packedWordMax+2) + 1; cap(w.buf)-len(w.buf) < need {
		w.buf = slices.Grow(w.buf, need)
	}
	b := w.buf[:cap(w.buf)]
	at := len(w.buf)
	var bits uint64
	for i := 0; i < n; i++ {
		if i > 0 {
			if i == commaAt {
				b[at] = ','
				at++
			}
			b[at] = ' '
			at++
		}
		if i&3 == 0 {
			bits = w.r.Uint64()
		}
		word := &words[(bits&0xffff)*size>>16]
		*(*packedWord)(b[at:]) = *word
		at += int(word[packedWordMax])
		bits >>= 16
	}
	// A slice of itself: no pointer stored, no write barrier.
	w.buf = w.buf[:at]
	w.upperAt(start)
	w.add(".")
}

// appendRealSentence joins one to three clauses of the pack into a sentence
// of about n words.
func (w *Writer) appendRealSentence(n int) {
	p := w.p
	clauses := min(max((n+p.clauseWords/2)/p.clauseWords, 1), 3)
	start := len(w.buf)
	for i := 0; i < clauses; i++ {
		if i > 0 {
			w.buf = append(w.buf, w.pick(p.joiners)...)
		}
		w.appendPattern(&p.clauses[w.r.IntN(len(p.clauses))], i == clauses-1)
	}
	w.upperAt(start)
	if w.r.IntN(20) == 0 {
		w.buf = append(w.buf, p.exclaim...)
	} else {
		w.buf = append(w.buf, p.stop...)
	}
}

// appendPattern renders a pattern; final chooses the verb form that ends a
// sentence rather than one followed by another clause.
func (w *Writer) appendPattern(pat *pattern, final bool) {
	p := w.p
	g := &p.g
	for i := range pat.toks {
		t := &pat.toks[i]
		start := len(w.buf)
		switch t.kind {
		case tLit:
			w.buf = append(w.buf, t.text...)
		case tNP:
			w.appendNP(&g.cases[t.idx])
		case tVerb:
			form := g.vJoin
			if final {
				form = g.vFin
			}
			w.buf = append(w.buf, g.verb(w.r.IntN(g.verbs()), form)...)
		case tList:
			w.buf = append(w.buf, w.pick(p.lists[t.idx])...)
		case tNoun:
			w.buf = append(w.buf, g.noun(w.nounIndex(), 0)...)
		case tAdj:
			w.buf = append(w.buf, g.adj(w.adjIndex(), 0)...)
		case tQuote:
			w.buf = append(w.buf, p.quotes[0]...)
			if w.topic != nil {
				w.buf = append(w.buf, w.pick(w.topic.names)...)
			} else {
				w.buf = append(w.buf, w.pick(p.terms)...)
			}
			w.buf = append(w.buf, p.quotes[1]...)
		}
		switch t.mod {
		case 'l':
			w.lowerFrom(start)
		case 'c':
			w.upperAt(start)
		}
	}
}

// appendNP appends a noun phrase of case c: a noun, a determiner that agrees
// with its class, and sometimes an adjective in the form the determiner
// asks for, in the language's order.
func (w *Writer) appendNP(c *npCase) {
	g := &w.p.g
	ni := w.nounIndex()
	dets := c.byClass[g.nounClass[ni]]
	d := &dets[w.r.IntN(len(dets))]
	noun := g.noun(ni, int(d.noun))
	adj := ""
	if d.adj >= 0 && (d.adjReq || w.r.IntN(100) < g.adjChance) {
		adj = g.adj(w.adjIndex(), int(d.adj))
	}
	first, second := noun, adj
	if g.adjBefore && adj != "" {
		first, second = adj, noun
	}
	if d.word != "" {
		word := d.word
		if d.elided != "" && w.startsWithVowel(first) {
			word = d.elided
		}
		w.buf = append(w.buf, word...)
		if word[len(word)-1] != '\'' {
			w.space()
		}
	}
	w.buf = append(w.buf, first...)
	if second != "" {
		w.space()
		w.buf = append(w.buf, second...)
	}
}

func (w *Writer) startsWithVowel(s string) bool {
	g := &w.p.g
	for _, pre := range g.vowelStarts {
		if equalFoldPrefix(s, pre) {
			return true
		}
	}
	for _, pre := range g.consonantStarts {
		if equalFoldPrefix(s, pre) {
			return false
		}
	}
	r, _ := utf8.DecodeRuneInString(s)
	r = unicode.ToLower(r)
	for _, v := range w.p.g.vowels {
		if v == r {
			return true
		}
	}
	return false
}

// upperAt upper-cases the letter at w.buf[i], following Turkish casing
// where the pack asks for it (i gives İ).
func (w *Writer) upperAt(i int) {
	if i >= len(w.buf) {
		return
	}
	c := w.buf[i]
	if c == '\'' && i+2 < len(w.buf) && w.buf[i+1] == 's' && w.buf[i+2] == ' ' {
		// Dutch "'s ochtends" opens a sentence as "'s Ochtends".
		w.upperAt(i + 3)
		return
	}
	if c < utf8.RuneSelf && !w.p.turkish {
		if 'a' <= c && c <= 'z' {
			w.buf[i] = c - ('a' - 'A')
		}
		return
	}
	r, size := utf8.DecodeRune(w.buf[i:])
	u := unicode.ToUpper(r)
	if w.p.turkish {
		u = unicode.TurkishCase.ToUpper(r)
	}
	w.replaceRune(i, size, r, u)
}

// lowerAt lower-cases the letter at w.buf[i].
func (w *Writer) lowerAt(i int) {
	if i >= len(w.buf) {
		return
	}
	c := w.buf[i]
	if c < utf8.RuneSelf && !w.p.turkish {
		if 'A' <= c && c <= 'Z' {
			w.buf[i] = c + ('a' - 'A')
		}
		return
	}
	r, size := utf8.DecodeRune(w.buf[i:])
	l := unicode.ToLower(r)
	if w.p.turkish {
		l = unicode.TurkishCase.ToLower(r)
	}
	w.replaceRune(i, size, r, l)
}

// lowerFrom lower-cases every letter from w.buf[i] on.
func (w *Writer) lowerFrom(i int) {
	for i < len(w.buf) {
		w.lowerAt(i)
		_, n := utf8.DecodeRune(w.buf[i:])
		i += n
	}
}

func (w *Writer) replaceRune(i, size int, old, r rune) {
	if r == old {
		return
	}
	var tmp [utf8.UTFMax]byte
	n := utf8.EncodeRune(tmp[:], r)
	if n == size {
		copy(w.buf[i:], tmp[:n])
		return
	}
	w.buf = slices.Replace(w.buf, i, i+size, tmp[:n]...)
}

// Sentence returns one sentence of about min to max words.
func (w *Writer) Sentence(min, max int) string {
	w.appendSentence(w.between(min, max))
	return w.out()
}

func (w *Writer) appendParagraphText(sentences int) {
	if w.lex() != nil {
		w.ensureDoc()
		body := w.p.lex.roles["body"]
		w.appendLexParagraph(body, body, sentences, true)
		return
	}
	for i := 0; i < sentences; i++ {
		if i > 0 {
			w.space()
		}
		w.appendSentence(w.between(6, 16))
	}
}

// Paragraph returns one paragraph of min to max sentences, as plain text.
func (w *Writer) Paragraph(min, max int) string {
	w.appendParagraphText(w.between(min, max))
	return w.out()
}

// appendTitle appends a title: a title pattern of the pack (real text) or
// lo to hi Latin words, cased by the locale's rule.
func (w *Writer) appendTitle(lo, hi int) {
	start := len(w.buf)
	if w.lex() != nil {
		w.lexTitle()
		return
	}
	if w.src == RealText {
		w.force = w.topic != nil
		w.appendPattern(&w.p.titles[w.r.IntN(len(w.p.titles))], true)
		w.force = false
	} else {
		for i, n := 0, w.between(lo, hi); i < n; i++ {
			if i > 0 {
				w.space()
			}
			w.word()
		}
	}
	if w.p.titleCase {
		w.titleCaseFrom(start)
	} else {
		w.upperAt(start)
	}
}

// Title returns a title without closing punctuation: title case in English
// ("The Quiet Garden of the Old House"), sentence case elsewhere ("Le
// jardin tranquille").
func (w *Writer) Title() string {
	w.appendTitle(3, 8)
	return w.out()
}

// titleCaseFrom capitalises every word from w.buf[start:] except short
// function words that are neither first nor last.
func (w *Writer) titleCaseFrom(start int) {
	for i := start; i < len(w.buf); {
		for i < len(w.buf) && w.buf[i] == ' ' {
			i++
		}
		j := i
		for j < len(w.buf) && w.buf[j] != ' ' {
			j++
		}
		if i == j {
			break
		}
		if i == start || j == len(w.buf) || !minorWord(string(w.buf[i:j])) {
			w.upperAt(i)
			for j < len(w.buf) && w.buf[j] != ' ' {
				j++
			}
		}
		i = j
	}
}

// minorWord reports the English words that stay lower case inside a title.
func minorWord(s string) bool {
	switch s {
	case "a", "an", "the", "and", "but", "or", "nor", "for", "so", "yet",
		"as", "at", "by", "in", "of", "off", "on", "per", "to", "up", "via",
		"with", "from", "into", "onto", "over", "near":
		return true
	}
	return false
}

// Excerpt returns a one- or two-sentence summary of 8 to 20 words each.
func (w *Writer) Excerpt() string {
	if w.lex() != nil {
		w.ensureDoc()
		w.appendLexSentence(w.p.lex.plans[w.d.kind].excerpt)
		return w.out()
	}
	w.force = w.topic != nil
	n := w.between(1, 2)
	for i := 0; i < n; i++ {
		if i > 0 {
			w.space()
		}
		w.appendSentence(w.between(8, 20))
	}
	w.force = false
	return w.out()
}

// Comment returns the text of a reader comment: one to four sentences, in
// real text sometimes opened by a typical reader's remark. A comment on a
// topic (see SetTopic) names at least one noun of the topic.
func (w *Writer) Comment() string {
	if w.lex() != nil {
		return w.CommentOn("")
	}
	w.force = w.topic != nil
	n := w.between(1, 4)
	if w.src == RealText && len(w.p.openers) > 0 && w.r.IntN(3) == 0 {
		w.appendPattern(&w.p.openers[w.r.IntN(len(w.p.openers))], true)
		n--
		if n == 0 && w.force {
			// A comment on a topic names it: the opener did not.
			n = 1
		}
		if n > 0 {
			w.space()
		}
	}
	w.appendParagraphText(n)
	w.force = false
	return w.out()
}

// Bio returns a short biographical description of two or three sentences.
func (w *Writer) Bio() string {
	if w.src == Lorem {
		w.appendParagraphText(w.between(2, 3))
		return w.out()
	}
	w.appendPattern(&w.p.bios[w.r.IntN(len(w.p.bios))], true)
	if w.r.IntN(2) == 0 {
		w.space()
		w.appendSentence(w.between(6, 12))
	}
	return w.out()
}

// TermName returns a name for a category or tag of the locale: usually one
// term ("Reisen"), sometimes two joined by the language's "and" ("Reisen und
// Musik", "Voyages et musique"). In real text of a pack with topics it is
// one name of the writer's topic, or of a random topic when none is set.
// Its slug is Pack.Slug of the name.
func (w *Writer) TermName() string {
	p := w.p
	if w.src == RealText && len(p.topics) > 0 {
		t := w.topic
		if t == nil {
			t = &p.topics[w.r.IntN(len(p.topics))]
		}
		return w.pick(t.names)
	}
	first := w.r.IntN(len(p.terms))
	w.buf = append(w.buf, p.terms[first]...)
	if len(p.terms) > 1 && w.r.IntN(4) == 0 {
		// Another term than the first: never "Travel and Travel".
		second := p.terms[(first+1+w.r.IntN(len(p.terms)-1))%len(p.terms)]
		join := p.termJoin
		if p.termJoinAlt != "" && altJoin(second, p.termJoinAltOn) {
			join = p.termJoinAlt
		}
		w.buf = append(w.buf, join...)
		start := len(w.buf)
		w.buf = append(w.buf, second...)
		if p.termLower {
			w.lowerAt(start)
		}
	}
	return w.out()
}

// altJoin reports whether word starts with one of the prefixes that take
// the other form of "and" (Spanish "e" before "i", "hi" but not "hie").
func altJoin(word string, prefixes []string) bool {
	for _, pre := range prefixes {
		if len(word) < len(pre) || !equalFoldPrefix(word, pre) {
			continue
		}
		rest := word[len(pre):]
		if r, _ := utf8.DecodeRuneInString(rest); r == 'e' || r == 'a' || r == 'o' {
			if pre != "i" && pre != "I" {
				continue
			}
		}
		return true
	}
	return false
}

func equalFoldPrefix(s, prefix string) bool {
	for _, pr := range prefix {
		r, n := utf8.DecodeRuneInString(s)
		if unicode.ToLower(r) != unicode.ToLower(pr) {
			return false
		}
		s = s[n:]
	}
	return true
}

// Person is a made-up person's name.
type Person struct {
	First, Last string
	// Display is the full name in the locale's order and spacing: "Anna
	// Schmidt", "山田太郎".
	Display string
}

// Person returns a made-up name of the locale: a female or male given name
// and a family name in the matching form (Kowalska, Иванова).
func (w *Writer) Person() Person {
	person := w.appendPerson()
	person.Display = w.out()
	return person
}

// appendPerson appends the display name of a made-up person and returns
// the person without Display.
func (w *Writer) appendPerson() Person { return w.appendPersonOf(w.r.IntN(2) == 0) }

// appendPersonOf appends the display name of a made-up woman (or man).
func (w *Writer) appendPersonOf(female bool) Person {
	p := w.p
	var person Person
	fi := 0
	if female {
		person.First = w.pick(p.female)
		fi = w.r.IntN(len(p.familyF))
		person.Last = p.familyF[fi]
	} else {
		person.First = w.pick(p.male)
		fi = w.r.IntN(len(p.familyM))
		person.Last = p.familyM[fi]
	}
	a, b := person.First, person.Last
	if p.familyFirst {
		a, b = b, a
	}
	w.buf = append(w.buf, a...)
	w.buf = append(w.buf, p.nameSep...)
	w.buf = append(w.buf, b...)
	return person
}

// City returns a city name of the locale.
func (w *Writer) City() string { return w.pick(w.p.cities) }

// Domain returns a mail or web domain for made-up addresses. Only reserved
// example and test domains are used (RFC 2606), so nothing generated ever
// reaches a real mailbox or site.
func (w *Writer) Domain() string { return w.pick(w.p.domains) }

// appendLocal appends "first.last" in ASCII and n when positive.
func (w *Writer) appendLocal(p Person, n int) {
	start := len(w.buf)
	w.buf = appendFold(w.buf, w.p, p.First, false)
	if len(w.buf) > start {
		w.buf = append(w.buf, '.')
	}
	w.buf = appendFold(w.buf, w.p, p.Last, false)
	if len(w.buf) == start {
		w.buf = append(w.buf, "user"...)
	}
	if w.buf[len(w.buf)-1] == '.' {
		w.buf = w.buf[:len(w.buf)-1]
	}
	if n > 0 {
		w.buf = strconv.AppendInt(w.buf, int64(n), 10)
	}
}

// Email returns an ASCII e-mail address built from a person's name under
// the locale's transliteration ("juergen.mueller", "taro.yamada") and n, a
// number the caller uses to keep addresses unique (0 leaves it out).
func (w *Writer) Email(p Person, n int) string {
	w.appendLocal(p, n)
	w.buf = append(w.buf, '@')
	w.buf = append(w.buf, w.Domain()...)
	return w.out()
}

// Login returns an ASCII login name from a person's name and n (0 leaves it
// out), as Email builds its local part.
func (w *Writer) Login(p Person, n int) string {
	w.appendLocal(p, n)
	return w.out()
}

// Quote returns s in the locale's quotation marks (see Pack.Quote).
func (w *Writer) Quote(s string) string { return w.p.Quote(s) }
