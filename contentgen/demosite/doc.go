// Package demosite is the demo site: a content platform as a fresh install
// leaves it, with the post types, taxonomies and hand-made content that
// the example server, the fixtures and the tests of every package start
// from.
//
// New returns it in memory (a memhost.Host). A host that keeps its
// registrations elsewhere, such as a database, registers Types and
// memhost.StandardRoles itself and then writes the hand-made content with
// Seed. The constants name what the site holds, so that tests can refer to
// the custom post type (BookType), its taxonomy (GenreTaxonomy) or the
// administrator (AdminLogin) without spelling them out.
//
// Nothing the package makes carries contentgen.MarkerKey: it is all
// hand-made content, which generation and cleanup must leave alone.
package demosite
