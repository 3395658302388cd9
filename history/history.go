package history

import (
	"context"
	"errors"
	"time"
)

// ErrNotFound is returned by Store methods when an entry does not exist.
var ErrNotFound = errors.New("history: entry not found")

// Content types of entries.
const (
	TypePost    = "post"
	TypeTerm    = "term"
	TypeUser    = "user"
	TypeComment = "comment"
	TypeMedia   = "media"
)

// Types returns every content type in the order the API reports them. The
// slice is new on every call.
func Types() []string { return []string{TypePost, TypeTerm, TypeUser, TypeComment, TypeMedia} }

// ValidType reports whether t is one of Types.
func ValidType(t string) bool {
	switch t {
	case TypePost, TypeTerm, TypeUser, TypeComment, TypeMedia:
		return true
	}
	return false
}

// Entry is the record of one generated item.
type Entry struct {
	// ID is assigned by the Store on Add; an ID set before Add is replaced.
	ID string
	// ContentType is one of Types.
	ContentType string
	// ContentID is the host platform's id of the item.
	ContentID int64
	// ContentSubtype is the post type slug for posts and the taxonomy slug
	// for terms; empty for the other types.
	ContentSubtype string
	// Meta holds the generation options at creation time. Values must be
	// JSON-encodable: string, bool, float64, int, []string, map[string]any.
	Meta map[string]any
	// CreatedAt is the creation time.
	CreatedAt time.Time
}

// Filter selects entries. The zero Filter selects all of them.
type Filter struct {
	// ContentType, when set, keeps entries of that type.
	ContentType string
	// ContentSubtypes, when non-empty, keeps entries with one of these subtypes.
	ContentSubtypes []string
	// ContentIDs, when non-empty, keeps entries for these host ids.
	ContentIDs []int64
	// MetaEquals keeps entries whose Meta[key], formatted by MetaString, is
	// equal to the value; an absent key formats as "".
	MetaEquals map[string]string
	// AfterContentID, when positive, keeps entries whose ContentID is
	// greater: the cursor of a walk in content id order (ByContentID).
	AfterContentID int64
	// ByContentID orders the entries by ContentID, ascending (ties in
	// insertion order), instead of newest first: with AfterContentID set
	// to the last ContentID of a page, the next page follows, at the same
	// cost whatever the store's size.
	ByContentID bool
	// NoTotal tells List not to count the matching entries: it returns 0
	// as the total, sparing a count over the whole store.
	NoTotal bool
	// Limit caps the number of entries returned; 0 means no cap.
	Limit int
	// Offset skips that many matching entries.
	Offset int
}

// Stats are the aggregate counts of a Store.
type Stats struct {
	// Total is the number of entries.
	Total int
	// ByType counts entries per content type.
	ByType map[string]int
	// BySubtype counts entries per content type and subtype.
	BySubtype []SubtypeCount
	// Daily counts entries per day (UTC, "YYYY-MM-DD") created at or after
	// the since argument of Store.Stats, oldest first; days without entries
	// are absent.
	Daily []DayCount
}

// SubtypeCount is one row of Stats.BySubtype.
type SubtypeCount struct {
	ContentType    string
	ContentSubtype string
	Count          int
}

// DayCount is one row of Stats.Daily.
type DayCount struct {
	Date  string
	Count int
}

// Store keeps history entries. Implementations must be safe for concurrent
// use. Every method returns ctx.Err() (possibly wrapped) when ctx is done
// before it starts its work.
type Store interface {
	// Add stores entries, assigning each a unique ID and, when zero, a
	// CreatedAt of now. It writes the assigned values back into entries.
	// Adding nothing is not an error. Either all entries are stored or none.
	Add(ctx context.Context, entries []Entry) error

	// Get returns the entry with id, or ErrNotFound.
	Get(ctx context.Context, id string) (Entry, error)

	// List returns the entries matching f, newest first (ties broken by
	// insertion order, newest first) or, with f.ByContentID, by content
	// id, after Offset and up to Limit, and the total number of matching
	// entries before Offset and Limit (0 with f.NoTotal).
	List(ctx context.Context, f Filter) ([]Entry, int, error)

	// Delete removes the entries with these ids and returns how many
	// existed. Unknown ids are ignored.
	Delete(ctx context.Context, ids ...string) (int, error)

	// Clear removes every entry.
	Clear(ctx context.Context) error

	// Stats returns the aggregate counts, with Daily limited to entries
	// created at or after since.
	Stats(ctx context.Context, since time.Time) (Stats, error)
}

// An Adopter is a Store that can take entries over instead of copying
// them, for callers that build each batch afresh and let go of it.
type Adopter interface {
	Store
	// Adopt is Add, except that the store may keep the entries' Meta maps,
	// and the lists and maps in them, as its own: the caller must not
	// change them once Adopt was called, whatever it returns. Entries may
	// share meta values, lists included; the store changes none of them.
	Adopt(ctx context.Context, entries []Entry) error
}
