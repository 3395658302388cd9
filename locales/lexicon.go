package locales

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The typed lexicon and the sentence frames of a locale (see
// data/LEXICON.md). A pack with a [lexicon] section writes real text from
// frames: whole sentences whose slots take entries of one type of the
// post's topic, so that a baker kneads dough and a cyclist climbs a pass.

// lexTypeNames returns the names of the types of lexicon entries, in the
// order of their constants.
func lexTypeNames() [nLexTypes]string {
	return [nLexTypes]string{"person", "role", "thing", "place", "act", "goal", "problem", "benefit", "subject", "event"}
}

const (
	lexPerson = iota
	lexRole
	lexThing
	lexPlace
	lexAct
	lexGoal
	lexProblem
	lexBenefit
	lexSubject
	lexEvent
	nLexTypes
)

func lexType(s string) int {
	for i, n := range lexTypeNames() {
		if n == s {
			return i
		}
	}
	return -1
}

// lexEntry is one entry: its forms (the fields of its type, every one
// precomputed) and its agreement class.
type lexEntry struct {
	typ    uint8
	class  uint8
	topic  int16
	fields []string
	// classes is the agreement class of each field.
	classes []uint8
	// tags are the entry's tags (bits of lexicon.tagNames): an act that
	// is a skill, a habit or a one-off.
	tags uint16
	// has has bit i set when field i is not empty (optional fields).
	has uint32
	// subj is the subject entry whose block holds the entry, -1 for an
	// entry of the whole topic.
	subj int32
	// dyn holds, for an entry with numbers, choices or list words in its
	// text, the compiled text of each field (nil for a plain field).
	dyn [][]dseg
}

// dseg is a piece of an entry's text that varies from post to post: a
// number of a range, one of several words, a word of a list. Within a
// post it is the same in every sentence (see Writer.appendField).
type dseg struct {
	kind dsegKind
	// text is literal text (dLit), alts the words of a choice.
	text string
	alts []string
	// num is a number range (dNum); list a list section (dList).
	num  numSpec
	list int
}

type dsegKind uint8

const (
	dLit dsegKind = iota
	dNum
	dChoice
	dList
)

// numSpec is a range of numbers drawn in steps, written with pad digits at
// least (minutes: "05").
type numSpec struct {
	lo, hi, step int
	pad          uint8
}

// lexicon is the typed vocabulary and the frames of a pack.
type lexicon struct {
	classes []string
	// fields are the field names of each type; fields[t][0] is the default.
	fields [nLexTypes][]string
	// fieldClass is the class a field forces (-1 for the entry's own).
	fieldClass [nLexTypes][]int
	invariant  []bool
	entries    []lexEntry
	// byTopic[topic][type] lists the entries of a topic (inherited from the
	// parent topic when it has none of the type).
	byTopic [][nLexTypes][]int32
	// subjects are every subject entry, for matching titles.
	subjects []int32
	roles    map[string][]frame
	nFrames  int
	// kinds are the document kinds that have title frames, plans their
	// frames.
	kinds []string
	plans []kindPlan
	// topicKinds are the plans each topic is written as ("kinds =" in its
	// group, inherited from the parent topic; every kind without).
	topicKinds [][]uint8
	// lowSubjects are the lower-cased forms of each subject entry.
	lowSubjects [][]string
	// fieldOpt marks the optional fields of each type ("price?"): an
	// entry may leave them empty, and a slot that names one takes only
	// entries that have it.
	fieldOpt [nLexTypes][]bool
	// tagNames are the tags of entries ("act.skill = ..."), bit i of
	// lexEntry.tags for tagNames[i].
	tagNames []string
	// subjPool[e] are the entries of the block of subject e, by type: a
	// post about the subject draws from them instead of its topic's.
	subjPool map[int32]*[nLexTypes][]int32
	// themes names the themes of frames ("<first-try> ..."): a post tells
	// one story of a theme at most, a section ("<.fix>") says one thing of
	// a section theme at most.
	themes        []string
	sectionThemes uint64
	// themeFrames are the frame ids of each theme (index theme).
	themeFrames [][]int
	// nameClass is the agreement class of a made-up woman's and man's
	// name (meta lex.nameclass = female male), -1 without.
	nameClass [2]int
}

// maxTags is the number of entry tags a lexicon can have.
const maxTags = 16

// frame is one compiled sentence frame.
type frame struct {
	id   int
	toks []ftok
	// fixed is set when no slot of the frame draws a fresh word or name:
	// with the document's focus it reads the same each time.
	fixed bool
	// cons is set when a slot takes only entries with a tag or a field.
	cons bool
	// theme is the frame's theme (index+1 in lexicon.themes), 0 for none.
	theme uint8
}

type ftokKind uint8

const (
	fLit    ftokKind = iota
	fEntry           // an entry of type typ: fresh, bound (bind > 0) or the focus
	fAgree           // an alternative by the class of the previous entry slot
	fNum             // a number between lo and hi
	fName            // a made-up person's full name
	fFirst           // a given name
	fList            // a word of a list section (the document's own with focus)
	fChoice          // one of several words, drawn each time
	fGender          // draws the gender of the next name and agrees with it
)

type ftok struct {
	kind  ftokKind
	typ   uint8
	bind  uint8 // 1-9 for a bound slot, 0 for a fresh draw
	focus bool
	// upper capitalises the slot's first letter.
	upper bool
	field uint8
	// falts are fields chosen by the class of the previous slot
	// ({role.sg|fsg}), nil for the one field.
	falts []uint8
	// tags, when not 0, are the tags of which the entry needs one; need
	// are the optional fields it must have.
	tags uint16
	need uint32
	lo   int // a list section (fList)
	num  numSpec
	text string
	alts []string
}

// frameRole returns the frames of role, falling back along the dots:
// "opening.howto", then "opening".
func (lx *lexicon) frameRole(role string) []frame {
	for {
		if f := lx.roles[role]; len(f) > 0 {
			return f
		}
		i := strings.LastIndexByte(role, '.')
		if i < 0 {
			return nil
		}
		role = role[:i]
	}
}

// readLexicon reads [lexicon.forms], [lexicon.derive], [lexicon] and the
// [frames.*] sections, once the grammar and topics are in place.
func (b *builder) readLexicon() {
	lines := b.raw.sections["lexicon"]
	if len(lines) == 0 {
		return
	}
	p := b.p
	if len(p.topics) == 0 {
		b.fail("[lexicon] needs a [topics] section")
		return
	}
	lx := &lexicon{roles: map[string][]frame{}}
	lx.classes = strings.Fields(b.meta("lex.classes", "x"))
	inv := strings.Fields(b.meta("lex.invariant", ""))
	lx.invariant = make([]bool, len(lx.classes))
	for _, c := range inv {
		if k := lx.class(c); k >= 0 {
			lx.invariant[k] = true
		} else {
			b.fail("meta lex.invariant: unknown class %q", c)
		}
	}
	for _, l := range b.raw.sections["lexicon.forms"] {
		k, v, ok := strings.Cut(l, "=")
		t := lexType(strings.TrimSpace(k))
		if !ok || t < 0 {
			b.fail("lexicon.forms %q: want type = fields (types: %s)", l, strings.Join(func() []string { n := lexTypeNames(); return n[:] }(), " "))
			continue
		}
		for _, f := range strings.Fields(v) {
			opt := strings.HasSuffix(f, "?")
			f = strings.TrimSuffix(f, "?")
			name, cls, hasCls := strings.Cut(f, ":")
			c := -1
			if hasCls {
				if c = lx.class(cls); c < 0 {
					b.fail("lexicon.forms %q: unknown class %q", l, cls)
				}
			}
			lx.fields[t] = append(lx.fields[t], name)
			lx.fieldClass[t] = append(lx.fieldClass[t], c)
			lx.fieldOpt[t] = append(lx.fieldOpt[t], opt && len(lx.fields[t]) > 1)
		}
	}
	lx.nameClass = [2]int{-1, -1}
	if nc := strings.Fields(b.meta("lex.nameclass", "")); len(nc) == 2 {
		for i, c := range nc {
			if lx.nameClass[i] = lx.class(c); lx.nameClass[i] < 0 {
				b.fail("meta lex.nameclass: unknown class %q", c)
			}
		}
	} else if len(nc) != 0 {
		b.fail("meta lex.nameclass: want the class of a woman's name and of a man's")
	}
	lx.subjPool = map[int32]*[nLexTypes][]int32{}
	conv := b.conversions()
	// Derived fields come after the given ones.
	type derive struct {
		typ   int
		field int
		tmpl  map[int]string // class -> template; -1 for every class
		rule  *suffixRule
	}
	var derives []derive
	for _, l := range b.raw.sections["lexicon.derive"] {
		d, ok := b.parseDerive(lx, l)
		if !ok {
			continue
		}
		for t := 0; t < nLexTypes; t++ {
			if d.typ != "*" && lexType(d.typ) != t {
				continue
			}
			fi := lx.fieldIndex(t, d.field)
			if fi < 0 {
				lx.fields[t] = append(lx.fields[t], d.field)
				lx.fieldClass[t] = append(lx.fieldClass[t], d.class)
				lx.fieldOpt[t] = append(lx.fieldOpt[t], false)
				fi = len(lx.fields[t]) - 1
			}
			derives = append(derives, derive{t, fi, d.tmpl, d.rule})
		}
		if d.typ != "*" && lexType(d.typ) < 0 {
			b.fail("lexicon.derive %q: unknown type %q", l, d.typ)
		}
	}
	for t := 0; t < nLexTypes; t++ {
		if len(lx.fields[t]) == 0 {
			b.fail("lexicon.forms: type %s has no fields", lexTypeNames()[t])
			return
		}
	}
	defs := topicDefs()
	index := make(map[string]int, len(defs))
	for i, d := range defs {
		index[d.id] = i
	}
	lx.byTopic = make([][nLexTypes][]int32, len(defs))
	topic := -1
	kindLines := make([][]string, len(defs))
	respell := b.respell()
	subj := int32(-1)
	for _, l := range lines {
		if l[0] == '@' {
			id, sub, isSub := strings.Cut(strings.TrimSpace(l[1:]), "/")
			ti, ok := index[strings.TrimSpace(id)]
			if !ok {
				b.fail("lexicon %q: unknown topic", l)
				topic, subj = -1, -1
				continue
			}
			topic, subj = ti, -1
			if isSub {
				// "@fashion/dressing for work": the entries of one subject.
				name := respell(strings.TrimSpace(sub))
				for _, e := range lx.byTopic[ti][lexSubject] {
					if lx.entries[e].fields[0] == name {
						subj = e
					}
				}
				if subj < 0 {
					b.fail("lexicon %q: %q is no subject of @%s (subjects come before their block)", l, name, id)
					topic = -1
					continue
				}
				lx.subjPool[subj] = new([nLexTypes][]int32)
			}
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if strings.TrimSpace(k) == "kinds" && topic >= 0 && subj < 0 {
			// The kinds of post the topic is written as (default: all).
			kindLines[topic] = strings.Fields(v)
			continue
		}
		// "act.skill.habit = ..." gives the entries tags.
		typeName, tagList, _ := strings.Cut(strings.TrimSpace(k), ".")
		t := lexType(typeName)
		if !ok || t < 0 {
			b.fail("lexicon %q: want type = entry ; entry", l)
			continue
		}
		if topic < 0 {
			b.fail("lexicon %q: entry before the first @topic", l)
			continue
		}
		if t == lexSubject && subj >= 0 {
			b.fail("lexicon %q: a subject's block holds no subjects", l)
			continue
		}
		var tags uint16
		for tg := range strings.SplitSeq(tagList, ".") {
			if tg == "" {
				continue
			}
			k := slices.Index(lx.tagNames, tg)
			if k < 0 {
				if len(lx.tagNames) == maxTags {
					b.fail("lexicon %q: more than %d tags", l, maxTags)
					continue
				}
				k = len(lx.tagNames)
				lx.tagNames = append(lx.tagNames, tg)
			}
			tags |= 1 << k
		}
		for _, e := range splitOutside(v, ';') {
			e = strings.TrimSpace(e)
			if e == "" {
				continue
			}
			e = respell(e)
			en := lexEntry{typ: uint8(t), topic: int16(topic), tags: tags, subj: subj}
			if c, rest, ok := strings.Cut(e, ":"); ok && !strings.ContainsAny(c, " |{") {
				k := lx.class(c)
				if k < 0 {
					b.fail("lexicon %q: unknown class %q (classes: %s)", e, c, strings.Join(lx.classes, " "))
					continue
				}
				en.class, e = uint8(k), strings.TrimSpace(rest)
			}
			en.fields = make([]string, len(lx.fields[t]))
			pos := 0
			bad := false
			for _, g := range splitOutside(e, '|') {
				g = strings.TrimSpace(g)
				// "price=$40" gives a field by its name.
				if name, val, ok := strings.Cut(g, "="); ok && !strings.ContainsAny(name, " {") {
					fi := lx.fieldIndex(t, name)
					if fi < 0 {
						b.fail("lexicon %q: %s has no field %q", e, lexTypeNames()[t], name)
						bad = true
						continue
					}
					en.fields[fi] = strings.TrimSpace(val)
					continue
				}
				if pos >= len(lx.fields[t]) {
					b.fail("lexicon %q: more fields than type %s has (%d)", e, lexTypeNames()[t], len(lx.fields[t]))
					bad = true
					break
				}
				en.fields[pos] = g
				pos++
			}
			if bad {
				continue
			}
			if lx.invariant[en.class] {
				// One form for singular and plural: "scissors", "flour".
				for i, c := range lx.fieldClass[t] {
					if c >= 0 && i < len(lx.fields[t]) && en.fields[i] == "" && i > 0 {
						en.fields[i] = en.fields[0]
					}
				}
			}
			for _, d := range derives {
				if d.typ != t || en.fields[d.field] != "" {
					continue
				}
				if d.rule != nil {
					src := en.fields[d.rule.from]
					if src != "" {
						en.fields[d.field] = d.rule.apply(src)
					}
					continue
				}
				tmpl, ok := d.tmpl[int(en.class)]
				if !ok {
					tmpl, ok = d.tmpl[-1]
				}
				if ok && b.templateFilled(lx, t, tmpl, en.fields) {
					en.fields[d.field] = b.fillTemplate(lx, t, tmpl, en.fields)
				}
			}
			for i, f := range en.fields {
				switch {
				case f != "":
					en.has |= 1 << i
				case !lx.fieldOpt[t][i]:
					b.fail("lexicon %q: field %s is missing and not derived", e, lx.fields[t][i])
				}
			}
			en.classes = make([]uint8, len(en.fields))
			for i := range en.fields {
				en.classes[i] = en.class
				if c := lx.fieldClass[t][i]; c >= 0 && !lx.invariant[en.class] {
					en.classes[i] = uint8(c)
				}
			}
			for i, f := range en.fields {
				// The locale's spacing around punctuation, as in frames:
				// French "à 19 h pile : bain".
				f = b.typo(f)
				en.fields[i] = f
				if !strings.Contains(f, "{") {
					continue
				}
				if t == lexSubject {
					b.fail("lexicon %q: a subject is found back in titles and has no {…}", e)
					break
				}
				segs, err := b.compileDyn(f, conv)
				if err != nil {
					b.fail("lexicon %q: %v", e, err)
					break
				}
				if en.dyn == nil {
					en.dyn = make([][]dseg, len(en.fields))
				}
				en.dyn[i] = segs
			}
			idx := int32(len(lx.entries))
			lx.entries = append(lx.entries, en)
			if subj >= 0 {
				lx.subjPool[subj][t] = append(lx.subjPool[subj][t], idx)
				continue
			}
			lx.byTopic[topic][t] = append(lx.byTopic[topic][t], idx)
			if t == lexSubject {
				lx.subjects = append(lx.subjects, idx)
			}
		}
	}
	for i := range p.topics {
		for t := 0; t < nLexTypes; t++ {
			for j := i; len(lx.byTopic[i][t]) == 0 && j >= 0; j = p.topics[j].parent {
				lx.byTopic[i][t] = lx.byTopic[j][t]
			}
		}
	}
	for i := range p.topics {
		for t := 0; t < nLexTypes; t++ {
			// A type the topic leaves out is fine when every subject of
			// the topic has it in its own block.
			if len(lx.byTopic[i][t]) == 0 && (t == lexSubject || len(lx.byTopic[i][lexSubject]) == 0 || slices.ContainsFunc(lx.byTopic[i][lexSubject], func(e int32) bool {
				own := lx.subjPool[e]
				return own == nil || len(own[t]) == 0
			})) {
				b.fail("lexicon: topic %s has no %s (nor has its parent or each of its subjects)", p.topics[i].id, lexTypeNames()[t])
			}
		}
	}
	// Frames.
	var names []string
	for name := range b.raw.sections {
		if strings.HasPrefix(name, "frames.") {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		role := strings.TrimPrefix(name, "frames.")
		for _, l := range b.raw.sections[name] {
			theme := 0
			if l[0] == '<' {
				// "<first-try> ...": a story of a theme, told once a post.
				th, rest, ok := strings.Cut(l[1:], ">")
				if !ok || strings.ContainsAny(th, " {") {
					b.fail("[%s] %q: want <theme> before the frame", name, l)
					continue
				}
				theme = slices.Index(lx.themes, th) + 1
				if theme == 0 {
					if len(lx.themes) == 63 {
						b.fail("[%s] %q: more than 63 themes", name, l)
						continue
					}
					lx.themes = append(lx.themes, th)
					theme = len(lx.themes)
					if strings.HasPrefix(th, ".") {
						// "<.fix>": once a section, not once a post.
						lx.sectionThemes |= 1 << theme
					}
				}
				l = strings.TrimSpace(rest)
			}
			f, err := b.compileFrame(lx, respell(l), conv)
			if err != nil {
				b.fail("[%s] %q: %v", name, l, err)
				continue
			}
			f.id = lx.nFrames
			f.theme = uint8(theme)
			lx.nFrames++
			if theme > 0 {
				for len(lx.themeFrames) <= theme {
					lx.themeFrames = append(lx.themeFrames, nil)
				}
				lx.themeFrames[theme] = append(lx.themeFrames[theme], f.id)
			}
			// A frame is fixed unless it draws an entry or a name: a
			// number, a choice or a street alone still reads as the same
			// sentence again.
			f.fixed = !slices.ContainsFunc(f.toks, func(t ftok) bool {
				return t.kind == fEntry && !t.focus || t.kind == fName || t.kind == fFirst
			})
			lx.roles[role] = append(lx.roles[role], f)
		}
		if strings.HasPrefix(role, "title.") {
			lx.kinds = append(lx.kinds, strings.TrimPrefix(role, "title."))
		}
	}
	for _, need := range []string{"body", "opening", "closing", "quote", "cite", "item", "caption", "excerpt", "comment-agree", "comment-ask", "comment-experience", "reply", "reply-answer", "mediatitle", "term"} {
		if len(lx.roles[need]) == 0 {
			b.fail("lexicon: section [frames.%s] is missing or empty", need)
		}
	}
	if len(lx.kinds) == 0 {
		b.fail("lexicon: no [frames.title.KIND] section")
	}
	lx.plans = lx.buildPlans()
	lx.topicKinds = make([][]uint8, len(p.topics))
	for i := range p.topics {
		names := kindLines[i]
		for j := i; names == nil && j >= 0; j = p.topics[j].parent {
			names = kindLines[j]
		}
		for k, plan := range lx.plans {
			if names == nil || slices.Contains(names, plan.name) {
				lx.topicKinds[i] = append(lx.topicKinds[i], uint8(k))
			}
		}
		for _, n := range names {
			if !slices.ContainsFunc(lx.plans, func(kp kindPlan) bool { return kp.name == n }) {
				b.fail("lexicon @%s: unknown kind %q", p.topics[i].id, n)
			}
		}
		if len(lx.topicKinds[i]) == 0 {
			b.fail("lexicon @%s: no kind of post", p.topics[i].id)
		}
	}
	lx.lowSubjects = make([][]string, len(lx.entries))
	for _, e := range lx.subjects {
		for _, f := range lx.entries[e].fields {
			if f = strings.ToLower(f); f != "" && !slices.Contains(lx.lowSubjects[e], f) {
				lx.lowSubjects[e] = append(lx.lowSubjects[e], f)
			}
		}
	}
	p.lex = lx
}

func (lx *lexicon) class(s string) int {
	for i, c := range lx.classes {
		if c == s {
			return i
		}
	}
	return -1
}

func (lx *lexicon) fieldIndex(t int, name string) int {
	for i, f := range lx.fields[t] {
		if f == name {
			return i
		}
	}
	return -1
}

// suffixRule derives a field from another by replacing the ending of its
// first or last word: the longest matching suffix wins.
type suffixRule struct {
	from  int
	first bool
	rules []rule
}

func (r *suffixRule) apply(s string) string {
	word, rest := s, ""
	pre := ""
	if r.first {
		if i := strings.IndexByte(s, ' '); i >= 0 {
			word, rest = s[:i], s[i:]
		}
	} else if i := strings.LastIndexByte(s, ' '); i >= 0 {
		pre, word = s[:i+1], s[i+1:]
	}
	best := -1
	for i, ru := range r.rules {
		if strings.HasSuffix(word, ru.suf) && (best < 0 || len(ru.suf) > len(r.rules[best].suf)) {
			best = i
		}
	}
	if best >= 0 {
		stem, rep := word[:len(word)-len(r.rules[best].suf)], r.rules[best].rep
		if i := strings.IndexByte(rep, '*'); i >= 0 {
			// "*" stands for the stem: ">zu *" gives "zu kneten".
			word = rep[:i] + stem + rep[i+1:]
		} else {
			word = stem + rep
		}
	}
	return pre + word + rest
}

type rawDerive struct {
	typ, field string
	class      int
	tmpl       map[int]string
	rule       *suffixRule
}

// parseDerive reads a [lexicon.derive] line: "type field = template",
// "type field = class: template | class: template", or "type field <
// source first|last: suffix>replacement ...". type may be "*"; field may
// be "name:class" to force the agreement class of the derived form.
func (b *builder) parseDerive(lx *lexicon, l string) (rawDerive, bool) {
	var d rawDerive
	d.class = -1
	sep := "="
	if i, j := strings.IndexByte(l, '<'), strings.IndexByte(l, '='); i >= 0 && (j < 0 || i < j) {
		sep = "<"
	}
	head, body, _ := strings.Cut(l, sep)
	hf := strings.Fields(head)
	if len(hf) != 2 {
		b.fail("lexicon.derive %q: want type field = template or type field < source first|last: rules", l)
		return d, false
	}
	d.typ = hf[0]
	name, cls, hasCls := strings.Cut(hf[1], ":")
	d.field = name
	if hasCls {
		if d.class = lx.class(cls); d.class < 0 {
			b.fail("lexicon.derive %q: unknown class %q", l, cls)
		}
	}
	body = strings.TrimSpace(body)
	if sep == "<" {
		src, rest, ok := strings.Cut(body, ":")
		sf := strings.Fields(src)
		t := lexType(d.typ)
		if !ok || len(sf) != 2 || t < 0 || (sf[1] != "first" && sf[1] != "last") {
			b.fail("lexicon.derive %q: want type field < source first|last: suffix>replacement ...", l)
			return d, false
		}
		from := lx.fieldIndex(t, sf[0])
		if from < 0 {
			b.fail("lexicon.derive %q: unknown source field %q", l, sf[0])
			return d, false
		}
		r := &suffixRule{from: from, first: sf[1] == "first"}
		for _, x := range strings.Fields(rest) {
			suf, rep, ok := strings.Cut(x, ">")
			if !ok {
				b.fail("lexicon.derive %q: rule %q without '>'", l, x)
				continue
			}
			r.rules = append(r.rules, rule{suf, strings.ReplaceAll(rep, "_", " ")})
		}
		d.rule = r
		return d, true
	}
	d.tmpl = map[int]string{}
	for alt := range strings.SplitSeq(body, " | ") {
		alt = strings.TrimSpace(alt)
		c := -1
		if k, rest, ok := strings.Cut(alt, ":"); ok && !strings.ContainsAny(k, " {[") {
			if c = lx.class(k); c < 0 {
				b.fail("lexicon.derive %q: unknown class %q", l, k)
				continue
			}
			alt = strings.TrimSpace(rest)
		}
		d.tmpl[c] = alt
	}
	return d, true
}

// fillTemplate writes a derive template for an entry of type t: {field}
// is another field of the entry, [x|y] takes y when the next word starts
// with a vowel sound (English a/an, French le/l').
func (b *builder) fillTemplate(lx *lexicon, t int, tmpl string, fields []string) string {
	var out strings.Builder
	pendingAlt := ""
	pendingElided := ""
	pendingSpace := ""
	write := func(s string) {
		if pendingAlt != "" {
			if strings.TrimSpace(s) == "" {
				pendingSpace += s
				return
			}
			word := pendingAlt
			if b.vowelStart(strings.TrimLeft(s, " ")) {
				word = pendingElided
			}
			out.WriteString(word)
			out.WriteString(pendingSpace)
			pendingAlt, pendingElided, pendingSpace = "", "", ""
		}
		out.WriteString(s)
	}
	for tmpl != "" {
		switch tmpl[0] {
		case '{':
			end := strings.IndexByte(tmpl, '}')
			if end < 0 {
				b.fail("lexicon.derive template %q: unclosed {", tmpl)
				return ""
			}
			fi := lx.fieldIndex(t, tmpl[1:end])
			if fi < 0 {
				b.fail("lexicon.derive template: unknown field %q of %s", tmpl[1:end], lexTypeNames()[t])
				return ""
			}
			write(fields[fi])
			tmpl = tmpl[end+1:]
		case '[':
			end := strings.IndexByte(tmpl, ']')
			x, y, ok := strings.Cut(tmpl[1:max(end, 1)], "|")
			if end < 0 || !ok {
				b.fail("lexicon.derive template %q: want [word|elided]", tmpl)
				return ""
			}
			pendingAlt, pendingElided = x, y
			tmpl = tmpl[end+1:]
		default:
			i := strings.IndexAny(tmpl, "{[")
			if i < 0 {
				i = len(tmpl)
			}
			write(tmpl[:i])
			tmpl = tmpl[i:]
		}
	}
	return out.String()
}

func (b *builder) vowelStart(s string) bool {
	w := Writer{p: b.p}
	return w.startsWithVowel(s)
}

// respell returns the [respell] section's replacements of whole words
// ("color colour"), applied to the lexicon and frames of a locale that
// extends another one with another spelling.
func (b *builder) respell() func(string) string {
	lines := b.raw.sections["respell"]
	if len(lines) == 0 {
		return func(s string) string { return s }
	}
	m := map[string]string{}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 2 {
			b.fail("respell %q: want word replacement", l)
			continue
		}
		m[f[0]] = f[1]
	}
	return func(s string) string {
		var out strings.Builder
		i := 0
		for i < len(s) {
			j := i
			for j < len(s) {
				r, n := utf8.DecodeRuneInString(s[j:])
				if !unicode.IsLetter(r) {
					break
				}
				j += n
			}
			if j > i {
				w := s[i:j]
				first, _ := utf8.DecodeRuneInString(w)
				if r, ok := m[w]; ok {
					out.WriteString(r)
				} else if r, ok := m[strings.ToLower(w)]; ok && unicode.IsUpper(first) {
					rf, rn := utf8.DecodeRuneInString(r)
					out.WriteString(string(unicode.ToUpper(rf)) + r[rn:])
				} else {
					out.WriteString(w)
				}
				i = j
				continue
			}
			out.WriteByte(s[i])
			i++
		}
		return out.String()
	}
}

// compileFrame compiles a frame line: literal text and slots {type},
// {type.field}, {typeN}, {@type}, {type:tag,tag.field}, {type.f1|f2},
// {=a|b|c}, {~a|b|c}, {g}, numbers {lo-hi} (with a unit, a step and
// padding: {$20-60}, {05-55/5}), {name}, {first} and {list} for a list
// section.
func (b *builder) compileFrame(lx *lexicon, l string, conv map[string]unitConv) (frame, error) {
	var f frame
	lit := func(s string) {
		if s == "" {
			return
		}
		s = b.typo(s)
		if n := len(f.toks); n > 0 && f.toks[n-1].kind == fLit {
			f.toks[n-1].text += s
			return
		}
		f.toks = append(f.toks, ftok{kind: fLit, text: s})
	}
	entrySeen := false
	for l != "" {
		i := strings.IndexByte(l, '{')
		if i < 0 {
			lit(l)
			break
		}
		lit(l[:i])
		end := strings.IndexByte(l[i:], '}')
		if end < 0 {
			return f, errf("unclosed {")
		}
		slot := l[i+1 : i+end]
		l = l[i+end+1:]
		if num, pre, suf, ok, err := parseNum(slot, conv); ok || err != nil {
			if err != nil {
				return f, err
			}
			lit(pre)
			f.toks = append(f.toks, ftok{kind: fNum, num: num})
			lit(suf)
			continue
		}
		switch {
		case strings.HasPrefix(slot, "="):
			if !entrySeen {
				return f, errf("{%s} agrees with no slot before it", slot)
			}
			alts := strings.Split(slot[1:], "|")
			for k := range alts {
				alts[k] = b.typo(alts[k])
			}
			f.toks = append(f.toks, ftok{kind: fAgree, alts: alts})
		case strings.HasPrefix(slot, "~"):
			alts := strings.Split(slot[1:], "|")
			if len(alts) < 2 {
				return f, errf("{%s}: a choice needs two words or more", slot)
			}
			for k := range alts {
				alts[k] = b.typo(alts[k])
			}
			f.toks = append(f.toks, ftok{kind: fChoice, alts: alts})
		case slot == "g":
			if lx.nameClass[0] < 0 {
				return f, errf("{g} needs meta lex.nameclass")
			}
			entrySeen = true
			f.toks = append(f.toks, ftok{kind: fGender})
		case slot == "name":
			entrySeen = entrySeen || lx.nameClass[0] >= 0
			f.toks = append(f.toks, ftok{kind: fName})
		case slot == "first":
			entrySeen = entrySeen || lx.nameClass[0] >= 0
			f.toks = append(f.toks, ftok{kind: fFirst})
		default:
			tk := ftok{kind: fEntry}
			s := slot
			if s != "" && s[0] == '^' {
				tk.upper = true
				s = s[1:]
			}
			if s != "" && s[0] == '@' {
				tk.focus = true
				s = s[1:]
			}
			name, field, hasField := strings.Cut(s, ".")
			name, tagList, hasTags := strings.Cut(name, ":")
			if n := len(name); n > 1 && name[n-1] >= '1' && name[n-1] <= '9' {
				tk.bind = name[n-1] - '0'
				name = name[:n-1]
			}
			t := lexType(name)
			if t < 0 {
				for _, ln := range [...]string{s, s + "s", strings.TrimSuffix(s, "y") + "ies"} {
					if k, ok := b.lists[ln]; ok && tk.bind == 0 {
						// {@city}: the document's own city, the same in
						// every sentence.
						f.toks = append(f.toks, ftok{kind: fList, lo: k, focus: tk.focus})
						break
					}
				}
				if n := len(f.toks); n > 0 && f.toks[n-1].kind == fList && !hasField {
					continue
				}
				return f, errf("unknown slot {%s}", slot)
			}
			if tk.focus && tk.bind > 0 {
				return f, errf("{%s}: a focus slot is not numbered", slot)
			}
			tk.typ = uint8(t)
			if hasTags {
				for tg := range strings.SplitSeq(tagList, ",") {
					k := slices.Index(lx.tagNames, tg)
					if k < 0 {
						return f, errf("{%s}: no entry has the tag %q (tags: %s)", slot, tg, strings.Join(lx.tagNames, " "))
					}
					tk.tags |= 1 << k
				}
			}
			if hasField {
				for k, fl := range strings.Split(field, "|") {
					fi := lx.fieldIndex(t, fl)
					if fi < 0 {
						return f, errf("{%s}: %s has no field %q (fields: %s)", slot, name, fl, strings.Join(lx.fields[t], " "))
					}
					if k == 0 {
						tk.field = uint8(fi)
						if lx.fieldOpt[t][fi] {
							tk.need = 1 << fi
						}
					}
					if strings.Contains(field, "|") {
						tk.falts = append(tk.falts, uint8(fi))
					}
				}
			}
			entrySeen = true
			f.toks = append(f.toks, tk)
		}
	}
	// The slots of one bound entry share their needs: the entry drawn at
	// the first one must suit the others.
	for i := range f.toks {
		a := &f.toks[i]
		if a.kind != fEntry {
			continue
		}
		if a.bind > 0 {
			for j := range f.toks {
				if c := &f.toks[j]; c.kind == fEntry && c.typ == a.typ && c.bind == a.bind {
					a.tags |= c.tags
					a.need |= c.need
				}
			}
		}
		f.cons = f.cons || a.tags != 0 || a.need != 0
	}
	return f, nil
}

// listIndex finds a list section by its name or by the singular of it:
// {street} is a word of [streets], {city} of [cities].
func (b *builder) listIndex(name string) (int, bool) {
	for _, ln := range [...]string{name, name + "s", strings.TrimSuffix(name, "y") + "ies"} {
		if k, ok := b.lists[ln]; ok {
			return k, true
		}
	}
	return 0, false
}

// splitOutside splits s at every sep that is not inside braces.
func splitOutside(s string, sep byte) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[from:i])
				from = i + 1
			}
		}
	}
	return append(out, s[from:])
}

