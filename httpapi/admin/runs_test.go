package admin_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/runs"
)

// apiCall sends method path with a JSON body as the page does: with the
// session cookie of c, the nonce (when not empty) and the extra headers.
func (s *site) apiCall(t *testing.T, c *http.Client, method, path, body, nonce string, hdr map[string]string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, s.srv.URL+apiBase+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if nonce != "" {
		req.Header.Set("X-Host-Nonce", nonce)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return resp.StatusCode, out
}

// TestRunsCallsOfThePage: the calls of the Runs view that change state,
// starting and cancelling a run, need the page's session and its nonce
// and are refused from another site, like every other call of the page.
func TestRunsCallsOfThePage(t *testing.T) {
	t.Parallel()
	s := newRunsSite(t)
	c := s.client(t)
	resp, _ := s.logIn(t, c, "admin", s.adminPW)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	nonce := s.page(t, c)
	const start = `{"kind":"posts","count":1200,"batch_size":400,"set_featured_image":false}`

	status, out := s.apiCall(t, c, "POST", "/runs", start, "", nil)
	require.Equal(t, http.StatusUnauthorized, status, "the cookie alone does not start a run: %v", out)
	status, out = s.apiCall(t, c, "POST", "/runs", start, "forged", nil)
	require.Equal(t, http.StatusUnauthorized, status, "%v", out)
	status, out = s.apiCall(t, c, "POST", "/runs", start, nonce, map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})
	require.Equal(t, http.StatusForbidden, status, "%v", out)
	list, err := s.runs.List(t.Context(), 0)
	require.NoError(t, err)
	require.Empty(t, list, "no refused call started a run")

	status, out = s.apiCall(t, c, "POST", "/runs", start, nonce, nil)
	require.Equal(t, http.StatusAccepted, status, "%v", out)
	id, _ := out["id"].(string)
	require.NotEmpty(t, id)
	status, out = s.apiCall(t, c, "GET", "/runs", "", nonce, nil)
	require.Equal(t, http.StatusOK, status, "%v", out)
	require.Len(t, out["runs"], 1)

	status, out = s.apiCall(t, c, "DELETE", "/runs/"+id, "", "", nil)
	require.Equal(t, http.StatusUnauthorized, status, "the cookie alone does not cancel a run: %v", out)
	status, out = s.apiCall(t, c, "DELETE", "/runs/"+id, "", nonce, map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})
	require.Equal(t, http.StatusForbidden, status, "%v", out)
	r, err := s.runs.Get(t.Context(), id)
	require.NoError(t, err)
	require.Equal(t, runs.StatusQueued, r.Status, "no refused call cancelled the run")
	status, out = s.apiCall(t, c, "DELETE", "/runs/"+id, "", nonce, nil)
	require.Equal(t, http.StatusOK, status, "%v", out)
	require.Equal(t, "cancelled", out["run"].(map[string]any)["status"])

	status, out = s.apiCall(t, c, "POST", "/runs/"+id+"/resume", "", "", nil)
	require.Equal(t, http.StatusUnauthorized, status, "the cookie alone does not resume a run: %v", out)
	status, out = s.apiCall(t, c, "POST", "/runs/"+id+"/resume", "", "forged", nil)
	require.Equal(t, http.StatusUnauthorized, status, "%v", out)
	status, out = s.apiCall(t, c, "POST", "/runs/"+id+"/resume", "", nonce, map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})
	require.Equal(t, http.StatusForbidden, status, "%v", out)
	r, err = s.runs.Get(t.Context(), id)
	require.NoError(t, err)
	require.Equal(t, runs.StatusCancelled, r.Status, "no refused call resumed the run")
	status, out = s.apiCall(t, c, "POST", "/runs/"+id+"/resume", "", nonce, nil)
	require.Equal(t, http.StatusAccepted, status, "%v", out)
	require.Equal(t, "queued", out["run"].(map[string]any)["status"])
}

