package locales

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// topicPacks returns the packs of every shipped locale whose data has a
// [topics] section.
func topicPacks(t *testing.T) []*Pack {
	t.Helper()
	reg := NewRegistry()
	var out []*Pack
	for _, l := range reg.List() {
		p, err := reg.Lookup(l.Code)
		require.NoError(t, err, l.Code)
		if len(p.Topics()) > 0 {
			out = append(out, p)
		}
	}
	return out
}

func TestTopicSectionsDefineEveryTopic(t *testing.T) {
	packs := topicPacks(t)
	codes := []string{}
	for _, p := range packs {
		codes = append(codes, p.Locale().Code)
	}
	for _, want := range []string{"en_US", "en_GB", "de_DE"} {
		require.Contains(t, codes, want)
	}
	ids := TopicIDs()
	for _, p := range packs {
		code := p.Locale().Code
		topics := p.Topics()
		require.Len(t, topics, len(ids), code)
		for i, tp := range topics {
			assert.Equal(t, ids[i], tp.ID(), code)
			assert.NotEmpty(t, tp.Name(), "%s %s", code, tp.ID())
			assert.GreaterOrEqual(t, len(p.topics[i].nouns), minTopicNouns, "%s %s", code, tp.ID())
			assert.GreaterOrEqual(t, len(p.topics[i].adjs), minTopicAdjs, "%s %s", code, tp.ID())
			// Every name maps back to its topic, whatever its case.
			for _, n := range tp.Names() {
				got, ok := p.TopicByTermName("  " + strings.ToUpper(n) + " ")
				require.True(t, ok, "%s: %q", code, n)
				assert.Equal(t, tp.ID(), got.ID(), "%s: %q", code, n)
			}
			for _, n := range tp.TermNames() {
				slug := p.Slug(n)
				assert.Regexp(t, `^[a-z0-9]+(-[a-z0-9]+)*$`, slug, "%s: term name %q", code, n)
				_, ok := p.TopicByTermName(n)
				assert.True(t, ok, "%s: term name %q maps to a topic", code, n)
			}
			if parent := tp.Parent(); !parent.IsZero() {
				assert.Contains(t, parent.Children(), tp, code)
				assert.True(t, tp.Related(parent) && parent.Related(tp), code)
			}
			got, ok := p.Topic(tp.ID())
			require.True(t, ok)
			assert.Equal(t, tp, got)
		}
	}
}

func TestTopicHierarchyAndTraits(t *testing.T) {
	p, err := NewRegistry().Lookup("en_US")
	require.NoError(t, err)
	topic := func(id string) Topic {
		tp, ok := p.Topic(id)
		require.True(t, ok, id)
		return tp
	}
	assert.Equal(t, "travel", topic("road_trips").Parent().ID())
	assert.True(t, topic("travel").Parent().IsZero())
	assert.Equal(t, []Topic{topic("cooking"), topic("baking")}, topic("food").Children())
	assert.True(t, topic("baking").Related(topic("cooking")), "siblings")
	assert.False(t, topic("baking").Related(topic("cycling")))
	assert.True(t, topic("programming").Technical())
	assert.False(t, topic("baking").Technical())
	assert.Equal(t, "food", topic("baking").ImageCategory())
	got, ok := p.TopicByTermName("sourdough")
	require.True(t, ok, "a topic noun names its topic")
	assert.Equal(t, "baking", got.ID())
	_, ok = p.TopicByTermName("Opinion")
	assert.False(t, ok)
	_, ok = p.Topic("knitting")
	assert.False(t, ok)
	assert.Contains(t, topic("baking").TermNames(), "Baking Tray", "English term names are in title case")
	de, err := NewRegistry().Lookup("de_DE")
	require.NoError(t, err)
	fit, ok := de.Topic("fitness")
	require.True(t, ok)
	assert.Contains(t, fit.TermNames(), "Hantel")
	got, ok = p.TopicOfText("The sourdough rose overnight; the crust of the loaf was flaky.")
	require.True(t, ok)
	assert.Equal(t, "baking", got.ID())
}

