package memhost

import (
	"context"
	"fmt"
	"maps"
	"strconv"

	"github.com/contentgen/contentgen/contentgen"
)

// Meta keys under which TrashPosts and TrashComments remember what an item
// was before it went to the trash.
const (
	// TrashStatusKey holds the status before trashing.
	TrashStatusKey = "_trash_meta_status"
	// TrashTimeKey holds the time of trashing, in Unix seconds.
	TrashTimeKey = "_trash_meta_time"
)

// metaOf returns the stored meta of an object, or an error wrapping
// contentgen.ErrHostNotFound.
func (st *state) metaOf(kind contentgen.ObjectKind, id int64) (contentgen.Meta, error) {
	var m contentgen.Meta
	found := false
	switch kind {
	case contentgen.KindPost:
		if p := st.posts.get(id); p != nil {
			m, found = p.Meta, true
		}
	case contentgen.KindTerm:
		if t := st.terms.get(id); t != nil {
			m, found = t.Meta, true
		}
	case contentgen.KindUser:
		if u := st.users.get(id); u != nil {
			m, found = u.Meta, true
		}
	case contentgen.KindComment:
		if c := st.comments.get(id); c != nil {
			m, found = c.Meta, true
		}
	case contentgen.KindMedia:
		if r := st.media.get(id); r != nil {
			m, found = r.Meta, true
		}
	default:
		return nil, unknownKind(kind)
	}
	if !found {
		return nil, notFound(kind, id)
	}
	return m, nil
}

func unknownKind(kind contentgen.ObjectKind) error {
	return fmt.Errorf("%w: unknown object kind %q", ErrInvalid, kind)
}

// Meta returns a copy of the meta of an object, or an error wrapping
// contentgen.ErrHostNotFound when it does not exist (ErrInvalid for an
// unknown kind).
func (h *Host) Meta(ctx context.Context, kind contentgen.ObjectKind, id int64) (contentgen.Meta, error) {
	var out contentgen.Meta
	err := h.read(ctx, func(st *state) error {
		m, err := st.metaOf(kind, id)
		if err != nil {
			return err
		}
		out = cloneMeta(m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SetMeta sets the keys of m on an object, leaving its other keys as they
// are; an error wrapping contentgen.ErrHostNotFound when the object does
// not exist, even for an empty m.
func (h *Host) SetMeta(ctx context.Context, kind contentgen.ObjectKind, id int64, m contentgen.Meta) error {
	return h.write(ctx, func(st *state) error {
		if _, err := st.metaOf(kind, id); err != nil {
			return err
		}
		if len(m) == 0 {
			return nil
		}
		switch kind {
		case contentgen.KindPost:
			st.posts.update(id, func(p *contentgen.Post) { p.Meta = ownMeta(p.Meta); maps.Copy(p.Meta, m) })
		case contentgen.KindTerm:
			st.terms.update(id, func(t *contentgen.Term) { t.Meta = ownMeta(t.Meta); maps.Copy(t.Meta, m) })
		case contentgen.KindUser:
			st.users.update(id, func(u *contentgen.User) { u.Meta = ownMeta(u.Meta); maps.Copy(u.Meta, m) })
		case contentgen.KindComment:
			st.comments.update(id, func(c *contentgen.Comment) { c.Meta = ownMeta(c.Meta); maps.Copy(c.Meta, m) })
		case contentgen.KindMedia:
			st.media.update(id, func(r *mediaRow) { r.Meta = ownMeta(r.Meta); maps.Copy(r.Meta, m) })
		}
		return nil
	})
}

// Exist reports for each id whether an object of kind exists, in order
// (ErrInvalid for an unknown kind).
func (h *Host) Exist(ctx context.Context, kind contentgen.ObjectKind, ids []int64) ([]bool, error) {
	var out []bool
	err := h.read(ctx, func(st *state) error {
		var has func(int64) bool
		switch kind {
		case contentgen.KindPost:
			has = st.posts.has
		case contentgen.KindTerm:
			has = st.terms.has
		case contentgen.KindUser:
			has = st.users.has
		case contentgen.KindComment:
			has = st.comments.has
		case contentgen.KindMedia:
			has = st.media.has
		default:
			return unknownKind(kind)
		}
		out = make([]bool, len(ids))
		for i, id := range ids {
			out[i] = has(id)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// TrashPosts moves posts to the trash: their status becomes "trash" and
// their meta remembers the previous status (TrashStatusKey) and the time
// (TrashTimeKey). Trashed posts keep their terms, meta and comments and are
// found by queries for status "trash". Unknown and already trashed ids are
// ignored.
func (h *Host) TrashPosts(ctx context.Context, ids []int64) error {
	return h.write(ctx, func(st *state) error {
		when := strconv.FormatInt(h.now().Unix(), 10)
		for _, id := range ids {
			if p := st.posts.get(id); p != nil && p.Status != contentgen.StatusTrash {
				st.posts.update(id, func(p *contentgen.Post) {
					p.Meta = ownMeta(p.Meta)
					p.Meta[TrashStatusKey] = p.Status
					p.Meta[TrashTimeKey] = when
					p.Status = contentgen.StatusTrash
				})
			}
		}
		return nil
	})
}

// TrashComments moves comments to the trash like TrashPosts does posts.
func (h *Host) TrashComments(ctx context.Context, ids []int64) error {
	return h.write(ctx, func(st *state) error {
		when := strconv.FormatInt(h.now().Unix(), 10)
		for _, id := range ids {
			if c := st.comments.get(id); c != nil && c.Status != contentgen.CommentTrash {
				st.comments.update(id, func(c *contentgen.Comment) {
					c.Meta = ownMeta(c.Meta)
					c.Meta[TrashStatusKey] = c.Status
					c.Meta[TrashTimeKey] = when
					c.Status = contentgen.CommentTrash
				})
			}
		}
		return nil
	})
}

// UntrashPosts restores trashed posts to the status they had before
// TrashPosts ("draft" when unknown) and drops the trash meta. Ids that are
// unknown or not in the trash are ignored.
func (h *Host) UntrashPosts(ctx context.Context, ids []int64) error {
	return h.write(ctx, func(st *state) error {
		for _, id := range ids {
			if p := st.posts.get(id); p != nil && p.Status == contentgen.StatusTrash {
				st.posts.update(id, func(p *contentgen.Post) {
					p.Meta = ownMeta(p.Meta)
					p.Status = restoredStatus(p.Meta, contentgen.StatusDraft)
				})
			}
		}
		return nil
	})
}

// UntrashComments restores trashed comments to the status they had before
// TrashComments ("pending" when unknown) and drops the trash meta. Ids that
// are unknown or not in the trash are ignored.
func (h *Host) UntrashComments(ctx context.Context, ids []int64) error {
	return h.write(ctx, func(st *state) error {
		for _, id := range ids {
			if c := st.comments.get(id); c != nil && c.Status == contentgen.CommentTrash {
				st.comments.update(id, func(c *contentgen.Comment) {
					c.Meta = ownMeta(c.Meta)
					c.Status = restoredStatus(c.Meta, contentgen.CommentPending)
				})
			}
		}
		return nil
	})
}

// restoredStatus removes the trash meta from m and returns the status it
// remembered, or fallback.
func restoredStatus(m contentgen.Meta, fallback string) string {
	status := m[TrashStatusKey]
	delete(m, TrashStatusKey)
	delete(m, TrashTimeKey)
	if status == "" || status == contentgen.StatusTrash {
		return fallback
	}
	return status
}
