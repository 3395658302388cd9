package wphost

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/providers/filetype"
)

// mediaFile is where the bytes of a stored item and its sizes are.
type mediaFile struct {
	// rel is the main file relative to the uploads directory
	// (YYYY/MM/name.ext), "" for a record of a remote URL.
	rel string
	// sizes are the file names of the sizes, in the same directory.
	sizes []string
	// filesize is the size of the main file.
	filesize int64
	// sizeBytes are the sizes of the size files, by position.
	sizeBytes []int64
}

// attachmentMetadata returns _wp_attachment_metadata as
// wp_generate_attachment_metadata writes it for an image (width, height,
// file, filesize, sizes, image_meta), or with the file size alone for
// other files.
func attachmentMetadata(m *contentgen.Media, f mediaFile) (string, error) {
	filesize := f.filesize
	if filesize == 0 {
		filesize = m.Filesize
	}
	if !strings.HasPrefix(m.MIMEType, "image/") {
		return phpSerialize(phpArray{{"filesize", filesize}})
	}
	file := f.rel
	if file == "" {
		file = m.Filename
	}
	sizes := phpArray{}
	for i, s := range m.Sizes {
		name := ""
		if i < len(f.sizes) {
			name = f.sizes[i]
		} else if s.URL != "" {
			name = path.Base(s.URL)
		}
		mime := s.MIMEType
		if mime == "" {
			mime = m.MIMEType
		}
		entry := phpArray{{"file", name}, {"width", int64(s.Width)}, {"height", int64(s.Height)}, {"mime-type", mime}}
		if i < len(f.sizeBytes) {
			entry = append(entry, phpEntry{"filesize", f.sizeBytes[i]})
		}
		sizes = append(sizes, phpEntry{s.Name, entry})
	}
	imageMeta := phpArray{
		{"aperture", "0"}, {"credit", ""}, {"camera", ""}, {"caption", ""}, {"created_timestamp", "0"}, {"copyright", ""},
		{"focal_length", "0"}, {"iso", "0"}, {"shutter_speed", "0"}, {"title", ""}, {"orientation", "0"}, {"keywords", phpArray{}},
	}
	return phpSerialize(phpArray{
		{"width", int64(m.Width)}, {"height", int64(m.Height)}, {"file", file}, {"filesize", filesize},
		{"sizes", sizes}, {"image_meta", imageMeta},
	})
}

