package httpapi_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/auth"
	"github.com/contentgen/contentgen/templates"
)

// writeCountingState counts the writes to a state store: settings, AI
// keys, time saved and caches all go through Update.
type writeCountingState struct {
	*memhost.StateStore
	writes atomic.Int64
}

func (s *writeCountingState) Update(ctx context.Context, key string, fn func([]byte) ([]byte, error)) error {
	s.writes.Add(1)
	return s.StateStore.Update(ctx, key, fn)
}

// matrixEnv is a site with generated content, a template, an
// administrator and an editor with application passwords, and live
// cookie sessions of both.
type matrixEnv struct {
	srv      *httptest.Server
	api      *httpapi.API
	host     *memhost.Host
	gen      *contentgen.Generator
	state    *writeCountingState
	sessions *auth.Sessions
	adminPW  string
	editorPW string
	// Path values that name existing things, so that a request that got
	// through would change or reveal them.
	postID, templateID int64
	historyID          string
}

func newMatrixEnv(t *testing.T) *matrixEnv {
	t.Helper()
	ctx := context.Background()
	host, err := demosite.New(nil)
	require.NoError(t, err)
	seed := int64(11)
	state := &writeCountingState{StateStore: memhost.NewStateStore()}
	gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed, State: state, MaxCount: 20})
	require.NoError(t, err)
	_, err = host.CreateUsers(ctx, []contentgen.User{{Login: "editor1", Email: "editor1@example.com", DisplayName: "Editor", Roles: []string{"editor"}}})
	require.NoError(t, err)

	// Every bad credential must reach the password check rather than the
	// throttle, and the check must be cheap enough to run hundreds.
	pw, err := auth.NewPasswords(&auth.PasswordOptions{Throttle: &auth.ThrottleOptions{UserFailures: 1 << 30, AddrFailures: 1 << 30, UserFailuresAnyClient: 1 << 30}})
	require.NoError(t, err)
	httpapi.CheapHashes(pw)
	adminPW, err := pw.NewAppPassword("admin", "tests")
	require.NoError(t, err)
	editorPW, err := pw.NewAppPassword("editor1", "tests")
	require.NoError(t, err)
	sessions, err := auth.NewSessions(nil)
	require.NoError(t, err)
	dir := auth.GeneratorDirectory(gen)
	api, err := httpapi.New(gen, &httpapi.Options{
		Auth:     auth.Chain(&auth.Basic{Passwords: pw, Users: dir}, &auth.Cookie{Sessions: sessions, Users: dir}),
		Sessions: sessions,
	})
	require.NoError(t, err)
	mux := http.NewServeMux()
	httpapi.Mount(mux, base, api)
	srv := httptest.NewServer(checkContract(t, mux))
	t.Cleanup(srv.Close)

	// Generated content of every kind, for the refused requests to miss.
	posts, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(2), SetFeaturedImage: new(false)})
	require.NoError(t, err)
	_, err = gen.GenerateTerms(ctx, contentgen.TermsRequest{Count: new(2)})
	require.NoError(t, err)
	_, err = gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(1), GenerateAvatars: new(false)})
	require.NoError(t, err)
	_, err = gen.GenerateComments(ctx, contentgen.CommentsRequest{PostIDs: posts.IDs})
	require.NoError(t, err)
	tpl, err := gen.Templates().Create(ctx, templates.Input{Name: "Matrix", PostType: "post"})
	require.NoError(t, err)
	items, _, err := gen.History().List(ctx, contentgen.HistoryQuery{})
	require.NoError(t, err)
	require.NotEmpty(t, items)

	return &matrixEnv{
		srv: srv, api: api, host: host, gen: gen, state: state, sessions: sessions,
		adminPW: adminPW, editorPW: editorPW,
		postID: posts.IDs[0], templateID: tpl.ID, historyID: items[0].ID,
	}
}

// snapshot is everything a request could change.
type snapshot struct {
	Posts     []contentgen.Post
	Terms     []contentgen.Term
	Users     []contentgen.User
	Comments  []contentgen.Comment
	Media     []contentgen.Media
	History   []contentgen.HistoryItem
	Total     int
	Settings  contentgen.Settings
	Templates []templates.Template
	Writes    int64
}

func (e *matrixEnv) snapshot(t *testing.T) snapshot {
	t.Helper()
	ctx := context.Background()
	var s snapshot
	var err error
	s.Posts, err = e.host.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	s.Terms, err = e.host.Terms(ctx, contentgen.TermQuery{})
	require.NoError(t, err)
	s.Users, err = e.host.Users(ctx, contentgen.UserQuery{})
	require.NoError(t, err)
	s.Comments, err = e.host.Comments(ctx, contentgen.CommentQuery{})
	require.NoError(t, err)
	s.Media, err = e.host.Media(ctx, contentgen.MediaQuery{})
	require.NoError(t, err)
	s.History, s.Total, err = e.gen.History().List(ctx, contentgen.HistoryQuery{Limit: new(1000)})
	require.NoError(t, err)
	s.Settings, err = e.gen.Settings().Get(ctx)
	require.NoError(t, err)
	s.Templates, err = e.gen.Templates().List(ctx, templates.Filter{})
	require.NoError(t, err)
	s.Writes = e.state.writes.Load()
	return s
}

