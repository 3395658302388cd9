// Package templates holds saved generation configurations (templates) and
// the field and taxonomy configuration they carry. The custom field
// definitions themselves (adapters, semantic detection, dependencies
// between post types) live in the fields subpackage; making up values
// under a configuration lives in the fill subpackage.
//
// The package imports only templates/fields and the leaf package
// locales/markup from the rest of the module, for the content format of
// wysiwyg values.
//
// # Templates
//
// A Template is a named FieldConfig and TaxonomyConfig for one post type.
// The configurations have a JSON form (the SQL stores keep them as JSON,
// exports carry them, requests send them; ParseFieldConfig and
// ParseTaxonomyConfig decode and validate it). The records the HTTP API
// answers with are built by httpapi, not here.
//
// Two pieces keep templates. A Store is the storage seam: it gets, lists,
// inserts, replaces and deletes records, keeps the SyncMark, and runs a
// unit of work with Atomic (a transaction in a SQL backend); it knows no
// rule. MemStore is the in-memory Store. A Library, made with NewLibrary
// over any Store, holds every rule once: creation and updates validate
// their input and report a *ParamError naming the parameter
// (errors.Is(err, ErrInvalid)), an id that is not positive included;
// unknown ids give ErrNotFound. At most one
// template per post type is the default; the post type never changes
// after creation; system (starter) templates are installed with
// Library.EnsureSystem and are read-only. A variant stores only the
// settings it overrides (see DiffFieldConfig) and Library.Effective merges
// it over its parents (MergeFieldConfig); deleting a template deletes its
// variants. Each change of more than one record runs in one Atomic unit,
// so these rules hold under concurrent use. LibraryOptions inject the
// clock and the embedding program's hooks: Check (is the post type
// registered, do the taxonomies exist; a fault of the template is a
// *ParamError whose Err keeps the embedder's own error, so that its codes
// survive) and Signature (the post type's current fields).
//
// The templatetest package is the conformance suite: every Store runs it
// in one line, and it runs the Library's behaviour tests over that Store.
//
// # Export files
//
// Library.Export and Library.Import move templates between sites in the
// "1.0" export format, a file users keep: Export (with ExportedTemplate)
// is its documented form, MarshalJSON and UnmarshalJSON its bytes, and
// ParseImport decodes one item by item so that a broken item is reported,
// not fatal. A change of the format changes ExportVersion.
//
// # Stale templates
//
// When a template is saved, the Library records the Signature of the post
// type's fields (SignatureOf over their fields.Field definitions), from
// its Signature hook. Library.Stale lists templates whose post type's
// fields have changed since; Library.Status and Library.MarkSeen keep the
// "fields changed" notice (SyncStatus), remembered by the Store's
// SyncMark.
//
// # Where a change goes
//
// A rule about templates (defaults, variants, system templates, import):
// library.go or transfer.go, with its test in templatetest so that every
// Store runs it. A new setting of a field or taxonomy: config.go
// (validation and limits) and schema.go (what /field-schema describes);
// how it changes values: the fill package. A new backend: a Store that
// passes templatetest. The wire records of the template endpoints:
// httpapi/wire_templates.go.
package templates
