package ai

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/contentgen/contentgen/providers"
)

// AI provider slugs of the specification.
const (
	SlugOne   = "ai_one"
	SlugTwo   = "ai_two"
	SlugThree = "ai_three"
)

// Slugs returns the AI provider slugs in their documented order.
func Slugs() []string { return []string{SlugOne, SlugTwo, SlugThree} }

// Defaults applied by the constructors to zero Options fields.
const (
	DefaultTimeout             = 30 * time.Second
	DefaultMaxFieldsPerRequest = 40
	DefaultRetryWait           = time.Second
	DefaultMaxRetryWait        = 10 * time.Second
	DefaultMaxRetries          = 1
)

// maxResponseBytes bounds the body read from a provider.
const maxResponseBytes = 8 << 20

// Options configure an AI client. BaseURL and Model are required; the
// constructors apply the defaults above to the zero fields.
type Options struct {
	// BaseURL is the API root without the version path, for example
	// "https://api.example.com" (the client appends /v1/... or /v1beta/...).
	BaseURL string
	// Model is the model name sent with every request.
	Model string
	// APIKey authenticates the requests. When empty, Detect and Test fail
	// with an error wrapping providers.ErrNotConfigured without any request.
	APIKey string
	// HTTPClient sends the requests; nil means a client of its own. The
	// client is copied and never follows redirects, so the key cannot be
	// forwarded to another host.
	HTTPClient *http.Client
	// Timeout bounds one attempt (connecting, sending, reading the answer).
	Timeout time.Duration
	// MaxFieldsPerRequest is the largest batch of fields sent in one
	// request; more fields are split into several requests.
	MaxFieldsPerRequest int
	// RetryWait is the wait before the single retry of a 429 or 5xx answer
	// when the answer has no Retry-After header.
	RetryWait time.Duration
	// MaxRetryWait caps the wait asked for by a Retry-After header.
	MaxRetryWait time.Duration
	// Logger receives retry and dropped-answer notes at debug and warn
	// level; nil discards them. The key is never logged.
	Logger *slog.Logger
	// KeyOptional lets the client work without APIKey, sending no
	// authentication header: for local servers (Ollama, llama.cpp, vLLM)
	// that need no key. Without it a missing key fails every call.
	KeyOptional bool
	// MaxRetries is the number of retries of a 429 or 5xx answer; 0 means
	// DefaultMaxRetries.
	MaxRetries int
	// Sleep waits d before a retry and returns early with ctx.Err() when
	// ctx is done; nil means a timer. Tests inject one that waits for no
	// wall clock.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock that reads Retry-After dates; nil means time.Now.
	Now func() time.Time
}

// String describes the options with the key masked, so that printing
// Options never reveals the key.
func (o Options) String() string {
	return fmt.Sprintf("ai.Options{BaseURL:%q Model:%q APIKey:%s Timeout:%s MaxFieldsPerRequest:%d}",
		o.BaseURL, o.Model, redacted(o.APIKey), o.Timeout, o.MaxFieldsPerRequest)
}

// LogValue implements slog.LogValuer with the key left out.
func (o Options) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("base_url", o.BaseURL),
		slog.String("model", o.Model),
		slog.Bool("has_api_key", o.APIKey != ""),
	)
}

func redacted(key string) string {
	if key == "" {
		return `""`
	}
	return "[redacted]"
}

// Detector is a FieldDetector that can check its configuration cheaply.
type Detector interface {
	providers.FieldDetector
	// Test makes one cheap authenticated request (it reads the configured
	// model's description) and returns nil when the key is accepted. It
	// fails with an error wrapping providers.ErrNotConfigured when there is
	// no key, matching ErrUnauthorized when the key is rejected, matching
	// ErrUnreachable when the provider cannot be reached, and with ctx.Err()
	// (wrapped) when ctx is done. Test does not retry.
	Test(ctx context.Context) error
}

var (
	_ Detector = (*ChatClient)(nil)
	_ Detector = (*MessagesClient)(nil)
	_ Detector = (*GenerateClient)(nil)
)

