package contentgen

import "time"

// Post statuses of the host platform.
const (
	StatusPublish = "publish"
	StatusDraft   = "draft"
	StatusPending = "pending"
	StatusPrivate = "private"
	StatusFuture  = "future"
	StatusTrash   = "trash"
)

// Comment statuses of the host platform.
const (
	CommentApproved = "approved"
	CommentPending  = "pending"
	CommentTrash    = "trash"
)

// MarkerKey is the meta key that marks an object as generated; its value is
// MarkerValue. Deletion trusts it (and the history) and nothing else.
const (
	MarkerKey   = "_svc_generated"
	MarkerValue = "1"
	// UploadedKey marks media imported through the service's upload endpoints.
	UploadedKey = "_svc_uploaded"
	// TemplateKey is the post meta key holding the id of the template used.
	TemplateKey = "_svc_template_id"
)

// ManageOptions is the capability every API call requires.
const ManageOptions = "manage_options"

// Meta is the metadata of a host object: key to string value.
type Meta map[string]string

// Generated reports whether m carries the generated marker.
func (m Meta) Generated() bool { return m[MarkerKey] == MarkerValue }

// PostType is a registered type of post.
type PostType struct {
	Name         string
	Label        string
	Labels       map[string]string
	Description  string
	Public       bool
	Hierarchical bool
	HasArchive   bool
	// Supports lists features such as "title", "editor", "author",
	// "thumbnail", "excerpt", "comments".
	Supports   []string
	Taxonomies []string
	MenuIcon   string
	// Internal types (attachments, menus, revisions) are never generated
	// into and never listed as content types.
	Internal bool
	// Count is the number of posts of the type per status, filled by the
	// host when it lists post types.
	Count map[string]int
}

// Taxonomy is a registered taxonomy.
type Taxonomy struct {
	Name         string
	Label        string
	Labels       map[string]string
	Hierarchical bool
	Public       bool
	PostTypes    []string
	// Count is the number of terms, filled by the host when it lists taxonomies.
	Count int
}

// Role is a user role and the capabilities it grants.
type Role struct {
	Slug         string
	Name         string
	Capabilities []string
}

// Post is one post of any post type.
type Post struct {
	ID       int64
	Type     string
	Status   string
	Title    string
	Content  string
	Excerpt  string
	AuthorID int64
	ParentID int64
	Date     time.Time
	// FeaturedMediaID is the id of the featured image, 0 for none.
	FeaturedMediaID int64
	// Terms maps taxonomy slug to term ids.
	Terms map[string][]int64
	Meta  Meta
}

// Term is a taxonomy term.
type Term struct {
	ID          int64
	Taxonomy    string
	Name        string
	Slug        string
	Description string
	ParentID    int64
	// Count is the number of posts using the term, filled by the host.
	Count int
	Meta  Meta
}

// User is a user account.
type User struct {
	ID          int64
	Login       string
	Email       string
	DisplayName string
	FirstName   string
	LastName    string
	Description string
	URL         string
	Roles       []string
	Registered  time.Time
	Meta        Meta
}

// Comment is a comment on a post.
type Comment struct {
	ID       int64
	PostID   int64
	ParentID int64
	// UserID is the commenting user, 0 for an anonymous visitor.
	UserID      int64
	AuthorName  string
	AuthorEmail string
	AuthorURL   string
	Content     string
	Status      string
	Date        time.Time
	Meta        Meta
}

// Media is a media library item (an attachment).
type Media struct {
	ID       int64
	Title    string
	Filename string
	MIMEType string
	URL      string
	Width    int
	Height   int
	Filesize int64
	// ParentID is the post the item is attached to, 0 for none.
	ParentID int64
	Date     time.Time
	// Sizes are the smaller renditions of an image, such as "thumbnail"
	// and "medium".
	Sizes []MediaSize
	Meta  Meta
}

// MediaSize is one rendition of a media item.
type MediaSize struct {
	// Name is the size's name, such as "thumbnail" or "medium".
	Name          string
	Width, Height int
	MIMEType      string
	// URL is where the rendition is served; MediaStorer sets it.
	URL string
	// Data is the encoded rendition, read only by MediaStorer.StoreMedia,
	// which stores it, sets URL and does not keep Data in the record.
	Data []byte
}

// ObjectKind names the kind of a host object for meta and existence calls.
type ObjectKind string

// Object kinds.
const (
	KindPost    ObjectKind = "post"
	KindTerm    ObjectKind = "term"
	KindUser    ObjectKind = "user"
	KindComment ObjectKind = "comment"
	KindMedia   ObjectKind = "media"
)

// Site describes the host installation.
type Site struct {
	Name string
	// URL is the public address of the site, without a trailing slash.
	URL string
	// AdminURL is the address of the administration interface.
	AdminURL string
	// Locale is the site language, such as "en_US".
	Locale string
}
