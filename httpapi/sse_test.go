package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/providers"
)

// The waits below are synchronisation on what the test set in motion,
// with no timeout of their own: a bug that never delivers is caught by
// go test's -timeout, whose goroutine dump shows the wait it hangs on.

// manualTicker hands out heartbeat ticks only when the test sends them.
type manualTicker struct {
	c        chan time.Time
	mu       sync.Mutex
	interval []time.Duration
	stopped  chan struct{}
}

func newManualTicker() *manualTicker {
	return &manualTicker{c: make(chan time.Time), stopped: make(chan struct{}, 16)}
}

func (m *manualTicker) ticker(d time.Duration) (<-chan time.Time, func()) {
	m.mu.Lock()
	m.interval = append(m.interval, d)
	m.mu.Unlock()
	return m.c, func() { m.stopped <- struct{}{} }
}

// tick delivers one tick; it returns once a heartbeat loop has taken it.
func (m *manualTicker) tick() { m.c <- time.Now() }

// gatedProvider is an image provider whose images wait until released or
// until their run ends.
type gatedProvider struct {
	enteredOnce, canceledOnce sync.Once
	entered                   chan struct{} // closed on the first call
	release                   chan struct{} // closed by the test
	canceled                  chan struct{} // closed when a call saw its context end
}

func newGatedProvider() *gatedProvider {
	return &gatedProvider{entered: make(chan struct{}), release: make(chan struct{}), canceled: make(chan struct{})}
}

func (p *gatedProvider) Info() providers.Info {
	return providers.Info{Slug: providers.Random, Name: "Gated", Configured: true}
}

func (p *gatedProvider) Image(ctx context.Context, _ providers.ImageRequest) (*providers.Image, error) {
	p.enteredOnce.Do(func() { close(p.entered) })
	select {
	case <-p.release:
		return nil, errors.New("no image today")
	case <-ctx.Done():
		p.canceledOnce.Do(func() { close(p.canceled) })
		return nil, ctx.Err()
	}
}

// streamEnv serves an API whose heartbeats tick by hand and whose only
// image provider is gated, and tells when a request has been served.
type streamEnv struct {
	srv    *httptest.Server
	prov   *gatedProvider
	ticker *manualTicker
	logs   *logRecorder
	served chan string // receives the path of each request served
}

func newStreamEnv(t *testing.T, opts httpapi.Options, listen func(net.Listener) net.Listener) *streamEnv {
	t.Helper()
	host, err := demosite.New(nil)
	require.NoError(t, err)
	e := &streamEnv{prov: newGatedProvider(), ticker: newManualTicker(), logs: &logRecorder{}, served: make(chan string, 16)}
	gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{
		ImageProviders: []providers.ImageProvider{e.prov}, Logger: slog.New(e.logs), MaxCount: 20,
	})
	require.NoError(t, err)
	opts.Auth, opts.Logger = allowAll{}, slog.New(e.logs)
	api, err := httpapi.New(gen, &opts)
	require.NoError(t, err)
	api.SetTicker(e.ticker.ticker)
	e.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() { e.served <- r.URL.Path }()
		api.ServeHTTP(w, r)
	}))
	if listen != nil {
		e.srv.Listener = listen(e.srv.Listener)
	}
	e.srv.Start()
	t.Cleanup(e.srv.Close)
	return e
}

const slowPosts = `{"count":1,"set_featured_image":true,"image_provider":"provider_random"}`

// requireNoErrorLogs checks that nothing was logged at WARN or above.
func (e *streamEnv) requireNoErrorLogs(t *testing.T) {
	t.Helper()
	require.Empty(t, e.logs.atLeast(slog.LevelWarn), "all logs: %v", e.logs.lines())
}

