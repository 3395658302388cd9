package httpapi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	liberrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/router"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	highbase "github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"

	"github.com/contentgen/contentgen/httpapi"
)

// The API tests check every exchange with their test server against the
// OpenAPI document the API serves: checkContract wraps the server's
// handler, and a response (or the request of a successful exchange) that
// does not match the document fails the test that made it, naming the
// operation and the mismatch.

// contract is the OpenAPI document, ready to check exchanges against.
type contract struct {
	model     *v3.Document
	validator validator.Validator
	router    router.Router
	schemas   schema_validation.SchemaValidator
	// events is the schema of one event of the posts stream, runEvents
	// of a run's stream; errorEnvelope that of the answer of an unknown
	// route.
	events, runEvents, errorEnvelope *highbase.Schema
	// checked holds the ids of the operations that gave a successful
	// answer the document allows.
	checked sync.Map
	// mu serialises checks: the validator renders schemas lazily into
	// the shared model, which is not safe for concurrent use.
	mu sync.Mutex
}

var (
	contractOnce   sync.Once
	sharedContract *contract
	contractErr    error
)

// loadContract returns the contract of httpapi.OpenAPI, built once.
func loadContract(t testing.TB) *contract {
	t.Helper()
	contractOnce.Do(func() { sharedContract, contractErr = newContract(httpapi.OpenAPI()) })
	if contractErr != nil {
		t.Fatalf("the OpenAPI document cannot be used: %v", contractErr)
	}
	return sharedContract
}

func newContract(doc []byte) (*contract, error) {
	d, err := libopenapi.NewDocument(doc)
	if err != nil {
		return nil, err
	}
	m, err := d.BuildV3Model()
	if err != nil {
		return nil, err
	}
	c := &contract{
		model:     &m.Model,
		validator: validator.NewValidatorFromV3Model(&m.Model),
		router:    router.NewRouter(&m.Model, router.WithPathOnlyMatching()),
		schemas:   schema_validation.NewSchemaValidator(),
	}
	for name, dst := range map[string]**highbase.Schema{"StreamEvent": &c.events, "RunEvent": &c.runEvents, "Error": &c.errorEnvelope} {
		proxy := m.Model.Components.Schemas.GetOrZero(name)
		if proxy == nil {
			return nil, fmt.Errorf("components.schemas has no %s", name)
		}
		if *dst = proxy.Schema(); *dst == nil {
			return nil, fmt.Errorf("components.schemas.%s does not build: %v", name, proxy.GetBuildError())
		}
	}
	return c, nil
}

// exchange is one request and the answer it got.
type exchange struct {
	method string
	// target is the request URI as sent, base path included.
	target string
	header http.Header
	body   []byte
	// bodyComplete is false when body holds only the start of a request
	// body too large to check.
	bodyComplete bool

	status     int
	respHeader http.Header
	respBody   []byte
}

// check returns how x departs from the document, empty when it does not.
func (c *contract) check(x *exchange) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	req := httptest.NewRequest(x.method, x.target, bytes.NewReader(x.body))
	req.Header = x.header.Clone()
	_, err := c.router.FindRoute(req)
	if err != nil {
		// Not an operation of the document: only the refusals that
		// come before routing, or the unknown-route answers, may be
		// given, in the error envelope.
		var problems []string
		if !errors.Is(err, router.ErrPathNotFound) && !errors.Is(err, router.ErrMethodNotAllowed) {
			return []string{"routing against the document failed: " + err.Error()}
		}
		switch x.status {
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusMethodNotAllowed:
		default:
			problems = append(problems, fmt.Sprintf("%s %s is no operation of the document (%v), yet it was answered %d", x.method, req.URL.Path, err, x.status))
		}
		var v any
		if jerr := json.Unmarshal(x.respBody, &v); jerr != nil {
			return append(problems, "the answer is not JSON: "+jerr.Error())
		}
		if ok, errs := c.schemas.ValidateSchemaObject(c.errorEnvelope, v); !ok {
			problems = append(problems, describe("the answer is not the error envelope", errs)...)
		}
		return problems
	}
	resp := &http.Response{
		StatusCode: x.status, Header: x.respHeader.Clone(), Request: req,
		Body: io.NopCloser(bytes.NewReader(x.respBody)),
	}
	var problems []string
	if ok, errs := c.validator.ValidateHttpResponse(req, resp); !ok {
		problems = append(problems, describe("response", errs)...)
	}
	if x.status/100 == 2 && x.bodyComplete {
		// A request the API accepted must be one the document allows.
		req := httptest.NewRequest(x.method, x.target, bytes.NewReader(x.body))
		req.Header = x.header.Clone()
		if ok, errs := c.validator.ValidateHttpRequestSync(req); !ok {
			problems = append(problems, describe("request", errs)...)
		}
	}
	if mt, _, _ := mime.ParseMediaType(x.respHeader.Get("Content-Type")); x.status == http.StatusOK && mt == "text/event-stream" {
		events := c.events
		if strings.HasSuffix(req.URL.Path, "/events") {
			events = c.runEvents
		}
		problems = append(problems, c.checkStream(x.respBody, events)...)
	}
	return problems
}

