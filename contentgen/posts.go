package contentgen

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/templates"
)

// Variation profiles.
const (
	ProfileRandom  = "random"
	ProfileMinimal = "minimal"
	ProfilePartial = "partial"
)

// VariationProfile describes a variation profile.
type VariationProfile struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// VariationProfiles returns the variation profiles by key and the default key.
func VariationProfiles() (map[string]VariationProfile, string) {
	return map[string]VariationProfile{
		ProfileRandom: {
			Name:        "Random",
			Description: "Each post is fully populated, partially populated or minimal at random, with content length varying from one to ten paragraphs.",
		},
		ProfileMinimal: {
			Name:        "Minimal",
			Description: "Title and one or two short paragraphs; no excerpt, no featured image, at most one term per taxonomy and few comments.",
		},
		ProfilePartial: {
			Name:        "Partial",
			Description: "Excerpt, featured image, terms and comments are each present on about half of the posts; two to five paragraphs.",
		},
	}, ProfileRandom
}

// postStatuses are the statuses post_status=random picks from.
var postStatuses = []string{StatusPublish, StatusDraft, StatusPending, StatusPrivate, StatusFuture}

// postsPlan is a validated PostsRequest with every default applied.
type postsPlan struct {
	pt             PostType
	count          int
	status         string
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
}

func (g *Generator) planPosts(ctx context.Context, req *PostsRequest, s Settings) (*postsPlan, error) {
	p := &postsPlan{}
	var err error
	name := req.PostType
	if name == "" {
		name = "post"
	}
	if p.pt, err = g.postType(ctx, name); err != nil {
		return nil, err
	}
	if p.count, err = countParam(req.Count, s.DefaultPostCount, g.maxCount); err != nil {
		return nil, err
	}
	if p.status, err = enumParam(req.PostStatus, StatusPublish, "post_status", append(postStatuses, "random")...); err != nil {
		return nil, err
	}
	p.featured = boolParam(req.SetFeaturedImage, true) && p.pt.SupportsFeature("thumbnail")
	p.download = boolParam(req.DownloadImages, true)
	if p.provider, err = enumParam(req.ImageProvider, s.DefaultImageProvider, "image_provider", providers.Slugs...); err != nil {
		return nil, err
	}
	if req.ImageCategory != "" {
		if _, ok := providers.Categories[req.ImageCategory]; !ok {
			return nil, invalid("image_category", "image_category %q is not a known category; GET /image-providers lists them", req.ImageCategory)
		}
		p.category = req.ImageCategory
	}
	if p.width, err = intParam(req.ImageWidth, 1200, 100, 4000, "image_width"); err != nil {
		return nil, err
	}
	if p.height, err = intParam(req.ImageHeight, 800, 100, 4000, "image_height"); err != nil {
		return nil, err
	}
	p.populateFields = boolParam(req.PopulateCustomFields, true)
	p.autoTax = boolParam(req.AutoTaxonomies, true)

	p.deleteExisting = req.DeleteExistingBeforeGenerate
	p.del = DeletePostsRequest{
		PostType:              p.pt.Name,
		DeleteRelatedMedia:    boolParam(req.DeleteRelatedMedia, s.DeleteRelatedMedia),
		DeleteRelatedTerms:    boolParam(req.DeleteRelatedTerms, s.DeleteRelatedTerms),
		DeleteRelatedAuthors:  boolParam(req.DeleteRelatedAuthors, s.DeleteRelatedAuthors),
		DeleteRelatedComments: boolParam(req.DeleteRelatedComments, s.DeleteRelatedComments),
	}
	if p.del.DeleteScope, err = enumParam(req.DeleteScope, "current_type", "delete_scope", "current_type", "all"); err != nil {
		return nil, err
	}

	if err := g.checkTaxonomyConfig(ctx, p.pt, req.TaxonomyConfig); err != nil {
		return nil, err
	}
	p.taxConfig = req.TaxonomyConfig

	p.autoComments = req.AutoComments
	c := &p.comments
	if c.min, err = intParam(req.CommentsPerPostMin, 0, 0, 100, "comments_per_post_min"); err != nil {
		return nil, err
	}
	if c.max, err = intParam(req.CommentsPerPostMax, 10, 0, 100, "comments_per_post_max"); err != nil {
		return nil, err
	}
	if c.min > c.max {
		return nil, invalid("comments_per_post_max", "comments_per_post_max (%d) must not be less than comments_per_post_min (%d)", c.max, c.min)
	}
	c.threading = boolParam(req.EnableCommentThreading, true)
	if c.replyProb, err = intParam(req.CommentReplyProbability, 40, 0, 100, "comment_reply_probability"); err != nil {
		return nil, err
	}
	c.pendingPct, c.anonPct = 10, 70

	p.variation = boolParam(req.EnableVariation, false)
	if p.profile, err = enumParam(req.VariationProfile, ProfileRandom, "variation_profile", ProfileRandom, ProfileMinimal, ProfilePartial); err != nil {
		return nil, err
	}
	if err := g.resolveTemplate(ctx, req, s, p); err != nil {
		return nil, err
	}
	for slug := range req.RelatedCPTOptions {
		if _, err := g.postType(ctx, slug); err != nil {
			return nil, invalid("related_cpt_options", "related_cpt_options names %q, which is not a registered post type", slug)
		}
	}
	if err := g.checkFieldPlan(ctx, req, p); err != nil {
		return nil, err
	}
	return p, nil
}

