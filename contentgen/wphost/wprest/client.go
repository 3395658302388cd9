package wprest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/contentgen/contentgen/contentgen"
)

// Defaults of Options.
const (
	DefaultConcurrency      = 4
	DefaultMaxRetries       = 4
	DefaultMaxResponseBytes = 32 << 20
	// DefaultTimeout is the whole-request timeout of the default HTTP client.
	DefaultTimeout = 2 * time.Minute
	// maxRetryAfter caps how long a Retry-After header can make a call wait.
	maxRetryAfter = 2 * time.Minute
	// maxBackoff caps the exponential backoff between retries.
	maxBackoff = 30 * time.Second
	// firstBackoff is the wait before the first retry without Retry-After.
	firstBackoff = 500 * time.Millisecond
	// perPage is the page size of list requests, WordPress's maximum.
	perPage = 100
	// batchSize is the most requests one batch may carry.
	batchSize = 25
)

// Options configures a Client. URL, User and AppPassword are required.
type Options struct {
	// URL is the address of the site, such as https://example.com (the
	// REST API is at URL/wp-json).
	URL string
	// User is the login of a user with the manage_options capability and
	// AppPassword one of its application passwords (spaces allowed).
	User, AppPassword string
	// HTTPClient sends the requests; nil means a client with timeouts.
	HTTPClient *http.Client
	// Concurrency bounds the requests in flight at once; 0 means 4.
	Concurrency int
	// MaxRetries is how many times a request is retried after 429 Too
	// Many Requests or a 5xx answer (see the package doc); 0 means 4 and a
	// negative value disables retries.
	MaxRetries int
	// Sleep waits between retries; nil means a timer that stops when ctx
	// ends. It must return ctx.Err() when ctx ends first.
	Sleep func(ctx context.Context, d time.Duration) error
	// Logger receives one debug line per request (method, path, status,
	// duration; never credentials); nil discards.
	Logger *slog.Logger
	// MaxResponseBytes bounds every response body read; 0 means 32 MiB.
	MaxResponseBytes int64
}

// Client speaks WordPress's REST API with an application password. It is
// safe for concurrent use; Concurrency bounds its requests in flight.
type Client struct {
	site       *url.URL // the site URL without a trailing slash
	api        string   // site + "/wp-json"
	user, pass string
	hc         *http.Client
	sem        chan struct{}
	maxRetries int
	sleep      func(ctx context.Context, d time.Duration) error
	log        *slog.Logger
	maxBody    int64

	mu    sync.Mutex
	index *Index
}

