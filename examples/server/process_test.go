package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// testPassword is the application password of admin in process tests.
const testPassword = "abcd efgh ijkl mnop qrst uvwx"

// buildBinary builds the server into a temporary directory.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the process tests build and run the server")
	}
	bin := filepath.Join(t.TempDir(), "server")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return bin
}

// serverProc is a running server process and a client of its API.
type serverProc struct {
	cmd    *exec.Cmd
	addr   string // host:port the server listens on
	base   string
	client *http.Client
	log    *lockedBuffer
	done   chan struct{}
}

// lockedBuffer collects a process's output and reports, once, the API
// base URL the server announces after it has started listening.
type lockedBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	scanned int
	base    chan string
}

const announce = "API base URL: "

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.b.Write(p)
	if l.base == nil {
		return n, err
	}
	rest := l.b.Bytes()[l.scanned:]
	i := bytes.Index(rest, []byte(announce))
	if i < 0 {
		return n, err
	}
	line := rest[i+len(announce):]
	j := bytes.IndexByte(line, '\n')
	if j < 0 {
		return n, err // the line is not whole yet
	}
	l.base <- string(line[:j])
	l.base = nil
	l.scanned = l.b.Len()
	return n, err
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startServer runs bin with -db db (and extra flags) on a port the
// system picks and waits until it listens.
func startServer(t *testing.T, bin, db string, extra ...string) *serverProc {
	t.Helper()
	return startServerAt(t, "", bin, db, extra...)
}

// startServerAt is startServer on the address addr, a port the system
// picks when empty. It waits for the server's own announcement, printed
// once its listener is open, rather than polling: connections made after
// it are queued by the kernel until the server accepts them.
func startServerAt(t *testing.T, addr, bin, db string, extra ...string) *serverProc {
	t.Helper()
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	args := append([]string{"-addr", addr, "-admin-password", testPassword, "-db", db,
		"-key-file", filepath.Join(filepath.Dir(bin), "key")}, extra...)
	cmd := exec.Command(bin, args...)
	p := &serverProc{
		cmd:    cmd,
		client: &http.Client{Timeout: 60 * time.Second},
		log:    &lockedBuffer{base: make(chan string, 1)},
		done:   make(chan struct{}),
	}
	baseURL := p.log.base
	cmd.Stdout, cmd.Stderr = p.log, p.log
	require.NoError(t, cmd.Start())
	go func() { _ = cmd.Wait(); close(p.done) }()
	select {
	case u := <-baseURL:
		p.base = u
		p.addr = strings.TrimPrefix(strings.SplitN(u, "/contentgen", 2)[0], "http://")
	case <-p.done:
		select {
		case u := <-baseURL: // announced, then exited at once
			t.Fatalf("server announced %s and exited:\n%s", u, p.log.String())
		default:
		}
		t.Fatalf("server exited before it listened:\n%s", p.log.String())
	}
	status, _, err := p.call(context.Background(), "GET", "/history/stats", "")
	require.NoError(t, err, p.log.String())
	require.Equal(t, http.StatusOK, status, p.log.String())
	return p
}

// kill ends the process with SIGKILL and waits for it.
func (p *serverProc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// stop ends the process with SIGTERM, as an operator would, and waits
// for it; the server bounds its own graceful shutdown.
func (p *serverProc) stop(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	<-p.done
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("server exited with %d on SIGTERM:\n%s", code, p.log.String())
	}
}

// call sends one API request as admin and decodes the JSON answer.
func (p *serverProc) call(ctx context.Context, method, path, body string) (int, map[string]any, error) {
	req, err := http.NewRequestWithContext(ctx, method, p.base+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.SetBasicAuth("admin", testPassword)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return resp.StatusCode, nil, fmt.Errorf("%s %s: answer is not JSON: %q", method, path, raw)
	}
	return resp.StatusCode, out, nil
}

// mustCall is call that requires a 2xx answer.
func (p *serverProc) mustCall(t *testing.T, method, path, body string) map[string]any {
	t.Helper()
	status, out, err := p.call(context.Background(), method, path, body)
	require.NoError(t, err)
	require.True(t, status >= 200 && status < 300, "%s %s: %d %v", method, path, status, out)
	return out
}

// idsOf returns the ids of a generation result.
func idsOf(out map[string]any) []int64 {
	raw, _ := out["ids"].([]any)
	ids := make([]int64, 0, len(raw))
	for _, v := range raw {
		if f, ok := v.(float64); ok {
			ids = append(ids, int64(f))
		}
	}
	return ids
}

// kinds are the object kinds of the site with their tables.
var kinds = []struct{ kind, table string }{
	{"post", "posts"}, {"term", "terms"}, {"user", "users"}, {"comment", "comments"}, {"media", "media"},
}

// int64s runs a query whose rows are one integer each.
func int64s(t *testing.T, db *sql.DB, query string) []int64 {
	t.Helper()
	rows, err := db.Query(query)
	require.NoError(t, err, query)
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var v int64
		require.NoError(t, rows.Scan(&v))
		out = append(out, v)
	}
	require.NoError(t, rows.Err())
	slices.Sort(out)
	return out
}

