// Package addons keeps the registry of addons behind GET /addons: the
// embedding program registers what it ships (name, slug, version, active,
// description) and passes the registry in httpapi.Options.Addons; a
// fresh registry is empty. Nothing but the HTTP API lists addons, so the
// package lives beside it.
//
// The package imports only the standard library.
package addons