// templateFilled reports whether every field a derive template names is
// filled: a template over an optional field an entry leaves empty
// derives nothing.
func (b *builder) templateFilled(lx *lexicon, t int, tmpl string, fields []string) bool {
	for tmpl != "" {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			return true
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			return true
		}
		if fi := lx.fieldIndex(t, tmpl[i+1:i+j]); fi >= 0 && fields[fi] == "" {
			return false
		}
		tmpl = tmpl[i+j+1:]
	}
	return true
}

// compileDyn compiles the text of an entry's field with numbers
// ({220-250}, {$25-45}, {05-55/5}), choices ({~8|10|12}) and words of list
// sections ({street}).
func (b *builder) compileDyn(s string, conv map[string]unitConv) ([]dseg, error) {
	var out []dseg
	for s != "" {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			out = append(out, dseg{kind: dLit, text: s})
			break
		}
		if i > 0 {
			out = append(out, dseg{kind: dLit, text: s[:i]})
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return nil, errf("unclosed {")
		}
		slot := s[i+1 : i+j]
		s = s[i+j+1:]
		if num, pre, suf, ok, err := parseNum(slot, conv); ok || err != nil {
			if err != nil {
				return nil, err
			}
			if pre != "" {
				out = append(out, dseg{kind: dLit, text: pre})
			}
			out = append(out, dseg{kind: dNum, num: num})
			if suf != "" {
				out = append(out, dseg{kind: dLit, text: suf})
			}
			continue
		}
		if strings.HasPrefix(slot, "~") {
			alts := strings.Split(slot[1:], "|")
			if len(alts) < 2 {
				return nil, errf("{%s}: a choice needs two words or more", slot)
			}
			out = append(out, dseg{kind: dChoice, alts: alts})
			continue
		}
		k, ok := b.listIndex(slot)
		if !ok {
			return nil, errf("unknown {%s} (a number {lo-hi}, a choice {~a|b} or a list section)", slot)
		}
		out = append(out, dseg{kind: dList, list: k})
	}
	// Literal text next to literal text is one piece.
	merged := out[:0]
	for _, d := range out {
		if n := len(merged); n > 0 && d.kind == dLit && merged[n-1].kind == dLit {
			merged[n-1].text += d.text
			continue
		}
		merged = append(merged, d)
	}
	return merged, nil
}

