// Package addons keeps the registry of addons behind GET /addons: the
// embedding program registers what it ships (name, slug, version, active,
// description); a fresh registry is empty.
//
// The package imports only the standard library.
package addons
