package wphost

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// validPostStatus reports whether a post may have status s.
func validPostStatus(s string) bool {
	switch s {
	case contentgen.StatusPublish, contentgen.StatusDraft, contentgen.StatusPending,
		contentgen.StatusPrivate, contentgen.StatusFuture, contentgen.StatusTrash:
		return true
	}
	return false
}

// postCols are the columns CreatePosts and CreateMedia write.
var postCols = []string{
	"post_author", "post_date", "post_date_gmt", "post_content", "post_title", "post_excerpt",
	"post_status", "comment_status", "ping_status", "post_password", "post_name", "to_ping", "pinged",
	"post_modified", "post_modified_gmt", "post_content_filtered", "post_parent", "guid",
	"menu_order", "post_type", "post_mime_type", "comment_count",
}

// postRow is a row of the posts table to insert.
type postRow struct {
	author          int64
	date            time.Time
	content, title  string
	excerpt, status string
	name            string
	parent          int64
	guid            string
	typ, mime       string
	commentStatus   string
}

// values returns the row's values in postCols order.
func (r *postRow) values(loc *time.Location, now time.Time) []any {
	local, gmt := localAndGMT(r.date, loc)
	mlocal, mgmt := localAndGMT(now, loc)
	return []any{
		r.author, local, gmt, r.content, r.title, r.excerpt,
		r.status, r.commentStatus, "open", "", r.name, "", "",
		mlocal, mgmt, "", r.parent, r.guid,
		0, r.typ, r.mime, 0,
	}
}