// count runs a query whose answer is one integer.
func count(t *testing.T, db *sql.DB, query string) int64 {
	t.Helper()
	var n int64
	require.NoError(t, db.QueryRow(query).Scan(&n), query)
	return n
}

// trackingProblems compares content and history one to one: every object
// with the generated marker has exactly one history entry, every history
// entry's object exists and carries the marker, and no marker outlives
// its object. It returns one line per difference.
func trackingProblems(t *testing.T, db *sql.DB) []string {
	t.Helper()
	var problems []string
	for _, k := range kinds {
		marked := int64s(t, db, fmt.Sprintf(
			`SELECT t.id FROM %s t JOIN meta m ON m.kind = '%s' AND m.object_id = t.id AND m.meta_key = '_svc_generated' AND m.meta_value = '1'`,
			k.table, k.kind))
		markers := int64s(t, db, fmt.Sprintf(`SELECT object_id FROM meta WHERE kind = '%s' AND meta_key = '_svc_generated'`, k.kind))
		tracked := int64s(t, db, fmt.Sprintf(`SELECT content_id FROM history WHERE content_type = '%s'`, k.kind))
		if dup := duplicates(tracked); len(dup) > 0 {
			problems = append(problems, fmt.Sprintf("%s: several history entries for ids %v", k.kind, dup))
		}
		tracked = slices.Compact(tracked)
		if d := minus(markers, marked); len(d) > 0 {
			problems = append(problems, fmt.Sprintf("%s: generated marker without its object (or not \"1\"), ids %v", k.kind, d))
		}
		if d := minus(marked, tracked); len(d) > 0 {
			problems = append(problems, fmt.Sprintf("%s: generated objects without a history entry, ids %v", k.kind, d))
		}
		if d := minus(tracked, marked); len(d) > 0 {
			problems = append(problems, fmt.Sprintf("%s: history entries whose generated object does not exist, ids %v", k.kind, d))
		}
	}
	return problems
}

// duplicates returns the values that occur more than once in sorted s.
func duplicates(s []int64) []int64 {
	var d []int64
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1] && (len(d) == 0 || d[len(d)-1] != s[i]) {
			d = append(d, s[i])
		}
	}
	return d
}

// minus returns the values of a not in b.
func minus(a, b []int64) []int64 {
	var d []int64
	for _, v := range a {
		if _, found := slices.BinarySearch(b, v); !found {
			d = append(d, v)
		}
	}
	return d
}

// siteSnapshot is the ids of every table of the site's content.
type siteSnapshot map[string][]int64

func snapshot(t *testing.T, db *sql.DB) siteSnapshot {
	t.Helper()
	s := siteSnapshot{}
	for _, k := range kinds {
		s[k.table] = int64s(t, db, "SELECT id FROM "+k.table)
	}
	return s
}

// requireDemoBaseline checks that the site holds exactly the hand-made
// demo content: one post, one page, one comment, the user admin and the
// category Uncategorized, no generated markers and no history.
func requireDemoBaseline(t *testing.T, db *sql.DB) {
	t.Helper()
	require.EqualValues(t, 1, count(t, db, `SELECT COUNT(*) FROM posts WHERE type = 'post'`), "posts")
	require.EqualValues(t, 1, count(t, db, `SELECT COUNT(*) FROM posts WHERE type = 'page'`), "pages")
	require.EqualValues(t, 2, count(t, db, `SELECT COUNT(*) FROM posts`), "posts of all types")
	require.EqualValues(t, 1, count(t, db, `SELECT COUNT(*) FROM comments`), "comments")
	require.EqualValues(t, 1, count(t, db, `SELECT COUNT(*) FROM users WHERE login = 'admin'`), "admin")
	require.EqualValues(t, 1, count(t, db, `SELECT COUNT(*) FROM users`), "users")
	require.EqualValues(t, 1, count(t, db, `SELECT COUNT(*) FROM terms WHERE taxonomy = 'category' AND name = 'Uncategorized'`), "Uncategorized")
	require.EqualValues(t, 1, count(t, db, `SELECT COUNT(*) FROM terms`), "terms")
	require.EqualValues(t, 0, count(t, db, `SELECT COUNT(*) FROM media`), "media")
	require.EqualValues(t, 0, count(t, db, `SELECT COUNT(*) FROM meta WHERE meta_key = '_svc_generated'`), "generated markers")
	require.EqualValues(t, 0, count(t, db, `SELECT COUNT(*) FROM history`), "history entries")
}

// filesIn lists the regular files under dir (none when dir is missing).
func filesIn(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) && path == dir {
				return filepath.SkipAll
			}
			return err
		}
		if d.Type().IsRegular() {
			files = append(files, path)
		}
		return nil
	})
	require.NoError(t, err)
	return files
}
