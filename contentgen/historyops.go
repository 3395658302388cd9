package contentgen

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/contentgen/contentgen/history"
)

// HistoryQuery selects history entries.
type HistoryQuery struct {
	// Kind keeps the entries of one kind of content; "" keeps all.
	Kind ObjectKind
	// Limit defaults to 50 when nil; it must be 1 to 1000.
	Limit *int
	// Offset defaults to 0.
	Offset *int
}

// HistoryItem is a history entry with what it tracks resolved live.
type HistoryItem struct {
	history.Entry
	// Exists reports whether the content still exists; Title is its
	// current title (name, display name, start of a comment) when it does.
	Exists bool
	Title  string
}

// HistoryService reads and edits the history of generated items alone:
// listing, statistics, removing entries (with or without their content)
// and pruning those whose content is gone.
type HistoryService struct{ g *Generator }

// List lists history entries newest first, each with its content's
// current title and existence, and the number of entries matching q
// before paging. The titles of a page take one host call per kind.
func (s *HistoryService) List(ctx context.Context, q HistoryQuery) ([]HistoryItem, int, error) {
	g := s.g
	if q.Kind != "" && !history.ValidType(string(q.Kind)) {
		return nil, 0, invalid("type", "type must be one of %v, got %q", history.Types(), q.Kind)
	}
	v := validator{}
	limit := v.intIn("limit", q.Limit, 50, 1, 1000)
	if q.Offset != nil && *q.Offset < 0 {
		v.fail(invalid("offset", "offset must not be negative, got %d", *q.Offset))
	}
	if v.err != nil {
		return nil, 0, v.err
	}
	offset := 0
	if q.Offset != nil {
		offset = *q.Offset
	}
	entries, total, err := g.hist.List(ctx, history.Filter{ContentType: string(q.Kind), Limit: limit, Offset: offset})
	if err != nil {
		return nil, 0, failed(err, "reading history")
	}
	titles, err := g.titles(ctx, entries)
	if err != nil {
		return nil, 0, err
	}
	items := make([]HistoryItem, len(entries))
	for i, e := range entries {
		it := HistoryItem{Entry: e}
		it.Title, it.Exists = titles[objectRef{ObjectKind(e.ContentType), e.ContentID}]
		items[i] = it
	}
	return items, total, nil
}

type objectRef struct {
	kind ObjectKind
	id   int64
}

// titles looks up the current titles of the entries' objects, one host
// call per kind; objects that no longer exist are absent.
func (g *Generator) titles(ctx context.Context, entries []history.Entry) (map[objectRef]string, error) {
	ids := map[ObjectKind][]int64{}
	for _, e := range entries {
		k := ObjectKind(e.ContentType)
		ids[k] = append(ids[k], e.ContentID)
	}
	out := make(map[objectRef]string, len(entries))
	for _, kind := range []ObjectKind{KindPost, KindTerm, KindUser, KindComment, KindMedia} {
		if len(ids[kind]) == 0 {
			continue
		}
		refs, err := g.refs(ctx, kind, refQuery{ids: OnlyIDs(ids[kind]...)})
		if err != nil {
			return nil, err
		}
		for _, r := range refs {
			out[objectRef{kind, r.id}] = r.title
		}
	}
	return out, nil
}

// excerptOf shortens s to at most n runes at a word boundary.
func excerptOf(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := n
	for i := n; i > n/2; i-- {
		if r[i] == ' ' {
			cut = i
			break
		}
	}
	return string(r[:cut]) + "…"
}

// Stats returns the totals of the history per kind and subtype,
// the activity of the last 30 days by the Generator's clock (days with
// entries, oldest first), and how many of the recorded items of each kind
// still exist. Every kind is present in ByType and in existing.
func (s *HistoryService) Stats(ctx context.Context) (st history.Stats, existing map[string]int, err error) {
	g := s.g
	since := g.now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -29)
	if st, err = g.hist.Stats(ctx, since); err != nil {
		return st, nil, failed(err, "reading history statistics")
	}
	if st.ByType == nil {
		st.ByType = map[string]int{}
	}
	existing = map[string]int{}
	for _, t := range history.Types() {
		st.ByType[t] += 0
		existing[t] = 0
		if st.ByType[t] == 0 {
			continue
		}
		err := g.historyPages(ctx, history.Filter{ContentType: t}, func(ids []int64) error {
			live, err := g.existing(ctx, ObjectKind(t), ids)
			existing[t] += len(live)
			return err
		})
		if err != nil {
			return st, nil, err
		}
	}
	return st, existing, nil
}

