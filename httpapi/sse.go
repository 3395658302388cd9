package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/contentgen/contentgen/contentgen"
)

// generatePostsStream runs a posts generation and reports it as
// Server-Sent Events: info and warning events as they happen, then one
// complete event with the result. A request the Generator rejects before
// starting gets the ordinary JSON error response; a failure after the
// stream has started ends it with an error event. When the client goes
// away the request context ends and the run stops.
func (a *API) generatePostsStream(w http.ResponseWriter, r *http.Request) error {
	var body postsBody
	if err := decodeJSON(w, r, a.maxBody, &body); err != nil {
		return err
	}
	req, err := body.request()
	if err != nil {
		return err
	}
	s := &sseWriter{w: w, rc: http.NewResponseController(w)}
	req.Progress = func(e contentgen.Event) { s.send(event{e.Type, e.Message}) }
	res, err := a.g.GeneratePosts(r.Context(), req)
	if err != nil {
		if !s.started {
			return err
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

// sseWriter writes one "data: <json>" line per event and flushes it.
type sseWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	started bool
	buf     []byte
	failed  bool
}

func (s *sseWriter) send(v any) {
	if s.failed {
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
	}
	b, err := json.Marshal(v)
	if err != nil {
		s.failed = true
		return
	}
	s.buf = append(append(append(s.buf[:0], "data: "...), b...), '\n', '\n')
	if _, err := s.w.Write(s.buf); err != nil {
		// The client is gone; the request context ends the run.
		s.failed = true
		return
	}
	if err := s.rc.Flush(); err != nil {
		s.failed = true
	}
}