// unitConv converts a number written with one unit to another: the
// locale's lex.convert meta turns the dollars and degrees Fahrenheit of an
// inherited lexicon into pounds and degrees Celsius.
type unitConv struct {
	to    string
	apply func(float64) float64
}

// unitConvs are the conversions lex.convert may name, "from:to".
var unitConvs = map[string]func(float64) float64{
	"°F:°C": func(f float64) float64 { return (f - 32) * 5 / 9 },
	"$:£":   func(f float64) float64 { return f * 0.8 },
	"$:€":   func(f float64) float64 { return f * 0.9 },
	"mi:km": func(f float64) float64 { return f * 1.609 },
	"lb:kg": func(f float64) float64 { return f * 0.4536 },
	"in:cm": func(f float64) float64 { return f * 2.54 },
	"oz:g":  func(f float64) float64 { return f * 28.35 },
}

// conversions reads meta lex.convert: "°F:°C $:£" (each a conversion of
// unitConvs).
func (b *builder) conversions() map[string]unitConv {
	out := map[string]unitConv{}
	for _, c := range strings.Fields(b.meta("lex.convert", "")) {
		fn, ok := unitConvs[c]
		if !ok {
			b.fail("meta lex.convert: unknown conversion %q", c)
			continue
		}
		from, to, _ := strings.Cut(c, ":")
		out[from] = unitConv{to, fn}
	}
	return out
}