// topicHits counts the words of tp that text uses, ignoring case.
func topicHits(p *Pack, tp Topic, text string) int {
	n := 0
	text = lower(p, text)
	for _, w := range tp.Words() {
		w = lower(p, w)
		if p.textSep == "" {
			n += strings.Count(text, w)
			continue
		}
		for i := 0; ; {
			k := strings.Index(text[i:], w)
			if k < 0 {
				break
			}
			at := i + k
			before, after := lastRuneOf(text[:at]), firstRuneOf(text[at+len(w):])
			if !unicode.IsLetter(before) && !unicode.IsLetter(after) {
				n++
			}
			i = at + len(w)
		}
	}
	return n
}

func lastRuneOf(s string) rune {
	if s == "" {
		return ' '
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

func firstRuneOf(s string) rune {
	for _, r := range s {
		return r
	}
	return ' '
}

func TestTextAboutATopicUsesItsWords(t *testing.T) {
	for _, p := range topicPacks(t) {
		code := p.Locale().Code
		if p.lex != nil {
			continue // frames of the lexicon: see lexicon_test.go
		}
		vocab := vocabulary(p)
		w := NewWriter(p, RealText, rand.New(rand.NewPCG(11, 12)))
		for _, tp := range p.Topics() {
			w.SetTopic(tp)
			require.Equal(t, tp, w.Topic())
			for range 5 {
				title, comment, excerpt := w.Title(), w.Comment(), w.Excerpt()
				assert.Positive(t, topicHits(p, tp, title), "%s %s: title %q names no word of the topic", code, tp.ID(), title)
				assert.Positive(t, topicHits(p, tp, comment), "%s %s: comment %q names no word of the topic", code, tp.ID(), comment)
				assert.Positive(t, topicHits(p, tp, excerpt), "%s %s: excerpt %q", code, tp.ID(), excerpt)
				para := w.Paragraph(4, 4)
				assert.GreaterOrEqual(t, topicHits(p, tp, para), 3, "%s %s: paragraph %q", code, tp.ID(), para)
				assert.Contains(t, tp.Names(), w.TermName(), code)
				if !cjk(code) {
					for _, word := range splitWords(title + " " + comment + " " + para) {
						assert.True(t, vocab[lower(p, word)], "%s: %q is not a word of the pack", code, word)
					}
				}
			}
		}
		w.SetTopic(Topic{})
		assert.True(t, w.Topic().IsZero())
	}
}

func TestTopicOfAnotherPackMapsByID(t *testing.T) {
	reg := NewRegistry()
	en, err := reg.Lookup("en_US")
	require.NoError(t, err)
	de, err := reg.Lookup("de_DE")
	require.NoError(t, err)
	tp, ok := en.Topic("baking")
	require.True(t, ok)
	w := NewWriter(de, RealText, rand.New(rand.NewPCG(1, 1)))
	w.SetTopic(tp)
	assert.Equal(t, "baking", w.Topic().ID())
	assert.Same(t, de, w.Topic().p)
}

func TestLoremIgnoresTheTopic(t *testing.T) {
	p, err := NewRegistry().Lookup("de_DE")
	require.NoError(t, err)
	text := func(topic bool) string {
		w := NewWriter(p, Lorem, rand.New(rand.NewPCG(5, 6)))
		if topic {
			tp, _ := p.Topic("cycling")
			w.SetTopic(tp)
		}
		return w.Title() + w.HTML(HTMLOptions{Paragraphs: 4, Headings: true, Lists: true}) + w.Comment() + w.TermName()
	}
	assert.Equal(t, text(false), text(true))
}

// withoutTopics is the en_US data with its [topics] section cut off.
func withoutTopics(t *testing.T) string {
	t.Helper()
	i := strings.Index(enUSFile, "\n[topics]")
	require.Positive(t, i)
	return enUSFile[:i]
}

// withoutLexicon returns a data file without its lexicon and frames.
func withoutLexicon(src string) string {
	var b strings.Builder
	keep := true
	for line := range strings.Lines(src) {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			keep = !lineSection(l[1 : len(l)-1])
		}
		if keep {
			b.WriteString(line)
		}
	}
	return b.String()
}

func TestPackWithoutTopicsWritesAsBefore(t *testing.T) {
	p, err := parsePack(withoutTopics(t))
	require.NoError(t, err)
	require.Empty(t, p.Topics())
	_, ok := p.TopicByTermName("Travel")
	assert.False(t, ok)
	// A pack without a lexicon, which writes from its clause patterns.
	en, err := parsePack(withoutLexicon(enUSFile))
	require.NoError(t, err)
	w := NewWriter(p, RealText, rand.New(rand.NewPCG(2, 3)))
	assert.True(t, w.DrawTopic().IsZero())
	tp, _ := en.Topic("travel")
	w.SetTopic(tp)
	assert.True(t, w.Topic().IsZero(), "a pack without topics has none to set")
	// Text without a topic draws from the general vocabulary alone, so a
	// pack with topics writes the same text as the pack without them.
	a := NewWriter(p, RealText, rand.New(rand.NewPCG(2, 3)))
	b := NewWriter(en, RealText, rand.New(rand.NewPCG(2, 3)))
	for range 20 {
		require.Equal(t, a.Paragraph(2, 4), b.Paragraph(2, 4))
		require.Equal(t, a.Title(), b.Title())
		require.Equal(t, a.Comment(), b.Comment())
	}
}

func TestBrokenTopicSectionsAreErrors(t *testing.T) {
	base := withoutTopics(t)
	full := withoutLexicon(enUSFile)[len(base):]
	cases := map[string]struct{ section, want string }{
		"unknown topic":  {full + "\nknitting.names = Knitting\n", `unknown topic "knitting"`},
		"unknown field":  {full + "\ntravel.verbs = goes\n", `unknown field "verbs"`},
		"missing topic":  {strings.ReplaceAll(full, "fashion.", "# fashion."), "topic fashion needs names"},
		"too few nouns":  {strings.Replace(full, "travel.nouns = journey, suitcase, passport, itinerary, hotel, airport, guidebook,", "travel.nouns = ", 1), "topic travel needs names, at least 8 nouns"},
		"duplicate name": {strings.Replace(full, "road_trips.names = Road Trips", "road_trips.names = Travel", 1), `topic name "Travel" is used by travel and road_trips`},
		"no equals sign": {full + "\ntravel.names Travel\n", "want id.names"},
	}
	for name, c := range cases {
		_, err := parsePack(base + c.section)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), c.want, name)
	}
	de := deDEFile[:strings.Index(deDEFile, "\n[topics]")]
	_, err := parsePack(de + "\n[topics]\n" + strings.Replace(deDEFile[strings.Index(deDEFile, "[topics]")+len("[topics]"):], "m Koffer", "x Koffer", 1))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `noun "x Koffer": no class`)
}

