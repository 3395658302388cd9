package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/history"
)

// TestServerRefusesCorruptDatabase damages the middle of a site's SQLite
// file with 16 KiB of garbage: the server must exit at start with a
// message that names the file and says what to do, instead of serving a
// site whose writes fail later.
func TestServerRefusesCorruptDatabase(t *testing.T) {
	bin := buildBinary(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "site.db")
	db, err := sqlstore.Open(ctx, path, nil)
	require.NoError(t, err)
	when := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
	for run := 0; ; run++ {
		st, err := os.Stat(path)
		require.NoError(t, err)
		if st.Size() >= 1<<20 {
			break
		}
		entries := make([]history.Entry, 1000)
		for i := range entries {
			entries[i] = history.Entry{ContentType: history.TypePost, ContentID: int64(run*1000 + i + 1),
				ContentSubtype: "post", CreatedAt: when, Meta: map[string]any{"run_id": fmt.Sprint("run-", run), "post_status": "publish"}}
		}
		require.NoError(t, db.History().Add(ctx, entries))
	}
	require.NoError(t, db.Close())

	f, err := os.OpenFile(path, os.O_RDWR, 0)
	require.NoError(t, err)
	st, err := f.Stat()
	require.NoError(t, err)
	junk := make([]byte, 16<<10)
	r := rand.New(rand.NewPCG(3, 5))
	for i := range junk {
		junk[i] = byte(r.Uint32())
	}
	_, err = f.WriteAt(junk, st.Size()/2)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-db", path, "-key-file", filepath.Join(t.TempDir(), "key"))
	log := &lockedBuffer{base: make(chan string, 1)}
	announced := log.base
	cmd.Stdout, cmd.Stderr = log, log
	require.NoError(t, cmd.Start())
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case u := <-announced:
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("the server started on a damaged file, at %s:\n%s", u, log.String())
	}
	msg := log.String()
	t.Logf("%s", msg)
	require.Equal(t, 1, cmd.ProcessState.ExitCode(), "%s", msg)
	require.Contains(t, msg, "server: -db "+path+": sqlstore: the SQLite file is damaged: "+path+" fails SQLite's quick check")
	require.Contains(t, msg, "restore it from a backup, or delete it")
	require.True(t, strings.HasSuffix(strings.TrimSpace(msg), "to start afresh"), "%s", msg)
}
