// Package history records every item contentgen generated, so that exactly
// that content can be found, counted and removed later.
//
// An Entry names one generated object of the host platform (a post, term,
// user, comment or media item) with the options it was made with. A Store
// keeps entries; MemStore is a complete in-memory Store, and the
// historytest package is the conformance suite every Store runs.
//
// The package imports nothing from the rest of the module.
package history
