package httpapi

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/templates"
)

// The request bodies of the specification and their translation into the
// library's requests, and the records of its answers.

type postsBody struct {
	PostType                     string                      `json:"post_type"`
	Count                        *int                        `json:"count"`
	PostStatus                   string                      `json:"post_status"`
	SetFeaturedImage             *bool                       `json:"set_featured_image"`
	DownloadImages               *bool                       `json:"download_images"`
	ImageProvider                string                      `json:"image_provider"`
	ImageCategory                string                      `json:"image_category"`
	ImageWidth                   *int                        `json:"image_width"`
	ImageHeight                  *int                        `json:"image_height"`
	PopulateCustomFields         *bool                       `json:"populate_custom_fields"`
	AutoTaxonomies               *bool                       `json:"auto_taxonomies"`
	DeleteExistingBeforeGenerate bool                        `json:"delete_existing_before_generate"`
	DeleteRelatedMedia           *bool                       `json:"delete_related_media"`
	DeleteRelatedTerms           *bool                       `json:"delete_related_terms"`
	DeleteRelatedAuthors         *bool                       `json:"delete_related_authors"`
	DeleteRelatedComments        *bool                       `json:"delete_related_comments"`
	DeleteScope                  string                      `json:"delete_scope"`
	TaxonomyConfig               templates.TaxonomyConfig    `json:"taxonomy_config"`
	AutoComments                 bool                        `json:"auto_comments"`
	CommentsPerPostMin           *int                        `json:"comments_per_post_min"`
	CommentsPerPostMax           *int                        `json:"comments_per_post_max"`
	EnableCommentThreading       *bool                       `json:"enable_comment_threading"`
	CommentReplyProbability      *int                        `json:"comment_reply_probability"`
	RelatedCPTOptions            map[string]relatedCPTOption `json:"related_cpt_options"`
	TemplateID                   int64                       `json:"template_id"`
	FieldConfig                  *templates.FieldConfig      `json:"field_config"`
	EnableVariation              *bool                       `json:"enable_variation"`
	VariationProfile             string                      `json:"variation_profile"`
	Locale                       string                      `json:"locale"`
	ContentFormat                string                      `json:"content_format"`
	TextSource                   string                      `json:"text_source"`
	DateFrom                     string                      `json:"date_from"`
	DateTo                       string                      `json:"date_to"`
	Seed                         *int64                      `json:"seed"`
}

type relatedCPTOption struct {
	Enabled    *bool `json:"enabled"`
	Count      *int  `json:"count"`
	TemplateID int64 `json:"template_id"`
}

func (b *postsBody) request() (contentgen.PostsRequest, error) {
	from, to, err := dateRange(b.DateFrom, b.DateTo)
	if err != nil {
		return contentgen.PostsRequest{}, err
	}
	r := contentgen.PostsRequest{
		DateFrom: from, DateTo: to,
		PostType: b.PostType, Count: b.Count, PostStatus: b.PostStatus,
		SetFeaturedImage: b.SetFeaturedImage, DownloadImages: b.DownloadImages,
		ImageProvider: b.ImageProvider, ImageCategory: b.ImageCategory,
		ImageWidth: b.ImageWidth, ImageHeight: b.ImageHeight,
		PopulateCustomFields: b.PopulateCustomFields, AutoTaxonomies: b.AutoTaxonomies,
		DeleteExistingBeforeGenerate: b.DeleteExistingBeforeGenerate,
		DeleteRelatedMedia:           b.DeleteRelatedMedia, DeleteRelatedTerms: b.DeleteRelatedTerms,
		DeleteRelatedAuthors: b.DeleteRelatedAuthors, DeleteRelatedComments: b.DeleteRelatedComments,
		DeleteScope: b.DeleteScope, TaxonomyConfig: b.TaxonomyConfig,
		AutoComments: b.AutoComments, CommentsPerPostMin: b.CommentsPerPostMin, CommentsPerPostMax: b.CommentsPerPostMax,
		EnableCommentThreading: b.EnableCommentThreading, CommentReplyProbability: b.CommentReplyProbability,
		TemplateID: b.TemplateID, FieldConfig: b.FieldConfig,
		EnableVariation: b.EnableVariation, VariationProfile: b.VariationProfile,
		Locale: b.Locale, Seed: b.Seed, ContentFormat: contentgen.ContentFormat(b.ContentFormat),
		TextSource: b.TextSource,
	}
	if b.RelatedCPTOptions != nil {
		r.RelatedPosts = make(map[string]contentgen.RelatedPostsOption, len(b.RelatedCPTOptions))
		for k, o := range b.RelatedCPTOptions {
			r.RelatedPosts[k] = contentgen.RelatedPostsOption(o)
		}
	}
	return r, nil
}

