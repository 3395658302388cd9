package wprest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/contentgen/contentgen/contentgen"
)

// Host is a contentgen.Host over a WordPress site's REST API. Make it with
// New; it is safe for concurrent use.
type Host struct {
	c *Client

	mu    sync.Mutex
	types []PostType // cached discovery, refreshed on a miss
	taxes []Taxonomy
}

var (
	_ contentgen.Host        = (*Host)(nil)
	_ contentgen.Trasher     = (*Host)(nil)
	_ contentgen.Exister     = (*Host)(nil)
	_ contentgen.MediaStorer = (*Host)(nil)
)

// New makes a Client from o, checks that the site answers, that the
// credentials work and that the user has manage_options, and returns the
// Host.
func New(ctx context.Context, o *Options) (*Host, error) {
	c, err := NewClient(o)
	if err != nil {
		return nil, err
	}
	if _, err := c.Refresh(ctx); err != nil {
		return nil, fmt.Errorf("wprest: the site does not answer at %s: %w", c.api, err)
	}
	if err := c.CheckAuth(ctx); err != nil {
		return nil, fmt.Errorf("wprest: checking the credentials: %w", err)
	}
	return NewHost(c), nil
}

// NewHost returns a Host over c without checking the site.
func NewHost(c *Client) *Host { return &Host{c: c} }

// Client returns the host's client.
func (h *Host) Client() *Client { return h.c }

// HasPlugin reports whether the site serves the companion plugin.
func (h *Host) HasPlugin(ctx context.Context) (bool, error) {
	ix, err := h.c.Index(ctx)
	if err != nil {
		return false, err
	}
	return ix.HasPlugin(), nil
}

// needPlugin returns an error wrapping ErrPluginMissing naming what
// needed it when the site lacks the plugin.
func (h *Host) needPlugin(ctx context.Context, what string) error {
	ok, err := h.HasPlugin(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%s needs the companion plugin: %w", what, ErrPluginMissing)
	}
	return nil
}

// discovery returns the cached post types and taxonomies, reading them
// when fresh is set or nothing is cached.
func (h *Host) discovery(ctx context.Context, fresh bool) ([]PostType, []Taxonomy, error) {
	h.mu.Lock()
	types, taxes := h.types, h.taxes
	h.mu.Unlock()
	if types != nil && !fresh {
		return types, taxes, ctx.Err()
	}
	var err error
	if types, err = h.c.PostTypes(ctx); err != nil {
		return nil, nil, err
	}
	if taxes, err = h.c.Taxonomies(ctx); err != nil {
		return nil, nil, err
	}
	h.mu.Lock()
	h.types, h.taxes = types, taxes
	h.mu.Unlock()
	return types, taxes, nil
}

// postType finds a registered post type, reading discovery again on a miss.
func (h *Host) postType(ctx context.Context, name string) (PostType, bool, error) {
	for fresh := range 2 {
		types, _, err := h.discovery(ctx, fresh == 1)
		if err != nil {
			return PostType{}, false, err
		}
		for _, pt := range types {
			if pt.Name == name {
				return pt, true, nil
			}
		}
	}
	return PostType{}, false, nil
}

// taxonomy finds a registered taxonomy, reading discovery again on a miss.
func (h *Host) taxonomy(ctx context.Context, name string) (Taxonomy, bool, error) {
	for fresh := range 2 {
		_, taxes, err := h.discovery(ctx, fresh == 1)
		if err != nil {
			return Taxonomy{}, false, err
		}
		for _, tx := range taxes {
			if tx.Name == name {
				return tx, true, nil
			}
		}
	}
	return Taxonomy{}, false, nil
}

// contentTypes returns the post types that are not internal.
func (h *Host) contentTypes(ctx context.Context) ([]PostType, error) {
	types, _, err := h.discovery(ctx, false)
	if err != nil {
		return nil, err
	}
	var out []PostType
	for _, pt := range types {
		if !pt.Internal {
			out = append(out, pt)
		}
	}
	return out, nil
}

// Site describes the installation.
func (h *Host) Site(ctx context.Context) (contentgen.Site, error) { return h.c.Site(ctx) }

// Roles lists the roles (the standard ones without the plugin).
func (h *Host) Roles(ctx context.Context) ([]contentgen.Role, error) { return h.c.Roles(ctx) }

