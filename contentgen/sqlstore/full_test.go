package sqlstore_test

import (
	"database/sql"
	"io/fs"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// requireAllTracked requires every post, comment and media item of h to
// have its history entry, and the other way round.
func requireAllTracked(t *testing.T, h *sqlstore.Host, gen *contentgen.Generator) {
	t.Helper()
	ctx := t.Context()
	posts, err := h.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	comments, err := h.Comments(ctx, contentgen.CommentQuery{})
	require.NoError(t, err)
	media, err := h.Media(ctx, contentgen.MediaQuery{})
	require.NoError(t, err)
	for kind, n := range map[contentgen.ObjectKind]int{contentgen.KindPost: len(posts), contentgen.KindComment: len(comments), contentgen.KindMedia: len(media)} {
		_, total, err := gen.History().List(ctx, contentgen.HistoryQuery{Kind: kind})
		require.NoError(t, err)
		require.Equal(t, n, total, "every %s is tracked, and only those that exist", kind)
	}
}

// TestFullDatabaseLosesNothing fills a SQLite database to its size limit
// (max_page_count, which fails writes with SQLITE_FULL as a full disk
// does): generation fails with insufficient_storage, keeps nothing
// untracked, and a cleanup still works and frees the space.
func TestFullDatabaseLosesNothing(t *testing.T) {
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "site.db")
	db, err := sqlstore.Open(ctx, path, nil)
	require.NoError(t, err)
	h := newHost(t, db)
	_, err = h.CreateUsers(ctx, []contentgen.User{{Login: "admin", Email: "admin@example.com", Roles: []string{"administrator"}}})
	require.NoError(t, err)
	require.NoError(t, db.Close())
	raw, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	var pages int
	require.NoError(t, raw.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages))
	require.NoError(t, raw.Close())

	db = openAt(t, "file:"+path+"?_pragma=max_page_count("+strconv.Itoa(pages+60)+")", nil)
	h = db.Host(nil)
	gen, err := contentgen.New(h, nil, nil)
	require.NoError(t, err)
	req := contentgen.PostsRequest{PostType: "article", Count: new(20), SetFeaturedImage: new(false), AutoComments: true}
	made := 0
	for {
		_, err = gen.GeneratePosts(ctx, req)
		if err != nil {
			break
		}
		made++
		require.Less(t, made, 500, "the database never filled up")
	}
	require.ErrorIs(t, err, contentgen.ErrInsufficientStorage)
	require.ErrorIs(t, err, contentgen.ErrHostFull)
	require.Positive(t, made)
	requireAllTracked(t, h, gen)

	// The request that filled the database may have kept its posts when
	// the space ran out while their comments were written: tracked, as
	// checked above, and removed by the cleanup like the rest.
	posts, err := h.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(posts), made*20)
	rm, err := gen.DeleteAll(ctx)
	require.NoError(t, err, "a cleanup works while the database is full")
	require.Equal(t, len(posts), rm.Posts)
	requireAllTracked(t, h, gen)
	_, err = gen.GeneratePosts(ctx, req)
	require.NoError(t, err, "the cleanup freed the space")
}

// TestFullMediaDiskLosesNothing makes the disk of the media files full:
// generating posts with images fails with insufficient_storage, leaving
// no record, no file and nothing untracked; a cleanup still works.
func TestFullMediaDiskLosesNothing(t *testing.T) {
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
		req := contentgen.PostsRequest{PostType: "photo", Count: new(3), SetFeaturedImage: new(true),
			ImageProvider: "provider_local", ImageWidth: new(120), ImageHeight: new(100)}
		res, err := gen.GeneratePosts(ctx, req)
		require.NoError(t, err)
		require.Equal(t, 3, res.WithFeaturedImage, res.Warnings)
		files := countFiles(t, dir)
		require.Positive(t, files)

		// The disk fills up after two more files.
		left := 2
		sqlstore.FailMediaWrites(h, func(p string) error {
			if left == 0 {
				return &fs.PathError{Op: "write", Path: p, Err: syscall.ENOSPC}
			}
			left--
			return nil
		})
		_, err = gen.GeneratePosts(ctx, req)
		require.ErrorIs(t, err, contentgen.ErrInsufficientStorage)
		requireAllTracked(t, h, gen)
		media, err := h.Media(ctx, contentgen.MediaQuery{})
		require.NoError(t, err)
		for _, m := range media {
			_, _, err := h.MediaBytes(ctx, m.ID)
			require.NoError(t, err, "every record has its file")
		}

		rm, err := gen.DeleteAll(ctx)
		require.NoError(t, err, "a cleanup works while the disk is full")
		require.Equal(t, len(media), rm.Media)
		require.Zero(t, countFiles(t, dir))
		requireAllTracked(t, h, gen)
	})
}
