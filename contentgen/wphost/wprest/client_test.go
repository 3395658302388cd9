package wprest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/wphost/wprest"
)

const (
	fakeUser = "admin"
	fakePass = "abcd efgh ijkl mnop qrst uvwx"
)

// fakeWP is an httptest server speaking WordPress's REST wire format for
// the routes a test gives it; it checks Basic auth like WordPress and
// records every request it serves.
type fakeWP struct {
	srv    *httptest.Server
	mu     sync.Mutex
	reqs   []string
	routes map[string]http.HandlerFunc // "METHOD /wp/v2/posts"
}

func newFakeWP(t *testing.T, routes map[string]http.HandlerFunc) *fakeWP {
	t.Helper()
	f := &fakeWP{routes: routes}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeWP) serve(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/wp-json")
	f.mu.Lock()
	f.reqs = append(f.reqs, r.Method+" "+path+"?"+r.URL.RawQuery)
	f.mu.Unlock()
	public := strings.HasPrefix(path, "/wp-content/") // uploads are served without credentials
	if u, p, ok := r.BasicAuth(); !public && (!ok || u != fakeUser || p != fakePass) {
		wpError(w, http.StatusUnauthorized, "incorrect_password", "The provided password is an invalid application password.")
		return
	}
	h, ok := f.routes[r.Method+" "+path]
	if !ok {
		wpError(w, http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method.")
		return
	}
	h(w, r)
}

// requests returns the recorded requests ("METHOD /path?query").
func (f *fakeWP) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.reqs...)
}

