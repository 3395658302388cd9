package providers

import (
	"errors"
	"fmt"
	"net"
	"syscall"
	"time"
)

// Errors returned by image providers. Providers wrap them, so test with
// errors.Is.
var (
	// ErrInvalidSize means ImageRequest.Width or Height is outside
	// MinImageSize..MaxImageSize.
	ErrInvalidSize = errors.New("providers: image size out of range")
	// ErrNotImage means a remote service answered with content that is
	// not a supported image.
	ErrNotImage = errors.New("providers: content is not a supported image")
	// ErrTooLarge means a remote response exceeded the provider's size
	// limit; the rest of it was not read.
	ErrTooLarge = errors.New("providers: response too large")
	// ErrNoResults means a searching provider found no image for the
	// request (for example no picture for a category).
	ErrNoResults = errors.New("providers: no image found")
	// ErrUnreachable means the provider's service could not be reached at
	// all: its host name did not resolve, no route led to it, or it
	// refused the connection. Retrying cannot help while the machine is
	// offline, so remote providers return it after the first attempt and
	// a Breaker opens at once.
	ErrUnreachable = errors.New("providers: the provider could not be reached")
)

// Unreachable reports whether err says that a service could not be
// reached at all (see ErrUnreachable): it wraps ErrUnreachable, a failed
// name lookup (*net.DNSError), or a refused connection or missing route
// (ECONNREFUSED, ENETUNREACH, EHOSTUNREACH). A timeout, a reset
// connection or a TLS failure is not: the service may answer the next
// request.
func Unreachable(err error) bool {
	var dns *net.DNSError
	return err != nil && (errors.Is(err, ErrUnreachable) || errors.As(err, &dns) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENETUNREACH) ||
		errors.Is(err, syscall.EHOSTUNREACH))
}

// StatusError is a non-success HTTP status from a remote image service,
// returned after retries (for 429 and 5xx) were used up or not allowed.
type StatusError struct {
	// Provider is the slug of the provider that made the request.
	Provider string
	// StatusCode is the HTTP status of the last response.
	StatusCode int
	// RetryAfter is the wait the service asked for (Retry-After), zero when
	// it did not ask.
	RetryAfter time.Duration
	// Attempts is the number of requests made.
	Attempts int
}

// Error implements error.
func (e *StatusError) Error() string {
	s := fmt.Sprintf("providers: %s: HTTP status %d after %d attempt(s)", e.Provider, e.StatusCode, e.Attempts)
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (retry after %s)", e.RetryAfter)
	}
	return s
}

// Throttled reports whether the service refused because of rate limiting
// (HTTP 429).
func (e *StatusError) Throttled() bool { return e.StatusCode == 429 }
