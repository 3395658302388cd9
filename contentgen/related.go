package contentgen

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/localetext"
)

// Field-aware generation: the values of core and custom fields under the
// effective field configuration, relational values that point at real
// objects, and the related posts auto-created for them.

// protectedMetaPrefix starts the meta keys the service keeps for itself;
// custom fields never overwrite them.
const protectedMetaPrefix = "_svc_"

// lookupLimit caps the ids a relational lookup loads per post type,
// taxonomy, role or media kind.
const lookupLimit = 1000

// coreSetting is one configured core field.
type coreSetting struct {
	field   templates.Field
	setting templates.FieldSetting
}

// fieldPlan is the field-aware part of generating posts of one type: the
// configured core fields, the custom fields and relations the adapters
// define (with detected semantic types), and the Filler that makes their
// values. A nil *fieldPlan does nothing.
type fieldPlan struct {
	core      []coreSetting
	fields    []templates.Field
	relations []templates.Relation
	custom    map[string]templates.FieldSetting
	filler    *templates.Filler
	lookup    *siteLookup
	authors   []int64
	// statusSet is true when the request named post_status, which wins
	// over a post_status core setting.
	statusSet bool
	// rel holds, per relation, the order in which one-to-one and
	// one-to-many relations hand out their targets.
	rel map[string]*relPool
	// keys are the meta keys custom values are written under.
	keys []string
	// seconds is the time saved by related posts.
	seconds int64
}

type relPool struct {
	ids  []int64
	next int
}

// newFieldPlan reads the custom fields of pt (when populate is set),
// detects their semantic types and prepares the Filler for cfg. The
// filler shares the run's random source and locale text.
func (g *Generator) newFieldPlan(ctx context.Context, rn *run, pt *PostType, cfg *templates.FieldConfig, populate bool, authors []int64) (*fieldPlan, error) {
	fp := &fieldPlan{authors: authors, rel: map[string]*relPool{}}
	var c templates.FieldConfig
	if cfg != nil {
		c = *cfg
	}
	for _, f := range templates.CoreFields() {
		if s, ok := c.CoreFields[f.Name]; ok {
			fp.core = append(fp.core, coreSetting{field: f, setting: s})
		}
	}
	if populate {
		pf, err := g.postTypeFields(ctx, pt.Name)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			g.log.Warn("contentgen: custom fields could not be read", "post_type", pt.Name, "err", err)
			rn.warn("The custom fields of %s could not be read; posts were created without them", pt.Name)
		} else {
			fp.fields = g.detectFields(ctx, pt.Name, pf.Fields(), rn.warn)
			fp.relations = pf.Relations
		}
		fp.custom = c.CustomFields
		for _, name := range sortedNames(c.CustomFields) {
			if !slices.ContainsFunc(fp.fields, func(f templates.Field) bool { return f.Name == name }) {
				rn.warn("field_config names the custom field %s, which post type %s does not have; it was ignored", name, pt.Name)
			}
		}
		for _, f := range fp.fields {
			if f.Name != "" && !strings.HasPrefix(f.Name, protectedMetaPrefix) {
				fp.keys = append(fp.keys, f.Name)
			}
		}
		for _, r := range fp.relations {
			if r.From == pt.Name && r.Name != "" && !strings.HasPrefix(r.Name, protectedMetaPrefix) {
				fp.keys = append(fp.keys, r.Name)
			}
		}
	}
	if len(fp.core) > 0 || len(fp.keys) > 0 {
		fp.filler = templates.NewFiller(rn.r, localetext.New(rn.w), &templates.FillOptions{Now: g.now()})
		fp.lookup = g.newSiteLookup(ctx)
	}
	return fp, nil
}

// active reports whether the plan changes posts at all.
func (fp *fieldPlan) active() bool { return fp != nil && fp.filler != nil }

// populated reports whether custom values were written to post.
func (fp *fieldPlan) populated(post *Post) bool {
	if fp == nil {
		return false
	}
	for _, k := range fp.keys {
		if _, ok := post.Meta[k]; ok {
			return true
		}
	}
	return false
}

// relatedSeconds is the time saved by the related posts the plan created.
func (fp *fieldPlan) relatedSeconds() int64 {
	if fp == nil {
		return 0
	}
	return fp.seconds
}

