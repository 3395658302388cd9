package contentgen

import (
	"context"
	"slices"
	"strings"

	"github.com/contentgen/contentgen/locales"
)

// The topics of topical runs: see "Topics" in the package documentation.

// setThemes makes the topics of the terms of ids the themes of the terms
// the run makes next at the top level (see topicName).
func (g *Generator) setThemes(ctx context.Context, rn *run, ids []int64) error {
	rn.themes = rn.themes[:0]
	if err := g.learnTermTopics(ctx, rn, ids); err != nil {
		return err
	}
	for _, id := range ids {
		if t := rn.termTopics[id]; !t.IsZero() && !slices.Contains(rn.themes, t) {
			rn.themes = append(rn.themes, t)
		}
	}
	return nil
}

// noteTerm records the topic a term of the run stands for, if any.
func (rn *run) noteTerm(id int64, name string) {
	if !rn.topical {
		return
	}
	if t, ok := rn.w.Pack().TopicByTermName(name); ok {
		rn.termTopics[id] = t
	} else {
		rn.termTopics[id] = locales.Topic{}
	}
}

// learnTermTopics finds the topics of the terms of ids the run does not
// know yet, reading their names from the host.
func (g *Generator) learnTermTopics(ctx context.Context, rn *run, ids []int64) error {
	var unknown []int64
	for _, id := range ids {
		if _, ok := rn.termTopics[id]; !ok {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	terms, err := g.host.Terms(ctx, TermQuery{IDs: OnlyIDs(unknown...), Bare: true})
	if err != nil {
		return failed(err, "reading terms")
	}
	for _, t := range terms {
		rn.noteTerm(t.ID, t.Name)
	}
	return nil
}

// topicOfTerms returns the topic of the first term of terms, in the order
// of the taxonomies, that stands for one.
func (rn *run) topicOfTerms(taxonomies []string, terms map[string][]int64) (locales.Topic, bool) {
	for _, tax := range taxonomies {
		for _, id := range terms[tax] {
			if t := rn.termTopics[id]; !t.IsZero() {
				return t, true
			}
		}
	}
	return locales.Topic{}, false
}

// postTopic is the topic of a post with terms: that of its terms, else
// that of the template's name or the post type's label, else a drawn one.
func (rn *run) postTopic(p *postsPlan, taxonomies []string, terms map[string][]int64) locales.Topic {
	if t, ok := rn.topicOfTerms(taxonomies, terms); ok {
		return t
	}
	pack := rn.w.Pack()
	if p.template != nil {
		if t, ok := pack.TopicByTermName(p.template.Name); ok {
			return t
		}
	}
	for _, name := range []string{p.pt.Label, p.pt.Name} {
		if t, ok := pack.TopicByTermName(name); ok {
			return t
		}
	}
	return rn.w.DrawTopic()
}

// planTopics assigns the terms of every post of a topical run ahead of
// writing, so that the topic of each post is known for its featured image
// and its text. The first taxonomy's terms are drawn as in other runs;
// those of the other taxonomies prefer terms of topics related to the
// post's, and in automatic mode a post takes only related ones.
func (g *Generator) planTopics(ctx context.Context, rn *run, p *postsPlan, prep *preparedPosts) error {
	tp := prep.terms
	var ids []int64
	taxonomies := make([]string, 0, len(tp.taxes))
	for _, t := range tp.taxes {
		ids = append(ids, t.pool...)
		taxonomies = append(taxonomies, t.slug)
	}
	if err := g.learnTermTopics(ctx, rn, ids); err != nil {
		return err
	}
	prep.topics = make([]locales.Topic, len(prep.shapes))
	prep.assigned = make([]map[string][]int64, len(prep.shapes))
	for i := range prep.shapes {
		sh := &prep.shapes[i]
		if sh.terms {
			prep.assigned[i] = tp.assignTopical(rn, sh.fewTerms)
		}
		prep.topics[i] = rn.postTopic(p, taxonomies, prep.assigned[i])
	}
	return nil
}

// assignTopical is assign for a topical run. The first term of a post is
// drawn at random and gives its topic (the next one does when it stands
// for none); the post's other terms, in every taxonomy, are of topics
// related to it, and only in a taxonomy configured with counts that need
// more are other terms added.
func (tp *termPlan) assignTopical(rn *run, few bool) map[string][]int64 {
	if len(tp.taxes) == 0 {
		return nil
	}
	out := make(map[string][]int64, len(tp.taxes))
	var topic locales.Topic
	note := func(ids []int64) {
		for _, id := range ids {
			if tt := rn.termTopics[id]; topic.IsZero() && !tt.IsZero() {
				topic = tt
			}
		}
	}
	for _, t := range tp.taxes {
		if len(t.pool) == 0 {
			continue
		}
		if t.rotate {
			if ids := tp.assignOne(rn, t, few, nil); len(ids) > 0 {
				out[t.slug] = ids
				note(ids)
			}
			continue
		}
		n := rn.between(t.min, t.max)
		if few && n > 1 {
			n = 1
		}
		n = min(n, len(t.pool))
		if n == 0 {
			continue
		}
		ids := make([]int64, 0, n)
		if topic.IsZero() {
			ids = append(ids, t.pool[rn.r.IntN(len(t.pool))])
			note(ids)
		}
		t.related, t.other = t.related[:0], t.other[:0]
		for _, id := range t.pool {
			switch tt := rn.termTopics[id]; {
			case len(ids) > 0 && id == ids[0]:
			case !tt.IsZero() && topic.Related(tt):
				t.related = append(t.related, id)
			default:
				t.other = append(t.other, id)
			}
		}
		ids = drawDistinct(rn, ids, t.related, n-len(ids))
		if len(ids) < n && (!t.auto || topic.IsZero()) {
			ids = drawDistinct(rn, ids, t.other, n-len(ids))
			note(ids)
		}
		out[t.slug] = ids
	}
	return out
}

// drawDistinct appends up to n distinct ids of from to dst, at random,
// reordering from (a partial Fisher-Yates shuffle).
func drawDistinct(rn *run, dst, from []int64, n int) []int64 {
	for k := 0; k < n && k < len(from); k++ {
		j := k + rn.r.IntN(len(from)-k)
		from[k], from[j] = from[j], from[k]
		dst = append(dst, from[k])
	}
	return dst
}

// topicName returns a name for a new term of the run's topical
// vocabulary that n has not handed out, and whether there was one: under
// a parent of a topic, a subtopic's name or a word of the topic; beside
// terms of other taxonomies (rn.themes), the same for their topics; at
// the top, the name of a top-level topic, then of any topic, then a word
// of a topic.
func (n *termNamer) topicName(rn *run, parent locales.Topic) (string, string, bool) {
	pack := rn.w.Pack()
	try := func(name string) (string, string, bool) {
		slug := pack.Slug(name)
		if slug == "" || strings.Contains(slug, "%") || n.used[strings.ToLower(name)] || n.used[slug] {
			return "", "", false
		}
		n.used[strings.ToLower(name)] = true
		n.used[slug] = true
		return name, slug, true
	}
	// first returns the first name of names, from a random start, that is
	// free.
	first := func(names []string) (string, string, bool) {
		if len(names) == 0 {
			return "", "", false
		}
		off := rn.r.IntN(len(names))
		for k := range names {
			if name, slug, ok := try(names[(off+k)%len(names)]); ok {
				return name, slug, true
			}
		}
		return "", "", false
	}
	if !parent.IsZero() {
		// The main names of the subtopics, then words of the topic, then
		// the subtopics' other names: synonyms of one subtopic come last.
		children := parent.Children()
		var mains, alts []string
		for _, c := range children {
			names := c.Names()
			mains = append(mains, names[0])
			alts = append(alts, names[1:]...)
		}
		for _, names := range [][]string{mains, parent.TermNames()[len(parent.Names()):], alts} {
			if name, slug, ok := first(names); ok {
				return name, slug, true
			}
		}
		return "", "", false
	}
	// Terms of a taxonomy made beside others (tags beside categories) are
	// named after the subtopics and words of those others' topics.
	if len(rn.themes) > 0 {
		off := rn.r.IntN(len(rn.themes))
		for k := range rn.themes {
			if name, slug, ok := n.topicName(rn, rn.themes[(off+k)%len(rn.themes)]); ok {
				return name, slug, true
			}
		}
	}
	topics := pack.Topics()
	top := make([]string, 0, len(topics))
	all := make([]string, 0, len(topics))
	for _, t := range topics {
		if t.Parent().IsZero() {
			top = append(top, t.Name())
		}
		all = append(all, t.Name())
	}
	for _, names := range [][]string{top, all} {
		if name, slug, ok := first(names); ok {
			return name, slug, true
		}
	}
	// The main names are taken: the other names, then the words.
	var alt, words []string
	for _, t := range topics {
		names := t.Names()
		alt = append(alt, names[1:]...)
		words = append(words, t.TermNames()[len(names):]...)
	}
	for _, names := range [][]string{alt, words} {
		if name, slug, ok := first(names); ok {
			return name, slug, true
		}
	}
	return "", "", false
}

// postTopics returns the topics of existing posts of type pt, for
// comments on them: that of the first of a post's terms named after a
// topic, else the topic whose words its text uses most. A post with
// neither is left out.
func (g *Generator) postTopics(ctx context.Context, rn *run, pt PostType, posts []Post) (map[int64]locales.Topic, error) {
	var ids []int64
	for _, p := range posts {
		for _, tax := range pt.Taxonomies {
			ids = append(ids, p.Terms[tax]...)
		}
	}
	if err := g.learnTermTopics(ctx, rn, ids); err != nil {
		return nil, err
	}
	out := make(map[int64]locales.Topic, len(posts))
	for _, p := range posts {
		if t, ok := rn.topicOfTerms(pt.Taxonomies, p.Terms); ok {
			out[p.ID] = t
		} else if t, ok := rn.w.Pack().TopicOfText(p.Title + "\n" + p.Content); ok {
			out[p.ID] = t
		}
	}
	return out, nil
}
