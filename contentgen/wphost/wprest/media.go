package wprest

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/providers/filetype"
)

type wireMedia struct {
	ID           int64      `json:"id"`
	Title        rendered   `json:"title"`
	SourceURL    string     `json:"source_url"`
	MIMEType     string     `json:"mime_type"`
	Post         int64      `json:"post"`
	DateGMT      string     `json:"date_gmt"`
	MediaDetails rawObject  `json:"media_details"`
	Extra        *wireExtra `json:"contentgen"`
}

// rawObject keeps a JSON value that PHP may send as [] for an empty object.
type rawObject json.RawMessage

func (r *rawObject) UnmarshalJSON(b []byte) error {
	*r = append((*r)[:0], b...)
	return nil
}

type wireMediaDetails struct {
	Width    int             `json:"width"`
	Height   int             `json:"height"`
	Filesize int64           `json:"filesize"`
	File     string          `json:"file"`
	Sizes    json.RawMessage `json:"sizes"`
}

type wireSize struct {
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	MIMEType  string `json:"mime_type"`
	SourceURL string `json:"source_url"`
}

func decodeMedia(w wireMedia) contentgen.Media {
	m := contentgen.Media{
		ID: w.ID, Title: w.Title.text(), MIMEType: w.MIMEType, URL: w.SourceURL, ParentID: w.Post,
		Date: parseDate(w.DateGMT), Meta: w.Extra.meta(),
	}
	var d wireMediaDetails
	if len(w.MediaDetails) > 0 && w.MediaDetails[0] == '{' && json.Unmarshal(w.MediaDetails, &d) == nil {
		m.Width, m.Height, m.Filesize = d.Width, d.Height, d.Filesize
		m.Filename = path.Base(d.File)
		var sizes map[string]wireSize
		if len(d.Sizes) > 0 && d.Sizes[0] == '{' && json.Unmarshal(d.Sizes, &sizes) == nil {
			for _, name := range slices.Sorted(maps.Keys(sizes)) {
				s := sizes[name]
				m.Sizes = append(m.Sizes, contentgen.MediaSize{Name: name, Width: s.Width, Height: s.Height, MIMEType: s.MIMEType, URL: s.SourceURL})
			}
		}
	}
	if m.Filename == "" || m.Filename == "." || m.Filename == "/" {
		if u, err := url.Parse(w.SourceURL); err == nil {
			m.Filename = path.Base(u.Path)
		}
	}
	return m
}

// CreateMedia stores media records without bytes (their URL points where
// the files are) through the plugin, all or nothing. The REST API can
// only make media from uploaded bytes: use StoreMedia for that.
func (h *Host) CreateMedia(ctx context.Context, media []contentgen.Media) ([]int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(media) == 0 {
		return []int64{}, nil
	}
	if err := h.needPlugin(ctx, "CreateMedia (records without bytes)"); err != nil {
		return nil, err
	}
	bodies := make([]map[string]any, len(media))
	for i, m := range media {
		b := map[string]any{
			"title": m.Title, "mime_type": m.MIMEType, "url": m.URL, "filename": m.Filename,
			"width": m.Width, "height": m.Height, "filesize": m.Filesize, "post": m.ParentID,
			"meta": maps.Clone(m.Meta),
		}
		if !m.Date.IsZero() {
			b["date_gmt"] = formatDBDate(m.Date)
		}
		var sizes []map[string]any
		for _, s := range m.Sizes {
			sizes = append(sizes, map[string]any{"name": s.Name, "width": s.Width, "height": s.Height, "mime_type": s.MIMEType, "url": s.URL})
		}
		b["sizes"] = sizes
		bodies[i] = b
	}
	var ids []int64
	for chunk := range slices.Chunk(bodies, pluginMax) {
		var got struct {
			IDs []int64 `json:"ids"`
		}
		if err := h.c.post(ctx, "/"+PluginNamespace+"/media", map[string]any{"media": chunk}, &got); err != nil {
			h.undo(ctx, "media", func(ctx context.Context) error { return h.deleteMedia(ctx, ids) })
			return nil, fmt.Errorf("wprest: CreateMedia: %w", err)
		}
		ids = append(ids, got.IDs...)
	}
	if len(ids) != len(media) {
		return nil, fmt.Errorf("wprest: CreateMedia: %d records answered %d ids", len(media), len(ids))
	}
	return ids, nil
}

