package httpapi

import (
	"mime"
	"net/http"

	"github.com/contentgen/contentgen/contentgen"
)

// Codes of requests refused before authentication.
const (
	codeCrossOrigin          contentgen.Code = "cross_origin_request"
	codeUnsupportedMediaType contentgen.Code = "unsupported_media_type"
)

// codeTooManyAttempts is the code of a login refused by the throttle.
const codeTooManyAttempts contentgen.Code = "too_many_attempts"

// multipartRoutes are the routes whose bodies are multipart forms rather
// than JSON; their handlers read only multipart/form-data.
var multipartRoutes = map[string]bool{"POST /media/upload": true}

// checkForgery refuses, before authentication, the requests a page of
// another site could make through a browser holding the user's
// credentials: a state-changing request from another origin (403
// cross_origin_request) and a request body that is not declared as
// application/json (415 unsupported_media_type), which no cross-site form
// can send without a CORS preflight the API never grants. Multipart
// bodies are left to the routes that read them.
func (a *API) checkForgery(r *http.Request) error {
	if err := a.cop.Check(r); err != nil {
		return contentgen.Errorf(codeCrossOrigin, "", "%s", a.lastMessages().CrossOrigin())
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	if _, pattern := a.mux.Handler(r); multipartRoutes[pattern] {
		return nil
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err == nil && mt == "application/json" {
		return nil
	}
	return contentgen.Errorf(codeUnsupportedMediaType, "", "%s", a.lastMessages().UnsupportedMediaType())
}
