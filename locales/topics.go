package locales

import (
	"slices"
	"strconv"
	"strings"
)

// topicDef is one topic of the locale-independent topic list: its id, the
// id of the broader topic it belongs to ("" for a top-level topic), the
// image category of the pictures that go with it, and whether posts about
// it are technical.
type topicDef struct {
	id, parent, image string
	technical         bool
}

// topicDefs is the topic list every [topics] section follows, parents
// before their children. It is a function so that no table is
// package-level state.
func topicDefs() []topicDef {
	return []topicDef{
		{"travel", "", "travel", false},
		{"road_trips", "travel", "travel", false},
		{"hiking", "travel", "nature", false},
		{"food", "", "food", false},
		{"cooking", "food", "food", false},
		{"baking", "food", "food", false},
		{"technology", "", "technology", true},
		{"programming", "technology", "technology", true},
		{"science", "", "technology", true},
		{"astronomy", "science", "nature", false},
		{"health", "", "people", false},
		{"fitness", "health", "sports", false},
		{"sports", "", "sports", false},
		{"cycling", "sports", "sports", false},
		{"business", "", "business", false},
		{"marketing", "business", "business", false},
		{"finance", "business", "business", false},
		{"careers", "business", "people", false},
		{"home", "", "interior", false},
		{"gardening", "home", "nature", false},
		{"culture", "", "architecture", false},
		{"music", "culture", "people", false},
		{"film", "culture", "people", false},
		{"books", "culture", "interior", false},
		{"photography", "culture", "portrait", false},
		{"family", "", "people", false},
		{"parenting", "family", "people", false},
		{"pets", "family", "animals", false},
		{"education", "", "people", false},
		{"environment", "", "nature", false},
		{"fashion", "", "portrait", false},
	}
}

// TopicIDs returns the ids of the topics every [topics] section of a
// locale's data defines, parents before their children.
func TopicIDs() []string {
	defs := topicDefs()
	ids := make([]string, len(defs))
	for i, d := range defs {
		ids[i] = d.id
	}
	return ids
}

// Minimum sizes of a topic's vocabulary in a [topics] section.
const (
	minTopicNouns = 8
	minTopicAdjs  = 3
)

// topic is one topic of a pack: its definition, its term names in the
// pack's language and its vocabulary, as indexes into the pack's grammar.
type topic struct {
	topicDef
	parent   int // -1 for a top-level topic
	children []int
	// names are the term names of the topic, the main one first;
	// termNouns are the nouns that may name a term (those with a slug of
	// letters and digits that no other topic claims).
	names       []string
	nouns, adjs []int32
	termNouns   []int32
	// words are every form of the topic's nouns and adjectives.
	words []string
}

// Topic is a subject of text in one pack: travel, baking, programming.
// A Writer set to a topic draws most of its nouns and some of its
// adjectives from the topic's vocabulary. The zero Topic is no topic.
type Topic struct {
	p *Pack
	i int
}

// IsZero reports whether t is no topic.
func (t Topic) IsZero() bool { return t.p == nil }

func (t Topic) def() *topic {
	if t.p == nil {
		return nil
	}
	return &t.p.topics[t.i]
}

// ID returns the locale-independent id of the topic ("travel",
// "road_trips"), or "" for the zero Topic.
func (t Topic) ID() string {
	if d := t.def(); d != nil {
		return d.id
	}
	return ""
}

// Name returns the main term name of the topic in its pack's language
// ("Road Trips", "Roadtrips", "ドライブ").
func (t Topic) Name() string {
	if d := t.def(); d != nil {
		return d.names[0]
	}
	return ""
}

// Names returns the term names of the topic, the main one first. The slice
// is new on every call.
func (t Topic) Names() []string {
	if d := t.def(); d != nil {
		return slices.Clone(d.names)
	}
	return nil
}

