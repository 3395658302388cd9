package contentgen

import (
	"github.com/contentgen/contentgen/templates"
)

// Ptr returns a pointer to v, for the optional fields of requests.
func Ptr[T any](v T) *T { return &v }

// Event is a progress report of a generation run.
type Event struct {
	// Type is "info" or "warning".
	Type    string `json:"type"`
	Message string `json:"message"`
}

// Event types.
const (
	EventInfo     = "info"
	EventWarning  = "warning"
	EventComplete = "complete"
)

// PostsRequest asks for posts. Nil and zero fields take the defaults of the
// specification, or of the settings where a setting exists.
type PostsRequest struct {
	PostType         string `json:"post_type"`
	Count            *int   `json:"count"`
	PostStatus       string `json:"post_status"`
	SetFeaturedImage *bool  `json:"set_featured_image"`
	DownloadImages   *bool  `json:"download_images"`
	ImageProvider    string `json:"image_provider"`
	ImageCategory    string `json:"image_category"`
	ImageWidth       *int   `json:"image_width"`
	ImageHeight      *int   `json:"image_height"`

	PopulateCustomFields *bool `json:"populate_custom_fields"`
	AutoTaxonomies       *bool `json:"auto_taxonomies"`

	DeleteExistingBeforeGenerate bool   `json:"delete_existing_before_generate"`
	DeleteRelatedMedia           *bool  `json:"delete_related_media"`
	DeleteRelatedTerms           *bool  `json:"delete_related_terms"`
	DeleteRelatedAuthors         *bool  `json:"delete_related_authors"`
	DeleteRelatedComments        *bool  `json:"delete_related_comments"`
	DeleteScope                  string `json:"delete_scope"`

	TaxonomyConfig templates.TaxonomyConfig `json:"taxonomy_config"`

	AutoComments            bool  `json:"auto_comments"`
	CommentsPerPostMin      *int  `json:"comments_per_post_min"`
	CommentsPerPostMax      *int  `json:"comments_per_post_max"`
	EnableCommentThreading  *bool `json:"enable_comment_threading"`
	CommentReplyProbability *int  `json:"comment_reply_probability"`

	RelatedCPTOptions map[string]RelatedCPTOption `json:"related_cpt_options"`
	TemplateID        int64                       `json:"template_id"`
	FieldConfig       *templates.FieldConfig      `json:"field_config"`

	EnableVariation  *bool  `json:"enable_variation"`
	VariationProfile string `json:"variation_profile"`
	Locale           string `json:"locale"`

	// Seed fixes every random choice of the run.
	Seed *int64 `json:"seed"`

	// Progress, when set, receives events as the run proceeds. It is called
	// from the generating goroutine and must not block for long.
	Progress func(Event) `json:"-"`
}

// RelatedCPTOption overrides the auto-creation of related posts of one
// post type.
type RelatedCPTOption struct {
	// Enabled false stops related posts of the type from being created.
	Enabled *bool `json:"enabled,omitempty"`
	// Count is the number of related posts to create.
	Count *int `json:"count,omitempty"`
	// TemplateID is the template used for them.
	TemplateID int64 `json:"template_id,omitempty"`
}

// TermsRequest asks for taxonomy terms.
type TermsRequest struct {
	Taxonomy          string `json:"taxonomy"`
	Count             *int   `json:"count"`
	GenerateHierarchy bool   `json:"generate_hierarchy"`
	Depth             *int   `json:"depth"`
	Breadth           *int   `json:"breadth"`
	DeleteExisting    bool   `json:"delete_existing"`
	Locale            string `json:"locale"`
	Seed              *int64 `json:"seed"`
}

// UsersRequest asks for user accounts.
type UsersRequest struct {
	Count           *int     `json:"count"`
	Role            string   `json:"role"`
	AllowedRoles    []string `json:"allowed_roles"`
	GenerateAvatars *bool    `json:"generate_avatars"`
	AvatarProvider  string   `json:"avatar_provider"`
	DeleteExisting  bool     `json:"delete_existing"`
	Locale          string   `json:"locale"`
	Seed            *int64   `json:"seed"`
}

// CommentsRequest asks for comments on existing posts.
type CommentsRequest struct {
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
	Seed                *int64  `json:"seed"`
}

// DeleteRequest removes generated items of one type.
type DeleteRequest struct {
	// Type is post, term, user or comment.
	Type string `json:"type"`
	// IDs, when non-empty, limits the deletion to these generated items.
	IDs []int64 `json:"ids"`
	// Force deletes permanently; otherwise posts and comments go to the
	// trash when the host has one.
	Force bool `json:"force"`
}

// DeletePostsRequest removes generated posts and, on request, what was
// generated with them.
type DeletePostsRequest struct {
	PostType              string `json:"post_type"`
	DeleteScope           string `json:"delete_scope"`
	DeleteRelatedMedia    bool   `json:"delete_related_media"`
	DeleteRelatedTerms    bool   `json:"delete_related_terms"`
	DeleteRelatedAuthors  bool   `json:"delete_related_authors"`
	DeleteRelatedComments bool   `json:"delete_related_comments"`
	DeleteRelatedCPTs     bool   `json:"delete_related_cpts"`
}
