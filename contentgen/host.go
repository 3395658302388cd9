package contentgen

import (
	"context"
	"errors"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/templates"
)

// Errors a Host wraps so that the Generator can tell its failures apart.
var (
	// ErrHostNotFound is returned (possibly wrapped) by Host methods that
	// look up a single object that does not exist.
	ErrHostNotFound = errors.New("contentgen: host object not found")
	// ErrHostConflict is wrapped by Host errors for a unique-value clash
	// (a term slug, a login, an e-mail address). The Generator retries
	// the batch with new values a bounded number of times.
	ErrHostConflict = errors.New("contentgen: unique value clash")
	// ErrHostReference is wrapped by Host errors for a create that names
	// an object that does not exist (an author, parent, term, post or
	// media item), typically one deleted by a concurrent request. The
	// Generator re-reads what it refers to and retries the batch.
	ErrHostReference = errors.New("contentgen: reference to a missing object")
	// ErrHostFull is wrapped by Host (and store) errors for a write that
	// failed because the storage is full: the disk of a database or of
	// media files, or a database's own size limit. Nothing of the failed
	// write is kept. Deletes must keep working while the storage is full,
	// so that a cleanup can free space.
	ErrHostFull = errors.New("contentgen: storage full")
)

// Host is the content platform's storage, the only way the library reaches
// it. Embedders implement it; memhost is the in-memory implementation and
// hosttest the conformance suite every implementation should run.
//
// A Host must be safe for concurrent use.
//
// Contract for every method:
//   - ctx: a method returns ctx.Err() (possibly wrapped) when ctx is done
//     before it commits its work, and then writes nothing.
//   - nil or empty slices: a create or delete of nothing succeeds and does
//     nothing. In a query, zero fields do not filter, except IDs: a query
//     whose IDs filter is set by OnlyIDs keeps exactly those ids, and none
//     when the list is empty.
//   - batches: Create* methods store all items or none and return the new
//     ids in input order; the input slices, and the maps and slices the
//     items hold, are neither modified nor kept after the call (a host
//     stores copies): the Generator reuses them, and items of a batch may
//     share them.
//   - not found: deletes ignore ids that do not exist; queries return an
//     empty result; Meta returns ErrHostNotFound.
//   - invalid input: a create referring to an unregistered post type or
//     taxonomy fails the whole batch; one referring to an author, parent,
//     term, post or media item that does not exist fails it with an error
//     wrapping ErrHostReference, checked inside the write so that a
//     concurrent delete cannot slip in between.
//
// Optional capabilities are discovered by type assertion: Trasher,
// Transactor, Exister, PostDeleter, MediaStorer and Lister; what a host stores
// besides content it says through Describer.
type Host interface {
	// Site describes the installation.
	Site(ctx context.Context) (Site, error)
	// PostTypes lists every registered post type with live Count.
	PostTypes(ctx context.Context) ([]PostType, error)
	// Taxonomies lists every registered taxonomy with live Count.
	Taxonomies(ctx context.Context) ([]Taxonomy, error)
	// Roles lists the registered roles.
	Roles(ctx context.Context) ([]Role, error)

	// CreatePosts stores posts (ID ignored) with their terms and meta. The
	// post type must be registered.
	CreatePosts(ctx context.Context, posts []Post) ([]int64, error)
	// Posts returns the posts matching q, ordered by id.
	Posts(ctx context.Context, q PostQuery) ([]Post, error)
	// DeletePosts removes posts permanently, with their meta, term links
	// and comments; child posts and attached media move to the removed
	// post's parent.
	DeletePosts(ctx context.Context, ids []int64) error

	// CreateTerms stores terms; a ParentID must name an existing term of the
	// same taxonomy (create parents in an earlier call). Slugs are unique
	// per taxonomy: a clash fails the whole batch with an error wrapping
	// ErrHostConflict.
	CreateTerms(ctx context.Context, terms []Term) ([]int64, error)
	// Terms returns the terms matching q, ordered by id.
	Terms(ctx context.Context, q TermQuery) ([]Term, error)
	// DeleteTerms removes terms and their post links; children of a removed
	// term move to its parent.
	DeleteTerms(ctx context.Context, ids []int64) error

	// CreateUsers stores users. Logins and e-mail addresses must be unique:
	// a clash fails the whole batch with an error wrapping ErrHostConflict.
	CreateUsers(ctx context.Context, users []User) ([]int64, error)
	// Users returns the users matching q, ordered by id.
	Users(ctx context.Context, q UserQuery) ([]User, error)
	// DeleteUsers removes users. Posts of a removed user are reassigned to
	// reassignTo when it is non-zero and removed otherwise; reassignTo must
	// exist and not be among ids. Comments of a removed user stay, as
	// anonymous comments.
	DeleteUsers(ctx context.Context, ids []int64, reassignTo int64) error

	// CreateComments stores comments; a ParentID must name an existing
	// comment on the same post (create parents in an earlier call).
	CreateComments(ctx context.Context, comments []Comment) ([]int64, error)
	// Comments returns the comments matching q, ordered by id.
	Comments(ctx context.Context, q CommentQuery) ([]Comment, error)
	// DeleteComments removes comments permanently; replies to a removed
	// comment move to its parent.
	DeleteComments(ctx context.Context, ids []int64) error

	// CreateMedia stores media records.
	CreateMedia(ctx context.Context, media []Media) ([]int64, error)
	// Media returns the media records matching q, ordered by id.
	Media(ctx context.Context, q MediaQuery) ([]Media, error)
	// DeleteMedia removes media records (and stored bytes, when the host
	// keeps them); posts using a removed item as featured image lose it.
	DeleteMedia(ctx context.Context, ids []int64) error

	// Meta returns a copy of the meta of an object, or ErrHostNotFound.
	Meta(ctx context.Context, kind ObjectKind, id int64) (Meta, error)
	// SetMeta sets the given keys on an object, leaving others as they are;
	// ErrHostNotFound when the object does not exist.
	SetMeta(ctx context.Context, kind ObjectKind, id int64, m Meta) error
}