// New returns the client of the AI provider slug (SlugOne, SlugTwo or
// SlugThree) configured by opts. An unknown slug or invalid options give an
// error naming the problem.
func New(slug string, opts Options) (Detector, error) {
	switch slug {
	case SlugOne:
		return NewChatClient(opts)
	case SlugTwo:
		return NewMessagesClient(opts)
	case SlugThree:
		return NewGenerateClient(opts)
	}
	return nil, fmt.Errorf("ai: unknown provider %q (want one of %s)", slug, strings.Join(Slugs(), ", "))
}

// wire is what differs between the providers' formats.
type wire interface {
	// detect returns the path (below the base URL) and JSON body of a
	// detection request.
	detect(model string, p prompt) (path string, body []byte, err error)
	// answer extracts the JSON answer document from a success body.
	answer(body []byte) ([]byte, error)
	// write returns the path and JSON body of a writing request.
	write(model string, req WriteRequest) (path string, body []byte, err error)
	// written extracts the text and token usage of a writing answer.
	written(body []byte) (*Written, error)
	// version is the version path the client puts below the base URL.
	version() string
	// testPath is the path of the cheap GET used by Test.
	testPath(model string) string
	// auth sets the authentication headers; an empty key (Options.KeyOptional)
	// sets none.
	auth(h http.Header, key string)
	// apiError describes an error answer.
	apiError(status int, body []byte) *APIError
}

// core is the shared engine of the three clients.
type core struct {
	slug string
	opts Options
	base string
	http *http.Client
	log  *slog.Logger
	wire wire
}

func newCore(slug string, opts Options, w wire) (*core, error) {
	base := strings.TrimRight(strings.TrimSpace(opts.BaseURL), "/")
	// The version path is the client's: a base URL given with it, as
	// OpenAI-compatible servers document theirs
	// (http://localhost:11434/v1), means the same root.
	if v := w.version(); strings.HasSuffix(base, v) {
		base = strings.TrimSuffix(base, v)
	}
	u, err := url.Parse(base)
	if base == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("ai: %s: Options.BaseURL must be an absolute http or https URL, got %q", slug, opts.BaseURL)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("ai: %s: Options.BaseURL must not carry a query, fragment or credentials", slug)
	}
	opts.Model = strings.TrimSpace(opts.Model)
	if opts.Model == "" {
		return nil, fmt.Errorf("ai: %s: Options.Model is required", slug)
	}
	switch {
	case opts.Timeout < 0:
		return nil, fmt.Errorf("ai: %s: Options.Timeout must not be negative", slug)
	case opts.MaxFieldsPerRequest < 0:
		return nil, fmt.Errorf("ai: %s: Options.MaxFieldsPerRequest must not be negative", slug)
	case opts.RetryWait < 0:
		return nil, fmt.Errorf("ai: %s: Options.RetryWait must not be negative", slug)
	case opts.MaxRetryWait < 0:
		return nil, fmt.Errorf("ai: %s: Options.MaxRetryWait must not be negative", slug)
	case opts.MaxRetries < 0:
		return nil, fmt.Errorf("ai: %s: Options.MaxRetries must not be negative", slug)
	}
	if opts.MaxRetries == 0 {
		opts.MaxRetries = DefaultMaxRetries
	}
	if opts.Sleep == nil {
		opts.Sleep = sleep
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxFieldsPerRequest == 0 {
		opts.MaxFieldsPerRequest = DefaultMaxFieldsPerRequest
	}
	if opts.RetryWait == 0 {
		opts.RetryWait = DefaultRetryWait
	}
	if opts.MaxRetryWait == 0 {
		opts.MaxRetryWait = DefaultMaxRetryWait
	}
	hc := &http.Client{}
	if opts.HTTPClient != nil {
		c := *opts.HTTPClient
		hc = &c
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &core{slug: slug, opts: opts, base: base, http: hc, log: log.With("provider", slug), wire: w}, nil
}

// sleep waits d unless ctx is done first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// keyMissing reports whether a call must fail for want of a key.
func (c *core) keyMissing() bool { return c.opts.APIKey == "" && !c.opts.KeyOptional }

func (c *core) notConfigured() error {
	return fmt.Errorf("ai: %s: API key missing: %w", c.slug, providers.ErrNotConfigured)
}

// detect implements FieldDetector.Detect for every client.
func (c *core) detect(ctx context.Context, postType string, fields []providers.Field, known []string) ([]providers.Detection, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("ai: %s: %w", c.slug, err)
	}
	if c.keyMissing() {
		return nil, c.notConfigured()
	}
	fields = uniqueFields(fields)
	types := knownTypes(known)
	if len(fields) == 0 || len(types.list) == 0 {
		return nil, nil
	}
	var out []providers.Detection
	for start := 0; start < len(fields); start += c.opts.MaxFieldsPerRequest {
		batch := fields[start:min(start+c.opts.MaxFieldsPerRequest, len(fields))]
		path, body, err := c.wire.detect(c.opts.Model, newPrompt(postType, batch, types.list))
		if err != nil {
			return nil, fmt.Errorf("ai: %s: encoding request: %w", c.slug, err)
		}
		resp, err := c.send(ctx, http.MethodPost, path, body, true)
		if err != nil {
			return nil, err
		}
		doc, err := c.wire.answer(resp)
		if err != nil {
			return nil, fmt.Errorf("ai: %s: %w", c.slug, err)
		}
		found, dropped, err := parseAnswer(doc, batch, types)
		if err != nil {
			return nil, fmt.Errorf("ai: %s: %w", c.slug, err)
		}
		if dropped > 0 {
			c.log.WarnContext(ctx, "ai: dropped detections outside the request or the known types", "dropped", dropped)
		}
		out = append(out, found...)
	}
	return out, nil
}