// dateRange parses the optional date_from and date_to parameters (see
// contentgen.ParseDate); a bare date_to day includes the whole day.
func dateRange(from, to string) (time.Time, time.Time, error) {
	f, ok := contentgen.ParseDate(from, false)
	if !ok {
		return f, f, badDate("date_from", from)
	}
	t, ok := contentgen.ParseDate(to, true)
	if !ok {
		return f, t, badDate("date_to", to)
	}
	return f, t, nil
}

func badDate(param, s string) error {
	return paramError(param, "%s must be a date as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS, got %q", param, s)
}

type termsBody struct {
	Taxonomy          string `json:"taxonomy"`
	Count             *int   `json:"count"`
	GenerateHierarchy bool   `json:"generate_hierarchy"`
	Depth             *int   `json:"depth"`
	Breadth           *int   `json:"breadth"`
	DeleteExisting    bool   `json:"delete_existing"`
	Locale            string `json:"locale"`
	Seed              *int64 `json:"seed"`
}

type usersBody struct {
	Count           *int     `json:"count"`
	Role            string   `json:"role"`
	AllowedRoles    []string `json:"allowed_roles"`
	GenerateAvatars *bool    `json:"generate_avatars"`
	AvatarProvider  string   `json:"avatar_provider"`
	DeleteExisting  bool     `json:"delete_existing"`
	Locale          string   `json:"locale"`
	Seed            *int64   `json:"seed"`
}

type commentsBody struct {
	PostType            string  `json:"post_type"`
	PostIDs             []int64 `json:"post_ids"`
	CommentsPerPostMin  *int    `json:"comments_per_post_min"`
	CommentsPerPostMax  *int    `json:"comments_per_post_max"`
	EnableThreading     *bool   `json:"enable_threading"`
	ReplyProbability    *int    `json:"reply_probability"`
	PendingPercentage   *int    `json:"pending_percentage"`
	AnonymousPercentage *int    `json:"anonymous_percentage"`
	AvatarPercentage    *int    `json:"avatar_percentage"`
	AvatarProvider      string  `json:"avatar_provider"`
	Locale              string  `json:"locale"`
	DeleteExisting      bool    `json:"delete_existing"`
	DateFrom            string  `json:"date_from"`
	DateTo              string  `json:"date_to"`
	Seed                *int64  `json:"seed"`
}

func (b *commentsBody) request() (contentgen.CommentsRequest, error) {
	from, to, err := dateRange(b.DateFrom, b.DateTo)
	return contentgen.CommentsRequest{
		PostType: b.PostType, PostIDs: b.PostIDs,
		CommentsPerPostMin: b.CommentsPerPostMin, CommentsPerPostMax: b.CommentsPerPostMax,
		EnableThreading: b.EnableThreading, ReplyProbability: b.ReplyProbability,
		PendingPercentage: b.PendingPercentage, AnonymousPercentage: b.AnonymousPercentage,
		AvatarPercentage: b.AvatarPercentage, AvatarProvider: b.AvatarProvider,
		Locale: b.Locale, DeleteExisting: b.DeleteExisting, DateFrom: from, DateTo: to, Seed: b.Seed,
	}, err
}