func TestStreamHeartbeatWhileTheRunIsSlow(t *testing.T) {
	t.Parallel()
	e := newStreamEnv(t, httpapi.Options{StreamHeartbeat: 7 * time.Second}, nil)
	resp, err := e.srv.Client().Post(e.srv.URL+"/generate/posts/stream", "application/json", strings.NewReader(slowPosts))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	<-e.prov.entered // the image fetch

	// The run waits for its image; heartbeats still come, one per tick.
	rd := bufio.NewReader(resp.Body)
	for range 2 {
		e.ticker.tick()
		for {
			line, err := rd.ReadString('\n')
			require.NoError(t, err)
			if line == ": ping\n" {
				break
			}
			require.True(t, line == "\n" || strings.HasPrefix(line, "data: "), "line %q", line)
		}
		blank, err := rd.ReadString('\n')
		require.NoError(t, err)
		require.Equal(t, "\n", blank, "a heartbeat is a comment line and a blank line")
	}

	close(e.prov.release)
	rest, err := io.ReadAll(rd)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(rest)), "\n\n")
	last := lines[len(lines)-1]
	require.True(t, strings.HasPrefix(last, "data: "), "%q", last)
	var complete map[string]any
	require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(last, "data: ")), &complete))
	require.Equal(t, "complete", complete["type"])

	require.Equal(t, "/generate/posts/stream", <-e.served)
	<-e.ticker.stopped // the heartbeat ticker to stop
	require.Equal(t, []time.Duration{7 * time.Second}, e.ticker.interval)
	e.requireNoErrorLogs(t)
}

func TestStreamWithoutHeartbeat(t *testing.T) {
	t.Parallel()
	e := newStreamEnv(t, httpapi.Options{StreamHeartbeat: -1}, nil)
	close(e.prov.release)
	resp, err := e.srv.Client().Post(e.srv.URL+"/generate/posts/stream", "application/json", strings.NewReader(slowPosts))
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NotContains(t, string(raw), ": ping")
	require.Contains(t, string(raw), `"type":"complete"`)
	require.Empty(t, e.ticker.interval, "no ticker is made")
}

// smallBuffers makes the server's sockets keep little unsent data, so
// that a client that stops reading blocks the server's writes soon.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4 << 10)
	}
	return c, err
}

func TestStreamDropsAClientThatStopsReading(t *testing.T) {
	t.Parallel()
	e := newStreamEnv(t, httpapi.Options{StreamWriteTimeout: 50 * time.Millisecond},
		func(l net.Listener) net.Listener { return smallBuffers{l} })

	// A client that sends its request and never reads the answer.
	conn, err := net.Dial("tcp", e.srv.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	_ = conn.(*net.TCPConn).SetReadBuffer(4 << 10)
	_, err = fmt.Fprintf(conn, "POST /generate/posts/stream HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(slowPosts), slowPosts)
	require.NoError(t, err)
	<-e.prov.entered // the image fetch

	// Heartbeats fill the socket buffers until a write cannot finish; its
	// deadline drops the client and ends the run, whose image fetch sees
	// its context end.
	ticks := 0
	for done := false; !done; {
		select {
		case e.ticker.c <- time.Now():
			ticks++
		case <-e.prov.canceled:
			done = true
		}
	}
	<-e.served // the handler to return
	t.Logf("dropped after %d heartbeats", ticks)

	dropped := e.logs.find("event stream dropped")
	require.Len(t, dropped, 1, "all logs: %v", e.logs.lines())
	require.Equal(t, slog.LevelInfo, dropped[0].Level)
	require.Equal(t, "client stopped reading", dropped[0].Attrs["reason"])
	e.requireNoErrorLogs(t)
}

func TestStreamClientDisconnectIsNotAnError(t *testing.T) {
	t.Parallel()
	e := newStreamEnv(t, httpapi.Options{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "POST", e.srv.URL+"/generate/posts/stream", strings.NewReader(slowPosts))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.srv.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	<-e.prov.entered // the image fetch
	cancel()         // the client goes away in the middle of the run

	<-e.prov.canceled // the run to stop
	<-e.served        // the handler to return
	ended := e.logs.find("ended by the client")
	require.Len(t, ended, 1, "all logs: %v", e.logs.lines())
	require.Equal(t, slog.LevelInfo, ended[0].Level)
	e.requireNoErrorLogs(t)
}

func TestClientDisconnectOfAPlainRequestIsNotAnError(t *testing.T) {
	t.Parallel()
	e := newStreamEnv(t, httpapi.Options{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "POST", e.srv.URL+"/generate/posts", strings.NewReader(slowPosts))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	errc := make(chan error, 1)
	go func() {
		resp, err := e.srv.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	<-e.prov.entered // the image fetch
	cancel()
	require.ErrorIs(t, <-errc, context.Canceled)

	<-e.prov.canceled // the run to stop
	<-e.served        // the handler to return
	ended := e.logs.find("ended by the client")
	require.Len(t, ended, 1, "all logs: %v", e.logs.lines())
	require.Equal(t, slog.LevelInfo, ended[0].Level)
	e.requireNoErrorLogs(t)
}
