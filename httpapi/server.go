package httpapi

import (
	"io"
	"net/http"
	"time"
)

// ServerOptions are the limits of the server NewServer returns. Zero
// fields mean the defaults; a negative value means no limit.
type ServerOptions struct {
	// ReadHeaderTimeout is how long a client may take to send the
	// request line and headers; 0 means 10 seconds.
	ReadHeaderTimeout time.Duration
	// ReadBodyTimeout is how long a handler may take to receive a request
	// body, counted from when it is called until the body has been read
	// to its end; 0 means one minute. It bounds the body only: a response
	// may take as long as it needs, so an event stream is not cut off.
	ReadBodyTimeout time.Duration
	// IdleTimeout is how long a kept-alive connection may wait for its
	// next request; 0 means two minutes.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds the size of request headers; 0 means 64 KiB.
	MaxHeaderBytes int
}

// NewServer returns an http.Server for h on addr with limits that keep
// slow or idle clients from holding connections: a deadline for the
// headers, one for the body (see ServerOptions.ReadBodyTimeout), an idle
// timeout and a bound on header size; opts nil means the defaults.
//
// It sets no ReadTimeout or WriteTimeout: http.Server applies those to
// the whole exchange, so they would end the long-lived responses of event
// streams (a ReadTimeout also cancels their request context). The body
// deadline is set per request through http.ResponseController instead,
// and removed once the body has been read.
//
// The caller may change the returned server before serving, for example
// to set ErrorLog or TLSConfig.
func NewServer(addr string, h http.Handler, opts *ServerOptions) *http.Server {
	var o ServerOptions
	if opts != nil {
		o = *opts
	}
	limit := func(d, def time.Duration) time.Duration {
		switch {
		case d == 0:
			return def
		case d < 0:
			return 0
		}
		return d
	}
	o.ReadHeaderTimeout = limit(o.ReadHeaderTimeout, 10*time.Second)
	o.ReadBodyTimeout = limit(o.ReadBodyTimeout, time.Minute)
	o.IdleTimeout = limit(o.IdleTimeout, 2*time.Minute)
	switch {
	case o.MaxHeaderBytes == 0:
		o.MaxHeaderBytes = 64 << 10
	case o.MaxHeaderBytes < 0:
		o.MaxHeaderBytes = 0 // http.Server's own default, 1 MiB
	}
	if o.ReadBodyTimeout > 0 {
		h = bodyDeadline(h, o.ReadBodyTimeout)
	}
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: o.ReadHeaderTimeout,
		IdleTimeout:       o.IdleTimeout,
		MaxHeaderBytes:    o.MaxHeaderBytes,
	}
}

// bodyDeadline sets a read deadline of d on requests with a body and
// clears it when the body has been read to its end, so that the deadline
// bounds receiving the body and nothing after it. A body the handler
// leaves unread keeps the deadline, which then bounds the server's
// reading of the rest.
func bodyDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			h.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		if err := rc.SetReadDeadline(time.Now().Add(d)); err == nil {
			r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
		}
		h.ServeHTTP(w, r)
	})
}

type deadlineBody struct {
	io.ReadCloser
	rc      *http.ResponseController
	cleared bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.cleared {
		b.cleared = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}
