package contentgen

import (
	"time"

	"github.com/contentgen/contentgen/locales/markup"
	"github.com/contentgen/contentgen/templates"
)

// Event is a progress report of a generation run: an EventInfo or
// EventWarning with a human-readable message.
type Event struct {
	Type    string
	Message string
	// Done and Total, when Total is positive, say that Done of the Total
	// items of a step of the run are done, so that a progress bar needs
	// not read the message; Items names what they count.
	Done, Total int
	// Items is what Done and Total count: ItemsPosts (the posts of a
	// posts run now written), ItemsImages (images made, featured images
	// or avatars) or ItemsStoredImages (those images stored on the
	// site).
	Items string
}

// What the Done and Total of an Event count.
const (
	ItemsPosts        = "posts"
	ItemsImages       = "images"
	ItemsStoredImages = "stored images"
)

// Event types.
const (
	EventInfo    = "info"
	EventWarning = "warning"
)

// Variation profiles of PostsRequest.VariationProfile.
const (
	ProfileRandom  = "random"
	ProfileMinimal = "minimal"
	ProfilePartial = "partial"
)

// ContentFormat is the format of post bodies and wysiwyg field values (see
// PostsRequest.ContentFormat). It is markup.Format, so values of either
// package mix freely.
type ContentFormat = markup.Format

// Content formats of PostsRequest.ContentFormat.
const (
	// FormatHTML is plain HTML, one element per line (the default).
	FormatHTML ContentFormat = markup.HTML
	// FormatBlocks is the block editor's serialised block markup:
	// paragraph, heading and list blocks the editor opens without
	// flagging unexpected content.
	FormatBlocks ContentFormat = markup.Blocks
	// FormatMarkdown is CommonMark, for static-site generators.
	FormatMarkdown ContentFormat = markup.Markdown
)

// PostsRequest asks for posts. Nil and zero fields take their defaults:
// those of the settings where a setting exists, else the ones documented
// on the field.
type PostsRequest struct {
	// PostType is the type of the posts; "" means "post".
	PostType string
	// Count is the number of posts, 1 to Config.MaxCount; nil means the
	// default_post_count setting.
	Count *int
	// PostStatus is publish (the default), draft, pending, private,
	// future or random (one of those per post).
	PostStatus string
	// SetFeaturedImage (default true) gives posts of types that support
	// thumbnails a featured image from ImageProvider (default: the
	// default_image_provider setting) of ImageCategory, sized ImageWidth
	// by ImageHeight (default 1200 by 800, each 100 to 4000).
	SetFeaturedImage *bool
	DownloadImages   *bool
	ImageProvider    string
	ImageCategory    string
	ImageWidth       *int
	ImageHeight      *int

	// PopulateCustomFields (default true) fills the post type's custom
	// fields; AutoTaxonomies (default true) files posts under terms of the
	// post type's public taxonomies.
	PopulateCustomFields *bool
	AutoTaxonomies       *bool

	// DeleteExistingBeforeGenerate first removes the generated posts of
	// the type as DeletePosts would, with the Delete* options below
	// (defaults from the settings) and DeleteScope (current_type or all).
	DeleteExistingBeforeGenerate bool
	DeleteRelatedMedia           *bool
	DeleteRelatedTerms           *bool
	DeleteRelatedAuthors         *bool
	DeleteRelatedComments        *bool
	DeleteScope                  string

	// TaxonomyConfig configures taxonomies one by one; it overrides the
	// template's setting of each taxonomy it names.
	TaxonomyConfig templates.TaxonomyConfig

	// AutoComments adds CommentsPerPostMin to CommentsPerPostMax (default
	// 0 to 10) comments to each post, threaded (default true) with
	// CommentReplyProbability percent of replies (default 40).
	AutoComments            bool
	CommentsPerPostMin      *int
	CommentsPerPostMax      *int
	EnableCommentThreading  *bool
	CommentReplyProbability *int

	// RelatedPosts overrides, per target post type, the related posts
	// created for relational fields.
	RelatedPosts map[string]RelatedPostsOption
	// TemplateID names the template to use; 0 means the post type's
	// default template when the auto_select_default_template setting is
	// on, else none.
	TemplateID int64
	// FieldConfig overrides the template's setting of each field it names.
	FieldConfig *templates.FieldConfig

	// EnableVariation (default false) varies the posts by
	// VariationProfile (default ProfileRandom).
	EnableVariation  *bool
	VariationProfile string
	// Locale is the language of the content; "" or "auto" means the
	// locale setting.
	Locale string
	// ContentFormat is the format of the post bodies, of the wysiwyg
	// custom field values and of related posts: FormatHTML,
	// FormatBlocks or FormatMarkdown. "" means the ContentFormat of the
	// field configuration (FieldConfig merged over the template's), else
	// FormatHTML. Excerpts stay plain text in every format.
	ContentFormat ContentFormat
	// TextSource is where the titles, bodies, excerpts and comments come
	// from: TextSourceLorem, TextSourceRealText or TextSourceAI. "" means
	// the TextSource of the field configuration (FieldConfig merged over
	// the template's), else the text_source setting.
	TextSource string
	// DateFrom and DateTo bound the dates of the posts and their comments
	// (zero: within the last year, up to now). Posts that are not
	// scheduled are never dated after now; scheduled (future) posts are
	// dated after now, up to DateTo when it is later. Comments come after
	// their post, replies after the comment they answer.
	DateFrom, DateTo time.Time

	// Seed fixes every random choice of the run.
	Seed *int64

	// Progress, when set, receives events as the run proceeds. It is called
	// from the generating goroutine and must not block for long. It is not
	// kept when a request is stored (as package runs stores its requests).
	Progress func(Event) `json:"-"`
}

