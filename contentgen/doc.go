// Package contentgen generates realistic fake content — posts of any post
// type with taxonomy terms, hierarchical term trees, users with roles,
// threaded comments and images — into a content platform, tracks every
// item it made, and removes exactly those items later.
//
// # Pieces
//
// A Generator writes to a Host, the platform's storage, and records each
// created item in a history.Store. Package memhost is an in-memory Host
// for tests and demos; hosttest is the conformance suite for other Hosts.
// Text comes from the locales package, images from providers, saved
// generation configurations from templates.
//
// # Tracking and deletion
//
// Every generated object carries the meta MarkerKey = MarkerValue and a
// history entry. Delete, DeletePosts and CleanupAll find items only through
// those two, so content made by people is never touched.
//
// # Templates and custom fields
//
// Config.FieldAdapters supplies the custom fields and relations of post
// types (templates.Registry over code-registered groups, ACF local JSON
// files, or any templates.FieldAdapter). GeneratePosts detects what each
// field means (offline, then through the AI detector when one is
// enabled), fills it under the effective field configuration — the
// template's, with an inline field_config laid over it field by field —
// and points relational fields at real posts, terms, users and images,
// creating related posts where too few exist. Related posts are tracked
// with the origin "related" and removed by DeletePosts with
// DeleteRelatedCPTs. Templates live in Config.Templates; the template
// methods of the Generator (CreateTemplate, UpdateTemplate, ...) check
// them against the site and record the fields they were saved with, so
// that StaleTemplates and SyncStatus notice when a post type's fields
// change.
//
// # Determinism
//
// A run draws every random choice from one source seeded from the
// request's Seed, else from Config.Seed, else randomly. The same seed on
// the same host state gives the same content, which makes the Generator a
// fixture builder for tests.
//
// # Errors
//
// Methods return *Error values carrying the specification's codes
// (CodeInvalidPostType, CodeInvalidCount, ...), a client-safe message and
// the parameter at fault; errors.Is works against ErrInvalidCount and the
// other sentinels. An invalid request writes nothing.
package contentgen
