package contentgen

import (
	"context"
	"errors"
	"slices"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/templates"
)

// postStatuses are the statuses post_status=random picks from.
var postStatuses = []string{StatusPublish, StatusDraft, StatusPending, StatusPrivate, StatusFuture}

// postsPlan is a validated PostsRequest with every default applied.
type postsPlan struct {
	pt             PostType
	count          int
	status         string
	statusSet      bool
	featured       bool
	download       bool
	provider       string
	category       string
	width, height  int
	populateFields bool
	autoTax        bool

	deleteExisting bool
	del            DeletePostsRequest

	taxConfig    templates.TaxonomyConfig
	autoComments bool
	comments     commentPlan

	variation bool
	profile   string
	template  *templates.Template
	fields    *templates.FieldConfig
	format    ContentFormat
	text      string
	related   map[string]RelatedPostsOption
}

// planPosts validates req against the site and the settings s and applies
// the defaults. Nothing is written.
func (g *Generator) planPosts(ctx context.Context, req *PostsRequest, s Settings) (*postsPlan, error) {
	p := &postsPlan{related: req.RelatedPosts, statusSet: req.PostStatus != ""}
	name := req.PostType
	if name == "" {
		name = "post"
	}
	var err error
	if p.pt, err = g.postType(ctx, name); err != nil {
		return nil, err
	}
	v := validator{}
	p.count = v.count(req.Count, s.DefaultPostCount, g.cfg.MaxCount)
	p.status = v.enum("post_status", req.PostStatus, StatusPublish, append(postStatuses, "random")...)
	p.featured = boolOr(req.SetFeaturedImage, true) && slices.Contains(p.pt.Supports, "thumbnail")
	p.download = boolOr(req.DownloadImages, true)
	p.provider = v.enum("image_provider", req.ImageProvider, s.DefaultImageProvider, providers.Slugs()...)
	if req.ImageCategory != "" && !providers.IsCategory(req.ImageCategory) {
		v.fail(invalid("image_category", "image_category %q is not a known category; the image providers list names them", req.ImageCategory))
	}
	p.category = req.ImageCategory
	p.width = v.intIn("image_width", req.ImageWidth, 1200, 100, 4000)
	p.height = v.intIn("image_height", req.ImageHeight, 800, 100, 4000)
	p.populateFields = boolOr(req.PopulateCustomFields, true)
	p.autoTax = boolOr(req.AutoTaxonomies, true)

	p.deleteExisting = req.DeleteExistingBeforeGenerate
	p.del = DeletePostsRequest{
		PostType:              p.pt.Name,
		DeleteScope:           v.enum("delete_scope", req.DeleteScope, "current_type", "current_type", "all"),
		DeleteRelatedMedia:    req.DeleteRelatedMedia,
		DeleteRelatedTerms:    req.DeleteRelatedTerms,
		DeleteRelatedAuthors:  req.DeleteRelatedAuthors,
		DeleteRelatedComments: req.DeleteRelatedComments,
	}

	p.autoComments = req.AutoComments
	c := &p.comments
	c.min = v.intIn("comments_per_post_min", req.CommentsPerPostMin, 0, 0, 100)
	c.max = v.intIn("comments_per_post_max", req.CommentsPerPostMax, 10, 0, 100)
	if v.err == nil && c.min > c.max {
		v.fail(invalid("comments_per_post_max", "comments_per_post_max (%d) must not be less than comments_per_post_min (%d)", c.max, c.min))
	}
	c.threading = boolOr(req.EnableCommentThreading, true)
	c.replyProb = v.intIn("comment_reply_probability", req.CommentReplyProbability, 40, 0, 100)
	c.pendingPct, c.anonPct = 10, 70

	if v.err == nil {
		v.fail(g.checkDates(req.DateFrom, req.DateTo, p.status == StatusFuture || p.status == "random"))
	}
	p.variation = boolOr(req.EnableVariation, false)
	p.profile = v.enum("variation_profile", req.VariationProfile, ProfileRandom, ProfileRandom, ProfileMinimal, ProfilePartial)
	if req.TextSource != "" && !slices.Contains(textSources, req.TextSource) {
		v.fail(invalid("text_source", "text_source must be one of lorem, realtext, ai, got %q", req.TextSource))
	}
	if req.ContentFormat != "" && !req.ContentFormat.Valid() {
		v.fail(invalid("content_format", "content_format must be one of html, blocks, markdown, got %q", string(req.ContentFormat)))
	}
	if v.err != nil {
		return nil, v.err
	}
	if err := g.checkTaxonomyConfig(ctx, p.pt, req.TaxonomyConfig); err != nil {
		return nil, err
	}
	p.taxConfig = req.TaxonomyConfig
	if err := g.resolveTemplate(ctx, req, s, p); err != nil {
		return nil, err
	}
	for _, slug := range sortedNames(req.RelatedPosts) {
		if _, err := g.postType(ctx, slug); err != nil {
			return nil, invalid("related_cpt_options", "related_cpt_options names %q, which is not a registered post type", slug)
		}
	}
	if err := g.checkFieldPlan(ctx, req, p); err != nil {
		return nil, err
	}
	// The request's format, else the (template's or inline) field
	// configuration's, else HTML.
	p.format = req.ContentFormat
	if p.format == "" && p.fields != nil {
		p.format = p.fields.ContentFormat
	}
	if p.format == "" {
		p.format = FormatHTML
	}
	// Likewise the text source, else the setting.
	p.text = req.TextSource
	if p.text == "" && p.fields != nil {
		p.text = p.fields.TextSource
	}
	if p.text == "" {
		p.text = s.TextSource
	}
	return p, nil
}

