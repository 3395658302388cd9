package httpapi

import (
	"fmt"
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

// NewCrossOriginProtection returns the protection against cross-site
// requests that the API applies (see "Running the API safely" in the
// package documentation), for other state-changing handlers served beside
// it, such as a login endpoint. Requests with GET, HEAD or OPTIONS pass;
// any other request passes only when the browser marks it as same-origin
// (Sec-Fetch-Site), when its Origin names the host it was sent to or one
// of trustedOrigins ("scheme://host[:port]"), or when it carries neither
// header, as requests from programs other than browsers do.
func NewCrossOriginProtection(trustedOrigins ...string) (*http.CrossOriginProtection, error) {
	c := http.NewCrossOriginProtection()
	for _, o := range trustedOrigins {
		if err := c.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("httpapi: trusted origin %q: %w", o, err)
		}
	}
	return c, nil
}

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
