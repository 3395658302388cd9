package locales

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/locales/markup"
)

// TestPostsDrawFromTheirSubject writes whole posts and checks that every
// act, thing, problem, goal and benefit a post names comes from the block
// of the subject its title names, when the subject has one: a post about
// dressing for work irons shirts and does not compost.
func TestPostsDrawFromTheirSubject(t *testing.T) {
	p, err := NewRegistry().Lookup("en_US")
	require.NoError(t, err)
	lx := p.lex
	w := NewWriter(p, RealText, rand.New(rand.NewPCG(11, 12)))
	var subject int32
	var bad []string
	checked := 0
	w.trace = func(tk *ftok, e int32) {
		if subject < 0 {
			return
		}
		own := lx.subjPool[subject]
		if own == nil || len(own[tk.typ]) == 0 {
			return
		}
		checked++
		if en := &lx.entries[e]; en.subj != subject {
			bad = append(bad, lx.entries[subject].fields[0]+": "+en.fields[0])
		}
	}
	for i := range 200 {
		w.SetTopic(w.DrawTopic())
		subject = -1
		w.Title()
		subject = w.d.focus[lexSubject]
		w.Body(HTMLOptions{Paragraphs: 3 + i%5, Headings: true, Lists: true, Quotes: true}, markup.Markdown)
		w.Excerpt()
	}
	assert.Greater(t, checked, 1000)
	assert.Empty(t, bad)
}

// TestTaggedSlotsTakeOnlyTheirTags checks that a frame whose slot asks for
// a skill is passed over when the act of its section is a habit, and that
// a fresh slot with a tag draws only acts that have it.
func TestTaggedSlotsTakeOnlyTheirTags(t *testing.T) {
	src := enUSFile + "\n[frames.test]\nI finally got the hang of {act1:skill.ing}.\nI {act1:habit.base} {act1.how}.\nWe talked about {act1.ing}.\n"
	p, err := parsePack(src)
	require.NoError(t, err)
	lx := p.lex
	skill := uint16(1) << slices.Index(lx.tagNames, "skill")
	habit := uint16(1) << slices.Index(lx.tagNames, "habit")
	require.NotZero(t, skill)
	list := lx.roles["test"]
	w := NewWriter(p, RealText, rand.New(rand.NewPCG(1, 2)))
	for _, subj := range p.lex.subjects {
		if lx.subjPool[subj] == nil {
			continue
		}
		w.planDocAbout(subj)
		for _, e := range lx.subjPool[subj][lexAct] {
			w.unbind()
			w.d.bound[lexAct][1] = e
			tags := lx.entries[e].tags
			assert.Equal(t, tags&skill != 0, w.fits(&list[0]), lx.entries[e].fields[0])
			assert.Equal(t, tags&habit != 0 && lx.entries[e].has&(1<<lx.fieldIndex(lexAct, "how")) != 0, w.fits(&list[1]), lx.entries[e].fields[0])
			assert.True(t, w.fits(&list[2]))
			for range 5 {
				f := w.pickFrame(list)
				assert.True(t, f == &list[2] || w.fits(f))
			}
		}
		for range 20 {
			w.unbind()
			e := w.drawEntry(lexAct, skill, 0)
			assert.NotZero(t, lx.entries[e].tags&skill, lx.entries[e].fields[0])
		}
	}
}

// numRe matches a number as the writer writes it, with the locale's
// digit grouping.
var numRe = regexp.MustCompile(`[0-9][0-9.,\x{202f}\x{a0} ]*[0-9]|[0-9]`)

