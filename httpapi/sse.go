package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/contentgen/contentgen/contentgen"
)

// Defaults of the event stream's timing.
const (
	defaultStreamHeartbeat    = 15 * time.Second
	defaultStreamWriteTimeout = 30 * time.Second
)

// generatePostsStream runs a posts generation and reports it as
// Server-Sent Events: info and warning events as they happen, then one
// complete event with the result. A request the Generator rejects before
// starting gets the ordinary JSON error response; a failure after the
// stream has started ends it with an error event.
//
// While the stream is open, a comment line ": ping" is sent whenever
// Options.StreamHeartbeat passes, so that proxies and clients see the
// connection alive during slow steps. Every write has the deadline
// Options.StreamWriteTimeout: a client that stops taking events is
// dropped and the run stops, as it does when the client goes away.
func (a *API) generatePostsStream(w http.ResponseWriter, r *http.Request) error {
	var body postsBody
	if err := decodeJSON(w, r, a.maxBody, &body); err != nil {
		return err
	}
	req, err := body.request()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	s := a.newStream(w, cancel)
	defer s.close()
	req.Progress = func(e contentgen.Event) { s.send(event{e.Type, e.Message}) }
	res, err := a.g.GeneratePosts(ctx, req)
	if werr := s.writeErr(); werr != nil {
		reason := "client went away"
		if errors.Is(werr, os.ErrDeadlineExceeded) {
			reason = "client stopped reading"
		}
		a.log.InfoContext(r.Context(), "httpapi: event stream dropped; run stopped", "path", r.URL.Path, "reason", reason, "err", werr)
		return nil
	}
	if err != nil {
		if !s.hasStarted() {
			return err
		}
		if r.Context().Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
			a.log.InfoContext(r.Context(), "httpapi: event stream ended by the client; run stopped", "path", r.URL.Path)
			return nil
		}
		code, msg := contentgen.CodeInternal, "Generation failed."
		var ce *contentgen.Error
		if errors.As(err, &ce) {
			code, msg = ce.Code, ce.Message
		}
		if code == contentgen.CodeInternal || code == contentgen.CodeGenerationFailed {
			a.log.ErrorContext(r.Context(), "httpapi: streamed generation failed", "err", err)
		}
		s.send(struct {
			Type    string          `json:"type"`
			Code    contentgen.Code `json:"code"`
			Message string          `json:"message"`
		}{"error", code, msg})
		return nil
	}
	s.send(struct {
		Type   string      `json:"type"`
		Result postsRecord `json:"result"`
	}{"complete", newPostsRecord(res, a.messages(r.Context()))})
	return nil
}

// event is a progress event of a stream.
type event struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// ticker returns a channel that delivers ticks every d and a function
// that stops them; tests replace it to tick by hand.
type ticker func(d time.Duration) (<-chan time.Time, func())

func realTicker(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

// heartbeatLine is an SSE comment: clients ignore it, proxies see traffic.
var heartbeatLine = []byte(": ping\n\n")

// stream writes one "data: <json>" line per event and heartbeat comments
// between them, each flushed with a write deadline. It is safe for
// concurrent use; close must be called before the handler returns.
type stream struct {
	w         http.ResponseWriter
	rc        *http.ResponseController
	timeout   time.Duration // per write; 0 means none
	heartbeat time.Duration // 0 means none
	tick      ticker
	// cancel ends the run when a write fails.
	cancel context.CancelFunc

	mu      sync.Mutex
	started bool
	closed  bool
	err     error // the first failed write
	buf     []byte
	stop    chan struct{} // closed by close to end the heartbeat
	beating chan struct{} // closed when the heartbeat has ended
}

func (a *API) newStream(w http.ResponseWriter, cancel context.CancelFunc) *stream {
	return &stream{
		w: w, rc: http.NewResponseController(w), cancel: cancel,
		timeout: a.streamWriteTimeout, heartbeat: a.streamHeartbeat, tick: a.tick,
	}
}

// send writes v as one event, starting the stream with its headers and
// heartbeat on the first call. After a failed write it does nothing.
func (s *stream) send(v any) {
	b, err := json.Marshal(v)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil || s.closed {
		return
	}
	if err != nil {
		s.fail(err)
		return
	}
	if !s.started {
		h := s.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-store")
		h.Set("X-Accel-Buffering", "no")
		h.Set("X-Content-Type-Options", "nosniff")
		s.w.WriteHeader(http.StatusOK)
		s.started = true
		if s.heartbeat > 0 {
			s.stop, s.beating = make(chan struct{}), make(chan struct{})
			c, stop := s.tick(s.heartbeat)
			go s.beat(c, stop)
		}
	}
	s.buf = append(append(append(s.buf[:0], "data: "...), b...), '\n', '\n')
	s.write(s.buf)
}

// beat writes a heartbeat on every tick until close.
func (s *stream) beat(c <-chan time.Time, stopTicker func()) {
	defer close(s.beating)
	defer stopTicker()
	for {
		select {
		case <-s.stop:
			return
		case <-c:
			s.mu.Lock()
			if s.err == nil && !s.closed {
				s.write(heartbeatLine)
			}
			s.mu.Unlock()
		}
	}
}

// write writes and flushes p within the write deadline; s.mu is held. The
// deadline is lifted after a successful write, so that a stream waiting
// for its next event is not cut off.
func (s *stream) write(p []byte) {
	if s.timeout > 0 {
		if err := s.rc.SetWriteDeadline(time.Now().Add(s.timeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			s.fail(err)
			return
		}
	}
	_, err := s.w.Write(p)
	if err == nil {
		err = s.rc.Flush()
	}
	if err != nil {
		s.fail(err)
		return
	}
	if s.timeout > 0 {
		_ = s.rc.SetWriteDeadline(time.Time{})
	}
}

// fail records the first write failure and stops the run: the client
// is gone or not reading, and nothing more can reach it.
func (s *stream) fail(err error) {
	if s.err == nil {
		s.err = err
	}
	s.cancel()
}

func (s *stream) writeErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func (s *stream) hasStarted() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.started
}

// close stops the heartbeat and waits for it, so that nothing writes after
// the handler returns. The server's end of the response gets one more
// write deadline, so a client that stops reading now cannot hold it.
func (s *stream) close() {
	s.mu.Lock()
	s.closed = true
	stop, beating := s.stop, s.beating
	if s.started && s.err == nil && s.timeout > 0 {
		_ = s.rc.SetWriteDeadline(time.Now().Add(s.timeout))
	}
	s.mu.Unlock()
	if stop != nil {
		close(stop)
		<-beating
	}
}
