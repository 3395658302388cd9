package sqlstore_test

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/hosttest"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/history"
)

// newHost returns the host of a fresh database with the post type
// "article", the hierarchical taxonomy "section" it lists, the flat
// taxonomy "label" that lists it, and the standard roles.
func newHost(t testing.TB, db *sqlstore.DB) *sqlstore.Host {
	t.Helper()
	ctx := t.Context()
	h := db.Host(&sqlstore.HostOptions{MediaDir: t.TempDir()})
	require.NoError(t, h.RegisterPostType(ctx, contentgen.PostType{
		Name: "article", Public: true, Supports: []string{"title", "editor"}, Taxonomies: []string{"section"},
	}))
	require.NoError(t, h.RegisterTaxonomy(ctx, contentgen.Taxonomy{Name: "section", Hierarchical: true, PostTypes: []string{"article"}}))
	require.NoError(t, h.RegisterTaxonomy(ctx, contentgen.Taxonomy{Name: "label", PostTypes: []string{"article"}}))
	for _, r := range memhost.StandardRoles() {
		require.NoError(t, h.RegisterRole(ctx, r))
	}
	return h
}

func TestHostConformance(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		hosttest.Run(t, func(t *testing.T) contentgen.Host { return newHost(t, e.open(t, nil)) })
	})
}

// TestHostInTxWithHistory checks that the Host's transactions are the
// DB's: posts and their history entries commit or roll back together.
func TestHostInTxWithHistory(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := t.Context()
		db := e.open(t, nil)
		h := newHost(t, db)
		write := func(fail bool) error {
			return h.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
				ids, err := tx.CreatePosts(ctx, []contentgen.Post{{Type: "article", Title: "Tracked"}})
				if err != nil {
					return err
				}
				err = db.History().Add(ctx, []history.Entry{{ContentType: history.TypePost, ContentID: ids[0], ContentSubtype: "article"}})
				if err != nil {
					return err
				}
				if fail {
					return errors.New("boom")
				}
				return nil
			})
		}
		require.Error(t, write(true))
		posts, err := h.Posts(ctx, contentgen.PostQuery{})
		require.NoError(t, err)
		require.Empty(t, posts, "the post is rolled back")
		require.Zero(t, count(t, db), "and so is its history")

		require.NoError(t, write(false))
		posts, err = h.Posts(ctx, contentgen.PostQuery{})
		require.NoError(t, err)
		require.Len(t, posts, 1)
		entries, _, err := db.History().List(ctx, history.Filter{})
		require.NoError(t, err)
		require.Len(t, entries, 1)
		require.Equal(t, posts[0].ID, entries[0].ContentID)
	})
}

// TestHostRegistrationPersists reopens a database: the registered
// configuration and the content are still there.
func TestHostRegistrationPersists(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := t.Context()
		dsn, opts := e.fresh(t)
		h := newHost(t, openAt(t, dsn, opts))
		require.NoError(t, h.RegisterPostType(ctx, contentgen.PostType{Name: "article", Label: "Articles"}), "registering again replaces")
		_, err := h.CreatePosts(ctx, []contentgen.Post{{Type: "article", Title: "Kept"}})
		require.NoError(t, err)
		require.ErrorIs(t, h.RegisterPostType(ctx, contentgen.PostType{Name: "Bad Name"}), sqlstore.ErrInvalid)

		again := openAt(t, dsn, opts).Host(nil)
		types, err := again.PostTypes(ctx)
		require.NoError(t, err)
		require.Len(t, types, 1)
		require.Equal(t, "Articles", types[0].Label)
		require.Equal(t, map[string]int{contentgen.StatusDraft: 1}, types[0].Count)
		require.ElementsMatch(t, []string{"section", "label"}, types[0].Taxonomies, "linked from either side")
		taxes, err := again.Taxonomies(ctx)
		require.NoError(t, err)
		require.Len(t, taxes, 2)
		roles, err := again.Roles(ctx)
		require.NoError(t, err)
		require.Len(t, roles, len(memhost.StandardRoles()))
	})
}

