package sqlstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/contentgen/contentgen/contentgen"
)

// files keeps the bytes of media items in a directory: one file per item
// and rendition, under year/month/token-name, removed with their records.
//
// A file follows its record through the record's transaction: StoreMedia
// writes it under pendingDir (a temporary file, then a rename) in the
// transaction and moves it to its place once the transaction commits; a
// rollback of the transaction, or of the savepoint it was written in,
// removes it. A deletion removes the files once it commits, the pending
// one first and then the placed one, so that a file whose record was
// deleted between its commit and its move is gone too: either the move
// came first and the placed file goes, or the move finds nothing.
// A process that dies in between leaves a pending file or a file without
// a record; Host.SweepMedia finishes or removes those.
type files struct {
	dir string // empty: records only
	url string // where dir is served
	// failWrite, when set, is asked before each file is written and its
	// error is the write's: tests make the disk full with it.
	failWrite func(path string) error
}

// pendingDir is the directory under MediaDir of files whose records have
// not committed yet; it is never served.
const pendingDir = ".pending"

// PendingGrace is how old a pending media file without a record must be
// before SweepMedia removes it: younger ones may belong to a transaction
// of another process that has not committed yet.
const PendingGrace = 15 * time.Minute

// placed is a file written under pendingDir and the place it moves to.
type placed struct{ pending, final string }

var _ contentgen.MediaStorer = (*Host)(nil)

