package contentgen

import (
	"context"
	"slices"
)

// ref is what tracking needs of a host object of any kind.
type ref struct {
	id int64
	// title is the post or media title, the term name, the user's display
	// name or the start of a comment.
	title string
	// subtype is the post type of a post, the taxonomy of a term.
	subtype string
	// postID is the post a comment is on.
	postID int64
}

// refQuery selects objects of one kind for refs.
type refQuery struct {
	ids IDFilter
	// subtypes keeps posts of these post types, terms of these taxonomies
	// and comments on posts of these post types; empty keeps all.
	subtypes           []string
	metaKey, metaValue string
	// limit and offset page the host's query (ordered by id); 0 means
	// all. Comments of other post types are left out after the paging.
	limit, offset int
}

// refs lists the objects of a kind matching q: the one place that queries
// the host by kind.
func (g *Generator) refs(ctx context.Context, kind ObjectKind, q refQuery) ([]ref, error) {
	return refsOn(ctx, g.host, kind, q)
}

// refsOn is refs through h, such as a host bound to a transaction.
func refsOn(ctx context.Context, h Host, kind ObjectKind, q refQuery) ([]ref, error) {
	if q.ids.Active() && len(q.ids.List()) == 0 {
		return nil, nil
	}
	var out []ref
	switch kind {
	case KindPost:
		items, err := h.Posts(ctx, PostQuery{IDs: q.ids, Types: q.subtypes, MetaKey: q.metaKey, MetaValue: q.metaValue, Limit: q.limit, Offset: q.offset})
		if err != nil {
			return nil, failed(err, "listing posts")
		}
		for _, it := range items {
			out = append(out, ref{id: it.ID, title: it.Title, subtype: it.Type})
		}
	case KindTerm:
		items, err := h.Terms(ctx, TermQuery{IDs: q.ids, Taxonomies: q.subtypes, MetaKey: q.metaKey, MetaValue: q.metaValue, Bare: true, Limit: q.limit, Offset: q.offset})
		if err != nil {
			return nil, failed(err, "listing terms")
		}
		for _, it := range items {
			out = append(out, ref{id: it.ID, title: it.Name, subtype: it.Taxonomy})
		}
	case KindUser:
		items, err := h.Users(ctx, UserQuery{IDs: q.ids, MetaKey: q.metaKey, MetaValue: q.metaValue, Limit: q.limit, Offset: q.offset})
		if err != nil {
			return nil, failed(err, "listing users")
		}
		for _, it := range items {
			out = append(out, ref{id: it.ID, title: it.DisplayName})
		}
	case KindComment:
		return commentRefs(ctx, h, q)
	case KindMedia:
		items, err := h.Media(ctx, MediaQuery{IDs: q.ids, MetaKey: q.metaKey, MetaValue: q.metaValue, Limit: q.limit, Offset: q.offset})
		if err != nil {
			return nil, failed(err, "listing media")
		}
		for _, it := range items {
			out = append(out, ref{id: it.ID, title: it.Title})
		}
	}
	return out, nil
}

// commentRefs lists comments, keeping those on posts of q.subtypes.
func commentRefs(ctx context.Context, h Host, q refQuery) ([]ref, error) {
	items, err := h.Comments(ctx, CommentQuery{IDs: q.ids, MetaKey: q.metaKey, MetaValue: q.metaValue, Limit: q.limit, Offset: q.offset})
	if err != nil {
		return nil, failed(err, "listing comments")
	}
	var onType map[int64]bool
	if len(q.subtypes) > 0 && len(items) > 0 {
		postIDs := make([]int64, 0, len(items))
		for _, c := range items {
			postIDs = append(postIDs, c.PostID)
		}
		posts, err := h.Posts(ctx, PostQuery{IDs: OnlyIDs(postIDs...), Types: q.subtypes})
		if err != nil {
			return nil, failed(err, "listing posts")
		}
		onType = make(map[int64]bool, len(posts))
		for _, p := range posts {
			onType[p.ID] = true
		}
	}
	out := make([]ref, 0, len(items))
	for _, c := range items {
		if onType == nil && len(q.subtypes) > 0 {
			break
		}
		if onType == nil || onType[c.PostID] {
			out = append(out, ref{id: c.ID, title: excerptOf(c.Content, 60), postID: c.PostID})
		}
	}
	return out, nil
}

// liveOn returns the ids of a kind that exist, asked through h.
func liveOn(ctx context.Context, h Host, kind ObjectKind, ids []int64) (map[int64]bool, error) {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	out := make(map[int64]bool, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	if ex, ok := h.(Exister); ok {
		found, err := ex.Exist(ctx, kind, ids)
		if err != nil {
			return nil, err
		}
		for i, id := range ids {
			if found[i] {
				out[id] = true
			}
		}
		return out, nil
	}
	refs, err := refsOn(ctx, h, kind, refQuery{ids: OnlyIDs(ids...)})
	if err != nil {
		return nil, err
	}
	for _, r := range refs {
		out[r.id] = true
	}
	return out, nil
}