// prepareFields builds the field plan of a posts run: it reads and
// detects the post type's fields, creates terms for taxonomy fields whose
// taxonomy is empty and related posts where too few targets of the
// relational fields exist, and counts what it created in res.
func (g *Generator) prepareFields(ctx context.Context, rn *run, p *postsPlan, req *PostsRequest, authors []int64, res *PostsResult) (*fieldPlan, error) {
	fp, err := g.newFieldPlan(ctx, rn, &p.pt, p.fields, p.populateFields, authors)
	if err != nil || !fp.active() {
		return fp, err
	}
	fp.statusSet = req.PostStatus != ""
	if len(fp.keys) == 0 {
		return fp, nil
	}
	if err := g.fillEmptyTaxonomies(ctx, rn, p.pt.Name, fp.fields, res.AutoCreated.Terms); err != nil {
		return nil, err
	}
	if err := g.createRelated(ctx, rn, p, req, fp, res); err != nil {
		return nil, err
	}
	// Related posts exist now; look them up afresh.
	fp.lookup = g.newSiteLookup(ctx)
	return fp, nil
}

// fillEmptyTaxonomies creates a few terms in each registered taxonomy that
// a taxonomy field points at and that has none, so that the field gets a
// value. They are tracked like the terms of a posts run.
func (g *Generator) fillEmptyTaxonomies(ctx context.Context, rn *run, postType string, fields []templates.Field, made map[string]int) error {
	seen := map[string]bool{}
	for _, f := range templates.Flatten(fields) {
		if f.Type != templates.TypeTaxonomy || f.Taxonomy == "" || seen[f.Taxonomy] {
			continue
		}
		seen[f.Taxonomy] = true
		tax, err := g.taxonomy(ctx, f.Taxonomy)
		if err != nil {
			rn.warn("Field %s points at taxonomy %s, which is not registered", f.Name, f.Taxonomy)
			continue
		}
		existing, err := g.host.Terms(ctx, TermQuery{Taxonomies: []string{tax.Name}, Limit: 1})
		if err != nil {
			return failed(err, "listing terms")
		}
		if len(existing) > 0 {
			continue
		}
		ids, err := g.createTerms(ctx, rn, tax, 5, 0, map[string]any{"origin": "posts", "post_type": postType})
		if err != nil {
			return err
		}
		made[tax.Name] += len(ids)
	}
	return nil
}

// createRelated auto-creates posts of the target post types of the run's
// relational fields and relations where fewer published posts exist than
// the dependency's cardinality wants, or as related_cpt_options says.
func (g *Generator) createRelated(ctx context.Context, rn *run, p *postsPlan, req *PostsRequest, fp *fieldPlan, res *PostsResult) error {
	want := map[string]int{}
	for _, d := range templates.Dependencies(p.pt.Name, fp.fields, fp.relations) {
		if d.Source == templates.SourceField {
			// Fields the run leaves empty or fills from given values
			// need no targets.
			if s, ok := fp.custom[d.FieldName]; ok && (s.Mode == templates.ModeChoose || s.Mode == templates.ModeNone && !d.Required) {
				continue
			}
		}
		for _, t := range d.TargetPostTypes {
			want[t] = max(want[t], templates.CardinalityDefault(d.Cardinality, p.count))
		}
	}
	if len(want) == 0 {
		return nil
	}
	info, err := g.targetInfo(ctx)
	if err != nil {
		return err
	}
	for _, target := range sortedNames(want) {
		opt, hasOpt := req.RelatedCPTOptions[target]
		if hasOpt && opt.Enabled != nil && !*opt.Enabled {
			continue
		}
		tpt, err := g.postType(ctx, target)
		if err != nil {
			if CodeOf(err) != CodeInvalidPostType {
				return err
			}
			rn.warn("Relational fields of %s point at post type %s, which is not registered; no related posts were created for it", p.pt.Name, target)
			continue
		}
		n := max(0, want[target]-info(target).ExistingCount)
		if hasOpt && opt.Count != nil {
			n = *opt.Count
		}
		n = min(n, g.maxCount)
		if n == 0 {
			continue
		}
		tmpl, err := g.relatedTemplate(ctx, rn, target, opt.TemplateID)
		if err != nil {
			return err
		}
		ids, err := g.createRelatedPosts(ctx, rn, p.pt.Name, &tpt, n, tmpl, fp.authors)
		res.AutoCreated.RelatedPosts += len(ids)
		if len(ids) > 0 {
			res.AutoCreated.RelatedPerCPT[target] += len(ids)
		}
		fp.seconds += int64(len(ids)) * secondsPostBasic
		if err != nil {
			return err
		}
		rn.info("Created %d related %s posts", len(ids), target)
	}
	return nil
}