// parseNum reads a number slot: an optional unit before it ("$"), lo-hi,
// an optional step ("/5"), an optional unit after it ("°F", " km"). A
// lower bound written with a leading zero ("05") pads the number to its
// width. It reports false for a slot that is no number.
func parseNum(slot string, conv map[string]unitConv) (n numSpec, pre, suf string, ok bool, err error) {
	i := strings.IndexFunc(slot, func(r rune) bool { return r >= '0' && r <= '9' })
	if i < 0 || strings.ContainsAny(slot[:i], "=~|.{@^") || strings.ContainsAny(slot, "|") {
		return n, "", "", false, nil
	}
	pre, rest := slot[:i], slot[i:]
	lo, rest, okDash := strings.Cut(rest, "-")
	if !okDash {
		return n, "", "", false, nil
	}
	j := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if j < 0 {
		j = len(rest)
	}
	hi := rest[:j]
	rest = rest[j:]
	step := 0
	if strings.HasPrefix(rest, "/") {
		k := strings.IndexFunc(rest[1:], func(r rune) bool { return r < '0' || r > '9' })
		if k < 0 {
			k = len(rest) - 1
		}
		if step, err = strconv.Atoi(rest[1 : 1+k]); err != nil || step < 1 {
			return n, "", "", false, errf("bad step in {%s}", slot)
		}
		rest = rest[1+k:]
	}
	suf = rest
	a, err1 := strconv.Atoi(lo)
	z, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil || z < a {
		return n, "", "", false, errf("bad number range {%s}", slot)
	}
	if len(lo) > 1 && lo[0] == '0' {
		n.pad = uint8(len(lo))
	}
	// A unit the locale converts: the range in the other unit, in steps
	// of 5 when it is wide enough.
	for _, unit := range [...]string{pre, strings.TrimSpace(suf)} {
		c, ok := conv[unit]
		if unit == "" || !ok {
			continue
		}
		fa, fz := c.apply(float64(a)), c.apply(float64(z))
		a, z = int(fa+0.5), int(fz+0.5)
		if step == 0 && z >= 50 {
			step = max(numStep(a, z), 5)
		}
		if unit == pre {
			pre = c.to
		} else {
			suf = strings.Replace(suf, unit, c.to, 1)
		}
	}
	if step == 0 {
		step = numStep(a, z)
	}
	// The range in whole steps: 20-60 in fives, 250-1000 in fifties.
	a = (a + step - 1) / step * step
	z = max(z/step*step, a)
	n.lo, n.hi, n.step = a, z, step
	return n, pre, suf, true, nil
}

// numStep is the step a person rounds a number of the range lo-hi to: to
// 5 in wide ranges, to 10 and 50 in wider ones ("45 minutes", "about 300
// people"). Years and narrow ranges stay exact.
func numStep(lo, hi int) int {
	span := hi - lo
	switch {
	case lo >= 1900 && hi <= 2100:
		return 1
	case span >= 4000:
		return 500
	case span >= 1000:
		return 100
	case span >= 400:
		return 50
	case span >= 100:
		return 10
	case span >= 15:
		return 5
	}
	return 1
}

func errf(format string, args ...any) error { return fmt.Errorf(format, args...) }
