package contentgen

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/locales"
)

// GeneratePosts creates posts as req asks and reports what it made.
// Invalid requests return an *Error with the specification's code before
// anything is written. Every created item is tracked; a failure midway
// returns the error, and what was created before it stays tracked.
//
// A run reads as plan (validate and apply defaults), prepare (authors,
// terms, featured images, custom fields and related posts), write (the
// posts in batches), comment (auto comments) and account (time saved).
func (g *Generator) GeneratePosts(ctx context.Context, req PostsRequest) (*PostsResult, error) {
	s, err := g.settings.load(ctx)
	if err != nil {
		return nil, err
	}
	p, err := g.planPosts(ctx, &req, s)
	if err != nil {
		return nil, err
	}
	s.TextSource = p.text
	rn, err := g.newRun(ctx, s, req.Seed, req.Locale, req.Progress)
	if err != nil {
		return nil, err
	}
	rn.from, rn.to = req.DateFrom, req.DateTo
	rn.format = p.format
	res := &PostsResult{PostType: p.pt.Name, IDs: []int64{}, Terms: map[string]int{}, RelatedPosts: map[string]int{}, TextSource: p.text}
	if p.text == TextSourceAI {
		rn.ai = g.newAIRun(ctx, rn, s)
		defer func() { res.AIText = rn.ai.stats.clone() }()
	}
	var work tally
	defer func() { res.TimeSaved = g.addTimeSaved(ctx, work) }()

	if p.pt.Name == "post" {
		rn.info("Generating %d posts", p.count)
	} else {
		rn.info("Generating %d posts of type %s", p.count, p.pt.Name)
	}
	if p.deleteExisting {
		del, err := g.deletePosts(ctx, p.del, s)
		if err != nil {
			return nil, err
		}
		if del.Posts > 0 {
			rn.info("Deleted %d previously generated posts", del.Posts)
		}
	}
	prep, err := g.preparePosts(ctx, rn, p, res, &work)
	if err != nil {
		return nil, err
	}
	if err := g.writePosts(ctx, rn, p, prep, res, &work); err != nil {
		return nil, err
	}
	if err := g.commentPosts(ctx, rn, p, prep, res, &work); err != nil {
		return nil, err
	}
	if rn.ai != nil {
		rn.ai.finish(ctx, rn)
		rn.info("AI text: %d posts and %d comments by %s, %d tokens", rn.ai.stats.Posts, rn.ai.stats.Comments, rn.ai.stats.Provider, rn.ai.stats.Tokens)
	}
	res.Warnings = append([]string{}, rn.warnings...)
	return res, nil
}

// preparedPosts is what the posts of a run draw from.
type preparedPosts struct {
	authors *authorPool
	terms   *termPlan
	shapes  []postShape
	images  []int64
	fields  *fieldPlan
	// bodies is what the bodies link to and show; nil when none asks.
	bodies *bodyMaterial
	// dates and titles are the dates and titles of the posts written, by
	// index: comments follow the one and speak of the other.
	dates  []time.Time
	titles []string
	// topics and assigned are, in a topical run, the topic and the terms of
	// each post, by index; nil otherwise (the terms are then drawn as each
	// post is made).
	topics   []locales.Topic
	assigned []map[string][]int64
	// bodyOpts are, in a run with AI text, the body options of each post,
	// by index, for the provider's bodies.
	bodyOpts []locales.HTMLOptions
	// termSlots hold the terms of the posts of a batch, by index modulo
	// the batch size.
	termSlots []termSlot
}

