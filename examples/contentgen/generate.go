package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/runs"
	"github.com/contentgen/contentgen/templates"
)

func (a *app) generateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Generate posts, terms, users or comments",
		Long: `Generate posts, terms, users or comments. Options not given take the
library's defaults or the site's settings (default_post_count, ...).`,
	}
	needSubcommand(cmd)
	cmd.AddCommand(a.generatePostsCmd(), a.generateTermsCmd(), a.generateUsersCmd(), a.generateCommentsCmd())
	return cmd
}

func (a *app) generatePostsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "posts",
		Short: "Generate posts of a post type",
		Long: `Generate posts of a post type, with featured images, custom fields, taxonomy
terms, authors and comments as asked. Every post is tracked, so that
delete and cleanup remove it again.`,
		Example: `  contentgen generate posts --count 500 --post-type post --locale de_DE
  contentgen generate posts --post-type book --count 10 --image-provider provider_local --seed 7
  contentgen generate posts --count 5 --date-from 2025-01-01 --date-to 2025-03-31 --auto-comments
  contentgen --ai-base-url http://localhost:11434/v1 --ai-model llama3.2 generate posts --count 3 --text-source ai --locale de_DE
  contentgen generate posts --taxonomy-config '{"genre":{"mode":"create","count_min":1,"count_max":2}}' --post-type book`,
		Args: noArgs,
	}
	f := cmd.Flags()
	f.SortFlags = false
	f.String("post-type", "post", "registered post type slug")
	f.Int("count", 0, "number of posts (default: the default_post_count setting, 5); above 500 the posts are made as a run, in batches, with a progress bar of the run")
	f.String("post-status", "publish", "publish, draft, pending, private, future or random")
	f.Bool("set-featured-image", true, "give posts of types with thumbnails a featured image")
	f.Bool("download-images", true, "fetch new images; false reuses images of the media library")
	f.String("image-provider", "", "provider_local (offline), provider_keyword, provider_curated or provider_random (default: the default_image_provider setting)")
	f.String("image-category", "", "image category hint (nature, architecture, people, food, ...)")
	f.Int("image-width", 1200, "image width, 100-4000")
	f.Int("image-height", 800, "image height, 100-4000")
	f.Bool("populate-custom-fields", true, "fill the post type's custom fields")
	f.Bool("auto-taxonomies", true, "file posts under terms of the post type's taxonomies")
	f.String("taxonomy-config", "", "taxonomy configuration as JSON, or @FILE (the API's taxonomy_config)")
	f.Int64("template-id", 0, "template to use (default: the post type's default template)")
	f.String("field-config", "", "field configuration as JSON, or @FILE (the API's field_config); overrides the template field by field")
	f.String("related-cpt-options", "", `related posts per target post type as JSON, or @FILE, e.g. '{"publisher":{"count":3}}'`)
	f.Bool("auto-comments", false, "add comments to each post")
	f.Int("comments-per-post-min", 0, "fewest comments per post with --auto-comments")
	f.Int("comments-per-post-max", 10, "most comments per post with --auto-comments")
	f.Bool("enable-comment-threading", true, "make some comments replies")
	f.Int("comment-reply-probability", 40, "percentage of replies, 0-100")
	f.Bool("enable-variation", false, "vary how complete the posts are; false gives fully populated posts")
	f.String("variation-profile", contentgen.ProfileRandom, "random, minimal or partial (with --enable-variation)")
	f.String("locale", "", "language of the content, e.g. de_DE (default: the locale setting)")
	f.String("text-source", "", "lorem, realtext or ai (written by the model of --ai-base-url; what it cannot write is written as realtext, with one warning) (default: the template's, else the text_source setting)")
	f.String("content-format", "", "html, blocks (block editor markup) or markdown (default: the template's, else html)")
	f.String("date-from", "", "earliest date, YYYY-MM-DD or YYYY-MM-DD HH:MM:SS (default: a year ago)")
	f.String("date-to", "", "latest date, YYYY-MM-DD (the whole day) or YYYY-MM-DD HH:MM:SS (default: now)")
	f.Int64("seed", 0, "fix every random choice of the run")
	f.Bool("delete-existing-before-generate", false, "first delete the generated posts of the type")
	f.String("delete-scope", "current_type", "current_type or all, with --delete-existing-before-generate")
	f.Bool("delete-related-media", false, "with --delete-existing-before-generate (default: the delete_related_media setting)")
	f.Bool("delete-related-terms", false, "with --delete-existing-before-generate (default: the delete_related_terms setting)")
	f.Bool("delete-related-authors", false, "with --delete-existing-before-generate (default: the delete_related_authors setting)")
	f.Bool("delete-related-comments", false, "with --delete-existing-before-generate (default: the delete_related_comments setting)")
	runFlags(f)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		req, err := postsRequest(f)
		if err != nil {
			return err
		}
		if asRun(f) {
			count, _ := f.GetInt("count")
			req.Count = nil
			return a.startRun(cmd, runs.Request{Kind: runs.KindPosts, Count: int64(count), Posts: &req})
		}
		return a.with(cmd, func(ctx context.Context, s *session) error {
			p := a.newProgress()
			req.Progress = p.event
			start := a.now()
			res, err := s.gen.GeneratePosts(ctx, req)
			p.finish()
			if err != nil {
				return err
			}
			return a.postsSummary(res, a.now().Sub(start))
		})
	}
	return cmd
}

