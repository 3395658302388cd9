package contentgen

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// Origin selects content by whether the service generated it.
type Origin uint8

const (
	// AnyOrigin keeps every item.
	AnyOrigin Origin = iota
	// OnlyGenerated keeps items carrying the marker meta (MarkerKey =
	// MarkerValue); for media also items uploaded through the media
	// library (UploadedKey = MarkerValue).
	OnlyGenerated
	// NotGenerated keeps items without the marker meta.
	NotGenerated
)

// Order is the order of a listing.
type Order uint8

const (
	// OldestFirst orders by ascending id, the order of creation.
	OldestFirst Order = iota
	// NewestFirst orders by descending id.
	NewestFirst
)

// Listing selects and cuts a list of one kind of content: the query of
// Lister.List. Zero fields do not filter.
type Listing struct {
	// Subtypes keeps posts of these post types, terms of these
	// taxonomies or users having one of these roles; media have none.
	// For posts, none keeps every post type that is not Internal.
	Subtypes []string
	// Statuses keeps posts of these statuses; other kinds have none.
	Statuses []string
	// Parent keeps terms with this parent (0: the top level) when set;
	// other kinds have none.
	Parent *int64
	// Origin keeps generated items, or the others.
	Origin Origin
	// Search matches, ignoring case, the title of posts and media, the
	// name of terms, and the login, display name or e-mail address of
	// users, as the Host's queries do.
	Search string
	// Order orders the result by id.
	Order Order
	// Offset skips that many matching items; Limit keeps at most that
	// many of the rest, 0 keeps all.
	Limit, Offset int
}

// Lister is implemented by hosts that filter, order, count and cut lists
// of their content themselves, such as with an index and LIMIT in SQL, so
// that a page costs about the same on a small and on a large site. The
// Generator's ContentService uses it where it can and otherwise reads the
// host's queries in bounded chunks and pages in memory.
type Lister interface {
	// List returns the ids of the objects of kind that match q, in the
	// order q.Order, after skipping q.Offset of them and keeping at most
	// q.Limit, and the number of objects matching q whatever its Limit
	// and Offset. Both should come from one reading of the host (one
	// snapshot), so that the total is exact for the ids returned; a host
	// whose reads see each commit as it lands says so in its List.
	//
	// Kinds are KindPost, KindTerm, KindUser and KindMedia. For another
	// kind, or one the host does not list itself, List returns an error
	// wrapping errors.ErrUnsupported, and the Generator pages that kind
	// itself. Not found: when nothing matches, or Offset is past the
	// last match, the ids are empty (not nil) with the total and a nil
	// error; a Subtypes or Statuses value nobody has simply matches
	// nothing. Cancelled context: ctx.Err(), possibly wrapped. Nil
	// input: the zero Listing lists every item of the kind (every post
	// of a type that is not Internal), oldest first; nil slices do not
	// filter; a negative Limit or Offset counts as 0.
	List(ctx context.Context, kind ObjectKind, q Listing) (ids []int64, total int, err error)
}

// fallbackChunk is the number of items the Generator reads per host
// query when the host does not list a kind itself.
const fallbackChunk = 500

// list runs q on the host's Lister, or pages the host's queries in
// memory when it has none for kind.
func (g *Generator) list(ctx context.Context, kind ObjectKind, q Listing) ([]int64, int, error) {
	q.Limit, q.Offset = max(q.Limit, 0), max(q.Offset, 0)
	if l, ok := g.host.(Lister); ok {
		ids, total, err := l.List(ctx, kind, q)
		if !errors.Is(err, errors.ErrUnsupported) {
			if err != nil {
				return nil, 0, err
			}
			return ids, total, nil
		}
	}
	return g.listInMemory(ctx, kind, q)
}