// CreatePosts stores posts, their terms, meta and featured images, in
// one transaction. An empty Status becomes draft; post_name is made from
// the title and made unique as wp_insert_post does (drafts and pending
// posts have none); the dates are written in the site's time zone and in
// GMT; the counts of the terms used are brought up to date.
func (h *Host) CreatePosts(ctx context.Context, posts []contentgen.Post) ([]int64, error) {
	if len(posts) == 0 {
		return []int64{}, ctx.Err()
	}
	var ids []int64
	err := h.write(ctx, "creating posts", func(ctx context.Context, q sqlstore.Querier) error {
		var err error
		ids, err = h.createPosts(ctx, q, posts)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

func (h *Host) createPosts(ctx context.Context, q sqlstore.Querier, posts []contentgen.Post) ([]int64, error) {
	now := h.s.o.Now()
	rows := make([]postRow, len(posts))
	var authors, parents, media, termIDs []int64
	for i := range posts {
		p := &posts[i]
		pt, ok := h.s.postType(p.Type)
		if !ok || p.Type == "attachment" {
			return nil, invalidf("unknown post type %q", p.Type)
		}
		status := p.Status
		if status == "" {
			status = contentgen.StatusDraft
		}
		if !validPostStatus(status) {
			return nil, invalidf("unknown post status %q", p.Status)
		}
		for tax, tids := range p.Terms {
			if _, ok := h.s.taxonomy(tax); !ok || !h.s.linked(pt.Name, tax) {
				return nil, invalidf("taxonomy %q is not registered for post type %q", tax, pt.Name)
			}
			termIDs = append(termIDs, tids...)
		}
		date := p.Date
		if date.IsZero() {
			date = now
		}
		cs := "closed"
		if slices.Contains(pt.Supports, "comments") {
			cs = "open"
		}
		rows[i] = postRow{author: p.AuthorID, date: date, content: p.Content, title: p.Title, excerpt: p.Excerpt,
			status: status, parent: p.ParentID, typ: p.Type, commentStatus: cs}
		if p.AuthorID != 0 {
			authors = append(authors, p.AuthorID)
		}
		if p.ParentID != 0 {
			parents = append(parents, p.ParentID)
		}
		if p.FeaturedMediaID != 0 {
			media = append(media, p.FeaturedMediaID)
		}
	}
	if err := h.lockWrites(ctx, q); err != nil {
		return nil, err
	}
	// The objects referred to, locked until the end of the transaction
	// so that a concurrent delete cannot slip in.
	if err := h.requireIDs(ctx, q, "author", "SELECT ID FROM "+h.s.t.users+" WHERE ID IN (%s) LOCK IN SHARE MODE", authors); err != nil {
		return nil, err
	}
	if err := h.requireIDs(ctx, q, "parent post", "SELECT ID FROM "+h.s.t.posts+" WHERE ID IN (%s) AND post_type NOT IN ('attachment', 'revision') LOCK IN SHARE MODE", parents); err != nil {
		return nil, err
	}
	if err := h.requireIDs(ctx, q, "featured media", "SELECT ID FROM "+h.s.t.posts+" WHERE ID IN (%s) AND post_type = 'attachment' LOCK IN SHARE MODE", media); err != nil {
		return nil, err
	}
	tts, err := h.termTaxonomies(ctx, q, dedupe(termIDs), true)
	if err != nil {
		return nil, err
	}
	for i := range posts {
		for tax, tids := range posts[i].Terms {
			for _, id := range tids {
				if tt, ok := tts[id]; !ok || tt.taxonomy != tax {
					return nil, missingf("term %d does not exist in taxonomy %q", id, tax)
				}
			}
		}
	}
	if err := h.assignPostNames(ctx, q, rows); err != nil {
		return nil, err
	}
	loc := h.s.loc
	ids, err := h.insertIDs(ctx, q, h.s.t.posts, postCols, len(rows), func(i int) []any { return rows[i].values(loc, now) })
	if err != nil {
		return nil, err
	}
	if err := h.finishPosts(ctx, q, ids, rows); err != nil {
		return nil, err
	}
	// Meta, featured images and term links.
	var meta []metaRow
	var links []termLink
	for i := range posts {
		p := &posts[i]
		if p.FeaturedMediaID != 0 {
			meta = append(meta, metaRow{ids[i], "_thumbnail_id", strconv.FormatInt(p.FeaturedMediaID, 10)})
		}
		meta = sortedMeta(meta, ids[i], p.Meta)
		for _, tax := range sortedKeys(p.Terms) {
			for order, id := range dedupe(p.Terms[tax]) {
				_ = order
				links = append(links, termLink{ids[i], tts[id].ttID})
			}
		}
	}
	if err := insertMeta(ctx, q, h.s.t.postmeta, "post_id", meta); err != nil {
		return nil, err
	}
	if err := h.linkTerms(ctx, q, links); err != nil {
		return nil, err
	}
	return ids, nil
}

// requireIDs checks that every id is found by query (one "%s" for the
// placeholders), else fails with ErrHostReference naming what.
func (h *Host) requireIDs(ctx context.Context, q sqlstore.Querier, what, query string, ids []int64) error {
	ids = dedupe(ids)
	if len(ids) == 0 {
		return nil
	}
	found, err := h.idSet(ctx, q, fmt.Sprintf(query, marks(len(ids))), int64Args(ids))
	if err != nil {
		return err
	}
	for _, id := range ids {
		if !found[id] {
			return missingf("%s %d does not exist", what, id)
		}
	}
	return nil
}

// assignPostNames sets the post_name of rows: the title's slug made
// unique as wp_unique_post_slug does, except for drafts and pending
// posts, which have none until they are published.
func (h *Host) assignPostNames(ctx context.Context, q sqlstore.Querier, rows []postRow) error {
	var bases []string
	for i := range rows {
		r := &rows[i]
		if r.status == contentgen.StatusDraft || r.status == contentgen.StatusPending {
			continue
		}
		r.name = sanitizeTitle(r.title)
		if r.name != "" {
			bases = append(bases, r.name)
		}
	}
	if len(bases) == 0 {
		return nil
	}
	taken, err := h.existingNames(ctx, q, bases)
	if err != nil {
		return err
	}
	for i := range rows {
		r := &rows[i]
		if r.name == "" {
			continue // named after its id by finishPosts
		}
		scope := h.slugScope(r.typ, r.parent)
		r.name = uniqueSlug(r.name, func(s string) bool { return taken.has(scope, s) })
		taken.add(scope, r.name)
	}
	return nil
}

// slugScope is the set of posts a post's slug must differ from:
// attachments clash with every post, posts of hierarchical types with the
// posts of their type (and attachments) under the same parent, other
// posts with those of their type.
type slugScope struct {
	typ    string // "" for every type
	parent int64
	hier   bool
}

func (h *Host) slugScope(typ string, parent int64) slugScope {
	if typ == "attachment" {
		return slugScope{}
	}
	pt, _ := h.s.postType(typ)
	if pt.Hierarchical {
		return slugScope{typ: typ, parent: parent, hier: true}
	}
	return slugScope{typ: typ}
}

// postNames are the names taken in the database and the batch.
type postNames struct {
	rows []nameRow
	// byName indexes rows by name.
	byName map[string][]int
}

type nameRow struct {
	name, typ string
	parent    int64
}

func (n *postNames) add(sc slugScope, name string) {
	typ := sc.typ
	if typ == "" {
		typ = "attachment"
	}
	n.byName[name] = append(n.byName[name], len(n.rows))
	n.rows = append(n.rows, nameRow{name, typ, sc.parent})
}

// has reports whether name clashes within scope.
func (n *postNames) has(sc slugScope, name string) bool {
	for _, i := range n.byName[name] {
		r := n.rows[i]
		switch {
		case sc.typ == "":
			return true
		case sc.hier:
			if (r.typ == sc.typ || r.typ == "attachment") && r.parent == sc.parent {
				return true
			}
		default:
			if r.typ == sc.typ {
				return true
			}
		}
	}
	return false
}

// existingNames reads the post names in the database that could clash
// with bases or their numbered forms.
func (h *Host) existingNames(ctx context.Context, q sqlstore.Querier, bases []string) (*postNames, error) {
	n := &postNames{byName: map[string][]int{}}
	uniq := slices.Compact(slices.Sorted(slices.Values(bases)))
	scan := func(r *sql.Rows) error {
		var nr nameRow
		if err := r.Scan(&nr.name, &nr.typ, &nr.parent); err != nil {
			return err
		}
		n.byName[nr.name] = append(n.byName[nr.name], len(n.rows))
		n.rows = append(n.rows, nr)
		return nil
	}
	for start := 0; start < len(uniq); start += 1000 {
		chunk := uniq[start:min(start+1000, len(uniq))]
		err := q.QueryEach(ctx, "SELECT post_name, post_type, post_parent FROM "+h.s.t.posts+" WHERE post_name IN ("+marks(len(chunk))+")", stringArgs(chunk), scan)
		if err != nil {
			return nil, err
		}
	}
	// Bases that are taken may have numbered forms taken too.
	var clashed []string
	for _, b := range uniq {
		if len(n.byName[b]) > 0 {
			clashed = append(clashed, b)
		}
	}
	for _, b := range clashed {
		err := q.QueryEach(ctx, "SELECT post_name, post_type, post_parent FROM "+h.s.t.posts+" WHERE post_name LIKE ? ESCAPE '!'",
			[]any{likePrefix(truncateSlug(b, maxSlugBytes-3)) + "-%"}, scan)
		if err != nil {
			return nil, err
		}
	}
	return n, nil
}

// likePrefix escapes s for a LIKE pattern with the escape character '!'.
func likePrefix(s string) string {
	l := likeArg(s)
	return l[1 : len(l)-1]
}

// finishPosts sets what needs the new ids: the guid, and the post_name
// of published posts whose title gives no slug (their id, as WordPress
// names them).
func (h *Host) finishPosts(ctx context.Context, q sqlstore.Querier, ids []int64, rows []postRow) error {
	byType := map[string][]int64{}
	var unnamed []int64
	for i, r := range rows {
		byType[r.typ] = append(byType[r.typ], ids[i])
		if r.name == "" && r.status != contentgen.StatusDraft && r.status != contentgen.StatusPending {
			unnamed = append(unnamed, ids[i])
		}
	}
	for _, typ := range sortedKeys(byType) {
		tids := byType[typ]
		if _, err := q.ExecContext(ctx, "UPDATE "+h.s.t.posts+" SET guid = CONCAT(?, ID) WHERE ID IN ("+marks(len(tids))+")",
			append([]any{h.guidPrefix(typ)}, int64Args(tids)...)...); err != nil {
			return err
		}
	}
	if len(unnamed) > 0 {
		if _, err := q.ExecContext(ctx, "UPDATE "+h.s.t.posts+" SET post_name = ID WHERE ID IN ("+marks(len(unnamed))+")", int64Args(unnamed)...); err != nil {
			return err
		}
	}
	return nil
}

// guidPrefix is the start of the guid of a post of type typ, before its
// id: the plain permalink WordPress gives a post without a pretty one.
func (h *Host) guidPrefix(typ string) string {
	home := h.s.info.URL
	switch typ {
	case "post":
		return home + "/?p="
	case "page":
		return home + "/?page_id="
	}
	return home + "/?post_type=" + typ + "&p="
}

// postQuery returns the WHERE clause and arguments of q, over posts of the
// table alias p.
func (h *Host) postWhere(q contentgen.PostQuery) (string, []any, bool) {
	where := "p.post_type NOT IN ('attachment', 'revision')"
	var args []any
	if q.IDs.Active() {
		ids := dedupe(q.IDs.List())
		if len(ids) == 0 {
			return "", nil, false
		}
		where += " AND p.ID IN (" + marks(len(ids)) + ")"
		args = append(args, int64Args(ids)...)
	}
	if len(q.Types) > 0 {
		where += " AND p.post_type IN (" + marks(len(q.Types)) + ")"
		args = append(args, stringArgs(q.Types)...)
	}
	if len(q.Statuses) > 0 {
		where += " AND p.post_status IN (" + marks(len(q.Statuses)) + ")"
		args = append(args, stringArgs(q.Statuses)...)
	}
	if q.AuthorID != 0 {
		where += " AND p.post_author = ?"
		args = append(args, q.AuthorID)
	}
	if q.Search != "" {
		where += " AND p.post_title LIKE ? ESCAPE '!'"
		args = append(args, likeArg(q.Search))
	}
	if q.MetaKey != "" {
		c, a := metaFilter(h.s.t.postmeta, "post_id", "p.ID", q.MetaKey, q.MetaValue)
		where += " AND " + c
		args = append(args, a...)
	}
	return where, args, true
}

// limitClause returns LIMIT/OFFSET for limit and offset.
func limitClause(limit, offset int) string {
	switch {
	case limit > 0:
		return " LIMIT " + strconv.Itoa(limit) + " OFFSET " + strconv.Itoa(max(offset, 0))
	case offset > 0:
		return " LIMIT 18446744073709551615 OFFSET " + strconv.Itoa(offset)
	}
	return ""
}

// Posts returns the posts (of every type but attachments and revisions)
// matching pq, ordered by id, with their terms, meta and featured image.
func (h *Host) Posts(ctx context.Context, pq contentgen.PostQuery) ([]contentgen.Post, error) {
	where, args, ok := h.postWhere(pq)
	if !ok {
		return []contentgen.Post{}, ctx.Err()
	}
	q := h.q(ctx)
	var out []contentgen.Post
	query := "SELECT p.ID, p.post_type, p.post_status, p.post_title, p.post_content, p.post_excerpt, p.post_author, p.post_parent, p.post_date, p.post_date_gmt FROM " +
		h.s.t.posts + " p WHERE " + where + " ORDER BY p.ID" + limitClause(pq.Limit, pq.Offset)
	err := q.QueryEach(ctx, query, args, func(r *sql.Rows) error {
		var p contentgen.Post
		var local, gmt time.Time
		if err := r.Scan(&p.ID, &p.Type, &p.Status, &p.Title, &p.Content, &p.Excerpt, &p.AuthorID, &p.ParentID, &local, &gmt); err != nil {
			return err
		}
		p.Date = fromColumns(local, gmt, h.s.loc)
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, h.fail(ctx, "reading posts", err)
	}
	if len(out) == 0 {
		return []contentgen.Post{}, nil
	}
	ids := make([]int64, len(out))
	for i := range out {
		ids[i] = out[i].ID
	}
	all, err := h.loadMeta(ctx, q, contentgen.KindPost, ids, false)
	if err != nil {
		return nil, h.fail(ctx, "reading post meta", err)
	}
	terms, err := h.objectTerms(ctx, q, ids)
	if err != nil {
		return nil, h.fail(ctx, "reading post terms", err)
	}
	for i := range out {
		p := &out[i]
		m := all[p.ID]
		if v, ok := m["_thumbnail_id"]; ok {
			p.FeaturedMediaID, _ = strconv.ParseInt(v, 10, 64)
			delete(m, "_thumbnail_id")
		}
		p.Meta = m
		p.Terms = terms[p.ID]
	}
	return out, nil
}

// DeletePosts removes posts for good, as wp_delete_post does: their meta,
// term links (term counts brought up to date), comments with their meta,
// and revisions; child posts and attached media move to the removed
// post's parent.
func (h *Host) DeletePosts(ctx context.Context, ids []int64) error {
	ids = dedupe(ids)
	if len(ids) == 0 {
		return ctx.Err()
	}
	return h.write(ctx, "deleting posts", func(ctx context.Context, q sqlstore.Querier) error {
		return h.deletePosts(ctx, q, ids, "p.post_type NOT IN ('attachment', 'revision')")
	})
}

// deletePosts removes the posts among ids that match cond (on alias p).
func (h *Host) deletePosts(ctx context.Context, q sqlstore.Querier, ids []int64, cond string) error {
	t := h.s.t
	parents := map[int64]int64{}
	err := q.QueryEach(ctx, "SELECT p.ID, p.post_parent FROM "+t.posts+" p WHERE p.ID IN ("+marks(len(ids))+") AND "+cond+" FOR UPDATE", int64Args(ids),
		func(r *sql.Rows) error {
			var id, parent int64
			if err := r.Scan(&id, &parent); err != nil {
				return err
			}
			parents[id] = parent
			return nil
		})
	if err != nil || len(parents) == 0 {
		return err
	}
	doomed := sortedKeys(parents)
	// Revisions go with their post.
	revs, err := h.idSet(ctx, q, "SELECT ID FROM "+t.posts+" WHERE post_type = 'revision' AND post_parent IN ("+marks(len(doomed))+")", int64Args(doomed))
	if err != nil {
		return err
	}
	// Children move to the nearest parent that stays.
	if err := h.reparent(ctx, q, t.posts, "post_parent", "ID", parents); err != nil {
		return err
	}
	all := append(slices.Clone(doomed), sortedKeys(revs)...)
	in := marks(len(all))
	args := int64Args(all)
	tts, err := h.idSet(ctx, q, "SELECT DISTINCT term_taxonomy_id FROM "+t.termRels+" WHERE object_id IN ("+in+")", args)
	if err != nil {
		return err
	}
	stmts := []string{
		"DELETE cm FROM " + t.commentmeta + " cm JOIN " + t.comments + " c ON c.comment_ID = cm.comment_id WHERE c.comment_post_ID IN (" + in + ")",
		"DELETE FROM " + t.comments + " WHERE comment_post_ID IN (" + in + ")",
		"DELETE FROM " + t.postmeta + " WHERE post_id IN (" + in + ")",
		"DELETE FROM " + t.termRels + " WHERE object_id IN (" + in + ")",
		"DELETE FROM " + t.posts + " WHERE ID IN (" + in + ")",
	}
	for _, s := range stmts {
		if _, err := q.ExecContext(ctx, s, args...); err != nil {
			return err
		}
	}
	return h.recountTerms(ctx, q, sortedKeys(tts))
}

// reparent moves the children of removed rows (removed: id to parent) to
// the nearest ancestor that is not removed, in one UPDATE of table.
func (h *Host) reparent(ctx context.Context, q sqlstore.Querier, table, parentCol, idCol string, removed map[int64]int64) error {
	if len(removed) == 0 {
		return nil
	}
	var set []any
	var cases string
	for _, id := range sortedKeys(removed) {
		up := removed[id]
		for seen := 0; up != 0 && seen < len(removed); seen++ {
			next, ok := removed[up]
			if !ok {
				break
			}
			up = next
		}
		if _, ok := removed[up]; ok {
			up = 0
		}
		cases += " WHEN ? THEN ?"
		set = append(set, id, up)
	}
	ids := sortedKeys(removed)
	args := append(set, int64Args(ids)...)
	args = append(args, int64Args(ids)...)
	_, err := q.ExecContext(ctx, "UPDATE "+table+" SET "+parentCol+" = CASE "+parentCol+cases+" END WHERE "+parentCol+" IN ("+marks(len(ids))+") AND "+idCol+" NOT IN ("+marks(len(ids))+")", args...)
	return err
}

// TrashPosts moves posts to the trash as wp_trash_post does: status
// trash, the former status and the time in _wp_trash_meta_status and
// _wp_trash_meta_time, the slug kept in _wp_desired_post_slug and
// suffixed with __trashed, and the comments marked post-trashed (their
// statuses kept in _wp_trash_meta_comments_status). Term counts follow.
func (h *Host) TrashPosts(ctx context.Context, ids []int64) error {
	ids = dedupe(ids)
	if len(ids) == 0 {
		return ctx.Err()
	}
	t := h.s.t
	return h.write(ctx, "trashing posts", func(ctx context.Context, q sqlstore.Querier) error {
		type old struct{ status, name string }
		olds := map[int64]old{}
		err := q.QueryEach(ctx, "SELECT ID, post_status, post_name FROM "+t.posts+" WHERE ID IN ("+marks(len(ids))+") AND post_type NOT IN ('attachment', 'revision') AND post_status <> 'trash' FOR UPDATE",
			int64Args(ids), func(r *sql.Rows) error {
				var id int64
				var o old
				if err := r.Scan(&id, &o.status, &o.name); err != nil {
					return err
				}
				olds[id] = o
				return nil
			})
		if err != nil || len(olds) == 0 {
			return err
		}
		live := sortedKeys(olds)
		in, args := marks(len(live)), int64Args(live)
		comments := map[int64]phpArray{}
		err = q.QueryEach(ctx, "SELECT comment_post_ID, comment_ID, comment_approved FROM "+t.comments+" WHERE comment_post_ID IN ("+in+") ORDER BY comment_ID", args,
			func(r *sql.Rows) error {
				var post, id int64
				var st string
				if err := r.Scan(&post, &id, &st); err != nil {
					return err
				}
				comments[post] = append(comments[post], phpEntry{id, st})
				return nil
			})
		if err != nil {
			return err
		}
		when := strconv.FormatInt(h.s.o.Now().Unix(), 10)
		var meta []metaRow
		for _, id := range live {
			o := olds[id]
			meta = append(meta, metaRow{id, "_wp_trash_meta_status", o.status}, metaRow{id, "_wp_trash_meta_time", when})
			if o.name != "" {
				meta = append(meta, metaRow{id, "_wp_desired_post_slug", o.name})
			}
			if cs := comments[id]; len(cs) > 0 {
				v, err := phpSerialize(cs)
				if err != nil {
					return err
				}
				meta = append(meta, metaRow{id, "_wp_trash_meta_comments_status", v})
			}
		}
		if _, err := q.ExecContext(ctx, "DELETE FROM "+t.postmeta+" WHERE post_id IN ("+in+") AND meta_key IN ('_wp_trash_meta_status', '_wp_trash_meta_time', '_wp_desired_post_slug', '_wp_trash_meta_comments_status')", args...); err != nil {
			return err
		}
		if err := insertMeta(ctx, q, t.postmeta, "post_id", meta); err != nil {
			return err
		}
		mlocal, mgmt := localAndGMT(h.s.o.Now(), h.s.loc)
		if _, err := q.ExecContext(ctx, "UPDATE "+t.posts+" SET post_status = 'trash', post_name = IF(post_name = '', '', CONCAT(LEFT(post_name, 191), '__trashed')), post_modified = ?, post_modified_gmt = ? WHERE ID IN ("+in+")",
			append([]any{mlocal, mgmt}, args...)...); err != nil {
			return err
		}
		if _, err := q.ExecContext(ctx, "UPDATE "+t.comments+" SET comment_approved = 'post-trashed' WHERE comment_post_ID IN ("+in+")", args...); err != nil {
			return err
		}
		tts, err := h.idSet(ctx, q, "SELECT DISTINCT term_taxonomy_id FROM "+t.termRels+" WHERE object_id IN ("+in+")", args)
		if err != nil {
			return err
		}
		return h.recountTerms(ctx, q, sortedKeys(tts))
	})
}

// sortedKeys returns the keys of m in order.
func sortedKeys[K int64 | string, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
