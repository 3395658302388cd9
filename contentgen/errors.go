package contentgen

import (
	"context"
	"errors"
	"fmt"
)

// Code is a machine-readable error code of the API.
type Code string

// Error codes of the specification.
const (
	CodeInvalidPostType  Code = "invalid_post_type"
	CodeInvalidTaxonomy  Code = "invalid_taxonomy"
	CodeInvalidCount     Code = "invalid_count"
	CodeInvalidParameter Code = "invalid_parameter"
	CodeNotFound         Code = "not_found"
	CodeGenerationFailed Code = "generation_failed"
	CodeNotLoggedIn      Code = "rest_not_logged_in"
	CodeForbidden        Code = "rest_forbidden"
	// CodeInternal is used for failures outside generation.
	CodeInternal Code = "internal_error"
)

// Error is the library's error: a code, a message safe to show a client,
// the parameter at fault and the underlying cause (for logs only).
type Error struct {
	Code    Code
	Message string
	// Param names the request parameter at fault, if any.
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

// Is reports whether target is an *Error with the same code, so that
// errors.Is(err, ErrInvalidCount) works for any message.
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
)

// Errorf returns an *Error with code, the parameter at fault (may be empty)
// and a formatted client-safe message.
func Errorf(code Code, param, format string, args ...any) *Error {
	return &Error{Code: code, Param: param, Message: fmt.Sprintf(format, args...)}
}

// invalid is shorthand for an invalid_parameter error naming param.
func invalid(param, format string, args ...any) *Error {
	return Errorf(CodeInvalidParameter, param, format, args...)
}

// failed wraps an unexpected failure during generation.
func failed(err error, what string) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &Error{Code: CodeGenerationFailed, Message: "generation failed while " + what, Err: err}
}

// CodeOf returns the code of err, CodeInternal when err is not an *Error.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}
