package locales

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/locales/markup"
)

// lexPacks are the packs of NewRegistry with a lexicon.
func lexPacks(t *testing.T) []*Pack {
	t.Helper()
	reg := NewRegistry()
	var out []*Pack
	for _, l := range reg.List() {
		p, err := reg.Lookup(l.Code)
		require.NoError(t, err, l.Code)
		if p.lex != nil {
			out = append(out, p)
		}
	}
	require.NotEmpty(t, out)
	return out
}

// lexFrames yields every frame of a pack with its role.
func lexFrames(p *Pack) func(func(string, *frame) bool) {
	return func(yield func(string, *frame) bool) {
		roles := make([]string, 0, len(p.lex.roles))
		for r := range p.lex.roles {
			roles = append(roles, r)
		}
		slices.Sort(roles)
		for _, r := range roles {
			for i := range p.lex.roles[r] {
				if !yield(r, &p.lex.roles[r][i]) {
					return
				}
			}
		}
	}
}

func hasFocus(f *frame, typ int) bool {
	for _, tk := range f.toks {
		if tk.kind == fEntry && tk.focus && int(tk.typ) == typ {
			return true
		}
	}
	return false
}

// docSubjects yields every topic of a pack with each of its subjects.
func docSubjects(p *Pack) func(func(int, int32) bool) {
	return func(yield func(int, int32) bool) {
		for ti := range p.Topics() {
			for _, s := range p.lex.byTopic[ti][lexSubject] {
				if !yield(ti, s) {
					return
				}
			}
		}
	}
}

// TestFrameSlotsTakeOnlyTheirType renders every frame of every locale
// with a lexicon about every subject of every topic and checks that each
// slot took an entry of its own type, from the subject's own block when
// it has entries of the type and else from the topic, with the tags and
// fields the slot asks for: a place never fills a person's slot, cycling
// never lends its words to baking, a post on dressing for work never
// hand-washes sweaters, and "I finally got the hang of" takes a skill,
// never a habit.
func TestFrameSlotsTakeOnlyTheirType(t *testing.T) {
	for _, p := range lexPacks(t) {
		code := p.Locale().Code
		lx := p.lex
		w := NewWriter(p, RealText, rand.New(rand.NewPCG(3, 4)))
		var slots, tagged int
		for ti, subj := range docSubjects(p) {
			tp := p.Topics()[ti]
			w.planDocAbout(subj)
			own := lx.subjPool[subj]
			for role, f := range lexFrames(p) {
				var bad []string
				w.trace = func(tk *ftok, e int32) {
					slots++
					en := &lx.entries[e]
					name := lexTypeNames()[tk.typ] + " " + en.fields[0]
					if en.typ != tk.typ {
						bad = append(bad, lexTypeNames()[tk.typ]+" slot took the "+lexTypeNames()[en.typ]+" "+en.fields[0])
					}
					switch {
					case own != nil && len(own[tk.typ]) > 0:
						if en.subj != subj {
							bad = append(bad, name+" is not of the subject "+lx.entries[subj].fields[0])
						}
					case !slices.Contains(lx.byTopic[ti][tk.typ], e):
						bad = append(bad, name+" is not of topic "+tp.ID())
					}
					if !en.suits(tk.tags, tk.need) {
						bad = append(bad, name+" lacks the tags or fields of its slot")
					}
					if tk.tags != 0 {
						tagged++
					}
				}
				for range 3 {
					w.unbind()
					w.d.themes = 0
					if !w.fits(f) {
						continue
					}
					w.appendFrame(f)
					text := w.out()
					assert.NotContains(t, text, "{", "%s [frames.%s]", code, role)
					assert.NotContains(t, text, "  ", "%s [frames.%s]: %q", code, role, text)
				}
				assert.Empty(t, bad, "%s [frames.%s] about %s", code, role, lx.entries[subj].fields[0])
			}
		}
		w.trace = nil
		assert.Greater(t, slots, 1000, code)
		if len(lx.tagNames) > 0 {
			assert.Greater(t, tagged, 100, "%s: tagged slots are written", code)
		}
		// Agreement never offers more forms than the locale has classes,
		// and every role can be written whatever the entries lack.
		for role, f := range lexFrames(p) {
			for _, tk := range f.toks {
				if tk.kind == fAgree {
					assert.LessOrEqual(t, len(tk.alts), len(lx.classes), "%s [frames.%s]", code, role)
				}
			}
		}
		for role, list := range lx.roles {
			assert.True(t, slices.ContainsFunc(list, func(f frame) bool { return !f.cons }), "%s [frames.%s]: every frame needs a tag or a field", code, role)
		}
	}
}