// preparePosts creates or finds what the posts refer to: authors, terms,
// featured images, and the custom fields plan with its related posts.
func (g *Generator) preparePosts(ctx context.Context, rn *run, p *postsPlan, res *PostsResult, work *tally) (*preparedPosts, error) {
	prep := &preparedPosts{}
	var err error
	if prep.authors, err = g.ensureAuthors(ctx, rn, p.pt.Name); err != nil {
		return nil, err
	}
	res.Authors = prep.authors.created
	work.users += prep.authors.created
	if prep.terms, err = g.prepareTerms(ctx, rn, p, res.Terms); err != nil {
		return nil, err
	}
	for _, n := range res.Terms {
		work.terms += n
	}
	if rn.ai != nil {
		prep.bodyOpts = make([]locales.HTMLOptions, p.count)
	}
	prep.shapes = make([]postShape, p.count)
	prep.dates, prep.titles = make([]time.Time, 0, p.count), make([]string, 0, p.count)
	for i := range prep.shapes {
		prep.shapes[i] = rn.shape(p)
	}
	if rn.topical {
		if err := g.planTopics(ctx, rn, p, prep); err != nil {
			return nil, err
		}
	}
	if prep.images, err = g.featuredImages(ctx, rn, p, prep.shapes, prep.topics); err != nil {
		return nil, err
	}
	if prep.bodies, err = g.prepareBodies(ctx, p, prep.shapes, prep.terms); err != nil {
		return nil, err
	}
	if prep.fields, err = g.prepareFields(ctx, rn, p, prep.authors, res); err != nil {
		return nil, err
	}
	for _, n := range res.RelatedPosts {
		work.basicPosts += n
	}
	return prep, nil
}

// writePosts creates the posts in batches, each in one tracked write.
func (g *Generator) writePosts(ctx context.Context, rn *run, p *postsPlan, prep *preparedPosts, res *PostsResult, work *tally) error {
	templateName := ""
	if p.template != nil {
		templateName = p.template.Name
	}
	values := rn.postValues(p, templateName)
	// The posts, sources and entries of a batch are done with when it has
	// been written: the next batch reuses their arrays.
	var posts []Post
	var sources []string
	var entries []history.Entry
	return chunks(p.count, g.cfg.BatchSize, func(lo, hi int) error {
		var started time.Time
		ids, err := g.writeTracked(ctx, batchWrite{kind: KindPost, plan: func(ctx context.Context, attempt int) error {
			started = g.cfg.Now()
			if attempt > 0 {
				if err := g.replan(ctx, rn, prep, lo, hi); err != nil {
					return err
				}
			}
			clear(posts)
			posts = slices.Grow(posts[:0], hi-lo)
			for i := lo; i < hi; i++ {
				post := rn.makePost(p, prep, i)
				if err := prep.fields.apply(ctx, rn, &post); err != nil {
					return err
				}
				posts = append(posts, post)
			}
			sources = slices.Grow(sources[:0], len(posts))[:len(posts)]
			if rn.ai != nil {
				return rn.ai.writePosts(ctx, rn, p, prep, lo, posts, sources)
			}
			for k := range sources {
				sources[k] = rn.offlineSource()
			}
			return nil
		}, write: func(ctx context.Context, h Host) ([]int64, []history.Entry, error) {
			if err := checkPostRefs(ctx, h, rn, posts, prep.authors.ids); err != nil {
				return nil, nil, err
			}
			ids, err := h.CreatePosts(ctx, posts)
			if err != nil {
				return nil, nil, err
			}
			perPost := 0.0
			if len(ids) > 0 {
				perPost = max(g.cfg.Now().Sub(started).Seconds(), 0) / float64(len(ids))
			}
			clear(entries)
			entries = slices.Grow(entries[:0], len(ids))[:len(ids)]
			generationTime := any(perPost)
			for i, id := range ids {
				entries[i] = values.entry(id, &posts[i], prep.fields.populated(&posts[i]), generationTime, sources[i])
			}
			return ids, entries, nil
		}})
		if err != nil {
			return err
		}
		for i, id := range ids {
			res.IDs = append(res.IDs, id)
			post := &posts[i]
			prep.dates = append(prep.dates, post.Date)
			prep.titles = append(prep.titles, post.Title)
			work.bySource(sources[i])
			if post.FeaturedMediaID != 0 || prep.fields.populated(post) {
				work.richPosts++
			} else {
				work.basicPosts++
			}
			if post.Status == StatusPublish {
				prep.bodies.addPost(post.Type, id)
			}
			if post.FeaturedMediaID != 0 {
				res.WithFeaturedImage++
			} else {
				res.WithoutFeaturedImage++
			}
			if rn.progress != nil {
				rn.progress(Event{Type: EventInfo, Message: fmt.Sprintf("Created post %d of %d: %s", lo+i+1, p.count, post.Title), Done: lo + i + 1, Total: p.count, Items: ItemsPosts})
			}
		}
		return nil
	})
}

