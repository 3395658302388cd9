package providers

import (
	"errors"
	"fmt"
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
)

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