// RelatedPostsOption overrides the creation of related posts of one post
// type.
type RelatedPostsOption struct {
	// Enabled false stops related posts of the type from being created.
	Enabled *bool
	// Count is the number of related posts to create, 0 to MaxCount.
	Count *int
	// TemplateID is the template they are made with.
	TemplateID int64
}

// TermsRequest asks for taxonomy terms.
type TermsRequest struct {
	// Taxonomy is the taxonomy; "" means "category".
	Taxonomy string
	// Count (default: the default_term_count setting) is the number of
	// flat terms.
	Count *int
	// GenerateHierarchy builds a tree of Depth levels (1-5, default 3)
	// with Breadth children per term (1-10, default 3) instead, in
	// hierarchical taxonomies.
	GenerateHierarchy bool
	Depth             *int
	Breadth           *int
	// DeleteExisting first removes the taxonomy's generated terms.
	DeleteExisting bool
	Locale         string
	Seed           *int64
}

// UsersRequest asks for user accounts.
type UsersRequest struct {
	// Count (default: the default_user_count setting).
	Count *int
	// Role gives every user this role; else each gets one of AllowedRoles
	// (default subscriber, contributor, author).
	Role         string
	AllowedRoles []string
	// GenerateAvatars (default true) draws a portrait per user from
	// AvatarProvider (default: the DefaultImageProvider setting).
	GenerateAvatars *bool
	AvatarProvider  string
	// DeleteExisting first removes all generated users.
	DeleteExisting bool
	Locale         string
	Seed           *int64
}