// replan refreshes what a batch of posts refers to after a write failed
// because an object it named was deleted meanwhile: authors, terms,
// featured images and the targets of relational fields that no longer
// exist are dropped (and authors made again when none is left).
func (g *Generator) replan(ctx context.Context, rn *run, prep *preparedPosts, lo, hi int) error {
	if err := prep.authors.refresh(ctx, g, rn); err != nil {
		return err
	}
	if err := prep.terms.prune(ctx, g); err != nil {
		return err
	}
	media := make([]int64, 0, hi-lo)
	for _, id := range prep.images[lo:hi] {
		if id != 0 {
			media = append(media, id)
		}
	}
	live, err := g.existing(ctx, KindMedia, media)
	if err != nil {
		return err
	}
	for i := lo; i < hi; i++ {
		if id := prep.images[i]; id != 0 && !live[id] {
			prep.images[i] = 0
		}
	}
	prep.fields.refresh(ctx, g)
	return nil
}

// checkPostRefs checks, inside the write, that the authors, terms and
// featured images posts name still exist, and lets the posts do without
// those deleted meanwhile: another author of authors that exists (none
// when all are gone), fewer terms, no featured image.
func checkPostRefs(ctx context.Context, h Host, rn *run, posts []Post, authors []int64) error {
	var users, terms, media []int64
	for i := range posts {
		p := &posts[i]
		if p.AuthorID != 0 {
			users = append(users, p.AuthorID)
		}
		for _, ids := range p.Terms {
			terms = append(terms, ids...)
		}
		if p.FeaturedMediaID != 0 {
			media = append(media, p.FeaturedMediaID)
		}
	}
	liveUsers, err := liveOn(ctx, h, KindUser, append(users, authors...))
	if err != nil {
		return err
	}
	liveTerms, err := liveOn(ctx, h, KindTerm, terms)
	if err != nil {
		return err
	}
	liveMedia, err := liveOn(ctx, h, KindMedia, media)
	if err != nil {
		return err
	}
	var spare []int64
	for _, id := range authors {
		if liveUsers[id] {
			spare = append(spare, id)
		}
	}
	// The terms of the posts are looked at one by one only when some of
	// them are gone.
	termsGone := slices.ContainsFunc(terms, func(id int64) bool { return !liveTerms[id] })
	for i := range posts {
		p := &posts[i]
		if p.AuthorID != 0 && !liveUsers[p.AuthorID] {
			p.AuthorID = 0
			if len(spare) > 0 {
				p.AuthorID = spare[rn.r.IntN(len(spare))]
			}
		}
		if termsGone {
			for tax, ids := range p.Terms {
				p.Terms[tax] = slices.DeleteFunc(ids, func(id int64) bool { return !liveTerms[id] })
			}
		}
		if p.FeaturedMediaID != 0 && !liveMedia[p.FeaturedMediaID] {
			p.FeaturedMediaID = 0
		}
	}
	return nil
}

// postMeta holds the meta values that the history entries of a run's
// posts share, each boxed once: a value made into an interface from a
// variable allocates, which a large run would otherwise pay for every
// entry.
type postMeta struct {
	rn                                         *run
	locale, variation, template, format, runID any
	// shared is the map every entry's meta starts from.
	shared map[string]any
	// taxonomies are the taxonomies_assigned values met so far.
	taxonomies []taxonomyNames
	scratch    []string
}

// taxonomyNames is a sorted list of taxonomy names with its meta value.
type taxonomyNames struct {
	names []string
	value any
}

// maxTaxonomyLists bounds postMeta.taxonomies; lists beyond are made for
// each entry.
const maxTaxonomyLists = 16

func (rn *run) postValues(p *postsPlan, templateName string) *postMeta {
	return &postMeta{
		rn:        rn,
		locale:    rn.locale,
		variation: variationMeta(p),
		template:  templateName,
		format:    string(p.format),
		runID:     rn.id,
	}
}

