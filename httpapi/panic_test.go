package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
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
)

// panickyHost is the demo host with switches that make some of its
// methods panic.
type panickyHost struct {
	*memhost.Host
	inPostTypes, inTx atomic.Bool
}

func (h *panickyHost) PostTypes(ctx context.Context) ([]contentgen.PostType, error) {
	if h.inPostTypes.Load() {
		panic("host failure in PostTypes")
	}
	return h.Host.PostTypes(ctx)
}

func (h *panickyHost) InTx(ctx context.Context, fn func(context.Context, contentgen.Host) error) error {
	if h.inTx.Load() {
		panic("host failure in InTx")
	}
	return h.Host.InTx(ctx, fn)
}

// panickyAuth panics for requests with the header X-Panic.
type panickyAuth struct{ allowAll }

func (a panickyAuth) Authenticate(r *http.Request) (*auth.Principal, error) {
	if r.Header.Get("X-Panic") != "" {
		panic("authenticator failure")
	}
	return a.allowAll.Authenticate(r)
}

type panicEnv struct {
	host *panickyHost
	logs *logRecorder
	srv  *httptest.Server
}

func newPanicEnv(t *testing.T) *panicEnv {
	t.Helper()
	demo, err := demosite.New(nil)
	require.NoError(t, err)
	host := &panickyHost{Host: demo}
	gen, err := contentgen.New(host, history.NewMemStore(nil), nil)
	require.NoError(t, err)
	logs := &logRecorder{}
	api, err := httpapi.New(gen, &httpapi.Options{Auth: panickyAuth{}, Logger: slog.New(logs)})
	require.NoError(t, err)
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	return &panicEnv{host: host, logs: logs, srv: srv}
}

func (e *panicEnv) send(t *testing.T, method, path, body string, header ...string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, e.srv.URL+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := e.srv.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return resp.StatusCode, out
}

// requirePanicLogged checks that the panic was logged at ERROR with its
// value and a stack naming where it happened.
func (e *panicEnv) requirePanicLogged(t *testing.T, value, frame string) {
	t.Helper()
	lines := e.logs.find("panic")
	require.NotEmpty(t, lines, "the panic is logged")
	last := lines[len(lines)-1]
	require.Equal(t, slog.LevelError, last.Level)
	require.Equal(t, value, last.Attrs["panic"])
	require.Contains(t, last.Attrs["stack"], frame)
}

var internalErrorEnvelope = map[string]any{"success": false, "code": "internal_error", "message": "Internal server error."}

func TestHostPanicIsAnswered500AndTheServerGoesOn(t *testing.T) {
	t.Parallel()
	e := newPanicEnv(t)
	e.host.inPostTypes.Store(true)
	status, body := e.send(t, "GET", "/cpts/all", "")
	require.Equal(t, http.StatusInternalServerError, status)
	require.Equal(t, internalErrorEnvelope, body, "the panic value is not sent to the client")
	e.requirePanicLogged(t, "host failure in PostTypes", "panickyHost).PostTypes")

	e.host.inPostTypes.Store(false)
	status, _ = e.send(t, "GET", "/cpts/all", "")
	require.Equal(t, http.StatusOK, status)

	// A panic in the middle of a write leaves nothing locked.
	e.host.inTx.Store(true)
	status, body = e.send(t, "POST", "/generate/posts", `{"count":2,"set_featured_image":false}`)
	require.Equal(t, http.StatusInternalServerError, status)
	require.Equal(t, internalErrorEnvelope, body)
	e.host.inTx.Store(false)
	status, body = e.send(t, "POST", "/generate/posts", `{"count":2,"set_featured_image":false}`)
	require.Equal(t, http.StatusOK, status, body)
	require.EqualValues(t, 2, body["count"])
}

func TestAuthenticatorPanicIsAnswered500(t *testing.T) {
	t.Parallel()
	e := newPanicEnv(t)
	status, body := e.send(t, "GET", "/settings", "", "X-Panic", "1")
	require.Equal(t, http.StatusInternalServerError, status)
	require.Equal(t, internalErrorEnvelope, body)
	e.requirePanicLogged(t, "authenticator failure", "panickyAuth.Authenticate")
	status, _ = e.send(t, "GET", "/settings", "")
	require.Equal(t, http.StatusOK, status)
}

func TestPanicInAStartedStreamCutsItShort(t *testing.T) {
	t.Parallel()
	e := newPanicEnv(t)
	e.host.inTx.Store(true)
	resp, err := e.srv.Client().Post(e.srv.URL+"/generate/posts/stream", "application/json", strings.NewReader(`{"count":2,"set_featured_image":false}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "the stream had started")
	raw, err := io.ReadAll(resp.Body)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF, "the client sees the stream broken off, not ended: %s", raw)
	require.NotContains(t, string(raw), `"complete"`)
	e.requirePanicLogged(t, "host failure in InTx", "panickyHost).InTx")

	e.host.inTx.Store(false)
	resp, err = e.srv.Client().Post(e.srv.URL+"/generate/posts/stream", "application/json", strings.NewReader(`{"count":2,"set_featured_image":false}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	var last string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if sc.Text() != "" {
			last = sc.Text()
		}
	}
	require.NoError(t, sc.Err())
	require.Contains(t, last, `"type":"complete"`)
}