// IDFilter restricts a query to a list of ids. The zero value does not
// filter; OnlyIDs sets it, so that an empty list selects nothing instead of
// everything.
type IDFilter struct {
	ids []int64
	set bool
}

// OnlyIDs returns a filter keeping exactly ids; none when ids is empty.
func OnlyIDs(ids ...int64) IDFilter { return IDFilter{ids: ids, set: true} }

// Active reports whether the filter restricts the query; List returns its
// ids (possibly none). Hosts check Active before List.
func (f IDFilter) Active() bool { return f.set }

// List returns the ids the filter keeps. The slice must not be modified.
func (f IDFilter) List() []int64 { return f.ids }

// PostQuery selects posts. Zero fields do not filter. MetaKey without
// MetaValue keeps objects that have the key; the same holds for the other
// queries.
type PostQuery struct {
	IDs      IDFilter
	Types    []string
	Statuses []string
	AuthorID int64
	// MetaKey and MetaValue keep posts whose meta has that key and value.
	MetaKey, MetaValue string
	// Search matches the title, case-insensitively.
	Search string
	// Limit caps the result; 0 means no cap.
	Limit  int
	Offset int
}

// TermQuery selects terms. Zero fields do not filter.
type TermQuery struct {
	IDs        IDFilter
	Taxonomies []string
	// Parent keeps terms with this parent when HasParent is set (0 = top level).
	Parent    int64
	HasParent bool
	// Search matches the name, case-insensitively.
	Search             string
	MetaKey, MetaValue string
	Limit              int
	Offset             int
	// Bare tells the host that the caller reads only ID, Taxonomy, Name,
	// Slug, Description and ParentID: a host may then leave Meta and
	// Count unset, which spares it counting the posts of every term.
	Bare bool
}

// UserQuery selects users. Zero fields do not filter.
type UserQuery struct {
	IDs   IDFilter
	Roles []string
	// Login and Email match exactly (e-mail case-insensitively).
	Login, Email string
	// Search matches login, display name or e-mail, case-insensitively.
	Search             string
	MetaKey, MetaValue string
	Limit              int
	Offset             int
}

// CommentQuery selects comments. Zero fields do not filter.
type CommentQuery struct {
	IDs                IDFilter
	PostIDs            IDFilter
	Statuses           []string
	MetaKey, MetaValue string
	Limit              int
	Offset             int
}

