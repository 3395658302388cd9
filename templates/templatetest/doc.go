// Package templatetest is the conformance suite of templates.Store. Every
// implementation runs it from its own tests in one line:
//
//	func TestConformance(t *testing.T) {
//		templatetest.Run(t, func(t *testing.T) templates.Store { return newStore(t) })
//	}
//
// The suite has two parts. The Store part checks the storage contract
// itself: insert, get, list, put and delete with their not-found cases,
// cancelled contexts that write nothing, copies that do not alias stored
// memory, the sync mark, and Atomic units that keep all of their writes or
// none (on error, panic or cancellation), nest, and never interleave under
// concurrent use. The Library part runs the behaviour of a
// templates.Library over the store under test: validation, updates of
// sent properties only, the immutable post type, the unique default per
// post type (also under concurrent use), deletion with variants and
// new_default_id, duplication, variants and their effective
// configuration, system templates, timestamps, stale detection, export
// and import. A backend that passes both behaves as MemStore does.
package templatetest