// TestFramesKeepToTheSubject checks the frames that carry a post's
// subject: every title, opening and top-level comment names it.
func TestFramesKeepToTheSubject(t *testing.T) {
	for _, p := range lexPacks(t) {
		for role, f := range lexFrames(p) {
			switch {
			case strings.HasPrefix(role, "title.") || strings.HasPrefix(role, "opening"):
				assert.True(t, hasFocus(f, lexSubject), "%s [frames.%s] does not name {@subject}", p.Locale().Code, role)
			case strings.HasPrefix(role, "comment-"):
				assert.True(t, hasFocus(f, lexSubject) || hasSubjectGear(f), "%s [frames.%s] names neither {@subject} nor a thing, act or problem of it", p.Locale().Code, role)
			}
		}
	}
}

// hasSubjectGear reports whether f has a slot for a thing, an act or a
// problem: in a post about a subject with a block, those come from the
// subject's own entries, so a comment may take up one of them instead of
// repeating the subject's name, as readers of a post do.
func hasSubjectGear(f *frame) bool {
	for _, tk := range f.toks {
		if tk.kind == fEntry && (tk.typ == lexThing || tk.typ == lexAct || tk.typ == lexProblem) {
			return true
		}
	}
	return false
}

// mentionsBlock reports whether text holds an entry of the block of
// subject e: one of its things, acts or problems, in any of the entry's
// fixed forms.
func mentionsBlock(p *Pack, text string, e int32) bool {
	pool := p.lex.subjPool[e]
	if pool == nil {
		return false
	}
	low := strings.ToLower(text)
	for _, t := range []int{lexThing, lexAct, lexProblem} {
		for _, x := range pool[t] {
			for _, f := range p.lex.entries[x].fields {
				if f = strings.ToLower(f); len(f) >= 3 && !strings.ContainsAny(f, "{|") && strings.Contains(low, f) {
					return true
				}
			}
		}
	}
	return false
}

func mentions(p *Pack, text string, e int32) bool {
	low := strings.ToLower(text)
	for _, f := range p.lex.lowSubjects[e] {
		if strings.Contains(low, f) {
			return true
		}
	}
	return false
}

// TestTitlesShareTheirSubjectWithTheBody writes posts and checks that the
// subject the title names (found back by TitleSubject) is the one the
// body, its headings and its excerpt are about, and that the comments on
// the post name it too, or one of the things, acts or problems of its
// block.
func TestTitlesShareTheirSubjectWithTheBody(t *testing.T) {
	for _, p := range lexPacks(t) {
		code := p.Locale().Code
		w := NewWriter(p, RealText, rand.New(rand.NewPCG(5, 6)))
		c := NewWriter(p, RealText, rand.New(rand.NewPCG(7, 8)))
		kinds := map[string]int{}
		for i := range 300 {
			if i%2 == 0 {
				w.SetTopic(w.DrawTopic())
			} else {
				w.SetTopic(Topic{})
			}
			title := w.Title()
			kinds[p.lex.plans[w.d.kind].name]++
			subject := w.d.focus[lexSubject]
			tp, name, ok := p.TitleSubject(title)
			require.True(t, ok, "%s: title %q names no subject", code, title)
			assert.Equal(t, int(p.lex.entries[subject].topic), tp.i, "%s: %q", code, title)
			assert.True(t, mentions(p, name, subject) || mentions(p, title, subject), "%s: %q is not the subject of %q", code, name, title)
			body := w.Body(HTMLOptions{Paragraphs: 3 + i%5, Headings: true, Lists: true, Quotes: true}, markup.Markdown)
			assert.True(t, mentions(p, body, subject), "%s: the body of %q does not name its subject:\n%s", code, title, body)
			for range 3 {
				comment := c.CommentOn(title)
				assert.True(t, mentions(p, comment, subject) || mentionsBlock(p, comment, subject), "%s: comment %q on %q names neither its subject nor a thing, act or problem of it", code, comment, title)
				reply := c.Reply(title, comment)
				assert.NotEmpty(t, reply)
			}
		}
		assert.Len(t, kinds, len(p.lex.plans), "%s: every kind of post is written", code)
	}
}

