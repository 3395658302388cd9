package memhost

import (
	"bytes"
	"context"
	"mime"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/providers/filetype"
)

// CreateMedia stores media records (ID ignored) without bytes and returns
// their ids in input order; URL is kept as given. A non-zero ParentID must
// name an existing post (ErrInvalid); a zero Date becomes the current time.
// Media ids come from the same sequence as post ids.
func (h *Host) CreateMedia(ctx context.Context, media []contentgen.Media) ([]int64, error) {
	var ids []int64
	err := h.write(ctx, func(st *state) error {
		rows := make([]*mediaRow, len(media))
		for i := range media {
			m, err := h.newMedia(st, &media[i])
			if err != nil {
				return err
			}
			rows[i] = m
		}
		ids = make([]int64, len(rows))
		for i, m := range rows {
			ids[i] = st.insertMedia(m)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// newMedia validates in and returns the row to store.
func (h *Host) newMedia(st *state, in *contentgen.Media) (*mediaRow, error) {
	if in.ParentID != 0 && !st.posts.has(in.ParentID) {
		return nil, missingf("parent post %d does not exist", in.ParentID)
	}
	m := &mediaRow{Media: *in}
	m.ID = 0
	m.Date = h.timestamp(m.Date)
	m.Meta = storedMeta(in.Meta)
	return m, nil
}

// insertMedia gives m the next id and stores it.
func (st *state) insertMedia(m *mediaRow) int64 {
	st.seq.post++
	m.ID = st.seq.post
	st.media.insert(m.ID, m)
	return m.ID
}

// Media returns copies of the media records matching q, ordered by id.
// Search matches the title ignoring case; MetaKey without MetaValue keeps
// items that have the key.
func (h *Host) Media(ctx context.Context, q contentgen.MediaQuery) ([]contentgen.Media, error) {
	var out []contentgen.Media
	search := strings.ToLower(q.Search)
	err := h.read(ctx, func(st *state) error {
		out = find(st.media, q.IDs, func(m *mediaRow) bool {
			return hasPrefix(m.MIMEType, q.MIMEPrefixes) &&
				metaMatch(m.Meta, q.MetaKey, q.MetaValue) &&
				contains(m.Title, search)
		}, q.Limit, q.Offset, func(m *mediaRow) contentgen.Media {
			c := m.Media
			c.Meta = cloneMeta(m.Meta)
			c.Sizes = slices.Clone(m.Sizes)
			return c
		})
		return nil
	})
	return out, err
}

// hasPrefix reports whether s starts with one of prefixes, or prefixes is
// empty.
func hasPrefix(s string, prefixes []string) bool {
	if len(prefixes) == 0 {
		return true
	}
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// DeleteMedia removes media records and their stored bytes; posts using a
// removed item as featured image lose it. Unknown ids are ignored.
func (h *Host) DeleteMedia(ctx context.Context, ids []int64) error {
	return h.write(ctx, func(st *state) error {
		gone := map[int64]bool{}
		for _, id := range ids {
			if st.media.remove(id) {
				gone[id] = true
			}
		}
		if len(gone) == 0 {
			return nil
		}
		for _, id := range st.posts.order {
			if p := st.posts.get(id); p != nil && gone[p.FeaturedMediaID] {
				st.posts.update(id, func(p *contentgen.Post) { p.FeaturedMediaID = 0 })
			}
		}
		return nil
	})
}

// StoreMedia stores m (ID ignored) with a copy of data and returns the new
// id. The file is kept under uploads/YYYY/MM/ of m.Date (the current time
// when zero) with a name made from m.Filename (a numeric suffix keeps it
// unique); the host sets Filename to that name, URL to
// <site URL>/uploads/YYYY/MM/<name> and Filesize to len(data). An empty
// MIMEType is taken from the file extension or, failing that, the bytes.
// A non-zero ParentID must name an existing post (ErrInvalid).
func (h *Host) StoreMedia(ctx context.Context, m contentgen.Media, data []byte) (int64, error) {
	var id int64
	err := h.write(ctx, func(st *state) error {
		row, err := h.newMedia(st, &m)
		if err != nil {
			return err
		}
		name := cleanFilename(row.Filename)
		if row.MIMEType == "" {
			row.MIMEType = mime.TypeByExtension(path.Ext(name))
			if row.MIMEType == "" {
				row.MIMEType = http.DetectContentType(data)
			}
		}
		dir := "uploads/" + row.Date.Format("2006/01") + "/"
		ext := path.Ext(name)
		stem := strings.TrimSuffix(name, ext)
		for n := 1; ; n++ {
			if _, taken := st.files[dir+name]; !taken {
				break
			}
			name = stem + "-" + strconv.Itoa(n) + ext
		}
		row.Filename = name
		row.path = dir + name
		row.URL = st.site.URL + "/" + row.path
		row.data = bytes.Clone(data)
		if row.data == nil {
			row.data = []byte{}
		}
		row.Filesize = int64(len(data))
		row.Sizes = make([]contentgen.MediaSize, 0, len(m.Sizes))
		finalStem := strings.TrimSuffix(name, path.Ext(name))
		for _, sz := range m.Sizes {
			sizeName := finalStem + "-" + strconv.Itoa(sz.Width) + "x" + strconv.Itoa(sz.Height) + extFor(sz.MIMEType, path.Ext(name))
			if _, taken := st.files[dir+sizeName]; taken {
				return invalidf("size %q of %s clashes with a stored file", sz.Name, name)
			}
			if row.sizes == nil {
				row.sizes = map[string]storedFile{}
			}
			row.sizes[sz.Name] = storedFile{path: dir + sizeName, data: bytes.Clone(sz.Data)}
			sz.URL = st.site.URL + "/" + dir + sizeName
			sz.Data = nil
			row.Sizes = append(row.Sizes, sz)
		}
		id = st.insertMedia(row)
		return nil
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// extFor returns the file extension of a MIME type, or fallback.
func extFor(mimeType, fallback string) string {
	if t, ok := filetype.ByMIMEType(mimeType); ok {
		return "." + t.Ext
	}
	return fallback
}

// cleanFilename keeps the last element of name and replaces characters
// other than ASCII letters, digits, '.', '_' and '-' with '-'.
func cleanFilename(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	var b strings.Builder
	dash := false
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_':
			b.WriteRune(r)
			dash = false
		default:
			if !dash {
				b.WriteByte('-')
			}
			dash = true
		}
	}
	out := strings.Trim(b.String(), "-.")
	if out == "" || strings.HasPrefix(out, ".") {
		out = "file" + out
	}
	return out
}

// MediaBytes returns a copy of the stored bytes of a media item and its
// MIME type, or an error wrapping contentgen.ErrHostNotFound when the item
// does not exist or has no stored bytes.
func (h *Host) MediaBytes(ctx context.Context, id int64) ([]byte, string, error) {
	var data []byte
	var mimeType string
	err := h.read(ctx, func(st *state) error {
		m := st.media.get(id)
		if m == nil || m.data == nil {
			return notFound(contentgen.KindMedia, id)
		}
		data, mimeType = bytes.Clone(m.data), m.MIMEType
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	return data, mimeType, nil
}

// File looks up a file kept by StoreMedia by its URL path, such as
// "/uploads/2024/05/photo.jpg" (the path part of the site URL, if any,
// may precede it), or by its full URL. It returns a copy of the bytes and
// the MIME type, and ok false when no stored file has that path. Unlike
// the Host methods it takes no context: from inside InTx, call it on the
// transaction-bound Host, as the root Host waits for the transaction.
func (h *Host) File(urlPath string) (data []byte, mimeType string, ok bool) {
	p := urlPath
	if u, err := url.Parse(urlPath); err == nil && u.Scheme != "" {
		p = u.Path
	}
	unlock, err := h.acquire(context.Background(), false)
	if err != nil {
		return nil, "", false
	}
	defer unlock()
	st := h.st
	if st.sitePath != "" {
		p = strings.TrimPrefix(p, st.sitePath)
	}
	p = strings.TrimPrefix(p, "/")
	ref, found := st.files[p]
	if !found {
		return nil, "", false
	}
	m := st.media.get(ref.id)
	if ref.size != "" {
		mime := m.MIMEType
		for _, sz := range m.Sizes {
			if sz.Name == ref.size {
				mime = sz.MIMEType
			}
		}
		return bytes.Clone(m.sizes[ref.size].data), mime, true
	}
	return bytes.Clone(m.data), m.MIMEType, true
}

// FileHandler returns an http.Handler serving the files kept by
// StoreMedia at their URL paths (GET and HEAD, with ranges), for example
// mounted with mux.Handle("/uploads/", host.FileHandler()). Unknown paths
// get 404.
func (h *Host) FileHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		data, mimeType, ok := h.File(r.URL.Path)
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", mimeType)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		http.ServeContent(w, r, path.Base(r.URL.Path), time.Time{}, bytes.NewReader(data))
	})
}
