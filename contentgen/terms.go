package contentgen

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/templates"
)

// termPlan holds, per taxonomy, the pool of terms posts draw from.
type termPlan struct {
	taxes []*taxPool
}

type taxPool struct {
	slug     string
	pool     []int64
	min, max int
	rotate   bool
	// auto is set for a taxonomy in automatic mode (not configured).
	auto bool
	next int
	// idx is scratch space for drawing distinct terms; related and other
	// are scratch space of topical runs.
	idx            []int
	related, other []int64
}

// termSlot is the map and array the terms of a post are drawn into, kept
// for the post in the same place of the next batch.
type termSlot struct {
	terms map[string][]int64
	ids   []int64
}

// assign picks the terms of one post, into slot when it is not nil. few
// caps each taxonomy at one term.
func (tp *termPlan) assign(rn *run, few bool, slot *termSlot) map[string][]int64 {
	if len(tp.taxes) == 0 {
		return nil
	}
	if slot == nil {
		slot = &termSlot{}
	}
	if slot.terms == nil {
		slot.terms = make(map[string][]int64, len(tp.taxes))
	} else {
		clear(slot.terms)
	}
	out := slot.terms
	// The ids of every taxonomy in one array, each list in a part of its
	// own as long as the most it may hold.
	room := 0
	for _, t := range tp.taxes {
		room += min(t.max, len(t.pool))
	}
	if cap(slot.ids) < room {
		slot.ids = make([]int64, room)
	}
	all := slot.ids[:room]
	for _, t := range tp.taxes {
		part := min(t.max, len(t.pool))
		if ids := tp.assignOne(rn, t, few, all[:0:part]); ids != nil {
			out[t.slug] = ids
		}
		all = all[part:]
	}
	return out
}

// assignOne picks the terms of one post in the taxonomy of t, nil for
// none, into ids when it has room for them.
func (tp *termPlan) assignOne(rn *run, t *taxPool, few bool, ids []int64) []int64 {
	if len(t.pool) == 0 {
		return nil
	}
	n := rn.between(t.min, t.max)
	if few && n > 1 {
		n = 1
	}
	n = min(n, len(t.pool))
	if n == 0 {
		return nil
	}
	if cap(ids) < n {
		ids = make([]int64, 0, n)
	}
	if t.rotate {
		for k := 0; k < n; k++ {
			ids = append(ids, t.pool[t.next%len(t.pool)])
			t.next++
		}
	} else {
		// A partial Fisher-Yates shuffle of an index kept per pool:
		// n distinct terms without allocating a permutation.
		if len(t.idx) != len(t.pool) {
			t.idx = make([]int, len(t.pool))
			for k := range t.idx {
				t.idx[k] = k
			}
		}
		for k := 0; k < n; k++ {
			j := k + rn.r.IntN(len(t.idx)-k)
			t.idx[k], t.idx[j] = t.idx[j], t.idx[k]
			ids = append(ids, t.pool[t.idx[k]])
		}
	}
	return ids
}

// prune drops terms deleted meanwhile from the pools.
func (tp *termPlan) prune(ctx context.Context, g *Generator) error {
	if tp == nil {
		return nil
	}
	for _, t := range tp.taxes {
		live, err := g.existing(ctx, KindTerm, t.pool)
		if err != nil {
			return err
		}
		kept := t.pool[:0]
		for _, id := range t.pool {
			if live[id] {
				kept = append(kept, id)
			}
		}
		t.pool = kept
	}
	return nil
}

