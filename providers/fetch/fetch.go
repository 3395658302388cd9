package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path"
	"strings"
	"syscall"
	"time"
)

// Defaults of Options.
const (
	DefaultTimeout      = 30 * time.Second
	DefaultDialTimeout  = 10 * time.Second
	DefaultMaxRedirects = 5
	DefaultMaxBytes     = 25 << 20
	DefaultUserAgent    = "contentgen/1 (+https://github.com/contentgen/contentgen)"
)

var (
	// ErrSchemeNotAllowed means a URL or redirect used a scheme other than
	// http or https.
	ErrSchemeNotAllowed = errors.New("fetch: only http and https URLs are allowed")
	// ErrInvalidURL means the URL could not be parsed, has no host or
	// carries credentials.
	ErrInvalidURL = errors.New("fetch: invalid URL")
	// ErrTooManyRedirects means the redirect limit was reached.
	ErrTooManyRedirects = errors.New("fetch: too many redirects")
	// ErrTooLarge means the body exceeded the size limit; the rest was not
	// read.
	ErrTooLarge = errors.New("fetch: response too large")
)

// StatusError is a response whose status was not 2xx. Fetcher.Get
// returns it as the cause of an *Error of kind ErrBadStatus.
type StatusError struct {
	// StatusCode is the HTTP status received.
	StatusCode int
	// URL is the final URL, after redirects; it is kept for logs and not
	// part of the message.
	URL string
}

// Error implements error.
func (e *StatusError) Error() string {
	return fmt.Sprintf("fetch: HTTP status %d", e.StatusCode)
}

// Options configures NewHTTPClient and New. The zero value (or nil) means
// defaults.
type Options struct {
	// Timeout bounds a whole request including reading the body (default
	// 30s).
	Timeout time.Duration
	// DialTimeout bounds each TCP connect (default 10s).
	DialTimeout time.Duration
	// MaxRedirects is the number of redirects followed (default 5; a
	// negative value follows none).
	MaxRedirects int
	// MaxBytes caps the body Fetcher.Get reads (default 25 MiB).
	MaxBytes int64
	// UserAgent is sent with every request (default DefaultUserAgent).
	UserAgent string
	// AllowPrivate turns the address check off, for development and tests
	// against local servers. Never set it on a server reachable by others.
	AllowPrivate bool
	// CheckAddr replaces CheckAddr as the policy for resolved addresses
	// when set (it receives address and port). It is ignored when
	// AllowPrivate is true.
	CheckAddr func(netip.AddrPort) error
	// Resolver looks up host names (default net.DefaultResolver). The
	// address check runs on what it returns, at connect time.
	Resolver *net.Resolver
}

func (o *Options) withDefaults() Options {
	var c Options
	if o != nil {
		c = *o
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.DialTimeout <= 0 {
		c.DialTimeout = DefaultDialTimeout
	}
	if c.MaxRedirects == 0 {
		c.MaxRedirects = DefaultMaxRedirects
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.UserAgent == "" {
		c.UserAgent = DefaultUserAgent
	}
	return c
}

// CheckURL parses raw and returns it when it is an absolute http or https
// URL with a host and without user credentials. It does not resolve the
// host; the client checks addresses when it connects.
func CheckURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidURL, err)
	}
	if err := checkURL(u); err != nil {
		return nil, err
	}
	return u, nil
}

func checkURL(u *url.URL) error {
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return fmt.Errorf("%w: %q", ErrSchemeNotAllowed, u.Scheme)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("%w: no host", ErrInvalidURL)
	}
	if u.User != nil {
		return fmt.Errorf("%w: credentials in URL", ErrInvalidURL)
	}
	return nil
}

// NewHTTPClient returns an *http.Client that refuses non-public addresses
// at connect time (unless opts.AllowPrivate), follows at most
// opts.MaxRedirects redirects and only to http or https, uses no proxy
// and has opts.Timeout as its overall deadline. It does not cap body
// sizes; read them with a limit (or use Fetcher).
func NewHTTPClient(opts *Options) *http.Client {
	o := opts.withDefaults()
	check := o.CheckAddr
	if check == nil {
		check = func(ap netip.AddrPort) error { return CheckAddr(ap.Addr()) }
	}
	dialer := &net.Dialer{Timeout: o.DialTimeout, KeepAlive: 30 * time.Second, Resolver: o.Resolver}
	if !o.AllowPrivate {
		dialer.Control = func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return &AddressError{Reason: "unparsable address " + address}
			}
			return check(ap)
		}
	}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          32,
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       60 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: o.Timeout,
		ExpectContinueTimeout: time.Second,
	}
	return &http.Client{
		Transport:     tr,
		Timeout:       o.Timeout,
		CheckRedirect: CheckRedirect(o.MaxRedirects),
	}
}