// resolveTemplate applies template_id, or the post type's default template
// when auto_select_default_template is on.
func (g *Generator) resolveTemplate(ctx context.Context, req *PostsRequest, s Settings, p *postsPlan) error {
	if req.TemplateID < 0 {
		return invalid("template_id", "template_id must be a positive integer")
	}
	var t *templates.Template
	var err error
	switch {
	case req.TemplateID != 0:
		t, err = g.templates.effective(ctx, req.TemplateID)
		if errors.Is(err, ErrNotFound) {
			return Errorf(CodeNotFound, "template_id", "template_id %d: no such template", req.TemplateID)
		}
		if err != nil {
			return err
		}
		if t.PostType != p.pt.Name {
			return invalid("template_id", "template_id %d is a template of post type %q, not %q", t.ID, t.PostType, p.pt.Name)
		}
	case s.AutoSelectDefaultTemplate:
		if t, err = g.templates.defaultOf(ctx, p.pt.Name); err != nil || t == nil {
			return err
		}
	default:
		return nil
	}
	p.template = t
	p.fields = &t.FieldConfig
	if len(t.TaxonomyConfig) > 0 {
		// Taxonomies the request configures take its setting.
		p.taxConfig = templates.MergeTaxonomyConfig(t.TaxonomyConfig, req.TaxonomyConfig)
	}
	return nil
}

// validator checks request parameters, keeping the first error.
type validator struct{ err error }

func (v *validator) fail(err error) {
	if v.err == nil {
		v.err = err
	}
}

// intIn resolves an optional integer parameter with a default and range.
func (v *validator) intIn(param string, x *int, def, lo, hi int) int {
	if x == nil {
		return def
	}
	if *x < lo || *x > hi {
		v.fail(invalid(param, "%s must be between %d and %d, got %d", param, lo, hi, *x))
		return def
	}
	return *x
}

// count is intIn for count, with the invalid_count code.
func (v *validator) count(x *int, def, max int) int {
	if x == nil {
		return def
	}
	if *x < 1 || *x > max {
		v.fail(Errorf(CodeInvalidCount, "count", "count must be between 1 and %d, got %d", max, *x))
		return def
	}
	return *x
}

// enum checks x against allowed, returning def when x is empty.
func (v *validator) enum(param, x, def string, allowed ...string) string {
	if x == "" {
		return def
	}
	if slices.Contains(allowed, x) {
		return x
	}
	v.fail(invalid(param, "%s must be one of %v, got %q", param, allowed, x))
	return def
}

func boolOr(v *bool, def bool) bool {
	if v == nil {
		return def
	}
	return *v
}