// relatedTemplate returns the template related posts of target are made
// with: the one named in related_cpt_options, else target's default
// template when auto_select_default_template is on, else none.
func (g *Generator) relatedTemplate(ctx context.Context, rn *run, target string, id int64) (*templates.Template, error) {
	if id != 0 {
		t, err := g.tmpl.Effective(ctx, id)
		if err != nil {
			return nil, storeErr(err)
		}
		return &t, nil
	}
	if !rn.settings.AutoSelectDefaultTemplate {
		return nil, nil
	}
	list, err := g.tmpl.List(ctx, templates.Filter{PostType: target, DefaultOnly: true})
	if err != nil || len(list) == 0 {
		return nil, storeErr(err)
	}
	t, err := g.tmpl.Effective(ctx, list[0].ID)
	if err != nil {
		return nil, storeErr(err)
	}
	return &t, nil
}

// createRelatedPosts creates n published posts of pt with their own custom
// fields, tracked with the history meta origin "related" and post_type
// source, so that DeletePosts with DeleteRelatedCPTs finds them.
func (g *Generator) createRelatedPosts(ctx context.Context, rn *run, source string, pt *PostType, n int, tmpl *templates.Template, authors []int64) ([]int64, error) {
	var cfg *templates.FieldConfig
	templateName := ""
	if tmpl != nil {
		cfg, templateName = &tmpl.FieldConfig, tmpl.Name
	}
	fp, err := g.newFieldPlan(ctx, rn, pt, cfg, true, authors)
	if err != nil {
		return nil, err
	}
	fp.statusSet = true // related posts are published, so that they can be pointed at
	var ids []int64
	err = chunks(n, g.batch, func(lo, hi int) error {
		posts := make([]Post, 0, hi-lo)
		for i := lo; i < hi; i++ {
			post := Post{
				Type:    pt.Name,
				Status:  StatusPublish,
				Title:   rn.w.Title(),
				Content: rn.w.HTML(locales.HTMLOptions{Paragraphs: rn.between(1, 3)}),
				Date:    rn.pastDate(365),
				Meta:    trackMeta(len(fp.keys) + 1),
			}
			if len(authors) > 0 {
				post.AuthorID = authors[rn.r.IntN(len(authors))]
			}
			if tmpl != nil {
				post.Meta[TemplateKey] = strconv.FormatInt(tmpl.ID, 10)
			}
			if err := fp.apply(rn, &post); err != nil {
				return err
			}
			posts = append(posts, post)
		}
		entries := make([]history.Entry, len(posts))
		made, err := g.createTracked(ctx, posts, entries, func(i int, id int64) history.Entry {
			return history.Entry{
				ContentType:    history.TypePost,
				ContentID:      id,
				ContentSubtype: pt.Name,
				Meta: map[string]any{
					"origin":                  "related",
					"post_type":               source,
					"locale":                  rn.locale,
					"template_name":           templateName,
					"custom_fields_populated": fp.populated(&posts[i]),
					"post_status":             StatusPublish,
					"run_id":                  rn.id,
				},
			}
		})
		ids = append(ids, made...)
		return err
	})
	return ids, err
}

// apply sets the configured core fields and the custom field and relation
// values of one post.
func (fp *fieldPlan) apply(rn *run, post *Post) error {
	if !fp.active() {
		return nil
	}
	fp.applyCore(rn, post)
	if len(fp.keys) == 0 {
		return nil
	}
	if post.Meta == nil || len(post.Meta) < len(fp.keys) {
		// One allocation instead of growing the map field by field.
		m := make(Meta, len(post.Meta)+len(fp.keys))
		for k, v := range post.Meta {
			m[k] = v
		}
		post.Meta = m
	}
	values := fp.filler.Fill(fp.fields, fp.custom)
	fp.filler.Resolve(values, fp.lookup)
	if err := fp.lookup.err; err != nil {
		return failed(err, "looking up related objects")
	}
	for i := range fp.fields {
		f := &fp.fields[i]
		v, ok := values[f.Name]
		if !ok || f.Name == "" || strings.HasPrefix(f.Name, protectedMetaPrefix) {
			continue
		}
		if emptyValue(v) {
			if f.Required {
				rn.warn("The required field %s of %s could not be filled: nothing exists for it to point at", f.Name, post.Type)
			}
			continue
		}
		post.Meta[f.Name] = metaString(v)
	}
	for i := range fp.relations {
		r := &fp.relations[i]
		if r.From != post.Type || r.Name == "" || strings.HasPrefix(r.Name, protectedMetaPrefix) {
			continue
		}
		ids := fp.relationTargets(rn, r)
		if fp.lookup.err != nil {
			return failed(fp.lookup.err, "looking up related objects")
		}
		switch {
		case len(ids) == 0:
			if r.Required {
				rn.warn("The required relation %s of %s could not be filled: no published %s exist", r.Name, post.Type, strings.Join(r.To, ", "))
			}
		case r.Cardinality == templates.ManyToMany || r.Cardinality == templates.OneToMany:
			post.Meta[r.Name] = metaString(ids)
		default:
			post.Meta[r.Name] = strconv.FormatInt(ids[0], 10)
		}
	}
	return nil
}