// TermNames returns the names a category or tag of the topic may take:
// the topic's names, then its nouns capitalised as the language writes
// titles ("Baking", "Sourdough", "Baking Tray"). Nouns whose slug would need percent-encoding are left out. The
// slice is new on every call.
func (t Topic) TermNames() []string {
	d := t.def()
	if d == nil {
		return nil
	}
	out := make([]string, len(d.names), len(d.names)+len(d.termNouns))
	copy(out, d.names)
	for _, ni := range d.termNouns {
		out = append(out, t.p.termCase(t.p.g.noun(int(ni), 0)))
	}
	return out
}

// termCase capitalises a noun as a term name: every word in languages
// that write titles in title case ("Solar Panel"), the first elsewhere.
func (p *Pack) termCase(s string) string {
	if !p.titleCase || !strings.Contains(s, " ") {
		return upperFirst(s)
	}
	words := strings.Split(s, " ")
	for i, w := range words {
		words[i] = upperFirst(w)
	}
	return strings.Join(words, " ")
}

// Words returns every form of the topic's nouns and adjectives, and in a
// pack with a lexicon the forms of the topic's own lexicon entries, as they
// appear in text written about the topic. The slice is new on every call.
func (t Topic) Words() []string {
	if d := t.def(); d != nil {
		return slices.Clone(d.words)
	}
	return nil
}

// Parent returns the broader topic t belongs to ("travel" for
// "road_trips"), or the zero Topic for a top-level topic.
func (t Topic) Parent() Topic {
	if d := t.def(); d != nil && d.parent >= 0 {
		return Topic{t.p, d.parent}
	}
	return Topic{}
}

// Children returns the narrower topics of t, in the order of TopicIDs.
func (t Topic) Children() []Topic {
	d := t.def()
	if d == nil {
		return nil
	}
	out := make([]Topic, len(d.children))
	for k, c := range d.children {
		out[k] = Topic{t.p, c}
	}
	return out
}

// Technical reports whether posts about the topic are technical
// (technology, programming, science): bodies about them may hold code
// blocks and tables.
func (t Topic) Technical() bool {
	d := t.def()
	return d != nil && d.technical
}

// ImageCategory returns the image category (a key of
// providers.Categories) of pictures that go with the topic.
func (t Topic) ImageCategory() string {
	if d := t.def(); d != nil {
		return d.image
	}
	return ""
}

// Related reports whether u is t, its parent, one of its children or a
// topic with the same parent.
func (t Topic) Related(u Topic) bool {
	if t.p == nil || t.p != u.p {
		return false
	}
	if t.i == u.i {
		return true
	}
	dt, du := t.def(), u.def()
	return dt.parent == u.i || du.parent == t.i || dt.parent >= 0 && dt.parent == du.parent
}

// Topics returns the topics of the pack in the order of TopicIDs, or none
// when the locale's data has no [topics] section.
func (p *Pack) Topics() []Topic {
	out := make([]Topic, len(p.topics))
	for i := range out {
		out[i] = Topic{p, i}
	}
	return out
}

// Topic returns the topic of the pack with the id (see TopicIDs).
func (p *Pack) Topic(id string) (Topic, bool) {
	for i := range p.topics {
		if p.topics[i].id == id {
			return Topic{p, i}, true
		}
	}
	return Topic{}, false
}

// TopicByTermName returns the topic a category or tag name stands for,
// ignoring case and surrounding space: one of the topic's names
// ("Travel", "road trips"), else one of its nouns ("Sourdough" gives
// baking). A term made by hand and named like a topic maps as well.
func (p *Pack) TopicByTermName(name string) (Topic, bool) {
	if len(p.topics) == 0 {
		return Topic{}, false
	}
	i, ok := p.topicNames[foldName(name)]
	if !ok {
		return Topic{}, false
	}
	return Topic{p, i}, true
}

// TopicOfText returns the topic whose words s uses most, if it uses any:
// the topic of a post read back from its text.
func (p *Pack) TopicOfText(s string) (Topic, bool) {
	best, bestN := -1, 0
	for i := range p.topics {
		n := 0
		for _, w := range p.topics[i].words {
			if strings.Contains(s, w) {
				n++
			}
		}
		if n > bestN {
			best, bestN = i, n
		}
	}
	if best < 0 {
		return Topic{}, false
	}
	return Topic{p, best}, true
}