// TestLexiconTextIsDeterministic writes the same things twice from the
// same seed and wants the same bytes.
func TestLexiconTextIsDeterministic(t *testing.T) {
	for _, p := range lexPacks(t) {
		write := func() string {
			w := NewWriter(p, RealText, rand.New(rand.NewPCG(9, 9)))
			var b strings.Builder
			for range 20 {
				title := w.Title()
				b.WriteString(title + w.Body(HTMLOptions{Paragraphs: 5, Headings: true, Lists: true, Quotes: true, Images: []InlineImage{{URL: "https://example.com/a.jpg"}}}, markup.HTML))
				b.WriteString(w.Excerpt() + w.CommentOn(title) + w.Reply(title, "?") + w.Caption() + w.MediaTitle() + w.TermDescription() + w.Sentence(6, 12))
			}
			return b.String()
		}
		assert.Equal(t, write(), write(), p.Locale().Code)
	}
}

// TestLexiconNeedsNoAllocationPerWord checks that a paragraph costs the
// returned string and nothing else.
func TestLexiconNeedsNoAllocationPerWord(t *testing.T) {
	for _, p := range lexPacks(t) {
		w := NewWriter(p, RealText, rand.New(rand.NewPCG(1, 1)))
		w.Title()
		w.Paragraph(6, 6)
		allocs := testing.AllocsPerRun(100, func() { w.Paragraph(6, 6) })
		assert.LessOrEqual(t, allocs, 1.0, p.Locale().Code)
	}
}

func TestTitleSubjectOfOtherTitles(t *testing.T) {
	p, err := NewRegistry().Lookup("en_US")
	require.NoError(t, err)
	tp, s, ok := p.TitleSubject("My Notes on Sourdough Bread")
	require.True(t, ok)
	assert.Equal(t, "baking", tp.ID())
	assert.Equal(t, "sourdough bread", s)
	_, _, ok = p.TitleSubject("Lorem ipsum dolor")
	assert.False(t, ok)
	// A comment on a title without a subject still writes about a topic.
	w := NewWriter(p, RealText, rand.New(rand.NewPCG(1, 2)))
	assert.NotEmpty(t, w.CommentOn("Lorem ipsum dolor"))
	// Lorem writes Latin comments whatever the title.
	l := NewWriter(p, Lorem, rand.New(rand.NewPCG(1, 2)))
	ref := NewWriter(p, Lorem, rand.New(rand.NewPCG(1, 2)))
	assert.Equal(t, ref.Comment(), l.CommentOn("My Notes on Sourdough Bread"))
}