// entry is the history entry of a generated post. Its meta has a fixed
// set of keys; generationTime is the seconds the post took on the
// Generator's clock (its batch's time shared among its posts), so every
// value is deterministic under a fixed clock. Entries share the values
// that are equal, lists too: nothing changes them once made.
func (m *postMeta) entry(id int64, post *Post, populated bool, generationTime any, source string) history.Entry {
	if m.shared == nil {
		// The keys with the run's values, which every entry's map starts
		// as a copy of: copying a map's memory is cheaper than hashing
		// every key again.
		m.shared = map[string]any{
			"locale":                  m.locale,
			"variation_profile":       m.variation,
			"has_featured_image":      false,
			"template_name":           m.template,
			"custom_fields_populated": false,
			"taxonomies_assigned":     []string(nil),
			"generation_time":         nil,
			"post_status":             "",
			"content_format":          m.format,
			"text_source":             "",
			"run_id":                  m.runID,
		}
	}
	meta := maps.Clone(m.shared)
	meta["has_featured_image"] = post.FeaturedMediaID != 0
	meta["custom_fields_populated"] = populated
	meta["taxonomies_assigned"] = m.taxonomiesOf(post.Terms)
	meta["generation_time"] = generationTime
	meta["post_status"] = statusValue(post.Status)
	meta["text_source"] = textSourceValue(source)
	return history.Entry{
		ContentType:    history.TypePost,
		ContentID:      id,
		ContentSubtype: post.Type,
		CreatedAt:      m.rn.now,
		Meta:           meta,
	}
}

// taxonomiesOf is the sorted names of the taxonomies of terms, as
// sortedNames makes them (nil for none), one value for every equal list.
func (m *postMeta) taxonomiesOf(terms map[string][]int64) any {
	if len(terms) == 0 {
		return []string(nil)
	}
	// A list met before has the same number of names, each a key of
	// terms: found by look-ups, before any sorting.
	for _, t := range m.taxonomies {
		if len(t.names) == len(terms) && allKeys(t.names, terms) {
			return t.value
		}
	}
	m.scratch = m.scratch[:0]
	for name := range terms {
		m.scratch = append(m.scratch, name)
	}
	slices.Sort(m.scratch)
	names := slices.Clone(m.scratch)
	value := any(names)
	if len(m.taxonomies) < maxTaxonomyLists {
		m.taxonomies = append(m.taxonomies, taxonomyNames{names, value})
	}
	return value
}

// commentPosts adds the auto comments of a run to the posts whose shape
// wants comments.
func (g *Generator) commentPosts(ctx context.Context, rn *run, p *postsPlan, prep *preparedPosts, res *PostsResult, work *tally) error {
	if !p.autoComments || p.comments.max == 0 {
		return nil
	}
	targets := make([]Post, 0, len(res.IDs))
	var topics map[int64]locales.Topic
	if prep.topics != nil {
		topics = make(map[int64]locales.Topic, len(res.IDs))
	}
	for i, id := range res.IDs {
		if prep.shapes[i].comments {
			targets = append(targets, Post{ID: id, Type: p.pt.Name, Title: prep.titles[i], Date: prep.dates[i]})
			if topics != nil {
				topics[id] = prep.topics[i]
			}
		}
	}
	ids, err := g.makeComments(ctx, rn, targets, topics, p.comments, "posts")
	res.Comments, res.CommentIDs = len(ids), ids
	work.comments += len(ids)
	return err
}

// textSourceValue is src as a meta value: the constants box without an
// allocation, which a post of a large run would otherwise cost.
func textSourceValue(src string) any {
	switch src {
	case TextSourceAI:
		return TextSourceAI
	case TextSourceRealText:
		return TextSourceRealText
	case TextSourceLorem:
		return TextSourceLorem
	}
	return src
}

// allKeys reports whether every name is a key of terms.
func allKeys(names []string, terms map[string][]int64) bool {
	for _, name := range names {
		if _, ok := terms[name]; !ok {
			return false
		}
	}
	return true
}