// CreateMedia stores media records: attachments whose guid, and so URL,
// is the item's URL, with _wp_attachment_metadata (dimensions, sizes,
// file size) and their meta. No file is written (see StoreMedia).
func (h *Host) CreateMedia(ctx context.Context, media []contentgen.Media) ([]int64, error) {
	if len(media) == 0 {
		return []int64{}, ctx.Err()
	}
	var ids []int64
	err := h.write(ctx, "creating media", func(ctx context.Context, q sqlstore.Querier) error {
		var err error
		ids, err = h.createMedia(ctx, q, media, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// createMedia inserts attachments; files, when not nil, are their stored
// files.
func (h *Host) createMedia(ctx context.Context, q sqlstore.Querier, media []contentgen.Media, files []mediaFile) ([]int64, error) {
	now := h.s.o.Now()
	rows := make([]postRow, len(media))
	var parents []int64
	for i := range media {
		m := &media[i]
		if m.MIMEType == "" {
			return nil, invalidf("media MIMEType must not be empty")
		}
		d := m.Date
		if d.IsZero() {
			d = now
		}
		guid := m.URL
		if files != nil && files[i].rel != "" {
			guid = h.s.uploadsURL + "/" + files[i].rel
		}
		rows[i] = postRow{date: d, title: m.Title, status: "inherit", parent: m.ParentID, guid: guid, typ: "attachment", mime: m.MIMEType, commentStatus: h.s.commentStatus, pingStatus: "closed"}
		if m.ParentID != 0 {
			parents = append(parents, m.ParentID)
		}
	}
	if err := h.lockWrites(ctx, q); err != nil {
		return nil, err
	}
	if err := h.requireIDs(ctx, q, "parent post", "SELECT ID FROM "+h.s.t.posts+" WHERE ID IN (%s) AND post_type NOT IN ('attachment', 'revision') LOCK IN SHARE MODE", parents); err != nil {
		return nil, err
	}
	if err := h.assignPostNames(ctx, q, rows); err != nil {
		return nil, err
	}
	ids, err := h.insertIDs(ctx, q, h.s.t.posts, postCols, len(rows), func(i int) []any { return rows[i].values(h.s.loc, now) })
	if err != nil {
		return nil, err
	}
	var unnamed []int64
	for i, r := range rows {
		if r.name == "" {
			unnamed = append(unnamed, ids[i])
		}
	}
	if len(unnamed) > 0 {
		if _, err := q.ExecContext(ctx, "UPDATE "+h.s.t.posts+" SET post_name = ID WHERE ID IN ("+marks(len(unnamed))+")", int64Args(unnamed)...); err != nil {
			return nil, err
		}
	}
	var meta []metaRow
	for i := range media {
		m := &media[i]
		var f mediaFile
		if files != nil {
			f = files[i]
		}
		if f.rel != "" {
			meta = append(meta, metaRow{ids[i], "_wp_attached_file", f.rel})
		}
		md, err := attachmentMetadata(m, f)
		if err != nil {
			return nil, err
		}
		meta = append(meta, metaRow{ids[i], "_wp_attachment_metadata", md})
		for _, k := range sortedKeys(m.Meta) {
			if k != "_wp_attached_file" && k != "_wp_attachment_metadata" {
				meta = append(meta, metaRow{ids[i], k, m.Meta[k]})
			}
		}
	}
	return ids, insertMeta(ctx, q, h.s.t.postmeta, "post_id", meta)
}

// Media returns the attachments matching mq, ordered by id.
func (h *Host) Media(ctx context.Context, mq contentgen.MediaQuery) ([]contentgen.Media, error) {
	t := h.s.t
	where := "p.post_type = 'attachment'"
	var args []any
	if mq.IDs.Active() {
		ids := dedupe(mq.IDs.List())
		if len(ids) == 0 {
			return []contentgen.Media{}, ctx.Err()
		}
		where += " AND p.ID IN (" + marks(len(ids)) + ")"
		args = append(args, int64Args(ids)...)
	}
	if len(mq.MIMEPrefixes) > 0 {
		var ors []string
		for _, p := range mq.MIMEPrefixes {
			ors = append(ors, "p.post_mime_type LIKE ? ESCAPE '!'")
			args = append(args, likePrefix(p)+"%")
		}
		where += " AND (" + strings.Join(ors, " OR ") + ")"
	}
	if mq.Search != "" {
		where += " AND p.post_title LIKE ? ESCAPE '!'"
		args = append(args, likeArg(mq.Search))
	}
	if mq.MetaKey != "" {
		c, a := metaFilter(t.postmeta, "post_id", "p.ID", mq.MetaKey, mq.MetaValue)
		where += " AND " + c
		args = append(args, a...)
	}
	q := h.q(ctx)
	var out []contentgen.Media
	guids := map[int64]string{}
	query := "SELECT p.ID, p.post_title, p.post_mime_type, p.guid, p.post_parent, p.post_date, p.post_date_gmt FROM " + t.posts + " p WHERE " + where +
		" ORDER BY p.ID" + limitClause(mq.Limit, mq.Offset)
	err := q.QueryEach(ctx, query, args, func(r *sql.Rows) error {
		var m contentgen.Media
		var guid string
		var local, gmt time.Time
		if err := r.Scan(&m.ID, &m.Title, &m.MIMEType, &guid, &m.ParentID, &local, &gmt); err != nil {
			return err
		}
		m.Date = fromColumns(local, gmt, h.s.loc)
		guids[m.ID] = guid
		out = append(out, m)
		return nil
	})
	if err != nil {
		return nil, h.fail(ctx, "reading media", err)
	}
	if len(out) == 0 {
		return []contentgen.Media{}, nil
	}
	ids := make([]int64, len(out))
	for i := range out {
		ids[i] = out[i].ID
	}
	all, err := h.loadMeta(ctx, q, contentgen.KindMedia, ids, false)
	if err != nil {
		return nil, h.fail(ctx, "reading media meta", err)
	}
	for i := range out {
		m := &out[i]
		meta := all[m.ID]
		h.fillMedia(m, guids[m.ID], meta["_wp_attached_file"], meta["_wp_attachment_metadata"])
		delete(meta, "_wp_attached_file")
		delete(meta, "_wp_attachment_metadata")
		m.Meta = meta
	}
	return out, nil
}

// fillMedia sets the URL, file name, dimensions, file size and sizes of m
// from its guid, _wp_attached_file and _wp_attachment_metadata, as
// wp_get_attachment_url and image_downsize read them.
func (h *Host) fillMedia(m *contentgen.Media, guid, attached, metadata string) {
	m.URL = guid
	if attached != "" {
		m.URL = h.s.uploadsURL + "/" + attached
		m.Filename = path.Base(attached)
	}
	v, err := phpUnserialize(metadata)
	if err != nil {
		if m.Filename == "" {
			m.Filename = path.Base(guid)
		}
		return
	}
	md, _ := v.(phpArray)
	num := func(a phpArray, k string) int64 {
		x, _ := a.get(k)
		switch n := x.(type) {
		case int64:
			return n
		case float64:
			return int64(n)
		case string:
			i, _ := strconv.ParseInt(n, 10, 64)
			return i
		}
		return 0
	}
	m.Width, m.Height, m.Filesize = int(num(md, "width")), int(num(md, "height")), num(md, "filesize")
	if m.Filename == "" {
		if f, ok := md.get("file"); ok {
			s, _ := f.(string)
			m.Filename = path.Base(s)
		} else {
			m.Filename = path.Base(guid)
		}
	}
	dir := m.URL[:strings.LastIndexByte(m.URL, '/')+1]
	sizes, _ := md.get("sizes")
	sa, _ := sizes.(phpArray)
	for _, e := range sa {
		name, _ := e.Key.(string)
		s, _ := e.Value.(phpArray)
		file, _ := s.get("file")
		mime, _ := s.get("mime-type")
		sz := contentgen.MediaSize{Name: name, Width: int(num(s, "width")), Height: int(num(s, "height"))}
		sz.MIMEType, _ = mime.(string)
		if f, _ := file.(string); f != "" {
			sz.URL = dir + f
		}
		m.Sizes = append(m.Sizes, sz)
	}
}

// DeleteMedia removes attachments with their meta and, when the uploads
// directory is known, their files (after the commit); posts lose them as
// featured image.
func (h *Host) DeleteMedia(ctx context.Context, ids []int64) error {
	ids = dedupe(ids)
	if len(ids) == 0 {
		return ctx.Err()
	}
	return h.write(ctx, "deleting media", func(ctx context.Context, q sqlstore.Querier) error {
		return h.deleteMedia(ctx, q, ids)
	})
}

func (h *Host) deleteMedia(ctx context.Context, q sqlstore.Querier, ids []int64) error {
	t := h.s.t
	var files []string
	err := q.QueryEach(ctx, "SELECT m.meta_key, m.meta_value FROM "+t.postmeta+" m JOIN "+t.posts+" p ON p.ID = m.post_id WHERE p.post_type = 'attachment' AND m.post_id IN ("+
		marks(len(ids))+") AND m.meta_key IN ('_wp_attached_file', '_wp_attachment_metadata') ORDER BY m.post_id, m.meta_key", int64Args(ids),
		func(r *sql.Rows) error {
			var k, v string
			if err := r.Scan(&k, &v); err != nil {
				return err
			}
			if k == "_wp_attached_file" {
				files = append(files, v)
				return nil
			}
			if len(files) == 0 {
				return nil
			}
			// The sizes live beside the main file.
			md, err := phpUnserialize(v)
			if err != nil {
				return nil
			}
			sizes, _ := md.(phpArray).get("sizes")
			dir := path.Dir(files[len(files)-1])
			sa, _ := sizes.(phpArray)
			for _, e := range sa {
				s, _ := e.Value.(phpArray)
				if f, _ := s.get("file"); f != nil {
					if name, _ := f.(string); name != "" {
						files = append(files, path.Join(dir, name))
					}
				}
			}
			return nil
		})
	if err != nil {
		return err
	}
	strIDs := make([]any, len(ids))
	for i, id := range ids {
		strIDs[i] = strconv.FormatInt(id, 10)
	}
	if _, err := q.ExecContext(ctx, "DELETE FROM "+t.postmeta+" WHERE meta_key = '_thumbnail_id' AND meta_value IN ("+marks(len(ids))+")", strIDs...); err != nil {
		return err
	}
	if err := h.deletePosts(ctx, q, ids, "p.post_type = 'attachment'"); err != nil {
		return err
	}
	if h.s.o.Uploads != "" && len(files) > 0 {
		h.s.db.AfterTx(ctx, func() {
			for _, f := range files {
				if p, ok := h.uploadPath(f); ok {
					if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
						h.s.o.Logger.Warn("wphost: removing a media file", "file", f, "err", err)
					}
				}
			}
		}, nil)
	}
	return nil
}

// uploadPath returns the path of a file relative to the uploads
// directory, refusing one that would leave it.
func (h *Host) uploadPath(rel string) (string, bool) {
	if h.s.o.Uploads == "" || rel == "" || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return "", false
	}
	return filepath.Join(h.s.o.Uploads, filepath.FromSlash(rel)), true
}

// safeFileName keeps the letters, digits, dots, dashes and underscores of
// a file name, as sanitize_file_name does for ASCII names; "file" when
// nothing is left.
func safeFileName(name string) string {
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	var b strings.Builder
	for _, r := range removeAccents(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	s := strings.Trim(dashesRe.ReplaceAllString(b.String(), "-"), ".-_")
	if s == "" || strings.HasPrefix(s, ".") {
		s = "file" + s
	}
	return s
}

// StoreMedia stores an item with its bytes and those of its sizes in the
// uploads directory, under YYYY/MM/ of its date in the site's zone, with a
// file name made unique there as wp_unique_filename does (name-1.ext,
// ...); the sizes are name-WxH.ext beside it. The attachment gets
// _wp_attached_file and _wp_attachment_metadata; the files are removed
// again when the transaction rolls back. Without Options.Uploads it fails
// with ErrNoUploads.
func (h *Host) StoreMedia(ctx context.Context, m contentgen.Media, data []byte) (int64, error) {
	if h.s.o.Uploads == "" {
		return 0, ErrNoUploads
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	d := m.Date
	if d.IsZero() {
		d = h.s.o.Now()
	}
	sub := d.In(h.s.loc).Format("2006/01")
	dir := filepath.Join(h.s.o.Uploads, filepath.FromSlash(sub))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("wphost: creating %s: %w", sub, err)
	}
	name := safeFileName(m.Filename)
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	var written []string
	cleanup := func() {
		for _, p := range written {
			_ = os.Remove(p)
		}
	}
	// create writes a new file, failing when it exists.
	create := func(file string, b []byte) error {
		p := filepath.Join(dir, file)
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		written = append(written, p)
		if _, err := f.Write(b); err != nil {
			_ = f.Close()
			return err
		}
		return f.Close()
	}
	var f mediaFile
	for n := 0; ; n++ {
		base := stem
		if n > 0 {
			base = stem + "-" + strconv.Itoa(n)
		}
		err := create(base+ext, data)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			cleanup()
			return 0, fmt.Errorf("wphost: writing %s: %w", base+ext, err)
		}
		f.rel, f.filesize = sub+"/"+base+ext, int64(len(data))
		stem = base
		break
	}
	m.Sizes = append([]contentgen.MediaSize(nil), m.Sizes...)
	for i, s := range m.Sizes {
		sext := ext
		if s.MIMEType != "" && s.MIMEType != m.MIMEType {
			if t, ok := filetype.ByMIMEType(s.MIMEType); ok {
				sext = "." + t.Ext
			}
		}
		file := fmt.Sprintf("%s-%dx%d%s", stem, s.Width, s.Height, sext)
		if len(s.Data) > 0 {
			if err := create(file, s.Data); err != nil {
				cleanup()
				return 0, fmt.Errorf("wphost: writing size %q: %w", s.Name, err)
			}
		}
		f.sizes = append(f.sizes, file)
		f.sizeBytes = append(f.sizeBytes, int64(len(s.Data)))
		m.Sizes[i].Data = nil
	}
	m.Filename, m.Filesize = path.Base(f.rel), int64(len(data))
	var id int64
	err := h.write(ctx, "storing media", func(ctx context.Context, q sqlstore.Querier) error {
		ids, err := h.createMedia(ctx, q, []contentgen.Media{m}, []mediaFile{f})
		if err != nil {
			return err
		}
		id = ids[0]
		h.s.db.AfterTx(ctx, nil, cleanup)
		return nil
	})
	if err != nil {
		cleanup()
		return 0, err
	}
	return id, nil
}

// MediaBytes returns the bytes of a stored item's file and its MIME type,
// or an error wrapping contentgen.ErrHostNotFound (also for records of
// remote URLs, which have no file here).
func (h *Host) MediaBytes(ctx context.Context, id int64) ([]byte, string, error) {
	if h.s.o.Uploads == "" {
		return nil, "", ErrNoUploads
	}
	var mime, rel string
	err := h.q(ctx).QueryEach(ctx, "SELECT p.post_mime_type, m.meta_value FROM "+h.s.t.posts+" p JOIN "+h.s.t.postmeta+
		" m ON m.post_id = p.ID AND m.meta_key = '_wp_attached_file' WHERE p.ID = ? AND p.post_type = 'attachment' ORDER BY m.meta_id LIMIT 1",
		[]any{id}, func(r *sql.Rows) error { return r.Scan(&mime, &rel) })
	if err != nil {
		return nil, "", h.fail(ctx, "reading media", err)
	}
	p, ok := h.uploadPath(rel)
	if !ok {
		return nil, "", fmt.Errorf("wphost: media %d has no stored file: %w", id, contentgen.ErrHostNotFound)
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", fmt.Errorf("wphost: the file of media %d is missing: %w", id, contentgen.ErrHostNotFound)
	}
	if err != nil {
		return nil, "", fmt.Errorf("wphost: reading the file of media %d: %w", id, err)
	}
	return b, mime, nil
}
