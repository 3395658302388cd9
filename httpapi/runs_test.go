package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/contentgen/runs"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/auth"
)

// newRunsEnv is the demo site in a SQLite file, served with a runs
// service that works on one batch at a time.
func newRunsEnv(t *testing.T) *env {
	t.Helper()
	return newRunsEnvWorkers(t, 0)
}

// newRunsEnvWorkers is newRunsEnv with a runs service of these workers
// (runs.NoWorkers: runs are recorded and stay queued).
func newRunsEnvWorkers(t *testing.T, workers int) *env {
	t.Helper()
	ctx := t.Context()
	db, err := sqlstore.Open(ctx, filepath.Join(t.TempDir(), "site.db"), nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	h := db.Host(nil)
	pts, taxes := demosite.Types()
	for _, pt := range pts {
		require.NoError(t, h.RegisterPostType(ctx, pt))
	}
	for _, tx := range taxes {
		require.NoError(t, h.RegisterTaxonomy(ctx, tx))
	}
	for _, r := range memhost.StandardRoles() {
		require.NoError(t, h.RegisterRole(ctx, r))
	}
	require.NoError(t, demosite.Seed(ctx, h))
	_, err = h.CreateUsers(ctx, []contentgen.User{{Login: "editor1", Email: "editor1@example.com", DisplayName: "Editor", Roles: []string{"editor"}}})
	require.NoError(t, err)
	seed := int64(7)
	gen, err := contentgen.New(h, nil, &contentgen.Config{Seed: &seed})
	require.NoError(t, err)
	rs, err := runs.New(ctx, db, gen, &runs.Options{Workers: workers, WorkerName: "test-worker", PollInterval: 20 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, rs.Start(ctx))
	t.Cleanup(func() { require.NoError(t, rs.Stop(context.Background())) })

	authn, err := auth.New(auth.GeneratorDirectory(gen), nil)
	require.NoError(t, err)
	adminPW, err := authn.Passwords.NewAppPassword("admin", "tests")
	require.NoError(t, err)
	editorPW, err := authn.Passwords.NewAppPassword("editor1", "tests")
	require.NoError(t, err)
	api, err := httpapi.New(gen, &httpapi.Options{Auth: authn, Sessions: authn.Sessions, Runs: rs})
	require.NoError(t, err)
	mux := http.NewServeMux()
	httpapi.Mount(mux, base, api)
	srv := httptest.NewServer(checkContract(t, mux))
	t.Cleanup(srv.Close)
	return &env{t: t, srv: srv, gen: gen, sessions: authn.Sessions, adminPW: adminPW, editorPW: editorPW, db: db}
}

// events reads a run's event stream to its end.
func (e *env) events(path string) []map[string]any {
	e.t.Helper()
	req, err := http.NewRequest("GET", e.srv.URL+base+path, nil)
	require.NoError(e.t, err)
	req.SetBasicAuth("admin", e.adminPW)
	resp, err := e.srv.Client().Do(req)
	require.NoError(e.t, err)
	defer resp.Body.Close()
	require.Equal(e.t, http.StatusOK, resp.StatusCode)
	require.Equal(e.t, "text/event-stream", resp.Header.Get("Content-Type"))
	var out []map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev map[string]any
		require.NoError(e.t, json.Unmarshal([]byte(line), &ev))
		out = append(out, ev)
	}
	require.NoError(e.t, sc.Err())
	return out
}

// TestRunsAPI: a run of more posts than a request allows is started with
// 202, followed as events to its end, listed, read and (once finished)
// left as it is by a cancel.
func TestRunsAPI(t *testing.T) {
	e := newRunsEnv(t)
	status, out := e.do("POST", "/runs", map[string]any{"kind": "posts", "count": 12, "batch_size": 5, "set_featured_image": false, "post_status": "draft"}, asAdmin)
	require.Equal(t, http.StatusAccepted, status, "%v", out)
	id, _ := out["id"].(string)
	require.NotEmpty(t, id)
	run := out["run"].(map[string]any)
	require.Equal(t, "queued", run["status"])
	require.EqualValues(t, 12, run["total"])
	require.EqualValues(t, 3, run["batches"])

	evs := e.events("/runs/" + id + "/events")
	require.NotEmpty(t, evs)
	last := evs[len(evs)-1]
	require.Equal(t, "complete", last["type"])
	final := last["run"].(map[string]any)
	require.Equal(t, "succeeded", final["status"])
	require.EqualValues(t, 12, final["done"])
	require.EqualValues(t, 3, final["batches_done"])
	require.Equal(t, []any{map[string]any{"name": "test-worker", "batches": 3.0, "items": 12.0}}, final["workers"])
	for _, ev := range evs[:len(evs)-1] {
		require.Equal(t, "progress", ev["type"])
	}

	status, out = e.do("GET", "/runs/"+id, nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, final, out["run"])
	status, out = e.do("GET", "/runs", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Len(t, out["runs"], 1)
	status, out = e.do("DELETE", "/runs/"+id, nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "succeeded", out["run"].(map[string]any)["status"], "a finished run stays as it is")
	status, out = e.do("POST", "/runs/"+id+"/resume", nil, asAdmin)
	require.Equal(t, http.StatusConflict, status, "%v", out)
	require.Equal(t, "conflict", out["code"])
	require.Contains(t, out["message"], "succeeded", "the message names the run's status")

	status, out = e.do("GET", "/history?type=post", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.EqualValues(t, 12, out["total"], "every post of the run is in the history")
}

// TestRunsAPIComments: a run of comments makes its count of comments in
// all on the published posts, each tracked.
func TestRunsAPIComments(t *testing.T) {
	e := newRunsEnv(t)
	status, out := e.do("POST", "/runs", map[string]any{"kind": "comments", "count": 30, "batch_size": 10, "avatar_percentage": 0, "comments_per_post_max": 4}, asAdmin)
	require.Equal(t, http.StatusAccepted, status, "%v", out)
	id, _ := out["id"].(string)
	require.EqualValues(t, 3, out["run"].(map[string]any)["batches"])
	evs := e.events("/runs/" + id + "/events")
	final := evs[len(evs)-1]["run"].(map[string]any)
	require.Equal(t, "succeeded", final["status"], "%v", final)
	require.Equal(t, "comments", final["kind"])
	require.EqualValues(t, 30, final["done"])
	status, out = e.do("GET", "/history?type=comment", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.EqualValues(t, 30, out["total"], "every comment of the run is in the history")
}

// TestRunsAPIErrors: the error envelope and statuses of the runs
// endpoints.
func TestRunsAPIErrors(t *testing.T) {
	e := newRunsEnv(t)
	for _, c := range []struct {
		method, path string
		body         any
		as           who
		status       int
		code         string
		param        string // named by the message
	}{
		{"POST", "/runs", map[string]any{"kind": "posts"}, asAdmin, 400, "invalid_parameter", "count"},
		{"POST", "/runs", map[string]any{"kind": "posts", "count": 0}, asAdmin, 400, "invalid_count", "count"},
		{"POST", "/runs", map[string]any{"kind": "media", "count": 3}, asAdmin, 400, "invalid_parameter", "kind"},
		{"POST", "/runs", map[string]any{"kind": "posts", "count": 3, "delete_existing_before_generate": true}, asAdmin, 400, "invalid_parameter", "delete_existing_before_generate"},
		// Options are checked as the generate endpoint of the kind checks
		// them, when the run is asked for.
		{"POST", "/runs", map[string]any{"kind": "posts", "count": 3000, "post_type": "spaceship"}, asAdmin, 400, "invalid_post_type", "post_type"},
		{"POST", "/runs", map[string]any{"kind": "posts", "count": 3000, "image_width": 50}, asAdmin, 400, "invalid_parameter", "image_width"},
		{"POST", "/runs", map[string]any{"kind": "terms", "count": 3000, "taxonomy": "mood"}, asAdmin, 400, "invalid_taxonomy", "taxonomy"},
		{"POST", "/runs", map[string]any{"kind": "users", "count": 3000, "role": "wizard"}, asAdmin, 400, "invalid_parameter", "role"},
		{"POST", "/runs", map[string]any{"kind": "users", "count": 3000, "batch_size": 501}, asAdmin, 400, "invalid_parameter", "batch_size"},
		{"POST", "/runs", map[string]any{"kind": "comments", "count": 3000, "post_type": "book"}, asAdmin, 400, "invalid_parameter", "post_type"},
		{"POST", "/runs", map[string]any{"kind": "comments", "count": 3000, "reply_probability": 140}, asAdmin, 400, "invalid_parameter", "reply_probability"},
		{"POST", "/runs", map[string]any{"kind": "comments", "count": 3000, "delete_existing": true}, asAdmin, 400, "invalid_parameter", "delete_existing"},
		{"POST", "/runs", map[string]any{"kind": "posts", "count": 3}, asEditor, 403, "rest_forbidden", ""},
		{"GET", "/runs", nil, asNobody, 401, "rest_not_logged_in", ""},
		{"GET", "/runs/nope", nil, asAdmin, 404, "not_found", ""},
		{"DELETE", "/runs/nope", nil, asAdmin, 404, "not_found", ""},
		{"POST", "/runs/nope/resume", nil, asAdmin, 404, "not_found", ""},
		{"POST", "/runs/nope/resume", nil, asNobody, 401, "rest_not_logged_in", ""},
		{"POST", "/runs/nope/resume", nil, asEditor, 403, "rest_forbidden", ""},
		{"GET", "/runs/nope/events", nil, asAdmin, 404, "not_found", ""},
	} {
		status, out := e.do(c.method, c.path, c.body, c.as)
		require.Equal(t, c.status, status, "%s %s %v: %v", c.method, c.path, c.body, out)
		require.Equal(t, false, out["success"])
		require.Equal(t, c.code, out["code"], "%s %s %v", c.method, c.path, c.body)
		require.Contains(t, out["message"], c.param, "%s %s %v", c.method, c.path, c.body)
	}
	status, out := e.do("GET", "/runs", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Empty(t, out["runs"], "a refused run is not recorded")

	// A server without a runs service says so.
	bare := newEnv(t)
	status, out = bare.do("GET", "/runs", nil, asAdmin)
	require.Equal(t, http.StatusServiceUnavailable, status)
	require.Equal(t, "not_configured", out["code"])
}

// TestRunsAPIResume: a cancelled run is resumed with 202 and the run
// queued again; an active run has nothing to resume (409 naming its
// status); an editor, a wrong password and a page of another site are
// refused before anything is resumed.
func TestRunsAPIResume(t *testing.T) {
	e := newRunsEnvWorkers(t, runs.NoWorkers)
	status, out := e.do("POST", "/runs", map[string]any{"kind": "posts", "count": 12, "batch_size": 5, "set_featured_image": false, "post_status": "draft", "seed": 11}, asAdmin)
	require.Equal(t, http.StatusAccepted, status, "%v", out)
	id, _ := out["id"].(string)
	require.NotEmpty(t, id)

	status, out = e.do("POST", "/runs/"+id+"/resume", nil, asAdmin)
	require.Equal(t, http.StatusConflict, status, "%v", out)
	require.Equal(t, false, out["success"])
	require.Equal(t, "conflict", out["code"])
	require.Contains(t, out["message"], "queued", "the message names the run's status")

	status, out = e.do("DELETE", "/runs/"+id, nil, asAdmin)
	require.Equal(t, http.StatusOK, status, "%v", out)
	require.Equal(t, "cancelled", out["run"].(map[string]any)["status"])

	// Refused: an editor, a wrong password, a page of another site.
	for _, as := range []who{asEditor, asWrongPassword} {
		status, out = e.do("POST", "/runs/"+id+"/resume", nil, as)
		require.Contains(t, []int{http.StatusUnauthorized, http.StatusForbidden}, status, "%v", out)
		require.Equal(t, false, out["success"])
	}
	status, out, _ = e.sendForged(forged{name: "resume from another site", method: "POST", path: "/runs/" + id + "/resume",
		origin: "https://evil.example", secFetchSite: "cross-site"})
	require.Equal(t, http.StatusForbidden, status, "%v", out)
	require.Equal(t, "cross_origin_request", out["code"])
	status, out = e.do("GET", "/runs/"+id, nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "cancelled", out["run"].(map[string]any)["status"], "a refused resume left the run as it was")

	status, out = e.do("POST", "/runs/"+id+"/resume", nil, asAdmin)
	require.Equal(t, http.StatusAccepted, status, "%v", out)
	require.Equal(t, true, out["success"])
	run := out["run"].(map[string]any)
	require.Equal(t, id, run["id"])
	require.Equal(t, "queued", run["status"], "a run that had not started is queued again")
	require.EqualValues(t, 11, run["seed"], "the run keeps the seed it was asked for")
	require.EqualValues(t, 60, run["batch_timeout_seconds"], "posts without images are made offline: a minute a batch")
	require.Nil(t, run["ended_at"])
	status, out = e.do("GET", "/runs/"+id, nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, run, out["run"])

	// Resumed, it can be cancelled again.
	status, out = e.do("DELETE", "/runs/"+id, nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "cancelled", out["run"].(map[string]any)["status"])
}

// TestRunsAPIResumeFinishes: a run cancelled before its batches were
// done, resumed on a server with workers, makes all it was asked for.
func TestRunsAPIResumeFinishes(t *testing.T) {
	// The API's own service has no workers, so the run is surely still
	// queued when it is cancelled; a worker of a second service on the
	// same database makes the resumed run.
	e := newRunsEnvWorkers(t, runs.NoWorkers)
	status, out := e.do("POST", "/runs", map[string]any{"kind": "terms", "count": 40, "batch_size": 5, "taxonomy": "category"}, asAdmin)
	require.Equal(t, http.StatusAccepted, status, "%v", out)
	id, _ := out["id"].(string)
	status, out = e.do("DELETE", "/runs/"+id, nil, asAdmin)
	require.Equal(t, http.StatusOK, status, "%v", out)
	require.Equal(t, "cancelled", out["run"].(map[string]any)["status"])
	status, out = e.do("POST", "/runs/"+id+"/resume", nil, asAdmin)
	require.Equal(t, http.StatusAccepted, status, "%v", out)

	worker, err := runs.New(t.Context(), e.db, e.gen, &runs.Options{Workers: 1, WorkerName: "second-worker", PollInterval: 20 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, worker.Start(t.Context()))
	t.Cleanup(func() { require.NoError(t, worker.Stop(context.Background())) })

	evs := e.events("/runs/" + id + "/events")
	final := evs[len(evs)-1]["run"].(map[string]any)
	require.Equal(t, "succeeded", final["status"], "%v", final)
	require.EqualValues(t, 40, final["done"])
	require.EqualValues(t, 8, final["batches_done"])
}
