package contentgen

import (
	"context"
	"strconv"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
)

// fillEmptyTaxonomies creates a few terms in each registered taxonomy that
// a taxonomy field points at and that has none, so that the field gets a
// value. They are tracked like the terms of a posts run.
func (g *Generator) fillEmptyTaxonomies(ctx context.Context, rn *run, postType string, defs []fields.Field, made map[string]int) error {
	seen := map[string]bool{}
	for _, f := range fields.Flatten(defs) {
		if f.Type != fields.TypeTaxonomy || f.Taxonomy == "" || seen[f.Taxonomy] {
			continue
		}
		seen[f.Taxonomy] = true
		tax, err := g.taxonomy(ctx, f.Taxonomy)
		if err != nil {
			rn.warn("Field %s points at taxonomy %s, which is not registered", f.Name, f.Taxonomy)
			continue
		}
		existing, err := g.host.Terms(ctx, TermQuery{Taxonomies: []string{tax.Name}, Limit: 1, Bare: true})
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
func (g *Generator) createRelated(ctx context.Context, rn *run, p *postsPlan, fp *fieldPlan, res *PostsResult) error {
	want := relatedWanted(p, fp)
	if len(want) == 0 {
		return nil
	}
	info, err := g.targetInfo(ctx)
	if err != nil {
		return err
	}
	for _, target := range sortedNames(want) {
		opt, hasOpt := p.related[target]
		if hasOpt && opt.Enabled != nil && !*opt.Enabled {
			continue
		}
		tpt, err := g.postType(ctx, target)
		if err != nil {
			if codeOf(err) != CodeInvalidPostType {
				return err
			}
			rn.warn("Relational fields of %s point at post type %s, which is not registered; no related posts were created for it", p.pt.Name, target)
			continue
		}
		n := max(0, want[target]-info(target).ExistingCount)
		if hasOpt && opt.Count != nil {
			n = *opt.Count
		}
		n = min(n, g.cfg.MaxCount)
		if n == 0 {
			continue
		}
		tmpl, err := g.relatedTemplate(ctx, rn, target, opt.TemplateID)
		if err != nil {
			return err
		}
		ids, err := g.createRelatedPosts(ctx, rn, p.pt.Name, &tpt, n, tmpl, fp.authors)
		if len(ids) > 0 {
			res.RelatedPosts[target] += len(ids)
		}
		if err != nil {
			return err
		}
		rn.info("Created %d related %s posts", len(ids), target)
	}
	return nil
}

// relatedWanted returns, per target post type of the run's relational
// fields and relations, how many published posts the dependency's
// cardinality wants. Fields the run leaves empty or fills from given
// values need no targets.
func relatedWanted(p *postsPlan, fp *fieldPlan) map[string]int {
	want := map[string]int{}
	for _, d := range fields.Dependencies(p.pt.Name, fp.fields, fp.relations) {
		if d.Source == fields.SourceField {
			if s, ok := fp.custom[d.FieldName]; ok && (s.Mode == templates.ModeChoose || s.Mode == templates.ModeNone && !d.Required) {
				continue
			}
		}
		for _, t := range d.TargetPostTypes {
			want[t] = max(want[t], fields.CardinalityDefault(d.Cardinality, p.count))
		}
	}
	return want
}

// relatedTemplate returns the template related posts of target are made
// with: the one named in related_cpt_options, else target's default
// template when auto_select_default_template is on, else none.
func (g *Generator) relatedTemplate(ctx context.Context, rn *run, target string, id int64) (*templates.Template, error) {
	if id != 0 {
		return g.templates.effective(ctx, id)
	}
	if !rn.settings.AutoSelectDefaultTemplate {
		return nil, nil
	}
	return g.templates.defaultOf(ctx, target)
}

// createRelatedPosts creates n published posts of pt with their own custom
// fields, tracked with the history meta origin "related" and post_type
// source, so that DeletePosts with DeleteRelatedPosts finds them.
func (g *Generator) createRelatedPosts(ctx context.Context, rn *run, source string, pt *PostType, n int, tmpl *templates.Template, authors *authorPool) ([]int64, error) {
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
	var all []int64
	err = chunks(n, g.cfg.BatchSize, func(lo, hi int) error {
		var posts []Post
		ids, err := g.writeTracked(ctx, batchWrite{kind: KindPost, plan: func(ctx context.Context, attempt int) error {
			if attempt > 0 {
				if err := authors.refresh(ctx, g, rn); err != nil {
					return err
				}
				fp.refresh(ctx, g)
			}
			posts = make([]Post, 0, hi-lo)
			for i := lo; i < hi; i++ {
				post := Post{
					Type:    pt.Name,
					Status:  StatusPublish,
					Title:   rn.w.Title(),
					Content: rn.w.Body(locales.HTMLOptions{Paragraphs: rn.between(1, 3)}, rn.format),
					Date:    rn.publishedDate(),
					Meta:    trackMeta(len(fp.keys) + 1),
				}
				if len(authors.ids) > 0 {
					post.AuthorID = authors.ids[rn.r.IntN(len(authors.ids))]
				}
				if tmpl != nil {
					post.Meta[TemplateKey] = strconv.FormatInt(tmpl.ID, 10)
				}
				if err := fp.apply(ctx, rn, &post); err != nil {
					return err
				}
				posts = append(posts, post)
			}
			return nil
		}, write: func(ctx context.Context, h Host) ([]int64, []history.Entry, error) {
			ids, err := h.CreatePosts(ctx, posts)
			if err != nil {
				return nil, nil, err
			}
			entries := make([]history.Entry, len(ids))
			for i, id := range ids {
				entries[i] = history.Entry{
					ContentType:    history.TypePost,
					ContentID:      id,
					ContentSubtype: pt.Name,
					CreatedAt:      rn.now,
					Meta: map[string]any{
						"origin":                  "related",
						"post_type":               source,
						"locale":                  rn.locale,
						"template_name":           templateName,
						"custom_fields_populated": fp.populated(&posts[i]),
						"post_status":             StatusPublish,
						"content_format":          string(rn.format),
						"run_id":                  rn.id,
					},
				}
			}
			return ids, entries, nil
		}})
		all = append(all, ids...)
		return err
	})
	return all, err
}
