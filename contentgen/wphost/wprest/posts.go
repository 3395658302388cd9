package wprest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"sync"

	"github.com/contentgen/contentgen/contentgen"
)

// wirePost is a post as the REST API returns it in context edit; the
// taxonomy fields are read from the raw object.
type wirePost struct {
	ID            int64      `json:"id"`
	Type          string     `json:"type"`
	Status        string     `json:"status"`
	Title         rendered   `json:"title"`
	Content       rendered   `json:"content"`
	Excerpt       rendered   `json:"excerpt"`
	Author        int64      `json:"author"`
	Parent        int64      `json:"parent"`
	DateGMT       string     `json:"date_gmt"`
	FeaturedMedia int64      `json:"featured_media"`
	Extra         *wireExtra `json:"contentgen"`
}

// createWriter sends create requests to one collection, through the
// batch endpoint when the route allows it, and returns ids in order.
func (h *Host) createMany(ctx context.Context, collection string, bodies []map[string]any) ([]int64, error) {
	ix, err := h.c.Index(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(bodies))
	if ix.Batchable(http.MethodPost, collection) {
		chunks := slices.Collect(slices.Chunk(bodies, batchSize))
		err = parallelAll(ctx, len(chunks), func(ctx context.Context, ci int) error {
			reqs := make([]subRequest, len(chunks[ci]))
			for i, b := range chunks[ci] {
				// _fields=id spares WordPress rendering the whole object.
				reqs[i] = subRequest{Method: http.MethodPost, Path: collection + "?_fields=id", Body: b}
			}
			resps, err := h.c.batch(ctx, reqs)
			if err != nil {
				return err
			}
			var first error
			for i, r := range resps {
				var obj struct {
					ID int64 `json:"id"`
				}
				if err := subResult(reqs[i], r, &obj); err != nil {
					first = cmpErr(first, err)
					continue
				}
				ids[ci*batchSize+i] = obj.ID
			}
			return first
		})
	} else {
		err = parallelAll(ctx, len(bodies), func(ctx context.Context, i int) error {
			var obj struct {
				ID int64 `json:"id"`
			}
			req := &request{method: http.MethodPost, path: collection, query: url.Values{"_fields": {"id"}}, body: bodies[i]}
			if _, err := h.c.do(ctx, req, &obj); err != nil {
				return err
			}
			ids[i] = obj.ID
			return nil
		})
	}
	return ids, err
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// deleteMany deletes items of one collection (force=true, or to the trash
// when trash is set), through the batch endpoint when the route allows it.
// Items already gone are ignored. sequential keeps the order (for trees).
func (h *Host) deleteMany(ctx context.Context, collection string, ids []int64, q url.Values, sequential bool) error {
	if len(ids) == 0 {
		return nil
	}
	ix, err := h.c.Index(ctx)
	if err != nil {
		return err
	}
	q = cloneValues(q)
	q.Set("_fields", "id") // spares WordPress rendering the removed object
	enc := q.Encode()
	path := func(id int64) string {
		p := collection + "/" + strconv.FormatInt(id, 10)
		if enc != "" {
			p += "?" + enc
		}
		return p
	}
	ignore := func(err error) error {
		if err == nil || isNotFound(err) {
			return nil
		}
		var ae *APIError
		if asAPIError(err, &ae) && (ae.Code == "rest_already_trashed" || ae.Code == "rest_post_invalid_id" || ae.Code == "rest_term_invalid" || ae.Code == "rest_comment_invalid_id") {
			return nil
		}
		return err
	}
	if ix.Batchable(http.MethodDelete, itemRoute(collection)) {
		chunks := slices.Collect(slices.Chunk(ids, batchSize))
		run := func(ctx context.Context, ci int) error {
			reqs := make([]subRequest, len(chunks[ci]))
			for i, id := range chunks[ci] {
				reqs[i] = subRequest{Method: http.MethodDelete, Path: path(id)}
			}
			resps, err := h.c.batch(ctx, reqs)
			if err != nil {
				return err
			}
			var first error
			for i, r := range resps {
				first = cmpErr(first, ignore(subResult(reqs[i], r, nil)))
			}
			return first
		}
		if sequential {
			for ci := range chunks {
				if err := run(ctx, ci); err != nil {
					return err
				}
			}
			return nil
		}
		return parallel(ctx, len(chunks), run)
	}
	one := func(ctx context.Context, i int) error {
		_, err := h.c.do(ctx, &request{method: http.MethodDelete, path: collection + "/" + strconv.FormatInt(ids[i], 10), query: q}, nil)
		return ignore(err)
	}
	if sequential {
		for i := range ids {
			if err := one(ctx, i); err != nil {
				return err
			}
		}
		return nil
	}
	return parallel(ctx, len(ids), one)
}

// CreatePosts creates posts through the REST API (batches of 25 where the
// type's route allows it), then writes their meta, featured images of
// types without thumbnail support and parents of types that are not
// hierarchical in one plugin call, so that queries by meta see the batch
// whole. On failure it deletes what it created.
func (h *Host) CreatePosts(ctx context.Context, posts []contentgen.Post) ([]int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(posts) == 0 {
		return []int64{}, nil
	}
	type group struct {
		pt     PostType
		idx    []int
		bodies []map[string]any
	}
	groups := map[string]*group{}
	var order []string
	items := make([]writeItem, len(posts))
	hasPlugin, err := h.HasPlugin(ctx)
	if err != nil {
		return nil, err
	}
	needPlugin := false
	for i, p := range posts {
		param := "posts[" + strconv.Itoa(i) + "]"
		pt, ok, err := h.postType(ctx, p.Type)
		if err != nil {
			return nil, err
		}
		if !ok || pt.Internal {
			return nil, &contentgen.Error{Code: contentgen.CodeInvalidPostType, Message: fmt.Sprintf("%s.Type: post type %q is not registered with show_in_rest", param, p.Type), Param: param + ".Type"}
		}
		body := map[string]any{"title": p.Title, "content": p.Content, "excerpt": p.Excerpt}
		if p.Status != "" {
			body["status"] = p.Status
		}
		if p.AuthorID > 0 {
			body["author"] = p.AuthorID
		}
		if !p.Date.IsZero() {
			body["date_gmt"] = formatDate(p.Date)
		}
		item := writeItem{Meta: maps.Clone(p.Meta)}
		if p.FeaturedMediaID > 0 {
			// WordPress's featured_media accepts only images it can display
			// and exists only on types with thumbnail support; the plugin
			// sets any existing media item.
			if hasPlugin {
				item.Featured = p.FeaturedMediaID
			} else {
				body["featured_media"] = p.FeaturedMediaID
			}
		}
		if p.ParentID > 0 {
			if pt.Hierarchical {
				body["parent"] = p.ParentID
			} else {
				parent := p.ParentID
				item.Parent = &parent
			}
		}
		for taxName, ids := range p.Terms {
			tx, ok, err := h.taxonomy(ctx, taxName)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, &contentgen.Error{Code: contentgen.CodeInvalidTaxonomy, Message: fmt.Sprintf("%s.Terms: taxonomy %q is not registered with show_in_rest", param, taxName), Param: param + ".Terms"}
			}
			body[tx.RESTBase] = slices.Clone(ids)
		}
		if len(item.Meta) > 0 || item.Parent != nil || item.Featured != 0 {
			needPlugin = true
		}
		items[i] = item
		g := groups[pt.Name]
		if g == nil {
			g = &group{pt: pt}
			groups[pt.Name] = g
			order = append(order, pt.Name)
		}
		g.idx = append(g.idx, i)
		g.bodies = append(g.bodies, body)
	}
	if needPlugin {
		if err := h.needPlugin(ctx, "CreatePosts with meta, or a parent on a type that is not hierarchical"); err != nil {
			return nil, err
		}
	}
	ids := make([]int64, len(posts))
	var mu sync.Mutex
	err = parallelAll(ctx, len(order), func(ctx context.Context, gi int) error {
		g := groups[order[gi]]
		got, err := h.createMany(ctx, g.pt.Collection(), g.bodies)
		mu.Lock()
		for j, id := range got {
			ids[g.idx[j]] = id
		}
		mu.Unlock()
		return err
	})
	if err == nil && needPlugin {
		var write []writeItem
		for i, it := range items {
			if len(it.Meta) > 0 || it.Parent != nil || it.Featured != 0 {
				it.ID = ids[i]
				write = append(write, it)
			}
		}
		err = h.write(ctx, contentgen.KindPost, write)
	}
	if err != nil {
		h.undo(ctx, "posts", func(ctx context.Context) error { return h.deletePosts(ctx, ids, true) })
		return nil, fmt.Errorf("wprest: CreatePosts: %w", err)
	}
	return ids, nil
}