type deleteBody struct {
	Type  string  `json:"type"`
	IDs   []int64 `json:"ids"`
	Force bool    `json:"force"`
}

type deletePostsBody struct {
	PostType              string `json:"post_type"`
	DeleteScope           string `json:"delete_scope"`
	DeleteRelatedMedia    *bool  `json:"delete_related_media"`
	DeleteRelatedTerms    *bool  `json:"delete_related_terms"`
	DeleteRelatedAuthors  *bool  `json:"delete_related_authors"`
	DeleteRelatedComments *bool  `json:"delete_related_comments"`
	DeleteRelatedCPTs     bool   `json:"delete_related_cpts"`
}

type downloadBody struct {
	Count       *int   `json:"count"`
	Provider    string `json:"provider"`
	Category    string `json:"category"`
	Width       *int   `json:"width"`
	Height      *int   `json:"height"`
	AspectRatio string `json:"aspect_ratio"`
	RandomSize  bool   `json:"random_size"`
	WidthMin    *int   `json:"width_min"`
	WidthMax    *int   `json:"width_max"`
	Seed        *int64 `json:"seed"`
}

// aiSettingsBody is the body of POST /settings/ai.
type aiSettingsBody struct {
	Enabled            *bool   `json:"enabled"`
	Provider           *string `json:"provider"`
	SecondaryAIEnabled *bool   `json:"secondary_ai_enabled"`
	AIOneAPIKey        *string `json:"ai_one_api_key"`
	AITwoAPIKey        *string `json:"ai_two_api_key"`
	AIThreeAPIKey      *string `json:"ai_three_api_key"`
}

// apply sets what b carries on s.
func (b *aiSettingsBody) apply(s *contentgen.Settings) {
	if b.Enabled != nil {
		s.AI.Enabled = *b.Enabled
	}
	if b.SecondaryAIEnabled != nil {
		s.AI.SecondaryEnabled = *b.SecondaryAIEnabled
	}
	if b.Provider != nil {
		s.AI.Provider = *b.Provider
	}
	for slug, key := range map[string]*string{contentgen.AIOne: b.AIOneAPIKey, contentgen.AITwo: b.AITwoAPIKey, contentgen.AIThree: b.AIThreeAPIKey} {
		if key != nil {
			s.AI.Keys[slug] = *key
		}
	}
}

// Preferences are the settings of the admin page and of the API's own
// messages, stored beside the Generator's (see
// contentgen.SettingsService.GetWith) and tagged the same way as
// contentgen.Settings: json is the name, default the initial value,
// setting the values allowed.
type Preferences struct {
	// AdminLocale is the language of the admin page and of the API's
	// messages: "auto" (the site's) or a locale code.
	AdminLocale               string `json:"admin_locale" setting:"locale" default:"auto"`
	DeleteHistoryOnDeactivate bool   `json:"delete_history_on_deactivate"`
	// TelemetryEnabled is stored and reported only: nothing is sent
	// anywhere, whatever its value.
	TelemetryEnabled       bool   `json:"telemetry_enabled" default:"true"`
	SaveAndGenerateAutoRun bool   `json:"save_and_generate_auto_run" default:"true"`
	ChildGenerateBehavior  string `json:"child_generate_behavior" setting:"ask|child_only|parent_chain" default:"ask"`
}

// LoadPreferences returns the stored preferences of g's admin page.
func LoadPreferences(ctx context.Context, g *contentgen.Generator) (Preferences, error) {
	var p Preferences
	_, err := g.Settings().GetWith(ctx, &p)
	return p, err
}

// generalSettings is the general part of the settings record, the
// Generator's settings and the preferences in one object, and the body of
// POST /settings.
type generalSettings struct {
	contentgen.GeneralSettings
	Preferences
}

// aiSettings is the AI part of the settings record.
type aiSettings struct {
	Enabled            bool   `json:"enabled"`
	Provider           string `json:"provider"`
	HasAPIKey          bool   `json:"has_api_key"`
	SecondaryAIEnabled bool   `json:"secondary_ai_enabled"`
}