func uniqueIDs(entries []history.Entry) []int64 {
	seen := make(map[int64]bool, len(entries))
	ids := make([]int64, 0, len(entries))
	for _, e := range entries {
		if !seen[e.ContentID] {
			seen[e.ContentID] = true
			ids = append(ids, e.ContentID)
		}
	}
	return ids
}

// Delete removes one history entry and, with withContent,
// permanently deletes its content if it still exists; it reports whether
// content was deleted. An unknown id gives an error with CodeNotFound.
func (s *HistoryService) Delete(ctx context.Context, id string, withContent bool) (contentDeleted bool, err error) {
	g := s.g
	e, err := g.hist.Get(ctx, id)
	if errors.Is(err, history.ErrNotFound) {
		return false, &Error{Code: CodeNotFound, Param: "id", Message: "history entry " + strconv.Quote(id) + " not found", Err: err}
	}
	if err != nil {
		return false, failed(err, "reading history")
	}
	err = g.atomically(ctx, func(ctx context.Context, h Host) error {
		contentDeleted = false
		if withContent {
			kind := ObjectKind(e.ContentType)
			exists, err := existOn(ctx, h, kind, []int64{e.ContentID})
			if err != nil {
				return err
			}
			if exists[0] {
				if err := g.removeObjects(ctx, h, kind, []int64{e.ContentID}, true); err != nil {
					return err
				}
				contentDeleted = true
			}
		}
		if _, err := g.hist.Delete(ctx, id); err != nil {
			return failed(err, "updating history")
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	return contentDeleted, nil
}

// Clear removes every history entry; the content stays (it keeps
// its generated marker, so deletion still finds posts, terms, users and
// comments).
func (s *HistoryService) Clear(ctx context.Context) error {
	if err := s.g.hist.Clear(ctx); err != nil {
		return failed(err, "clearing history")
	}
	return nil
}

// Prune removes the entries whose content no longer exists on the
// host and returns how many it removed. It works a page of entries at a
// time, so that memory stays bounded whatever the history's size.
func (s *HistoryService) Prune(ctx context.Context) (int, error) {
	g := s.g
	removed := 0
	for _, kind := range []ObjectKind{KindPost, KindTerm, KindUser, KindComment, KindMedia} {
		var after int64
		for {
			f := history.Filter{ContentType: string(kind), ByContentID: true, AfterContentID: after, NoTotal: true, Limit: g.deletePage()}
			entries, _, err := g.hist.List(ctx, f)
			if err != nil {
				return removed, failed(err, "reading history")
			}
			if len(entries) == 0 {
				break
			}
			after = entries[len(entries)-1].ContentID
			live, err := g.existing(ctx, kind, uniqueIDs(entries))
			if err != nil {
				return removed, err
			}
			var orphans []string
			for _, e := range entries {
				if !live[e.ContentID] {
					orphans = append(orphans, e.ID)
				}
			}
			if len(orphans) > 0 {
				n, err := g.hist.Delete(ctx, orphans...)
				if err != nil {
					return removed, failed(err, "updating history")
				}
				removed += n
			}
			if len(entries) < f.Limit {
				break
			}
		}
	}
	return removed, nil
}

// PostOrigin reports whether the post id was generated (by its marker or
// its history) and the template it was made with (0 for none). An
// unknown post gives CodeNotFound.
func (g *Generator) PostOrigin(ctx context.Context, id int64) (generated bool, templateID int64, err error) {
	if id <= 0 {
		return false, 0, invalid("id", "id must be a positive integer, got %d", id)
	}
	m, err := g.host.Meta(ctx, KindPost, id)
	if isNotFound(err) {
		return false, 0, Errorf(CodeNotFound, "id", "post %d not found", id)
	}
	if err != nil {
		return false, 0, failed(err, "reading post meta")
	}
	generated = m.Generated()
	if !generated {
		entries, _, err := g.hist.List(ctx, history.Filter{ContentType: string(KindPost), ContentIDs: []int64{id}, Limit: 1})
		if err != nil {
			return false, 0, failed(err, "reading history")
		}
		generated = len(entries) > 0
	}
	if v, err := strconv.ParseInt(m[TemplateKey], 10, 64); err == nil && v > 0 {
		templateID = v
	}
	return generated, templateID, nil
}