// NewClient validates o and returns a Client. It makes no request.
func NewClient(o *Options) (*Client, error) {
	if o == nil {
		return nil, invalid("Options", "options are required")
	}
	if o.URL == "" {
		return nil, invalid("Options.URL", "the site URL is required")
	}
	u, err := url.Parse(o.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, invalid("Options.URL", "the site URL must be an absolute http or https URL without query, fragment or credentials")
	}
	if o.User == "" {
		return nil, invalid("Options.User", "the user login is required")
	}
	if o.AppPassword == "" {
		return nil, invalid("Options.AppPassword", "the application password is required")
	}
	if o.Concurrency < 0 {
		return nil, invalid("Options.Concurrency", "must not be negative")
	}
	if o.MaxResponseBytes < 0 {
		return nil, invalid("Options.MaxResponseBytes", "must not be negative")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	c := &Client{
		site: u, api: u.String() + "/wp-json",
		user: o.User, pass: o.AppPassword,
		hc: o.HTTPClient, maxRetries: o.MaxRetries, sleep: o.Sleep, log: o.Logger, maxBody: o.MaxResponseBytes,
	}
	if c.hc == nil {
		c.hc = &http.Client{
			Timeout: DefaultTimeout,
			Transport: &http.Transport{
				Proxy:                 http.ProxyFromEnvironment,
				DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
				TLSHandshakeTimeout:   10 * time.Second,
				ResponseHeaderTimeout: 90 * time.Second,
				IdleConnTimeout:       90 * time.Second,
				MaxIdleConnsPerHost:   16,
			},
		}
	}
	n := o.Concurrency
	if n == 0 {
		n = DefaultConcurrency
	}
	c.sem = make(chan struct{}, n)
	if c.maxRetries == 0 {
		c.maxRetries = DefaultMaxRetries
	} else if c.maxRetries < 0 {
		c.maxRetries = 0
	}
	if c.sleep == nil {
		c.sleep = sleepCtx
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.maxBody == 0 {
		c.maxBody = DefaultMaxResponseBytes
	}
	return c, nil
}

// String describes the client without its password.
func (c *Client) String() string { return "wprest.Client(" + c.user + "@" + c.site.String() + ")" }

// SiteURL returns the site URL the client was made with, without a
// trailing slash.
func (c *Client) SiteURL() string { return c.site.String() }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func invalid(param, msg string) error {
	return &contentgen.Error{Code: contentgen.CodeInvalidParameter, Message: param + ": " + msg, Param: param}
}

// ErrResponseTooLarge is returned when a response body exceeds
// Options.MaxResponseBytes.
var ErrResponseTooLarge = errors.New("wprest: response body over the size limit")

// APIError is an error answer of the WordPress REST API, with its wire
// fields: {"code": ..., "message": ..., "data": {"status": ...}}.
//
// errors.Is matches it against contentgen.ErrHostNotFound (status 404 or
// a code saying the object is invalid), contentgen.ErrHostConflict (an
// existing login, e-mail or term) and contentgen.ErrHostReference (a
// reference to a missing author, parent, term or media item).
type APIError struct {
	Method, Path string
	// Status is the HTTP status of the answer (of the inner answer in a batch).
	Status int
	// Code and Message are WordPress's error code and message.
	Code, Message string
}

func (e *APIError) Error() string {
	msg := e.Message
	if len(msg) > 300 {
		msg = msg[:300] + "..."
	}
	return fmt.Sprintf("wprest: %s %s: %d %s: %s", e.Method, e.Path, e.Status, e.Code, msg)
}

// conflictCodes are WordPress error codes of a unique-value clash.
var conflictCodes = map[string]bool{
	"existing_user_login": true, "existing_user_email": true, "term_exists": true,
	"rest_user_invalid_email": false, "duplicate_term_slug": true, "existing_user_nicename": true,
}

// referenceCodes are WordPress error codes of a reference to a missing object.
var referenceCodes = map[string]bool{
	"rest_term_invalid": true, "rest_invalid_author": true, "rest_post_invalid_id": false,
	"rest_comment_invalid_parent": true, "rest_comment_invalid_post_id": true, "rest_comment_author_invalid": true,
	"rest_invalid_featured_media": true, "rest_post_invalid_parent": true, "contentgen_invalid_parent": true,
	"rest_user_invalid_reassign": true, "rest_invalid_param": false,
}

// Is reports whether target is one of the contentgen host errors this
// answer stands for.
func (e *APIError) Is(target error) bool {
	switch target {
	case contentgen.ErrHostNotFound:
		return e.Status == http.StatusNotFound || e.Status == http.StatusGone
	case contentgen.ErrHostConflict:
		return conflictCodes[e.Code]
	case contentgen.ErrHostReference:
		return referenceCodes[e.Code]
	}
	return false
}

// request is one REST call. path is relative to the API root
// ("/wp/v2/posts").
type request struct {
	method, path string
	query        url.Values
	// body is encoded as JSON unless raw is set.
	body any
	// raw, contentType and disposition send bytes as they are (uploads).
	raw         []byte
	contentType string
	disposition string
}

// idempotent reports whether the request may be sent again after an
// answer that does not say whether it was carried out.
func (r *request) idempotent() bool {
	return r.method == http.MethodGet || r.method == http.MethodHead || r.method == http.MethodDelete || r.method == http.MethodPut
}

// do sends req, retrying as the package doc says, and decodes a 2xx JSON
// answer into out (when out is not nil). It returns the answer's headers.
func (c *Client) do(ctx context.Context, req *request, out any) (http.Header, error) {
	var payload []byte
	ctype := req.contentType
	switch {
	case req.raw != nil:
		payload = req.raw
	case req.body != nil:
		var err error
		if payload, err = json.Marshal(req.body); err != nil {
			return nil, fmt.Errorf("wprest: encoding %s %s: %w", req.method, req.path, err)
		}
		ctype = "application/json"
	}
	target := c.api + req.path
	if len(req.query) > 0 {
		target += "?" + req.query.Encode()
	}
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		status, hdr, body, err := c.roundTrip(ctx, req, target, payload, ctype)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if errors.Is(err, ErrResponseTooLarge) || !req.idempotent() || attempt >= c.maxRetries {
				return nil, err
			}
			if err := c.sleep(ctx, backoff(attempt)); err != nil {
				return nil, err
			}
			continue
		}
		if status >= 200 && status < 300 {
			if out != nil && len(body) > 0 {
				if err := json.Unmarshal(body, out); err != nil {
					return hdr, fmt.Errorf("wprest: %s %s: decoding the answer: %w", req.method, req.path, err)
				}
			}
			return hdr, nil
		}
		apiErr := parseAPIError(req.method, req.path, status, body)
		if attempt < c.maxRetries && retryable(req, status) {
			if err := c.sleep(ctx, retryDelay(hdr, attempt)); err != nil {
				return nil, err
			}
			continue
		}
		return hdr, apiErr
	}
}

