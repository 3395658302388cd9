package wphost

import (
	"context"
	"database/sql"
	"slices"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// ttRow is a row of term_taxonomy.
type ttRow struct {
	ttID     int64
	taxonomy string
	parent   int64
}

// termTaxonomies reads the term_taxonomy rows of term ids (locked against
// deletion when lock is set).
func (h *Host) termTaxonomies(ctx context.Context, q sqlstore.Querier, termIDs []int64, lock bool) (map[int64]ttRow, error) {
	out := map[int64]ttRow{}
	if len(termIDs) == 0 {
		return out, nil
	}
	query := "SELECT term_id, term_taxonomy_id, taxonomy, parent FROM " + h.s.t.termTaxonomy + " WHERE term_id IN (" + marks(len(termIDs)) + ")"
	if lock {
		query += " LOCK IN SHARE MODE"
	}
	err := q.QueryEach(ctx, query, int64Args(termIDs), func(r *sql.Rows) error {
		var id int64
		var tt ttRow
		if err := r.Scan(&id, &tt.ttID, &tt.taxonomy, &tt.parent); err != nil {
			return err
		}
		out[id] = tt
		return nil
	})
	return out, err
}

// termLink is a row of term_relationships.
type termLink struct{ object, ttID int64 }

// linkTerms inserts term links and brings the counts of their terms up to
// date.
func (h *Host) linkTerms(ctx context.Context, q sqlstore.Querier, links []termLink) error {
	if len(links) == 0 {
		return nil
	}
	err := insertRows(ctx, q, h.s.t.termRels, []string{"object_id", "term_taxonomy_id", "term_order"}, len(links), func(i int) []any {
		return []any{links[i].object, links[i].ttID, 0}
	}, nil)
	if err != nil {
		return err
	}
	tts := map[int64]bool{}
	for _, l := range links {
		tts[l.ttID] = true
	}
	return h.recountTerms(ctx, q, sortedKeys(tts))
}

// recountTerms sets term_taxonomy.count of ttIDs as
// wp_update_term_count_now does with _update_post_term_count: the
// published objects of the taxonomy's post types (attachments count when
// their parent is published), or every linked object for a taxonomy of
// no post type.
func (h *Host) recountTerms(ctx context.Context, q sqlstore.Querier, ttIDs []int64) error {
	if len(ttIDs) == 0 {
		return nil
	}
	t := h.s.t
	byTax := map[string][]int64{}
	err := q.QueryEach(ctx, "SELECT term_taxonomy_id, taxonomy FROM "+t.termTaxonomy+" WHERE term_taxonomy_id IN ("+marks(len(ttIDs))+")", int64Args(ttIDs),
		func(r *sql.Rows) error {
			var id int64
			var tax string
			if err := r.Scan(&id, &tax); err != nil {
				return err
			}
			byTax[tax] = append(byTax[tax], id)
			return nil
		})
	if err != nil {
		return err
	}
	for _, tax := range sortedKeys(byTax) {
		ids := byTax[tax]
		txInfo, _ := h.s.taxonomy(tax)
		var types []string
		for _, pt := range txInfo.PostTypes {
			types = append(types, strings.TrimPrefix(pt, "attachment:"))
		}
		var count string
		var args []any
		if len(types) == 0 {
			count = "(SELECT COUNT(*) FROM " + t.termRels + " tr WHERE tr.term_taxonomy_id = tt.term_taxonomy_id)"
		} else {
			cond := "p.post_status = 'publish'"
			if slices.Contains(types, "attachment") {
				cond = "(p.post_status = 'publish' OR (p.post_status = 'inherit' AND p.post_parent > 0 AND (SELECT pp.post_status FROM " + t.posts + " pp WHERE pp.ID = p.post_parent) = 'publish'))"
			}
			count = "(SELECT COUNT(*) FROM " + t.termRels + " tr JOIN " + t.posts + " p ON p.ID = tr.object_id WHERE tr.term_taxonomy_id = tt.term_taxonomy_id AND " +
				cond + " AND p.post_type IN (" + marks(len(types)) + "))"
			args = stringArgs(types)
		}
		args = append(args, int64Args(ids)...)
		if _, err := q.ExecContext(ctx, "UPDATE "+t.termTaxonomy+" tt SET tt.count = "+count+" WHERE tt.term_taxonomy_id IN ("+marks(len(ids))+")", args...); err != nil {
			return err
		}
	}
	return nil
}

// objectTerms returns the term ids of objects, by taxonomy.
func (h *Host) objectTerms(ctx context.Context, q sqlstore.Querier, ids []int64) (map[int64]map[string][]int64, error) {
	out := map[int64]map[string][]int64{}
	if len(ids) == 0 {
		return out, nil
	}
	err := q.QueryEach(ctx, "SELECT tr.object_id, tt.taxonomy, tt.term_id FROM "+h.s.t.termRels+" tr JOIN "+h.s.t.termTaxonomy+
		" tt ON tt.term_taxonomy_id = tr.term_taxonomy_id WHERE tr.object_id IN ("+marks(len(ids))+") ORDER BY tr.object_id, tr.term_order, tt.term_id",
		int64Args(ids), func(r *sql.Rows) error {
			var obj, term int64
			var tax string
			if err := r.Scan(&obj, &tax, &term); err != nil {
				return err
			}
			if out[obj] == nil {
				out[obj] = map[string][]int64{}
			}
			out[obj][tax] = append(out[obj][tax], term)
			return nil
		})
	return out, err
}

// clearTermCaches deletes the cached {taxonomy}_children options of the
// hierarchical taxonomies among taxes, as clean_taxonomy_cache does;
// WordPress rebuilds them when it next needs them.
func (h *Host) clearTermCaches(ctx context.Context, q sqlstore.Querier, taxes map[string]bool) error {
	var names []string
	for _, tax := range sortedKeys(taxes) {
		if tx, ok := h.s.taxonomy(tax); ok && tx.Hierarchical {
			names = append(names, tax+"_children")
		}
	}
	if len(names) == 0 {
		return nil
	}
	_, err := q.ExecContext(ctx, "DELETE FROM "+h.s.t.options+" WHERE option_name IN ("+marks(len(names))+")", stringArgs(names)...)
	return err
}

// CreateTerms stores terms (rows of terms and term_taxonomy, and their
// meta). The taxonomy must be registered and Name non-empty; a ParentID
// must name a term of the same taxonomy (dropped for a flat taxonomy).
// An empty Slug is made from the name and made unique in the taxonomy
// with a numeric suffix; a given Slug already used in the taxonomy fails
// the batch with an error wrapping contentgen.ErrHostConflict.
func (h *Host) CreateTerms(ctx context.Context, terms []contentgen.Term) ([]int64, error) {
	if len(terms) == 0 {
		return []int64{}, ctx.Err()
	}
	var ids []int64
	err := h.write(ctx, "creating terms", func(ctx context.Context, q sqlstore.Querier) error {
		t := h.s.t
		slugs := make([]string, len(terms))
		parents := make([]int64, len(terms))
		var parentIDs []int64
		taxes := map[string]bool{}
		for i := range terms {
			tm := &terms[i]
			tx, ok := h.s.taxonomy(tm.Taxonomy)
			if !ok {
				return invalidf("unknown taxonomy %q", tm.Taxonomy)
			}
			if strings.TrimSpace(tm.Name) == "" {
				return invalidf("term name must not be empty")
			}
			taxes[tm.Taxonomy] = true
			if tx.Hierarchical && tm.ParentID != 0 {
				parents[i] = tm.ParentID
				parentIDs = append(parentIDs, tm.ParentID)
			}
		}
		if err := h.lockWrites(ctx, q); err != nil {
			return err
		}
		tts, err := h.termTaxonomies(ctx, q, dedupe(parentIDs), true)
		if err != nil {
			return err
		}
		for i := range terms {
			if p := parents[i]; p != 0 {
				if tt, ok := tts[p]; !ok || tt.taxonomy != terms[i].Taxonomy {
					return missingf("parent term %d does not exist in taxonomy %q", p, terms[i].Taxonomy)
				}
			}
		}
		// The slugs of the taxonomies concerned.
		taken := map[string]bool{}
		err = q.QueryEach(ctx, "SELECT tt.taxonomy, te.slug FROM "+t.terms+" te JOIN "+t.termTaxonomy+" tt ON tt.term_id = te.term_id WHERE tt.taxonomy IN ("+marks(len(taxes))+")",
			stringArgs(sortedKeys(taxes)), func(r *sql.Rows) error {
				var tax, slug string
				if err := r.Scan(&tax, &slug); err != nil {
					return err
				}
				taken[tax+"\x00"+strings.ToLower(slug)] = true
				return nil
			})
		if err != nil {
			return err
		}
		for i := range terms {
			tm := &terms[i]
			key := func(s string) string { return tm.Taxonomy + "\x00" + strings.ToLower(s) }
			if tm.Slug != "" {
				s := sanitizeTitle(tm.Slug)
				if s == "" {
					return invalidf("term slug %q has no character WordPress keeps", tm.Slug)
				}
				if taken[key(s)] {
					return conflictf("slug %q is already used in taxonomy %q", s, tm.Taxonomy)
				}
				slugs[i] = s
			} else {
				base := sanitizeTitle(tm.Name)
				if base == "" {
					base = "term"
				}
				slugs[i] = uniqueSlug(base, func(s string) bool { return taken[key(s)] })
			}
			taken[key(slugs[i])] = true
		}
		ids, err = h.insertIDs(ctx, q, t.terms, []string{"name", "slug", "term_group"}, len(terms), func(i int) []any {
			return []any{terms[i].Name, slugs[i], 0}
		})
		if err != nil {
			return err
		}
		err = insertRows(ctx, q, t.termTaxonomy, []string{"term_id", "taxonomy", "description", "parent", "count"}, len(terms), func(i int) []any {
			return []any{ids[i], terms[i].Taxonomy, terms[i].Description, parents[i], 0}
		}, nil)
		if err != nil {
			return err
		}
		var meta []metaRow
		for i := range terms {
			meta = sortedMeta(meta, ids[i], terms[i].Meta)
		}
		if err := insertMeta(ctx, q, t.termmeta, "term_id", meta); err != nil {
			return err
		}
		return h.clearTermCaches(ctx, q, taxes)
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// Terms returns the terms matching tq, ordered by id; Count is the number
// of objects linked to the term (of any status), unless tq.Bare.
func (h *Host) Terms(ctx context.Context, tq contentgen.TermQuery) ([]contentgen.Term, error) {
	t := h.s.t
	where := "1=1"
	var args []any
	if tq.IDs.Active() {
		ids := dedupe(tq.IDs.List())
		if len(ids) == 0 {
			return []contentgen.Term{}, ctx.Err()
		}
		where += " AND te.term_id IN (" + marks(len(ids)) + ")"
		args = append(args, int64Args(ids)...)
	}
	if len(tq.Taxonomies) > 0 {
		where += " AND tt.taxonomy IN (" + marks(len(tq.Taxonomies)) + ")"
		args = append(args, stringArgs(tq.Taxonomies)...)
	}
	if tq.HasParent {
		where += " AND tt.parent = ?"
		args = append(args, tq.Parent)
	}
	if tq.Search != "" {
		where += " AND te.name LIKE ? ESCAPE '!'"
		args = append(args, likeArg(tq.Search))
	}
	if tq.MetaKey != "" {
		c, a := metaFilter(t.termmeta, "term_id", "te.term_id", tq.MetaKey, tq.MetaValue)
		where += " AND " + c
		args = append(args, a...)
	}
	count := "0"
	if !tq.Bare {
		count = "(SELECT COUNT(*) FROM " + t.termRels + " tr WHERE tr.term_taxonomy_id = tt.term_taxonomy_id)"
	}
	q := h.q(ctx)
	var out []contentgen.Term
	query := "SELECT te.term_id, tt.taxonomy, te.name, te.slug, tt.description, tt.parent, " + count + " FROM " + t.terms + " te JOIN " + t.termTaxonomy +
		" tt ON tt.term_id = te.term_id WHERE " + where + " ORDER BY te.term_id" + limitClause(tq.Limit, tq.Offset)
	err := q.QueryEach(ctx, query, args, func(r *sql.Rows) error {
		var tm contentgen.Term
		if err := r.Scan(&tm.ID, &tm.Taxonomy, &tm.Name, &tm.Slug, &tm.Description, &tm.ParentID, &tm.Count); err != nil {
			return err
		}
		out = append(out, tm)
		return nil
	})
	if err != nil {
		return nil, h.fail(ctx, "reading terms", err)
	}
	if len(out) == 0 {
		return []contentgen.Term{}, nil
	}
	if !tq.Bare {
		ids := make([]int64, len(out))
		for i := range out {
			ids[i] = out[i].ID
		}
		all, err := h.loadMeta(ctx, q, contentgen.KindTerm, ids, false)
		if err != nil {
			return nil, h.fail(ctx, "reading term meta", err)
		}
		for i := range out {
			out[i].Meta = all[out[i].ID]
		}
	}
	return out, nil
}

// DeleteTerms removes terms as wp_delete_term does: their links (the
// linked posts lose them), meta and rows; children move to the removed
// term's parent; the cached hierarchy of the taxonomy is cleared.
func (h *Host) DeleteTerms(ctx context.Context, ids []int64) error {
	ids = dedupe(ids)
	if len(ids) == 0 {
		return ctx.Err()
	}
	t := h.s.t
	return h.write(ctx, "deleting terms", func(ctx context.Context, q sqlstore.Querier) error {
		parents := map[int64]int64{}
		var ttIDs []int64
		taxes := map[string]bool{}
		err := q.QueryEach(ctx, "SELECT term_id, term_taxonomy_id, parent, taxonomy FROM "+t.termTaxonomy+" WHERE term_id IN ("+marks(len(ids))+") FOR UPDATE",
			int64Args(ids), func(r *sql.Rows) error {
				var id, tt, parent int64
				var tax string
				if err := r.Scan(&id, &tt, &parent, &tax); err != nil {
					return err
				}
				parents[id] = parent
				ttIDs = append(ttIDs, tt)
				taxes[tax] = true
				return nil
			})
		if err != nil || len(parents) == 0 {
			return err
		}
		if err := h.reparent(ctx, q, t.termTaxonomy, "parent", "term_id", parents); err != nil {
			return err
		}
		doomed := sortedKeys(parents)
		in, args := marks(len(doomed)), int64Args(doomed)
		ttIn, ttArgs := marks(len(ttIDs)), int64Args(ttIDs)
		stmts := []struct {
			s    string
			args []any
		}{
			{"DELETE FROM " + t.termRels + " WHERE term_taxonomy_id IN (" + ttIn + ")", ttArgs},
			{"DELETE FROM " + t.termmeta + " WHERE term_id IN (" + in + ")", args},
			{"DELETE FROM " + t.termTaxonomy + " WHERE term_taxonomy_id IN (" + ttIn + ")", ttArgs},
			{"DELETE FROM " + t.terms + " WHERE term_id IN (" + in + ") AND NOT EXISTS (SELECT 1 FROM " + t.termTaxonomy + " x WHERE x.term_id = " + t.terms + ".term_id)", args},
		}
		for _, s := range stmts {
			if _, err := q.ExecContext(ctx, s.s, s.args...); err != nil {
				return err
			}
		}
		return h.clearTermCaches(ctx, q, taxes)
	})
}