// CheckRedirect returns an http.Client.CheckRedirect function that allows
// at most max redirects (none when max < 0) and only to http or https.
func CheckRedirect(max int) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) > max {
			return fmt.Errorf("%w (%d)", ErrTooManyRedirects, max)
		}
		return checkURL(req.URL)
	}
}

// Fetcher downloads whole files with the checks of NewHTTPClient and a
// size cap. It is safe for concurrent use.
type Fetcher struct {
	client    *http.Client
	maxBytes  int64
	userAgent string
}

// New returns a Fetcher using NewHTTPClient(opts).
func New(opts *Options) *Fetcher {
	o := opts.withDefaults()
	return &Fetcher{client: NewHTTPClient(&o), maxBytes: o.MaxBytes, userAgent: o.UserAgent}
}

// Client returns the Fetcher's HTTP client.
func (f *Fetcher) Client() *http.Client { return f.client }

// Result is a downloaded file.
type Result struct {
	// URL is the final URL after redirects.
	URL string
	// ContentType is the Content-Type header as sent; it is not trusted:
	// sniff Data before storing it.
	ContentType string
	// Filename is the name from Content-Disposition, or else the last
	// segment of the final URL's path, or "" when neither has one. It is
	// not sanitised.
	Filename string
	// Data is the body, at most Options.MaxBytes long.
	Data []byte
}

// Get downloads rawURL. Every error it returns is an *Error whose Kind
// says what failed: ErrInvalidURL or ErrSchemeNotAllowed for a bad URL,
// ErrAddressNotAllowed when the host or a redirect resolves to a refused
// address (the cause is an *AddressError), ErrTooManyRedirects,
// ErrBadStatus for a non-2xx answer (the cause is a *StatusError),
// ErrTooLarge when the body exceeds the cap, ErrTimeout, ErrUnreachable,
// and ErrCanceled when ctx ends first (the cause matches ctx.Err()).
//
// Show a client only the kind's message (err.Error() of the returned
// error is exactly that, or use Kind); log the cause, which may name
// internal addresses such as the resolver's.
func (f *Fetcher) Get(ctx context.Context, rawURL string) (*Result, error) {
	res, err := f.get(ctx, rawURL)
	if err != nil {
		return nil, classify(ctx, err)
	}
	return res, nil
}

func (f *Fetcher) get(ctx context.Context, rawURL string) (*Result, error) {
	u, err := CheckURL(rawURL)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidURL, err)
	}
	req.Header.Set("User-Agent", f.userAgent)
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	defer resp.Body.Close()
	final := resp.Request.URL.String()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, &Error{Kind: ErrBadStatus, Err: &StatusError{StatusCode: resp.StatusCode, URL: final}}
	}
	data, err := ReadLimited(resp, f.maxBytes)
	if err != nil {
		return nil, err
	}
	return &Result{
		URL:         final,
		ContentType: resp.Header.Get("Content-Type"),
		Filename:    filename(resp),
		Data:        data,
	}, nil
}

// ReadLimited reads resp.Body up to max bytes. It fails early with
// ErrTooLarge when Content-Length announces more, and stops reading once
// more than max bytes arrived.
func ReadLimited(resp *http.Response, max int64) ([]byte, error) {
	if resp.ContentLength > max {
		return nil, fmt.Errorf("%w: %d bytes announced, limit %d", ErrTooLarge, resp.ContentLength, max)
	}
	var buf []byte
	if resp.ContentLength > 0 {
		buf = make([]byte, 0, resp.ContentLength+1)
	}
	w := &sliceWriter{b: buf}
	n, err := io.Copy(w, io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, fmt.Errorf("fetch: read body: %w", err)
	}
	if n > max {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max)
	}
	return w.b, nil
}

type sliceWriter struct{ b []byte }

// Write appends p.
func (w *sliceWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// filename returns the attachment name of resp or the last path segment
// of its URL.
func filename(resp *http.Response) string {
	if cd := resp.Header.Get("Content-Disposition"); cd != "" {
		if _, params, err := mime.ParseMediaType(cd); err == nil && params["filename"] != "" {
			return params["filename"]
		}
	}
	base := path.Base(resp.Request.URL.Path)
	if base == "/" || base == "." {
		return ""
	}
	return base
}