// retryable reports whether an answer with status may be retried: 429 and
// 503 always (the server refused before doing anything), other 5xx only
// for idempotent requests, since a POST may have been carried out.
func retryable(req *request, status int) bool {
	switch {
	case status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable:
		return true
	case status >= 500:
		return req.idempotent()
	}
	return false
}

// backoff is the wait before retry attempt+1 without Retry-After.
func backoff(attempt int) time.Duration {
	d := firstBackoff << min(attempt, 10)
	return min(d, maxBackoff)
}

// retryDelay honours Retry-After (seconds or an HTTP date), capped.
func retryDelay(h http.Header, attempt int) time.Duration {
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			return min(time.Duration(n)*time.Second, maxRetryAfter)
		}
		if t, err := http.ParseTime(v); err == nil {
			return min(max(time.Until(t), 0), maxRetryAfter)
		}
	}
	return backoff(attempt)
}

// roundTrip sends one attempt, holding a slot of the concurrency bound,
// and reads the bounded body.
func (c *Client) roundTrip(ctx context.Context, req *request, target string, payload []byte, ctype string) (int, http.Header, []byte, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return 0, nil, nil, ctx.Err()
	}
	defer func() { <-c.sem }()
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	hr, err := http.NewRequestWithContext(ctx, req.method, target, rd)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("wprest: %s %s: %w", req.method, req.path, err)
	}
	hr.SetBasicAuth(c.user, c.pass)
	hr.Header.Set("Accept", "application/json")
	if ctype != "" {
		hr.Header.Set("Content-Type", ctype)
	}
	if req.disposition != "" {
		hr.Header.Set("Content-Disposition", req.disposition)
	}
	start := time.Now()
	resp, err := c.hc.Do(hr)
	if err != nil {
		c.log.DebugContext(ctx, "wprest request failed", "method", req.method, "path", req.path, "err", redact(err))
		return 0, nil, nil, fmt.Errorf("wprest: %s %s: %w", req.method, req.path, redact(err))
	}
	defer resp.Body.Close()
	body, err := readLimited(resp.Body, c.maxBody)
	c.log.DebugContext(ctx, "wprest request", "method", req.method, "path", req.path, "status", resp.StatusCode, "duration", time.Since(start))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("wprest: %s %s: %w", req.method, req.path, err)
	}
	return resp.StatusCode, resp.Header, body, nil
}

// redact strips the URL of a *url.Error (it has no credentials, but a
// long query) and keeps its cause.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.Op, ue.Err)
	}
	return err
}

// readLimited reads r up to limit bytes; more is ErrResponseTooLarge.
func readLimited(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w (%d bytes)", ErrResponseTooLarge, limit)
	}
	return b, nil
}

// wireError is WordPress's error body.
type wireError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Data    struct {
		Status int `json:"status"`
	} `json:"data"`
}

func parseAPIError(method, path string, status int, body []byte) *APIError {
	e := &APIError{Method: method, Path: path, Status: status}
	var w wireError
	if json.Unmarshal(body, &w) == nil && w.Code != "" {
		e.Code, e.Message = w.Code, w.Message
	} else {
		e.Code, e.Message = "http_"+strconv.Itoa(status), http.StatusText(status)
	}
	return e
}

// get fetches path into out.
func (c *Client) get(ctx context.Context, path string, q url.Values, out any) (http.Header, error) {
	return c.do(ctx, &request{method: http.MethodGet, path: path, query: q}, out)
}

// post sends body to path and decodes the answer into out.
func (c *Client) post(ctx context.Context, path string, body, out any) error {
	_, err := c.do(ctx, &request{method: http.MethodPost, path: path, body: body}, out)
	return err
}

// listAll reads every page of a collection (per_page=100, following
// X-WP-TotalPages; pages after the first are fetched concurrently). It
// stops early once it has at least limit items when limit > 0.
func listAll[T any](ctx context.Context, c *Client, path string, q url.Values, limit int) ([]T, error) {
	q = cloneValues(q)
	q.Set("per_page", strconv.Itoa(perPage))
	q.Set("page", "1")
	var first []T
	hdr, err := c.get(ctx, path, q, &first)
	if err != nil {
		return nil, err
	}
	pages, _ := strconv.Atoi(hdr.Get("X-WP-TotalPages"))
	if pages <= 1 || len(first) < perPage || (limit > 0 && len(first) >= limit) {
		return first, nil
	}
	if limit > 0 {
		pages = min(pages, (limit+perPage-1)/perPage)
	}
	rest := make([][]T, pages-1)
	err = parallel(ctx, len(rest), func(ctx context.Context, i int) error {
		pq := cloneValues(q)
		pq.Set("page", strconv.Itoa(i+2))
		_, err := c.get(ctx, path, pq, &rest[i])
		return err
	})
	if err != nil {
		return nil, err
	}
	out := first
	for _, r := range rest {
		out = append(out, r...)
	}
	return out, nil
}

