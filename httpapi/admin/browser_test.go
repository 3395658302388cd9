package admin_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/templates"
)

// envChromium names the Chromium binary the browser test drives; the test
// skips when it is unset. envScreenshots, when set, names a directory the
// test writes screenshots of the page to, at desktop and phone width.
const (
	envChromium    = "CONTENTGEN_TEST_CHROMIUM"
	envScreenshots = "CONTENTGEN_TEST_SCREENSHOTS"
)

// browser is headless Chromium on a page, for one test.
type browser struct {
	t   *testing.T
	ctx context.Context
	// shots is the directory screenshots go to.
	shots string

	mu         sync.Mutex
	pageErrors []string
}

// startBrowser starts Chromium, or skips the test when envChromium is
// unset. Screenshots go to the test's artifact directory (kept with
// go test -artifacts -outputdir DIR) or to envScreenshots. At the end
// of the test, the page must have thrown no error.
func startBrowser(t *testing.T) *browser {
	t.Helper()
	bin := os.Getenv(envChromium)
	if bin == "" {
		t.Skip("the browser test needs Chromium: set " + envChromium + "=/usr/bin/chromium")
	}
	b := &browser{t: t, shots: os.Getenv(envScreenshots)}
	if b.shots == "" {
		b.shots = t.ArtifactDir()
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.NoSandbox,
		chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-dev-shm-usage", true),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(t.Context(), opts...)
	t.Cleanup(cancelAlloc)
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelBrowser)
	// The first call starts the browser for the life of browserCtx.
	require.NoError(t, chromedp.Listen(browserCtx, func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			b.mu.Lock()
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			b.pageErrors = append(b.pageErrors, fmt.Sprintf("%s:%d: %s", d.URL, d.LineNumber+1, msg))
			b.mu.Unlock()
		}
	}))
	ctx, cancel := context.WithTimeout(browserCtx, 90*time.Second)
	t.Cleanup(cancel)
	b.ctx = ctx
	t.Cleanup(func() {
		if t.Failed() {
			return
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		require.Empty(t, b.pageErrors, "the page throws no errors")
	})
	return b
}

// poll waits until expr is true in the page.
func (b *browser) poll(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(20*time.Second))
}

// shot writes a screenshot of the whole page as name.png.
func (b *browser) shot(name string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if b.shots == "" {
			return nil
		}
		buf, err := chromedp.FullScreenshot(100)(ctx, tg)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(b.shots, name+".png"), buf, 0o644)
	})
}

// step runs actions, with a screenshot "failed" when they fail.
func (b *browser) step(name string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	stepCtx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	err := chromedp.Do(stepCtx, actions...)
	if err != nil && b.shots != "" {
		_ = chromedp.Do(b.ctx, b.shot("failed"))
	}
	require.NoError(b.t, err, "step %q", name)
}

// text is the text of the element sel.
func (b *browser) text(sel string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(sel)))
	require.NoError(b.t, err, "text of %s", sel)
	return v
}