// slugOK reports whether the slug of s is made of letters and digits only,
// without percent-encoding: always so for ASCII.
func slugOK(p *Pack, s string) bool {
	ascii, letter := true, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		ascii = ascii && c < 0x80
		letter = letter || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	if ascii {
		return letter
	}
	slug := p.Slug(s)
	return slug != "" && !strings.Contains(slug, "%")
}

// foldName is the key of a term name: lower case, single spaces, no space
// around. It allocates only when it changes s.
func foldName(s string) string {
	s = strings.TrimSpace(s)
	if strings.Contains(s, "  ") || strings.ContainsAny(s, "\t\n\r\u00a0") {
		s = strings.Join(strings.Fields(s), " ")
	}
	return strings.ToLower(s)
}

// rawTopic is the entries of one topic in a [topics] section.
type rawTopic struct{ names, nouns, adjs []string }

// readTopics reads the [topics] section: lines "id.names = ...",
// "id.nouns = ..." and "id.adjectives = ...", entries separated by commas,
// a key repeated to continue its list.
func (b *builder) readTopics() {
	lines := b.section("topics", false)
	if len(lines) == 0 {
		return
	}
	defs := topicDefs()
	index := make(map[string]int, len(defs))
	for i, d := range defs {
		index[d.id] = i
	}
	b.topicRaw = make([]rawTopic, len(defs))
	for _, l := range lines {
		key, val, ok := strings.Cut(l, "=")
		id, field, ok2 := strings.Cut(strings.TrimSpace(key), ".")
		ti, known := index[id]
		if !ok || !ok2 {
			b.fail("topics %q: want id.names, id.nouns or id.adjectives = entries", l)
			continue
		}
		if !known {
			b.fail("topics %q: unknown topic %q (the topics are %s)", l, id, strings.Join(TopicIDs(), " "))
			continue
		}
		r := &b.topicRaw[ti]
		var list *[]string
		switch field {
		case "names":
			list = &r.names
		case "nouns":
			list = &r.nouns
		case "adjectives":
			list = &r.adjs
		default:
			b.fail("topics %q: unknown field %q (names, nouns, adjectives)", l, field)
			continue
		}
		if *list == nil {
			*list = make([]string, 0, 16)
		}
		for e := range strings.SplitSeq(val, ",") {
			if e = strings.TrimSpace(e); e != "" {
				*list = append(*list, e)
			}
		}
	}
	for i := range b.topicRaw {
		b.topicNouns += len(b.topicRaw[i].nouns)
		b.topicAdjs += len(b.topicRaw[i].adjs)
	}
}