// statusValue is a post or comment status as a meta value: the
// constants box without an allocation.
func statusValue(status string) any {
	switch status {
	case StatusPublish:
		return StatusPublish
	case StatusDraft:
		return StatusDraft
	case StatusPending:
		return StatusPending
	case StatusPrivate:
		return StatusPrivate
	case StatusFuture:
		return StatusFuture
	case StatusTrash:
		return StatusTrash
	case CommentApproved:
		return CommentApproved
	}
	return status
}

func variationMeta(p *postsPlan) string {
	if !p.variation {
		return "none"
	}
	return p.profile
}

// postShape is what one post gets, after variation.
type postShape struct {
	paragraphs int
	excerpt    bool
	featured   bool
	terms      bool
	fewTerms   bool
	comments   bool
	rich       richness
}

func (rn *run) shape(p *postsPlan) postShape {
	full := postShape{paragraphs: rn.between(4, 8), excerpt: true, featured: true, terms: true, comments: true, rich: richAll}
	if !p.variation {
		return full
	}
	profile := p.profile
	if profile == ProfileRandom {
		switch rn.r.IntN(3) {
		case 0:
			full.paragraphs = rn.between(1, 10)
			return full
		case 1:
			profile = ProfilePartial
		default:
			profile = ProfileMinimal
		}
	}
	if profile == ProfileMinimal {
		return postShape{paragraphs: rn.between(1, 2), terms: true, fewTerms: true, comments: rn.percent(30)}
	}
	return postShape{
		paragraphs: rn.between(2, 5),
		excerpt:    rn.percent(50),
		featured:   rn.percent(50),
		terms:      rn.percent(50),
		comments:   rn.percent(50),
		rich: richness{
			ordered: true, emphasis: true, links: true, technical: true,
			quotes: rn.percent(50), images: rn.percent(30),
		},
	}
}

// makePost builds post i of the run; its body links to and shows what
// prep.bodies holds.
func (rn *run) makePost(p *postsPlan, prep *preparedPosts, i int) Post {
	sh, authors, tax, mediaID := &prep.shapes[i], prep.authors.ids, prep.terms, prep.images[i]
	w := rn.w
	if prep.topics != nil {
		w.SetTopic(prep.topics[i])
		defer w.SetTopic(locales.Topic{})
	}
	status := p.status
	if status == "random" {
		status = postStatuses[rn.r.IntN(len(postStatuses))]
	}
	var date time.Time
	if status == StatusFuture {
		date = rn.futureDate()
	} else {
		date = rn.publishedDate()
	}
	post := Post{
		Type:   p.pt.Name,
		Status: status,
		Title:  w.Title(),
		Date:   date,
		Meta:   rn.marker,
	}
	if p.template != nil || prep.fields.setsMeta() {
		// Meta of its own, which the post's template and fields write to.
		post.Meta = trackMeta(1)
	}
	// The terms come before the body, whose elements follow its topic.
	switch {
	case prep.assigned != nil:
		post.Terms = prep.assigned[i]
	case sh.terms && tax != nil:
		// A batch is done with its posts' terms once written: the post in
		// the same place of the next batch reuses its map and array.
		if prep.termSlots == nil {
			prep.termSlots = make([]termSlot, rn.g.cfg.BatchSize)
		}
		post.Terms = tax.assign(rn, sh.fewTerms, &prep.termSlots[i%len(prep.termSlots)])
	}
	featured := int64(0)
	if sh.featured {
		featured = mediaID
	}
	o := rn.bodyOptions(sh, prep.bodies, post.Terms, featured)
	post.Content = w.Body(o, p.format)
	if prep.bodyOpts != nil {
		// The options share their links and images with the next post's.
		o.Links, o.Images = slices.Clone(o.Links), slices.Clone(o.Images)
		prep.bodyOpts[i] = o
	}
	if sh.excerpt {
		post.Excerpt = w.Excerpt()
	}
	if len(authors) > 0 {
		post.AuthorID = authors[rn.r.IntN(len(authors))]
	}
	post.FeaturedMediaID = featured
	if p.template != nil {
		post.Meta[TemplateKey] = strconv.FormatInt(p.template.ID, 10)
	}
	return post
}