// listInMemory pages a kind through the Host's queries: it reads the
// matching items fallbackChunk at a time, keeps the ids of those that
// pass the filters the queries do not have, and cuts the page from them.
// Memory is bounded by a chunk and one id per match.
func (g *Generator) listInMemory(ctx context.Context, kind ObjectKind, q Listing) ([]int64, int, error) {
	var read func(offset int) (ids []int64, metas []Meta, n int, err error)
	switch kind {
	case KindPost:
		types := q.Subtypes
		if len(types) == 0 {
			all, err := g.host.PostTypes(ctx)
			if err != nil {
				return nil, 0, err
			}
			for _, pt := range all {
				if !pt.Internal {
					types = append(types, pt.Name)
				}
			}
			if len(types) == 0 {
				return []int64{}, 0, nil
			}
		}
		pq := PostQuery{Types: types, Statuses: q.Statuses, Search: q.Search, Limit: fallbackChunk}
		if q.Origin == OnlyGenerated {
			pq.MetaKey, pq.MetaValue = MarkerKey, MarkerValue
		}
		read = func(offset int) ([]int64, []Meta, int, error) {
			pq.Offset = offset
			posts, err := g.host.Posts(ctx, pq)
			ids, metas := make([]int64, len(posts)), make([]Meta, len(posts))
			for i := range posts {
				ids[i], metas[i] = posts[i].ID, posts[i].Meta
			}
			return ids, metas, len(posts), err
		}
	case KindTerm:
		tq := TermQuery{Taxonomies: q.Subtypes, Search: q.Search, Limit: fallbackChunk}
		if q.Parent != nil {
			tq.Parent, tq.HasParent = *q.Parent, true
		}
		if q.Origin == OnlyGenerated {
			tq.MetaKey, tq.MetaValue = MarkerKey, MarkerValue
		}
		read = func(offset int) ([]int64, []Meta, int, error) {
			tq.Offset = offset
			terms, err := g.host.Terms(ctx, tq)
			ids, metas := make([]int64, len(terms)), make([]Meta, len(terms))
			for i := range terms {
				ids[i], metas[i] = terms[i].ID, terms[i].Meta
			}
			return ids, metas, len(terms), err
		}
	case KindUser:
		uq := UserQuery{Roles: q.Subtypes, Search: q.Search, Limit: fallbackChunk}
		if q.Origin == OnlyGenerated {
			uq.MetaKey, uq.MetaValue = MarkerKey, MarkerValue
		}
		read = func(offset int) ([]int64, []Meta, int, error) {
			uq.Offset = offset
			users, err := g.host.Users(ctx, uq)
			ids, metas := make([]int64, len(users)), make([]Meta, len(users))
			for i := range users {
				ids[i], metas[i] = users[i].ID, users[i].Meta
			}
			return ids, metas, len(users), err
		}
	case KindMedia:
		// Generated media include uploads, which no single meta query
		// selects: the origin is checked here.
		mq := MediaQuery{Search: q.Search, Limit: fallbackChunk}
		read = func(offset int) ([]int64, []Meta, int, error) {
			mq.Offset = offset
			media, err := g.host.Media(ctx, mq)
			ids, metas := make([]int64, len(media)), make([]Meta, len(media))
			for i := range media {
				ids[i], metas[i] = media[i].ID, media[i].Meta
			}
			return ids, metas, len(media), err
		}
	default:
		return nil, 0, fmt.Errorf("contentgen: listing %s: %w", kind, errors.ErrUnsupported)
	}
	var matched []int64
	for offset := 0; ; offset += fallbackChunk {
		ids, metas, n, err := read(offset)
		if err != nil {
			return nil, 0, err
		}
		for i, id := range ids {
			if q.Origin.keeps(kind, metas[i]) {
				matched = append(matched, id)
			}
		}
		if n < fallbackChunk {
			break
		}
	}
	// Hosts return their queries ordered by id; a page cut at offsets
	// stays correct even if one was not.
	slices.Sort(matched)
	matched = slices.Compact(matched)
	if q.Order == NewestFirst {
		slices.Reverse(matched)
	}
	lo := min(q.Offset, len(matched))
	hi := len(matched)
	if q.Limit > 0 {
		hi = min(lo+q.Limit, hi)
	}
	return append([]int64{}, matched[lo:hi]...), len(matched), nil
}

// keeps reports whether an item of kind with meta m is of origin o.
func (o Origin) keeps(kind ObjectKind, m Meta) bool {
	switch o {
	case OnlyGenerated:
		return m.Generated() || kind == KindMedia && m[UploadedKey] == MarkerValue
	case NotGenerated:
		return !m.Generated()
	}
	return true
}
