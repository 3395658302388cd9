// Package fill makes up the values of custom and core fields for one
// generation run: it reads field definitions (package fields) and the
// settings a template or request gives them (templates.FieldSetting), and
// knows nothing of where templates are stored or where values are written.
//
// # Values
//
// A Filler, made with New from a *math/rand/v2.Rand and a TextSource (a
// locales.Writer, through the localetext subpackage for person names, or
// LoremText), fills fields by their setting's mode: none (left unset
// unless required), choose (random, or rotating across the run) and create
// (type-aware: min/max/step, choices, multiple, return formats, maxlength;
// text-like fields follow their detected semantic type). Options set the
// clock dates are drawn around, ACF's storage format and the content
// format of wysiwyg values. The same seed gives the same values.
//
// # References
//
// Relational fields (relationship, post_object, taxonomy, user, image,
// file, gallery) first get a Ref placeholder. CollectRefs tells how many
// objects of which kinds a batch needs; Filler.Resolve replaces the Refs
// with ids from a Lookup of existing objects (and URLs, through
// URLLookup).
//
// # Where a change goes
//
// How a field type's value is made: fill.go (fillsemantic.go for the
// semantic types: e-mails, ISBNs, prices, ...). Date formats of date and
// time pickers: phpdate.go. Which options a setting may carry, and their
// limits: templates (config.go, schema.go).
package fill