// StoreMedia uploads data with POST /wp/v2/media (the site makes its own
// renditions; m.Sizes are not sent), with the title, date and parent post
// of m, then writes m.Meta through the plugin.
func (h *Host) StoreMedia(ctx context.Context, m contentgen.Media, data []byte) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if len(data) == 0 {
		return 0, invalid("data", "the media bytes are required")
	}
	hasPlugin, err := h.HasPlugin(ctx)
	if err != nil {
		return 0, err
	}
	if len(m.Meta) > 0 && !hasPlugin {
		return 0, fmt.Errorf("StoreMedia with meta needs the companion plugin: %w", ErrPluginMissing)
	}
	mimeType := m.MIMEType
	if mimeType == "" {
		mimeType = http.DetectContentType(data)
	}
	q := url.Values{"title": {m.Title}}
	if m.ParentID > 0 {
		q.Set("post", strconv.FormatInt(m.ParentID, 10))
	}
	if !m.Date.IsZero() {
		q.Set("date_gmt", formatDate(m.Date))
	}
	q.Set("_fields", "id")
	if hasPlugin {
		q.Set("contentgen_trust_type", "1")
	}
	var out struct {
		ID int64 `json:"id"`
	}
	req := &request{
		method: http.MethodPost, path: "/wp/v2/media", query: q, raw: data, contentType: mimeType,
		disposition: `attachment; filename="` + safeFilename(m.Filename, mimeType) + `"`,
	}
	if _, err := h.c.do(ctx, req, &out); err != nil {
		return 0, fmt.Errorf("wprest: StoreMedia: %w", err)
	}
	if len(m.Meta) > 0 {
		if err := h.write(ctx, contentgen.KindMedia, []writeItem{{ID: out.ID, Meta: maps.Clone(m.Meta)}}); err != nil {
			h.undo(ctx, "media", func(ctx context.Context) error { return h.deleteMedia(ctx, []int64{out.ID}) })
			return 0, fmt.Errorf("wprest: StoreMedia: %w", err)
		}
	}
	return out.ID, nil
}

// safeFilename keeps the base name of name with characters that are safe
// in a quoted header value, and gives it an extension from mimeType when
// it has none.
func safeFilename(name, mimeType string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), ".")
	if s == "" {
		s = "upload"
	}
	if t, ok := filetype.ByMIMEType(mimeType); ok && path.Ext(s) == "" {
		s += "." + t.Ext
	}
	return s
}

// MediaBytes returns the bytes of an uploaded item, fetched from its
// source URL when that URL is on the site's own origin (never elsewhere),
// bounded by Options.MaxResponseBytes. Records whose URL points
// elsewhere (CreateMedia) have no bytes: ErrHostNotFound.
func (h *Host) MediaBytes(ctx context.Context, id int64) ([]byte, string, error) {
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	var w wireMedia
	_, err := h.c.get(ctx, "/wp/v2/media/"+strconv.FormatInt(id, 10), url.Values{"context": {"edit"}, "_fields": {"id,source_url,mime_type"}}, &w)
	if err != nil {
		if isNotFound(err) {
			return nil, "", fmt.Errorf("wprest: media %d: %w", id, contentgen.ErrHostNotFound)
		}
		return nil, "", err
	}
	data, err := h.c.fetchOwn(ctx, w.SourceURL)
	if err != nil {
		return nil, "", fmt.Errorf("wprest: media %d: %w", id, err)
	}
	return data, w.MIMEType, nil
}

// Media returns the media items matching q, ordered by id.
func (h *Host) Media(ctx context.Context, q contentgen.MediaQuery) ([]contentgen.Media, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ids, none, err := h.idRestriction(ctx, contentgen.KindMedia, q.IDs, q.MetaKey, q.MetaValue)
	if err != nil || none {
		return []contentgen.Media{}, err
	}
	base := url.Values{
		"context": {"edit"}, "orderby": {"id"}, "order": {"asc"},
		"_fields": {"id,title.raw,source_url,mime_type,post,date_gmt,media_details,contentgen"},
	}
	if q.Search != "" {
		base.Set("search", q.Search)
	}
	filtered := q.Search != "" || len(q.MIMEPrefixes) > 0
	limit := want(q.Offset, q.Limit)
	if filtered {
		limit = 0
	}
	chunks := includeChunks(ids)
	results := make([][]wireMedia, len(chunks))
	err = parallel(ctx, len(chunks), func(ctx context.Context, i int) error {
		v := cloneValues(base)
		if chunks[i] != "" {
			v.Set("include", chunks[i])
		}
		var err error
		results[i], err = listAll[wireMedia](ctx, h.c, "/wp/v2/media", v, limit)
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []contentgen.Media
	for _, res := range results {
		for _, w := range res {
			m := decodeMedia(w)
			if q.Search != "" && !containsFold(m.Title, q.Search) {
				continue
			}
			if len(q.MIMEPrefixes) > 0 && !slices.ContainsFunc(q.MIMEPrefixes, func(p string) bool { return strings.HasPrefix(m.MIMEType, p) }) {
				continue
			}
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return page(out, q.Offset, q.Limit), nil
}

// DeleteMedia removes media items and their files (force=true); WordPress
// clears the featured images that used them.
func (h *Host) DeleteMedia(ctx context.Context, ids []int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return h.deleteMedia(ctx, ids)
}

func (h *Host) deleteMedia(ctx context.Context, ids []int64) error {
	return h.deleteMany(ctx, "/wp/v2/media", distinctSorted(ids), url.Values{"force": {"true"}}, false)
}