type aiProviderKey struct {
	HasAPIKey    bool   `json:"has_api_key"`
	MaskedAPIKey string `json:"masked_api_key"`
}

type aiSettingsDetail struct {
	aiSettings
	Providers map[string]aiProviderKey `json:"providers"`
}

func newAISettings(s *contentgen.Settings) aiSettings {
	return aiSettings{Enabled: s.AI.Enabled, Provider: s.AI.Provider, HasAPIKey: s.AI.Keys[s.AI.Provider] != "", SecondaryAIEnabled: s.AI.SecondaryEnabled}
}

func newAISettingsDetail(s *contentgen.Settings) aiSettingsDetail {
	d := aiSettingsDetail{aiSettings: newAISettings(s), Providers: map[string]aiProviderKey{}}
	for slug, masked := range s.AI.Keys {
		d.Providers[slug] = aiProviderKey{HasAPIKey: masked != "", MaskedAPIKey: masked}
	}
	return d
}

// postsRecord is the answer of a posts run.
type postsRecord struct {
	Success  bool     `json:"success"`
	Count    int      `json:"count"`
	IDs      []int64  `json:"ids"`
	Message  string   `json:"message"`
	Warnings []string `json:"warnings"`
	PostsCounts
	TimeSaved string `json:"time_saved"`
}

// PostsCounts are the variation_stats and auto_created objects of the
// answer of a posts run: what the run made besides the posts. The command
// line's --json result of a posts run carries the same two objects.
type PostsCounts struct {
	VariationStats variationStats `json:"variation_stats"`
	AutoCreated    autoCreated    `json:"auto_created"`
}

type variationStats struct {
	WithFeaturedImage    int `json:"with_featured_image"`
	WithoutFeaturedImage int `json:"without_featured_image"`
}

type autoCreated struct {
	Authors       int            `json:"authors"`
	Terms         map[string]int `json:"terms"`
	Comments      int            `json:"comments"`
	RelatedPosts  int            `json:"related_posts"`
	RelatedPerCPT map[string]int `json:"related_per_cpt"`
}

// NewPostsCounts returns the counts of the posts run res.
func NewPostsCounts(res *contentgen.PostsResult) PostsCounts {
	return PostsCounts{
		VariationStats: variationStats{res.WithFeaturedImage, res.WithoutFeaturedImage},
		AutoCreated: autoCreated{
			Authors: res.Authors, Terms: res.Terms, Comments: res.Comments,
			RelatedPosts: res.RelatedTotal(), RelatedPerCPT: res.RelatedPosts,
		},
	}
}

func newPostsRecord(res *contentgen.PostsResult, m messages) postsRecord {
	return postsRecord{
		Success: true, Count: len(res.IDs), IDs: res.IDs,
		Message: m.PostsGenerated(len(res.IDs)) + m.AIText(res.AIText), Warnings: nonNil(res.Warnings),
		PostsCounts: NewPostsCounts(res),
		TimeSaved:   newDuration(res.TimeSaved).Formatted,
	}
}

// itemsRecord is the answer of a terms, users or comments run.
type itemsRecord struct {
	Success      bool     `json:"success"`
	Count        int      `json:"count"`
	IDs          []int64  `json:"ids"`
	DeletedCount int      `json:"deleted_count"`
	Message      string   `json:"message"`
	Warnings     []string `json:"warnings"`
	TimeSaved    string   `json:"time_saved"`
}

func newItemsRecord(res *contentgen.Result, msg string) itemsRecord {
	return itemsRecord{
		Success: true, Count: len(res.IDs), IDs: res.IDs, DeletedCount: res.Deleted,
		Message: msg, Warnings: nonNil(res.Warnings), TimeSaved: newDuration(res.TimeSaved).Formatted,
	}
}

