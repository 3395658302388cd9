package httpapi

import (
	"bytes"
	_ "embed"
	"net/http"
	"slices"
)

// openAPIDocument is the OpenAPI 3.1 document of the API, built by
// package httpapi/internal/openapidoc.
//
//go:embed openapi.json
var openAPIDocument []byte

// OpenAPI returns the OpenAPI 3.1 document (JSON) describing every
// endpoint of the API: parameters, request bodies, answers and their
// statuses, the event stream and the security schemes. Its paths are
// relative to the base the API is mounted under; its servers entry names
// /contentgen/v1, where the example server mounts it. The API serves the
// same bytes at GET /openapi.json. The slice is new on every call.
func OpenAPI() []byte { return slices.Clone(openAPIDocument) }

// openAPI answers GET /openapi.json.
func (a *API) openAPI(w http.ResponseWriter, _ *http.Request) error {
	// writeRaw appends its newline to the slice it is given: hand it a
	// full-capacity slice, so that the append copies rather than writing
	// into the shared document.
	doc := bytes.TrimSuffix(openAPIDocument, []byte("\n"))
	writeRaw(w, http.StatusOK, doc[:len(doc):len(doc)])
	return nil
}
