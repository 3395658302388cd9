package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/fetch"
	"github.com/contentgen/contentgen/providers/imaging"
)

// Defaults of Options.
const (
	DefaultTimeout      = 20 * time.Second
	DefaultMaxRetries   = 3
	DefaultRetryBase    = 500 * time.Millisecond
	DefaultMaxRetryWait = 10 * time.Second
	DefaultMaxBytes     = 15 << 20
	DefaultUserAgent    = "contentgen-images/1 (+https://github.com/contentgen/contentgen)"
)

// Options configures a remote provider. The zero value (or nil) means
// defaults.
type Options struct {
	// BaseURL replaces the service's address (for a mirror or a test
	// server); the provider appends its URL scheme to it.
	BaseURL string
	// Client is the HTTP client to use. Nil means a client from
	// fetch.NewHTTPClient, which refuses non-public addresses unless
	// AllowPrivateAddresses is set. A given client is used as is, except
	// that its redirects are restricted to http and https.
	Client *http.Client
	// AllowPrivateAddresses lets the default client connect to loopback
	// and private addresses.
	AllowPrivateAddresses bool
	// Timeout bounds each attempt, including reading the body (default
	// 20s).
	Timeout time.Duration
	// MaxRetries is the number of retries after the first attempt
	// (default 3; negative means none).
	MaxRetries int
	// RetryBase is the first backoff wait, doubled per retry (default
	// 500ms).
	RetryBase time.Duration
	// MaxRetryWait caps a single wait: backoff is cut to it, and a
	// Retry-After longer than it ends the retries (default 10s).
	MaxRetryWait time.Duration
	// MaxBytes caps a response body (default 15 MiB).
	MaxBytes int64
	// UserAgent identifies the client to the service (default
	// DefaultUserAgent). Wikimedia asks for a descriptive one.
	UserAgent string
	// Now is the clock for HTTP-date Retry-After values (default
	// time.Now).
	Now func() time.Time
}

// client is the HTTP machinery the providers share.
type client struct {
	slug string
	base string
	hc   *http.Client
	o    Options
	// attemptContext bounds one attempt (Options.Timeout); tests replace
	// it to end an attempt on cue instead of by the clock.
	attemptContext func(context.Context) (context.Context, context.CancelFunc)
}

