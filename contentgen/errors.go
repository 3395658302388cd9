package contentgen

import (
	"context"
	"errors"
	"fmt"
)

// Code is a machine-readable error code. Every failure of the library is
// an *Error carrying one of the codes below.
type Code string

// Error codes. The first group are the codes of the specification.
const (
	CodeInvalidPostType  Code = "invalid_post_type"
	CodeInvalidTaxonomy  Code = "invalid_taxonomy"
	CodeInvalidCount     Code = "invalid_count"
	CodeInvalidParameter Code = "invalid_parameter"
	CodeNotFound         Code = "not_found"
	CodeGenerationFailed Code = "generation_failed"
	CodeNotLoggedIn      Code = "rest_not_logged_in"
	CodeForbidden        Code = "rest_forbidden"

	// CodeConflict is a unique value (a slug, a login) that still clashed
	// after the bounded retries of a write.
	CodeConflict Code = "conflict"
	// CodeTooLarge is a file or body over its size limit.
	CodeTooLarge Code = "too_large"
	// CodeUnsupportedType is a file whose content is not on the allow-list.
	CodeUnsupportedType Code = "unsupported_type"
	// CodeUnavailable is a feature the server has not set up (an image or
	// AI provider, the encryption key of API keys, licensing).
	CodeUnavailable Code = "not_configured"
	// CodeNoFile is an upload without a file.
	CodeNoFile Code = "no_file"
	// CodePartialUpload is an upload whose body ended early.
	CodePartialUpload Code = "partial_upload"
	// CodeInsufficientStorage is a write that failed because the
	// storage of the site is full (see ErrHostFull); nothing of it was
	// kept, and deleting generated content still works to free space.
	CodeInsufficientStorage Code = "insufficient_storage"
	// CodeWriteFailed is a file the host could not store.
	CodeWriteFailed Code = "write_failed"
	// CodeInternal is any other failure; its cause is for logs only.
	CodeInternal Code = "internal_error"
)

// Error is the library's error: a code, a message safe to show a client,
// the parameter at fault and the underlying cause (for logs only).
type Error struct {
	Code    Code
	Message string
	// Param names the parameter at fault, if any, as a client spells it
	// ("count", "taxonomy_config.genre.mode").
	Param string
	// Err is the cause; it is never shown to clients.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same code and no message
// of its own, so that errors.Is(err, ErrInvalidCount) works for any
// message.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.Message == "" && t.Err == nil
}

// Sentinels for errors.Is, one per code.
var (
	ErrInvalidPostType  = &Error{Code: CodeInvalidPostType}
	ErrInvalidTaxonomy  = &Error{Code: CodeInvalidTaxonomy}
	ErrInvalidCount     = &Error{Code: CodeInvalidCount}
	ErrInvalidParameter = &Error{Code: CodeInvalidParameter}
	ErrNotFound         = &Error{Code: CodeNotFound}
	ErrGenerationFailed = &Error{Code: CodeGenerationFailed}
	ErrConflict         = &Error{Code: CodeConflict}
	ErrTooLarge         = &Error{Code: CodeTooLarge}
	ErrUnsupportedType  = &Error{Code: CodeUnsupportedType}
	ErrUnavailable      = &Error{Code: CodeUnavailable}
	ErrNoFile           = &Error{Code: CodeNoFile}
	ErrPartialUpload    = &Error{Code: CodePartialUpload}
	ErrWriteFailed      = &Error{Code: CodeWriteFailed}
	// ErrInsufficientStorage matches the errors of CodeInsufficientStorage.
	ErrInsufficientStorage = &Error{Code: CodeInsufficientStorage}
)

// Errorf returns an *Error with code, the parameter at fault (may be empty)
// and a formatted client-safe message.
func Errorf(code Code, param, format string, args ...any) *Error {
	return &Error{Code: code, Param: param, Message: fmt.Sprintf(format, args...)}
}

// codeOf returns the code of err, CodeInternal when err is not an *Error.
func codeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// invalid is shorthand for an invalid_parameter error naming param.
func invalid(param, format string, args ...any) *Error {
	return Errorf(CodeInvalidParameter, param, format, args...)
}

// failed wraps an unexpected failure during generation. *Error values and
// context errors pass unchanged; a unique-value clash of the host becomes
// CodeConflict, a full storage CodeInsufficientStorage.
func failed(err error, what string) error {
	if err == nil {
		return nil
	}
	var e *Error
	switch {
	case errors.As(err, &e):
		return err
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, ErrHostConflict):
		return &Error{Code: CodeConflict, Message: "a unique value clashed while " + what + "; try again", Err: err}
	case errors.Is(err, ErrHostFull):
		return full(err, what)
	}
	return &Error{Code: CodeGenerationFailed, Message: "generation failed while " + what, Err: err}
}

// internal wraps a failure outside generation (a store, a cache).
func internal(err error, what string) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if errors.Is(err, ErrHostFull) {
		return full(err, what)
	}
	return &Error{Code: CodeInternal, Message: what + " failed", Err: err}
}

// full is the error of a write that failed for lack of space.
func full(err error, what string) *Error {
	return &Error{Code: CodeInsufficientStorage, Err: err,
		Message: "the site's storage is full (" + what + "); nothing of this request was kept: free space, for example by deleting generated content, and try again"}
}