// resolveTemplate applies template_id, or the post type's default template
// when auto_select_default_template is on.
func (g *Generator) resolveTemplate(ctx context.Context, req *PostsRequest, s Settings, p *postsPlan) error {
	if req.TemplateID < 0 {
		return invalid("template_id", "template_id must be a positive integer")
	}
	if g.tmpl == nil {
		if req.TemplateID != 0 {
			return Errorf(CodeNotFound, "template_id", "template_id %d: no such template", req.TemplateID)
		}
		return nil
	}
	var t templates.Template
	var err error
	switch {
	case req.TemplateID != 0:
		t, err = g.tmpl.Effective(ctx, req.TemplateID)
		if errors.Is(err, templates.ErrNotFound) {
			return Errorf(CodeNotFound, "template_id", "template_id %d: no such template", req.TemplateID)
		}
		if err != nil {
			return failed(err, "reading the template")
		}
		if t.PostType != p.pt.Name {
			return invalid("template_id", "template_id %d is a template of post type %q, not %q", t.ID, t.PostType, p.pt.Name)
		}
	case s.AutoSelectDefaultTemplate:
		list, err := g.tmpl.List(ctx, templates.Filter{PostType: p.pt.Name, DefaultOnly: true})
		if err != nil {
			return failed(err, "reading templates")
		}
		if len(list) == 0 {
			return nil
		}
		if t, err = g.tmpl.Effective(ctx, list[0].ID); err != nil {
			return failed(err, "reading the default template")
		}
	default:
		return nil
	}
	p.template = &t
	p.fields = &t.FieldConfig
	if len(t.TaxonomyConfig) > 0 {
		// Taxonomies the request configures take its setting.
		p.taxConfig = templates.MergeTaxonomyConfig(t.TaxonomyConfig, req.TaxonomyConfig)
	}
	return nil
}

// postShape is what one post gets, after variation.
type postShape struct {
	paragraphs int
	excerpt    bool
	featured   bool
	terms      bool
	fewTerms   bool
	comments   bool
}

func (rn *run) shape(p *postsPlan) postShape {
	full := postShape{paragraphs: rn.between(4, 8), excerpt: true, featured: true, terms: true, comments: true}
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
	}
}