// credential is one way of presenting (bad) credentials.
type credential struct {
	name   string
	status int    // the expected refusal
	code   string // the expected error code
	apply  func(r *http.Request)
}

func basicHeader(raw string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(raw))
}

func (e *matrixEnv) credentials(t *testing.T) []credential {
	t.Helper()
	session := func(login string) *http.Cookie {
		c, err := e.sessions.Create(login)
		require.NoError(t, err)
		return c
	}
	nonceOf := func(login string, c *http.Cookie) string {
		return e.sessions.Nonce(&auth.Principal{Login: login, Session: c.Value})
	}
	adminSession, otherAdminSession, editorSession := session("admin"), session("admin"), session("editor1")
	ended := session("admin")
	endedNonce := nonceOf("admin", ended)
	e.sessions.End(ended.Value)

	const unauthorized, forbidden = http.StatusUnauthorized, http.StatusForbidden
	const notLoggedIn, noCapability = "rest_not_logged_in", "rest_forbidden"
	header := func(name, value string) func(*http.Request) {
		return func(r *http.Request) { r.Header.Set(name, value) }
	}
	return []credential{
		{"anonymous", unauthorized, notLoggedIn, func(*http.Request) {}},
		{"wrong password", unauthorized, notLoggedIn, func(r *http.Request) { r.SetBasicAuth("admin", "abcd efgh ijkl mnop qrst uvwx") }},
		{"password without its spaces", unauthorized, notLoggedIn, func(r *http.Request) { r.SetBasicAuth("admin", strings.ReplaceAll(e.adminPW, " ", "")) }},
		{"unknown user", unauthorized, notLoggedIn, func(r *http.Request) { r.SetBasicAuth("ghost", e.adminPW) }},
		{"login in other case", unauthorized, notLoggedIn, func(r *http.Request) { r.SetBasicAuth("ADMIN", e.adminPW) }},
		{"empty password", unauthorized, notLoggedIn, func(r *http.Request) { r.SetBasicAuth("admin", "") }},
		{"empty login and password", unauthorized, notLoggedIn, func(r *http.Request) { r.SetBasicAuth("", "") }},
		{"another user's application password", unauthorized, notLoggedIn, func(r *http.Request) { r.SetBasicAuth("admin", e.editorPW) }},
		{"malformed Basic: not base64", unauthorized, notLoggedIn, header("Authorization", "Basic !!!not-base64!!!")},
		{"malformed Basic: no colon", unauthorized, notLoggedIn, header("Authorization", basicHeader("admin"+e.adminPW))},
		{"malformed Basic: empty", unauthorized, notLoggedIn, header("Authorization", "Basic ")},
		{"malformed Basic: NUL in login", unauthorized, notLoggedIn, header("Authorization", basicHeader("admin\x00:"+e.adminPW))},
		{"other scheme", unauthorized, notLoggedIn, header("Authorization", "Bearer "+e.adminPW)},
		{"underprivileged user", forbidden, noCapability, func(r *http.Request) { r.SetBasicAuth("editor1", e.editorPW) }},
		{"underprivileged user's session", forbidden, noCapability, func(r *http.Request) {
			r.AddCookie(editorSession)
			r.Header.Set("X-Host-Nonce", nonceOf("editor1", editorSession))
		}},
		{"nonce without session", unauthorized, notLoggedIn, header("X-Host-Nonce", nonceOf("admin", adminSession))},
		{"legacy nonce header without session", unauthorized, notLoggedIn, header("X-WP-Nonce", nonceOf("admin", adminSession))},
		{"session without nonce", unauthorized, notLoggedIn, func(r *http.Request) { r.AddCookie(adminSession) }},
		{"session with forged nonce", unauthorized, notLoggedIn, func(r *http.Request) {
			r.AddCookie(adminSession)
			r.Header.Set("X-Host-Nonce", "forged")
		}},
		{"session with another session's nonce", unauthorized, notLoggedIn, func(r *http.Request) {
			r.AddCookie(adminSession)
			r.Header.Set("X-Host-Nonce", nonceOf("admin", otherAdminSession))
		}},
		{"session with the nonce of the login alone", unauthorized, notLoggedIn, func(r *http.Request) {
			r.AddCookie(adminSession)
			r.Header.Set("X-Host-Nonce", e.sessions.Nonce(&auth.Principal{Login: "admin"}))
		}},
		{"unknown session with nonce", unauthorized, notLoggedIn, func(r *http.Request) {
			r.AddCookie(&http.Cookie{Name: e.sessions.CookieName, Value: "no-such-session"})
			r.Header.Set("X-Host-Nonce", nonceOf("admin", adminSession))
		}},
		{"ended session with its nonce", unauthorized, notLoggedIn, func(r *http.Request) {
			r.AddCookie(ended)
			r.Header.Set("X-Host-Nonce", endedNonce)
		}},
	}
}

