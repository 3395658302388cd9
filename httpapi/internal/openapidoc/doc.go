// Package openapidoc builds the OpenAPI 3.1 document of the contentgen
// HTTP API, which package httpapi embeds as openapi.json and serves at
// {base}/openapi.json.
//
// The document is written here in Go, one operation per route of
// httpapi, with schemas that state the exact shape of every answer:
// required properties, JSON types, enums and no undocumented properties.
// The tests of httpapi keep it true: the committed openapi.json must be
// what JSON returns (go test ./httpapi -run TestOpenAPIFileIsCurrent
// -update rewrites it), every route must be documented and every
// operation served, and every request and answer of the API tests is
// validated against it.
//
// An operation whose path the router cannot register as it is (three
// paths under /templates/ that one route tells apart) names the route
// that serves it in the extension x-route. The event stream's data
// objects are described by the schema the extension x-event-schema of
// its text/event-stream media type refers to.
package openapidoc
