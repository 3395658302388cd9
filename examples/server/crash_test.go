// The process tests build the server, run it as a real process on a
// database file or a PostgreSQL schema, and kill or share it; -short
// skips them.

package main

import (
	"context"
	"database/sql"
	"fmt"
	mathrand "math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/examples/internal/pgtest"
)

// envCrashSeed overrides the seed of the crash test's random choices.
const envCrashSeed = "CONTENTGEN_CRASH_SEED"

// span is when a delete request could have removed content: from its
// sending to its answer, or to the death of the server that ran it.
type span struct{ sent, end time.Time }

// workload fires generate and delete requests and remembers what the
// servers acknowledged.
type workload struct {
	mu sync.Mutex
	// acked maps a kind to the ids acknowledged by a generate request and
	// when that request was sent.
	acked map[string]map[int64]time.Time
	// deletes are the delete requests of generated posts (with their
	// related terms, authors and comments); end is zero while in flight.
	deletes []*span
	// counts are the post counts requested.
	counts map[int]bool
	// failures are answers no request may get.
	failures []string
	// conflicts counts documented 409 answers; cut the requests that got
	// no answer because their server died.
	conflicts, cut int
}

func newWorkload() *workload {
	return &workload{acked: map[string]map[int64]time.Time{"post": {}, "user": {}, "term": {}}, counts: map[int]bool{}}
}

// request is one planned API call.
type request struct {
	kind, path, body string
	count            int // posts requested, for generate posts
}

// planRequest draws one generate or delete request.
func planRequest(rng *mathrand.Rand, withDelete bool) request {
	switch n := rng.IntN(10); {
	case withDelete && n < 2:
		return request{kind: "delete", path: "/generate/posts/delete",
			body: `{"post_type":"post","delete_related_terms":true,"delete_related_authors":true,"delete_related_comments":true,"delete_related_media":true}`}
	case n < 3:
		return request{kind: "user", path: "/generate/users",
			body: fmt.Sprintf(`{"count":%d,"generate_avatars":false}`, 1+rng.IntN(3))}
	case n < 4:
		tax := []string{"category", "post_tag", "genre"}[rng.IntN(3)]
		return request{kind: "term", path: "/generate/terms",
			body: fmt.Sprintf(`{"taxonomy":%q,"count":%d}`, tax, 1+rng.IntN(3))}
	default:
		c := 1 + rng.IntN(8)
		image := `"set_featured_image":false`
		if rng.IntN(3) == 0 {
			image = `"set_featured_image":true,"image_provider":"provider_local","image_width":100,"image_height":100`
		}
		return request{kind: "post", path: "/generate/posts", count: c,
			body: fmt.Sprintf(`{"count":%d,%s,"auto_comments":true,"comments_per_post_max":3}`, c, image)}
	}
}

// do sends r to p and records the answer; answered reports each answer.
func (w *workload) do(ctx context.Context, p *serverProc, r request) {
	sent := time.Now()
	var d *span
	w.mu.Lock()
	if r.kind == "delete" {
		d = &span{sent: sent}
		w.deletes = append(w.deletes, d)
	} else if r.kind == "post" {
		w.counts[r.count] = true
	}
	w.mu.Unlock()
	status, out, err := p.call(ctx, "POST", r.path, r.body)
	w.mu.Lock()
	defer w.mu.Unlock()
	if d != nil && err == nil {
		d.end = time.Now()
	}
	switch {
	case err != nil:
		w.cut++ // the server died, or the request was cut: nothing acknowledged
	case status == http.StatusConflict:
		w.conflicts++
	case status < 200 || status > 299:
		w.failures = append(w.failures, fmt.Sprintf("POST %s %s: %d %v", r.path, r.body, status, out))
	case r.kind != "delete":
		ids := idsOf(out)
		if r.kind == "post" && len(ids) != r.count {
			w.failures = append(w.failures, fmt.Sprintf("POST %s %s: %d ids, want %d: %v", r.path, r.body, len(ids), r.count, out))
		}
		for _, id := range ids {
			w.acked[r.kind][id] = sent
		}
	}
}

// closeOutstanding ends the spans of the deletes that got no answer.
func (w *workload) closeOutstanding() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, d := range w.deletes {
		if d.end.IsZero() {
			d.end = time.Now()
		}
	}
}

