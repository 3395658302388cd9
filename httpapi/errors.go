package httpapi

import (
	"context"
	"errors"
	"net/http"

	"github.com/contentgen/contentgen/contentgen"
)

// statusOf is the one table from error code to HTTP status.
var statusOf = map[contentgen.Code]int{
	contentgen.CodeInvalidPostType:     http.StatusBadRequest,
	contentgen.CodeInvalidTaxonomy:     http.StatusBadRequest,
	contentgen.CodeInvalidCount:        http.StatusBadRequest,
	contentgen.CodeInvalidParameter:    http.StatusBadRequest,
	contentgen.CodeNotLoggedIn:         http.StatusUnauthorized,
	contentgen.CodeForbidden:           http.StatusForbidden,
	contentgen.CodeNotFound:            http.StatusNotFound,
	contentgen.CodeGenerationFailed:    http.StatusInternalServerError,
	contentgen.CodeConflict:            http.StatusConflict,
	contentgen.CodeTooLarge:            http.StatusRequestEntityTooLarge,
	contentgen.CodeUnsupportedType:     http.StatusUnsupportedMediaType,
	contentgen.CodeUnavailable:         http.StatusServiceUnavailable,
	contentgen.CodeNoFile:              http.StatusBadRequest,
	contentgen.CodePartialUpload:       http.StatusBadRequest,
	contentgen.CodeWriteFailed:         http.StatusInternalServerError,
	contentgen.CodeInsufficientStorage: http.StatusInsufficientStorage,
	contentgen.CodeInternal:            http.StatusInternalServerError,
	codeMethodNotAllowed:               http.StatusMethodNotAllowed,
	codeTooLarge:                       http.StatusRequestEntityTooLarge,
	codeCanceled:                       499,
	codeTooManyAttempts:                http.StatusTooManyRequests,
	codeCrossOrigin:                    http.StatusForbidden,
	codeUnsupportedMediaType:           http.StatusUnsupportedMediaType,
}

// Codes of the HTTP layer itself.
const (
	codeMethodNotAllowed contentgen.Code = "method_not_allowed"
	codeTooLarge         contentgen.Code = "request_too_large"
	codeCanceled         contentgen.Code = "request_canceled"
	codeUnavailable                      = contentgen.CodeUnavailable
)

// errorBody is the error envelope.
type errorBody struct {
	Success bool            `json:"success"`
	Code    contentgen.Code `json:"code,omitempty"`
	Message string          `json:"message"`
}

// httpError carries how an endpoint wants one error written.
type httpError struct {
	err    error
	noCode bool // the endpoint's envelope has no code field
}

func (e *httpError) Error() string { return e.err.Error() }
func (e *httpError) Unwrap() error { return e.err }

// withoutCode marks err to be written as {success: false, message}, the
// envelope some endpoints of the specification use.
func withoutCode(err error) error { return &httpError{err: err, noCode: true} }

// writeError writes err in the error envelope. Client-safe messages come
// only from *contentgen.Error; anything else is logged and reported as an
// internal failure.
func (a *API) writeError(w http.ResponseWriter, r *http.Request, err error) {
	noCode := false
	var he *httpError
	if errors.As(err, &he) {
		noCode = he.noCode
	}
	var ce *contentgen.Error
	status := http.StatusInternalServerError
	body := errorBody{Code: contentgen.CodeInternal, Message: "Internal server error."}
	switch {
	case r.Context().Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		// The client went away or the server is shutting down: no one
		// reads this answer, and nothing failed on our side.
		status, body.Code, body.Message = statusOf[codeCanceled], codeCanceled, "The request was canceled."
		a.log.InfoContext(r.Context(), "httpapi: request ended by the client", "method", r.Method, "path", r.URL.Path, "err", err)
	case errors.As(err, &ce):
		body.Code, body.Message = ce.Code, ce.Message
		if s, ok := statusOf[ce.Code]; ok {
			status = s
		}
		if status >= 500 {
			a.log.ErrorContext(r.Context(), "httpapi: request failed", "method", r.Method, "path", r.URL.Path, "code", ce.Code, "err", err)
		}
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		status, body.Code, body.Message = statusOf[codeCanceled], codeCanceled, "The request was canceled."
		a.log.InfoContext(r.Context(), "httpapi: request canceled", "method", r.Method, "path", r.URL.Path)
	case errors.Is(err, contentgen.ErrHostFull):
		// A store's error that the library did not wrap: still say what
		// happened.
		status, body.Code = statusOf[contentgen.CodeInsufficientStorage], contentgen.CodeInsufficientStorage
		body.Message = "The site's storage is full; nothing of this request was kept. Free space, for example by deleting generated content, and try again."
		a.log.ErrorContext(r.Context(), "httpapi: storage full", "method", r.Method, "path", r.URL.Path, "err", err)
	default:
		a.log.ErrorContext(r.Context(), "httpapi: internal error", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	if noCode {
		body.Code = ""
	}
	// A request that carries a nonce comes from a page of a cookie
	// session, which handles 401 itself: announcing Basic would make the
	// browser prompt for a password over the page.
	if status == http.StatusUnauthorized && a.realm != "" && !hasNonce(r) {
		w.Header().Set("WWW-Authenticate", `Basic realm="`+a.realm+`", charset="UTF-8"`)
	}
	writeJSON(w, status, body)
}

// paramError is an invalid_parameter error naming param, for the HTTP
// layer's own checks.
func paramError(param, format string, args ...any) error {
	return contentgen.Errorf(contentgen.CodeInvalidParameter, param, format, args...)
}

// hasNonce reports whether r carries the nonce of a cookie session.
func hasNonce(r *http.Request) bool {
	return r.Header.Get("X-Host-Nonce") != "" || r.Header.Get("X-WP-Nonce") != ""
}