// relationTargets picks the targets of relation r for one post. One-to-one
// and one-to-many relations walk a shuffled pool so that posts of a batch
// get distinct targets while enough exist; the others pick at random.
func (fp *fieldPlan) relationTargets(rn *run, r *templates.Relation) []int64 {
	pool := fp.lookup.IDs(templates.RefPost, r.To)
	if len(pool) == 0 {
		return nil
	}
	n := 1
	switch r.Cardinality {
	case templates.OneToMany:
		n = 2
	case templates.ManyToMany:
		n = rn.between(1, 3)
	}
	n = min(n, len(pool))
	if r.Cardinality == templates.OneToOne || r.Cardinality == templates.OneToMany {
		rp := fp.rel[r.Name]
		if rp == nil || len(rp.ids) != len(pool) {
			rp = &relPool{ids: slices.Clone(pool)}
			rn.r.Shuffle(len(rp.ids), func(i, j int) { rp.ids[i], rp.ids[j] = rp.ids[j], rp.ids[i] })
			fp.rel[r.Name] = rp
		}
		out := make([]int64, n)
		for i := range out {
			out[i] = rp.ids[rp.next%len(rp.ids)]
			rp.next++
		}
		return out
	}
	out := make([]int64, 0, n)
	for _, k := range rn.r.Perm(len(pool))[:n] {
		out = append(out, pool[k])
	}
	return out
}

// applyCore sets the core fields the configuration names.
func (fp *fieldPlan) applyCore(rn *run, post *Post) {
	for i := range fp.core {
		c := &fp.core[i]
		switch c.field.Name {
		case templates.CorePostAuthor:
			switch c.setting.Mode {
			case templates.ModeNone:
				post.AuthorID = 0
			case templates.ModeChoose:
				if v, ok := fp.filler.Value(&c.field, &c.setting); ok {
					if id, ok := toID(v); ok {
						post.AuthorID = id
					}
				}
			default:
				if len(fp.authors) > 0 {
					post.AuthorID = fp.authors[rn.r.IntN(len(fp.authors))]
				}
			}
			continue
		case templates.CorePostStatus:
			if fp.statusSet {
				continue
			}
		}
		v, ok := fp.filler.Value(&c.field, &c.setting)
		s := ""
		if ok {
			s = valueText(v)
		}
		switch c.field.Name {
		case templates.CorePostTitle:
			if s != "" {
				post.Title = s
			}
		case templates.CorePostContent:
			post.Content = s
		case templates.CorePostExcerpt:
			post.Excerpt = s
		case templates.CorePostStatus:
			if ok && slices.Contains(postStatuses, s) {
				post.Status = s
				now := rn.g.now()
				if s == StatusFuture && !post.Date.After(now) {
					post.Date = now.Add(time.Duration(1+rn.r.IntN(90)) * 24 * time.Hour).Truncate(time.Second)
				} else if s != StatusFuture && post.Date.After(now) {
					post.Date = rn.pastDate(365)
				}
			}
		case templates.CorePostDate:
			if t, ok := parseDate(s); ok {
				post.Date = t
			}
		}
	}
}

// dateLayouts are the layouts accepted for post_date values.
var dateLayouts = []string{time.DateTime, time.RFC3339, "2006-01-02T15:04:05", time.DateOnly}

