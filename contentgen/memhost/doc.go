// Package memhost is an in-memory contentgen.Host: the host of unit tests,
// fixtures and the example server's demo site (package demosite). It passes the
// hosttest conformance suite and implements every optional capability
// (Trasher, Transactor, Exister, PostDeleter, MediaStorer, and Lister, which
// scans ids under the read lock without copying rows: list.go).
//
// # Setting up
//
// New returns an empty site with the standard roles (StandardRoles); add
// post types and taxonomies with RegisterPostType and RegisterTaxonomy.
// Options sets the site, the roles and the clock. A site set up like a
// fresh install, with hand-made content, is package demosite's New.
//
// # Behaviour
//
// Every write is validated whole before anything changes, so a failing
// batch stores nothing; references must point at existing objects (see
// the Create methods) and failures wrap ErrInvalid, contentgen.ErrHostConflict
// (logins, e-mail addresses, explicit term slugs) or
// contentgen.ErrHostNotFound. Results are copies; inputs are copied too.
// Queries run in id order; a MetaKey without a MetaValue keeps objects that
// have the key, whatever its value. Posts and media share one id sequence.
// Deleting follows a content platform's rules: children and replies move
// up to the removed object's parent, posts of a removed user go to the
// heir or away with it, featured images and term links are cleared.
//
// # Concurrency and transactions
//
// A Host is safe for concurrent use: reads share a lock, writes take it
// alone. InTx holds the lock for the whole transaction and keeps an undo
// log of the rows it changes, so a failing transaction costs only what it
// wrote and other goroutines never see it half done. Calls made inside the
// transaction (on the Host it hands out, or on the root Host with the
// context it hands out) never wait for the lock.
//
// # Media files
//
// StoreMedia keeps the bytes under uploads/YYYY/MM/ of the site URL; File
// looks them up by URL path and FileHandler serves them over HTTP.
package memhost
