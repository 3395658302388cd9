package httpapi_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/httpapi"
)

// Deadlines of the servers under test; the assertions allow far more.
const (
	testDeadline = 50 * time.Millisecond
	heldTooLong  = 10 * time.Second
)

// startServer serves h with httpapi.NewServer on 127.0.0.1.
func startServer(t *testing.T, h http.Handler, opts *httpapi.ServerOptions) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = httpapi.NewServer("", h, opts)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// dial opens a raw connection to srv and writes head.
func dial(t *testing.T, srv *httptest.Server, head string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	_, err = io.WriteString(conn, head)
	require.NoError(t, err)
	return conn
}

// trickle writes one byte of b every few milliseconds until a write
// fails or the test ends: a client that is slow, not stalled.
func trickle(t *testing.T, conn net.Conn, b byte) {
	stop := make(chan struct{})
	done := make(chan struct{})
	t.Cleanup(func() { close(stop); <-done })
	go func() {
		defer close(done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte{b}); err != nil {
					return
				}
			}
		}
	}()
}

// requireDropped reads conn to its end and fails if the server still
// holds it after heldTooLong. It returns what the server sent.
func requireDropped(t *testing.T, conn net.Conn) string {
	t.Helper()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(heldTooLong)))
	var got strings.Builder
	_, err := io.Copy(&got, conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server still holds the connection after %s; it sent %q", heldTooLong, got.String())
	}
	return got.String()
}

func TestServerDropsSlowClients(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := startServer(t, e.srv.Config.Handler, &httpapi.ServerOptions{
		ReadHeaderTimeout: testDeadline,
		ReadBodyTimeout:   testDeadline,
		IdleTimeout:       testDeadline,
	})
	auth := "Authorization: Basic " + basicAuth("admin", e.adminPW) + "\r\n"
	post := func(auth string) string {
		return "POST " + base + "/generate/posts HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n" +
			auth + "Content-Length: 100000\r\n\r\n{"
	}

	t.Run("slow headers", func(t *testing.T) {
		t.Parallel()
		conn := dial(t, srv, "GET "+base+"/cpts/all HTTP/1.1\r\nHost: test\r\n"+auth+"X-Slow: ")
		trickle(t, conn, 'a')
		requireDropped(t, conn)
	})
	t.Run("slow body without credentials", func(t *testing.T) {
		t.Parallel()
		conn := dial(t, srv, post(""))
		trickle(t, conn, ' ')
		requireDropped(t, conn)
	})
	t.Run("slow body with credentials", func(t *testing.T) {
		t.Parallel()
		conn := dial(t, srv, post(auth))
		trickle(t, conn, ' ')
		requireDropped(t, conn)
	})
	t.Run("idle connection", func(t *testing.T) {
		t.Parallel()
		conn := dial(t, srv, "GET "+base+"/cpts/all HTTP/1.1\r\nHost: test\r\n"+auth+"\r\n")
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		require.NoError(t, err)
		_, err = io.Copy(io.Discard, resp.Body)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		requireDropped(t, conn)
	})
	t.Run("huge headers", func(t *testing.T) {
		t.Parallel()
		conn := dial(t, srv, "GET "+base+"/cpts/all HTTP/1.1\r\nHost: test\r\n"+auth+"X-Big: "+strings.Repeat("a", 100<<10)+"\r\n\r\n")
		require.Contains(t, requireDropped(t, conn), "431")
	})
	t.Run("normal requests", func(t *testing.T) {
		t.Parallel()
		for _, req := range []struct{ method, path, body string }{
			{"GET", "/cpts/all", ""},
			{"POST", "/generate/posts", `{"count":2}`},
		} {
			r, err := http.NewRequest(req.method, srv.URL+base+req.path, strings.NewReader(req.body))
			require.NoError(t, err)
			r.Header.Set("Content-Type", "application/json")
			r.SetBasicAuth("admin", e.adminPW)
			resp, err := srv.Client().Do(r)
			require.NoError(t, err)
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, resp.StatusCode, "%s %s: %s", req.method, req.path, body)
		}
	})
}

// TestServerKeepsStreamsOpen checks that the body deadline ends with the
// body: a response that outlives it, such as an event stream, is neither
// cut off nor cancelled.
func TestServerKeepsStreamsOpen(t *testing.T) {
	t.Parallel()
	const events = 10
	srv := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		if r.Method == "POST" { // GET streams without touching the body
			var err error
			if body, err = io.ReadAll(r.Body); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
		}
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		// Outlive the body deadline several times over.
		tick := time.NewTicker(testDeadline / 2)
		defer tick.Stop()
		for i := range events {
			select {
			case <-r.Context().Done():
				fmt.Fprintf(w, "data: cancelled\n\n")
				return
			case <-tick.C:
			}
			fmt.Fprintf(w, "data: %d %s\n\n", i, body)
			if err := rc.Flush(); err != nil {
				return
			}
		}
		fmt.Fprintf(w, "data: end\n\n")
	}), &httpapi.ServerOptions{ReadHeaderTimeout: testDeadline, ReadBodyTimeout: testDeadline, IdleTimeout: testDeadline})

	for _, method := range []string{"POST", "GET"} {
		body := ""
		if method == "POST" {
			body = `{"count":1}`
		}
		r, err := http.NewRequest(method, srv.URL+"/stream", strings.NewReader(body))
		require.NoError(t, err)
		resp, err := srv.Client().Do(r)
		require.NoError(t, err)
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Equal(t, events+1, strings.Count(string(got), "data: "), "%s", got)
		require.True(t, strings.HasSuffix(string(got), "data: end\n\n"), "%s", got)
	}
}

func TestNewServerDefaults(t *testing.T) {
	t.Parallel()
	h := http.NewServeMux()
	s := httpapi.NewServer("127.0.0.1:0", h, nil)
	require.Equal(t, "127.0.0.1:0", s.Addr)
	require.Equal(t, 10*time.Second, s.ReadHeaderTimeout)
	require.Equal(t, 2*time.Minute, s.IdleTimeout)
	require.Equal(t, 64<<10, s.MaxHeaderBytes)
	require.Zero(t, s.ReadTimeout, "a whole-request read timeout would cancel streams")
	require.Zero(t, s.WriteTimeout, "a whole-response write timeout would cut streams")

	s = httpapi.NewServer("", h, &httpapi.ServerOptions{ReadHeaderTimeout: -1, ReadBodyTimeout: -1, IdleTimeout: -1, MaxHeaderBytes: -1})
	require.Zero(t, s.ReadHeaderTimeout)
	require.Zero(t, s.IdleTimeout)
	require.Zero(t, s.MaxHeaderBytes)
	require.Equal(t, http.Handler(h), s.Handler, "no body deadline, no wrapper")
}

func basicAuth(login, password string) string {
	r, _ := http.NewRequest("GET", "/", nil)
	r.SetBasicAuth(login, password)
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Basic ")
}
