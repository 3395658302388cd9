package contentgen

import (
	"context"
	"fmt"
	"slices"

	"github.com/contentgen/contentgen/history"
)

// deleteScope narrows which generated items of a kind are deleted.
type deleteScope struct {
	// subtypes keeps items of these post types (posts, comments) or
	// taxonomies (terms); empty means all.
	subtypes []string
	// ids, when non-empty, keeps only these host ids.
	ids []int64
	// meta keeps only items whose history entry has these meta values;
	// items found by marker alone do not qualify when set.
	meta map[string]string
}

// generated finds the generated items of a kind in scope: the union of the
// history and the marker meta, restricted to items that still exist. It
// returns the ids in ascending order and the history entry ids per host id.
func (g *Generator) generated(ctx context.Context, kind ObjectKind, sc deleteScope) ([]int64, map[int64][]string, error) {
	entries, _, err := g.hist.List(ctx, history.Filter{
		ContentType:     string(kind),
		ContentSubtypes: sc.subtypes,
		ContentIDs:      sc.ids,
		MetaEquals:      sc.meta,
	})
	if err != nil {
		return nil, nil, failed(err, "reading history")
	}
	byID := make(map[int64][]string, len(entries))
	set := make(map[int64]bool, len(entries))
	for _, e := range entries {
		byID[e.ContentID] = append(byID[e.ContentID], e.ID)
		set[e.ContentID] = true
	}
	if len(sc.meta) == 0 {
		marked, err := g.markedIDs(ctx, kind, sc)
		if err != nil {
			return nil, nil, err
		}
		for _, id := range marked {
			set[id] = true
		}
	}
	ids := make([]int64, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	exists, err := g.exist(ctx, kind, ids)
	if err != nil {
		return nil, nil, err
	}
	live := ids[:0]
	for i, id := range ids {
		if exists[i] {
			live = append(live, id)
		}
	}
	return live, byID, nil
}

// markedIDs lists the ids of objects carrying the generated marker.
func (g *Generator) markedIDs(ctx context.Context, kind ObjectKind, sc deleteScope) ([]int64, error) {
	var ids []int64
	switch kind {
	case KindPost:
		posts, err := g.host.Posts(ctx, PostQuery{IDs: sc.ids, Types: sc.subtypes, MetaKey: MarkerKey, MetaValue: MarkerValue})
		if err != nil {
			return nil, failed(err, "listing posts")
		}
		for _, p := range posts {
			ids = append(ids, p.ID)
		}
	case KindTerm:
		terms, err := g.host.Terms(ctx, TermQuery{IDs: sc.ids, Taxonomies: sc.subtypes, MetaKey: MarkerKey, MetaValue: MarkerValue})
		if err != nil {
			return nil, failed(err, "listing terms")
		}
		for _, t := range terms {
			ids = append(ids, t.ID)
		}
	case KindUser:
		users, err := g.host.Users(ctx, UserQuery{IDs: sc.ids, MetaKey: MarkerKey, MetaValue: MarkerValue})
		if err != nil {
			return nil, failed(err, "listing users")
		}
		for _, u := range users {
			ids = append(ids, u.ID)
		}
	case KindComment:
		comments, err := g.host.Comments(ctx, CommentQuery{IDs: sc.ids, MetaKey: MarkerKey, MetaValue: MarkerValue})
		if err != nil {
			return nil, failed(err, "listing comments")
		}
		var onType map[int64]bool
		if len(sc.subtypes) > 0 {
			postIDs := make([]int64, 0, len(comments))
			for _, c := range comments {
				postIDs = append(postIDs, c.PostID)
			}
			posts, err := g.host.Posts(ctx, PostQuery{IDs: postIDs, Types: sc.subtypes})
			if err != nil {
				return nil, failed(err, "listing posts")
			}
			onType = make(map[int64]bool, len(posts))
			for _, p := range posts {
				onType[p.ID] = true
			}
		}
		for _, c := range comments {
			if onType == nil || onType[c.PostID] {
				ids = append(ids, c.ID)
			}
		}
	case KindMedia:
		for _, key := range []string{MarkerKey, UploadedKey} {
			media, err := g.host.Media(ctx, MediaQuery{IDs: sc.ids, MetaKey: key, MetaValue: MarkerValue})
			if err != nil {
				return nil, failed(err, "listing media")
			}
			for _, m := range media {
				ids = append(ids, m.ID)
			}
		}
	}
	return ids, nil
}

// exist reports for each id whether the object still exists.
func (g *Generator) exist(ctx context.Context, kind ObjectKind, ids []int64) ([]bool, error) {
	out := make([]bool, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	if ex, ok := g.host.(Exister); ok {
		res, err := ex.Exist(ctx, kind, ids)
		if err != nil {
			return nil, failed(err, "checking existence")
		}
		return res, nil
	}
	found := map[int64]bool{}
	switch kind {
	case KindPost:
		items, err := g.host.Posts(ctx, PostQuery{IDs: ids})
		if err != nil {
			return nil, failed(err, "listing posts")
		}
		for _, it := range items {
			found[it.ID] = true
		}
	case KindTerm:
		items, err := g.host.Terms(ctx, TermQuery{IDs: ids})
		if err != nil {
			return nil, failed(err, "listing terms")
		}
		for _, it := range items {
			found[it.ID] = true
		}
	case KindUser:
		items, err := g.host.Users(ctx, UserQuery{IDs: ids})
		if err != nil {
			return nil, failed(err, "listing users")
		}
		for _, it := range items {
			found[it.ID] = true
		}
	case KindComment:
		items, err := g.host.Comments(ctx, CommentQuery{IDs: ids})
		if err != nil {
			return nil, failed(err, "listing comments")
		}
		for _, it := range items {
			found[it.ID] = true
		}
	case KindMedia:
		items, err := g.host.Media(ctx, MediaQuery{IDs: ids})
		if err != nil {
			return nil, failed(err, "listing media")
		}
		for _, it := range items {
			found[it.ID] = true
		}
	}
	for i, id := range ids {
		out[i] = found[id]
	}
	return out, nil
}

// deleteGenerated removes the generated items of a kind in scope and their
// history entries, and returns how many it removed. Without force, posts
// and comments go to the trash of hosts that have one and keep their
// history, so that a later permanent delete still finds them.
func (g *Generator) deleteGenerated(ctx context.Context, kind ObjectKind, sc deleteScope, force bool) (int, error) {
	ids, entries, err := g.generated(ctx, kind, sc)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	if err := g.removeObjects(ctx, kind, ids, force); err != nil {
		return 0, err
	}
	if trashed := !force && (kind == KindPost || kind == KindComment); trashed {
		if _, ok := g.host.(Trasher); ok {
			return len(ids), nil
		}
	}
	if err := g.forget(ctx, ids, entries); err != nil {
		return len(ids), err
	}
	return len(ids), nil
}

// removeObjects deletes (or trashes) host objects of a kind.
func (g *Generator) removeObjects(ctx context.Context, kind ObjectKind, ids []int64, force bool) error {
	var err error
	switch kind {
	case KindPost:
		if t, ok := g.host.(Trasher); ok && !force {
			err = t.TrashPosts(ctx, ids)
		} else {
			err = g.host.DeletePosts(ctx, ids)
		}
	case KindComment:
		if t, ok := g.host.(Trasher); ok && !force {
			err = t.TrashComments(ctx, ids)
		} else {
			err = g.host.DeleteComments(ctx, ids)
		}
	case KindTerm:
		err = g.host.DeleteTerms(ctx, ids)
	case KindMedia:
		err = g.host.DeleteMedia(ctx, ids)
	case KindUser:
		var to int64
		if to, err = g.reassignTarget(ctx, ids); err == nil {
			err = g.host.DeleteUsers(ctx, ids, to)
		}
	}
	if err != nil {
		return failed(err, "deleting "+string(kind)+"s")
	}
	return nil
}

// reassignTarget picks the user who inherits the posts of deleted users: a
// hand-made administrator if there is one, else any hand-made user, so
// that hand-made posts of a generated author are never removed with it.
func (g *Generator) reassignTarget(ctx context.Context, deleting []int64) (int64, error) {
	users, err := g.host.Users(ctx, UserQuery{})
	if err != nil {
		return 0, err
	}
	var fallback int64
	for _, u := range users {
		if u.Meta.Generated() || slices.Contains(deleting, u.ID) {
			continue
		}
		if slices.Contains(u.Roles, "administrator") {
			return u.ID, nil
		}
		if fallback == 0 {
			fallback = u.ID
		}
	}
	if fallback == 0 {
		return 0, fmt.Errorf("no hand-made user left to take over the posts of deleted users")
	}
	return fallback, nil
}

// forget removes the history entries of deleted objects.
func (g *Generator) forget(ctx context.Context, ids []int64, entries map[int64][]string) error {
	var hids []string
	for _, id := range ids {
		hids = append(hids, entries[id]...)
	}
	if len(hids) == 0 {
		return nil
	}
	if _, err := g.hist.Delete(ctx, hids...); err != nil {
		return failed(err, "updating history")
	}
	return nil
}

var deleteTypes = []string{string(KindPost), string(KindTerm), string(KindUser), string(KindComment)}

// Delete removes generated items of one type: all of them, or those of
// req.IDs that are generated (other ids are ignored). It never touches
// items that are not generated.
func (g *Generator) Delete(ctx context.Context, req DeleteRequest) (*DeleteResult, error) {
	if req.Type == "" {
		return nil, invalid("type", "type is required: one of %v", deleteTypes)
	}
	if !slices.Contains(deleteTypes, req.Type) {
		return nil, invalid("type", "type must be one of %v, got %q", deleteTypes, req.Type)
	}
	for _, id := range req.IDs {
		if id <= 0 {
			return nil, invalid("ids", "ids must be positive integers, got %d", id)
		}
	}
	kind := ObjectKind(req.Type)
	n, err := g.deleteGenerated(ctx, kind, deleteScope{ids: req.IDs}, req.Force)
	res := &DeleteResult{Success: err == nil, Deleted: n}
	if err != nil {
		return nil, err
	}
	trashed := false
	if !req.Force && (kind == KindPost || kind == KindComment) {
		_, trashed = g.host.(Trasher)
	}
	res.Message = g.Messages(ctx).Deleted(n, req.Type, trashed)
	return res, nil
}

// DeletePosts permanently removes the generated posts of a post type (or of
// every type with DeleteScope "all") and, as requested, the media, terms,
// authors, comments and related posts generated with them. It works in
// chunks of the Generator's batch size.
func (g *Generator) DeletePosts(ctx context.Context, req DeletePostsRequest) (*DeletePostsResult, error) {
	if req.PostType == "" {
		return nil, invalid("post_type", "post_type is required")
	}
	pt, err := g.postType(ctx, req.PostType)
	if err != nil {
		return nil, err
	}
	scope, err := enumParam(req.DeleteScope, "current_type", "delete_scope", "current_type", "all")
	if err != nil {
		return nil, err
	}
	settings, err := g.Settings(ctx)
	if err != nil {
		return nil, err
	}
	var types []string
	if scope == "current_type" {
		types = []string{pt.Name}
	}
	res := &DeletePostsResult{Success: true, DeletedRelatedCPTs: map[string]int{}}

	ids, entries, err := g.generated(ctx, KindPost, deleteScope{subtypes: types})
	if err != nil {
		return nil, err
	}
	var featured []int64
	if (req.DeleteRelatedMedia || settings.DeleteMediaWithPosts) && len(ids) > 0 {
		posts, err := g.host.Posts(ctx, PostQuery{IDs: ids})
		if err != nil {
			return nil, failed(err, "listing posts")
		}
		for _, p := range posts {
			if p.FeaturedMediaID != 0 {
				featured = append(featured, p.FeaturedMediaID)
			}
		}
	}
	if req.DeleteRelatedComments && len(ids) > 0 {
		// Comments go with their posts; this also forgets their history.
		if _, err := g.deleteGenerated(ctx, KindComment, deleteScope{subtypes: types}, true); err != nil {
			return nil, err
		}
	}
	err = chunks(len(ids), g.batch, func(lo, hi int) error {
		if err := g.removeObjects(ctx, KindPost, ids[lo:hi], true); err != nil {
			return err
		}
		res.DeletedStats.Posts += hi - lo
		return g.forget(ctx, ids[lo:hi], entries)
	})
	res.DeletedCount = res.DeletedStats.Posts
	if err != nil {
		return nil, err
	}

	// What was generated with the posts, found by the origin recorded in
	// its history entry.
	for _, postType := range scopeTypes(types) {
		meta := func(origin string) map[string]string {
			m := map[string]string{"origin": origin}
			if postType != "" {
				m["post_type"] = postType
			}
			return m
		}
		if req.DeleteRelatedCPTs {
			rel, _, err := g.generated(ctx, KindPost, deleteScope{meta: meta("related")})
			if err != nil {
				return nil, err
			}
			if len(rel) > 0 {
				posts, err := g.host.Posts(ctx, PostQuery{IDs: rel})
				if err != nil {
					return nil, failed(err, "listing related posts")
				}
				if _, err := g.deleteGenerated(ctx, KindPost, deleteScope{ids: rel}, true); err != nil {
					return nil, err
				}
				for _, p := range posts {
					res.DeletedRelatedCPTs[p.Type]++
				}
			}
		}
		if req.DeleteRelatedMedia || settings.DeleteMediaWithPosts {
			n, err := g.deleteGenerated(ctx, KindMedia, deleteScope{meta: meta("featured_image")}, true)
			if err != nil {
				return nil, err
			}
			res.DeletedStats.Media += n
		}
		if req.DeleteRelatedTerms {
			n, err := g.deleteGenerated(ctx, KindTerm, deleteScope{meta: meta("posts")}, true)
			if err != nil {
				return nil, err
			}
			res.DeletedStats.Terms += n
		}
		if req.DeleteRelatedAuthors {
			n, err := g.deleteGenerated(ctx, KindUser, deleteScope{meta: meta("author")}, true)
			if err != nil {
				return nil, err
			}
			res.DeletedStats.Authors += n
		}
	}
	if len(featured) > 0 {
		// Generated featured images of the deleted posts that carry no
		// origin of their own (reused library images, for example).
		n, err := g.deleteGenerated(ctx, KindMedia, deleteScope{ids: featured}, true)
		if err != nil {
			return nil, err
		}
		res.DeletedStats.Media += n
	}
	related := 0
	for _, n := range res.DeletedRelatedCPTs {
		related += n
	}
	res.Message = g.Messages(ctx).PostsDeleted(res.DeletedCount, res.DeletedStats.Media+res.DeletedStats.Terms+res.DeletedStats.Authors+related)
	return res, nil
}

// scopeTypes turns a nil type list (all types) into one empty entry so the
// related-item loop runs once without a post type filter.
func scopeTypes(types []string) []string {
	if len(types) == 0 {
		return []string{""}
	}
	return types
}

// CleanupAll permanently removes every generated post (all types), comment,
// term, user and generated or uploaded media item, found through the
// history and the markers, then clears the history.
func (g *Generator) CleanupAll(ctx context.Context) (*CleanupResult, error) {
	res := &CleanupResult{Success: true}
	var err error
	if _, err = g.deleteGenerated(ctx, KindComment, deleteScope{}, true); err != nil {
		return nil, err
	}
	if res.Stats.Posts, err = g.deleteGenerated(ctx, KindPost, deleteScope{}, true); err != nil {
		return nil, err
	}
	if res.Stats.Media, err = g.deleteGenerated(ctx, KindMedia, deleteScope{}, true); err != nil {
		return nil, err
	}
	if res.Stats.Terms, err = g.deleteGenerated(ctx, KindTerm, deleteScope{}, true); err != nil {
		return nil, err
	}
	if res.Stats.Users, err = g.deleteGenerated(ctx, KindUser, deleteScope{}, true); err != nil {
		return nil, err
	}
	if err := g.hist.Clear(ctx); err != nil {
		return nil, failed(err, "clearing history")
	}
	res.Message = g.Messages(ctx).CleanedUp(res.Stats)
	return res, nil
}