func newClient(slug, defaultBase string, opts *Options) (*client, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.BaseURL == "" {
		o.BaseURL = defaultBase
	}
	u, err := fetch.CheckURL(o.BaseURL)
	if err != nil {
		return nil, fmt.Errorf("remote: Options.BaseURL %q: %w", o.BaseURL, err)
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxRetries == 0 {
		o.MaxRetries = DefaultMaxRetries
	}
	o.MaxRetries = max(o.MaxRetries, 0)
	if o.RetryBase <= 0 {
		o.RetryBase = DefaultRetryBase
	}
	if o.MaxRetryWait <= 0 {
		o.MaxRetryWait = DefaultMaxRetryWait
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	var hc *http.Client
	if o.Client != nil {
		c := *o.Client
		prev := c.CheckRedirect
		c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
			if s := req.URL.Scheme; s != "http" && s != "https" {
				return fmt.Errorf("%w: redirect to %q", fetch.ErrSchemeNotAllowed, s)
			}
			if prev != nil {
				return prev(req, via)
			}
			if len(via) >= 10 {
				return fetch.ErrTooManyRedirects
			}
			return nil
		}
		hc = &c
	} else {
		hc = fetch.NewHTTPClient(&fetch.Options{
			Timeout:      o.Timeout,
			MaxRedirects: 10,
			AllowPrivate: o.AllowPrivateAddresses,
			UserAgent:    o.UserAgent,
		})
	}
	timeout := o.Timeout
	return &client{
		slug: slug, base: strings.TrimRight(u.String(), "/"), hc: hc, o: o,
		attemptContext: func(ctx context.Context) (context.Context, context.CancelFunc) {
			return context.WithTimeout(ctx, timeout)
		},
	}, nil
}

// response is a successful answer.
type response struct {
	data   []byte
	url    string // final URL
	header http.Header
}

// get fetches rawURL with retries (see the package comment). seed
// decorrelates the backoff of concurrent requests.
func (c *client) get(ctx context.Context, rawURL, accept string, seed uint64) (*response, error) {
	for attempt := 1; ; attempt++ {
		resp, status, hdr, err := c.do(ctx, rawURL, accept)
		if err == nil && status >= 200 && status <= 299 {
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("remote: %s: %w", c.slug, ctx.Err())
		}
		var serr *providers.StatusError
		var retryAfter time.Duration
		var hasRetryAfter bool
		switch {
		case err != nil && permanent(err):
			return nil, err
		case err != nil && providers.Unreachable(err):
			// No such host, no route, connection refused: the next
			// attempt would fail the same way, after a backoff.
			return nil, fmt.Errorf("%w: %w", providers.ErrUnreachable, err)
		case err != nil: // network trouble or attempt timeout: retry
		case status == http.StatusTooManyRequests || status >= 500 && status != 501 && status != 505:
			retryAfter, hasRetryAfter = parseRetryAfter(hdr.Get("Retry-After"), c.o.Now())
			serr = &providers.StatusError{Provider: c.slug, StatusCode: status, RetryAfter: retryAfter, Attempts: attempt}
		default:
			return nil, &providers.StatusError{Provider: c.slug, StatusCode: status, Attempts: attempt}
		}
		if attempt > c.o.MaxRetries || retryAfter > c.o.MaxRetryWait {
			if serr != nil {
				return nil, serr
			}
			return nil, fmt.Errorf("remote: %s: %d attempt(s): %w", c.slug, attempt, err)
		}
		wait := backoff(c.o.RetryBase, c.o.MaxRetryWait, attempt, seed)
		if hasRetryAfter {
			wait = retryAfter
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("remote: %s: %w", c.slug, err)
		}
	}
}

// permanent reports errors that retrying cannot fix.
func permanent(err error) bool {
	return errors.Is(err, providers.ErrTooLarge) ||
		errors.Is(err, fetch.ErrAddressNotAllowed) ||
		errors.Is(err, fetch.ErrSchemeNotAllowed) ||
		errors.Is(err, fetch.ErrTooManyRedirects) ||
		errors.Is(err, fetch.ErrInvalidURL)
}

// do makes one attempt. A non-2xx status is returned with a nil error.
func (c *client) do(ctx context.Context, rawURL, accept string) (*response, int, http.Header, error) {
	actx, cancel := c.attemptContext(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("remote: %s: %w: %v", c.slug, fetch.ErrInvalidURL, err)
	}
	req.Header.Set("User-Agent", c.o.UserAgent)
	req.Header.Set("Accept", accept)
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("remote: %s: %w", c.slug, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		_, _ = io.CopyN(io.Discard, resp.Body, 4096) // lets the connection be reused
		return nil, resp.StatusCode, resp.Header, nil
	}
	data, err := fetch.ReadLimited(resp, c.o.MaxBytes)
	if errors.Is(err, fetch.ErrTooLarge) {
		return nil, 0, nil, fmt.Errorf("remote: %s: %w: %w", c.slug, providers.ErrTooLarge, err)
	}
	if err != nil {
		return nil, 0, nil, fmt.Errorf("remote: %s: %w", c.slug, err)
	}
	return &response{data: data, url: resp.Request.URL.String(), header: resp.Header}, resp.StatusCode, resp.Header, nil
}

// image fetches rawURL and checks that it is an image; it also returns
// the response headers.
func (c *client) image(ctx context.Context, rawURL string, seed uint64) (*providers.Image, http.Header, error) {
	resp, err := c.get(ctx, rawURL, "image/jpeg,image/png,image/gif,image/webp;q=0.8,*/*;q=0.1", seed)
	if err != nil {
		return nil, nil, err
	}
	info, err := imaging.Identify(resp.data)
	if err != nil {
		return nil, nil, fmt.Errorf("remote: %s: %w: %w", c.slug, providers.ErrNotImage, err)
	}
	return &providers.Image{
		Data:     resp.data,
		MIMEType: info.MIMEType,
		Ext:      info.Ext,
		Width:    info.Width,
		Height:   info.Height,
		Source:   resp.url,
	}, resp.header, nil
}

// parseRetryAfter reads delay-seconds or an HTTP date; false when absent
// or unparsable.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(min(s, 86400)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// backoff is base*2^(attempt-1) with ±25% jitter derived from seed and
// attempt, capped at limit.
func backoff(base, limit time.Duration, attempt int, seed uint64) time.Duration {
	d := base << min(attempt-1, 20)
	j := splitmix(seed + uint64(attempt))
	frac := float64(j%1000)/1000*0.5 - 0.25
	d = time.Duration(float64(d) * (1 + frac))
	return min(d, limit)
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// splitmix scrambles a 64-bit value.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// joinPath appends escaped path segments to base.
func joinPath(base string, segs ...string) string {
	var b strings.Builder
	b.WriteString(base)
	for _, s := range segs {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	return b.String()
}