// postsRequest reads the flags of generate posts.
func postsRequest(f *pflag.FlagSet) (contentgen.PostsRequest, error) {
	str := func(name string) string { v, _ := f.GetString(name); return v }
	strIf := func(name string) string {
		if !f.Changed(name) {
			return ""
		}
		return str(name)
	}
	autoComments, _ := f.GetBool("auto-comments")
	deleteFirst, _ := f.GetBool("delete-existing-before-generate")
	templateID, _ := f.GetInt64("template-id")
	r := contentgen.PostsRequest{
		PostType: str("post-type"), Count: changedInt(f, "count"), PostStatus: strIf("post-status"),
		SetFeaturedImage: changedBool(f, "set-featured-image"), DownloadImages: changedBool(f, "download-images"),
		ImageProvider: str("image-provider"), ImageCategory: str("image-category"),
		ImageWidth: changedInt(f, "image-width"), ImageHeight: changedInt(f, "image-height"),
		PopulateCustomFields: changedBool(f, "populate-custom-fields"), AutoTaxonomies: changedBool(f, "auto-taxonomies"),
		DeleteExistingBeforeGenerate: deleteFirst, DeleteScope: strIf("delete-scope"),
		DeleteRelatedMedia: changedBool(f, "delete-related-media"), DeleteRelatedTerms: changedBool(f, "delete-related-terms"),
		DeleteRelatedAuthors: changedBool(f, "delete-related-authors"), DeleteRelatedComments: changedBool(f, "delete-related-comments"),
		AutoComments: autoComments, CommentsPerPostMin: changedInt(f, "comments-per-post-min"), CommentsPerPostMax: changedInt(f, "comments-per-post-max"),
		EnableCommentThreading: changedBool(f, "enable-comment-threading"), CommentReplyProbability: changedInt(f, "comment-reply-probability"),
		TemplateID: templateID, EnableVariation: changedBool(f, "enable-variation"), VariationProfile: strIf("variation-profile"),
		Locale: str("locale"), Seed: changedInt64(f, "seed"),
		TextSource: str("text-source"), ContentFormat: contentgen.ContentFormat(str("content-format")),
	}
	var err error
	if r.DateFrom, r.DateTo, err = dateRange(str("date-from"), str("date-to")); err != nil {
		return r, err
	}
	if err := jsonFlag(f, "taxonomy-config", &r.TaxonomyConfig); err != nil {
		return r, err
	}
	if f.Changed("field-config") {
		r.FieldConfig = &templates.FieldConfig{}
		if err := jsonFlag(f, "field-config", r.FieldConfig); err != nil {
			return r, err
		}
	}
	var related map[string]struct {
		Enabled    *bool `json:"enabled"`
		Count      *int  `json:"count"`
		TemplateID int64 `json:"template_id"`
	}
	if err := jsonFlag(f, "related-cpt-options", &related); err != nil {
		return r, err
	}
	if related != nil {
		r.RelatedPosts = make(map[string]contentgen.RelatedPostsOption, len(related))
		for k, o := range related {
			r.RelatedPosts[k] = contentgen.RelatedPostsOption{Enabled: o.Enabled, Count: o.Count, TemplateID: o.TemplateID}
		}
	}
	return r, nil
}

// jsonFlag decodes the JSON a flag holds, or the JSON of the file it
// names after an @, into v; an absent flag leaves v alone.
func jsonFlag(f *pflag.FlagSet, name string, v any) error {
	if !f.Changed(name) {
		return nil
	}
	raw, _ := f.GetString(name)
	data := []byte(raw)
	if file, ok := strings.CutPrefix(raw, "@"); ok {
		var err error
		if data, err = os.ReadFile(file); err != nil {
			return usageErr("--%s: %v", name, err)
		}
	}
	if err := json.Unmarshal(data, v); err != nil {
		return usageErr("--%s: not valid JSON: %v", name, err)
	}
	return nil
}