// total returns X-WP-Total of a collection query (one item read).
func (c *Client) total(ctx context.Context, path string, q url.Values) (int, error) {
	q = cloneValues(q)
	q.Set("per_page", "1")
	q.Set("_fields", "id")
	hdr, err := c.get(ctx, path, q, nil)
	if err != nil {
		return 0, err
	}
	n, _ := strconv.Atoi(hdr.Get("X-WP-Total"))
	return n, nil
}

func cloneValues(q url.Values) url.Values {
	out := make(url.Values, len(q)+3)
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// parallel runs fn for 0..n-1 on up to n goroutines (the client's
// semaphore bounds the requests) and returns the first error; the
// context given to fn is cancelled once one fails.
func parallel(ctx context.Context, n int, fn func(ctx context.Context, i int) error) error {
	if n == 0 {
		return nil
	}
	if n == 1 {
		return fn(ctx, 0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	for i := range n {
		wg.Go(func() {
			if err := fn(ctx, i); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		})
	}
	wg.Wait()
	return first
}

// parallelAll runs fn for 0..n-1 concurrently and waits for all of them,
// cancelling none when one fails: writes use it so that every object a
// request created is known (and can be removed) when a sibling fails.
func parallelAll(ctx context.Context, n int, fn func(ctx context.Context, i int) error) error {
	if n == 1 {
		return fn(ctx, 0)
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for i := range n {
		wg.Go(func() {
			if err := fn(ctx, i); err != nil {
				mu.Lock()
				if first == nil || errors.Is(first, context.Canceled) {
					first = err
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return first
}

// subRequest is one request of a batch.
type subRequest struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Body   any    `json:"body,omitempty"`
}

// subResponse is one answer of a batch.
type subResponse struct {
	Status int             `json:"status"`
	Body   json.RawMessage `json:"body"`
}

// batch sends at most 25 requests through POST /batch/v1 with
// validation "require-all-validate" and returns one answer per request,
// in order. An inner failure is not an error of batch: the caller reads
// each answer with subResult.
func (c *Client) batch(ctx context.Context, reqs []subRequest) ([]subResponse, error) {
	if len(reqs) > batchSize {
		return nil, fmt.Errorf("wprest: a batch takes at most %d requests, got %d", batchSize, len(reqs))
	}
	var out struct {
		Failed    string        `json:"failed"`
		Responses []subResponse `json:"responses"`
	}
	body := map[string]any{"validation": "require-all-validate", "requests": reqs}
	if err := c.post(ctx, "/batch/v1", body, &out); err != nil {
		return nil, err
	}
	if len(out.Responses) != len(reqs) {
		return nil, fmt.Errorf("wprest: batch of %d requests answered %d", len(reqs), len(out.Responses))
	}
	if out.Failed == "validation" {
		// Nothing ran; report the first answer that failed validation.
		for i, r := range out.Responses {
			if r.Status == 0 {
				continue // valid; answered null
			}
			if err := subResult(reqs[i], r, nil); err != nil {
				return nil, err
			}
		}
		return nil, fmt.Errorf("wprest: batch failed validation")
	}
	return out.Responses, nil
}

// subResult decodes a batch answer into out, or returns its APIError.
func subResult(req subRequest, r subResponse, out any) error {
	if r.Status >= 200 && r.Status < 300 {
		if out != nil {
			if err := json.Unmarshal(r.Body, out); err != nil {
				return fmt.Errorf("wprest: %s %s in a batch: decoding the answer: %w", req.Method, req.Path, err)
			}
		}
		return nil
	}
	return parseAPIError(req.Method, req.Path, r.Status, r.Body)
}

// fetchOwn reads a file from the site's own origin (scheme, host and
// port of Options.URL), bounded by MaxResponseBytes, without credentials.
// A URL elsewhere, or a missing file, is contentgen.ErrHostNotFound.
func (c *Client) fetchOwn(ctx context.Context, raw string) ([]byte, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != c.site.Scheme || !strings.EqualFold(u.Host, c.site.Host) || u.User != nil {
		return nil, fmt.Errorf("no file on the site's origin: %w", contentgen.ErrHostNotFound)
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.sem }()
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	// Redirects may not leave the site's origin either.
	hc := *c.hc
	hc.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if len(via) >= 5 || r.URL.Scheme != c.site.Scheme || !strings.EqualFold(r.URL.Host, c.site.Host) {
			return errors.New("redirect away from the site's origin")
		}
		return nil
	}
	resp, err := hc.Do(hr)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, redact(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone {
		return nil, fmt.Errorf("file answered %d: %w", resp.StatusCode, contentgen.ErrHostNotFound)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("wprest: file answered %d", resp.StatusCode)
	}
	return readLimited(resp.Body, c.maxBody)
}