// count is the number of elements sel.
func (b *browser) count(sel string) int {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`))
	require.NoError(b.t, err, "counting %s", sel)
	return v
}

// TestBrowser drives the real page in headless Chromium: log in, read the
// dashboard, generate posts through the streaming form, read one, delete
// a history entry, switch the page to German and log out.
func TestBrowser(t *testing.T) {
	s := newSite(t, 0)
	b := startBrowser(t) // stopped before the site, whose server waits for open streams
	ctx, poll, shot, step, text, count := b.ctx, b.poll, b.shot, b.step, b.text, b.count
	page := s.srv.URL + adminPath
	type css = chromedp.CSS

	// Log in: a wrong password first, then the right one.
	step("login form",
		chromedp.Navigate(page),
		chromedp.WaitVisible(css(`#log`)),
		shot("login"),
		chromedp.SendKeys(css(`#log`), "admin"),
		chromedp.SendKeys(css(`#pwd`), "not the password"),
		chromedp.Click(css(`#login-submit`)),
		chromedp.WaitVisible(css(`#login-error`)),
		chromedp.SetValue(css(`#pwd`), s.adminPW),
		chromedp.Click(css(`#login-submit`)),
		chromedp.WaitVisible(css(`#stat-total`)),
	)
	step("dashboard", shot("dashboard"))
	require.Equal(t, "0", text(`#stat-total`), "nothing generated yet")

	// By keyboard: Tab reaches the skip link, then the menu, with a
	// visible focus; Enter follows a link.
	step("keyboard",
		chromedp.KeyEvent(kb.Tab),
		poll(`document.activeElement.classList.contains('skip')`),
		chromedp.KeyEvent(kb.Tab),
		poll(`document.activeElement.dataset.section === 'dashboard'`),
		poll(`getComputedStyle(document.activeElement).boxShadow !== 'none'`),
		chromedp.KeyEvent(kb.Tab),
		chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(css(`#gen-posts-form`)),
		chromedp.Navigate(page+"#/"),
		chromedp.WaitVisible(css(`#stat-total`)),
	)

	// Generate twenty posts with local images and comments through the
	// streaming form and watch the progress reach 100%.
	step("generate",
		chromedp.Click(css(`#nav a[data-section="generate"]`)),
		chromedp.WaitVisible(css(`#gen-posts-form`)),
		chromedp.SetValue(css(`#gen-posts-form [name="count"]`), "20"),
		chromedp.SetValue(css(`#gen-posts-form [name="image_provider"]`), "provider_local"),
		chromedp.SetValue(css(`#gen-posts-form [name="image_width"]`), "400"),
		chromedp.SetValue(css(`#gen-posts-form [name="image_height"]`), "300"),
		chromedp.Click(css(`#gen-posts-form [name="auto_comments"]`)),
		chromedp.Click(css(`#gen-posts-form [name="enable_variation"]`)), // every post fully populated
		chromedp.SetValue(css(`#gen-posts-form [name="comments_per_post_min"]`), "2"),
		chromedp.SetValue(css(`#gen-posts-form [name="comments_per_post_max"]`), "4"),
		chromedp.Click(css(`#gen-submit`)),
		poll(`document.getElementById('gen-progress').value === 100 && !!document.querySelector('#gen-result .alert-success')`),
		shot("generate"),
	)
	require.Equal(t, "100%", text(`#gen-percent`))
	require.Zero(t, count(`#gen-cancel:not([hidden])`), "nothing to cancel after the run")
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`getComputedStyle(document.getElementById('gen-cancel')).display === 'none'`))
	require.NoError(t, err)
	require.True(t, hidden, "the Cancel button is not shown when nothing runs")
	require.GreaterOrEqual(t, count(`#gen-log li`), 3, "the log shows the run's events")
	posts, err := s.host.Posts(t.Context(), contentgen.PostQuery{Types: []string{"post"}})
	require.NoError(t, err)
	var generated []contentgen.Post
	for _, p := range posts {
		if p.Meta.Generated() {
			generated = append(generated, p)
		}
	}
	require.Len(t, generated, 20)

	// Open a generated post as a reader would see it.
	want := generated[0]
	comments, err := s.host.Comments(t.Context(), contentgen.CommentQuery{PostIDs: contentgen.OnlyIDs(want.ID)})
	require.NoError(t, err)
	require.NotEmpty(t, comments)
	step("read a post",
		chromedp.Click(css(`#gen-result a`)),
		chromedp.WaitVisible(css(`#post-list`)),
		chromedp.Click(css(`#post-list a[href="#/post/`+strconv.FormatInt(want.ID, 10)+`"]`)),
		chromedp.WaitVisible(css(`#post-title`)),
		poll(`document.querySelector('#post-content').textContent.trim().length > 20`),
		poll(`document.querySelector('.featured img').complete && document.querySelector('.featured img').naturalWidth > 0`),
		shot("post"),
	)
	require.Equal(t, want.Title, text(`#post-title`))
	require.Equal(t, len(comments), count(`#post-comments .comment`), "every comment is shown, replies under what they answer")
	require.Zero(t, count(`#post-content script, #post-content [onerror], #post-content iframe`))

	// A post whose stored body tries to run script shows as text and
	// markup only: nothing of it runs in the page.
	hostile, err := s.host.CreatePosts(t.Context(), []contentgen.Post{{
		Type: "post", Status: contentgen.StatusPublish, Title: "Hostile body",
		Content: `<p>Before</p><script>window.__pwned = "script"</script>` +
			`<img src="x" onerror="window.__pwned = 'onerror'"><a href="javascript:window.__pwned='link'" id="js-link">link</a>` +
			`<iframe srcdoc="<script>parent.__pwned='iframe'</script>"></iframe><svg><script>window.__pwned='svg'</script></svg>` +
			`<p style="background:url(javascript:alert(1))" onclick="window.__pwned='click'" id="clickme">After</p>`,
	}})
	require.NoError(t, err)
	step("hostile post",
		chromedp.Navigate(page+"#/post/"+strconv.FormatInt(hostile[0], 10)),
		chromedp.WaitVisible(css(`#post-title`)),
		poll(`document.querySelector('#post-content').textContent.includes('After')`),
		chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('#post-content a, #post-content p').forEach((e) => e.click())`),
	)
	pwned, err := chromedp.Run(ctx, chromedp.Evaluate[string](`String(window.__pwned)`))
	require.NoError(t, err)
	require.Equal(t, "undefined", pwned, "no script of a stored body runs in the admin page")
	require.Zero(t, count(`#post-content script, #post-content [onerror], #post-content [onclick], #post-content iframe, #post-content [style], #post-content a[href^="javascript:"]`))

	// Delete one history entry, without its content.
	step("history",
		chromedp.Click(css(`#nav a[data-section="history"]`)),
		chromedp.WaitVisible(css(`#history-table`)),
		shot("history"),
	)
	first, err := chromedp.Run(ctx, chromedp.AttributeValue(css(`#history-table tbody tr`), "data-id"))
	require.NoError(t, err)
	firstID := first.Value
	require.NotEmpty(t, firstID)
	entries, before, err := s.gen.History().List(t.Context(), contentgen.HistoryQuery{})
	require.NoError(t, err)
	var kind string
	for _, e := range entries {
		if e.ID == firstID {
			kind = e.ContentType
		}
	}
	require.NotEmpty(t, kind)
	itemsBefore := s.countKind(t, kind)
	step("delete entry",
		chromedp.Click(css(`#history-table tr[data-id="`+firstID+`"] .del-entry`)),
		poll(`!!document.querySelector('#history-table') && !document.querySelector('#history-table tr[data-id="`+firstID+`"]')`),
	)
	_, after, err := s.gen.History().List(t.Context(), contentgen.HistoryQuery{})
	require.NoError(t, err)
	require.Equal(t, before-1, after)
	require.Equal(t, itemsBefore, s.countKind(t, kind), "the entry went, its content stays")

	// Cancel a run while its images are held: the page aborts the
	// stream and the server stops.
	s.images.hold()
	step("cancel",
		chromedp.Navigate(page+"#/generate/posts"),
		chromedp.WaitVisible(css(`#gen-posts-form`)),
		chromedp.SetValue(css(`#gen-posts-form [name="count"]`), "500"),
		chromedp.SetValue(css(`#gen-posts-form [name="image_provider"]`), "provider_local"),
		chromedp.Click(css(`#gen-submit`)),
		poll(`document.querySelectorAll('#gen-log li').length > 0`),
		shot("generate-midrun"),
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
		poll(`!document.getElementById('gen-cancel').hidden`),
		shot("phone-generate-midrun"),
		chromedp.EmulateViewport(1280, 900),
		chromedp.Click(css(`#gen-cancel`)),
		poll(`!!document.querySelector('#gen-log li.warn') && !document.querySelector('#gen-submit').disabled`),
	)
	require.Contains(t, text(`#gen-log li.warn`), "Cancelled")
	require.Less(t, mustFloat(t, text(`#gen-percent`)), 100.0)
	for stopped := false; !stopped; {
		select {
		case msg := <-s.logs:
			stopped = strings.Contains(msg, "run stopped")
		case <-ctx.Done():
			t.Fatal("the server did not stop the cancelled run")
		}
	}
	s.images.release()
	_, total, err := s.gen.History().List(t.Context(), contentgen.HistoryQuery{Kind: contentgen.KindPost})
	require.NoError(t, err)
	require.Less(t, total, 20+500, "the run stopped before its end")

	// Delete everything generated from the history view, after a
	// confirmation: the site is back to its hand-made content.
	step("cleanup all",
		chromedp.Navigate(page+"#/history"),
		chromedp.WaitVisible(css(`#cleanup-all`)),
		chromedp.Click(css(`#cleanup-all`)),
		chromedp.WaitVisible(css(`#confirm-ok`)),
		chromedp.Click(css(`#confirm-ok`)),
		poll(`!document.querySelector('#cleanup-all').disabled && !document.querySelector('#history-table tbody tr[data-id]')`),
	)
	_, total, err = s.gen.History().List(t.Context(), contentgen.HistoryQuery{})
	require.NoError(t, err)
	require.Zero(t, total, "cleanup leaves no history")
	posts, err = s.host.Posts(t.Context(), contentgen.PostQuery{})
	require.NoError(t, err)
	for _, p := range posts {
		require.False(t, p.Meta.Generated(), "cleanup leaves no generated post")
	}

	// Generate terms and users through their forms.
	step("terms and users",
		chromedp.Navigate(page+"#/generate/terms"),
		chromedp.WaitVisible(css(`#gen-terms-form`)),
		chromedp.Click(css(`#gen-terms-form [name="generate_hierarchy"]`)),
		chromedp.SetValue(css(`#gen-terms-form [name="depth"]`), "2"),
		chromedp.SetValue(css(`#gen-terms-form [name="breadth"]`), "2"),
		chromedp.Click(css(`#gen-terms-form button[type="submit"]`)),
		chromedp.WaitVisible(css(`#gen-terms-form .alert-success`)),
		chromedp.Navigate(page+"#/generate/users"),
		chromedp.WaitVisible(css(`#gen-users-form`)),
		chromedp.SetValue(css(`#gen-users-form [name="count"]`), "2"),
		chromedp.Click(css(`#gen-users-form [name="generate_avatars"]`)),
		chromedp.Click(css(`#gen-users-form button[type="submit"]`)),
		chromedp.WaitVisible(css(`#gen-users-form .alert-success`)),
	)
	users, err := s.host.Users(t.Context(), contentgen.UserQuery{})
	require.NoError(t, err)
	generatedUsers := 0
	for _, u := range users {
		if u.Meta.Generated() {
			generatedUsers++
		}
	}
	require.GreaterOrEqual(t, generatedUsers, 2)

	// Create a template in the editor.
	step("new template",
		chromedp.Navigate(page+"#/template/new?post_type=post"),
		chromedp.WaitVisible(css(`#template-form`)),
		chromedp.SendKeys(css(`#template-form [name="name"]`), "Short posts"),
		chromedp.Click(css(`#tmpl-save`)),
		chromedp.WaitVisible(css(`#templates-table`)),
		poll(`[...document.querySelectorAll('#templates-table a')].some((a) => a.textContent === 'Short posts')`),
	)
	tmpls, err := s.gen.Templates().List(t.Context(), templates.Filter{})
	require.NoError(t, err)
	require.Len(t, tmpls, 1)
	require.Equal(t, "post", tmpls[0].PostType)

	// Every other view renders without an error.
	tree := "/browse/terms?taxonomy=category"
	for _, route := range []string{"/browse/users", tree, "/browse/media", "/generate/comments",
		"/templates", "/template/" + strconv.FormatInt(tmpls[0].ID, 10), "/template/new?post_type=book", "/settings"} {
		step("view "+route,
			chromedp.Navigate(page+"#"+route),
			poll(`document.getElementById('main').dataset.route === `+strconv.Quote(route)),
			shot("view"+strings.NewReplacer("/", "-", "?", "-", "=", "-").Replace(route)),
		)
		require.Zero(t, count(`main .alert-error`), "view %s", route)
		if route == tree {
			cats, err := s.host.Terms(t.Context(), contentgen.TermQuery{Taxonomies: []string{"category"}})
			require.NoError(t, err)
			children := 0
			for _, c := range cats {
				if c.ParentID != 0 {
					children++
				}
			}
			require.Equal(t, 4, children, "two levels of two")
			require.Equal(t, len(cats), count(`#main .tree li`))
			require.Equal(t, children, count(`#main .tree .tree > li`), "children are shown under their parents")
		}
	}

	// A server without a runs service (this one keeps the site in
	// memory) says so on the Runs view instead of failing.
	step("runs unavailable",
		chromedp.Navigate(page+"#/runs"),
		chromedp.WaitVisible(css(`#runs-unavailable`)),
		shot("runs-unavailable"),
	)
	require.Zero(t, count(`main .alert-error`))
	require.Contains(t, text(`#runs-unavailable`), "Runs are not set up on this server")
	require.Equal(t, "The server says: runs are not available here: this site is kept in memory", text(`#runs-unavailable-why`), "the server's reason is shown")
	require.Zero(t, count(`#run-form`), "no form to start what cannot run")

	// Phone width: the menu folds away behind a button.
	phonePost, err := s.host.Posts(t.Context(), contentgen.PostQuery{Limit: 1})
	require.NoError(t, err)
	require.NotEmpty(t, phonePost)
	{
		step("phone",
			chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
			chromedp.Navigate(page+"#/post/"+strconv.FormatInt(phonePost[0].ID, 10)),
			chromedp.WaitVisible(css(`#post-title`)),
			shot("phone-post"),
			chromedp.Navigate(page+"#/"),
			chromedp.WaitVisible(css(`#stat-total`)),
			chromedp.Click(css(`#menu-toggle`)),
			chromedp.WaitVisible(css(`#nav`)),
			shot("phone-dashboard"),
			chromedp.Navigate(page+"#/generate/posts"),
			chromedp.WaitVisible(css(`#gen-posts-form`)),
			shot("phone-generate"),
			chromedp.EmulateViewport(1280, 900),
		)
	}

	// Switch the page to German in the settings.
	step("german",
		chromedp.Navigate(page+"#/settings"),
		chromedp.WaitVisible(css(`#settings-form`)),
		chromedp.SetValue(css(`#admin-locale`), "de_DE"),
		chromedp.Click(css(`#settings-save`)),
		poll(`document.querySelector('#nav a[data-section="dashboard"]').textContent === 'Übersicht'`),
	)
	require.Equal(t, "Verlauf", text(`#nav a[data-section="history"]`))
	require.Equal(t, "Läufe", text(`#nav a[data-section="runs"]`))
	require.Equal(t, "Abmelden", text(`#logout`))
	missing, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`import(`+strconv.Quote(page+"assets/i18n.js")+`).then((m) => m.missing())`, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	require.Empty(t, missing, "every text exists in English and German")
	step("german dashboard",
		chromedp.Navigate(page+"#/"),
		chromedp.WaitVisible(css(`#stat-total`)),
		poll(`document.querySelector('main h1').textContent === 'Übersicht'`),
		shot("dashboard-de"),
	)
	prefs, err := httpapi.LoadPreferences(t.Context(), s.gen)
	require.NoError(t, err)
	require.Equal(t, "de_DE", prefs.AdminLocale)

	// A session unused for too long ends: the next call of the page
	// leads back to the login form, which says why.
	s.clock.Advance(2 * time.Hour)
	step("expired",
		chromedp.Click(css(`#nav a[data-section="history"]`)),
		chromedp.WaitVisible(css(`#login-notice`)),
	)
	require.Contains(t, text(`#login-notice`), "Sitzung ist abgelaufen")
	step("login again",
		chromedp.SendKeys(css(`#log`), "admin"),
		chromedp.SendKeys(css(`#pwd`), s.adminPW),
		chromedp.Click(css(`#login-submit`)),
		chromedp.WaitVisible(css(`#stat-total`)),
	)

	// Log out: the page is gone until the next login.
	step("logout",
		chromedp.Click(css(`#logout`)),
		chromedp.WaitVisible(css(`#login-notice`)),
		chromedp.Navigate(page),
		chromedp.WaitVisible(css(`#log`)),
	)
}

// mustFloat reads a percentage such as "42%".
func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	require.NoError(t, err, s)
	return f
}

// countKind counts the host's items of a history content type.
func (s *site) countKind(t *testing.T, kind string) int {
	t.Helper()
	ctx := t.Context()
	var n int
	var err error
	switch kind {
	case "post":
		var posts []contentgen.Post
		posts, err = s.host.Posts(ctx, contentgen.PostQuery{})
		n = len(posts)
	case "comment":
		var comments []contentgen.Comment
		comments, err = s.host.Comments(ctx, contentgen.CommentQuery{})
		n = len(comments)
	case "term":
		var terms []contentgen.Term
		terms, err = s.host.Terms(ctx, contentgen.TermQuery{})
		n = len(terms)
	case "user":
		var users []contentgen.User
		users, err = s.host.Users(ctx, contentgen.UserQuery{})
		n = len(users)
	case "media":
		var media []contentgen.Media
		media, err = s.host.Media(ctx, contentgen.MediaQuery{})
		n = len(media)
	default:
		t.Fatalf("unknown content type %q", kind)
	}
	require.NoError(t, err)
	return n
}
