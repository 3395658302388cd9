package ai

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/contentgen/contentgen/providers"
)

// Sentinel errors for errors.Is. A missing API key is reported with
// providers.ErrNotConfigured.
var (
	// ErrUnauthorized matches errors of a provider that rejected the API key
	// (HTTP 401, or an answer that names the key as invalid).
	ErrUnauthorized = errors.New("API error 401: invalid API key")
	// ErrUnreachable matches errors of a provider that could not be reached:
	// connection failures and attempts that ran past Options.Timeout.
	ErrUnreachable = errors.New("connection failed")
	// ErrRateLimited matches errors of a provider that kept answering 429
	// after the retry.
	ErrRateLimited = errors.New("API error 429: rate limited")
	// ErrBadAnswer matches errors of a provider whose answer could not be
	// used: not JSON, not the requested shape, truncated or refused.
	ErrBadAnswer = errors.New("malformed answer")
)

// APIError is an HTTP error answer of a provider. Message is the provider's
// own error text with the API key removed, shortened to at most 300
// characters.
type APIError struct {
	// Provider is the slug of the client that got the answer.
	Provider string
	// StatusCode is the HTTP status of the answer.
	StatusCode int
	// Code is the provider's machine-readable error type or reason, if any.
	Code string
	// Message is the provider's error text, if any.
	Message string
	// InvalidKey is true when the provider said the key is invalid, whatever
	// the status.
	InvalidKey bool
}

// Error returns "<provider>: API error <status>: <message>".
func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString(e.Provider)
	b.WriteString(": API error ")
	fmt.Fprint(&b, e.StatusCode)
	if e.Unauthorized() {
		b.WriteString(": invalid API key")
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

// Unauthorized reports whether the provider rejected the key.
func (e *APIError) Unauthorized() bool { return e.StatusCode == 401 || e.InvalidKey }

// Is makes errors.Is(err, ErrUnauthorized) hold for a rejected key and
// errors.Is(err, ErrRateLimited) for a 429 answer.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrUnauthorized:
		return e.Unauthorized()
	case ErrRateLimited:
		return e.StatusCode == 429
	}
	return false
}

// Temporary reports whether the answer is worth one retry (429 or 5xx).
func (e *APIError) Temporary() bool { return retryable(e.StatusCode) }

func retryable(status int) bool { return status == 429 || status >= 500 }

// maxMessage bounds the provider text kept in an APIError.
const maxMessage = 300

// cleanMessage removes secret from msg and shortens it.
func cleanMessage(msg, secret string) string {
	msg = strings.TrimSpace(msg)
	if secret != "" {
		msg = strings.ReplaceAll(msg, secret, "[redacted]")
	}
	if len(msg) > maxMessage {
		cut := maxMessage
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	return msg
}

// Test outcome messages of POST /settings/ai/test.
const (
	MessageSuccess       = "Connection successful: the API key is valid."
	MessageNotConfigured = "The API key is not configured."
	MessageUnauthorized  = "API error 401: invalid API key."
	MessageUnreachable   = "Connection failed: the AI provider could not be reached."
	MessageBadAnswer     = "The AI provider returned an answer that could not be read."
)

// TestMessage returns the client-safe message that describes the result
// of a client's Test method: MessageSuccess for nil, MessageNotConfigured
// for a missing key, MessageUnauthorized for a rejected key,
// MessageUnreachable for a connection failure, timeout or cancellation, and
// "API error <status>: <provider message>" for other API errors. It never
// contains the key.
func TestMessage(err error) string {
	var apiErr *APIError
	switch {
	case err == nil:
		return MessageSuccess
	case errors.Is(err, providers.ErrNotConfigured):
		return MessageNotConfigured
	case errors.Is(err, ErrUnauthorized):
		return MessageUnauthorized
	case errors.Is(err, ErrUnreachable),
		errors.Is(err, context.Canceled),
		errors.Is(err, context.DeadlineExceeded):
		return MessageUnreachable
	case errors.Is(err, ErrBadAnswer):
		return MessageBadAnswer
	case errors.As(err, &apiErr):
		if apiErr.Message != "" {
			return fmt.Sprintf("API error %d: %s", apiErr.StatusCode, apiErr.Message)
		}
		return fmt.Sprintf("API error %d.", apiErr.StatusCode)
	}
	return MessageUnreachable
}
