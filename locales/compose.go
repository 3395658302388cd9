package locales

import (
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// kindRoles returns the roles of the middle sections of a document of a
// kind: a how-to is steps, a review pros and cons, a story what happened.
func kindRoles(kind string) [2]string {
	switch kind {
	case "howto":
		return [2]string{"step", "step"}
	case "tips":
		return [2]string{"tip", "tip"}
	case "gear":
		return [2]string{"gear", "gear"}
	case "mistakes":
		return [2]string{"mistake", "mistake"}
	case "review":
		return [2]string{"pro", "con"}
	case "news":
		return [2]string{"news", "news"}
	case "story":
		return [2]string{"story", "story"}
	}
	return [2]string{"body", "body"}
}

// kindPlan is the frames a document of one kind is written from.
type kindPlan struct {
	name                                   string
	title, opening, closing, excerpt, item []frame
	body                                   []frame
	hOpening, hClosing                     []frame
	main, hMain                            [2][]frame
}

// plans builds the plan of every kind with title frames.
func (lx *lexicon) buildPlans() []kindPlan {
	out := make([]kindPlan, 0, len(lx.kinds))
	for _, k := range lx.kinds {
		m := kindRoles(k)
		kp := kindPlan{
			name:     k,
			title:    lx.frameRole("title." + k),
			opening:  lx.frameRole("opening." + k),
			closing:  lx.frameRole("closing." + k),
			excerpt:  lx.frameRole("excerpt." + k),
			item:     lx.frameRole("item." + k),
			body:     lx.frameRole("body." + k),
			hOpening: lx.frameRole("heading.opening." + k),
			hClosing: lx.frameRole("heading.closing." + k),
		}
		for j := range 2 {
			kp.main[j] = lx.frameRole(m[j] + "." + k)
			if len(kp.main[j]) == 0 {
				kp.main[j] = lx.frameRole("body")
			}
			kp.hMain[j] = lx.frameRole("heading." + m[j] + "." + k)
		}
		out = append(out, kp)
	}
	return out
}

// docState is what a Writer knows of the document it writes: its topic,
// kind and the entries it is about (the focus, one per type, chosen with
// the title), the entries bound in the current section and the frames
// already used.
type docState struct {
	planned bool
	topic   int
	kind    int
	focus   [nLexTypes]int32
	bound   [nLexTypes][10]int32
	// used are the frames the writer used, in this document and the ones
	// before; docUsed those of this document.
	used    []uint64
	docUsed []uint64
	// recent are the last entries drawn, not drawn again soon.
	recent [8]int32
	nrec   int
	// last is the agreement class of the last entry slot written.
	last uint8
	// seq, when not negative, makes entries be drawn in turn from the
	// seq-th of their type's list on (list items); seqN counts them.
	seq, seqN int
	// picks are the document's own words of list sections ({@city}):
	// list index and word index, npicks of them.
	picks  [4][2]int
	npicks int
	// pool are the entries the document draws from, by type: its
	// subject's own when the subject has a block of that type, else its
	// topic's.
	pool [nLexTypes][]int32
	// seed fixes the numbers and choices in the text of the document's
	// entries (see appendField).
	seed uint64
	// themes are the themes told (bit theme): a post's until the next
	// post, whose frames are also marked in docUsed, and a section's
	// until the next section.
	themes uint64
	// gender is the gender {g} drew for the next name: 0 none, 1 a
	// woman's, 2 a man's.
	gender uint8
}

// docPick returns the document's word of list k of n words, drawn on its
// first use in the document.
func (w *Writer) docPick(k, n int) int {
	d := &w.d
	for i := 0; i < d.npicks; i++ {
		if d.picks[i][0] == k {
			return d.picks[i][1]
		}
	}
	v := w.r.IntN(n)
	if d.npicks < len(d.picks) {
		d.picks[d.npicks] = [2]int{k, v}
		d.npicks++
	}
	return v
}

func (w *Writer) lex() *lexicon {
	if w.src != RealText {
		return nil
	}
	return w.p.lex
}

// planDoc starts a new document about the writer's topic (or a random one)
// of a random kind, with a random focus entry of every type.
func (w *Writer) planDoc() { w.planDocAbout(-1) }

// planDocAbout starts a new document about the subject entry subject (a
// random one of the topic when negative).
func (w *Writer) planDocAbout(subject int32) {
	lx := w.p.lex
	d := &w.d
	d.planned = true
	switch {
	case subject >= 0:
		d.topic = int(lx.entries[subject].topic)
	case w.topic != nil:
		d.topic = w.ti
	default:
		d.topic = w.r.IntN(len(lx.byTopic))
	}
	kinds := lx.topicKinds[d.topic]
	d.kind = int(kinds[w.r.IntN(len(kinds))])
	if subject < 0 {
		list := lx.byTopic[d.topic][lexSubject]
		subject = list[w.r.IntN(len(list))]
	}
	own := lx.subjPool[subject]
	for t := range d.pool {
		d.pool[t] = lx.byTopic[d.topic][t]
		if own != nil && len(own[t]) > 0 {
			d.pool[t] = own[t]
		}
	}
	for t := range d.focus {
		list := d.pool[t]
		d.focus[t] = list[w.r.IntN(len(list))]
	}
	d.focus[lexSubject] = subject
	d.seed = w.r.Uint64()
	// Frames used stay marked from one document to the next, so the
	// documents of one writer do not share sentences until a list runs out.
	if need := (lx.nFrames + 63) / 64; len(d.used) < need {
		d.used = make([]uint64, need)
		d.docUsed = make([]uint64, need)
	}
	clear(d.docUsed)
	d.nrec, d.npicks, d.seq, d.themes, d.gender = 0, 0, -1, 0, 0
	w.unbind()
}

func (w *Writer) ensureDoc() {
	if !w.d.planned || w.topic != nil && w.d.topic != w.ti {
		w.planDoc()
	}
}

func (w *Writer) unbind() {
	w.d.themes &^= w.p.lex.sectionThemes
	for t := range w.d.bound {
		for k := range w.d.bound[t] {
			w.d.bound[t][k] = -1
		}
	}
}

// pickFrame draws a frame of list, avoiding frames the writer used: the
// one drawn, or the next unused one after it (one draw). When every frame
// of the list has been used, the frames not used in this document are
// free again; when the document has used them all, the frames with words
// to draw, which do not read the same twice, and only then every frame.
// A frame whose slots the document cannot fill (a skill where the entries
// have none, a theme already told) is passed over.
func (w *Writer) pickFrame(list []frame) *frame {
	i := w.r.IntN(len(list))
	f := w.nextUnused(list, i)
	if f == nil {
		for k := range list {
			w.unmarkFrame(&list[k])
		}
		if f = w.nextUnused(list, i); f == nil {
			// The document has used every frame it can write: the ones
			// with words to draw come back first, then all of them, so
			// that the next sentences again find a frame in one step.
			for k := range list {
				if t := list[k].theme; !list[k].fixed && (t == 0 || w.d.themes&(1<<t) == 0) {
					w.unmarkDocFrame(&list[k])
				}
			}
			if f = w.nextUnused(list, i); f == nil {
				for k := range list {
					if t := list[k].theme; t == 0 || w.d.themes&(1<<t) == 0 {
						w.unmarkDocFrame(&list[k])
					}
				}
				if f = w.nextUnused(list, i); f == nil {
					f = w.nextFitting(list, i)
				}
			}
		}
	}
	w.useFrame(f)
	return f
}

// nextUnused returns the first frame of list from i on, wrapping around,
// that the writer has not used and can write, or nil. The frames of a
// role have consecutive ids, so the used ones are skipped a word of bits
// at a time.
func (w *Writer) nextUnused(list []frame, i int) *frame {
	n := len(list)
	base := list[0].id
	if list[n-1].id-base != n-1 {
		for k := range list {
			if f := &list[(i+k)%n]; !w.usedFrame(f) && !w.docUsedFrame(f) && w.fits(f) {
				return f
			}
		}
		return nil
	}
	d := &w.d
	for k := 0; k < n; {
		j := (i + k) % n
		id := base + j
		off := uint(id & 63)
		limit := min(64-int(off), n-j, n-k)
		free := ^(d.used[id>>6] | d.docUsed[id>>6]) >> off
		if limit < 64 {
			free &= 1<<uint(limit) - 1
		}
		if free == 0 {
			k += limit
			continue
		}
		t := bits.TrailingZeros64(free)
		if f := &list[j+t]; w.fits(f) {
			return f
		}
		k += t + 1
	}
	return nil
}

// nextFitting returns the first frame of list from i on that the
// document can write, in this order of preference: with words to draw
// (which do not read the same twice) and of a theme not told yet, of a
// theme not told yet, with words to draw, any whose slots it can fill;
// else list[i].
func (w *Writer) nextFitting(list []frame, i int) *frame {
	for pass := range 4 {
		for k := range list {
			f := &list[(i+k)%len(list)]
			if pass&1 == 0 && f.fixed {
				continue
			}
			if pass < 2 && w.fits(f) || pass >= 2 && (!f.cons || w.slotsFit(f)) {
				return f
			}
		}
	}
	return &list[i]
}

// fits reports whether the document can write f: its theme is not told
// yet, and its slots find entries with their tags and fields.
func (w *Writer) fits(f *frame) bool {
	if f.theme != 0 && w.d.themes&(1<<f.theme) != 0 {
		return false
	}
	return !f.cons || w.slotsFit(f)
}

// tellTheme marks f's theme told: a section theme until the next
// section, a post's theme by marking every frame of it used in the
// document, so that the search for a frame skips them with the others.
func (w *Writer) tellTheme(f *frame) {
	lx := w.p.lex
	w.d.themes |= 1 << f.theme
	if lx.sectionThemes&(1<<f.theme) != 0 {
		return
	}
	for _, id := range lx.themeFrames[f.theme] {
		w.d.docUsed[id>>6] |= 1 << (id & 63)
	}
}

func (w *Writer) slotsFit(f *frame) bool {
	d := &w.d
	for i := range f.toks {
		t := &f.toks[i]
		if t.kind != fEntry || t.tags == 0 && t.need == 0 {
			continue
		}
		e := int32(-1)
		switch {
		case t.focus:
			e = d.focus[t.typ]
		case t.bind > 0:
			e = d.bound[t.typ][t.bind]
		}
		if e >= 0 {
			if !w.p.lex.entries[e].suits(t.tags, t.need) {
				return false
			}
			continue
		}
		if !slices.ContainsFunc(d.pool[t.typ], func(e int32) bool { return w.p.lex.entries[e].suits(t.tags, t.need) }) {
			return false
		}
	}
	return true
}

// suits reports whether the entry has one of tags (any when 0) and every
// field of need.
func (en *lexEntry) suits(tags uint16, need uint32) bool {
	return (tags == 0 || en.tags&tags != 0) && en.has&need == need
}

func (w *Writer) useFrame(f *frame) {
	if w.picked != nil {
		w.picked(f)
	}
	w.markFrame(f)
	if f.theme != 0 {
		w.tellTheme(f)
	}
}

func (w *Writer) usedFrame(f *frame) bool    { return w.d.used[f.id>>6]&(1<<(f.id&63)) != 0 }
func (w *Writer) docUsedFrame(f *frame) bool { return w.d.docUsed[f.id>>6]&(1<<(f.id&63)) != 0 }
func (w *Writer) markFrame(f *frame) {
	w.d.used[f.id>>6] |= 1 << (f.id & 63)
	w.d.docUsed[f.id>>6] |= 1 << (f.id & 63)
}
func (w *Writer) unmarkFrame(f *frame) { w.d.used[f.id>>6] &^= 1 << (f.id & 63) }

func (w *Writer) unmarkDocFrame(f *frame) { w.d.docUsed[f.id>>6] &^= 1 << (f.id & 63) }

// drawEntry draws an entry of type t of the document's pool, other than
// the focus and the entries drawn last, with one of tags (any when 0) and
// the fields of need.
func (w *Writer) drawEntry(t uint8, tags uint16, need uint32) int32 {
	d := &w.d
	lx := w.p.lex
	list := d.pool[t]
	if d.seq >= 0 {
		// Items of a list: the entries in turn, from a random start.
		for k := range list {
			e := list[(d.seq+d.seqN+k)%len(list)]
			if lx.entries[e].suits(tags, need) {
				d.seqN += k + 1
				return e
			}
		}
		d.seqN++
		return list[(d.seq+d.seqN-1)%len(list)]
	}
	var e int32
	if tags == 0 && need == 0 {
		for try := 0; try < 3; try++ {
			e = list[w.r.IntN(len(list))]
			if e != d.focus[t] && !w.recent(e) {
				break
			}
		}
	} else {
		// The first entry that suits, from a random start: one not drawn
		// lately if there is one.
		start := w.r.IntN(len(list))
		e = -1
		for k := range list {
			c := list[(start+k)%len(list)]
			if !lx.entries[c].suits(tags, need) {
				continue
			}
			if e < 0 {
				e = c
			}
			if c != d.focus[t] && !w.recent(c) {
				e = c
				break
			}
		}
		if e < 0 {
			e = list[start]
		}
	}
	d.recent[d.nrec%len(d.recent)] = e
	d.nrec++
	return e
}

func (w *Writer) recent(e int32) bool {
	d := &w.d
	for i := 0; i < min(d.nrec, len(d.recent)); i++ {
		if d.recent[i] == e {
			return true
		}
	}
	return false
}

// appendFrame renders a frame into the buffer.
func (w *Writer) appendFrame(f *frame) {
	lx := w.p.lex
	d := &w.d
	for i := range f.toks {
		t := &f.toks[i]
		switch t.kind {
		case fLit:
			w.buf = append(w.buf, t.text...)
		case fEntry:
			var e int32
			switch {
			case t.focus:
				e = d.focus[t.typ]
			case t.bind > 0:
				e = d.bound[t.typ][t.bind]
				if e < 0 {
					e = w.drawEntry(t.typ, t.tags, t.need)
					d.bound[t.typ][t.bind] = e
				}
			default:
				e = w.drawEntry(t.typ, t.tags, t.need)
			}
			if w.trace != nil {
				w.trace(t, e)
			}
			en := &lx.entries[e]
			field := int(t.field)
			if t.falts != nil {
				// {role.sg|fsg}: the field of the class before it (a
				// woman's name), the first when the entry has not that one.
				if k := int(d.last); k < len(t.falts) && en.fields[t.falts[k]] != "" {
					field = int(t.falts[k])
				}
			}
			at := len(w.buf)
			w.appendField(e, en, field)
			if t.upper {
				w.upperAt(at)
			}
			d.last = en.classes[field]
		case fAgree:
			k := int(d.last)
			if k >= len(t.alts) {
				k = 0
			}
			w.buf = append(w.buf, t.alts[k]...)
		case fChoice:
			w.buf = append(w.buf, t.alts[w.r.IntN(len(t.alts))]...)
		case fNum:
			w.appendNum(&t.num, w.r.Uint64())
		case fGender:
			d.gender = uint8(1 + w.r.IntN(2))
			d.last = uint8(lx.nameClass[d.gender-1])
		case fName, fFirst:
			female := w.r.IntN(2) == 0
			if d.gender != 0 {
				female, d.gender = d.gender == 1, 0
			}
			if t.kind == fName {
				w.appendPersonOf(female)
			} else if female {
				w.buf = append(w.buf, w.pick(w.p.female)...)
			} else {
				w.buf = append(w.buf, w.pick(w.p.male)...)
			}
			if c := lx.nameClass; c[0] >= 0 {
				d.last = uint8(c[0])
				if !female {
					d.last = uint8(c[1])
				}
			}
		case fList:
			list := w.p.lists[t.lo]
			if !t.focus {
				w.buf = append(w.buf, list[w.r.IntN(len(list))]...)
				break
			}
			w.buf = append(w.buf, list[w.docPick(t.lo, len(list))]...)
		}
	}
}

// appendField appends field fi of entry e. The numbers, choices and list
// words of its text are drawn from the document's seed and their place in
// the entry, so an entry reads the same in every sentence of a post ("the
// 12 km loop" stays 12 km) and differently in the next post.
func (w *Writer) appendField(e int32, en *lexEntry, fi int) {
	if en.dyn == nil || en.dyn[fi] == nil {
		w.buf = append(w.buf, en.fields[fi]...)
		return
	}
	k := uint64(0)
	for i := range en.dyn[fi] {
		s := &en.dyn[fi][i]
		if s.kind == dLit {
			w.buf = append(w.buf, s.text...)
			continue
		}
		k++
		h := mix64(w.d.seed ^ uint64(e)<<16 ^ k)
		switch s.kind {
		case dNum:
			w.appendNum(&s.num, h)
		case dChoice:
			w.buf = append(w.buf, s.alts[h%uint64(len(s.alts))]...)
		case dList:
			list := w.p.lists[s.list]
			w.buf = append(w.buf, list[h%uint64(len(list))]...)
		}
	}
}

// appendNum appends the number of n that h chooses, padded to n.pad digits
// and grouped as the locale groups digits (years are not).
func (w *Writer) appendNum(n *numSpec, h uint64) {
	v := n.lo + int(h%uint64((n.hi-n.lo)/n.step+1))*n.step
	if v >= 10000 || v >= 1000 && (v < 1900 || v > 2100) {
		w.buf = w.p.appendNumber(w.buf, float64(v), 0)
		return
	}
	for p := int(n.pad) - digits(v); p > 0; p-- {
		w.buf = append(w.buf, '0')
	}
	w.buf = appendInt(w.buf, v)
}

func digits(v int) int {
	n := 1
	for ; v >= 10; v /= 10 {
		n++
	}
	return n
}

// mix64 is SplitMix64's finaliser: a well-spread hash of x.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// appendLexSentence appends one sentence of a frame of list, capitalised.
func (w *Writer) appendLexSentence(list []frame) {
	start := len(w.buf)
	w.appendFrame(w.pickFrame(list))
	w.upperAt(start)
}

// appendLexParagraph appends k sentences: the first of lead, the others of
// lead (once at most, when again is set) or of body, the general frames of
// the document's kind.
func (w *Writer) appendLexParagraph(lead, body []frame, k int, again bool) {
	leadAgain := !again
	for i := 0; i < k; i++ {
		if i > 0 {
			w.space()
		}
		if i == 0 {
			w.appendLexSentence(lead)
			continue
		}
		// One more sentence of the lead role half of the time, when the
		// one drawn is still unused; else a general one.
		if !leadAgain && w.r.IntN(2) == 0 {
			leadAgain = true
			if f := &lead[w.r.IntN(len(lead))]; !w.usedFrame(f) && !w.docUsedFrame(f) && w.fits(f) {
				w.useFrame(f)
				start := len(w.buf)
				w.appendFrame(f)
				w.upperAt(start)
				continue
			}
		}
		w.appendLexSentence(body)
	}
}

// lexTitle appends a title of a new document.
func (w *Writer) lexTitle() {
	w.planDoc()
	start := len(w.buf)
	// A title whose other slots happen to name another subject of the
	// topic, longer than the post's own, would be read as about that one
	// (TitleSubject, and so the comments): such a title is written again.
	for try := 0; ; try++ {
		w.appendFrame(w.pickFrame(w.p.lex.plans[w.d.kind].title))
		if try == 4 || w.namesItsSubject(w.buf[start:]) {
			break
		}
		w.buf = w.buf[:start]
	}
	w.caseTitle(start)
}

// namesItsSubject reports whether TitleSubject finds the document's subject
// in title among the subjects of its topic.
func (w *Writer) namesItsSubject(title []byte) bool {
	lx := w.p.lex
	focus := w.d.focus[lexSubject]
	w.low = appendLower(w.low[:0], title)
	if len(w.low) == 0 {
		return false
	}
	// The scratch is not written to while low is in use.
	low := unsafe.String(&w.low[0], len(w.low))
	own := 0
	for _, f := range lx.lowSubjects[focus] {
		if len(f) > own && strings.Contains(low, f) {
			own = len(f)
		}
	}
	if own == 0 {
		return false
	}
	for _, e := range lx.byTopic[w.d.topic][lexSubject] {
		if e == focus {
			continue
		}
		for _, f := range lx.lowSubjects[e] {
			if len(f) >= own && strings.Contains(low, f) {
				return false
			}
		}
	}
	return true
}

func (w *Writer) caseTitle(start int) {
	if w.p.titleCase {
		w.titleCaseFrom(start)
	} else {
		w.upperAt(start)
	}
}

// sectionRole returns the frames of paragraph i of n and of a heading
// before it.
func (w *Writer) sectionRole(i, n, section int) (para, heading []frame) {
	kp := &w.p.lex.plans[w.d.kind]
	switch {
	case i == 0:
		return kp.opening, kp.hOpening
	case i == n-1 && n >= 3:
		return kp.closing, kp.hClosing
	}
	j := section & 1
	return kp.main[j], kp.hMain[j]
}

// CommentOn returns a reader's comment on the post titled title: it
// agrees, asks or tells of the reader's own experience, about the subject
// the title names (see Pack.TitleSubject), and may go on with sentences
// that suit that move ([frames.comment.agree], .ask, .experience, else
// [frames.comment]), so a question ends with thanks in advance and not
// with "thanks again". Without a lexicon it is Comment.
func (w *Writer) CommentOn(title string) string {
	lx := w.lex()
	if lx == nil {
		return w.Comment()
	}
	w.focusTitle(title)
	var lead, more []frame
	switch w.r.IntN(3) {
	case 0:
		lead, more = lx.roles["comment-agree"], lx.frameRole("comment.agree")
	case 1:
		lead, more = lx.roles["comment-ask"], lx.frameRole("comment.ask")
	default:
		lead, more = lx.roles["comment-experience"], lx.frameRole("comment.experience")
	}
	w.appendLexSentence(lead)
	if len(more) > 0 && w.r.IntN(2) == 0 {
		w.space()
		w.appendLexSentence(more)
	}
	return w.out()
}

// Reply returns a reply to the comment parent on the post titled title:
// an answer when parent asks, else a reply that takes up what it says.
func (w *Writer) Reply(title, parent string) string {
	lx := w.lex()
	if lx == nil {
		return w.Comment()
	}
	w.focusTitle(title)
	w.focusText(parent)
	lead := lx.roles["reply"]
	if strings.Contains(parent, "?") || strings.Contains(parent, "？") {
		lead = lx.roles["reply-answer"]
	}
	w.appendLexSentence(lead)
	if more := lx.roles["comment"]; len(more) > 0 && w.r.IntN(2) == 0 {
		w.space()
		w.appendLexSentence(more)
	}
	return w.out()
}

// focusTitle plans a document about the subject title names, or about the
// writer's topic (a random one without) when it names none.
func (w *Writer) focusTitle(title string) {
	e, ok := w.p.titleEntry(title)
	if !ok {
		e = -1
	}
	w.planDocAbout(e)
}

// focusText makes the entries of the document's topic that text names the
// focus of their types.
func (w *Writer) focusText(text string) {
	lx := w.p.lex
	low := strings.ToLower(text)
	for _, t := range [...]int{lexThing, lexAct, lexPlace, lexProblem, lexGoal, lexPerson} {
		for _, e := range w.d.pool[t] {
			if f := lx.entries[e].fields[0]; len(f) > 3 && strings.Contains(low, strings.ToLower(f)) {
				w.d.focus[t] = e
				break
			}
		}
	}
}

// titleEntry finds the subject entry whose longest form the title holds.
func (p *Pack) titleEntry(title string) (int32, bool) {
	lx := p.lex
	if lx == nil || title == "" {
		return 0, false
	}
	low := strings.ToLower(title)
	best, bestLen := int32(-1), 0
	for _, e := range lx.subjects {
		for _, f := range lx.lowSubjects[e] {
			if len(f) > bestLen && strings.Contains(low, f) {
				best, bestLen = e, len(f)
			}
		}
	}
	return best, best >= 0
}

// TitleSubject returns the topic and the subject (as the lexicon writes
// it) of a title written by a Writer of the pack in real text: "sourdough
// bread" of "How to Bake Sourdough Bread at Home". It reports false for a
// title that names no subject of the pack's lexicon.
func (p *Pack) TitleSubject(title string) (Topic, string, bool) {
	e, ok := p.titleEntry(title)
	if !ok {
		return Topic{}, "", false
	}
	en := &p.lex.entries[e]
	return Topic{p, int(en.topic)}, en.fields[0], true
}

// Caption returns a short caption of a picture that goes with the post
// being written (its topic and subject).
func (w *Writer) Caption() string {
	if w.lex() == nil {
		w.appendSentence(w.between(4, 9))
		return w.out()
	}
	w.ensureDoc()
	w.appendLexSentence(w.p.lex.roles["caption"])
	return w.out()
}

// MediaTitle returns the title of a media item: a short phrase about what
// the picture shows, in the writer's topic.
func (w *Writer) MediaTitle() string {
	if w.lex() == nil {
		return w.Title()
	}
	w.ensureDoc()
	start := len(w.buf)
	w.appendFrame(w.pickFrame(w.p.lex.roles["mediatitle"]))
	w.upperAt(start)
	return w.out()
}

// TermDescription returns the description of a category or tag of the
// writer's topic: one sentence of what posts under it are about.
func (w *Writer) TermDescription() string {
	if w.lex() == nil {
		return w.Sentence(8, 16)
	}
	w.planDoc()
	w.appendLexSentence(w.p.lex.roles["term"])
	return w.out()
}

// itemFrame chooses the frame every item of a list is written from and
// returns it with the number of distinct items it can give (the length of
// its first slot's list), and starts drawing entries in turn.
func (w *Writer) itemFrame() (*frame, int) {
	f := w.pickFrame(w.p.lex.plans[w.d.kind].item)
	n := 1 << 30
	for i := range f.toks {
		if t := &f.toks[i]; t.kind == fEntry && !t.focus {
			n = 0
			for _, e := range w.d.pool[t.typ] {
				if w.p.lex.entries[e].suits(t.tags, t.need) {
					n++
				}
			}
			break
		}
	}
	w.d.seq, w.d.seqN = w.r.IntN(64), 0
	return f, n
}

// appendLower appends s lower-cased, as strings.ToLower would write it.
func appendLower(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(s[i:])
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
		i += n
	}
	return dst
}