func parseDate(s string) (time.Time, bool) {
	for _, l := range dateLayouts {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// toID converts a JSON-ish value to a positive id.
func toID(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, x > 0
	case int:
		return int64(x), x > 0
	case float64:
		if x > 0 && x == math.Trunc(x) && x < 1<<53 {
			return int64(x), true
		}
	case json.Number:
		n, err := x.Int64()
		return n, err == nil && n > 0
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		return n, err == nil && n > 0
	case []any:
		if len(x) == 1 {
			return toID(x[0])
		}
	}
	return 0, false
}

// valueText is a value as text: strings as they are, other scalars in
// their usual notation.
func valueText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	return metaString(v)
}

// emptyValue reports whether v holds nothing worth storing.
func emptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	case []int64:
		return len(x) == 0
	}
	return false
}

// metaString encodes a field value as a meta value: strings as they are,
// numbers in decimal, booleans as 1 or 0, lists and objects as JSON.
func metaString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		if x {
			return "1"
		}
		return "0"
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return x.String()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// siteLookup resolves relational values against the host, loading each
// list once per run: published posts per post type, terms per taxonomy,
// users per role, and images. The first host error is kept in err and
// the lookups answer nothing after it.
type siteLookup struct {
	ctx   context.Context
	g     *Generator
	posts map[string][]int64
	terms map[string][]int64
	users map[string][]int64
	media []int64
	urls  map[int64]string
	err   error
}

var _ templates.URLLookup = (*siteLookup)(nil)

func (g *Generator) newSiteLookup(ctx context.Context) *siteLookup {
	return &siteLookup{ctx: ctx, g: g, posts: map[string][]int64{}, terms: map[string][]int64{}, users: map[string][]int64{}}
}