// MediaQuery selects media records. Zero fields do not filter.
type MediaQuery struct {
	IDs IDFilter
	// MIMEPrefixes keeps items whose MIME type starts with one of these,
	// such as "image/".
	MIMEPrefixes []string
	// Search matches the title, case-insensitively.
	Search             string
	MetaKey, MetaValue string
	Limit              int
	Offset             int
}

// Trasher is implemented by hosts with a trash. Trashed posts and comments
// keep their meta and can be found by queries for status "trash".
type Trasher interface {
	TrashPosts(ctx context.Context, ids []int64) error
	TrashComments(ctx context.Context, ids []int64) error
}

// Transactor is implemented by hosts that can run several calls in one
// transaction. fn receives a Host bound to the transaction; when fn returns
// an error, panics or ctx ends before the commit, nothing it did is kept.
// fn must make its calls on the Host it receives.
type Transactor interface {
	InTx(ctx context.Context, fn func(ctx context.Context, tx Host) error) error
}

// Exister is implemented by hosts that check the existence of many objects
// in one call. The result has one entry per id, in order.
type Exister interface {
	Exist(ctx context.Context, kind ObjectKind, ids []int64) ([]bool, error)
}

// PostDeleter is implemented by hosts that delete posts with their
// comments, term links and the meta of both in bulk and say which
// comments went, so that deleting a batch of posts costs the same
// whatever the size of the site.
type PostDeleter interface {
	// DeletePostsWithComments removes posts permanently, as DeletePosts
	// does, and returns the ids of the comments removed with them,
	// ascending (none for none). Ids that do not exist are ignored.
	DeletePostsWithComments(ctx context.Context, ids []int64) ([]int64, error)
}

// MediaStorer is implemented by hosts that keep the bytes of media items.
//
// On a host that keeps no files (one without MediaStorer, or one whose
// Capabilities say MediaRecordsOnly, or whose StoreMedia fails with an
// error wrapping errors.ErrUnsupported), the Generator keeps a generated
// image as a record of the URL it came from (CreateMedia, without sizes)
// and leaves out, with a warning, an image that has none (such as those
// drawn by provider_local); uploads then fail.
type MediaStorer interface {
	// StoreMedia stores m with its bytes, and the bytes of its Sizes, and
	// returns the new id; the host sets the URLs of the item and its sizes
	// and Filesize, and does not keep MediaSize.Data in the record.
	StoreMedia(ctx context.Context, m Media, data []byte) (int64, error)
	// MediaBytes returns the stored bytes of an item, or ErrHostNotFound
	// (also for records made by CreateMedia, which have no bytes).
	MediaBytes(ctx context.Context, id int64) ([]byte, string, error)
}

// Capabilities is what a host says about itself through Describer: the
// stores it keeps beside its content and what it can keep. New reads it
// once; the Generator adds what the host lacks (in-memory stores, the
// default batch size, keeping images as records of their URLs). The zero
// value describes a host that keeps content only, as a host without
// Describer does.
type Capabilities struct {
	// History, Templates and State are the stores the host keeps in its
	// own storage, such as tables of the same database, so that a batch
	// of content and its history entries commit in one transaction of the
	// host (Transactor). New uses them when its hist argument, or
	// Config.Templates or Config.State, is nil; nil means the host keeps
	// none.
	History   history.Store
	Templates templates.Store
	State     StateStore
	// MediaRecordsOnly is set by a host that implements MediaStorer but,
	// as it is set up, keeps no media files (a WordPress site opened
	// without its uploads directory, a SQL host without a media
	// directory). The Generator then never calls StoreMedia and treats
	// the host as one without MediaStorer (see MediaStorer).
	MediaRecordsOnly bool
	// BatchSize is the number of items per write that suits the host,
	// used when Config.BatchSize is zero; 0 means the Generator's default.
	BatchSize int
}

// Describer is implemented by hosts that keep more than content (the
// Generator's history, templates and state) or that know a better batch
// size, or whose media storage depends on how they are set up. Its
// result must not change over the life of the host.
type Describer interface {
	Capabilities() Capabilities
}