// test implements Detector.Test for every client.
func (c *core) test(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ai: %s: %w", c.slug, err)
	}
	if c.keyMissing() {
		return c.notConfigured()
	}
	_, err := c.send(ctx, http.MethodGet, c.wire.testPath(c.opts.Model), nil, false)
	return err
}

// send performs the request, retrying once on 429 and 5xx when retry is
// set, and returns the body of a 2xx answer.
func (c *core) send(ctx context.Context, method, path string, body []byte, retry bool) ([]byte, error) {
	for attempt := 1; ; attempt++ {
		status, header, resp, err := c.attempt(ctx, method, path, body)
		if err != nil {
			return nil, err
		}
		if status >= 200 && status < 300 {
			return resp, nil
		}
		apiErr := c.wire.apiError(status, resp)
		apiErr.Provider = c.slug
		apiErr.StatusCode = status
		apiErr.Message = cleanMessage(apiErr.Message, c.opts.APIKey)
		if !retry || attempt > c.opts.MaxRetries || !retryable(status) {
			return nil, apiErr
		}
		wait := c.retryWait(header)
		c.log.WarnContext(ctx, "ai: retrying after API error", "status", status, "wait", wait)
		if err := c.opts.Sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("ai: %s: waiting to retry: %w", c.slug, err)
		}
	}
}

// attempt performs one request bounded by Options.Timeout.
func (c *core) attempt(ctx context.Context, method, path string, body []byte) (int, http.Header, []byte, error) {
	actx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(actx, method, c.base+path, rd)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("ai: %s: building request: %w", c.slug, err)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	c.wire.auth(req.Header, c.opts.APIKey)
	res, err := c.http.Do(req)
	if err != nil {
		return 0, nil, nil, c.transportError(ctx, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, maxResponseBytes))
	if err != nil {
		return 0, nil, nil, c.transportError(ctx, err)
	}
	return res.StatusCode, res.Header, data, nil
}

// transportError classifies a failed round trip: the caller's cancellation
// stays a context error, everything else is ErrUnreachable.
func (c *core) transportError(ctx context.Context, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("ai: %s: %w", c.slug, ctxErr)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("ai: %s: %w: no answer within %s", c.slug, ErrUnreachable, c.opts.Timeout)
	}
	return fmt.Errorf("ai: %s: %w: %w", c.slug, ErrUnreachable, err)
}

// retryWait is the Retry-After of h (seconds or HTTP date) capped at
// MaxRetryWait, or RetryWait when there is none.
func (c *core) retryWait(h http.Header) time.Duration {
	wait := c.opts.RetryWait
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
			wait = c.opts.MaxRetryWait
			if secs < wait.Seconds() {
				wait = time.Duration(secs * float64(time.Second))
			}
		} else if at, err := http.ParseTime(v); err == nil {
			wait = max(at.Sub(c.opts.Now()), 0)
		}
	}
	return min(wait, c.opts.MaxRetryWait)
}
