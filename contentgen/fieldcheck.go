package contentgen

import (
	"context"
	"slices"
	"strings"

	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
)

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
	for _, slug := range sortedNames(req.RelatedPosts) {
		opt := req.RelatedPosts[slug]
		param := "related_cpt_options." + slug
		if opt.Count != nil && (*opt.Count < 0 || *opt.Count > g.cfg.MaxCount) {
			return invalid(param+".count", "%s.count must be between 0 and %d, got %d", param, g.cfg.MaxCount, *opt.Count)
		}
		if opt.TemplateID < 0 {
			return invalid(param+".template_id", "%s.template_id must be a positive integer", param)
		}
		if opt.TemplateID > 0 {
			t, err := g.templates.Get(ctx, opt.TemplateID)
			if err != nil {
				if codeOf(err) == CodeNotFound {
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
	for _, f := range fields.CoreFields() {
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
			case fields.CorePostStatus:
				if st, ok := v.(string); !ok || !slices.Contains(postStatuses, st) {
					return invalid(vp, "%s must hold post statuses (%s), got %v", vp, strings.Join(postStatuses, ", "), v)
				}
			case fields.CorePostDate:
				if st, ok := v.(string); !ok {
					return invalid(vp, "%s must hold dates as YYYY-MM-DD HH:MM:SS, got %v", vp, v)
				} else if _, ok, _ := parseDate(st); !ok {
					return invalid(vp, "%s must hold dates as YYYY-MM-DD HH:MM:SS, got %q", vp, st)
				}
			case fields.CorePostAuthor:
				id, ok := toID(v)
				if !ok {
					return invalid(vp, "%s must hold user ids, got %v", vp, v)
				}
				users, err := g.host.Users(ctx, UserQuery{IDs: OnlyIDs(id)})
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
