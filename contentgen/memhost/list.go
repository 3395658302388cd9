package memhost

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
)

var _ contentgen.Lister = (*Host)(nil)

// List implements contentgen.Lister for posts, terms, users and media: it
// scans the ids of the kind in order under the read lock, without copying
// a row, and keeps the ids of the page.
func (h *Host) List(ctx context.Context, kind contentgen.ObjectKind, q contentgen.Listing) ([]int64, int, error) {
	search := strings.ToLower(q.Search)
	origin := func(m contentgen.Meta) bool {
		switch q.Origin {
		case contentgen.OnlyGenerated:
			return m.Generated() || kind == contentgen.KindMedia && m[contentgen.UploadedKey] == contentgen.MarkerValue
		case contentgen.NotGenerated:
			return !m.Generated()
		}
		return true
	}
	var matched []int64
	err := h.read(ctx, func(st *state) error {
		switch kind {
		case contentgen.KindPost:
			types := q.Subtypes
			if len(types) == 0 {
				for _, pt := range st.postTypes {
					if !pt.Internal {
						types = append(types, pt.Name)
					}
				}
			}
			matched = collect(st.posts, func(p *contentgen.Post) bool {
				return slices.Contains(types, p.Type) && (len(q.Statuses) == 0 || slices.Contains(q.Statuses, p.Status)) &&
					origin(p.Meta) && contains(p.Title, search)
			})
		case contentgen.KindTerm:
			matched = collect(st.terms, func(t *contentgen.Term) bool {
				return (len(q.Subtypes) == 0 || slices.Contains(q.Subtypes, t.Taxonomy)) &&
					(q.Parent == nil || t.ParentID == *q.Parent) && origin(t.Meta) && contains(t.Name, search)
			})
		case contentgen.KindUser:
			matched = collect(st.users, func(u *contentgen.User) bool {
				return (len(q.Subtypes) == 0 || slices.ContainsFunc(u.Roles, func(r string) bool { return slices.Contains(q.Subtypes, r) })) &&
					origin(u.Meta) && (search == "" || contains(u.Login, search) || contains(u.DisplayName, search) || contains(u.Email, search))
			})
		case contentgen.KindMedia:
			matched = collect(st.media, func(m *mediaRow) bool { return origin(m.Meta) && contains(m.Title, search) })
		default:
			return fmt.Errorf("memhost: listing %s: %w", kind, errors.ErrUnsupported)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	if q.Order == contentgen.NewestFirst {
		slices.Reverse(matched)
	}
	lo := min(max(q.Offset, 0), len(matched))
	hi := len(matched)
	if q.Limit > 0 {
		hi = min(lo+q.Limit, hi)
	}
	return append([]int64{}, matched[lo:hi]...), len(matched), nil
}

// collect returns the ids of the rows of t that match, ascending.
func collect[T any](t *table[T], match func(*T) bool) []int64 {
	var ids []int64
	t.scan(nil, func(id int64, r *T) bool {
		if match(r) {
			ids = append(ids, id)
		}
		return true
	})
	return ids
}
