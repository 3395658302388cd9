package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/contentgen/contentgen/contentgen"
)

// slugify makes a slug of a name: lower-case letters and digits, other
// runs of characters as one "-".
func slugify(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "term"
	}
	return b.String()
}

// conflict wraps a unique violation as contentgen.ErrHostConflict.
func (h *Host) conflict(ctx context.Context, what string, err error) error {
	if err != nil && h.db.d.isConflict(err) {
		return fmt.Errorf("sqlstore: %s: %w: %v", what, contentgen.ErrHostConflict, err)
	}
	return fail(ctx, what, err)
}

// CreateTerms implements contentgen.Host. An empty slug is made from the
// name, with "-" and the new id appended when it is taken; a given slug
// that is taken fails the batch with ErrHostConflict.
func (h *Host) CreateTerms(ctx context.Context, terms []contentgen.Term) ([]int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(terms) == 0 {
		return []int64{}, nil
	}
	var ids []int64
	err := h.write(ctx, func(ctx context.Context, q querier) error {
		taxes, err := registered[contentgen.Taxonomy](ctx, h, q, regTaxonomy)
		if err != nil {
			return err
		}
		var parents []int64
		for i := range terms {
			t := &terms[i]
			if !slices.ContainsFunc(taxes, func(tx contentgen.Taxonomy) bool { return tx.Name == t.Taxonomy }) {
				return fmt.Errorf("%w: term %d: taxonomy %q is not registered", ErrInvalid, i, t.Taxonomy)
			}
			if strings.TrimSpace(t.Name) == "" {
				return fmt.Errorf("%w: term %d has no name", ErrInvalid, i)
			}
			parents = append(parents, t.ParentID)
		}
		parentTax, err := h.termTaxonomies(ctx, q, parents)
		if err != nil {
			return err
		}
		for i, t := range terms {
			if t.ParentID == 0 {
				continue
			}
			tax, ok := parentTax[t.ParentID]
			if !ok {
				return fmt.Errorf("sqlstore: %w: parent term %d does not exist", contentgen.ErrHostReference, t.ParentID)
			}
			if tax != t.Taxonomy {
				return fmt.Errorf("%w: term %d: parent %d is of taxonomy %q, not %q", ErrInvalid, i, t.ParentID, tax, t.Taxonomy)
			}
		}
		if ids, err = h.db.d.reserveIDs(ctx, q, h.db.t.terms, len(terms)); err != nil {
			return fail(ctx, "creating terms", err)
		}
		slugs, err := h.slugs(ctx, q, terms, ids)
		if err != nil {
			return err
		}
		err = h.db.d.insertRows(ctx, q, newRows(h.db.t.terms, len(terms)).
			bigint("id", func(i int) int64 { return ids[i] }).
			text("taxonomy", func(i int) string { return terms[i].Taxonomy }).
			text("name", func(i int) string { return terms[i].Name }).
			text("slug", func(i int) string { return slugs[i] }).
			text("description", func(i int) string { return terms[i].Description }).
			bigint("parent_id", func(i int) int64 { return terms[i].ParentID }))
		if err != nil {
			return h.conflict(ctx, "creating terms", err)
		}
		metas := make([]contentgen.Meta, len(terms))
		for i := range terms {
			metas[i] = terms[i].Meta
		}
		return fail(ctx, "storing term meta", h.insertMeta(ctx, q, contentgen.KindTerm, ids, metas))
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// slugs returns the slug of each new term: the given one, or one made
// from the name that is free in its taxonomy.
func (h *Host) slugs(ctx context.Context, q querier, terms []contentgen.Term, ids []int64) ([]string, error) {
	out := make([]string, len(terms))
	var wanted []string
	for i, t := range terms {
		if t.Slug != "" {
			out[i] = t.Slug
			continue
		}
		out[i] = slugify(t.Name)
		wanted = append(wanted, out[i])
	}
	if len(wanted) == 0 {
		return out, nil
	}
	taken := map[string]bool{} // taxonomy + "\x00" + slug
	slices.Sort(wanted)
	cond, args := h.db.d.inList("slug", slices.Compact(wanted))
	err := queryEach(ctx, q, h.db.stmt("SELECT taxonomy, slug FROM "+h.db.t.terms+" WHERE "+cond), args, func(rows *sql.Rows) error {
		var tax, slug string
		err := rows.Scan(&tax, &slug)
		taken[tax+"\x00"+slug] = true
		return err
	})
	if err != nil {
		return nil, fail(ctx, "reading slugs", err)
	}
	for _, t := range terms {
		if t.Slug != "" {
			taken[t.Taxonomy+"\x00"+t.Slug] = true
		}
	}
	for i, t := range terms {
		if t.Slug != "" {
			continue
		}
		key := t.Taxonomy + "\x00" + out[i]
		if taken[key] {
			out[i] += "-" + strconv.FormatInt(ids[i], 10)
			key = t.Taxonomy + "\x00" + out[i]
		}
		taken[key] = true
	}
	return out, nil
}

// Terms implements contentgen.Host in three queries: the terms, their
// live counts (posts not in the trash) and their meta.
func (h *Host) Terms(ctx context.Context, tq contentgen.TermQuery) ([]contentgen.Term, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	q, err := h.reader(ctx)
	if err != nil {
		return nil, err
	}
	w := h.where()
	w.ids("id", tq.IDs)
	w.strs("taxonomy", tq.Taxonomies)
	if tq.HasParent {
		w.add("parent_id = ?", tq.Parent)
	}
	w.hasMeta(contentgen.KindTerm, h.db.t.terms+".id", tq.MetaKey, tq.MetaValue)
	w.search(tq.Search, "name")
	out := []contentgen.Term{}
	if w.none {
		return out, nil
	}
	query := "SELECT id, taxonomy, name, slug, description, parent_id FROM " + h.db.t.terms + w.sql() + w.page(tq.Limit, tq.Offset)
	err = h.db.readTxOn(ctx, q, func(ctx context.Context, q querier) error {
		out = out[:0]
		err := queryEach(ctx, q, h.db.stmt(query), w.args, func(rows *sql.Rows) error {
			var t contentgen.Term
			err := rows.Scan(&t.ID, &t.Taxonomy, &t.Name, &t.Slug, &t.Description, &t.ParentID)
			out = append(out, t)
			return err
		})
		if err != nil || len(out) == 0 || tq.Bare {
			return err
		}
		ids := make([]int64, len(out))
		for i := range out {
			ids[i] = out[i].ID
		}
		metas, err := h.loadMeta(ctx, q, contentgen.KindTerm, ids)
		if err != nil {
			return err
		}
		counts := map[int64]int{}
		cond, args := h.db.d.inList("l.term_id", ids)
		err = queryEach(ctx, q, h.db.stmt("SELECT l.term_id, COUNT(*) FROM "+h.db.t.termLinks+" l JOIN "+h.db.t.posts+" p ON p.id = l.post_id WHERE "+cond+
			" AND p.status <> ? GROUP BY l.term_id"), append(args, contentgen.StatusTrash), func(rows *sql.Rows) error {
			var id int64
			var n int
			err := rows.Scan(&id, &n)
			counts[id] = n
			return err
		})
		for i := range out {
			out[i].Meta = metas[out[i].ID]
			out[i].Count = counts[out[i].ID]
		}
		return err
	})
	if err != nil {
		return nil, fail(ctx, "reading terms", err)
	}
	return out, nil
}

// DeleteTerms implements contentgen.Host.
func (h *Host) DeleteTerms(ctx context.Context, ids []int64) error {
	return h.write(ctx, func(ctx context.Context, q querier) error {
		anc, err := h.parents(ctx, q, h.db.t.terms, ids)
		if err != nil || len(anc) == 0 {
			return fail(ctx, "deleting terms", err)
		}
		removed := make([]int64, 0, len(anc))
		for id := range anc {
			removed = append(removed, id)
		}
		slices.Sort(removed)
		err = h.reparent(ctx, q, h.db.t.terms, anc)
		if err == nil {
			err = h.deleteIn(ctx, q, h.db.t.termLinks, "term_id", removed)
		}
		if err == nil {
			err = h.deleteMeta(ctx, q, contentgen.KindTerm, removed)
		}
		if err == nil {
			err = h.deleteIn(ctx, q, h.db.t.terms, "id", removed)
		}
		return fail(ctx, "deleting terms", err)
	})
}