// IDs implements templates.Lookup.
func (l *siteLookup) IDs(kind templates.RefKind, targets []string) []int64 {
	if l.err != nil {
		return nil
	}
	var one func(string) []int64
	switch kind {
	case templates.RefPost:
		one = l.postIDs
	case templates.RefTerm:
		one = l.termIDs
	case templates.RefUser:
		one = l.userIDs
	case templates.RefMedia:
		return l.mediaIDs()
	default:
		return nil
	}
	switch len(targets) {
	case 0:
		return one("")
	case 1:
		return one(targets[0])
	}
	var all []int64
	for _, t := range targets {
		all = append(all, one(t)...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// URL implements templates.URLLookup.
func (l *siteLookup) URL(kind templates.RefKind, id int64) string {
	if kind != templates.RefMedia {
		return ""
	}
	l.mediaIDs()
	return l.urls[id]
}

func (l *siteLookup) fail(err error) {
	if l.err == nil {
		l.err = err
	}
}

func (l *siteLookup) postIDs(postType string) []int64 {
	if ids, ok := l.posts[postType]; ok {
		return ids
	}
	q := PostQuery{Statuses: []string{StatusPublish}, Limit: lookupLimit}
	if postType != "" {
		q.Types = []string{postType}
	} else {
		types, err := l.g.host.PostTypes(l.ctx)
		if err != nil {
			l.fail(err)
			return nil
		}
		for _, pt := range types {
			if !pt.Internal {
				q.Types = append(q.Types, pt.Name)
			}
		}
	}
	posts, err := l.g.host.Posts(l.ctx, q)
	if err != nil {
		l.fail(err)
		return nil
	}
	ids := make([]int64, len(posts))
	for i := range posts {
		ids[i] = posts[i].ID
	}
	l.posts[postType] = ids
	return ids
}

func (l *siteLookup) termIDs(taxonomy string) []int64 {
	if ids, ok := l.terms[taxonomy]; ok {
		return ids
	}
	q := TermQuery{Limit: lookupLimit}
	if taxonomy != "" {
		q.Taxonomies = []string{taxonomy}
	}
	terms, err := l.g.host.Terms(l.ctx, q)
	if err != nil {
		l.fail(err)
		return nil
	}
	ids := make([]int64, len(terms))
	for i := range terms {
		ids[i] = terms[i].ID
	}
	l.terms[taxonomy] = ids
	return ids
}

func (l *siteLookup) userIDs(role string) []int64 {
	if ids, ok := l.users[role]; ok {
		return ids
	}
	q := UserQuery{Limit: lookupLimit}
	if role != "" {
		q.Roles = []string{role}
	}
	users, err := l.g.host.Users(l.ctx, q)
	if err != nil {
		l.fail(err)
		return nil
	}
	ids := make([]int64, len(users))
	for i := range users {
		ids[i] = users[i].ID
	}
	l.users[role] = ids
	return ids
}

// mediaIDs lists images: they fit image and gallery fields and are valid
// files too.
func (l *siteLookup) mediaIDs() []int64 {
	if l.urls != nil {
		return l.media
	}
	media, err := l.g.host.Media(l.ctx, MediaQuery{MIMEPrefixes: []string{"image/"}, Limit: lookupLimit})
	if err != nil {
		l.fail(err)
		return nil
	}
	l.urls = make(map[int64]string, len(media))
	l.media = make([]int64, len(media))
	for i := range media {
		l.media[i] = media[i].ID
		l.urls[media[i].ID] = media[i].URL
	}
	return l.media
}

// checkFieldPlan validates the field side of a posts request: the inline
// field_config, merged over the template's field configuration (a field
// named inline takes the inline setting whole), the core fields it
// configures, and related_cpt_options.
func (g *Generator) checkFieldPlan(ctx context.Context, req *PostsRequest, p *postsPlan) error {
	if req.FieldConfig != nil {
		if err := req.FieldConfig.Validate(); err != nil {
			return storeErr(err)
		}
		merged := req.FieldConfig.Clone()
		if p.fields != nil {
			merged = templates.MergeFieldConfig(*p.fields, *req.FieldConfig)
		}
		p.fields = &merged
	}
	if p.fields != nil {
		if err := g.checkCoreConfig(ctx, p.fields.CoreFields); err != nil {
			return err
		}
	}
	for _, slug := range sortedNames(req.RelatedCPTOptions) {
		opt := req.RelatedCPTOptions[slug]
		param := "related_cpt_options." + slug
		if opt.Count != nil && (*opt.Count < 0 || *opt.Count > g.maxCount) {
			return invalid(param+".count", "%s.count must be between 0 and %d, got %d", param, g.maxCount, *opt.Count)
		}
		if opt.TemplateID < 0 {
			return invalid(param+".template_id", "%s.template_id must be a positive integer", param)
		}
		if opt.TemplateID > 0 {
			t, err := g.tmpl.Get(ctx, opt.TemplateID)
			if err != nil {
				err = storeErr(err)
				if CodeOf(err) == CodeNotFound {
					return Errorf(CodeNotFound, param+".template_id", "%s.template_id %d: no such template", param, opt.TemplateID)
				}
				return err
			}
			if t.PostType != slug {
				return invalid(param+".template_id", "%s.template_id %d is a template of %q, not %q", param, t.ID, t.PostType, slug)
			}
		}
	}
	return nil
}

// checkCoreConfig checks core field settings against the site: known core
// field names, and choose values that are valid statuses, dates and
// existing users.
func (g *Generator) checkCoreConfig(ctx context.Context, core map[string]templates.FieldSetting) error {
	known := map[string]bool{}
	for _, f := range templates.CoreFields() {
		known[f.Name] = true
	}
	for _, name := range sortedNames(core) {
		param := "field_config.core_fields." + name
		if !known[name] {
			return invalid(param, "%s: %s is not a core field; core fields are post_title, post_content, post_excerpt, post_status, post_date, post_author", param, name)
		}
		s := core[name]
		if s.Mode != templates.ModeChoose || s.Choose == nil {
			continue
		}
		vp := param + ".choose.values"
		for _, v := range s.Choose.Values {
			switch name {
			case templates.CorePostStatus:
				if st, ok := v.(string); !ok || !slices.Contains(postStatuses, st) {
					return invalid(vp, "%s must hold post statuses (%s), got %v", vp, strings.Join(postStatuses, ", "), v)
				}
			case templates.CorePostDate:
				if st, ok := v.(string); !ok {
					return invalid(vp, "%s must hold dates as YYYY-MM-DD HH:MM:SS, got %v", vp, v)
				} else if _, ok := parseDate(st); !ok {
					return invalid(vp, "%s must hold dates as YYYY-MM-DD HH:MM:SS, got %q", vp, st)
				}
			case templates.CorePostAuthor:
				id, ok := toID(v)
				if !ok {
					return invalid(vp, "%s must hold user ids, got %v", vp, v)
				}
				users, err := g.host.Users(ctx, UserQuery{IDs: []int64{id}})
				if err != nil {
					return failed(err, "reading users")
				}
				if len(users) == 0 {
					return invalid(vp, "%s names user %d, who does not exist", vp, id)
				}
			}
		}
	}
	return nil
}
