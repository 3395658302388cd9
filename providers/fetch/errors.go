package fetch

import (
	"context"
	"errors"
	"net"
)

// Kinds of fetch failure besides those of fetch.go and addr.go. Every
// error Fetcher.Get returns is an *Error whose Kind is one of ErrInvalidURL,
// ErrSchemeNotAllowed, ErrAddressNotAllowed, ErrTooManyRedirects,
// ErrTooLarge, ErrTimeout, ErrUnreachable, ErrBadStatus or ErrCanceled.
// The kinds' messages name no address, host, port or resolver, so they
// may be shown to the user who asked for the download.
var (
	// ErrTimeout means the remote server did not answer, or did not send
	// the whole body, within Options.Timeout.
	ErrTimeout = errors.New("fetch: the remote server did not answer in time")
	// ErrUnreachable means the remote server could not be reached: the
	// name did not resolve, the connection was refused or reset, or TLS
	// failed.
	ErrUnreachable = errors.New("fetch: the remote server could not be reached")
	// ErrBadStatus means the remote server answered with a status other
	// than 2xx; the cause is a *StatusError.
	ErrBadStatus = errors.New("fetch: the remote server answered with an error status")
	// ErrCanceled means the caller's context ended first; the cause
	// matches context.Canceled or context.DeadlineExceeded.
	ErrCanceled = errors.New("fetch: the download was cancelled")
)

// Error is a failed fetch. Its message is the message of its Kind only,
// which is safe to show to a client; the cause, which may name internal
// addresses (such as the resolver's), is in Err for logs and reached
// through errors.Is and errors.As, never through Error.
type Error struct {
	// Kind is one of the kinds listed at ErrTimeout.
	Kind error
	// Err is the underlying cause, for logs.
	Err error
}

// Error returns the Kind's message.
func (e *Error) Error() string { return e.Kind.Error() }

// Unwrap returns the kind and the cause, so that errors.Is matches both
// (errors.Is(err, ErrTimeout), errors.Is(err, context.Canceled)) and
// errors.As finds a *StatusError or *AddressError in the cause.
func (e *Error) Unwrap() []error { return []error{e.Kind, e.Err} }

// Kind returns the kind of a fetch failure (see Error), or nil when err
// is nil or not an *Error. Show the kind's message, never err's cause.
func Kind(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return nil
}

// classify wraps a failure of a request or of reading its body into an
// *Error of the right kind. ctx is the caller's context.
func classify(ctx context.Context, err error) *Error {
	var fe *Error
	if errors.As(err, &fe) {
		return fe
	}
	kind := ErrUnreachable
	var ne net.Error
	switch {
	case ctx.Err() != nil:
		kind, err = ErrCanceled, errors.Join(ctx.Err(), err)
	case errors.Is(err, ErrAddressNotAllowed):
		kind = ErrAddressNotAllowed
	case errors.Is(err, ErrSchemeNotAllowed):
		kind = ErrSchemeNotAllowed
	case errors.Is(err, ErrTooManyRedirects):
		kind = ErrTooManyRedirects
	case errors.Is(err, ErrInvalidURL):
		kind = ErrInvalidURL
	case errors.Is(err, ErrTooLarge):
		kind = ErrTooLarge
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		kind = ErrTimeout
	}
	return &Error{Kind: kind, Err: err}
}