func wpError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"code":%q,"message":%q,"data":{"status":%d}}`, code, msg, status)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// sleeps records the waits between retries instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

func fakeOptions(f *fakeWP, s *sleeps) *wprest.Options {
	o := &wprest.Options{URL: f.srv.URL, User: fakeUser, AppPassword: fakePass}
	if s != nil {
		o.Sleep = s.sleep
	}
	return o
}

// index is the API root of a fake site: posts and terms routes allow
// batches, users do not; plugin adds the companion plugin's namespace.
func index(plugin bool) map[string]any {
	ns := []string{"wp/v2"}
	if plugin {
		ns = append(ns, wprest.PluginNamespace)
	}
	batch := map[string]any{"v1": true}
	return map[string]any{
		"name": "Fake site", "url": "http://fake.example", "home": "http://fake.example", "namespaces": ns,
		"routes": map[string]any{
			"/wp/v2/posts": map[string]any{"endpoints": []any{
				map[string]any{"methods": []string{"GET"}, "allow_batch": batch},
				map[string]any{"methods": []string{"POST"}, "allow_batch": batch},
			}},
			`/wp/v2/posts/(?P<id>[\d]+)`: map[string]any{"endpoints": []any{
				map[string]any{"methods": []string{"GET"}, "allow_batch": batch},
				map[string]any{"methods": []string{"DELETE"}, "allow_batch": batch},
			}},
			"/wp/v2/users": map[string]any{"endpoints": []any{
				map[string]any{"methods": []string{"GET", "POST"}},
			}},
		},
	}
}

var postTypes = map[string]any{
	"post": map[string]any{
		"name": "Posts", "slug": "post", "hierarchical": false, "viewable": true,
		"supports":   map[string]any{"title": true, "editor": true, "thumbnail": true},
		"taxonomies": []string{}, "rest_base": "posts", "rest_namespace": "wp/v2",
	},
	"attachment": map[string]any{
		"name": "Media", "slug": "attachment", "hierarchical": false, "viewable": true,
		"supports": map[string]any{"title": true}, "taxonomies": []string{}, "rest_base": "media", "rest_namespace": "wp/v2",
	},
}

// siteRoutes returns the discovery routes of a fake site plus extra.
func siteRoutes(plugin bool, extra map[string]http.HandlerFunc) map[string]http.HandlerFunc {
	r := map[string]http.HandlerFunc{
		"GET /":                 func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, index(plugin)) },
		"GET /wp/v2/types":      func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, postTypes) },
		"GET /wp/v2/taxonomies": func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, map[string]any{}) },
		"GET /wp/v2/users/me": func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, 200, map[string]any{"id": 1, "capabilities": map[string]bool{"manage_options": true}})
		},
	}
	for k, v := range extra {
		r[k] = v
	}
	return r
}

func TestNewClientNamesTheBadField(t *testing.T) {
	t.Parallel()
	good := func() *wprest.Options {
		return &wprest.Options{URL: "https://example.com", User: "admin", AppPassword: "secret pass"}
	}
	cases := []struct {
		field string
		edit  func(o *wprest.Options)
	}{
		{"Options.URL", func(o *wprest.Options) { o.URL = "" }},
		{"Options.URL", func(o *wprest.Options) { o.URL = "ftp://example.com" }},
		{"Options.URL", func(o *wprest.Options) { o.URL = "example.com/path" }},
		{"Options.URL", func(o *wprest.Options) { o.URL = "https://user:pw@example.com" }},
		{"Options.User", func(o *wprest.Options) { o.User = "" }},
		{"Options.AppPassword", func(o *wprest.Options) { o.AppPassword = "" }},
		{"Options.Concurrency", func(o *wprest.Options) { o.Concurrency = -1 }},
		{"Options.MaxResponseBytes", func(o *wprest.Options) { o.MaxResponseBytes = -5 }},
	}
	for _, tc := range cases {
		o := good()
		tc.edit(o)
		_, err := wprest.NewClient(o)
		require.ErrorIs(t, err, contentgen.ErrInvalidParameter, tc.field)
		require.Contains(t, err.Error(), tc.field)
		require.NotContains(t, err.Error(), "secret pass")
	}
	_, err := wprest.NewClient(nil)
	require.ErrorIs(t, err, contentgen.ErrInvalidParameter)
	c, err := wprest.NewClient(good())
	require.NoError(t, err)
	require.NotContains(t, c.String(), "secret")
	require.Equal(t, "https://example.com", c.SiteURL())
}

func TestNewChecksCredentialsWithoutLeakingThem(t *testing.T) {
	t.Parallel()
	f := newFakeWP(t, siteRoutes(false, nil))
	var logs bytes.Buffer
	o := fakeOptions(f, &sleeps{})
	o.AppPassword = "wrong password here"
	o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	_, err := wprest.New(t.Context(), o)
	var ae *wprest.APIError
	require.ErrorAs(t, err, &ae)
	require.Equal(t, http.StatusUnauthorized, ae.Status)
	require.Equal(t, "incorrect_password", ae.Code)
	require.NotContains(t, err.Error(), "wrong password")
	require.NotContains(t, logs.String(), "wrong password")
	require.NotContains(t, logs.String(), "d3JvbmcgcGFzc3dvcmQ", "no Basic auth header in the logs")
	require.Contains(t, logs.String(), "status=401", "the request is logged")
	require.Len(t, f.requests(), 1, "a 401 is not retried")

	_, err = wprest.New(t.Context(), fakeOptions(f, &sleeps{}))
	require.NoError(t, err)
}

func TestNewRefusesAUserWithoutManageOptions(t *testing.T) {
	t.Parallel()
	f := newFakeWP(t, siteRoutes(false, map[string]http.HandlerFunc{
		"GET /wp/v2/users/me": func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, 200, map[string]any{"id": 2, "capabilities": map[string]bool{"edit_posts": true}})
		},
	}))
	_, err := wprest.New(t.Context(), fakeOptions(f, &sleeps{}))
	require.ErrorContains(t, err, "manage_options")
}

// flaky answers the first n requests with status (and Retry-After when
// retryAfter is set), then 200 with an empty list.
func flaky(n, status int, retryAfter string) http.HandlerFunc {
	var mu sync.Mutex
	seen := 0
	return func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen++
		fail := seen <= n
		mu.Unlock()
		if fail {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			wpError(w, status, "busy", "Try again.")
			return
		}
		w.Header().Set("X-WP-Total", "0")
		w.Header().Set("X-WP-TotalPages", "0")
		writeJSON(w, 200, []any{})
	}
}

func TestRetries(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		method     string
		status     int
		failures   int
		retryAfter string
		maxRetries int
		wantWaits  []time.Duration
		wantErr    bool
	}{
		{"429 honours Retry-After seconds", "GET", 429, 2, "7", 0, []time.Duration{7 * time.Second, 7 * time.Second}, false},
		{"503 honours Retry-After", "GET", 503, 1, "3", 0, []time.Duration{3 * time.Second}, false},
		{"Retry-After is capped", "GET", 429, 1, "86400", 0, []time.Duration{2 * time.Minute}, false},
		{"5xx of a GET backs off exponentially", "GET", 500, 3, "", 0, []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}, false},
		{"503 of a POST is retried", "POST", 503, 1, "", 0, []time.Duration{500 * time.Millisecond}, false},
		{"500 of a POST is not retried", "POST", 500, 1, "", 0, nil, true},
		{"gives up after MaxRetries", "GET", 503, 5, "1", 2, []time.Duration{time.Second, time.Second}, true},
		{"negative MaxRetries disables retries", "GET", 503, 1, "1", -1, nil, true},
		{"400 is not retried", "GET", 400, 1, "1", 0, nil, true},
		{"401 is not retried", "GET", 401, 1, "1", 0, nil, true},
		{"403 is not retried", "GET", 403, 1, "1", 0, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			extra := map[string]http.HandlerFunc{}
			path := "/wp/v2/users"
			if tc.method == "GET" {
				extra["GET "+path] = flaky(tc.failures, tc.status, tc.retryAfter)
			} else {
				path = "/" + wprest.PluginNamespace + "/write"
				extra["POST "+path] = flaky(tc.failures, tc.status, tc.retryAfter)
			}
			f := newFakeWP(t, siteRoutes(true, extra))
			s := &sleeps{}
			o := fakeOptions(f, s)
			o.MaxRetries = tc.maxRetries
			c, err := wprest.NewClient(o)
			require.NoError(t, err)
			host := wprest.NewHost(c)
			if tc.method == "GET" {
				_, err = host.Users(t.Context(), contentgen.UserQuery{})
			} else {
				err = host.SetMeta(t.Context(), contentgen.KindPost, 5, contentgen.Meta{"k": "v"})
			}
			if tc.wantErr {
				var ae *wprest.APIError
				require.ErrorAs(t, err, &ae)
				require.Equal(t, tc.status, ae.Status)
				require.Equal(t, "busy", ae.Code)
				require.Equal(t, "Try again.", ae.Message)
			} else {
				require.NoError(t, err)
			}
			require.Equal(t, tc.wantWaits, s.waits())
			n := 0
			for _, r := range f.requests() {
				if strings.HasPrefix(r, tc.method+" "+path+"?") {
					n++
				}
			}
			require.Equal(t, len(tc.wantWaits)+1, n, "requests sent")
		})
	}
}

func TestCancellation(t *testing.T) {
	t.Parallel()
	t.Run("while waiting to retry", func(t *testing.T) {
		t.Parallel()
		f := newFakeWP(t, siteRoutes(false, map[string]http.HandlerFunc{"GET /wp/v2/users": flaky(100, 503, "30")}))
		ctx, cancel := context.WithCancel(t.Context())
		waiting := make(chan struct{})
		o := fakeOptions(f, nil)
		o.Sleep = func(ctx context.Context, d time.Duration) error {
			close(waiting)
			<-ctx.Done()
			return ctx.Err()
		}
		c, err := wprest.NewClient(o)
		require.NoError(t, err)
		done := make(chan error, 1)
		go func() {
			_, err := wprest.NewHost(c).Users(ctx, contentgen.UserQuery{})
			done <- err
		}()
		<-waiting
		cancel()
		require.ErrorIs(t, <-done, context.Canceled)
	})
	t.Run("while a request is in flight", func(t *testing.T) {
		t.Parallel()
		arrived := make(chan struct{})
		f := newFakeWP(t, siteRoutes(false, map[string]http.HandlerFunc{"GET /wp/v2/users": func(w http.ResponseWriter, r *http.Request) {
			close(arrived)
			<-r.Context().Done()
		}}))
		c, err := wprest.NewClient(fakeOptions(f, &sleeps{}))
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() {
			_, err := wprest.NewHost(c).Users(ctx, contentgen.UserQuery{})
			done <- err
		}()
		<-arrived
		cancel()
		require.ErrorIs(t, <-done, context.Canceled)
	})
	t.Run("before anything is sent", func(t *testing.T) {
		t.Parallel()
		f := newFakeWP(t, siteRoutes(true, nil))
		c, err := wprest.NewClient(fakeOptions(f, &sleeps{}))
		require.NoError(t, err)
		h := wprest.NewHost(c)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err = h.CreatePosts(ctx, []contentgen.Post{{Type: "post", Title: "x"}})
		require.ErrorIs(t, err, context.Canceled)
		require.ErrorIs(t, h.DeleteUsers(ctx, []int64{3}, 0), context.Canceled)
		_, err = h.Posts(ctx, contentgen.PostQuery{})
		require.ErrorIs(t, err, context.Canceled)
		require.Empty(t, f.requests())
	})
}

// usersPages serves n users 100 a page like WordPress, with X-WP-Total
// and X-WP-TotalPages.
func usersPages(n int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
		pg, _ := strconv.Atoi(r.URL.Query().Get("page"))
		if per < 1 || per > 100 {
			wpError(w, 400, "rest_invalid_param", "Invalid parameter(s): per_page")
			return
		}
		pages := (n + per - 1) / per
		if pg < 1 || (pg > pages && n > 0) {
			wpError(w, 400, "rest_user_invalid_page_number", "The page number requested is larger than the number of pages available.")
			return
		}
		var out []map[string]any
		for id := (pg-1)*per + 1; id <= min(pg*per, n); id++ {
			out = append(out, map[string]any{"id": id, "username": "user" + strconv.Itoa(id), "email": fmt.Sprintf("u%d@example.com", id), "roles": []string{"author"}})
		}
		w.Header().Set("X-WP-Total", strconv.Itoa(n))
		w.Header().Set("X-WP-TotalPages", strconv.Itoa(pages))
		writeJSON(w, 200, out)
	}
}

func TestPagingFollowsTotalPages(t *testing.T) {
	t.Parallel()
	f := newFakeWP(t, siteRoutes(false, map[string]http.HandlerFunc{"GET /wp/v2/users": usersPages(250)}))
	c, err := wprest.NewClient(fakeOptions(f, &sleeps{}))
	require.NoError(t, err)
	h := wprest.NewHost(c)
	users, err := h.Users(t.Context(), contentgen.UserQuery{})
	require.NoError(t, err)
	require.Len(t, users, 250)
	for i, u := range users {
		require.Equal(t, int64(i+1), u.ID)
		require.Equal(t, "user"+strconv.Itoa(i+1), u.Login)
		require.Equal(t, []string{"author"}, u.Roles)
	}
	var pages []string
	for _, r := range f.requests() {
		if strings.HasPrefix(r, "GET /wp/v2/users?") {
			require.Contains(t, r, "per_page=100")
			require.Contains(t, r, "orderby=id")
			pages = append(pages, r)
		}
	}
	require.Len(t, pages, 3)

	// A limit within the first page reads only the first page.
	before := len(f.requests())
	some, err := h.Users(t.Context(), contentgen.UserQuery{Limit: 10, Offset: 20})
	require.NoError(t, err)
	require.Len(t, some, 10)
	require.Equal(t, int64(21), some[0].ID)
	require.Len(t, f.requests(), before+1)
}

func TestResponseBodiesAreBounded(t *testing.T) {
	t.Parallel()
	big := `[{"id":1,"username":"` + strings.Repeat("x", 4096) + `"}]`
	f := newFakeWP(t, siteRoutes(false, map[string]http.HandlerFunc{"GET /wp/v2/users": func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("X-WP-TotalPages", "1")
		io.WriteString(w, big)
	}}))
	o := fakeOptions(f, &sleeps{})
	o.MaxResponseBytes = 1024
	c, err := wprest.NewClient(o)
	require.NoError(t, err)
	_, err = wprest.NewHost(c).Users(t.Context(), contentgen.UserQuery{})
	require.ErrorIs(t, err, wprest.ErrResponseTooLarge)
	n := 0
	for _, r := range f.requests() {
		if strings.HasPrefix(r, "GET /wp/v2/users?") {
			n++
		}
	}
	require.Equal(t, 1, n, "an oversized answer is not retried")
}

func TestAPIErrorsMapToHostErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		status int
		code   string
		target error
	}{
		{404, "rest_post_invalid_id", contentgen.ErrHostNotFound},
		{500, "existing_user_login", contentgen.ErrHostConflict},
		{400, "term_exists", contentgen.ErrHostConflict},
		{400, "rest_term_invalid", contentgen.ErrHostReference},
	}
	for _, tc := range cases {
		e := &wprest.APIError{Status: tc.status, Code: tc.code}
		require.ErrorIs(t, e, tc.target, tc.code)
		require.NotErrorIs(t, e, errors.New("other"))
	}
	require.NotErrorIs(t, &wprest.APIError{Status: 400, Code: "rest_invalid_param"}, contentgen.ErrHostConflict)
}

// batchServer answers POST /batch/v1 by running each request through fn,
// which returns the inner status and body.
func batchServer(t *testing.T, seen *[][]map[string]any, mu *sync.Mutex, fn func(method, path string, body map[string]any) (int, any)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Validation string           `json:"validation"`
			Requests   []map[string]any `json:"requests"`
		}
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || len(in.Requests) > 25 {
			wpError(w, 400, "rest_invalid_param", "Invalid parameter(s): requests")
			return
		}
		if in.Validation != "require-all-validate" {
			t.Errorf("batch validation %q", in.Validation)
		}
		mu.Lock()
		*seen = append(*seen, in.Requests)
		mu.Unlock()
		var out []map[string]any
		for _, req := range in.Requests {
			body, _ := req["body"].(map[string]any)
			status, resp := fn(req["method"].(string), req["path"].(string), body)
			out = append(out, map[string]any{"status": status, "body": resp, "headers": map[string]any{}})
		}
		writeJSON(w, 207, map[string]any{"responses": out})
	}
}

func TestCreatePostsBatchesAndUndoesAFailedBatch(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var batches [][]map[string]any
	next := int64(100)
	var deleted []string
	fn := func(method, path string, body map[string]any) (int, any) {
		mu.Lock()
		defer mu.Unlock()
		if method == "DELETE" {
			deleted = append(deleted, path)
			return 200, map[string]any{"deleted": true}
		}
		if body["title"] == "bad" {
			return 400, map[string]any{"code": "rest_invalid_author", "message": "Invalid author ID.", "data": map[string]any{"status": 400}}
		}
		next++
		return 201, map[string]any{"id": next, "title": map[string]any{"raw": body["title"]}}
	}
	f := newFakeWP(t, siteRoutes(false, map[string]http.HandlerFunc{
		"POST /batch/v1": batchServer(t, &batches, &mu, fn),
		"GET /wp/v2/posts": func(w http.ResponseWriter, r *http.Request) {
			// resolve: every id asked for exists as a post
			var out []map[string]any
			for _, s := range strings.Split(r.URL.Query().Get("include"), ",") {
				id, _ := strconv.Atoi(s)
				out = append(out, map[string]any{"id": id})
			}
			w.Header().Set("X-WP-TotalPages", "1")
			writeJSON(w, 200, out)
		},
	}))
	c, err := wprest.NewClient(fakeOptions(f, &sleeps{}))
	require.NoError(t, err)
	h := wprest.NewHost(c)

	in := make([]contentgen.Post, 30)
	for i := range in {
		in[i] = contentgen.Post{Type: "post", Status: "draft", Title: "Post " + strconv.Itoa(i), Date: time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)}
	}
	ids, err := h.CreatePosts(t.Context(), in)
	require.NoError(t, err)
	require.Len(t, ids, 30)
	require.Len(t, batches, 2, "30 posts go in two batches")
	for _, b := range batches {
		require.LessOrEqual(t, len(b), 25)
		for _, r := range b {
			require.Equal(t, "POST", r["method"])
			require.Equal(t, "/wp/v2/posts?_fields=id", r["path"], "WordPress answers with the id alone")
			require.Equal(t, "2024-03-01T10:00:00", r["body"].(map[string]any)["date_gmt"])
		}
	}
	for i := 1; i < len(ids); i++ {
		require.NotEqual(t, ids[i-1], ids[i])
	}

	// A failed item fails the call, and what the batch created is removed.
	batches = nil
	bad := []contentgen.Post{{Type: "post", Title: "good"}, {Type: "post", Title: "bad"}, {Type: "post", Title: "good too"}}
	_, err = h.CreatePosts(t.Context(), bad)
	require.ErrorIs(t, err, contentgen.ErrHostReference)
	var ae *wprest.APIError
	require.ErrorAs(t, err, &ae)
	require.Equal(t, "rest_invalid_author", ae.Code)
	mu.Lock()
	require.Len(t, deleted, 2, "the two created posts are deleted")
	for _, p := range deleted {
		require.Contains(t, p, "force=true")
	}
	n := len(batches)
	mu.Unlock()

	// An unregistered type fails before anything is sent.
	_, err = h.CreatePosts(t.Context(), []contentgen.Post{{Type: "post", Title: "ok"}, {Type: "nope", Title: "x"}})
	require.ErrorIs(t, err, contentgen.ErrInvalidPostType)
	require.Contains(t, err.Error(), "posts[1].Type")
	mu.Lock()
	require.Len(t, batches, n)
	mu.Unlock()
}

func TestWithoutThePluginMetaNeedsIt(t *testing.T) {
	t.Parallel()
	f := newFakeWP(t, siteRoutes(false, nil))
	c, err := wprest.NewClient(fakeOptions(f, &sleeps{}))
	require.NoError(t, err)
	h := wprest.NewHost(c)
	ctx := t.Context()
	_, err = h.Meta(ctx, contentgen.KindPost, 1)
	require.ErrorIs(t, err, wprest.ErrPluginMissing)
	require.ErrorIs(t, h.SetMeta(ctx, contentgen.KindPost, 1, contentgen.Meta{"a": "b"}), wprest.ErrPluginMissing)
	_, err = h.Posts(ctx, contentgen.PostQuery{MetaKey: contentgen.MarkerKey, MetaValue: contentgen.MarkerValue})
	require.ErrorIs(t, err, wprest.ErrPluginMissing)
	_, err = h.CreatePosts(ctx, []contentgen.Post{{Type: "post", Title: "x", Meta: contentgen.Meta{contentgen.MarkerKey: "1"}}})
	require.ErrorIs(t, err, wprest.ErrPluginMissing)
	require.ErrorContains(t, err, "mu-plugins/contentgen.php")
	_, err = h.CreateMedia(ctx, []contentgen.Media{{Title: "x"}})
	require.ErrorIs(t, err, wprest.ErrPluginMissing)
	for _, r := range f.requests() {
		require.False(t, strings.HasPrefix(r, "POST"), "nothing was written: %s", r)
	}
	roles, err := h.Roles(ctx)
	require.NoError(t, err)
	require.Equal(t, wprest.StandardRoles(), roles)
	_, err = h.Meta(ctx, "planet", 1)
	require.ErrorIs(t, err, contentgen.ErrInvalidParameter)
}

func TestInstallMUPlugin(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := filepath.Join(root, "wp-content", "mu-plugins")
	require.Error(t, wprest.InstallMUPlugin(dir), "wp-content does not exist")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "wp-content"), 0o755))
	require.NoError(t, wprest.InstallMUPlugin(dir))
	got, err := os.ReadFile(filepath.Join(dir, wprest.MUPluginFile))
	require.NoError(t, err)
	require.Equal(t, wprest.MUPlugin, got)
	require.True(t, bytes.HasPrefix(got, []byte("<?php")))
	require.Contains(t, string(got), wprest.PluginNamespace)
	require.NoError(t, wprest.InstallMUPlugin(dir), "installing again replaces the file")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1, "no temporary file is left")
	err = wprest.InstallMUPlugin("")
	require.ErrorIs(t, err, contentgen.ErrInvalidParameter)
}

func TestMediaBytesStaysOnTheSiteOrigin(t *testing.T) {
	t.Parallel()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		t.Error("MediaBytes fetched from another origin")
	}))
	t.Cleanup(other.Close)
	var f *fakeWP
	f = newFakeWP(t, siteRoutes(true, map[string]http.HandlerFunc{
		"GET /wp/v2/media/7": func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, 200, map[string]any{"id": 7, "mime_type": "image/png", "source_url": f.srv.URL + "/wp-content/uploads/a.png"})
		},
		"GET /wp/v2/media/8": func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, 200, map[string]any{"id": 8, "mime_type": "image/png", "source_url": other.URL + "/a.png"})
		},
		"GET /wp/v2/media/9": func(w http.ResponseWriter, _ *http.Request) {
			wpError(w, 404, "rest_post_invalid_id", "Invalid post ID.")
		},
		"GET /wp-content/uploads/a.png": func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "" {
				t.Error("the credentials were sent with a file request")
			}
			io.WriteString(w, "PNGDATA")
		},
	}))
	c, err := wprest.NewClient(fakeOptions(f, &sleeps{}))
	require.NoError(t, err)
	h := wprest.NewHost(c)
	data, mimeType, err := h.MediaBytes(t.Context(), 7)
	require.NoError(t, err)

	require.Equal(t, []byte("PNGDATA"), data)
	require.Equal(t, "image/png", mimeType)
	_, _, err = h.MediaBytes(t.Context(), 8)
	require.ErrorIs(t, err, contentgen.ErrHostNotFound, "a URL elsewhere has no bytes on this host")
	_, _, err = h.MediaBytes(t.Context(), 9)
	require.ErrorIs(t, err, contentgen.ErrHostNotFound)
}

func TestMetaQueriesReadTheMatchesAHundredAtATime(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var includes []string
	f := newFakeWP(t, siteRoutes(true, map[string]http.HandlerFunc{
		"POST /contentgen/v1/query": func(w http.ResponseWriter, r *http.Request) {
			var in map[string]any
			require.NoError(t, json.NewDecoder(r.Body).Decode(&in))
			if in["kind"] != "post" || in["key"] != contentgen.MarkerKey || in["value"] != contentgen.MarkerValue || in["has_value"] != true {
				wpError(w, 400, "rest_invalid_param", fmt.Sprint(in))
				return
			}
			ids := make([]int, 250)
			for i := range ids {
				ids[i] = 1000 + i
			}
			writeJSON(w, 200, map[string]any{"ids": ids})
		},
		"GET /wp/v2/posts": func(w http.ResponseWriter, r *http.Request) {
			inc := r.URL.Query().Get("include")
			mu.Lock()
			includes = append(includes, inc)
			mu.Unlock()
			var out []map[string]any
			for _, s := range strings.Split(inc, ",") {
				id, _ := strconv.Atoi(s)
				if id%2 == 0 { // odd ids are of another type
					out = append(out, map[string]any{
						"id": id, "type": "post", "status": "publish", "title": map[string]any{"raw": "P" + s},
						"contentgen": map[string]any{"meta": map[string]string{contentgen.MarkerKey: "1"}, "parent": 0},
					})
				}
			}
			w.Header().Set("X-WP-TotalPages", "1")
			writeJSON(w, 200, out)
		},
	}))
	c, err := wprest.NewClient(fakeOptions(f, &sleeps{}))
	require.NoError(t, err)
	posts, err := wprest.NewHost(c).Posts(t.Context(), contentgen.PostQuery{MetaKey: contentgen.MarkerKey, MetaValue: contentgen.MarkerValue, Offset: 10, Limit: 5})
	require.NoError(t, err)
	require.Len(t, posts, 5)
	require.Equal(t, int64(1020), posts[0].ID, "ordered by id, after the offset")
	require.True(t, posts[0].Meta.Generated())
	require.Equal(t, "P1020", posts[0].Title)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, includes, 3, "250 ids are read in three requests")
	for _, inc := range includes {
		require.LessOrEqual(t, len(strings.Split(inc, ",")), 100)
	}
}