// postFields are the fields a post query reads.
func postFields(taxes []Taxonomy) string {
	f := "id,type,status,title.raw,content.raw,excerpt.raw,author,parent,date_gmt,featured_media,contentgen"
	for _, tx := range taxes {
		f += "," + tx.RESTBase
	}
	return f
}

// Posts returns the posts matching q, ordered by id. A MetaKey filter
// needs the plugin; Search is sent to WordPress (which also searches
// content) and then kept to title matches.
func (h *Host) Posts(ctx context.Context, q contentgen.PostQuery) ([]contentgen.Post, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ids, none, err := h.idRestriction(ctx, contentgen.KindPost, q.IDs, q.MetaKey, q.MetaValue)
	if err != nil || none {
		return []contentgen.Post{}, err
	}
	types, err := h.contentTypes(ctx)
	if err != nil {
		return nil, err
	}
	if len(q.Types) > 0 {
		types = slices.DeleteFunc(slices.Clone(types), func(pt PostType) bool { return !slices.Contains(q.Types, pt.Name) })
	}
	_, taxes, err := h.discovery(ctx, false)
	if err != nil {
		return nil, err
	}
	statuses := q.Statuses
	if len(statuses) == 0 {
		statuses = standardStatuses
	}
	base := url.Values{"context": {"edit"}, "orderby": {"id"}, "order": {"asc"}, "status": {joinStrings(statuses)}}
	if q.AuthorID != 0 {
		base.Set("author", strconv.FormatInt(q.AuthorID, 10))
	}
	if q.Search != "" {
		base.Set("search", q.Search)
	}
	type job struct {
		pt      PostType
		include string
	}
	var jobs []job
	for _, pt := range types {
		for _, inc := range includeChunks(ids) {
			jobs = append(jobs, job{pt, inc})
		}
	}
	results := make([][]json.RawMessage, len(jobs))
	limit := want(q.Offset, q.Limit)
	err = parallel(ctx, len(jobs), func(ctx context.Context, i int) error {
		v := cloneValues(base)
		v.Set("_fields", postFields(taxesOf(taxes, jobs[i].pt)))
		if jobs[i].include != "" {
			v.Set("include", jobs[i].include)
		}
		var err error
		results[i], err = listAll[json.RawMessage](ctx, h.c, jobs[i].pt.Collection(), v, limit)
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []contentgen.Post
	for i, res := range results {
		for _, raw := range res {
			p, err := decodePost(raw, taxesOf(taxes, jobs[i].pt))
			if err != nil {
				return nil, err
			}
			if q.Search != "" && !containsFold(p.Title, q.Search) {
				continue
			}
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return page(out, q.Offset, q.Limit), nil
}

func joinStrings(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += ","
		}
		out += v
	}
	return out
}

// taxesOf returns the taxonomies linked to a post type.
func taxesOf(taxes []Taxonomy, pt PostType) []Taxonomy {
	var out []Taxonomy
	for _, tx := range taxes {
		if slices.Contains(pt.Taxonomies, tx.Name) || slices.Contains(tx.PostTypes, pt.Name) {
			out = append(out, tx)
		}
	}
	return out
}

func decodePost(data json.RawMessage, taxes []Taxonomy) (contentgen.Post, error) {
	var w wirePost
	if err := json.Unmarshal(data, &w); err != nil {
		return contentgen.Post{}, fmt.Errorf("wprest: decoding a post: %w", err)
	}
	var raw map[string]json.RawMessage
	if len(taxes) > 0 {
		if err := json.Unmarshal(data, &raw); err != nil {
			return contentgen.Post{}, fmt.Errorf("wprest: decoding a post: %w", err)
		}
	}
	p := contentgen.Post{
		ID: w.ID, Type: w.Type, Status: w.Status, Title: w.Title.text(), Content: w.Content.Raw, Excerpt: w.Excerpt.Raw,
		AuthorID: w.Author, ParentID: w.Parent, Date: parseDate(w.DateGMT), FeaturedMediaID: w.FeaturedMedia,
		Meta: w.Extra.meta(),
	}
	if w.Extra != nil && w.Extra.Parent != nil {
		p.ParentID = *w.Extra.Parent
	}
	if p.FeaturedMediaID == 0 && p.Meta["_thumbnail_id"] != "" {
		p.FeaturedMediaID, _ = strconv.ParseInt(p.Meta["_thumbnail_id"], 10, 64)
	}
	for _, tx := range taxes {
		r, ok := raw[tx.RESTBase]
		if !ok {
			continue
		}
		var ids []int64
		if err := decodeJSON(r, &ids); err != nil {
			continue // a field of another shape under the same name
		}
		if p.Terms == nil {
			p.Terms = map[string][]int64{}
		}
		p.Terms[tx.Name] = ids
	}
	return p, nil
}

// resolve finds which collection each id belongs to by querying the
// collections with include; ids found nowhere are left out.
func (h *Host) resolve(ctx context.Context, ids []int64, collections []string, extra url.Values) (map[string][]int64, error) {
	ids = distinctSorted(ids)
	if len(ids) == 0 {
		return nil, nil
	}
	type job struct {
		coll, include string
	}
	var jobs []job
	for _, c := range collections {
		for _, inc := range includeChunks(ids) {
			jobs = append(jobs, job{c, inc})
		}
	}
	found := make([][]struct {
		ID int64 `json:"id"`
	}, len(jobs))
	err := parallel(ctx, len(jobs), func(ctx context.Context, i int) error {
		v := cloneValues(extra)
		v.Set("include", jobs[i].include)
		v.Set("_fields", "id")
		v.Set("context", "edit")
		var err error
		found[i], err = listAll[struct {
			ID int64 `json:"id"`
		}](ctx, h.c, jobs[i].coll, v, 0)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := map[string][]int64{}
	for i, f := range found {
		for _, o := range f {
			out[jobs[i].coll] = append(out[jobs[i].coll], o.ID)
		}
	}
	return out, nil
}

// DeletePosts removes posts permanently (force=true, batched where the
// route allows it); WordPress removes their meta, term links and
// comments. Unknown ids are ignored.
func (h *Host) DeletePosts(ctx context.Context, ids []int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return h.deletePosts(ctx, ids, true)
}

// TrashPosts moves posts to the trash.
func (h *Host) TrashPosts(ctx context.Context, ids []int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return h.deletePosts(ctx, ids, false)
}

func (h *Host) deletePosts(ctx context.Context, ids []int64, force bool) error {
	ids = distinctSorted(ids)
	if len(ids) == 0 {
		return nil
	}
	types, err := h.contentTypes(ctx)
	if err != nil {
		return err
	}
	var colls []string
	for _, pt := range types {
		colls = append(colls, pt.Collection())
	}
	byColl, err := h.resolve(ctx, ids, colls, url.Values{"status": {joinStrings(standardStatuses)}})
	if err != nil {
		return err
	}
	q := url.Values{}
	if force {
		q.Set("force", "true")
	}
	keys := slices.Sorted(maps.Keys(byColl))
	return parallel(ctx, len(keys), func(ctx context.Context, i int) error {
		return h.deleteMany(ctx, keys[i], byColl[keys[i]], q, false)
	})
}

func asAPIError(err error, target **APIError) bool { return errors.As(err, target) }