// GeneratePosts creates posts as req asks and returns the result. Invalid
// requests return an *Error with the spec's code before anything is
// written. Every created item is tracked; a failure midway returns the
// error, and what was created before it stays tracked.
func (g *Generator) GeneratePosts(ctx context.Context, req PostsRequest) (*PostsResult, error) {
	settings, err := g.Settings(ctx)
	if err != nil {
		return nil, err
	}
	p, err := g.planPosts(ctx, &req, settings)
	if err != nil {
		return nil, err
	}
	rn, err := g.newRun(ctx, req.Seed, req.Locale, req.Progress)
	if err != nil {
		return nil, err
	}
	res := &PostsResult{
		IDs:         []int64{},
		Warnings:    []string{},
		AutoCreated: AutoCreated{Terms: map[string]int{}, RelatedPerCPT: map[string]int{}},
	}
	rn.info("Generating %d %s posts", p.count, p.pt.Name)

	if p.deleteExisting {
		del, err := g.DeletePosts(ctx, p.del)
		if err != nil {
			return nil, err
		}
		if del.DeletedCount > 0 {
			rn.info("Deleted %d previously generated posts", del.DeletedCount)
		}
	}

	authors, created, err := g.ensureAuthors(ctx, rn, p.pt.Name)
	if err != nil {
		return nil, err
	}
	res.AutoCreated.Authors = created

	tax, err := g.prepareTerms(ctx, rn, p, res.AutoCreated.Terms)
	if err != nil {
		return nil, err
	}

	shapes := make([]postShape, p.count)
	for i := range shapes {
		shapes[i] = rn.shape(p)
	}
	images, err := g.featuredImages(ctx, rn, p, shapes)
	if err != nil {
		return nil, err
	}
	fp, err := g.prepareFields(ctx, rn, p, &req, authors, res)
	if err != nil {
		return nil, err
	}

	seconds := fp.relatedSeconds()
	templateName := ""
	if p.template != nil {
		templateName = p.template.Name
	}
	now := g.now()
	err = chunks(p.count, g.batch, func(lo, hi int) error {
		started := time.Now()
		posts := make([]Post, 0, hi-lo)
		for i := lo; i < hi; i++ {
			post := rn.makePost(p, &shapes[i], authors, tax, images[i], now)
			if err := fp.apply(rn, &post); err != nil {
				return err
			}
			posts = append(posts, post)
		}
		perPost := time.Since(started).Seconds() / float64(hi-lo)
		entries := make([]history.Entry, len(posts))
		ids, err := g.createTracked(ctx, posts, entries, func(i int, id int64) history.Entry {
			post := &posts[i]
			assigned := make([]string, 0, len(post.Terms))
			for slug := range post.Terms {
				assigned = append(assigned, slug)
			}
			return history.Entry{
				ContentType:    history.TypePost,
				ContentID:      id,
				ContentSubtype: post.Type,
				Meta: map[string]any{
					"locale":                  rn.locale,
					"variation_profile":       variationMeta(p),
					"has_featured_image":      post.FeaturedMediaID != 0,
					"template_name":           templateName,
					"custom_fields_populated": fp.populated(post),
					"taxonomies_assigned":     assigned,
					"generation_time":         perPost,
					"post_status":             post.Status,
					"run_id":                  rn.id,
				},
			}
		})
		if err != nil {
			return err
		}
		for i, id := range ids {
			res.IDs = append(res.IDs, id)
			if posts[i].FeaturedMediaID != 0 || fp.populated(&posts[i]) {
				seconds += secondsPostRich
			} else {
				seconds += secondsPostBasic
			}
			if posts[i].FeaturedMediaID != 0 {
				res.VariationStats.WithFeaturedImage++
			} else {
				res.VariationStats.WithoutFeaturedImage++
			}
			rn.info("Created post %d of %d: %s", lo+i+1, p.count, posts[i].Title)
		}
		return nil
	})
	res.Count = len(res.IDs)
	if err != nil {
		g.addTimeSaved(ctx, KindPost, seconds)
		return nil, err
	}

	if p.autoComments && p.comments.max > 0 {
		targets := make([]Post, 0, res.Count)
		for i, id := range res.IDs {
			if shapes[i].comments {
				cp := Post{ID: id, Type: p.pt.Name, Date: now}
				targets = append(targets, cp)
			}
		}
		cp := p.comments
		ids, err := g.makeComments(ctx, rn, targets, cp, "posts")
		res.AutoCreated.Comments = len(ids)
		g.addTimeSaved(ctx, KindComment, int64(len(ids))*secondsComment)
		if err != nil {
			g.addTimeSaved(ctx, KindPost, seconds)
			return nil, err
		}
	}
	if res.AutoCreated.Authors > 0 {
		g.addTimeSaved(ctx, KindUser, int64(res.AutoCreated.Authors)*secondsUser)
	}
	termsMade := 0
	for _, n := range res.AutoCreated.Terms {
		termsMade += n
	}
	if termsMade > 0 {
		g.addTimeSaved(ctx, KindTerm, int64(termsMade)*secondsTerm)
	}
	res.TimeSaved = g.addTimeSaved(ctx, KindPost, seconds)
	res.Success = true
	res.Warnings = append(res.Warnings, rn.warnings...)
	res.Message = fmt.Sprintf("Successfully generated %d %s.", res.Count, pluralWord(res.Count, "post", "posts"))
	return res, nil
}

