package httpapi_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/auth"
	"github.com/contentgen/contentgen/httpapi/internal/openapidoc"
)

var update = flag.Bool("update", false, "rewrite openapi.json from httpapi/internal/openapidoc")

// TestOpenAPIFileIsCurrent requires the committed openapi.json to be the
// document openapidoc builds; -update rewrites it.
func TestOpenAPIFileIsCurrent(t *testing.T) {
	want, err := openapidoc.JSON()
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.WriteFile("openapi.json", want, 0o644))
		return
	}
	got, err := os.ReadFile("openapi.json")
	require.NoError(t, err)
	require.True(t, bytes.Equal(want, got),
		"openapi.json is stale: run go test ./httpapi -run TestOpenAPIFileIsCurrent -update and commit it")
	require.Equal(t, got, httpapi.OpenAPI(), "the embedded document is the file")
}

// TestOpenAPIDocumentIsValid checks the document against the OpenAPI 3.1
// schema and builds every schema in it.
func TestOpenAPIDocumentIsValid(t *testing.T) {
	t.Parallel()
	doc, err := libopenapi.NewDocument(httpapi.OpenAPI())
	require.NoError(t, err)
	require.Equal(t, "3.1.0", doc.GetVersion())
	v, errs := validator.NewValidator(doc)
	require.Empty(t, errs)
	ok, verrs := v.ValidateDocument()
	require.True(t, ok, "%v", describe("document", verrs))
	loadContract(t)
}

// documentedOperation is an operation as the document states it.
type documentedOperation struct {
	method, path, id string
	// route is the ServeMux pattern serving it: x-route, or the method
	// and path.
	route string
}

