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
}

// frame is one compiled sentence frame.
type frame struct {
	id   int
	toks []ftok
	// fixed is set when no slot of the frame draws a fresh word or name:
	// with the document's focus it reads the same each time.
	fixed bool
}

type ftokKind uint8

const (
	fLit   ftokKind = iota
	fEntry          // an entry of type typ: fresh, bound (bind > 0) or the focus
	fAgree          // an alternative by the class of the previous entry slot
	fNum            // a number between lo and hi
	fName           // a made-up person's full name
	fFirst          // a given name
	fList           // a word of a list section (the document's own with focus)
)

type ftok struct {
	kind  ftokKind
	typ   uint8
	bind  uint8 // 1-9 for a bound slot, 0 for a fresh draw
	focus bool
	// upper capitalises the slot's first letter.
	upper bool
	field uint8
	lo    int
	hi    int
	text  string
	alts  []string
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
			name, cls, hasCls := strings.Cut(f, ":")
			c := -1
			if hasCls {
				if c = lx.class(cls); c < 0 {
					b.fail("lexicon.forms %q: unknown class %q", l, cls)
				}
			}
			lx.fields[t] = append(lx.fields[t], name)
			lx.fieldClass[t] = append(lx.fieldClass[t], c)
		}
	}
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
	for _, l := range lines {
		if l[0] == '@' {
			ti, ok := index[strings.TrimSpace(l[1:])]
			if !ok {
				b.fail("lexicon %q: unknown topic", l)
				topic = -1
				continue
			}
			topic = ti
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if strings.TrimSpace(k) == "kinds" && topic >= 0 {
			// The kinds of post the topic is written as (default: all).
			kindLines[topic] = strings.Fields(v)
			continue
		}
		t := lexType(strings.TrimSpace(k))
		if !ok || t < 0 {
			b.fail("lexicon %q: want type = entry ; entry", l)
			continue
		}
		if topic < 0 {
			b.fail("lexicon %q: entry before the first @topic", l)
			continue
		}
		for e := range strings.SplitSeq(v, ";") {
			e = strings.TrimSpace(e)
			if e == "" {
				continue
			}
			e = respell(e)
			en := lexEntry{typ: uint8(t), topic: int16(topic)}
			if c, rest, ok := strings.Cut(e, ":"); ok && !strings.ContainsAny(c, " |") {
				k := lx.class(c)
				if k < 0 {
					b.fail("lexicon %q: unknown class %q (classes: %s)", e, c, strings.Join(lx.classes, " "))
					continue
				}
				en.class, e = uint8(k), strings.TrimSpace(rest)
			}
			given := strings.Split(e, "|")
			if len(given) > len(lx.fields[t]) {
				b.fail("lexicon %q: %d fields, type %s has %d", e, len(given), lexTypeNames()[t], len(lx.fields[t]))
				continue
			}
			en.fields = make([]string, len(lx.fields[t]))
			for i, g := range given {
				en.fields[i] = strings.TrimSpace(g)
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
				if ok {
					en.fields[d.field] = b.fillTemplate(lx, t, tmpl, en.fields)
				}
			}
			for i, f := range en.fields {
				if f == "" {
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
			idx := int32(len(lx.entries))
			lx.entries = append(lx.entries, en)
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
			if len(lx.byTopic[i][t]) == 0 {
				b.fail("lexicon: topic %s has no %s (nor has its parent)", p.topics[i].id, lexTypeNames()[t])
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
			f, err := b.compileFrame(lx, respell(l))
			if err != nil {
				b.fail("[%s] %q: %v", name, l, err)
				continue
			}
			f.id = lx.nFrames
			lx.nFrames++
			f.fixed = !slices.ContainsFunc(f.toks, func(t ftok) bool {
				return (t.kind == fEntry || t.kind == fList) && !t.focus || t.kind == fName || t.kind == fFirst
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
// {type.field}, {typeN}, {@type}, {=a|b|c}, {lo-hi}, {name}, {first} and
// {list} for a list section.
func (b *builder) compileFrame(lx *lexicon, l string) (frame, error) {
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
		case slot == "name":
			f.toks = append(f.toks, ftok{kind: fName})
		case slot == "first":
			f.toks = append(f.toks, ftok{kind: fFirst})
		case slot != "" && slot[0] >= '0' && slot[0] <= '9':
			lo, hi, ok := strings.Cut(slot, "-")
			a, err1 := strconv.Atoi(lo)
			z, err2 := strconv.Atoi(hi)
			if !ok || err1 != nil || err2 != nil || z < a {
				return f, errf("bad number range {%s}", slot)
			}
			f.toks = append(f.toks, ftok{kind: fNum, lo: a, hi: z})
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
			if hasField {
				fi := lx.fieldIndex(t, field)
				if fi < 0 {
					return f, errf("{%s}: %s has no field %q (fields: %s)", slot, name, field, strings.Join(lx.fields[t], " "))
				}
				tk.field = uint8(fi)
			}
			entrySeen = true
			f.toks = append(f.toks, tk)
		}
	}
	return f, nil
}

func errf(format string, args ...any) error { return fmt.Errorf(format, args...) }