func variationMeta(p *postsPlan) string {
	if !p.variation {
		return "none"
	}
	return p.profile
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// makePost builds one post.
func (rn *run) makePost(p *postsPlan, sh *postShape, authors []int64, tax *termPlan, mediaID int64, now time.Time) Post {
	w := rn.w
	status := p.status
	if status == "random" {
		status = postStatuses[rn.r.IntN(len(postStatuses))]
	}
	var date time.Time
	if status == StatusFuture {
		date = now.Add(time.Duration(1+rn.r.IntN(90)) * 24 * time.Hour).Add(time.Duration(rn.r.IntN(86400)) * time.Second).Truncate(time.Second)
	} else {
		date = rn.pastDate(365)
	}
	post := Post{
		Type:   p.pt.Name,
		Status: status,
		Title:  w.Title(),
		Content: w.HTML(locales.HTMLOptions{
			Paragraphs: sh.paragraphs,
			Headings:   sh.paragraphs >= 3,
			Lists:      sh.paragraphs >= 3 && rn.percent(50),
		}),
		Date: date,
		Meta: trackMeta(1),
	}
	if sh.excerpt {
		post.Excerpt = w.Excerpt()
	}
	if len(authors) > 0 {
		post.AuthorID = authors[rn.r.IntN(len(authors))]
	}
	if sh.featured {
		post.FeaturedMediaID = mediaID
	}
	if sh.terms && tax != nil {
		post.Terms = tax.assign(rn, sh.fewTerms)
	}
	if p.template != nil {
		post.Meta[TemplateKey] = strconv.FormatInt(p.template.ID, 10)
	}
	return post
}

// createTracked creates posts in one host call and records them, in one
// transaction where the host supports it. entry builds the history entry of
// post i; the entries slice is scratch space of the same length.
func (g *Generator) createTracked(ctx context.Context, posts []Post, entries []history.Entry, entry func(i int, id int64) history.Entry) ([]int64, error) {
	var ids []int64
	err := g.withTx(ctx, func(ctx context.Context, h Host) error {
		var err error
		ids, err = h.CreatePosts(ctx, posts)
		if err != nil {
			return failed(err, "creating posts")
		}
		for i, id := range ids {
			entries[i] = entry(i, id)
		}
		return g.record(ctx, entries, func(ctx context.Context) error {
			if _, ok := g.host.(Transactor); ok {
				return nil // the transaction rolls back
			}
			return g.host.DeletePosts(ctx, ids)
		})
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// ensureAuthors returns the ids of users who can author posts, creating
// authors when fewer than three exist.
func (g *Generator) ensureAuthors(ctx context.Context, rn *run, postType string) ([]int64, int, error) {
	roles, err := g.host.Roles(ctx)
	if err != nil {
		return nil, 0, failed(err, "listing roles")
	}
	var authorRoles []string
	newRole := ""
	for _, r := range roles {
		for _, c := range r.Capabilities {
			if c == "publish_posts" {
				authorRoles = append(authorRoles, r.Slug)
				if r.Slug == "author" || newRole == "" && r.Slug != "administrator" {
					newRole = r.Slug
				}
				break
			}
		}
	}
	if len(authorRoles) == 0 {
		return nil, 0, nil
	}
	users, err := g.host.Users(ctx, UserQuery{Roles: authorRoles})
	if err != nil {
		return nil, 0, failed(err, "listing users")
	}
	ids := make([]int64, 0, len(users)+3)
	for _, u := range users {
		ids = append(ids, u.ID)
	}
	const minAuthors = 3
	if len(ids) >= minAuthors || newRole == "" {
		return ids, 0, nil
	}
	made, err := g.createUsers(ctx, rn, minAuthors-len(ids), func() string { return newRole }, map[string]any{"origin": "author", "post_type": postType})
	if err != nil {
		return nil, 0, err
	}
	rn.info("Created %d authors", len(made))
	return append(ids, made...), len(made), nil
}

// featuredImages returns one media id per post (0 for none), fetching or
// picking images for the posts whose shape wants one.
func (g *Generator) featuredImages(ctx context.Context, rn *run, p *postsPlan, shapes []postShape) ([]int64, error) {
	ids := make([]int64, len(shapes))
	if !p.featured {
		return ids, nil
	}
	var want []int
	for i := range shapes {
		if shapes[i].featured {
			want = append(want, i)
		}
	}
	if len(want) == 0 {
		return ids, nil
	}
	if !p.download {
		lib, err := g.host.Media(ctx, MediaQuery{MIMEPrefixes: []string{"image/"}})
		if err != nil {
			return nil, failed(err, "listing media")
		}
		if len(lib) == 0 {
			rn.warn("download_images is false and the media library has no images; posts created without featured image")
			return ids, nil
		}
		for _, i := range want {
			ids[i] = lib[rn.r.IntN(len(lib))].ID
		}
		return ids, nil
	}
	prov, ok := g.images[p.provider]
	if !ok {
		rn.warn("image provider %s is not configured; posts created without featured image", p.provider)
		return ids, nil
	}
	reqs := make([]providers.ImageRequest, len(want))
	for k := range want {
		reqs[k] = providers.ImageRequest{Width: p.width, Height: p.height, Category: p.category, Seed: rn.r.Uint64()}
		if !prov.Info().SupportsCategory {
			reqs[k].Category = ""
		}
	}
	media, err := g.fetchImages(ctx, rn, prov, reqs, map[string]any{"origin": "featured_image", "post_type": p.pt.Name})
	if err != nil {
		return nil, err
	}
	for k, i := range want {
		ids[i] = media[k]
	}
	return ids, nil
}
