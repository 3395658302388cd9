package contentgen

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
	"github.com/contentgen/contentgen/templates/fill"
	"github.com/contentgen/contentgen/templates/fill/localetext"
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
	field   fields.Field
	setting templates.FieldSetting
}

// fieldPlan is the field-aware part of generating posts of one type: the
// configured core fields, the custom fields and relations the adapters
// define (with detected semantic types), and the Filler that makes their
// values. A nil *fieldPlan does nothing.
type fieldPlan struct {
	core      []coreSetting
	fields    []fields.Field
	relations []fields.Relation
	custom    map[string]templates.FieldSetting
	filler    *fill.Filler
	lookup    *siteLookup
	authors   *authorPool
	// statusSet is true when the request named post_status, which wins
	// over a post_status core setting.
	statusSet bool
	// rel holds, per relation, the order in which one-to-one and
	// one-to-many relations hand out their targets.
	rel map[string]*relPool
	// keys are the meta keys custom values are written under.
	keys []string
}

type relPool struct {
	ids  []int64
	next int
}

// newFieldPlan reads the custom fields of pt (when populate is set),
// detects their semantic types and prepares the Filler for cfg. The
// filler shares the run's random source and locale text.
func (g *Generator) newFieldPlan(ctx context.Context, rn *run, pt *PostType, cfg *templates.FieldConfig, populate bool, authors *authorPool) (*fieldPlan, error) {
	fp := &fieldPlan{authors: authors, rel: map[string]*relPool{}}
	var c templates.FieldConfig
	if cfg != nil {
		c = *cfg
	}
	for _, f := range fields.CoreFields() {
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
			if !slices.ContainsFunc(fp.fields, func(f fields.Field) bool { return f.Name == name }) {
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
		fp.filler = fill.New(rn.r, localetext.New(rn.w), &fill.Options{Now: rn.now, ContentFormat: rn.format})
		fp.lookup = g.newSiteLookup()
	}
	return fp, nil
}

// active reports whether the plan changes posts at all.
func (fp *fieldPlan) active() bool { return fp != nil && fp.filler != nil }

// setsMeta reports whether apply writes meta of posts.
func (fp *fieldPlan) setsMeta() bool { return fp.active() && len(fp.keys) > 0 }

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

// prepareFields builds the field plan of a posts run: it reads and
// detects the post type's fields, creates terms for taxonomy fields whose
// taxonomy is empty and related posts where too few targets of the
// relational fields exist, and counts what it created in res.
func (g *Generator) prepareFields(ctx context.Context, rn *run, p *postsPlan, authors *authorPool, res *PostsResult) (*fieldPlan, error) {
	fp, err := g.newFieldPlan(ctx, rn, &p.pt, p.fields, p.populateFields, authors)
	if err != nil || !fp.active() {
		return fp, err
	}
	fp.statusSet = p.statusSet
	if len(fp.keys) == 0 {
		return fp, nil
	}
	if err := g.fillEmptyTaxonomies(ctx, rn, p.pt.Name, fp.fields, res.Terms); err != nil {
		return nil, err
	}
	if err := g.createRelated(ctx, rn, p, fp, res); err != nil {
		return nil, err
	}
	// Related posts exist now; look them up afresh.
	fp.refresh(ctx, g)
	return fp, nil
}

// refresh forgets what the plan's lookup loaded, so that relational
// values point at objects that exist now.
func (fp *fieldPlan) refresh(ctx context.Context, g *Generator) {
	if fp.active() {
		fp.lookup = g.newSiteLookup()
		fp.rel = map[string]*relPool{}
	}
}

// apply sets the configured core fields and the custom field and relation
// values of one post.
func (fp *fieldPlan) apply(ctx context.Context, rn *run, post *Post) error {
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
	if _, err := fp.filler.Resolve(ctx, values, fp.lookup); err != nil {
		return err
	}
	fp.setFields(rn, post, values)
	return fp.applyRelations(ctx, rn, post)
}

// setFields writes the custom field values of a post into its meta.
func (fp *fieldPlan) setFields(rn *run, post *Post, values map[string]any) {
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
}

// applyRelations writes the targets of the post type's relations into the
// meta of a post.
func (fp *fieldPlan) applyRelations(ctx context.Context, rn *run, post *Post) error {
	for i := range fp.relations {
		r := &fp.relations[i]
		if r.From != post.Type || r.Name == "" || strings.HasPrefix(r.Name, protectedMetaPrefix) {
			continue
		}
		ids, err := fp.relationTargets(ctx, rn, r)
		if err != nil {
			return err
		}
		switch {
		case len(ids) == 0:
			if r.Required {
				rn.warn("The required relation %s of %s could not be filled: no published %s exist", r.Name, post.Type, strings.Join(r.To, ", "))
			}
		case r.Cardinality == fields.ManyToMany || r.Cardinality == fields.OneToMany:
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
func (fp *fieldPlan) relationTargets(ctx context.Context, rn *run, r *fields.Relation) ([]int64, error) {
	pool, err := fp.lookup.IDs(ctx, fill.RefPost, r.To)
	if err != nil || len(pool) == 0 {
		return nil, err
	}
	n := 1
	switch r.Cardinality {
	case fields.OneToMany:
		n = 2
	case fields.ManyToMany:
		n = rn.between(1, 3)
	}
	n = min(n, len(pool))
	if r.Cardinality == fields.OneToOne || r.Cardinality == fields.OneToMany {
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
		return out, nil
	}
	out := make([]int64, 0, n)
	for _, k := range rn.r.Perm(len(pool))[:n] {
		out = append(out, pool[k])
	}
	return out, nil
}

// applyCore sets the core fields the configuration names.
func (fp *fieldPlan) applyCore(rn *run, post *Post) {
	for i := range fp.core {
		c := &fp.core[i]
		switch {
		case c.field.Name == fields.CorePostAuthor:
			fp.applyAuthor(rn, post, c)
			continue
		case c.field.Name == fields.CorePostStatus && fp.statusSet:
			continue
		}
		v, ok := fp.filler.Value(&c.field, &c.setting)
		s := ""
		if ok {
			s = valueText(v)
		}
		fp.setCore(rn, post, c.field.Name, s, ok)
	}
}

// applyAuthor sets the author of a post under its core field setting.
func (fp *fieldPlan) applyAuthor(rn *run, post *Post, c *coreSetting) {
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
		if fp.authors != nil && len(fp.authors.ids) > 0 {
			post.AuthorID = fp.authors.ids[rn.r.IntN(len(fp.authors.ids))]
		}
	}
}

// setCore sets the core field name of a post to the value s (ok false
// when the configuration made none).
func (fp *fieldPlan) setCore(rn *run, post *Post, name, s string, ok bool) {
	{
		switch name {
		case fields.CorePostTitle:
			if s != "" {
				post.Title = s
			}
		case fields.CorePostContent:
			post.Content = s
		case fields.CorePostExcerpt:
			post.Excerpt = s
		case fields.CorePostStatus:
			if ok && slices.Contains(postStatuses, s) {
				post.Status = s
				now := rn.now
				if s == StatusFuture && !post.Date.After(now) {
					post.Date = now.Add(time.Duration(1+rn.r.IntN(90)) * 24 * time.Hour).Truncate(time.Second)
				} else if s != StatusFuture && post.Date.After(now) {
					post.Date = rn.publishedDate()
				}
			}
		case fields.CorePostDate:
			if t, ok, _ := parseDate(s); ok {
				post.Date = t
			}
		}
	}
}