// TestHostRegistrationInTx registers inside a transaction that has read
// the registry already: its later writes see the registration, and a
// registration rolled back with a savepoint is gone again for them.
func TestHostRegistrationInTx(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := t.Context()
		db := e.open(t, nil)
		h := newHost(t, db)
		errUndo := errors.New("undo")
		err := h.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
			_, err := tx.CreatePosts(ctx, []contentgen.Post{{Type: "article", Title: "Read the registry"}})
			require.NoError(t, err)
			_, err = tx.CreatePosts(ctx, []contentgen.Post{{Type: "page", Title: "Not yet"}})
			require.ErrorIs(t, err, sqlstore.ErrInvalid)

			require.NoError(t, h.RegisterPostType(ctx, contentgen.PostType{Name: "page"}))
			_, err = tx.CreatePosts(ctx, []contentgen.Post{{Type: "page", Title: "Registered"}})
			require.NoError(t, err)

			err = db.InTx(ctx, func(ctx context.Context) error {
				require.NoError(t, h.RegisterPostType(ctx, contentgen.PostType{Name: "note"}))
				_, err := tx.CreatePosts(ctx, []contentgen.Post{{Type: "note", Title: "Undone"}})
				require.NoError(t, err)
				return errUndo
			})
			require.ErrorIs(t, err, errUndo)
			_, err = tx.CreatePosts(ctx, []contentgen.Post{{Type: "note", Title: "Rolled back"}})
			require.ErrorIs(t, err, sqlstore.ErrInvalid, "the registration was rolled back")
			return nil
		})
		require.NoError(t, err)
		types, err := h.PostTypes(ctx)
		require.NoError(t, err)
		names := []string{}
		for _, pt := range types {
			names = append(names, pt.Name)
		}
		require.Equal(t, []string{"article", "page"}, names)
		posts, err := h.Posts(ctx, contentgen.PostQuery{})
		require.NoError(t, err)
		require.Len(t, posts, 2)
	})
}

func TestMediaFilesFollowTheirRecords(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := t.Context()
		dir := t.TempDir()
		db := e.open(t, nil)
		h := newHost(t, db)
		h = db.Host(&sqlstore.HostOptions{MediaDir: dir, MediaURL: "https://site.test/files"})
		count := func() int {
			n := 0
			_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, _ error) error {
				if d != nil && !d.IsDir() {
					n++
				}
				return nil
			})
			return n
		}
		m := contentgen.Media{Title: "A photo", Filename: "My Photo.png", MIMEType: "image/png",
			Sizes: []contentgen.MediaSize{{Name: "thumbnail", Width: 10, Height: 10, MIMEType: "image/png", Data: []byte("thumb")}}}

		// A transaction that fails keeps neither the record nor the files.
		err := h.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
			if _, err := tx.(contentgen.MediaStorer).StoreMedia(ctx, m, []byte("full")); err != nil {
				return err
			}
			require.Equal(t, 2, count(), "the file and its rendition are written")
			return errors.New("rolled back")
		})
		require.EqualError(t, err, "rolled back")
		require.Zero(t, count(), "a rolled-back item leaves no file behind")

		id, err := h.StoreMedia(ctx, m, []byte("full"))
		require.NoError(t, err)
		require.Equal(t, 2, count())
		got, err := h.Media(ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(id)})
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(got[0].URL, "https://site.test/files/"), got[0].URL)
		require.True(t, strings.HasSuffix(got[0].URL, "-my-photo.png"), got[0].URL)

		// The handler serves the file at its path under MediaURL.
		rec := httptest.NewRecorder()
		h.Files().ServeHTTP(rec, httptest.NewRequest("GET", strings.TrimPrefix(got[0].URL, "https://site.test/files"), nil))
		require.Equal(t, http.StatusOK, rec.Code)
		require.Equal(t, "full", rec.Body.String())

		require.NoError(t, h.DeleteMedia(ctx, []int64{id}))
		require.Zero(t, count(), "deleting the record removes its files")

		// A server at another address finds the same files by their path.
		id, err = h.StoreMedia(ctx, m, []byte("full"))
		require.NoError(t, err)
		other := db.Host(&sqlstore.HostOptions{MediaDir: dir, MediaURL: "http://127.0.0.1:9999/files"})
		data, _, err := other.MediaBytes(ctx, id)
		require.NoError(t, err)
		require.Equal(t, "full", string(data))
		require.NoError(t, other.DeleteMedia(ctx, []int64{id}))
		require.Zero(t, count(), "the other server's delete removes the files too")

		// Pending files are never served.
		id, err = h.StoreMedia(ctx, m, []byte("full"))
		require.NoError(t, err)
		got, err = h.Media(ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(id)})
		require.NoError(t, err)
		rel := strings.TrimPrefix(got[0].URL, "https://site.test/files")
		require.NoError(t, os.MkdirAll(filepath.Join(dir, ".pending", filepath.Dir(rel)), 0o755))
		require.NoError(t, os.Rename(filepath.Join(dir, rel), filepath.Join(dir, ".pending", rel)))
		for _, p := range []string{"/.pending" + rel, rel} {
			rec = httptest.NewRecorder()
			h.Files().ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
			require.Equal(t, http.StatusNotFound, rec.Code, p)
		}
	})
}