// dateRange parses --date-from and --date-to in the forms the API takes
// (see contentgen.ParseDate); a bare --date-to day includes the whole
// day.
func dateRange(from, to string) (time.Time, time.Time, error) {
	f, ok := contentgen.ParseDate(from, false)
	if !ok {
		return f, f, usageErr("--date-from: want a date as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS, got %q", from)
	}
	t, ok := contentgen.ParseDate(to, true)
	if !ok {
		return f, t, usageErr("--date-to: want a date as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS, got %q", to)
	}
	return f, t, nil
}

func (a *app) generateTermsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "terms",
		Short: "Generate taxonomy terms, flat or as a tree",
		Example: `  contentgen generate terms --taxonomy post_tag --count 20
  contentgen generate terms --taxonomy category --generate-hierarchy --depth 3 --breadth 2`,
		Args: noArgs,
	}
	f := cmd.Flags()
	f.SortFlags = false
	f.String("taxonomy", "category", "registered taxonomy slug")
	f.Int("count", 0, "number of flat terms (default: the default_term_count setting, 5); above 500 they are made as a run")
	f.Bool("generate-hierarchy", false, "build a tree of terms (hierarchical taxonomies)")
	f.Int("depth", 3, "levels of the tree, 1-5")
	f.Int("breadth", 3, "children per term, 1-10")
	f.Bool("delete-existing", false, "first delete the generated terms of the taxonomy")
	f.String("locale", "", "language of the names (default: the locale setting)")
	f.Int64("seed", 0, "fix every random choice of the run")
	runFlags(f)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		tax, _ := f.GetString("taxonomy")
		hier, _ := f.GetBool("generate-hierarchy")
		del, _ := f.GetBool("delete-existing")
		loc, _ := f.GetString("locale")
		req := contentgen.TermsRequest{
			Taxonomy: tax, Count: changedInt(f, "count"), GenerateHierarchy: hier,
			Depth: changedInt(f, "depth"), Breadth: changedInt(f, "breadth"),
			DeleteExisting: del, Locale: loc, Seed: changedInt64(f, "seed"),
		}
		if asRun(f) {
			count, _ := f.GetInt("count")
			req.Count = nil
			return a.startRun(cmd, runs.Request{Kind: runs.KindTerms, Count: int64(count), Terms: &req})
		}
		return a.with(cmd, func(ctx context.Context, s *session) error {
			p := a.newProgress()
			p.note(fmt.Sprintf("Generating %s terms", tax))
			start := a.now()
			res, err := s.gen.GenerateTerms(ctx, req)
			p.finish()
			if err != nil {
				return err
			}
			return a.resultSummary(tax+" terms", res, a.now().Sub(start))
		})
	}
	return cmd
}

func (a *app) generateUsersCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "users",
		Short: "Generate user accounts with roles",
		Example: `  contentgen generate users --count 20 --role author --generate-avatars=false
  contentgen generate users --count 5 --allowed-roles editor,author --locale ja`,
		Args: noArgs,
	}
	f := cmd.Flags()
	f.SortFlags = false
	f.Int("count", 0, "number of users (default: the default_user_count setting, 5); above 500 they are made as a run")
	f.String("role", "", "give every user this role (default: one of --allowed-roles each)")
	f.StringSlice("allowed-roles", []string{"subscriber", "contributor", "author"}, "roles drawn from when --role is not given")
	f.Bool("generate-avatars", true, "give each user a portrait")
	f.String("avatar-provider", "", "provider_local (offline), provider_keyword, provider_curated or provider_random (default: the default_image_provider setting)")
	f.Bool("delete-existing", false, "first delete all generated users")
	f.String("locale", "", "language of the names (default: the locale setting)")
	f.Int64("seed", 0, "fix every random choice of the run")
	runFlags(f)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		role, _ := f.GetString("role")
		prov, _ := f.GetString("avatar-provider")
		del, _ := f.GetBool("delete-existing")
		loc, _ := f.GetString("locale")
		req := contentgen.UsersRequest{
			Count: changedInt(f, "count"), Role: role, GenerateAvatars: changedBool(f, "generate-avatars"),
			AvatarProvider: prov, DeleteExisting: del, Locale: loc, Seed: changedInt64(f, "seed"),
		}
		if f.Changed("allowed-roles") {
			req.AllowedRoles, _ = f.GetStringSlice("allowed-roles")
		}
		if asRun(f) {
			count, _ := f.GetInt("count")
			req.Count = nil
			return a.startRun(cmd, runs.Request{Kind: runs.KindUsers, Count: int64(count), Users: &req})
		}
		return a.with(cmd, func(ctx context.Context, s *session) error {
			p := a.newProgress()
			p.note("Generating users")
			start := a.now()
			res, err := s.gen.GenerateUsers(ctx, req)
			p.finish()
			if err != nil {
				return err
			}
			return a.resultSummary("users", res, a.now().Sub(start))
		})
	}
	return cmd
}

