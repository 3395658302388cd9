package wprest

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"sort"
	"strconv"

	"github.com/contentgen/contentgen/contentgen"
)

type wireTerm struct {
	ID          int64      `json:"id"`
	Taxonomy    string     `json:"taxonomy"`
	Name        string     `json:"name"`
	Slug        string     `json:"slug"`
	Description string     `json:"description"`
	Parent      int64      `json:"parent"`
	Count       int        `json:"count"`
	Extra       *wireExtra `json:"contentgen"`
}

// CreateTerms creates terms (batched where the route allows it), in input
// order per taxonomy, then writes their meta in one plugin call. On
// failure it deletes what it created. WordPress refuses a slug, or a name
// under the same parent, that exists: that fails with an error wrapping
// contentgen.ErrHostConflict.
func (h *Host) CreateTerms(ctx context.Context, terms []contentgen.Term) ([]int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(terms) == 0 {
		return []int64{}, nil
	}
	bodies := make([]map[string]any, len(terms))
	txs := make([]Taxonomy, len(terms))
	needPlugin := false
	for i, t := range terms {
		param := "terms[" + strconv.Itoa(i) + "]"
		tx, ok, err := h.taxonomy(ctx, t.Taxonomy)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, &contentgen.Error{Code: contentgen.CodeInvalidTaxonomy, Message: fmt.Sprintf("%s.Taxonomy: taxonomy %q is not registered with show_in_rest", param, t.Taxonomy), Param: param + ".Taxonomy"}
		}
		if t.ParentID != 0 && !tx.Hierarchical {
			return nil, fmt.Errorf("wprest: %s.ParentID: taxonomy %q is not hierarchical: %w", param, tx.Name, contentgen.ErrHostReference)
		}
		txs[i] = tx
		b := map[string]any{"name": t.Name, "description": t.Description}
		if t.Slug != "" {
			b["slug"] = t.Slug
		}
		if t.ParentID != 0 {
			b["parent"] = t.ParentID
		}
		bodies[i] = b
		if len(t.Meta) > 0 {
			needPlugin = true
		}
	}
	if needPlugin {
		if err := h.needPlugin(ctx, "CreateTerms with meta"); err != nil {
			return nil, err
		}
	}
	// Consecutive runs of one taxonomy keep the input order within batches.
	ids := make([]int64, len(terms))
	var err error
	for start := 0; start < len(terms) && err == nil; {
		end := start + 1
		for end < len(terms) && txs[end].Name == txs[start].Name {
			end++
		}
		var got []int64
		got, err = h.createMany(ctx, txs[start].Collection(), bodies[start:end])
		copy(ids[start:end], got)
		start = end
	}
	if err == nil && needPlugin {
		var items []writeItem
		for i, t := range terms {
			if len(t.Meta) > 0 {
				items = append(items, writeItem{ID: ids[i], Meta: maps.Clone(t.Meta)})
			}
		}
		err = h.write(ctx, contentgen.KindTerm, items)
	}
	if err != nil {
		h.undo(ctx, "terms", func(ctx context.Context) error { return h.deleteTerms(ctx, ids) })
		return nil, fmt.Errorf("wprest: CreateTerms: %w", err)
	}
	return ids, nil
}

// Terms returns the terms matching q, ordered by id. The count is the
// number of posts of any status but trash using the term when the plugin
// is installed, WordPress's own count (published posts) otherwise.
func (h *Host) Terms(ctx context.Context, q contentgen.TermQuery) ([]contentgen.Term, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ids, none, err := h.idRestriction(ctx, contentgen.KindTerm, q.IDs, q.MetaKey, q.MetaValue)
	if err != nil || none {
		return []contentgen.Term{}, err
	}
	_, taxes, err := h.discovery(ctx, false)
	if err != nil {
		return nil, err
	}
	if len(q.Taxonomies) > 0 {
		taxes = slices.DeleteFunc(slices.Clone(taxes), func(tx Taxonomy) bool { return !slices.Contains(q.Taxonomies, tx.Name) })
	}
	if q.HasParent {
		taxes = slices.DeleteFunc(slices.Clone(taxes), func(tx Taxonomy) bool { return !tx.Hierarchical && q.Parent != 0 })
	}
	base := url.Values{"context": {"edit"}, "orderby": {"id"}, "order": {"asc"}, "hide_empty": {"false"}}
	if q.Bare {
		base.Set("_fields", "id,taxonomy,name,slug,description,parent")
	} else {
		base.Set("_fields", "id,taxonomy,name,slug,description,parent,count,contentgen")
	}
	if q.Search != "" {
		base.Set("search", q.Search)
	}
	type job struct {
		tx      Taxonomy
		include string
	}
	var jobs []job
	for _, tx := range taxes {
		for _, inc := range includeChunks(ids) {
			jobs = append(jobs, job{tx, inc})
		}
	}
	results := make([][]wireTerm, len(jobs))
	limit := want(q.Offset, q.Limit)
	err = parallel(ctx, len(jobs), func(ctx context.Context, i int) error {
		v := cloneValues(base)
		if jobs[i].include != "" {
			v.Set("include", jobs[i].include)
		}
		if q.HasParent && jobs[i].tx.Hierarchical {
			v.Set("parent", strconv.FormatInt(q.Parent, 10))
		}
		var err error
		results[i], err = listAll[wireTerm](ctx, h.c, jobs[i].tx.Collection(), v, limit)
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []contentgen.Term
	for i, res := range results {
		for _, w := range res {
			t := contentgen.Term{
				ID: w.ID, Taxonomy: cmpOr(w.Taxonomy, jobs[i].tx.Name), Name: w.Name, Slug: w.Slug,
				Description: w.Description, ParentID: w.Parent, Count: w.Count,
			}
			if !q.Bare {
				t.Meta = w.Extra.meta()
				if w.Extra != nil && w.Extra.Count != nil {
					t.Count = *w.Extra.Count
				}
			}
			if q.Search != "" && !containsFold(t.Name, q.Search) {
				continue
			}
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return page(out, q.Offset, q.Limit), nil
}

// DeleteTerms removes terms (force=true, in order); WordPress moves the
// children of a removed term to its parent and unlinks its posts.
func (h *Host) DeleteTerms(ctx context.Context, ids []int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return h.deleteTerms(ctx, ids)
}

func (h *Host) deleteTerms(ctx context.Context, ids []int64) error {
	ids = distinctSorted(ids)
	if len(ids) == 0 {
		return nil
	}
	_, taxes, err := h.discovery(ctx, false)
	if err != nil {
		return err
	}
	colls := make([]string, len(taxes))
	for i, tx := range taxes {
		colls[i] = tx.Collection()
	}
	byColl, err := h.resolve(ctx, ids, colls, url.Values{"hide_empty": {"false"}})
	if err != nil {
		return err
	}
	for _, coll := range slices.Sorted(maps.Keys(byColl)) {
		q := url.Values{"force": {"true"}, "contentgen_no_default_term": {"1"}}
		if err := h.deleteMany(ctx, coll, byColl[coll], q, true); err != nil {
			return err
		}
	}
	return nil
}
