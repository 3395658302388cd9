package sqlstore_test

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/local"
)

// withImages is a Generator configuration with the offline image
// provider.
func withImages(t *testing.T) *contentgen.Config {
	t.Helper()
	prov, err := local.New(nil)
	require.NoError(t, err)
	return &contentgen.Config{ImageProviders: []providers.ImageProvider{prov}}
}

// countFiles counts the files under dir, pending ones included.
func countFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	require.NoError(t, filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	}))
	return n
}

// served answers the status of GET url from h's file handler.
func served(h *sqlstore.Host, url string) int {
	rec := httptest.NewRecorder()
	h.Files().ServeHTTP(rec, httptest.NewRequest("GET", strings.TrimPrefix(url, "https://site.test/files"), nil))
	return rec.Code
}

// TestMediaFileExistsExactlyWhileItsRecordDoes checks the moments where a
// file and its record could part: a delete that commits between the
// commit of an item and the move of its files, and savepoints rolled back
// inside a transaction that commits.
func TestMediaFileExistsExactlyWhileItsRecordDoes(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := t.Context()
		dir := t.TempDir()
		db := e.open(t, nil)
		newHost(t, db)
		h := db.Host(&sqlstore.HostOptions{MediaDir: dir, MediaURL: "https://site.test/files"})
		m := contentgen.Media{Title: "A photo", Filename: "photo.png", MIMEType: "image/png",
			Sizes: []contentgen.MediaSize{{Name: "thumbnail", Width: 10, Height: 10, MIMEType: "image/png", Data: []byte("thumb")}}}
		records := func() int {
			items, err := h.Media(ctx, contentgen.MediaQuery{})
			require.NoError(t, err)
			return len(items)
		}

		// A cleanup deletes the item right after it commits, before its
		// files have moved to their place.
		var id int64
		var url string
		err := h.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
			db.AfterTx(ctx, func() {
				items, err := h.Media(context.Background(), contentgen.MediaQuery{IDs: contentgen.OnlyIDs(id)})
				require.NoError(t, err)
				require.Len(t, items, 1, "the record has committed")
				url = items[0].URL
				require.NoError(t, h.DeleteMedia(context.Background(), []int64{id}))
			}, nil)
			var err error
			id, err = tx.(contentgen.MediaStorer).StoreMedia(ctx, m, []byte("full"))
			return err
		})
		require.NoError(t, err)
		require.Zero(t, records())
		require.Zero(t, countFiles(t, dir), "no file outlives its record")
		require.Equal(t, http.StatusNotFound, served(h, url))

		// An item stored in a savepoint that rolls back, in a transaction
		// that commits, leaves no file.
		err = h.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
			err := tx.(contentgen.Transactor).InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
				if _, err := tx.(contentgen.MediaStorer).StoreMedia(ctx, m, []byte("full")); err != nil {
					return err
				}
				return errors.New("undone")
			})
			require.EqualError(t, err, "undone")
			return nil
		})
		require.NoError(t, err)
		require.Zero(t, records())
		require.Zero(t, countFiles(t, dir), "a rolled-back savepoint leaves no file")

		// A delete in a savepoint that rolls back keeps the files of the
		// records it kept.
		id, err = h.StoreMedia(ctx, m, []byte("full"))
		require.NoError(t, err)
		err = h.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
			err := tx.(contentgen.Transactor).InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
				if err := tx.DeleteMedia(ctx, []int64{id}); err != nil {
					return err
				}
				return errors.New("undone")
			})
			require.EqualError(t, err, "undone")
			return nil
		})
		require.NoError(t, err)
		require.Equal(t, 1, records())
		data, _, err := h.MediaBytes(ctx, id)
		require.NoError(t, err, "an undone delete keeps the files")
		require.Equal(t, "full", string(data))
		require.Equal(t, 2, countFiles(t, dir))
	})
}

// TestCleanupDuringGenerationLeavesNoFiles runs generators of posts with
// featured images and cleanups at the same time, then a last cleanup:
// no media record, no file and nothing served remain.
func TestCleanupDuringGenerationLeavesNoFiles(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		ctx := t.Context()
		dir := t.TempDir()
		db := e.open(t, nil)
		newHost(t, db)
		h := db.Host(&sqlstore.HostOptions{MediaDir: dir, MediaURL: "https://site.test/files"})
		require.NoError(t, h.RegisterPostType(ctx, contentgen.PostType{
			Name: "photo", Public: true, Supports: []string{"title", "editor", "thumbnail"},
		}))
		_, err := h.CreateUsers(ctx, []contentgen.User{{Login: "admin", Email: "admin@example.com", Roles: []string{"administrator"}}})
		require.NoError(t, err)
		gen, err := contentgen.New(h, nil, withImages(t))
		require.NoError(t, err)
		req := contentgen.PostsRequest{PostType: "photo", Count: new(2), SetFeaturedImage: new(true),
			ImageProvider: "provider_local", ImageWidth: new(120), ImageHeight: new(100)}

		var urls sync.Map
		var made atomic.Int64
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for range 3 {
			wg.Go(func() {
				for range 4 {
					res, err := gen.GeneratePosts(ctx, req)
					if err != nil {
						t.Log(err)
						continue // a post whose image a cleanup took meanwhile
					}
					made.Add(1)
					require.Empty(t, res.Warnings)
					items, err := h.Media(ctx, contentgen.MediaQuery{})
					require.NoError(t, err)
					for _, m := range items {
						urls.Store(m.URL, true)
					}
				}
			})
		}
		cleaned := make(chan struct{})
		go func() {
			defer close(cleaned)
			for {
				select {
				case <-stop:
					return
				default:
				}
				_, _ = gen.DeleteAll(ctx)
			}
		}()
		wg.Wait()
		close(stop)
		<-cleaned

		require.Positive(t, made.Load())
		_, err = gen.DeleteAll(ctx)
		require.NoError(t, err)
		items, err := h.Media(ctx, contentgen.MediaQuery{})
		require.NoError(t, err)
		require.Empty(t, items)
		require.Zero(t, countFiles(t, dir), "no file outlives its record")
		urls.Range(func(k, _ any) bool {
			require.Equal(t, http.StatusNotFound, served(h, k.(string)), k)
			return true
		})
	})
}