// checkTaxonomyConfig validates a taxonomy_config against the post type.
func (g *Generator) checkTaxonomyConfig(ctx context.Context, pt PostType, cfg templates.TaxonomyConfig) error {
	for slug, s := range cfg {
		param := "taxonomy_config." + slug
		if _, err := g.taxonomy(ctx, slug); err != nil {
			return Errorf(CodeInvalidTaxonomy, param, "taxonomy_config names %q, which is not a registered taxonomy", slug)
		}
		if !contains(pt.Taxonomies, slug) {
			return invalid(param, "%s: taxonomy %q is not registered for post type %q", param, slug, pt.Name)
		}
		if !slices.Contains([]string{templates.ModeNone, templates.ModeChoose, templates.ModeCreate}, s.Mode) {
			return invalid(param+".mode", "%s.mode must be one of none, choose, create", param)
		}
		lo, hi := termCounts(s)
		if lo < 0 || hi > 50 || lo > hi {
			return invalid(param+".count_max", "%s needs 0 <= count_min <= count_max <= 50", param)
		}
		if s.SelectionMode != "" && s.SelectionMode != "random" && s.SelectionMode != "rotate" {
			return invalid(param+".selection_mode", "%s.selection_mode must be random or rotate", param)
		}
		if s.Mode == templates.ModeChoose {
			if len(s.TermIDs) == 0 {
				return invalid(param+".term_ids", "%s.term_ids must list at least one term in choose mode", param)
			}
			found, err := g.host.Terms(ctx, TermQuery{IDs: OnlyIDs(s.TermIDs...), Taxonomies: []string{slug}, Bare: true})
			if err != nil {
				return failed(err, "reading terms")
			}
			if len(found) != len(dedupeIDs(s.TermIDs)) {
				return invalid(param+".term_ids", "%s.term_ids names terms that do not exist in %q", param, slug)
			}
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func dedupeIDs(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// prepareTerms builds the term pools of a posts run, creating terms where
// the configuration asks for new ones or too few exist. It adds the number
// of created terms per taxonomy to made.
func (g *Generator) prepareTerms(ctx context.Context, rn *run, p *postsPlan, made map[string]int) (*termPlan, error) {
	tp := &termPlan{}
	for _, slug := range p.pt.Taxonomies {
		tax, err := g.taxonomy(ctx, slug)
		if err != nil {
			continue // the post type names a taxonomy the host no longer has
		}
		setting, configured := p.taxConfig[slug]
		if !configured {
			if !p.autoTax || !tax.Public {
				continue
			}
			setting = templates.TaxonomySetting{Mode: "auto"}
		}
		pool := &taxPool{slug: slug, rotate: setting.SelectionMode == "rotate", auto: !configured}
		if rn.topical {
			// Flat terms made beside the pools before them take their
			// names from those pools' topics.
			rn.themes = nil
			if !tax.Hierarchical {
				var ids []int64
				for _, t := range tp.taxes {
					ids = append(ids, t.pool...)
				}
				if err := g.setThemes(ctx, rn, ids); err != nil {
					return nil, err
				}
			}
		}
		pool.min, pool.max = termCounts(setting)
		meta := map[string]any{"origin": "posts", "post_type": p.pt.Name}
		switch setting.Mode {
		case templates.ModeNone:
			continue
		case templates.ModeChoose:
			// A saved template may name terms deleted since; use those
			// that still exist.
			want := dedupeIDs(setting.TermIDs)
			found, err := g.host.Terms(ctx, TermQuery{IDs: OnlyIDs(want...), Taxonomies: []string{slug}, Bare: true})
			if err != nil {
				return nil, failed(err, "reading terms")
			}
			for _, id := range want {
				if slices.ContainsFunc(found, func(t Term) bool { return t.ID == id }) {
					pool.pool = append(pool.pool, id)
				}
			}
			if len(pool.pool) < len(want) {
				rn.warn("taxonomy_config.%s.term_ids names %d terms that no longer exist; they were skipped", slug, len(want)-len(pool.pool))
			}
		case templates.ModeCreate:
			need := min(p.count*pool.max, max(pool.max*3, 10))
			ids, err := g.createTerms(ctx, rn, tax, need, 0, meta)
			if err != nil {
				return nil, err
			}
			made[slug] += len(ids)
			pool.pool = ids
			if setting.UseExisting {
				existing, err := g.termIDs(ctx, slug, ids)
				if err != nil {
					return nil, err
				}
				pool.pool = append(pool.pool, existing...)
			}
		default: // automatic
			if tax.Hierarchical {
				pool.min, pool.max = 1, 2
			} else {
				pool.min, pool.max = 2, 4
			}
			existing, err := g.termIDs(ctx, slug, nil)
			if err != nil {
				return nil, err
			}
			if want := pool.max * 3; len(existing) < want {
				ids, err := g.createTerms(ctx, rn, tax, want-len(existing), 0, meta)
				if err != nil {
					return nil, err
				}
				made[slug] += len(ids)
				existing = append(existing, ids...)
			}
			pool.pool = existing
		}
		tp.taxes = append(tp.taxes, pool)
	}
	rn.themes = nil
	return tp, nil
}

// termCounts returns the range of terms per post of a taxonomy setting: 1
// to 3 by default; a lone count_min or count_max moves the other bound
// along.
func termCounts(s templates.TaxonomySetting) (lo, hi int) {
	lo, hi = 1, 3
	if s.CountMin != nil {
		lo = *s.CountMin
		hi = max(hi, lo)
	}
	if s.CountMax != nil {
		hi = *s.CountMax
		if s.CountMin == nil {
			lo = min(lo, hi)
		}
	}
	return lo, hi
}

// termIDs lists the ids of a taxonomy's terms, leaving out skip.
func (g *Generator) termIDs(ctx context.Context, taxonomy string, skip []int64) ([]int64, error) {
	terms, err := g.host.Terms(ctx, TermQuery{Taxonomies: []string{taxonomy}, Bare: true})
	if err != nil {
		return nil, failed(err, "listing terms")
	}
	ids := make([]int64, 0, len(terms))
	for _, t := range terms {
		if !containsID(skip, t.ID) {
			ids = append(ids, t.ID)
		}
	}
	return ids, nil
}

func containsID(ids []int64, id int64) bool {
	for _, v := range ids {
		if v == id {
			return true
		}
	}
	return false
}

// termNamer hands out term names unique within a taxonomy.
type termNamer struct {
	used map[string]bool
}

// newTermNamer reads the names and slugs in use in a taxonomy through h.
func newTermNamer(ctx context.Context, h Host, taxonomy string) (*termNamer, error) {
	terms, err := h.Terms(ctx, TermQuery{Taxonomies: []string{taxonomy}, Bare: true})
	if err != nil {
		return nil, err
	}
	n := &termNamer{used: make(map[string]bool, len(terms))}
	for _, t := range terms {
		n.used[strings.ToLower(t.Name)] = true
		n.used[t.Slug] = true
	}
	return n, nil
}

func (n *termNamer) name(w *locales.Writer) (string, string) {
	for try := 0; ; try++ {
		name := w.TermName()
		if try >= 20 {
			name += " " + strconv.Itoa(try-18)
		}
		slug := w.Pack().Slug(name)
		if slug == "" {
			slug = "term"
		}
		if n.used[strings.ToLower(name)] || n.used[slug] {
			continue
		}
		n.used[strings.ToLower(name)] = true
		n.used[slug] = true
		return name, slug
	}
}

// next returns the name and slug of a new term under parent: named after a
// topic in a topical run (see topicName), else by the writer.
func (n *termNamer) next(rn *run, parent int64) (string, string) {
	if rn.topical {
		if name, slug, ok := n.topicName(rn, rn.termTopics[parent]); ok {
			return name, slug
		}
	}
	return n.name(rn.w)
}

// createTerms creates n tracked terms under parent.
func (g *Generator) createTerms(ctx context.Context, rn *run, tax Taxonomy, n int, parent int64, meta map[string]any) ([]int64, error) {
	parents := make([]int64, n)
	for i := range parents {
		parents[i] = parent
	}
	var all []int64
	err := chunks(n, g.cfg.BatchSize, func(lo, hi int) error {
		ids, err := g.createTermBatch(ctx, rn, tax, parents[lo:hi], meta)
		all = append(all, ids...)
		return err
	})
	return all, err
}

// createTermBatch creates one tracked term per entry of parents in one
// write. Names are unique against the terms read in the write; a clash
// with a term made meanwhile is retried with new names.
func (g *Generator) createTermBatch(ctx context.Context, rn *run, tax Taxonomy, parents []int64, meta map[string]any) ([]int64, error) {
	if len(parents) == 0 {
		return nil, nil
	}
	parents = slices.Clone(parents)
	return g.writeTracked(ctx, batchWrite{kind: KindTerm, plan: func(ctx context.Context, attempt int) error {
		if attempt == 0 {
			return nil
		}
		// A parent deleted meanwhile: its children go to the top level.
		live, err := g.existing(ctx, KindTerm, parents)
		if err != nil {
			return err
		}
		for i, p := range parents {
			if !live[p] {
				parents[i] = 0
			}
		}
		return nil
	}, write: func(ctx context.Context, h Host) ([]int64, []history.Entry, error) {
		namer, err := newTermNamer(ctx, h, tax.Name)
		if err != nil {
			return nil, nil, err
		}
		terms := make([]Term, len(parents))
		for i, parent := range parents {
			name, slug := namer.next(rn, parent)
			terms[i] = Term{Taxonomy: tax.Name, Name: name, Slug: slug, ParentID: parent, Meta: trackMeta(0)}
			if rn.percent(40) {
				if rn.topical {
					t, _ := rn.w.Pack().TopicByTermName(name)
					rn.w.SetTopic(t)
				}
				terms[i].Description = rn.w.TermDescription()
				rn.w.SetTopic(locales.Topic{})
			}
		}
		ids, err := h.CreateTerms(ctx, terms)
		if err != nil {
			return nil, nil, err
		}
		for i, id := range ids {
			rn.noteTerm(id, terms[i].Name)
		}
		entries := make([]history.Entry, len(ids))
		for i, id := range ids {
			m := map[string]any{"locale": rn.locale, "run_id": rn.id, "parent": terms[i].ParentID}
			for k, v := range meta {
				m[k] = v
			}
			entries[i] = history.Entry{ContentType: history.TypeTerm, ContentID: id, ContentSubtype: tax.Name, CreatedAt: rn.now, Meta: m}
		}
		return ids, entries, nil
	}})
}

// termsPlan is a validated TermsRequest with its defaults applied.
type termsPlan struct {
	tax                   Taxonomy
	count, depth, breadth int
	hierarchy             bool
}

// planTerms validates req against the site and the settings s and applies
// the defaults. Nothing is written.
func (g *Generator) planTerms(ctx context.Context, req *TermsRequest, s Settings) (*termsPlan, error) {
	name := req.Taxonomy
	if name == "" {
		name = "category"
	}
	tax, err := g.taxonomy(ctx, name)
	if err != nil {
		return nil, err
	}
	v := validator{}
	p := &termsPlan{tax: tax}
	p.count = v.count(req.Count, s.DefaultTermCount, g.cfg.MaxCount)
	p.depth = v.intIn("depth", req.Depth, 3, 1, 5)
	p.breadth = v.intIn("breadth", req.Breadth, 3, 1, 10)
	if v.err != nil {
		return nil, v.err
	}
	p.hierarchy = req.GenerateHierarchy && tax.Hierarchical
	if n := treeSize(p.depth, p.breadth); p.hierarchy && n > g.cfg.MaxCount {
		return nil, Errorf(CodeInvalidCount, "breadth",
			"a tree of depth %d and breadth %d has %d terms, more than the %d one request may create", p.depth, p.breadth, n, g.cfg.MaxCount)
	}
	return p, nil
}

// GenerateTerms creates taxonomy terms, flat or as a tree.
func (g *Generator) GenerateTerms(ctx context.Context, req TermsRequest) (*Result, error) {
	s, err := g.settings.load(ctx)
	if err != nil {
		return nil, err
	}
	p, err := g.planTerms(ctx, &req, s)
	if err != nil {
		return nil, err
	}
	tax, count, depth, breadth, hierarchy := p.tax, p.count, p.depth, p.breadth, p.hierarchy
	rn, err := g.newRun(ctx, s, req.Seed, req.Locale, nil)
	if err != nil {
		return nil, err
	}
	res := &Result{IDs: []int64{}, Taxonomy: tax.Name}
	var work tally
	defer func() { res.TimeSaved = g.addTimeSaved(ctx, work) }()
	if req.DeleteExisting {
		if res.Deleted, err = g.deleteGenerated(ctx, KindTerm, deleteScope{subtypes: []string{tax.Name}}, true); err != nil {
			return nil, err
		}
	}
	meta := map[string]any{"origin": "terms"}
	if !hierarchy {
		ids, err := g.createTerms(ctx, rn, tax, count, 0, meta)
		res.IDs = append(res.IDs, ids...)
		work.terms += len(ids)
		if err != nil {
			return nil, err
		}
		return res, nil
	}
	level := []int64{0}
	for d := 1; d <= depth; d++ {
		parents := make([]int64, 0, len(level)*breadth)
		for _, parent := range level {
			for b := 0; b < breadth; b++ {
				parents = append(parents, parent)
			}
		}
		var next []int64
		err := chunks(len(parents), max(g.cfg.BatchSize, breadth), func(lo, hi int) error {
			ids, err := g.createTermBatch(ctx, rn, tax, parents[lo:hi], meta)
			next = append(next, ids...)
			res.IDs = append(res.IDs, ids...)
			work.terms += len(ids)
			return err
		})
		if err != nil {
			return nil, err
		}
		level = next
	}
	return res, nil
}

// treeSize is the number of terms of a tree of depth levels with breadth
// children per term: the sum of breadth^level for levels 1..depth. Depth
// and breadth are already within their ranges, so it cannot overflow.
func treeSize(depth, breadth int) int {
	total, level := 0, 1
	for range depth {
		level *= breadth
		total += level
	}
	return total
}