func (a *app) generateCommentsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "comments",
		Short: "Generate comments on existing posts",
		Long: `Generate comments on existing posts: comments-per-post-min to
comments-per-post-max on each published post of the type (or each post of
--post-ids). With --count, make that many comments in all instead, as a run
(see 'contentgen runs'): the posts take turns, each getting min to max
comments a turn, batch after batch, round to the first post again.`,
		Example: `  contentgen generate comments --post-type post --comments-per-post-max 5
  contentgen generate comments --post-ids 12,13 --pending-percentage 0
  contentgen generate comments --count 100000 --avatar-percentage 0`,
		Args: noArgs,
	}
	f := cmd.Flags()
	f.SortFlags = false
	f.String("post-type", "post", "post type whose published posts get comments")
	f.Int64Slice("post-ids", nil, "comment on these posts only (default: all published posts of the type)")
	f.Int("comments-per-post-min", 1, "fewest comments per post, 1-100")
	f.Int("comments-per-post-max", 15, "most comments per post, 1-100")
	f.Bool("enable-threading", true, "make some comments replies")
	f.Int("reply-probability", 40, "percentage of replies, 0-100")
	f.Int("pending-percentage", 10, "percentage of pending comments, 0-100")
	f.Int("anonymous-percentage", 70, "percentage of comments by visitors without an account, 0-100")
	f.Int("avatar-percentage", 60, "percentage of comments with an avatar, 0-100")
	f.String("avatar-provider", "", "provider_local (offline), provider_keyword, provider_curated or provider_random (default: the default_image_provider setting)")
	f.String("locale", "", "language of the comments (default: the locale setting)")
	f.String("date-from", "", "earliest date, YYYY-MM-DD or YYYY-MM-DD HH:MM:SS")
	f.String("date-to", "", "latest date, YYYY-MM-DD (the whole day) or YYYY-MM-DD HH:MM:SS")
	f.Bool("delete-existing", false, "first delete the generated comments on posts of the type")
	f.Int64("seed", 0, "fix every random choice of the run")
	f.Int("count", 0, "make this many comments in all, spread over the posts, as a run")
	runFlags(f)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		str := func(name string) string { v, _ := f.GetString(name); return v }
		ids, _ := f.GetInt64Slice("post-ids")
		del, _ := f.GetBool("delete-existing")
		from, to, err := dateRange(str("date-from"), str("date-to"))
		if err != nil {
			return err
		}
		req := contentgen.CommentsRequest{
			PostType: str("post-type"), PostIDs: ids,
			CommentsPerPostMin: changedInt(f, "comments-per-post-min"), CommentsPerPostMax: changedInt(f, "comments-per-post-max"),
			EnableThreading: changedBool(f, "enable-threading"), ReplyProbability: changedInt(f, "reply-probability"),
			PendingPercentage: changedInt(f, "pending-percentage"), AnonymousPercentage: changedInt(f, "anonymous-percentage"),
			AvatarPercentage: changedInt(f, "avatar-percentage"), AvatarProvider: str("avatar-provider"),
			Locale: str("locale"), DateFrom: from, DateTo: to, DeleteExisting: del, Seed: changedInt64(f, "seed"),
		}
		if detach, _ := f.GetBool("detach"); detach || f.Changed("count") {
			// The generate call has no count: a count of comments is a run.
			count, _ := f.GetInt("count")
			return a.startRun(cmd, runs.Request{Kind: runs.KindComments, Count: int64(count), Comments: &req})
		}
		return a.with(cmd, func(ctx context.Context, s *session) error {
			p := a.newProgress()
			p.note("Generating comments")
			start := a.now()
			res, err := s.gen.GenerateComments(ctx, req)
			p.finish()
			if err != nil {
				return err
			}
			return a.resultSummary("comments", res, a.now().Sub(start))
		})
	}
	return cmd
}

// templatesFilter selects the templates of a post type, or all.
func templatesFilter(postType string) templates.Filter {
	return templates.Filter{PostType: postType}
}
