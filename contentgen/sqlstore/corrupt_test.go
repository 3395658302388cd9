package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// sqliteFileOf fills a new SQLite file with history entries until it is
// at least size bytes, closes it and returns its path.
func sqliteFileOf(t testing.TB, size int64) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "site.db")
	db, err := sqlstore.Open(ctx, path, nil)
	require.NoError(t, err)
	for run := 0; ; run++ {
		st, err := os.Stat(path)
		require.NoError(t, err)
		if st.Size() >= size {
			break
		}
		err = db.History().Add(ctx, benchEntries(2000, fmt.Sprintf("run-%d", run)))
		require.NoError(t, err)
	}
	require.NoError(t, db.Close())
	_, err = os.Stat(path + "-wal")
	require.True(t, errors.Is(err, os.ErrNotExist), "Close leaves the WAL checkpointed and removed: %v", err)
	return path
}

// garble overwrites n bytes in the middle of the file at path with
// pseudo-random bytes.
func garble(t testing.TB, path string, n int) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	require.NoError(t, err)
	defer f.Close()
	st, err := f.Stat()
	require.NoError(t, err)
	junk := make([]byte, n)
	r := rand.New(rand.NewPCG(7, 11))
	for i := range junk {
		junk[i] = byte(r.Uint32())
	}
	_, err = f.WriteAt(junk, st.Size()/2)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

func TestOpenRefusesCorruptSQLiteFile(t *testing.T) {
	path := sqliteFileOf(t, 1<<20)
	// The file is sound: it opens again.
	db, err := sqlstore.Open(context.Background(), path, nil)
	require.NoError(t, err)
	require.NoError(t, db.Close())

	garble(t, path, 16<<10)
	db, err = sqlstore.Open(context.Background(), path, nil)
	if err == nil {
		db.Close()
	}
	require.ErrorIs(t, err, sqlstore.ErrCorrupt)
	require.ErrorContains(t, err, path)
	require.ErrorContains(t, err, "restore it from a backup")
	require.ErrorContains(t, err, "delete it")
}

func TestOpenRefusesFileThatIsNoDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	junk := make([]byte, 8192)
	for i := range junk {
		junk[i] = 'x'
	}
	require.NoError(t, os.WriteFile(path, junk, 0o600))
	db, err := sqlstore.Open(context.Background(), path, nil)
	if err == nil {
		db.Close()
	}
	require.ErrorIs(t, err, sqlstore.ErrCorrupt)
	require.ErrorContains(t, err, path)
}

// BenchmarkOpenSQLite50MB measures Open of a sound SQLite file of about
// 50 MB, whose quick check reads every page, and the quick check alone.
func BenchmarkOpenSQLite50MB(b *testing.B) {
	path := sqliteFileOf(b, 50<<20)
	st, err := os.Stat(path)
	require.NoError(b, err)
	mb := float64(st.Size()) / (1 << 20)
	ctx := context.Background()
	b.Run("Open", func(b *testing.B) {
		for b.Loop() {
			db, err := sqlstore.Open(ctx, path, nil)
			require.NoError(b, err)
			require.NoError(b, db.Close())
		}
		b.ReportMetric(mb, "MB")
	})
	b.Run("QuickCheck", func(b *testing.B) {
		conn, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
		require.NoError(b, err)
		defer conn.Close()
		for b.Loop() {
			var res string
			require.NoError(b, conn.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&res))
			require.Equal(b, "ok", res)
		}
		b.ReportMetric(mb, "MB")
	})
}