func TestTopicWriterAllocatesOnlyItsResult(t *testing.T) {
	for _, p := range topicPacks(t) {
		w := NewWriter(p, RealText, rand.New(rand.NewPCG(1, 2)))
		tp := p.Topics()[7]
		w.SetTopic(tp)
		for range 50 {
			_ = w.HTML(HTMLOptions{Paragraphs: 8, Headings: true, Lists: true})
		}
		for name, f := range map[string]func(){
			"Paragraph": func() { _ = w.Paragraph(3, 6) },
			"Title":     func() { _ = w.Title() },
			"Comment":   func() { _ = w.Comment() },
			"TermName":  func() { _ = w.TermName() },
			"SetTopic":  func() { w.SetTopic(tp) },
		} {
			assert.LessOrEqual(t, testing.AllocsPerRun(100, f), 1.0, "%s %s", p.Locale().Code, name)
		}
	}
}

func TestTopicIDsAreFixed(t *testing.T) {
	ids := TopicIDs()
	assert.GreaterOrEqual(t, len(ids), 20)
	seen := map[string]bool{}
	for _, d := range topicDefs() {
		assert.False(t, seen[d.id], d.id)
		if d.parent != "" {
			assert.True(t, seen[d.parent], "%s: parent %s comes first", d.id, d.parent)
		}
		seen[d.id] = true
		assert.Regexp(t, `^[a-z_]+$`, d.id)
	}
	assert.True(t, slices.Contains(ids, "travel"))
}