// topics builds the topics of the pack from the [topics] section. Their
// nouns and adjectives are appended to the grammar after the general
// vocabulary, which text without a topic alone draws from.
func (b *builder) topics() {
	if b.topicRaw == nil {
		return
	}
	p := b.p
	g := &p.g
	share, err := strconv.Atoi(b.meta("topicshare", "60"))
	if err != nil || share < 0 || share > 100 {
		b.fail("meta topicshare: %q", b.meta("topicshare", ""))
	}
	p.topicShare = share
	defs := topicDefs()
	index := make(map[string]int, len(defs))
	p.topics = make([]topic, len(defs))
	for i, d := range defs {
		index[d.id] = i
		p.topics[i] = topic{topicDef: d, parent: -1}
		if d.parent != "" {
			pi := index[d.parent]
			p.topics[i].parent = pi
			p.topics[pi].children = append(p.topics[pi].children, i)
		}
	}
	nounForms := append([]string{"base"}, strings.Fields(b.meta("nounforms", ""))...)
	adjForms := append([]string{"base"}, strings.Fields(b.meta("adjforms", ""))...)
	for i := range p.topics {
		t := &p.topics[i]
		r := &b.topicRaw[i]
		if len(r.names) == 0 || len(r.nouns) < minTopicNouns || len(r.adjs) < minTopicAdjs {
			b.fail("topic %s needs names, at least %d nouns and %d adjectives; it has %d names, %d nouns and %d adjectives",
				t.id, minTopicNouns, minTopicAdjs, len(r.names), len(r.nouns), len(r.adjs))
		}
		t.names = make([]string, 0, len(r.names))
		for _, e := range r.names {
			t.names = append(t.names, b.romanised(e))
		}
		if len(t.names) == 0 {
			t.names = []string{t.id}
		}
		t.nouns = make([]int32, 0, len(r.nouns))
		t.adjs = make([]int32, 0, len(r.adjs))
		for _, e := range r.nouns {
			ni := len(g.nounClass)
			g.nounClass = append(g.nounClass, 0)
			g.nounForms = append(g.nounForms, make([]string, g.nNounForms)...)
			if b.noun(ni, e, nounForms) {
				t.nouns = append(t.nouns, int32(ni))
			}
		}
		for _, e := range r.adjs {
			ai := g.adjs()
			g.adjForms = append(g.adjForms, make([]string, g.nAdjForms)...)
			b.forms("adj", "*", e, adjForms, g.adjForms[ai*g.nAdjForms:(ai+1)*g.nAdjForms])
			t.adjs = append(t.adjs, int32(ai))
		}
	}
}

// topicsDone completes the topics once every derived string is in place:
// term names, words and the index of names.
func (b *builder) topicsDone() {
	p := b.p
	if len(p.topics) == 0 {
		return
	}
	g := &p.g
	p.topicNames = map[string]int{}
	for i := range p.topics {
		t := &p.topics[i]
		for _, n := range t.names {
			if prev, dup := p.topicNames[foldName(n)]; dup {
				b.fail("topic name %q is used by %s and %s", n, p.topics[prev].id, t.id)
				continue
			}
			p.topicNames[foldName(n)] = i
		}
	}
	seen := map[string]bool{}
	lexWords := b.lexiconWords()
	for i := range p.topics {
		t := &p.topics[i]
		clear(seen)
		for _, w := range lexWords[i] {
			if !seen[w] {
				seen[w] = true
				t.words = append(t.words, w)
			}
		}
		for _, ni := range t.nouns {
			for f := 0; f < g.nNounForms; f++ {
				if w := g.noun(int(ni), f); !seen[w] {
					seen[w] = true
					t.words = append(t.words, w)
				}
			}
			noun := g.noun(int(ni), 0)
			key := foldName(noun)
			if _, taken := p.topicNames[key]; taken {
				continue // a name, or a noun of an earlier topic
			}
			p.topicNames[key] = i
			if slugOK(p, noun) {
				t.termNouns = append(t.termNouns, ni)
			}
		}
		for _, ai := range t.adjs {
			for f := 0; f < g.nAdjForms; f++ {
				if w := g.adj(int(ai), f); !seen[w] {
					seen[w] = true
					t.words = append(t.words, w)
				}
			}
		}
	}
}

// lexiconWords returns, per topic, the forms of the lexicon entries of the
// topic that no other topic's entries share (a laptop is no one topic's),
// as text about the topic writes them.
func (b *builder) lexiconWords() [][]string {
	lx := b.p.lex
	if lx == nil {
		return make([][]string, len(b.p.topics))
	}
	owner := map[string]int{}
	for _, e := range lx.entries {
		for _, f := range e.fields {
			if prev, ok := owner[f]; ok && prev != int(e.topic) {
				owner[f] = -1
			} else if !ok {
				owner[f] = int(e.topic)
			}
		}
	}
	out := make([][]string, len(b.p.topics))
	for _, e := range lx.entries {
		for _, f := range e.fields {
			if owner[f] == int(e.topic) {
				out[e.topic] = append(out[e.topic], f)
			}
		}
	}
	return out
}
