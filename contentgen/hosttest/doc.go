// Package hosttest is the conformance suite of contentgen.Host. Every Host
// implementation runs it from its own tests in one line:
//
//	func TestConformance(t *testing.T) {
//		hosttest.Run(t, func(t *testing.T) contentgen.Host {
//			return myhost.Open(t) // a fresh, isolated host
//		})
//	}
//
// # What newHost must return
//
// Run calls newHost once per subtest, from that subtest's goroutine, and
// expects a host whose content is not shared with the hosts of other calls
// (subtests create, delete and count objects). The host may already hold
// content (such as a demo site): the suite marks everything it creates
// with the meta key TagKey and looks only at what it made. It discovers
// what it needs through PostTypes, Taxonomies and Roles:
//
//   - at least one post type that is not Internal (required);
//   - for the term checks, a hierarchical and a flat taxonomy linked to
//     that post type (subtests needing one are skipped, with a message,
//     when it is missing);
//   - for the role filter, at least one role (skipped otherwise).
//
// Beyond the comments of contentgen.Host, the suite expects a host to
// reject a post of an unregistered post type (it uses one to make a batch
// fail), to be safe for concurrent use, and to hand out results that do not
// alias its storage.
//
// # What it checks
//
// Discovery (site, post types with live counts, taxonomies with live
// counts, roles); for posts, terms, users, comments and media: creation in
// batches (ids in input order, input untouched, all or nothing, round trip
// of every field), every query filter with ordering, limit and offset,
// deletion with its cascades (meta, term links, comments, children moving
// up, featured images cleared, posts reassigned or removed with their
// author); meta (merge, copies, ErrHostNotFound); ErrConflict for logins
// and e-mail addresses; a cancelled context returning its error and
// writing nothing; concurrent use. The optional capabilities are checked
// when the host implements them and skipped otherwise: trash (Trasher),
// commit and rollback (Transactor), bulk existence (Exister), deleting
// posts with their comments in bulk (PostDeleter) and the round trip of
// stored bytes (MediaStorer, unless the host's Capabilities say
// MediaRecordsOnly), and listing (Lister: every filter of Listing, both
// orders, pages at their boundaries, exact totals, also after deletes,
// trash and a change of the marker meta; content the host held before
// is taken as listed before the suite began).
package hosttest