// standardStatuses are the statuses always present in PostType.Count.
var standardStatuses = []string{
	contentgen.StatusPublish, contentgen.StatusFuture, contentgen.StatusDraft,
	contentgen.StatusPending, contentgen.StatusPrivate, contentgen.StatusTrash,
}

// PostTypes lists the post types with live counts per status: from the
// plugin's counts route, or from X-WP-Total of one query per content type
// and status without it (internal types then count zero).
func (h *Host) PostTypes(ctx context.Context) ([]contentgen.PostType, error) {
	types, _, err := h.discovery(ctx, true)
	if err != nil {
		return nil, err
	}
	counts, err := h.counts(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]contentgen.PostType, len(types))
	var jobs []func(ctx context.Context) error
	var mu sync.Mutex
	for i, pt := range types {
		c := pt.PostType
		c.Labels = maps.Clone(c.Labels)
		c.Supports = slices.Clone(c.Supports)
		c.Taxonomies = slices.Clone(c.Taxonomies)
		c.Count = make(map[string]int, len(standardStatuses))
		for _, s := range standardStatuses {
			c.Count[s] = 0
			if counts != nil {
				c.Count[s] = counts.Posts[pt.Name][s]
			}
		}
		out[i] = c
		if counts == nil && !pt.Internal {
			for _, s := range standardStatuses {
				jobs = append(jobs, func(ctx context.Context) error {
					n, err := h.c.total(ctx, pt.Collection(), url.Values{"status": {s}, "context": {"edit"}})
					mu.Lock()
					out[i].Count[s] = n
					mu.Unlock()
					return err
				})
			}
		}
	}
	if err := parallel(ctx, len(jobs), func(ctx context.Context, i int) error { return jobs[i](ctx) }); err != nil {
		return nil, err
	}
	return out, nil
}

