package contentgen

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/contentgen/contentgen/history"
)

// HistoryQuery selects history entries for Generator.History.
type HistoryQuery struct {
	// Type is post, term, user, comment or media; empty means all.
	Type string
	// Limit defaults to 50 when nil; it must be at least 1.
	Limit *int
	// Offset defaults to 0.
	Offset *int
}

// HistoryItem is a history entry as the API reports it, with its content
// title and existence resolved live.
type HistoryItem struct {
	ID             string         `json:"id"`
	ContentType    string         `json:"content_type"`
	ContentID      string         `json:"content_id"`
	ContentSubtype string         `json:"content_subtype"`
	Meta           map[string]any `json:"meta"`
	CreatedAt      string         `json:"created_at"`
	ContentTitle   *string        `json:"content_title"`
	ContentExists  bool           `json:"content_exists"`
	TemplateName   *string        `json:"template_name"`
}

// HistoryPage is one page of history.
type HistoryPage struct {
	Success bool          `json:"success"`
	History []HistoryItem `json:"history"`
	Total   int           `json:"total"`
}

// History lists history entries newest first, resolving each item's
// current title and existence on the host.
func (g *Generator) History(ctx context.Context, q HistoryQuery) (*HistoryPage, error) {
	if q.Type != "" && !history.ValidType(q.Type) {
		return nil, invalid("type", "type must be one of %v, got %q", history.Types, q.Type)
	}
	limit, err := intParam(q.Limit, 50, 1, 1000, "limit")
	if err != nil {
		return nil, err
	}
	offset := 0
	if q.Offset != nil {
		if *q.Offset < 0 {
			return nil, invalid("offset", "offset must not be negative, got %d", *q.Offset)
		}
		offset = *q.Offset
	}
	entries, total, err := g.hist.List(ctx, history.Filter{ContentType: q.Type, Limit: limit, Offset: offset})
	if err != nil {
		return nil, failed(err, "reading history")
	}
	titles, err := g.titles(ctx, entries)
	if err != nil {
		return nil, err
	}
	page := &HistoryPage{Success: true, History: make([]HistoryItem, len(entries)), Total: total}
	for i, e := range entries {
		it := HistoryItem{
			ID:             e.ID,
			ContentType:    e.ContentType,
			ContentID:      strconv.FormatInt(e.ContentID, 10),
			ContentSubtype: e.ContentSubtype,
			Meta:           e.Meta,
			CreatedAt:      Timestamp(e.CreatedAt),
		}
		if it.Meta == nil {
			it.Meta = map[string]any{}
		}
		if t, ok := titles[objectRef{ObjectKind(e.ContentType), e.ContentID}]; ok {
			it.ContentExists = true
			it.ContentTitle = &t
		}
		if name := history.MetaString(e.Meta["template_name"]); name != "" {
			it.TemplateName = &name
		}
		page.History[i] = it
	}
	return page, nil
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
	if v := ids[KindPost]; len(v) > 0 {
		items, err := g.host.Posts(ctx, PostQuery{IDs: v})
		if err != nil {
			return nil, failed(err, "listing posts")
		}
		for _, it := range items {
			out[objectRef{KindPost, it.ID}] = it.Title
		}
	}
	if v := ids[KindTerm]; len(v) > 0 {
		items, err := g.host.Terms(ctx, TermQuery{IDs: v})
		if err != nil {
			return nil, failed(err, "listing terms")
		}
		for _, it := range items {
			out[objectRef{KindTerm, it.ID}] = it.Name
		}
	}
	if v := ids[KindUser]; len(v) > 0 {
		items, err := g.host.Users(ctx, UserQuery{IDs: v})
		if err != nil {
			return nil, failed(err, "listing users")
		}
		for _, it := range items {
			out[objectRef{KindUser, it.ID}] = it.DisplayName
		}
	}
	if v := ids[KindComment]; len(v) > 0 {
		items, err := g.host.Comments(ctx, CommentQuery{IDs: v})
		if err != nil {
			return nil, failed(err, "listing comments")
		}
		for _, it := range items {
			out[objectRef{KindComment, it.ID}] = excerptOf(it.Content, 60)
		}
	}
	if v := ids[KindMedia]; len(v) > 0 {
		items, err := g.host.Media(ctx, MediaQuery{IDs: v})
		if err != nil {
			return nil, failed(err, "listing media")
		}
		for _, it := range items {
			out[objectRef{KindMedia, it.ID}] = it.Title
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

// HistoryStats is the statistics block of GET /history/stats.
type HistoryStats struct {
	Total          int             `json:"total"`
	ByType         map[string]int  `json:"by_type"`
	BySubtype      []SubtypeCount  `json:"by_subtype"`
	RecentActivity []ActivityCount `json:"recent_activity"`
	Existing       map[string]int  `json:"existing"`
}

// SubtypeCount is one row of HistoryStats.BySubtype; Count is a string as
// the spec fixes.
type SubtypeCount struct {
	ContentType    string `json:"content_type"`
	ContentSubtype string `json:"content_subtype"`
	Count          string `json:"count"`
}

// ActivityCount is one day of HistoryStats.RecentActivity.
type ActivityCount struct {
	Date  string `json:"date"`
	Count string `json:"count"`
}

// HistoryStats returns totals per type and subtype, the activity of the
// last 30 days (days with entries, oldest first) and how many of the
// recorded items still exist on the host.
func (g *Generator) HistoryStats(ctx context.Context) (*HistoryStats, error) {
	since := g.now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -29)
	st, err := g.hist.Stats(ctx, since)
	if err != nil {
		return nil, failed(err, "reading history statistics")
	}
	out := &HistoryStats{
		Total:          st.Total,
		ByType:         make(map[string]int, len(history.Types)),
		BySubtype:      make([]SubtypeCount, 0, len(st.BySubtype)),
		RecentActivity: make([]ActivityCount, 0, len(st.Daily)),
		Existing:       make(map[string]int, len(history.Types)),
	}
	for _, t := range history.Types {
		out.ByType[t] = st.ByType[t]
		out.Existing[t] = 0
	}
	for _, s := range st.BySubtype {
		out.BySubtype = append(out.BySubtype, SubtypeCount{s.ContentType, s.ContentSubtype, strconv.Itoa(s.Count)})
	}
	for _, d := range st.Daily {
		out.RecentActivity = append(out.RecentActivity, ActivityCount{d.Date, strconv.Itoa(d.Count)})
	}
	for _, t := range history.Types {
		if st.ByType[t] == 0 {
			continue
		}
		entries, _, err := g.hist.List(ctx, history.Filter{ContentType: t})
		if err != nil {
			return nil, failed(err, "reading history")
		}
		ids := uniqueIDs(entries)
		exists, err := g.exist(ctx, ObjectKind(t), ids)
		if err != nil {
			return nil, err
		}
		for _, ok := range exists {
			if ok {
				out.Existing[t]++
			}
		}
	}
	return out, nil
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

// HistoryDeleteResult is the result of Generator.DeleteHistoryEntry.
type HistoryDeleteResult struct {
	Success        bool   `json:"success"`
	Message        string `json:"message"`
	EntryDeleted   bool   `json:"entry_deleted"`
	ContentDeleted bool   `json:"content_deleted"`
}

// DeleteHistoryEntry removes one history entry and, when deleteContent is
// set, permanently deletes its content if it still exists. An unknown id
// gives an error with CodeNotFound.
func (g *Generator) DeleteHistoryEntry(ctx context.Context, id string, deleteContent bool) (*HistoryDeleteResult, error) {
	e, err := g.hist.Get(ctx, id)
	if errors.Is(err, history.ErrNotFound) {
		return nil, Errorf(CodeNotFound, "id", "%s", g.Messages(ctx).HistoryEntryNotFound(id))
	}
	if err != nil {
		return nil, failed(err, "reading history")
	}
	res := &HistoryDeleteResult{Success: true}
	if deleteContent {
		kind := ObjectKind(e.ContentType)
		exists, err := g.exist(ctx, kind, []int64{e.ContentID})
		if err != nil {
			return nil, err
		}
		if exists[0] {
			if err := g.removeObjects(ctx, kind, []int64{e.ContentID}, true); err != nil {
				return nil, err
			}
			res.ContentDeleted = true
		}
	}
	n, err := g.hist.Delete(ctx, id)
	if err != nil {
		return nil, failed(err, "updating history")
	}
	res.EntryDeleted = n > 0
	res.Message = g.Messages(ctx).HistoryEntryDeleted(res.ContentDeleted)
	return res, nil
}

// ClearHistory removes every history entry; the content stays (it keeps
// its generated marker, so deletion still finds posts, terms, users and
// comments).
func (g *Generator) ClearHistory(ctx context.Context) error {
	if err := g.hist.Clear(ctx); err != nil {
		return failed(err, "clearing history")
	}
	return nil
}

// CleanupHistory removes the entries whose content no longer exists on the
// host and returns how many it removed.
func (g *Generator) CleanupHistory(ctx context.Context) (int, error) {
	entries, _, err := g.hist.List(ctx, history.Filter{})
	if err != nil {
		return 0, failed(err, "reading history")
	}
	byKind := map[ObjectKind][]history.Entry{}
	for _, e := range entries {
		k := ObjectKind(e.ContentType)
		byKind[k] = append(byKind[k], e)
	}
	var orphans []string
	for kind, es := range byKind {
		ids := uniqueIDs(es)
		exists, err := g.exist(ctx, kind, ids)
		if err != nil {
			return 0, err
		}
		gone := map[int64]bool{}
		for i, id := range ids {
			if !exists[i] {
				gone[id] = true
			}
		}
		for _, e := range es {
			if gone[e.ContentID] {
				orphans = append(orphans, e.ID)
			}
		}
	}
	if len(orphans) == 0 {
		return 0, nil
	}
	n, err := g.hist.Delete(ctx, orphans...)
	if err != nil {
		return 0, failed(err, "updating history")
	}
	return n, nil
}
