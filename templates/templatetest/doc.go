// Package templatetest is the conformance suite of templates.Store. Every
// implementation runs it from its own tests in one line:
//
//	func TestConformance(t *testing.T) {
//		templatetest.Run(t, func(t *testing.T) templates.Store { return newStore(t) })
//	}
//
// The suite checks the whole contract: creation and validation errors,
// updates of sent properties only, the immutable post type, the unique
// default per post type, deletion with variants and new_default_id,
// duplication, variants and their effective configuration, system
// templates, copies that do not alias stored memory, cancelled contexts,
// concurrent use, the sync mark, and the package functions built on a
// Store (stale detection, export and import).
package templatetest