func TestBrokenLexiconsAreErrors(t *testing.T) {
	full := enUSFile
	cases := map[string]struct{ src, want string }{
		"unknown type":  {strings.Replace(full, "@travel\nperson = ", "@travel\nperzon = ", 1), `want type = entry`},
		"unknown topic": {strings.Replace(full, "@travel\n", "@knitting\n", 1), `unknown topic`},
		"unknown field": {full + "\n[frames.extra]\n{thing.plural} here.\n", `thing has no field "plural"`},
		"unknown slot":  {full + "\n[frames.extra]\n{widget} here.\n", `unknown slot {widget}`},
		"unknown class": {strings.Replace(full, "p:cleats", "q:cleats", 1), `unknown class "q"`},
		"agreement":     {full + "\n[frames.extra]\n{=is|are} first.\n", `agrees with no slot`},
		"missing role":  {strings.Replace(full, "[frames.reply-answer]", "[frames.reply-answers]", 1), `[frames.reply-answer] is missing`},
		"empty type":    {strings.Replace(full, "event = festival week ; night market ; walking tour\n", "", 1), `topic travel has no event`},
		"unknown tag":   {full + "\n[frames.extra]\n{act:knack.base} here.\n", `no entry has the tag "knack"`},
		"no subject":    {strings.Replace(full, "@travel/packing light", "@travel/packing heavy", 1), `"packing heavy" is no subject of @travel`},
		"dynamic title": {strings.Replace(full, "= budget travel ;", "= budget travel in {2020-2024} ;", 1), `a subject is found back in titles`},
		"unknown list":  {strings.Replace(full, "luggage shop on {street}|", "luggage shop on {avenue}|", 1), `unknown {avenue}`},
		"bad range":     {strings.Replace(full, "price={$80-150}", "price={$150-80}", 1), `bad number range`},
		"convert":       {strings.Replace(full, "lex.invariant = p u", "lex.invariant = p u\nlex.convert = °F:K", 1), `unknown conversion "°F:K"`},
		"named field":   {strings.Replace(full, "price={$20-35}", "cost={$20-35}", 1), `has no field "cost"`},
	}
	for name, c := range cases {
		_, err := parsePack(c.src)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), c.want, name)
	}
}

// TestSubjectsAreNotOtherWords checks that no subject is written like an
// entry of another type (the thing "vinyl records" against the subject
// "vinyl records"), so that the subject a title names is found back.
func TestSubjectsAreNotOtherWords(t *testing.T) {
	for _, p := range lexPacks(t) {
		lx := p.lex
		other := map[string]string{}
		for _, e := range lx.entries {
			if e.typ == lexSubject {
				continue
			}
			for _, f := range e.fields {
				other[strings.ToLower(f)] = f
			}
		}
		for _, e := range lx.subjects {
			for _, f := range lx.lowSubjects[e] {
				_, clash := other[f]
				assert.False(t, clash, "%s: subject %q is also another entry's form", p.Locale().Code, f)
			}
		}
	}
}

// A [respell] word is a whole word of any script: "começo" is replaced as
// a word, and "come" never inside it.
func TestRespellWholeWordsWithAccents(t *testing.T) {
	b := &builder{raw: rawPack{sections: map[string][]string{"respell": {"começo início", "come dorme", "bebê bebé"}}}}
	r := b.respell()
	assert.Equal(t, "No início, o bebé dorme; dorme.", r("No começo, o bebê dorme; come."))
	assert.Equal(t, "Início", r("Começo"))
}

// TestPostsDoNotRepeatSentences writes consecutive posts as a site would
// and checks that no sentence comes back word for word within the first
// 30 (a few posts): a reader who opens them must not meet a line twice.
func TestPostsDoNotRepeatSentences(t *testing.T) {
	split := regexp.MustCompile(`[^.!?。！？]+[.!?。！？]*`)
	for _, p := range lexPacks(t) {
		code := p.Locale().Code
		w := NewWriter(p, RealText, rand.New(rand.NewPCG(1, 1)))
		seen := map[string]bool{}
		n := 0
		for n < 30 {
			w.Title()
			body := w.Body(HTMLOptions{Paragraphs: 4}, markup.Markdown)
			for _, line := range strings.Split(body, "\n") {
				line = strings.TrimSpace(strings.TrimLeft(line, "#>-* "))
				for _, s := range split.FindAllString(line, -1) {
					if s = strings.TrimSpace(s); len(s) < 12 || n >= 30 {
						continue
					}
					assert.False(t, seen[s], "%s: %q again after %d sentences", code, s, n)
					seen[s] = true
					n++
				}
			}
		}
	}
}