// missing returns the acknowledged items that no delete could have
// removed and that db lacks.
func (w *workload) missing(t *testing.T, db *sql.DB) []string {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, k := range kinds {
		acked := w.acked[k.kind]
		if len(acked) == 0 {
			continue
		}
		have := int64s(t, db, "SELECT id FROM "+k.table)
		for id, sent := range acked {
			if _, found := slices.BinarySearch(have, id); found {
				continue
			}
			// Generated posts go with a delete that was not over when
			// they were asked for; users and terms of their own
			// endpoints are never deleted by these requests.
			deletable := false
			for _, d := range w.deletes {
				deletable = deletable || (k.kind == "post" && (d.end.IsZero() || d.end.After(sent)))
			}
			if !deletable {
				out = append(out, fmt.Sprintf("acknowledged %s %d is missing", k.kind, id))
			}
		}
	}
	slices.Sort(out)
	return out
}

// halfBatches returns the runs of generate posts whose number of posts
// is no count that was requested: with counts up to the batch size a
// request is one run and one batch, written with its history entries in
// one transaction, so its posts are all there or none.
func (w *workload) halfBatches(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT json_extract(meta, '$.run_id'), COUNT(*) FROM history
		WHERE content_type = 'post' AND content_subtype = 'post' GROUP BY 1`)
	require.NoError(t, err)
	defer rows.Close()
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for rows.Next() {
		var run sql.NullString
		var n int64
		require.NoError(t, rows.Scan(&run, &n))
		if !run.Valid || !w.counts[int(n)] {
			out = append(out, fmt.Sprintf("run %q has %d posts, no count that was requested", run.String, n))
		}
	}
	require.NoError(t, rows.Err())
	return out
}

// mediaFiles returns the files of the media directory that no media
// record names, split by whether a record naming them was seen before
// (recorded, then deleted) or never.
func mediaFiles(t *testing.T, db *sql.DB, dir string, seen map[string]bool) (unrecorded, afterDelete []string) {
	t.Helper()
	named := namedFiles(t, db)
	for rel := range named {
		seen[rel] = true
	}
	for _, f := range filesIn(t, dir) {
		rel, err := filepath.Rel(dir, f)
		require.NoError(t, err)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, ".pending/") {
			continue // a write whose record never committed; swept once old
		}
		switch {
		case named[rel]:
		case seen[rel]:
			afterDelete = append(afterDelete, rel)
		default:
			unrecorded = append(unrecorded, rel)
		}
	}
	return unrecorded, afterDelete
}

// openSQLite opens the SQLite file path for the checks.
func openSQLite(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	require.NoError(t, err)
	return db
}

func integrity(t *testing.T, db *sql.DB) string {
	t.Helper()
	var res []string
	rows, err := db.Query("PRAGMA integrity_check")
	require.NoError(t, err)
	defer rows.Close()
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		res = append(res, s)
	}
	require.NoError(t, rows.Err())
	return strings.Join(res, "; ")
}

// TestCrashSQLite kills a real server on a SQLite file with SIGKILL while
// it generates and deletes, restarts it 50 times, and checks what a crash
// must never break: the file's integrity, acknowledged content, whole
// batches, content and history one to one, and a cleanup back to the
// hand-made demo site.
func TestCrashSQLite(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "site.db")
	mediaDir := path + ".media"
	seed := uint64(20261125)
	if s := os.Getenv(envCrashSeed); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		require.NoError(t, err, envCrashSeed)
		seed = v
	}
	t.Logf("seed %d (%s)", seed, envCrashSeed)
	rng := mathrand.New(mathrand.NewPCG(seed, 1))

	// The server keeps its address across restarts, as a deployed one does.
	p := startServer(t, bin, path)
	addr := p.addr
	p.stop(t)
	check := openSQLite(t, path)
	baseline := snapshot(t, check)
	requireDemoBaseline(t, check)
	require.NoError(t, check.Close())

	const cycles = 50
	w := newWorkload()
	seen := map[string]bool{}
	seenFiles := map[string]bool{}
	tracked := int64(0)
	for c := 0; c < cycles; c++ {
		p := startServerAt(t, addr, bin, path)
		if tracked > 20 {
			// Keep the generated posts within one delete chunk (the batch
			// size, 50), so that a delete removes whole batches or none.
			w.do(context.Background(), p, request{kind: "delete", path: "/generate/posts/delete",
				body: `{"post_type":"post","delete_related_terms":true,"delete_related_authors":true,"delete_related_comments":true,"delete_related_media":true}`})
		}
		reqs := make([]request, 2+rng.IntN(3))
		posts := 0
		for i := range reqs {
			reqs[i] = planRequest(rng, i > 0)
			if reqs[i].kind == "post" && posts+reqs[i].count > 25 {
				reqs[i] = request{kind: "user", path: "/generate/users", body: `{"count":1,"generate_avatars":false}`}
			}
			posts += reqs[i].count
		}
		killAfter := rng.IntN(len(reqs) + 1)
		delay := time.Duration(rng.IntN(400)) * time.Millisecond

		answers := make(chan struct{}, len(reqs))
		var wg sync.WaitGroup
		for _, r := range reqs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w.do(context.Background(), p, r)
				answers <- struct{}{}
			}()
		}
		// The kill lands after killAfter answers or after delay, whichever
		// comes first: a random moment by design. What is checked below
		// must hold whatever the moment, so no outcome depends on timing.
		timer := time.NewTimer(delay)
		for n := 0; n < killAfter; n++ {
			select {
			case <-answers:
				continue
			case <-timer.C:
			}
			break
		}
		timer.Stop()
		p.kill()
		wg.Wait()
		w.closeOutstanding()

		db := openSQLite(t, path)
		problems := []string{}
		if res := integrity(t, db); res != "ok" {
			problems = append(problems, "integrity_check: "+res)
		}
		problems = append(problems, trackingProblems(t, db)...)
		problems = append(problems, w.missing(t, db)...)
		problems = append(problems, w.halfBatches(t, db)...)
		// What a server does when it starts: finish or remove the files
		// of transactions the killed one left behind.
		sweepMedia(t, path, mediaDir, time.Now())
		unrecorded, afterDelete := mediaFiles(t, db, mediaDir, seenFiles)
		problems = append(problems, missingMediaFiles(t, db, mediaDir)...)
		for _, f := range unrecorded {
			problems = append(problems, "media file no record ever named: "+f)
		}
		for _, f := range afterDelete {
			problems = append(problems, "media file left after its record was deleted: "+f)
		}
		tracked = count(t, db, `SELECT COUNT(*) FROM history WHERE content_type = 'post' AND content_subtype = 'post'`)
		require.NoError(t, db.Close())
		for _, pr := range problems {
			if seen[pr] {
				continue
			}
			seen[pr] = true
			t.Errorf("after cycle %d (%d requests, killed after %d answers or %v): %s", c+1, len(reqs), killAfter, delay, pr)
		}
	}
	w.mu.Lock()
	for _, f := range w.failures {
		t.Errorf("unexpected answer: %s", f)
	}
	t.Logf("%d cycles: %d posts, %d users, %d terms acknowledged, %d deletes, %d requests cut by the kill, %d conflicts",
		cycles, len(w.acked["post"]), len(w.acked["user"]), len(w.acked["term"]), len(w.deletes), w.cut, w.conflicts)
	w.mu.Unlock()

	// The store opens the crashed file and finds it sound.
	ctx := context.Background()
	sdb, err := sqlstore.Open(ctx, path, nil)
	require.NoError(t, err)
	require.NoError(t, sdb.Close())
	check = openSQLite(t, path)
	require.Equal(t, "ok", integrity(t, check))
	require.NoError(t, check.Close())

	p = startServerAt(t, addr, bin, path)
	p.mustCall(t, "DELETE", "/cleanup/all", "")
	stats := p.mustCall(t, "GET", "/history/stats", "")["stats"].(map[string]any)
	require.EqualValues(t, 0, stats["total"], "history after cleanup")
	p.stop(t)

	check = openSQLite(t, path)
	defer check.Close()
	require.Equal(t, "ok", integrity(t, check))
	requireDemoBaseline(t, check)
	require.Equal(t, baseline, snapshot(t, check), "cleanup leaves exactly the hand-made content")
	// Files of writes the kills interrupted go once they are older than
	// any live transaction could be.
	sweepMedia(t, path, mediaDir, time.Now().Add(sqlstore.PendingGrace+time.Minute))
	if left := filesIn(t, mediaDir); len(left) > 0 {
		t.Errorf("%d media files left after cleanup, such as %s", len(left), left[0])
	}
}

// sweepMedia runs SweepMedia on the SQLite file path with its media
// directory, as a server does when it starts, at the time now.
func sweepMedia(t *testing.T, path, mediaDir string, now time.Time) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, path, &sqlstore.Options{Now: func() time.Time { return now }})
	require.NoError(t, err)
	defer db.Close()
	_, err = db.Host(&sqlstore.HostOptions{MediaDir: mediaDir, MediaURL: "http://127.0.0.1/uploads"}).SweepMedia(ctx)
	require.NoError(t, err)
}

// missingMediaFiles lists the files media records name that are not in
// the media directory.
func missingMediaFiles(t *testing.T, db *sql.DB, dir string) []string {
	t.Helper()
	var out []string
	for rel := range namedFiles(t, db) {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			out = append(out, "media file of a record missing: "+rel)
		}
	}
	slices.Sort(out)
	return out
}

// namedFiles returns the files, relative to the media directory, that
// media records name.
func namedFiles(t *testing.T, db *sql.DB) map[string]bool {
	t.Helper()
	rows, err := db.Query(`SELECT url, sizes FROM media`)
	require.NoError(t, err)
	defer rows.Close()
	named := map[string]bool{}
	for rows.Next() {
		var url, sizes string
		require.NoError(t, rows.Scan(&url, &sizes))
		for _, f := range strings.Fields(strings.NewReplacer(`"`, " ", ",", " ").Replace(url + " " + sizes)) {
			if _, rel, ok := strings.Cut(f, "/uploads/"); ok {
				named[rel] = true
			}
		}
	}
	require.NoError(t, rows.Err())
	return named
}