// dynPattern is a regular expression for the text of a compiled field,
// with a group for each number, and the number ranges in order.
func dynPattern(p *Pack, segs []dseg) (*regexp.Regexp, []numSpec) {
	var b strings.Builder
	var nums []numSpec
	b.WriteString("^")
	for _, s := range segs {
		switch s.kind {
		case dLit:
			b.WriteString(regexp.QuoteMeta(s.text))
		case dNum:
			b.WriteString(`([0-9][0-9.,\x{202f}\x{a0} ]*[0-9]|[0-9])`)
			nums = append(nums, s.num)
		case dChoice, dList:
			words := s.alts
			if s.kind == dList {
				words = p.lists[s.list]
			}
			q := make([]string, len(words))
			for i, w := range words {
				q[i] = regexp.QuoteMeta(w)
			}
			b.WriteString("(?:" + strings.Join(q, "|") + ")")
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String()), nums
}

// TestEntryNumbersStayInTheirRanges renders every entry with numbers,
// choices or list words in its text for many posts: each number is one
// of its range, in its steps (a bread bakes at 230 °C, never at 30), each
// choice one of its words; within one post an entry reads the same each
// time, and across posts it varies.
func TestEntryNumbersStayInTheirRanges(t *testing.T) {
	for _, p := range lexPacks(t) {
		code := p.Locale().Code
		lx := p.lex
		w := NewWriter(p, RealText, rand.New(rand.NewPCG(5, 5)))
		dynamic := 0
		for ei := range lx.entries {
			en := &lx.entries[ei]
			if en.dyn == nil {
				continue
			}
			dynamic++
			for fi, segs := range en.dyn {
				if segs == nil {
					continue
				}
				re, nums := dynPattern(p, segs)
				seen := map[string]bool{}
				for doc := range 40 {
					w.d.seed = uint64(doc)*0x9e3779b97f4a7c15 + 1
					w.appendField(int32(ei), en, fi)
					text := w.out()
					w.appendField(int32(ei), en, fi)
					assert.Equal(t, text, w.out(), "%s: %q reads the same within a post", code, en.fields[fi])
					seen[text] = true
					m := re.FindStringSubmatch(text)
					if !assert.NotNil(t, m, "%s: %q does not match %q", code, text, en.fields[fi]) {
						break
					}
					for k, n := range nums {
						v, err := strconv.Atoi(strings.Map(func(r rune) rune {
							if r >= '0' && r <= '9' {
								return r
							}
							return -1
						}, m[k+1]))
						require.NoError(t, err)
						assert.True(t, v >= n.lo && v <= n.hi && (v-n.lo)%n.step == 0, "%s: %d in %q is not in %d-%d by %d", code, v, text, n.lo, n.hi, n.step)
					}
				}
				if len(nums) > 0 && nums[0].hi > nums[0].lo {
					assert.Greater(t, len(seen), 1, "%s: %q varies across posts", code, en.fields[fi])
				}
			}
		}
		if code == "en_US" {
			assert.Greater(t, dynamic, 300, "en_US entries carry numbers and choices")
		}
	}
}

// TestBritishEnglishConvertsUnits checks that en_GB, which inherits the
// American lexicon, writes pounds and degrees Celsius where en_US writes
// dollars and degrees Fahrenheit.
func TestBritishEnglishConvertsUnits(t *testing.T) {
	reg := NewRegistry()
	for code, want := range map[string][2]string{"en_US": {"$", "°F"}, "en_GB": {"£", "°C"}} {
		p, err := reg.Lookup(code)
		require.NoError(t, err)
		w := NewWriter(p, RealText, rand.New(rand.NewPCG(7, 7)))
		var all strings.Builder
		for range 150 {
			all.WriteString(w.Title())
			all.WriteString(w.Body(HTMLOptions{Paragraphs: 6, Lists: true}, markup.Markdown))
		}
		text := all.String()
		assert.Contains(t, text, want[0], code)
		other := map[string]string{"$": "£", "£": "$"}[want[0]]
		assert.NotContains(t, text, other, code)
		if code == "en_GB" {
			assert.NotContains(t, text, "°F", code)
		}
		for _, m := range regexp.MustCompile(`[$£]([0-9][0-9,]*)`).FindAllStringSubmatch(text, -1) {
			v, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
			require.NoError(t, err)
			assert.Positive(t, v, "%s: %s", code, m[0])
		}
	}
	b := &builder{raw: rawPack{meta: map[string]string{"lex.convert": "°F:°C $:£"}}}
	n, pre, suf, ok, err := parseNum("450-475°F", b.conversions())
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "", pre)
	assert.Equal(t, "°C", suf)
	assert.Equal(t, numSpec{lo: 235, hi: 245, step: 5}, n)
}

// TestThemesAreToldOncePerPost writes posts and checks that no two frames
// of one theme ("my first attempt", "my partner") are written in one
// post.
func TestThemesAreToldOncePerPost(t *testing.T) {
	for _, p := range lexPacks(t) {
		lx := p.lex
		if len(lx.themes) == 0 {
			continue
		}
		w := NewWriter(p, RealText, rand.New(rand.NewPCG(3, 9)))
		var told uint64
		var bad []int
		w.picked = func(f *frame) {
			if f.theme == 0 || lx.sectionThemes&(1<<f.theme) != 0 {
				return
			}
			if told&(1<<f.theme) != 0 {
				bad = append(bad, f.id)
			}
			told |= 1 << f.theme
		}
		for range 200 {
			w.Title()
			told = 0
			w.Body(HTMLOptions{Paragraphs: 8, Headings: true}, markup.Markdown)
		}
		assert.Empty(t, bad, p.Locale().Code)
	}
}