// TestBrowserRuns drives the Runs view in headless Chromium: start a
// small run of posts and a big one of terms, cancel the big one, resume
// it with its Resume button and cancel it again, then
// let a worker make the small one and watch it progress, batch by batch,
// to succeeded.
func TestBrowserRuns(t *testing.T) {
	s := newRunsSite(t)
	b := startBrowser(t) // stopped before the site, whose server waits for open streams
	ctx, poll, shot, step, text, count := b.ctx, b.poll, b.shot, b.step, b.text, b.count
	page := s.srv.URL + adminPath
	type css = chromedp.CSS
	// Toasts come and go on their own; screenshots are taken without them.
	noToasts := chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('.toast').forEach((e) => e.remove())`)
	row := func(id string) string { return `#runs-table tr[data-id="` + id + `"]` }
	firstRow := func() string {
		t.Helper()
		id, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#runs-table tbody tr').dataset.id`))
		require.NoError(t, err)
		require.NotEmpty(t, id)
		return id
	}

	step("login",
		chromedp.Navigate(page),
		chromedp.WaitVisible(css(`#log`)),
		chromedp.SendKeys(css(`#log`), "admin"),
		chromedp.SendKeys(css(`#pwd`), s.adminPW),
		chromedp.Click(css(`#login-submit`)),
		chromedp.WaitVisible(css(`#stat-total`)),
		chromedp.Click(css(`#nav a[data-section="runs"]`)),
		chromedp.WaitVisible(css(`#run-form`)),
		chromedp.WaitVisible(css(`#runs-empty`)),
		shot("runs-empty"),
	)
	require.Zero(t, count(`main .alert-error`))
	require.Zero(t, count(`#run-form [name="delete_existing_before_generate"]`), "a run cannot delete first, so the form does not offer it")

	// Twelve posts in batches of five, each with a featured image. No worker
	// runs yet: the run waits in the queue.
	step("start posts",
		chromedp.SetValue(css(`#run-form [name="count"]`), "12"),
		chromedp.SetValue(css(`#run-form [name="batch_size"]`), "5"),
		chromedp.SetValue(css(`#run-form [name="image_provider"]`), "provider_local"),
		chromedp.SetValue(css(`#run-form [name="image_width"]`), "400"),
		chromedp.SetValue(css(`#run-form [name="image_height"]`), "300"),
		chromedp.SetValue(css(`#run-form [name="post_status"]`), "draft"),
		chromedp.Click(css(`#run-form [name="enable_variation"]`)), // every post has a featured image
		chromedp.Click(css(`#run-submit`)),
		poll(`!!document.querySelector('#runs-table tbody tr[data-status="queued"]')`),
	)
	posts := firstRow()
	r, err := s.runs.Get(t.Context(), posts)
	require.NoError(t, err)
	require.Equal(t, runs.KindPosts, r.Kind)
	require.EqualValues(t, 12, r.Total)
	require.Equal(t, 5, r.BatchSize)
	require.Equal(t, contentgen.StatusDraft, r.Request.Posts.PostStatus, "the form's options reach the run")
	require.Equal(t, "provider_local", r.Request.Posts.ImageProvider)
	require.Contains(t, text(row(posts)), "0 of 12")

	// A big run of terms, from the terms tab, cancelled before it starts.
	step("start terms",
		chromedp.Click(css(`.run-start .tab[href="#/runs/terms"]`)),
		chromedp.WaitVisible(css(`#run-form [name="taxonomy"]`)),
		chromedp.SetValue(css(`#run-form [name="count"]`), "100000"),
		chromedp.Click(css(`#run-submit`)),
		poll(`document.querySelectorAll('#runs-table tbody tr').length === 2`),
	)
	terms := firstRow()
	require.NotEqual(t, posts, terms, "the newest run is on top")
	require.Contains(t, text(row(terms)), "100,000")
	step("cancel terms",
		chromedp.Click(css(row(terms)+` .run-cancel`)),
		chromedp.WaitVisible(css(`#confirm-ok`)),
		noToasts,
		shot("runs-cancel"),
		chromedp.Click(css(`#confirm-ok`)),
		poll(`!!document.querySelector('`+row(terms)+`[data-status="cancelled"]')`),
	)
	r, err = s.runs.Get(t.Context(), terms)
	require.NoError(t, err)
	require.Equal(t, runs.StatusCancelled, r.Status)
	require.Zero(t, count(row(terms)+` .run-cancel`), "a cancelled run has nothing to cancel")
	require.Equal(t, 1, count(row(posts)+` .run-cancel`))
	require.Zero(t, count(row(posts)+` .run-resume`), "a queued run has nothing to resume")

	// Resumed, the run of terms is queued again; cancelled again before
	// any worker starts.
	step("resume terms",
		chromedp.Click(css(row(terms)+` .run-resume`)),
		poll(`!!document.querySelector('`+row(terms)+`[data-status="queued"]')`),
	)
	r, err = s.runs.Get(t.Context(), terms)
	require.NoError(t, err)
	require.Equal(t, runs.StatusQueued, r.Status, "the Resume button resumed the run")
	require.Zero(t, count(row(terms)+` .run-resume`), "a queued run has nothing to resume")
	step("cancel terms again",
		chromedp.Click(css(row(terms)+` .run-cancel`)),
		chromedp.WaitVisible(css(`#confirm-ok`)),
		chromedp.Click(css(`#confirm-ok`)),
		poll(`!!document.querySelector('`+row(terms)+`[data-status="cancelled"]')`),
	)
	r, err = s.runs.Get(t.Context(), terms)
	require.NoError(t, err)
	require.Equal(t, runs.StatusCancelled, r.Status)
	require.Equal(t, 1, count(row(terms)+` .run-resume`), "a cancelled run can be resumed")

	// A worker starts. Its second batch waits for its images once the
	// first is done, so the page shows the run part done; then it runs
	// to its end.
	s.images.holdWhen(func() bool {
		r, err := s.runs.Get(context.Background(), posts)
		return err == nil && r.Done >= 5
	})
	require.NoError(t, s.runs.Start(t.Context()))
	step("progress",
		poll(`!!document.querySelector('`+row(posts)+`[data-status="running"][data-done="5"]')`),
		noToasts,
		shot("runs-midrun"),
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		shot("phone-runs-midrun"),
		chromedp.EmulateViewport(1280, 900),
	)
	require.Contains(t, text(row(posts)), "5 of 12")
	require.Contains(t, text(row(posts)+` .workers`), "test-worker\n5 items, 1 batch", "the worker and what it made")
	s.images.release()
	step("succeeded",
		poll(`!!document.querySelector('`+row(posts)+`[data-status="succeeded"][data-done="12"]')`),
		noToasts,
		shot("runs"),
	)
	require.Contains(t, text(row(posts)), "12 of 12")
	require.Contains(t, text(row(posts)), "Succeeded")
	require.Contains(t, text(row(posts)+` .workers`), "12 items, 3 batches")
	require.Contains(t, text(row(posts)), "/s", "a finished run shows its rate")
	require.Zero(t, count(row(posts)+` .run-cancel`))
	v, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const p = document.querySelector('`+row(posts)+` progress'); return [p.value, p.max]; })()`))
	require.NoError(t, err)
	require.Equal(t, []float64{12, 12}, v, "the bar is full")
	r, err = s.runs.Get(t.Context(), posts)
	require.NoError(t, err)
	require.Equal(t, runs.StatusSucceeded, r.Status)
	require.EqualValues(t, 12, r.Done)
	_, total, err := s.gen.History().List(t.Context(), contentgen.HistoryQuery{Kind: contentgen.KindPost})
	require.NoError(t, err)
	require.Equal(t, 12, total, "the run's posts are in the history")

	// In German.
	step("german",
		chromedp.Navigate(page+"#/settings"),
		chromedp.WaitVisible(css(`#settings-form`)),
		chromedp.SetValue(css(`#admin-locale`), "de_DE"),
		chromedp.Click(css(`#settings-save`)),
		poll(`document.querySelector('#nav a[data-section="runs"]').textContent === 'Läufe'`),
		chromedp.Navigate(page+"#/runs/users"),
		chromedp.WaitVisible(css(`#run-form [name="generate_avatars"]`)),
		noToasts,
		shot("runs-de"),
	)
	require.Contains(t, text(row(posts)), "Fertig")
	require.Contains(t, text(row(terms)), "Abgebrochen")
	require.Equal(t, "Lauf starten", text(`#run-submit`))
}