// TestSweepMediaFinishesWhatADeadProcessLeft leaves the files a process
// killed between a transaction and its file changes leaves, and checks
// that SweepMedia makes the directory match the records again, without
// touching what a live process may still be writing.
func TestSweepMediaFinishesWhatADeadProcessLeft(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := t.Context()
		dir := t.TempDir()
		start := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
		now := start
		db := e.open(t, &sqlstore.Options{Now: func() time.Time { return now }})
		newHost(t, db)
		h := db.Host(&sqlstore.HostOptions{MediaDir: dir, MediaURL: "https://site.test/files"})
		m := contentgen.Media{Title: "A photo", Filename: "photo.png", MIMEType: "image/png", Date: start,
			Sizes: []contentgen.MediaSize{{Name: "thumbnail", Width: 10, Height: 10, MIMEType: "image/png", Data: []byte("thumb")}}}
		write := func(rel, data string) string {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
			require.NoError(t, os.Chtimes(p, start, start))
			return p
		}

		// Committed, but killed before its files were placed.
		unplaced, err := h.StoreMedia(ctx, m, []byte("full"))
		require.NoError(t, err)
		items, err := h.Media(ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(unplaced)})
		require.NoError(t, err)
		var placedFiles []string
		for _, u := range []string{items[0].URL, items[0].Sizes[0].URL} {
			rel := strings.TrimPrefix(u, "https://site.test/files/")
			p := filepath.Join(dir, filepath.FromSlash(rel))
			require.NoError(t, os.MkdirAll(filepath.Join(dir, ".pending", filepath.Dir(rel)), 0o755))
			require.NoError(t, os.Rename(p, filepath.Join(dir, ".pending", filepath.FromSlash(rel))))
			placedFiles = append(placedFiles, p)
		}
		// Kept and placed: untouched.
		kept, err := h.StoreMedia(ctx, m, []byte("kept"))
		require.NoError(t, err)
		keptBytes, _, err := h.MediaBytes(ctx, kept)
		require.NoError(t, err)
		// Killed before its transaction committed: a pending file and a
		// temporary one without a record.
		uncommitted := write(".pending/2026/11/0123456789ab-lost.png", "lost")
		half := write(".pending/2026/11/.tmp-42", "half")
		// Killed after a delete committed, before its files went.
		deleted := write("2026/11/ba9876543210-deleted.png", "deleted")

		now = start.Add(time.Minute)
		sw, err := h.SweepMedia(ctx)
		require.NoError(t, err)
		require.Equal(t, sqlstore.MediaSweep{Placed: 2, Removed: 1}, sw)
		for _, p := range placedFiles {
			require.FileExists(t, p, "the files of a committed record are placed")
		}
		data, _, err := h.MediaBytes(ctx, unplaced)
		require.NoError(t, err)
		require.Equal(t, "full", string(data))
		data, _, err = h.MediaBytes(ctx, kept)
		require.NoError(t, err)
		require.Equal(t, keptBytes, data, "placed files with records stay")
		require.NoFileExists(t, deleted, "a file no record names goes")
		require.FileExists(t, uncommitted, "a young pending file may belong to a live transaction")
		require.FileExists(t, half)

		now = start.Add(sqlstore.PendingGrace + time.Minute)
		sw, err = h.SweepMedia(ctx)
		require.NoError(t, err)
		require.Equal(t, sqlstore.MediaSweep{Removed: 2}, sw)
		require.NoFileExists(t, uncommitted, "an old pending file without a record goes")
		require.NoFileExists(t, half)

		sw, err = h.SweepMedia(ctx)
		require.NoError(t, err)
		require.Zero(t, sw, "a second sweep finds nothing to do")
	})
}

func TestGeneratorKeepsEverythingInTheDatabase(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "site.db")
	open := func() (*sqlstore.DB, *contentgen.Generator) {
		db, err := sqlstore.Open(ctx, path, nil)
		require.NoError(t, err)
		gen, err := contentgen.New(newHost(t, db), nil, nil)
		require.NoError(t, err)
		return db, gen
	}
	db, gen := open()
	res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{PostType: "article", Count: new(3)})
	require.NoError(t, err)
	_, err = gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.HourlyRate = 80.0 })
	require.NoError(t, err)
	require.NoError(t, db.Close())

	db, gen = open()
	defer db.Close()
	_, total, err := gen.History().List(ctx, contentgen.HistoryQuery{Kind: contentgen.KindPost})
	require.NoError(t, err)
	require.Equal(t, len(res.IDs), total)
	s, err := gen.Settings().Get(ctx)
	require.NoError(t, err)
	require.Equal(t, 80.0, s.HourlyRate)
	ts, err := gen.TimeSaved(ctx)
	require.NoError(t, err)
	require.Positive(t, ts.Posts)
}