// checkStream checks every event of an event stream against the schema
// of its events, and that the stream ends with a complete or error event.
func (c *contract) checkStream(stream []byte, events *highbase.Schema) []string {
	var problems []string
	last := ""
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "", strings.HasPrefix(line, ":"):
			continue
		case !strings.HasPrefix(line, "data: "):
			problems = append(problems, fmt.Sprintf("event stream line %q is neither data nor a comment", line))
			continue
		}
		n++
		var ev map[string]any
		if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev); err != nil {
			problems = append(problems, fmt.Sprintf("event %d is not a JSON object: %v", n, err))
			continue
		}
		if ok, errs := c.schemas.ValidateSchemaObject(events, ev); !ok {
			problems = append(problems, describe(fmt.Sprintf("event %d (%v)", n, ev["type"]), errs)...)
		}
		last, _ = ev["type"].(string)
	}
	if last != "complete" && last != "error" {
		problems = append(problems, fmt.Sprintf("the event stream ends with event type %q, not complete or error", last))
	}
	return problems
}

// describe writes validation errors one line each, with the fields at
// fault.
func describe(what string, errs []*liberrors.ValidationError) []string {
	var out []string
	for _, e := range errs {
		line := what + ": " + e.Message
		if e.Reason != "" && e.Reason != e.Message {
			line += " (" + e.Reason + ")"
		}
		for _, f := range e.SchemaValidationErrors {
			where := f.FieldPath
			if where == "" {
				where = "/" + strings.Join(f.InstancePath, "/")
			}
			line += fmt.Sprintf("; at %s: %s", where, f.Reason)
		}
		out = append(out, line)
	}
	return out
}

// operationOf names the document's operation for a request, for messages.
func (c *contract) operationOf(method, target string) string {
	route, err := c.router.FindRoute(httptest.NewRequest(method, target, nil))
	if err != nil || route.Operation == nil {
		return "no operation"
	}
	return route.Operation.OperationId + " (" + method + " " + route.Path + ")"
}

// maxCheckedBody is the largest request body checked; larger ones are
// passed on unchecked.
const maxCheckedBody = 4 << 20

// checkContract returns h with every exchange checked against the
// document: a mismatch fails t, naming the operation and what differs.
// Exchanges whose client went away are not checked; no one read them.
func checkContract(t testing.TB, h http.Handler) http.Handler {
	c := loadContract(t)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		x := &exchange{method: r.Method, target: r.URL.RequestURI(), header: r.Header.Clone()}
		start, err := io.ReadAll(io.LimitReader(r.Body, maxCheckedBody+1))
		x.body, x.bodyComplete = start, err == nil && len(start) <= maxCheckedBody
		r.Body = readCloser{io.MultiReader(bytes.NewReader(start), r.Body), r.Body}
		rec := &recorder{ResponseWriter: w}
		h.ServeHTTP(rec, r)
		if r.Context().Err() != nil || rec.status == 0 {
			return
		}
		x.status, x.respHeader, x.respBody = rec.status, rec.header, rec.body.Bytes()
		if rec.truncated {
			return
		}
		problems := c.check(x)
		if len(problems) > 0 {
			t.Errorf("%s %s answered %d, which the OpenAPI document does not allow; operation %s:\n  %s\nanswer: %.600s",
				x.method, x.target, x.status, c.operationOf(x.method, x.target), strings.Join(problems, "\n  "), x.respBody)
		} else if x.status/100 == 2 {
			c.markChecked(x)
		}
	})
}

type readCloser struct {
	io.Reader
	io.Closer
}

// maxRecorded bounds the answer kept for checking.
const maxRecorded = 16 << 20

// recorder passes an answer on and keeps a copy. Unwrap lets
// http.ResponseController reach the connection's flush and deadlines.
type recorder struct {
	http.ResponseWriter
	status    int
	header    http.Header
	body      bytes.Buffer
	truncated bool
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 && status >= 200 {
		r.status, r.header = status, r.ResponseWriter.Header().Clone()
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.WriteHeader(http.StatusOK)
	}
	n, err := r.ResponseWriter.Write(b)
	if r.body.Len()+n > maxRecorded {
		r.truncated = true
	} else {
		r.body.Write(b[:n])
	}
	return n, err
}

func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// markChecked records that an operation gave a successful answer that
// matched the document.
func (c *contract) markChecked(x *exchange) {
	if route, err := c.router.FindRoute(httptest.NewRequest(x.method, x.target, nil)); err == nil && route.Operation != nil {
		c.checked.Store(route.Operation.OperationId, true)
	}
}

// unchecked returns the operations of the document that gave no checked
// successful answer in this process, sorted.
func (c *contract) unchecked() []string {
	var out []string
	for pair := c.model.Paths.PathItems.First(); pair != nil; pair = pair.Next() {
		for m, o := range pair.Value().GetOperations().FromOldest() {
			if _, ok := c.checked.Load(o.OperationId); !ok {
				out = append(out, o.OperationId+" ("+strings.ToUpper(m)+" "+pair.Key()+")")
			}
		}
	}
	slices.Sort(out)
	return out
}