// duration is a time-saved value.
type duration struct {
	Hours          int    `json:"hours"`
	Minutes        int    `json:"minutes"`
	Seconds        int    `json:"seconds"`
	TotalSeconds   int64  `json:"total_seconds"`
	Formatted      string `json:"formatted"`
	FormattedShort string `json:"formatted_short"`
}

func newDuration(d time.Duration) duration {
	total := max(int64(d/time.Second), 0)
	out := duration{Hours: int(total / 3600), Minutes: int(total % 3600 / 60), Seconds: int(total % 60), TotalSeconds: total}
	var parts []string
	if out.Hours > 0 {
		parts = append(parts, unit(out.Hours, "hour"))
	}
	if out.Minutes > 0 {
		parts = append(parts, unit(out.Minutes, "minute"))
	}
	out.Formatted = strings.Join(parts, " ")
	if len(parts) == 0 {
		out.Formatted = unit(out.Seconds, "second")
	}
	switch {
	case out.Hours > 0:
		out.FormattedShort = fmt.Sprintf("%dh %dm", out.Hours, out.Minutes)
	case out.Minutes > 0:
		out.FormattedShort = fmt.Sprintf("%dm", out.Minutes)
	default:
		out.FormattedShort = fmt.Sprintf("%ds", out.Seconds)
	}
	return out
}

func unit(n int, name string) string {
	if n == 1 {
		return "1 " + name
	}
	return strconv.Itoa(n) + " " + name + "s"
}

// timeSavings is the report of GET /time-saved.
type timeSavings struct {
	Total              duration            `json:"total"`
	ByType             map[string]duration `json:"by_type"`
	WorkDaysEquivalent float64             `json:"work_days_equivalent"`
	MoneySaved         moneySaved          `json:"money_saved"`
	LastUpdated        *string             `json:"last_updated"`
	EstimatesBasedOn   map[string]string   `json:"estimates_based_on"`
}

type moneySaved struct {
	Amount     float64 `json:"amount"`
	Currency   string  `json:"currency"`
	HourlyRate float64 `json:"hourly_rate"`
}

func newTimeSavings(t *contentgen.TimeSaved) timeSavings {
	total := t.Posts + t.Terms + t.Users + t.Comments
	hours := total.Hours()
	ts := timeSavings{
		Total: newDuration(total),
		ByType: map[string]duration{
			"posts": newDuration(t.Posts), "terms": newDuration(t.Terms),
			"users": newDuration(t.Users), "comments": newDuration(t.Comments),
		},
		WorkDaysEquivalent: math.Round(hours/8*100) / 100,
		MoneySaved:         moneySaved{Amount: finite(math.Round(hours*t.HourlyRate*100) / 100), Currency: "USD", HourlyRate: t.HourlyRate},
		EstimatesBasedOn: map[string]string{
			"post_basic":                 minutes(contentgen.PostBasicWork),
			"post_with_image_and_fields": minutes(contentgen.PostRichWork),
			"term":                       minutes(contentgen.TermWork),
			"user":                       minutes(contentgen.UserWork),
			"comment":                    minutes(contentgen.CommentWork),
		},
	}
	ts.LastUpdated = stamp(t.LastUpdated)
	return ts
}

// finite returns v, or the largest float of its sign when v has
// overflowed to an infinity (a huge hourly rate times many hours), which
// JSON cannot carry.
func finite(v float64) float64 {
	switch {
	case math.IsInf(v, 1):
		return math.MaxFloat64
	case math.IsInf(v, -1):
		return -math.MaxFloat64
	}
	return v
}

// minutes writes d as "3 minutes" or "1.5 minutes".
func minutes(d time.Duration) string {
	return strconv.FormatFloat(d.Minutes(), 'f', -1, 64) + " minutes"
}

// timestamp formats t the way records carry timestamps: "YYYY-MM-DD
// HH:MM:SS".
func timestamp(t time.Time) string { return t.Format(time.DateTime) }

// stamp is timestamp for optional times: nil for the zero time.
func stamp(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := timestamp(t)
	return &s
}