func documentedOperations(t *testing.T) []documentedOperation {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Route       string `json:"x-route"`
		} `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(httpapi.OpenAPI(), &doc))
	var out []documentedOperation
	for path, item := range doc.Paths {
		for method, o := range item {
			m := strings.ToUpper(method)
			route := o.Route
			if route == "" {
				route = m + " " + path
			}
			out = append(out, documentedOperation{method: m, path: path, id: o.OperationID, route: route})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].route+out[i].path < out[j].route+out[j].path })
	return out
}

func newBareAPI(t *testing.T) *httpapi.API {
	t.Helper()
	host, err := demosite.New(nil)
	require.NoError(t, err)
	gen, err := contentgen.New(host, history.NewMemStore(nil), nil)
	require.NoError(t, err)
	authn, err := auth.New(auth.GeneratorDirectory(gen), nil)
	require.NoError(t, err)
	api, err := httpapi.New(gen, &httpapi.Options{Auth: authn})
	require.NoError(t, err)
	return api
}

var pathParam = regexp.MustCompile(`\{([a-z_]+)\}`)

// TestOpenAPIMatchesRouter requires every route of the API to be
// documented with the same method and path template, and every
// documented operation to be served by the route it names.
func TestOpenAPIMatchesRouter(t *testing.T) {
	t.Parallel()
	api := newBareAPI(t)
	ops := documentedOperations(t)
	documented := map[string][]documentedOperation{}
	ids := map[string]bool{}
	for _, o := range ops {
		documented[o.route] = append(documented[o.route], o)
		require.NotEmpty(t, o.id, "%s %s has no operationId", o.method, o.path)
		require.False(t, ids[o.id], "operationId %s is used twice", o.id)
		ids[o.id] = true
	}
	served := map[string]bool{}
	for _, r := range api.Routes() {
		served[r.String()] = true
		require.NotEmpty(t, documented[r.String()], "route %s is served but not documented in openapi.json", r)
	}
	for _, o := range ops {
		require.True(t, served[o.route], "%s %s is documented (route %s) but the API serves no such route", o.method, o.path, o.route)
		if o.route != o.method+" "+o.path {
			_, routePath, _ := strings.Cut(o.route, " ")
			require.True(t, strings.HasPrefix(o.route, o.method+" "), "%s %s names route %s of another method", o.method, o.path, o.route)
			require.Equal(t, strings.Count(routePath, "/"), strings.Count(o.path, "/"), "%s does not have the shape of route %s", o.path, o.route)
		}
		// A request to the documented path, with sample values in its
		// parameters, reaches the route that the document names.
		path := pathParam.ReplaceAllStringFunc(o.path, func(w string) string {
			if name := w[1 : len(w)-1]; name == "id" {
				return "12"
			} else if name == "field_type" {
				return "text"
			}
			return "sample"
		})
		require.Equal(t, o.route, api.PatternOf(httptest.NewRequest(o.method, path, nil)), "%s %s is not served by %s", o.method, path, o.route)
	}
	// Each route that serves several documented paths serves only paths
	// that differ from its own.
	for route, list := range documented {
		if len(list) > 1 {
			for _, o := range list {
				require.NotEqual(t, route, o.method+" "+o.path, "route %s is documented both as itself and through x-route", route)
			}
		}
	}
}

// TestOpenAPIServed requires GET /openapi.json to answer the document
// to an administrator and to refuse anyone else.
func TestOpenAPIServed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, raw := e.raw("GET", "/openapi.json", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, "%s", raw)
	require.JSONEq(t, string(httpapi.OpenAPI()), string(raw))
	var doc map[string]any
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Equal(t, "3.1.0", doc["openapi"])
	require.Equal(t, []any{map[string]any{"url": "/contentgen/v1", "description": doc["servers"].([]any)[0].(map[string]any)["description"]}}, doc["servers"])

	status, body := e.do("GET", "/openapi.json", nil, asNobody)
	require.Equal(t, http.StatusUnauthorized, status)
	require.Equal(t, "rest_not_logged_in", body["code"])
	status, body = e.do("GET", "/openapi.json", nil, asEditor)
	require.Equal(t, http.StatusForbidden, status)
	require.Equal(t, "rest_forbidden", body["code"])

	// The slice is the caller's own.
	b := httpapi.OpenAPI()
	b[0] = 'x'
	require.Equal(t, byte('{'), httpapi.OpenAPI()[0])
}

// TestContractCatchesDrift feeds the check answers that differ from the
// document in one way each, and requires each difference to be reported
// with the field at fault; the real answers they are made from pass.
func TestContractCatchesDrift(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	jsonHeader := http.Header{"Content-Type": {"application/json; charset=utf-8"}}
	languages := `{"success":true,"languages":[{"code":"de_DE","name":"German (Germany)","native_name":"Deutsch (Deutschland)","flag":"🇩🇪"}],"default":"en_US"}`
	stats := `{"success":true,"stats":{"total":2,"by_type":{"post":2},"by_subtype":[{"content_type":"post","content_subtype":"post","count":"2"}],` +
		`"recent_activity":[{"date":"2026-01-02","count":"2"}],"existing":{"post":2}}}`
	stream := "data: {\"type\":\"info\",\"message\":\"Post 1 of 1 created\"}\n\n: ping\n\n" +
		`data: {"type":"complete","result":{"success":true,"count":1,"ids":[5],"message":"1 post generated.","warnings":[],` +
		`"variation_stats":{"with_featured_image":0,"without_featured_image":1},` +
		`"auto_created":{"authors":0,"terms":{},"comments":0,"related_posts":0,"related_per_cpt":{}},"time_saved":"3 minutes"}}` + "\n\n"
	streamHeader := http.Header{"Content-Type": {"text/event-stream"}, "Cache-Control": {"no-store"}, "X-Accel-Buffering": {"no"}}
	notLoggedIn := `{"success":false,"code":"rest_not_logged_in","message":"You are not logged in."}`
	unauthorizedHeader := http.Header{"Content-Type": {"application/json; charset=utf-8"}, "Www-Authenticate": {`Basic realm="contentgen", charset="UTF-8"`}}

	cases := []struct {
		name           string
		method, target string
		status         int
		header         http.Header
		body           string
		// want are the substrings the report must contain; none for an
		// answer that matches.
		want []string
	}{
		{"languages as sent", "GET", base + "/languages", 200, jsonHeader, languages, nil},
		{"a field of the wrong type", "GET", base + "/languages", 200, jsonHeader, strings.Replace(languages, `"default":"en_US"`, `"default":7`, 1), []string{"default"}},
		{"a required field missing", "GET", base + "/languages", 200, jsonHeader, strings.Replace(languages, `,"native_name":"Deutsch (Deutschland)"`, "", 1), []string{"native_name"}},
		{"an undocumented field", "GET", base + "/languages", 200, jsonHeader, strings.Replace(languages, `"default"`, `"fallback":"en_US","default"`, 1), []string{"fallback"}},
		{"success false on success", "GET", base + "/languages", 200, jsonHeader, strings.Replace(languages, `"success":true`, `"success":false`, 1), []string{"success"}},
		{"stats as sent", "GET", base + "/history/stats", 200, jsonHeader, stats, nil},
		{"a string count sent as a number", "GET", base + "/history/stats", 200, jsonHeader, strings.Replace(stats, `"count":"2"}],"recent`, `"count":2}],"recent`, 1), []string{"count"}},
		{"an undocumented status", "GET", base + "/languages", 418, jsonHeader, `{"success":false,"code":"not_found","message":"x"}`, []string{"418"}},
		{"a code of another status", "GET", base + "/templates/5", 404, jsonHeader, `{"success":false,"code":"invalid_count","message":"x"}`, []string{"code"}},
		{"the error envelope with an extra field", "GET", base + "/templates/5", 404, jsonHeader, `{"success":false,"code":"not_found","message":"x","param":"id"}`, []string{"param"}},
		{"an error without code where the code is due", "GET", base + "/templates/5", 404, jsonHeader, `{"success":false,"message":"x"}`, []string{"code"}},
		{"the refusal as sent", "POST", base + "/generate/posts", 401, unauthorizedHeader, notLoggedIn, nil},
		{"the legacy envelope with success", "GET", base + "/cpts/all", 200, jsonHeader, `{"success":true,"result":[]}`, []string{"status"}},
		{"an unknown route answered 200", "GET", base + "/no/such/route", 200, jsonHeader, `{"success":true}`, []string{"no operation of the document"}},
		{"an unknown route answered as it is", "GET", base + "/no/such/route", 404, jsonHeader, `{"success":false,"code":"not_found","message":"No route."}`, nil},
		{"a stream as sent", "POST", base + "/generate/posts/stream", 200, streamHeader, stream, nil},
		{"a stream event of an unknown type", "POST", base + "/generate/posts/stream", 200, streamHeader, strings.Replace(stream, `"type":"info"`, `"type":"progress"`, 1), []string{"event 1"}},
		{"a complete event with a bad result", "POST", base + "/generate/posts/stream", 200, streamHeader, strings.Replace(stream, `"ids":[5]`, `"ids":"5"`, 1), []string{"event 2"}},
		{"a stream without its end", "POST", base + "/generate/posts/stream", 200, streamHeader, strings.SplitAfter(stream, "\n\n")[0], []string{"ends with event type \"info\""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			problems := c.check(&exchange{
				method: tc.method, target: tc.target, header: http.Header{"Authorization": {basicHeader("admin:x")}}, bodyComplete: true,
				status: tc.status, respHeader: tc.header, respBody: []byte(tc.body),
			})
			report := strings.Join(problems, "\n")
			if len(tc.want) == 0 {
				require.Empty(t, problems, "a matching answer was reported")
				return
			}
			require.NotEmpty(t, problems, "the difference was not reported")
			for _, w := range tc.want {
				require.Contains(t, report, w)
			}
		})
	}

	// A request the API accepted is checked too.
	problems := c.check(&exchange{
		method: "POST", target: base + "/generate/posts", header: http.Header{"Content-Type": {"application/json"}, "Authorization": {basicHeader("admin:x")}},
		body: []byte(`{"count":"five"}`), bodyComplete: true, status: 200, respHeader: jsonHeader,
		respBody: []byte(`{"success":true,"count":0,"ids":[],"message":"","warnings":[],"variation_stats":{"with_featured_image":0,"without_featured_image":0},` +
			`"auto_created":{"authors":0,"terms":{},"comments":0,"related_posts":0,"related_per_cpt":{}},"time_saved":"0 seconds"}`),
	})
	require.True(t, slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, "request") && strings.Contains(p, "count") }), "%v", problems)
}

// errorRecorder is a testing.TB whose Errorf records the report instead
// of failing the test.
type errorRecorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *errorRecorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *errorRecorder) reports() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.errs)
}

// TestCheckContractReportsThroughTheTest serves answers through
// checkContract and requires a wrong one to be reported to the test that
// owns the server, naming the operation and the field, and a right one
// not to be.
func TestCheckContractReportsThroughTheTest(t *testing.T) {
	t.Parallel()
	answer := `{"success":true,"languages":[],"default":"en_US"}`
	serve := func(t *testing.T, body string) []string {
		rec := &errorRecorder{TB: t}
		srv := httptest.NewServer(checkContract(rec, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			_, _ = io.WriteString(w, body)
		})))
		req, err := http.NewRequest("GET", srv.URL+base+"/languages", nil)
		require.NoError(t, err)
		req.SetBasicAuth("admin", "x")
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		srv.Close() // waits for the handler, and so for the check
		return rec.reports()
	}
	require.Empty(t, serve(t, answer))
	reports := serve(t, strings.Replace(answer, `"default":"en_US"`, `"default":null`, 1))
	require.Len(t, reports, 1)
	require.Contains(t, reports[0], "languages (GET /languages)")
	require.Contains(t, reports[0], "default")
}