// StoreMedia implements contentgen.MediaStorer. With HostOptions.MediaDir
// the bytes of m and of its sizes are written there and the record's
// URLs point at them; the files appear once the record commits, and a
// write that fails or a transaction that rolls back leaves none behind.
// Without a MediaDir only the record is stored.
func (h *Host) StoreMedia(ctx context.Context, m contentgen.Media, data []byte) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var id int64
	err := h.write(ctx, func(ctx context.Context, q querier) error {
		// Written afresh by every attempt of the transaction: the
		// rollback of one removes its files.
		m := m
		if h.files.dir != "" {
			written, err := h.files.write(&m, data, h.db.now())
			if err != nil {
				h.files.discard(written)
				return fmt.Errorf("sqlstore: storing media bytes: %w", markFull(err))
			}
			h.db.after(ctx, func() { h.files.place(written) }, func() { h.files.discard(written) })
		}
		ids, err := h.CreateMedia(ctx, []contentgen.Media{m})
		if err == nil {
			id = ids[0]
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// MediaBytes implements contentgen.MediaStorer: the bytes kept in
// MediaDir, or ErrHostNotFound for an unknown item or one stored as a
// record only.
func (h *Host) MediaBytes(ctx context.Context, id int64) ([]byte, string, error) {
	items, err := h.Media(ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(id)})
	if err != nil {
		return nil, "", err
	}
	if len(items) == 0 {
		return nil, "", fmt.Errorf("sqlstore: media %d: %w", id, contentgen.ErrHostNotFound)
	}
	p, ok := h.files.path(items[0].URL)
	if !ok {
		return nil, "", fmt.Errorf("sqlstore: media %d has no stored bytes: %w", id, contentgen.ErrHostNotFound)
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", fmt.Errorf("sqlstore: media %d: file missing: %w", id, contentgen.ErrHostNotFound)
	}
	if err != nil {
		return nil, "", err
	}
	return data, items[0].MIMEType, nil
}

// Files returns a handler serving the files of MediaDir by their path
// under MediaURL; mount it there (for example with http.StripPrefix).
// Without a MediaDir it answers 404.
func (h *Host) Files() http.Handler {
	if h.files.dir == "" {
		return http.NotFoundHandler()
	}
	fsrv := http.FileServer(http.Dir(h.files.dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Directories, pending files and temporary files are not served.
		if strings.HasSuffix(r.URL.Path, "/") || strings.HasPrefix(r.URL.Path, ".") ||
			strings.Contains(r.URL.Path, "/.") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		fsrv.ServeHTTP(w, r)
	})
}

// mediaPaths returns the files of the items ids kept in MediaDir.
func (h *Host) mediaPaths(ctx context.Context, ids []int64) ([]string, error) {
	if h.files.dir == "" || len(ids) == 0 {
		return nil, nil
	}
	items, err := h.Media(ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(ids...)})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range items {
		if p, ok := h.files.path(m.URL); ok {
			out = append(out, p)
		}
		for _, s := range m.Sizes {
			if p, ok := h.files.path(s.URL); ok {
				out = append(out, p)
			}
		}
	}
	return out, nil
}

// write stores data and the bytes of m's sizes under pendingDir, sets
// the URLs (of the places the files move to), the file size and drops
// the sizes' bytes from m. It returns the files written, also when it
// fails.
func (f files) write(m *contentgen.Media, data []byte, now time.Time) ([]placed, error) {
	date := m.Date
	if date.IsZero() {
		date = now
	}
	var tok [6]byte
	if _, err := rand.Read(tok[:]); err != nil {
		return nil, err
	}
	name := cleanName(m.Filename)
	rel := path.Join(date.UTC().Format("2006/01"), hex.EncodeToString(tok[:])+"-"+name)
	var written []placed
	put := func(rel string, b []byte) error {
		p := filepath.Join(f.dir, pendingDir, filepath.FromSlash(rel))
		if err := f.writeAtomic(p, b); err != nil {
			return err
		}
		written = append(written, placed{p, filepath.Join(f.dir, filepath.FromSlash(rel))})
		return nil
	}
	if err := put(rel, data); err != nil {
		return written, err
	}
	m.URL, m.Filesize = f.url+"/"+rel, int64(len(data))
	ext := path.Ext(rel)
	sizes := make([]contentgen.MediaSize, len(m.Sizes))
	for i, s := range m.Sizes {
		if len(s.Data) > 0 {
			srel := strings.TrimSuffix(rel, ext) + "-" + cleanName(s.Name) + ext
			if err := put(srel, s.Data); err != nil {
				return written, err
			}
			s.URL = f.url + "/" + srel
		}
		s.Data = nil
		sizes[i] = s
	}
	m.Sizes = sizes
	return written, nil
}

// place moves written files to their places. A file already moved (by
// SweepMedia of another process) is fine.
func (f files) place(written []placed) {
	for _, w := range written {
		if err := os.MkdirAll(filepath.Dir(w.final), 0o755); err != nil {
			continue
		}
		_ = os.Rename(w.pending, w.final)
	}
}

// discard removes written files that will not be placed.
func (f files) discard(written []placed) {
	for _, w := range written {
		_ = os.Remove(w.pending)
	}
}

// path returns the file a URL of dir names, by the URL's path under the
// path of MediaURL, so that a server at another address (another
// instance, a restart on another port) finds the same files; false for
// other URLs.
func (f files) path(raw string) (string, bool) {
	if f.dir == "" {
		return "", false
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", false
	}
	base := "/"
	if b, err := url.Parse(f.url); err == nil {
		base = strings.TrimSuffix(b.Path, "/") + "/"
	}
	if !strings.HasPrefix(u.Path, base) {
		return "", false
	}
	rel := path.Clean("/" + strings.TrimPrefix(u.Path, base))
	return filepath.Join(f.dir, filepath.FromSlash(rel)), true
}

// MediaSweep is what SweepMedia did.
type MediaSweep struct {
	// Placed counts files whose record committed but which were not
	// moved to their place yet: they are now.
	Placed int
	// Removed counts files removed: files of deleted records, and pending
	// files older than PendingGrace whose records never committed.
	Removed int
}

// SweepMedia makes the files of MediaDir match the media records again
// after a process died between a transaction and its file changes: it
// places the pending files of committed records, removes pending files
// older than PendingGrace that have no record (and their temporary
// files), and removes placed files that no record names. It is safe
// while other processes write to the same database and directory; call
// it when a server starts and, if you like, now and then. Without a
// MediaDir it does nothing.
func (h *Host) SweepMedia(ctx context.Context) (MediaSweep, error) {
	var sw MediaSweep
	if h.files.dir == "" {
		return sw, nil
	}
	// Files first, records second: a file placed after the walk is not
	// seen, and one seen was placed after its record committed.
	pend := filepath.Join(h.files.dir, pendingDir)
	var pending, final []string
	err := filepath.WalkDir(h.files.dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		case d.IsDir():
			return nil
		case strings.HasPrefix(p, pend+string(filepath.Separator)):
			pending = append(pending, p)
		case !strings.HasPrefix(d.Name(), "."):
			final = append(final, p)
		}
		return nil
	})
	if err != nil {
		return sw, fmt.Errorf("sqlstore: sweeping media files: %w", err)
	}
	items, err := h.Media(ctx, contentgen.MediaQuery{})
	if err != nil {
		return sw, err
	}
	named := make(map[string]bool, len(items))
	for _, m := range items {
		if p, ok := h.files.path(m.URL); ok {
			named[p] = true
		}
		for _, s := range m.Sizes {
			if p, ok := h.files.path(s.URL); ok {
				named[p] = true
			}
		}
	}
	old := h.db.now().Add(-PendingGrace)
	for _, p := range pending {
		rel, err := filepath.Rel(pend, p)
		if err != nil {
			continue
		}
		dest := filepath.Join(h.files.dir, rel)
		if named[dest] && !strings.HasPrefix(filepath.Base(p), ".") {
			h.files.place([]placed{{p, dest}})
			sw.Placed++
			continue
		}
		if fi, err := os.Stat(p); err == nil && fi.ModTime().Before(old) && os.Remove(p) == nil {
			sw.Removed++
		}
	}
	for _, p := range final {
		if !named[p] && os.Remove(p) == nil {
			sw.Removed++
		}
	}
	return sw, nil
}

// remove deletes the placed files paths and their pending files,
// ignoring those already gone. The pending file goes first: the commit of
// its record may not have moved it yet (see files).
func (f files) remove(paths []string) {
	for _, p := range paths {
		if rel, err := filepath.Rel(f.dir, p); err == nil && filepath.IsLocal(rel) {
			_ = os.Remove(filepath.Join(f.dir, pendingDir, rel))
		}
		_ = os.Remove(p)
	}
}

// writeAtomic writes b to p through a temporary file in the same
// directory and a rename, so that a reader never sees half a file.
func (f files) writeAtomic(p string, b []byte) error {
	if f.failWrite != nil {
		if err := f.failWrite(p); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

// cleanName keeps the letters, digits, dots, hyphens and underscores of a
// file name, at most 80 of them; "file" when none is left.
func cleanName(name string) string {
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
		if b.Len() >= 80 {
			break
		}
	}
	out := strings.Trim(b.String(), ".-")
	if out == "" {
		return "file"
	}
	return out
}