// Taxonomies lists the taxonomies with live term counts.
func (h *Host) Taxonomies(ctx context.Context) ([]contentgen.Taxonomy, error) {
	_, taxes, err := h.discovery(ctx, true)
	if err != nil {
		return nil, err
	}
	counts, err := h.counts(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]contentgen.Taxonomy, len(taxes))
	for i, tx := range taxes {
		c := tx.Taxonomy
		c.Labels = maps.Clone(c.Labels)
		c.PostTypes = slices.Clone(c.PostTypes)
		if counts != nil {
			c.Count = counts.Terms[tx.Name]
		}
		out[i] = c
	}
	if counts == nil {
		err := parallel(ctx, len(taxes), func(ctx context.Context, i int) error {
			n, err := h.c.total(ctx, taxes[i].Collection(), url.Values{"hide_empty": {"false"}})
			out[i].Count = n
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

type wireCounts struct {
	Posts map[string]map[string]int `json:"posts"`
	Terms map[string]int            `json:"terms"`
}

// counts reads the plugin's counts, nil without the plugin.
func (h *Host) counts(ctx context.Context) (*wireCounts, error) {
	ok, err := h.HasPlugin(ctx)
	if err != nil || !ok {
		return nil, err
	}
	var w wireCounts
	if _, err := h.c.get(ctx, "/"+PluginNamespace+"/counts", nil, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

// Dates on the wire: WordPress's *_gmt fields, "2006-01-02T15:04:05" in UTC.
const wireDate = "2006-01-02T15:04:05"

func formatDate(t time.Time) string { return t.UTC().Format(wireDate) }

// formatDBDate is the plugin's date format.
func formatDBDate(t time.Time) string { return t.UTC().Format(time.DateTime) }

func parseDate(s string) time.Time {
	if s == "" || strings.HasPrefix(s, "0000") {
		return time.Time{}
	}
	for _, layout := range []string{wireDate, time.RFC3339, time.DateTime} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// rendered is a WordPress {raw, rendered} field.
type rendered struct {
	Raw      string `json:"raw"`
	Rendered string `json:"rendered"`
}

// text returns raw, or rendered when raw is absent.
func (r rendered) text() string {
	if r.Raw != "" {
		return r.Raw
	}
	return r.Rendered
}

// wireExtra is the plugin's "contentgen" field.
type wireExtra struct {
	Meta   map[string]string `json:"meta"`
	Parent *int64            `json:"parent"`
	Count  *int              `json:"count"`
}

func (x *wireExtra) meta() contentgen.Meta {
	if x == nil || x.Meta == nil {
		return contentgen.Meta{}
	}
	return contentgen.Meta(maps.Clone(x.Meta))
}

// writeItem is one item of the plugin's write route.
type writeItem struct {
	ID         int64             `json:"id"`
	Meta       map[string]string `json:"meta,omitempty"`
	Parent     *int64            `json:"parent,omitempty"`
	Featured   int64             `json:"featured,omitempty"`
	Registered string            `json:"registered,omitempty"`
}

// pluginMax is the most items one plugin call takes.
const pluginMax = 1000

// write sends items to the plugin's write route in chunks, all of a chunk
// or nothing.
func (h *Host) write(ctx context.Context, kind contentgen.ObjectKind, items []writeItem) error {
	for chunk := range slices.Chunk(items, pluginMax) {
		body := map[string]any{"kind": kind, "items": chunk}
		if err := h.c.post(ctx, "/"+PluginNamespace+"/write", body, nil); err != nil {
			return err
		}
	}
	return nil
}

// metaQuery returns the ids (ascending) of objects of kind whose meta has
// key (and value).
func (h *Host) metaQuery(ctx context.Context, kind contentgen.ObjectKind, key, value string) ([]int64, error) {
	if err := h.needPlugin(ctx, "a query by meta"); err != nil {
		return nil, err
	}
	var out struct {
		IDs []int64 `json:"ids"`
	}
	body := map[string]any{"kind": kind, "key": key, "value": value, "has_value": value != ""}
	if err := h.c.post(ctx, "/"+PluginNamespace+"/query", body, &out); err != nil {
		return nil, err
	}
	return out.IDs, nil
}

type readObject struct {
	ID     int64             `json:"id"`
	Exists bool              `json:"exists"`
	Meta   map[string]string `json:"meta"`
}

// read asks the plugin whether objects exist (and their meta).
func (h *Host) read(ctx context.Context, kind contentgen.ObjectKind, ids []int64, meta bool) ([]readObject, error) {
	out := make([]readObject, 0, len(ids))
	for chunk := range slices.Chunk(ids, pluginMax) {
		var w struct {
			Objects []readObject `json:"objects"`
		}
		if err := h.c.post(ctx, "/"+PluginNamespace+"/read", map[string]any{"kind": kind, "ids": chunk, "meta": meta}, &w); err != nil {
			return nil, err
		}
		if len(w.Objects) != len(chunk) {
			return nil, fmt.Errorf("wprest: read of %d objects answered %d", len(chunk), len(w.Objects))
		}
		out = append(out, w.Objects...)
	}
	return out, nil
}

// Meta returns the meta of an object (through the plugin).
func (h *Host) Meta(ctx context.Context, kind contentgen.ObjectKind, id int64) (contentgen.Meta, error) {
	if err := checkKind(kind); err != nil {
		return nil, err
	}
	if err := h.needPlugin(ctx, "Meta"); err != nil {
		return nil, err
	}
	objs, err := h.read(ctx, kind, []int64{id}, true)
	if err != nil {
		return nil, err
	}
	if !objs[0].Exists {
		return nil, fmt.Errorf("wprest: %s %d: %w", kind, id, contentgen.ErrHostNotFound)
	}
	m := contentgen.Meta(objs[0].Meta)
	if m == nil {
		m = contentgen.Meta{}
	}
	return m, nil
}

// SetMeta sets keys on an object (through the plugin).
func (h *Host) SetMeta(ctx context.Context, kind contentgen.ObjectKind, id int64, m contentgen.Meta) error {
	if err := checkKind(kind); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := h.needPlugin(ctx, "SetMeta"); err != nil {
		return err
	}
	err := h.write(ctx, kind, []writeItem{{ID: id, Meta: maps.Clone(m)}})
	if err != nil && isNotFound(err) {
		return fmt.Errorf("wprest: %s %d: %w", kind, id, contentgen.ErrHostNotFound)
	}
	return err
}

// Exist reports for each id whether the object exists: one plugin call,
// or queries by id without the plugin.
func (h *Host) Exist(ctx context.Context, kind contentgen.ObjectKind, ids []int64) ([]bool, error) {
	if err := checkKind(kind); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]bool, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	ok, err := h.HasPlugin(ctx)
	if err != nil {
		return nil, err
	}
	if ok {
		objs, err := h.read(ctx, kind, ids, false)
		if err != nil {
			return nil, err
		}
		for i, o := range objs {
			out[i] = o.Exists
		}
		return out, nil
	}
	var found []int64
	filter := contentgen.OnlyIDs(ids...)
	switch kind {
	case contentgen.KindPost:
		ps, err := h.Posts(ctx, contentgen.PostQuery{IDs: filter})
		for _, p := range ps {
			found = append(found, p.ID)
		}
		if err != nil {
			return nil, err
		}
	case contentgen.KindTerm:
		ts, err := h.Terms(ctx, contentgen.TermQuery{IDs: filter, Bare: true})
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			found = append(found, t.ID)
		}
	case contentgen.KindUser:
		us, err := h.Users(ctx, contentgen.UserQuery{IDs: filter})
		if err != nil {
			return nil, err
		}
		for _, u := range us {
			found = append(found, u.ID)
		}
	case contentgen.KindComment:
		cs, err := h.Comments(ctx, contentgen.CommentQuery{IDs: filter})
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			found = append(found, c.ID)
		}
	case contentgen.KindMedia:
		ms, err := h.Media(ctx, contentgen.MediaQuery{IDs: filter})
		if err != nil {
			return nil, err
		}
		for _, m := range ms {
			found = append(found, m.ID)
		}
	}
	for i, id := range ids {
		out[i] = slices.Contains(found, id)
	}
	return out, nil
}

func checkKind(kind contentgen.ObjectKind) error {
	switch kind {
	case contentgen.KindPost, contentgen.KindTerm, contentgen.KindUser, contentgen.KindComment, contentgen.KindMedia:
		return nil
	}
	return invalid("kind", fmt.Sprintf("unknown object kind %q", kind))
}

func isNotFound(err error) bool {
	var ae *APIError
	return asAPIError(err, &ae) && (ae.Status == http.StatusNotFound || ae.Status == http.StatusGone)
}

// idRestriction turns a query's IDs filter and meta filter into the list
// of ids the query may return (sorted, distinct), or nil when neither
// filters. none reports that nothing can match.
func (h *Host) idRestriction(ctx context.Context, kind contentgen.ObjectKind, ids contentgen.IDFilter, key, value string) (list []int64, none bool, err error) {
	if ids.Active() {
		list = distinctSorted(ids.List())
		if len(list) == 0 {
			return nil, true, nil
		}
	}
	if key != "" {
		byMeta, err := h.metaQuery(ctx, kind, key, value)
		if err != nil {
			return nil, false, err
		}
		if list != nil {
			byMeta = intersectSorted(list, byMeta)
		}
		if len(byMeta) == 0 {
			return nil, true, nil
		}
		list = byMeta
	}
	return list, false, nil
}

func distinctSorted(ids []int64) []int64 {
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if id > 0 {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func intersectSorted(a, b []int64) []int64 {
	var out []int64
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			out = append(out, a[i])
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return out
}

// includeChunks splits an id restriction into "include" values of at
// most one page each; a nil restriction is one unrestricted chunk.
func includeChunks(ids []int64) []string {
	if ids == nil {
		return []string{""}
	}
	var out []string
	for chunk := range slices.Chunk(ids, perPage) {
		out = append(out, joinIDs(chunk))
	}
	return out
}

func joinIDs(ids []int64) string {
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	return b.String()
}

// page applies offset and limit to items sorted by id.
func page[T any](items []T, offset, limit int) []T {
	if offset < 0 {
		offset = 0
	}
	if offset >= len(items) {
		return []T{}
	}
	items = items[offset:]
	if limit > 0 && limit < len(items) {
		items = items[:limit]
	}
	return items
}

// want is how many items a stream needs for offset and limit, 0 for all.
func want(offset, limit int) int {
	if limit <= 0 {
		return 0
	}
	return max(offset, 0) + limit
}

// containsFold reports whether s contains sub, ignoring case.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// undo runs a compensating delete after a failed write, even when ctx is
// done, bounded in time; its own failure is logged.
func (h *Host) undo(ctx context.Context, what string, fn func(ctx context.Context) error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Minute)
	defer cancel()
	if err := fn(ctx); err != nil {
		h.c.log.WarnContext(ctx, "wprest: removing the objects of a failed batch failed", "what", what, "err", err)
	}
}

// decodeJSON decodes raw into out.
func decodeJSON(raw json.RawMessage, out any) error { return json.Unmarshal(raw, out) }