var wildcard = regexp.MustCompile(`\{([a-z_]+)\}`)

// path returns the route's pattern with every wildcard replaced by a value
// that names something existing.
func (e *matrixEnv) path(t *testing.T, route httpapi.Route) string {
	t.Helper()
	return wildcard.ReplaceAllStringFunc(route.Pattern, func(w string) string {
		switch name := w[1 : len(w)-1]; {
		case name == "id" && strings.HasPrefix(route.Pattern, "/history/"):
			return e.historyID
		case name == "id" && strings.HasPrefix(route.Pattern, "/templates/"), name == "first":
			return strconv.FormatInt(e.templateID, 10)
		case name == "id":
			return strconv.FormatInt(e.postID, 10)
		case name == "second":
			return "effective-config"
		case name == "post_type":
			return "post"
		case name == "taxonomy":
			return "category"
		case name == "field_type":
			return "text"
		default:
			t.Fatalf("route %s has wildcard %s the matrix does not know; add a value for it", route, w)
			return ""
		}
	})
}

// hostileBody is a request body that would change state on most routes
// if the request were let through.
const hostileBody = `{"count":2,"post_type":"post","type":"post","ids":[1,2,3,4,5,6,7,8,9,10],"force":true,
"delete_scope":"all","taxonomy":"category","post_ids":[1],"name":"Hostile","is_default":true,
"delete_content":true,"default_post_count":7,"hourly_rate":99,"provider":"provider_local",
"templates":[{"name":"Imported","post_type":"post"}],"license_key":"x","api_key":"x"}`

// TestAuthorizationMatrix sends every route of the API, as the API itself
// lists them, with every kind of missing, wrong or insufficient
// credentials, and requires the specification's refusal and no change to
// anything stored. A route added later is covered without editing this
// test.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	e := newMatrixEnv(t)
	routes := e.api.Routes()
	require.GreaterOrEqual(t, len(routes), 60, "the API lists its routes")
	creds := e.credentials(t)
	before := e.snapshot(t)
	require.NotEmpty(t, before.Posts)
	require.NotEmpty(t, before.Templates)
	require.Positive(t, before.Total)

	for _, route := range routes {
		path := e.path(t, route)
		// The filled path must reach the route under test, not a
		// neighbour or the not-found answer.
		probe := httptest.NewRequest(route.Method, path, nil)
		require.Equal(t, route.String(), e.api.PatternOf(probe), "%s does not route to %s", path, route)

		for _, c := range creds {
			req, err := http.NewRequest(route.Method, e.srv.URL+base+path, strings.NewReader(hostileBody))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			c.apply(req)
			resp, err := e.srv.Client().Do(req)
			require.NoError(t, err)
			raw, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.NoError(t, err)

			where := route.String() + " with " + c.name
			require.Equal(t, c.status, resp.StatusCode, "%s: %s", where, raw)
			require.Equal(t, "application/json; charset=utf-8", resp.Header.Get("Content-Type"), where)
			var body map[string]any
			require.NoError(t, json.Unmarshal(raw, &body), "%s: %s", where, raw)
			require.Len(t, body, 3, "%s: the envelope is {success, code, message}: %s", where, raw)
			require.Equal(t, false, body["success"], where)
			require.Equal(t, c.code, body["code"], where)
			require.IsType(t, "", body["message"], where)
			require.NotEmpty(t, body["message"], where)
			switch {
			case c.status != http.StatusUnauthorized:
			case req.Header.Get("X-Host-Nonce") != "" || req.Header.Get("X-WP-Nonce") != "":
				// A page of a cookie session handles 401 itself; a
				// Basic challenge would make the browser prompt over it.
				require.Empty(t, resp.Header.Get("WWW-Authenticate"), where)
			default:
				require.Contains(t, resp.Header.Get("WWW-Authenticate"), "Basic realm=", where)
			}
			require.Equal(t, before, e.snapshot(t), "%s changed stored state", where)
		}
	}

	// The same requests with valid credentials are not refused, so the
	// refusals above came from the credentials and nothing else. They run
	// last because they change state.
	for _, route := range routes {
		if route.Pattern == "/generate/posts/stream" {
			continue // a stream; covered by its own tests
		}
		req, err := http.NewRequest(route.Method, e.srv.URL+base+e.path(t, route), strings.NewReader(hostileBody))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth("admin", e.adminPW)
		resp, err := e.srv.Client().Do(req)
		require.NoError(t, err)
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NotContains(t, []int{http.StatusUnauthorized, http.StatusForbidden}, resp.StatusCode, "%s as admin: %s", route, raw)
	}
}
