package contentgen

import "context"

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
}

// refs lists the objects of a kind matching q: the one place that queries
// the host by kind.
func (g *Generator) refs(ctx context.Context, kind ObjectKind, q refQuery) ([]ref, error) {
	if q.ids.Active() && len(q.ids.List()) == 0 {
		return nil, nil
	}
	var out []ref
	switch kind {
	case KindPost:
		items, err := g.host.Posts(ctx, PostQuery{IDs: q.ids, Types: q.subtypes, MetaKey: q.metaKey, MetaValue: q.metaValue})
		if err != nil {
			return nil, failed(err, "listing posts")
		}
		for _, it := range items {
			out = append(out, ref{id: it.ID, title: it.Title, subtype: it.Type})
		}
	case KindTerm:
		items, err := g.host.Terms(ctx, TermQuery{IDs: q.ids, Taxonomies: q.subtypes, MetaKey: q.metaKey, MetaValue: q.metaValue})
		if err != nil {
			return nil, failed(err, "listing terms")
		}
		for _, it := range items {
			out = append(out, ref{id: it.ID, title: it.Name, subtype: it.Taxonomy})
		}
	case KindUser:
		items, err := g.host.Users(ctx, UserQuery{IDs: q.ids, MetaKey: q.metaKey, MetaValue: q.metaValue})
		if err != nil {
			return nil, failed(err, "listing users")
		}
		for _, it := range items {
			out = append(out, ref{id: it.ID, title: it.DisplayName})
		}
	case KindComment:
		return g.commentRefs(ctx, q)
	case KindMedia:
		items, err := g.host.Media(ctx, MediaQuery{IDs: q.ids, MetaKey: q.metaKey, MetaValue: q.metaValue})
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
func (g *Generator) commentRefs(ctx context.Context, q refQuery) ([]ref, error) {
	items, err := g.host.Comments(ctx, CommentQuery{IDs: q.ids, MetaKey: q.metaKey, MetaValue: q.metaValue})
	if err != nil {
		return nil, failed(err, "listing comments")
	}
	var onType map[int64]bool
	if len(q.subtypes) > 0 && len(items) > 0 {
		postIDs := make([]int64, 0, len(items))
		for _, c := range items {
			postIDs = append(postIDs, c.PostID)
		}
		posts, err := g.host.Posts(ctx, PostQuery{IDs: OnlyIDs(postIDs...), Types: q.subtypes})
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