// CommentsRequest asks for comments on existing posts: the published posts
// of PostType (default "post"), or the posts PostIDs names.
type CommentsRequest struct {
	PostType string
	PostIDs  []int64
	// CommentsPerPostMin to CommentsPerPostMax (default 1 to 15, each
	// 1-100) comments per post.
	CommentsPerPostMin *int
	CommentsPerPostMax *int
	// EnableThreading (default true) makes ReplyProbability percent
	// (default 40) of the comments replies.
	EnableThreading  *bool
	ReplyProbability *int
	// Percentages of pending (default 10), anonymous (default 70) and
	// avatar-carrying (default 60) comments.
	PendingPercentage   *int
	AnonymousPercentage *int
	AvatarPercentage    *int
	// AvatarProvider draws the avatars (default: the DefaultImageProvider
	// setting).
	AvatarProvider string
	Locale         string
	// DateFrom and DateTo bound the dates of the comments, which always
	// come after their post (and replies after their parent) and never
	// after now.
	DateFrom, DateTo time.Time
	// DeleteExisting first removes the generated comments on posts of
	// PostType.
	DeleteExisting bool
	Seed           *int64

	// Count, when set, is the number of comments to make, 1 to
	// Config.MaxCount, instead of CommentsPerPostMin to CommentsPerPostMax
	// on every post (an extension of the library, not a parameter of the
	// specification's endpoint): the posts take turns, in the order of
	// their ids from the one at position FirstPost (modulo their number),
	// each getting CommentsPerPostMin to CommentsPerPostMax comments (the
	// last one what is left), round to the first again when Count needs
	// more. Of the published posts of PostType, only as many as Count
	// needs are read. No post to comment on is an error then.
	Count *int
	// FirstPost is the position of the post that takes the first turn
	// with Count, 0 or more; it lets requests in a row (the batches of a
	// run) walk the posts instead of starting at the first each time.
	FirstPost int
}

// DeletePostsRequest removes generated posts and, on request, what was
// generated with them.
type DeletePostsRequest struct {
	PostType string
	// DeleteScope is current_type (the default) or all post types.
	DeleteScope string
	// DeleteRelatedMedia, DeleteRelatedTerms and DeleteRelatedAuthors
	// remove the featured images, terms and authors generated with the
	// posts; nil means the setting of the same name (true by default).
	// The DeleteMediaWithPosts setting removes the images whatever the
	// request says.
	DeleteRelatedMedia   *bool
	DeleteRelatedTerms   *bool
	DeleteRelatedAuthors *bool
	// DeleteRelatedComments removes the generated comments on posts of the
	// scope, hand-made posts included; nil means the setting.
	DeleteRelatedComments *bool
	DeleteRelatedPosts    bool
}

// PostsResult is what a posts run made.
type PostsResult struct {
	// PostType is the post type of the new posts ("post" when the
	// request named none).
	PostType string
	// IDs are the new posts, in creation order.
	IDs []int64
	// Warnings are the distinct problems the run worked around (an image
	// that failed, a field without targets).
	Warnings []string
	// WithFeaturedImage and WithoutFeaturedImage count the posts by
	// whether they got a featured image.
	WithFeaturedImage, WithoutFeaturedImage int
	// Authors, Terms (per taxonomy), Comments and RelatedPosts (per post
	// type) count what the run created besides the posts.
	Authors      int
	Terms        map[string]int
	Comments     int
	RelatedPosts map[string]int
	// CommentIDs are the auto comments, in creation order.
	CommentIDs []int64
	// TimeSaved is the estimated work a person would have spent.
	TimeSaved time.Duration
	// TextSource is the text source the run used; AIText, set when it is
	// TextSourceAI, says what the AI provider wrote and the tokens it
	// took.
	TextSource string
	AIText     *AITextStats
}

// RelatedTotal is the number of related posts the run created, of every
// post type.
func (r *PostsResult) RelatedTotal() int {
	n := 0
	for _, c := range r.RelatedPosts {
		n += c
	}
	return n
}

// Result is what a terms, users or comments run, or a media download,
// made.
type Result struct {
	// IDs are the new items, in creation order.
	IDs []int64
	// Deleted counts the generated items removed first (DeleteExisting).
	Deleted int
	// Posts is the number of posts a comments run commented on.
	Posts int
	// Requested is the number of items a media download asked for.
	Requested int
	// Taxonomy is the taxonomy a terms run wrote to.
	Taxonomy string
	Warnings []string
	// TimeSaved is the estimated work a person would have spent.
	TimeSaved time.Duration
	// AIText, set for a comments run whose text source is TextSourceAI,
	// says what the AI provider wrote and the tokens it took.
	AIText *AITextStats
}

// Removed counts what a deletion removed.
type Removed struct {
	Posts, Terms, Users, Comments, Media int
	// RelatedPosts counts the related posts removed, per post type.
	RelatedPosts map[string]int
	// Trashed is set when posts or comments went to the host's trash
	// instead of being deleted.
	Trashed bool
}