// TestTwoServersPostgres runs two server processes on one PostgreSQL
// schema, generates and deletes through both at once, and checks that
// content and history stay one to one, that acknowledged content is
// there, that no request failed but with a documented conflict, and that
// a cleanup leaves the hand-made demo site.
func TestTwoServersPostgres(t *testing.T) {
	siteDSN := pgtest.Schema(t, "contentgen_two_", "the two-server PostgreSQL test")
	t.Parallel()
	bin := buildBinary(t)
	mediaDir := filepath.Join(t.TempDir(), "media")

	// The first server creates the demo site; the second opens it.
	a := startServer(t, bin, siteDSN, "-media", mediaDir)
	defer a.kill()
	check, err := sql.Open("pgx", siteDSN)
	require.NoError(t, err)
	defer check.Close()
	baseline := snapshot(t, check)
	requireDemoBaseline(t, check)
	bsrv := startServer(t, bin, siteDSN, "-media", mediaDir)
	defer bsrv.kill()
	servers := []*serverProc{a, bsrv}

	rng := mathrand.New(mathrand.NewPCG(20261125, 2))
	const total, workers = 60, 4
	reqs := make([]request, total)
	on := make([]int, total)
	for i := range reqs {
		reqs[i] = planRequest(rng, true)
		on[i] = rng.IntN(2)
	}
	w := newWorkload()
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				w.do(context.Background(), servers[on[i]], reqs[i])
			}
		}()
	}
	start := time.Now()
	for i := range reqs {
		next <- i
	}
	close(next)
	wg.Wait()
	t.Logf("%d requests through two servers in %v: %d conflicts", total, time.Since(start), w.conflicts)

	w.mu.Lock()
	for _, f := range w.failures {
		t.Errorf("unexpected answer: %s", f)
	}
	if w.cut > 0 {
		t.Errorf("%d requests got no answer", w.cut)
	}
	for _, d := range w.deletes {
		if d.end.IsZero() {
			t.Errorf("a delete got no answer")
			d.end = time.Now()
		}
	}
	w.mu.Unlock()
	// No server died here: every problem is a failure.
	for _, pr := range trackingProblems(t, check) {
		t.Errorf("after the workload: %s", pr)
	}
	for _, pr := range w.missing(t, check) {
		t.Errorf("after the workload: %s", pr)
	}
	for _, pr := range missingMediaFiles(t, check, mediaDir) {
		t.Errorf("after the workload: %s", pr)
	}
	unrecorded, afterDelete := mediaFiles(t, check, mediaDir, map[string]bool{})
	if left := append(unrecorded, afterDelete...); len(left) > 0 {
		t.Errorf("after the workload: %d media files no record names, such as %s", len(left), left[0])
	}

	servers[rng.IntN(2)].mustCall(t, "DELETE", "/cleanup/all", "")
	a.stop(t)
	bsrv.stop(t)
	requireDemoBaseline(t, check)
	require.Equal(t, baseline, snapshot(t, check), "cleanup leaves exactly the hand-made content")
	if left := filesIn(t, mediaDir); len(left) > 0 {
		t.Errorf("%d media files left after cleanup, such as %s", len(left), left[0])
	}
}
