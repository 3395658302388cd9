package contentgen

import (
	"context"
	"fmt"
	"slices"

	"github.com/contentgen/contentgen/history"
)

// Deletion finds generated items through the history and the generated
// marker, never otherwise, and removes exactly those.

// deleteScope narrows which generated items of a kind are deleted.
type deleteScope struct {
	// subtypes keeps items of these post types (posts, comments) or
	// taxonomies (terms); empty means all.
	subtypes []string
	// ids keeps only these host ids when active (none when its list is
	// empty); the zero filter keeps every id.
	ids IDFilter
	// meta keeps only items whose history entry has these meta values;
	// items found by marker alone do not qualify when set.
	meta map[string]string
}

// empty reports whether the scope selects nothing at all: an active id
// filter without ids.
func (sc deleteScope) empty() bool { return sc.ids.Active() && len(sc.ids.List()) == 0 }

// generated finds the generated items of a kind in scope: the union of the
// history and the marker meta, restricted to items that still exist, in
// ascending order. It reads both a page at a time and keeps only ids.
func (g *Generator) generated(ctx context.Context, kind ObjectKind, sc deleteScope) ([]int64, error) {
	if sc.empty() {
		return nil, nil
	}
	set := map[int64]bool{}
	err := g.historyPages(ctx, g.scopeFilter(kind, sc), func(ids []int64) error {
		for _, id := range ids {
			set[id] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(sc.meta) == 0 {
		for _, key := range markerKeys(kind) {
			err := g.markedPages(ctx, kind, sc, key, func(ids []int64) (int, error) {
				for _, id := range ids {
					set[id] = true
				}
				return 0, nil
			})
			if err != nil {
				return nil, err
			}
		}
	}
	ids := make([]int64, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var live []int64
	err = chunks(len(ids), g.deletePage(), func(lo, hi int) error {
		ok, err := g.existing(ctx, kind, ids[lo:hi])
		for _, id := range ids[lo:hi] {
			if ok[id] {
				live = append(live, id)
			}
		}
		return err
	})
	return live, err
}

// deletePage is how many history entries or objects deletion reads, and
// how many objects it removes in one transaction, at a time.
func (g *Generator) deletePage() int { return max(g.cfg.BatchSize, 100) }

// scopeFilter is the history filter of the items of kind in scope.
func (g *Generator) scopeFilter(kind ObjectKind, sc deleteScope) history.Filter {
	return history.Filter{ContentType: string(kind), ContentSubtypes: sc.subtypes, ContentIDs: sc.ids.List(), MetaEquals: sc.meta}
}

// historyPages calls fn with the distinct content ids of the history
// entries matching f, a page at a time in content id order, so that
// memory stays bounded whatever the history's size. fn may delete the
// entries it is given.
func (g *Generator) historyPages(ctx context.Context, f history.Filter, fn func(ids []int64) error) error {
	f.ByContentID, f.NoTotal, f.Limit, f.Offset = true, true, g.deletePage(), 0
	for {
		entries, _, err := g.hist.List(ctx, f)
		if err != nil {
			return failed(err, "reading history")
		}
		if len(entries) == 0 {
			return nil
		}
		// A content id whose entries the limit cut goes whole: the
		// callers act on ids, not entries.
		f.AfterContentID = entries[len(entries)-1].ContentID
		if err := fn(uniqueIDs(entries)); err != nil {
			return err
		}
		if len(entries) < f.Limit {
			return nil
		}
	}
}

// markerKeys are the meta keys that mark objects of kind as generated
// (for media also as uploaded).
func markerKeys(kind ObjectKind) []string {
	if kind == KindMedia {
		return []string{MarkerKey, UploadedKey}
	}
	return []string{MarkerKey}
}

// markedPages calls fn with the ids of the objects of kind in scope that
// carry the meta key with MarkerValue, a page at a time in id order. fn
// returns how many of the ids it removed for good, so that the next page
// starts after the objects that remain.
func (g *Generator) markedPages(ctx context.Context, kind ObjectKind, sc deleteScope, key string, fn func(ids []int64) (int, error)) error {
	limit := g.deletePage()
	offset := 0
	for {
		q := refQuery{ids: sc.ids, metaKey: key, metaValue: MarkerValue, limit: limit, offset: offset}
		if kind != KindComment {
			q.subtypes = sc.subtypes
		}
		refs, err := g.refs(ctx, kind, q)
		if err != nil {
			return err
		}
		if len(refs) == 0 {
			return nil
		}
		ids := make([]int64, 0, len(refs))
		if kind == KindComment && len(sc.subtypes) > 0 {
			// Comments on posts of the scope's post types.
			posts := make([]int64, len(refs))
			for i, r := range refs {
				posts[i] = r.postID
			}
			onType, err := g.refs(ctx, KindPost, refQuery{ids: OnlyIDs(posts...), subtypes: sc.subtypes})
			if err != nil {
				return err
			}
			keep := make(map[int64]bool, len(onType))
			for _, p := range onType {
				keep[p.id] = true
			}
			for _, r := range refs {
				if keep[r.postID] {
					ids = append(ids, r.id)
				}
			}
		} else {
			for _, r := range refs {
				ids = append(ids, r.id)
			}
		}
		removed, err := fn(ids)
		if err != nil {
			return err
		}
		if len(refs) < limit {
			return nil
		}
		offset += len(refs) - removed
	}
}

// exist reports for each id whether the object still exists, through the
// host's Exister when it has one.
func (g *Generator) exist(ctx context.Context, kind ObjectKind, ids []int64) ([]bool, error) {
	return existOn(ctx, g.host, kind, ids)
}

// existOn is exist through h, such as a host bound to a transaction.
func existOn(ctx context.Context, h Host, kind ObjectKind, ids []int64) ([]bool, error) {
	out := make([]bool, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	if ex, ok := h.(Exister); ok {
		res, err := ex.Exist(ctx, kind, ids)
		if err != nil {
			return nil, failed(err, "checking existence")
		}
		return res, nil
	}
	refs, err := refsOn(ctx, h, kind, refQuery{ids: OnlyIDs(ids...)})
	if err != nil {
		return nil, err
	}
	found := make(map[int64]bool, len(refs))
	for _, r := range refs {
		found[r.id] = true
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
//
// A scope without an id filter is worked through a page at a time, first through
// the history, then through the markers, one transaction per page, so
// that memory stays bounded whatever the site's size.
func (g *Generator) deleteGenerated(ctx context.Context, kind ObjectKind, sc deleteScope, force bool) (int, error) {
	if sc.ids.Active() {
		ids, err := g.generated(ctx, kind, sc)
		if err != nil {
			return 0, err
		}
		n := 0
		err = chunks(len(ids), g.deletePage(), func(lo, hi int) error {
			k, err := g.deleteBatch(ctx, kind, ids[lo:hi], force)
			n += k
			return err
		})
		return n, err
	}
	total := 0
	err := g.historyPages(ctx, g.scopeFilter(kind, sc), func(ids []int64) error {
		n, err := g.deleteBatch(ctx, kind, ids, force)
		total += n
		return err
	})
	if err != nil || len(sc.meta) > 0 {
		return total, err
	}
	trashing := g.trashes(kind, force)
	for _, key := range markerKeys(kind) {
		err := g.markedPages(ctx, kind, sc, key, func(ids []int64) (int, error) {
			if trashing {
				// Trashed items keep their history: those found through
				// it were trashed above.
				var err error
				if ids, err = g.untracked(ctx, kind, ids); err != nil {
					return 0, err
				}
			}
			n, err := g.deleteBatch(ctx, kind, ids, force)
			total += n
			if trashing {
				return 0, err
			}
			return n, err
		})
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// untracked returns the ids that have no history entry.
func (g *Generator) untracked(ctx context.Context, kind ObjectKind, ids []int64) ([]int64, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	entries, _, err := g.hist.List(ctx, history.Filter{ContentType: string(kind), ContentIDs: ids, NoTotal: true})
	if err != nil {
		return nil, failed(err, "reading history")
	}
	tracked := make(map[int64]bool, len(entries))
	for _, e := range entries {
		tracked[e.ContentID] = true
	}
	return slices.DeleteFunc(ids, func(id int64) bool { return tracked[id] }), nil
}

// deleteBatch removes those of ids (a page) that still exist, with their
// history entries, in one transaction where the host has them, and
// returns how many it removed.
func (g *Generator) deleteBatch(ctx context.Context, kind ObjectKind, ids []int64, force bool) (int, error) {
	live, err := g.existing(ctx, kind, ids)
	if err != nil {
		return 0, err
	}
	ids = slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { return !live[id] })
	if len(ids) == 0 {
		return 0, nil
	}
	slices.Sort(ids)
	err = g.atomically(ctx, func(ctx context.Context, h Host) error {
		if err := g.removeObjects(ctx, h, kind, ids, force); err != nil {
			return err
		}
		if g.trashes(kind, force) {
			return nil
		}
		return g.forget(ctx, kind, ids)
	})
	if err != nil {
		return 0, err
	}
	return len(ids), nil
}

// atomically runs fn in one host transaction when the host has them, so
// that removing content and forgetting its history (when the history
// store shares the host's database, as sqlstore's does) are kept or
// undone together; elsewhere fn runs on the host as two steps. fn must
// make its host calls through h.
func (g *Generator) atomically(ctx context.Context, fn func(ctx context.Context, h Host) error) error {
	if tx, ok := g.host.(Transactor); ok {
		return tx.InTx(ctx, fn)
	}
	return fn(ctx, g.host)
}

// trashes reports whether removing objects of kind without force moves
// them to the host's trash.
func (g *Generator) trashes(kind ObjectKind, force bool) bool {
	if force || kind != KindPost && kind != KindComment {
		return false
	}
	_, ok := g.host.(Trasher)
	return ok
}

// removeObjects deletes (or trashes) objects of a kind through h.
func (g *Generator) removeObjects(ctx context.Context, h Host, kind ObjectKind, ids []int64, force bool) error {
	var err error
	trash, _ := h.(Trasher)
	switch {
	case kind == KindPost && g.trashes(kind, force):
		err = trash.TrashPosts(ctx, ids)
	case kind == KindComment && g.trashes(kind, force):
		err = trash.TrashComments(ctx, ids)
	case kind == KindPost:
		err = g.deletePostsWithComments(ctx, h, ids)
	case kind == KindComment:
		err = h.DeleteComments(ctx, ids)
	case kind == KindTerm:
		err = h.DeleteTerms(ctx, ids)
	case kind == KindMedia:
		err = h.DeleteMedia(ctx, ids)
	case kind == KindUser:
		var to int64
		if to, err = reassignTarget(ctx, h, ids); err == nil {
			err = h.DeleteUsers(ctx, ids, to)
		}
	}
	if err != nil {
		return failed(err, "deleting "+string(kind)+"s")
	}
	return nil
}

// deletePostsWithComments deletes posts permanently; the host removes
// their comments with them, and the history of those comments goes too.
// A PostDeleter says which comments went; elsewhere they are read before
// the posts go, and those no longer there are forgotten.
func (g *Generator) deletePostsWithComments(ctx context.Context, h Host, ids []int64) error {
	var comments []int64
	if pd, ok := h.(PostDeleter); ok {
		var err error
		if comments, err = pd.DeletePostsWithComments(ctx, ids); err != nil {
			return err
		}
	} else {
		onPosts, err := h.Comments(ctx, CommentQuery{PostIDs: OnlyIDs(ids...)})
		if err != nil {
			return err
		}
		if err := h.DeletePosts(ctx, ids); err != nil {
			return err
		}
		all := make([]int64, len(onPosts))
		for i, c := range onPosts {
			all[i] = c.ID
		}
		live, err := existingOn(ctx, h, KindComment, all)
		if err != nil {
			return err
		}
		for _, id := range all {
			if !live[id] {
				comments = append(comments, id)
			}
		}
	}
	return chunks(len(comments), g.deletePage(), func(lo, hi int) error {
		return g.forget(ctx, KindComment, comments[lo:hi])
	})
}

// reassignTarget picks the user who inherits the posts of deleted users: a
// hand-made administrator if there is one, else any hand-made user, so
// that hand-made posts of a generated author are never removed with it.
func reassignTarget(ctx context.Context, h Host, deleting []int64) (int64, error) {
	users, err := h.Users(ctx, UserQuery{})
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

// forget removes the history entries of deleted objects. It reads them
// after the objects are gone rather than reusing what generated read: an
// object found by its marker may have been recorded by a concurrent run
// (or another process) after that read, and its entry must go too.
func (g *Generator) forget(ctx context.Context, kind ObjectKind, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	entries, _, err := g.hist.List(ctx, history.Filter{ContentType: string(kind), ContentIDs: ids, NoTotal: true})
	if err != nil {
		return failed(err, "reading history")
	}
	if len(entries) == 0 {
		return nil
	}
	hids := make([]string, len(entries))
	for i, e := range entries {
		hids[i] = e.ID
	}
	if _, err := g.hist.Delete(ctx, hids...); err != nil {
		return failed(err, "updating history")
	}
	return nil
}

// deletableKinds are the kinds Delete accepts.
var deletableKinds = []ObjectKind{KindPost, KindTerm, KindUser, KindComment}

// Delete removes generated items of one kind (KindPost, KindTerm,
// KindUser or KindComment) that ids selects: with OnlyIDs those of its
// ids that are generated (other ids are ignored, and no ids delete
// nothing), with the zero IDFilter every generated item of the kind. It
// never touches items that are not generated. Without force, posts and
// comments go to the trash when the host has one (Removed.Trashed).
func (g *Generator) Delete(ctx context.Context, kind ObjectKind, ids IDFilter, force bool) (Removed, error) {
	if kind == "" {
		return Removed{}, invalid("type", "type is required: one of %v", deletableKinds)
	}
	if !slices.Contains(deletableKinds, kind) {
		return Removed{}, invalid("type", "type must be one of %v, got %q", deletableKinds, kind)
	}
	for _, id := range ids.List() {
		if id <= 0 {
			return Removed{}, invalid("ids", "ids must be positive integers, got %d", id)
		}
	}
	n, err := g.deleteGenerated(ctx, kind, deleteScope{ids: ids}, force)
	if err != nil {
		return Removed{}, err
	}
	rm := Removed{Trashed: g.trashes(kind, force)}
	*rm.count(kind) = n
	return rm, nil
}

// count returns the counter of kind.
func (rm *Removed) count(kind ObjectKind) *int {
	switch kind {
	case KindPost:
		return &rm.Posts
	case KindTerm:
		return &rm.Terms
	case KindUser:
		return &rm.Users
	case KindComment:
		return &rm.Comments
	}
	return &rm.Media
}

// postsDeletion is what a DeletePostsRequest removes besides the posts,
// its options completed by the settings.
type postsDeletion struct {
	related, media, terms, authors, comments bool
}

func newPostsDeletion(req *DeletePostsRequest, s *Settings) postsDeletion {
	return postsDeletion{
		related:  req.DeleteRelatedPosts,
		media:    boolOr(req.DeleteRelatedMedia, s.DeleteRelatedMedia) || s.DeleteMediaWithPosts,
		terms:    boolOr(req.DeleteRelatedTerms, s.DeleteRelatedTerms),
		authors:  boolOr(req.DeleteRelatedAuthors, s.DeleteRelatedAuthors),
		comments: boolOr(req.DeleteRelatedComments, s.DeleteRelatedComments),
	}
}

// relatedDeletes are what DeletePosts removes along with the posts: the
// items generated for them, found by the origin their history entry
// records, each removed when its option (or setting) says so.
var relatedDeletes = []struct {
	kind   ObjectKind
	origin string
	wanted func(d postsDeletion) bool
}{
	{KindPost, "related", func(d postsDeletion) bool { return d.related }},
	{KindMedia, "featured_image", func(d postsDeletion) bool { return d.media }},
	{KindTerm, "posts", func(d postsDeletion) bool { return d.terms }},
	{KindUser, "author", func(d postsDeletion) bool { return d.authors }},
}

// DeletePosts permanently removes the generated posts of a post type (or of
// every type with DeleteScope "all") and, as requested (or, for options
// the request leaves nil, as the settings say), the comments, related
// posts, media, terms and authors generated with them. It works in
// chunks of the batch size.
func (g *Generator) DeletePosts(ctx context.Context, req DeletePostsRequest) (Removed, error) {
	s, err := g.settings.load(ctx)
	if err != nil {
		return Removed{}, err
	}
	return g.deletePosts(ctx, req, s)
}

func (g *Generator) deletePosts(ctx context.Context, req DeletePostsRequest, s Settings) (Removed, error) {
	rm := Removed{RelatedPosts: map[string]int{}}
	if req.PostType == "" {
		return rm, invalid("post_type", "post_type is required")
	}
	pt, err := g.postType(ctx, req.PostType)
	if err != nil {
		return rm, err
	}
	v := validator{}
	scope := v.enum("delete_scope", req.DeleteScope, "current_type", "current_type", "all")
	if v.err != nil {
		return rm, v.err
	}
	var types []string
	if scope == "current_type" {
		types = []string{pt.Name}
	}
	ids, err := g.generated(ctx, KindPost, deleteScope{subtypes: types})
	if err != nil {
		return rm, err
	}
	want := newPostsDeletion(&req, &s)
	featured, err := g.featuredToDelete(ctx, want, ids)
	if err != nil {
		return rm, err
	}
	if want.comments {
		// The generated comments on posts of the scope go, also those on
		// hand-made posts and whether or not generated posts remain.
		if rm.Comments, err = g.deleteGenerated(ctx, KindComment, deleteScope{subtypes: types}, true); err != nil {
			return rm, err
		}
	}
	err = chunks(len(ids), g.cfg.BatchSize, func(lo, hi int) error {
		err := g.atomically(ctx, func(ctx context.Context, h Host) error {
			if err := g.removeObjects(ctx, h, KindPost, ids[lo:hi], true); err != nil {
				return err
			}
			return g.forget(ctx, KindPost, ids[lo:hi])
		})
		if err == nil {
			rm.Posts += hi - lo
		}
		return err
	})
	if err != nil {
		return rm, err
	}
	for _, postType := range scopeTypes(types) {
		for _, d := range relatedDeletes {
			if !d.wanted(want) {
				continue
			}
			meta := map[string]string{"origin": d.origin}
			if postType != "" {
				meta["post_type"] = postType
			}
			if err := g.deleteRelated(ctx, d.kind, meta, &rm); err != nil {
				return rm, err
			}
		}
	}
	if len(featured) > 0 {
		// Generated featured images of the deleted posts that carry no
		// origin of their own (reused library images, for example).
		n, err := g.deleteGenerated(ctx, KindMedia, deleteScope{ids: OnlyIDs(featured...)}, true)
		if err != nil {
			return rm, err
		}
		rm.Media += n
	}
	return rm, nil
}

// deleteRelated removes the generated items of kind whose history entry
// has meta, counting them in rm (related posts per post type).
func (g *Generator) deleteRelated(ctx context.Context, kind ObjectKind, meta map[string]string, rm *Removed) error {
	sc := deleteScope{meta: meta}
	if kind != KindPost {
		n, err := g.deleteGenerated(ctx, kind, sc, true)
		*rm.count(kind) += n
		return err
	}
	ids, err := g.generated(ctx, KindPost, sc)
	if err != nil || len(ids) == 0 {
		return err
	}
	refs, err := g.refs(ctx, KindPost, refQuery{ids: OnlyIDs(ids...)})
	if err != nil {
		return err
	}
	if _, err := g.deleteGenerated(ctx, KindPost, deleteScope{ids: OnlyIDs(ids...)}, true); err != nil {
		return err
	}
	for _, r := range refs {
		rm.RelatedPosts[r.subtype]++
	}
	return nil
}

// featuredToDelete returns the featured images of the posts ids when
// their media is to be deleted with them.
func (g *Generator) featuredToDelete(ctx context.Context, want postsDeletion, ids []int64) ([]int64, error) {
	if !want.media || len(ids) == 0 {
		return nil, nil
	}
	posts, err := g.host.Posts(ctx, PostQuery{IDs: OnlyIDs(ids...)})
	if err != nil {
		return nil, failed(err, "listing posts")
	}
	var out []int64
	for _, p := range posts {
		if p.FeaturedMediaID != 0 {
			out = append(out, p.FeaturedMediaID)
		}
	}
	return out, nil
}

// scopeTypes turns a nil type list (all types) into one empty entry so the
// related-item loop runs once without a post type filter.
func scopeTypes(types []string) []string {
	if len(types) == 0 {
		return []string{""}
	}
	return types
}

// DeleteAll permanently removes every generated post (all types), comment,
// term, user and generated or uploaded media item, found through the
// history and the markers, then the history entries of what no longer
// exists. Content generated by runs still in progress, and its history,
// is left alone. Media goes first: its files free the most space, which
// a site whose storage is full needs for the rest.
func (g *Generator) DeleteAll(ctx context.Context) (Removed, error) {
	var rm Removed
	for _, kind := range []ObjectKind{KindMedia, KindComment, KindPost, KindTerm, KindUser} {
		n, err := g.deleteGenerated(ctx, kind, deleteScope{}, true)
		if err != nil {
			return rm, err
		}
		*rm.count(kind) = n
	}
	if _, err := g.history.Prune(ctx); err != nil {
		return rm, err
	}
	return rm, nil
}
