// Package fields describes the custom fields of a site's post types: where
// their definitions come from (field adapters), what each field means
// (semantic detection) and which post types they point at (dependencies).
// It knows nothing of templates or of generating values; the templates
// package configures these fields and the fill package fills them.
//
// It imports nothing of the module but internal helpers, so that adapters
// (such as the acfjson subpackage) and embedders can use it alone.
//
// # Definitions
//
// A Field is one custom field definition with Advanced Custom Fields'
// types and settings (the Type constants, Types lists them); a Group is a
// titled set of fields for some post types; a Relation links post types
// outside any field. Category sorts field types into the families the
// service reports. CoreFields are the platform's own post fields
// (post_title, post_content, ...) as Field values, so that they are
// configured and filled like custom ones; SupportedCoreFields keeps those
// a post type's features allow.
//
// # Adapters
//
// An Adapter reports groups and relations for post types from one source.
// CodeAdapter serves definitions registered in code; the acfjson
// subpackage reads ACF local JSON files. A Registry combines adapters:
// when several define a post type, the primary adapter's definitions win
// (Registry.Fields returns them as a PostTypeFields).
//
// # Detection
//
// Detect finds a field's semantic type (one of SemanticTypes: email,
// phone, price, city, isbn, ...) from its name, label, key, instructions
// and type, offline, in English, German, French, Spanish, Italian, Dutch,
// Portuguese and Polish. DetectFields runs it over a list; DetectionCache
// keeps detections per post type. SemanticFits checks an AI detector's
// answers before they are trusted.
//
// # Dependencies
//
// Dependencies lists the relational fields and relations of a post type
// with their target post types; AnalyzeDependencies adds what the caller
// knows of each target (labels, counts, default template) as a
// DependencyReport. RelatedToCreate says how many related posts a batch
// should auto-create for a target.
//
// # Where a change goes
//
// A new field type: its constant and Types here, its category in
// Category, its values in the fill package, its options in
// templates.SchemaFor. A new language or synonym for detection:
// semantic.go. A new source of definitions: an Adapter, in a subpackage
// like acfjson.
package fields
