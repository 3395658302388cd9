// Package acfjson reads custom field definitions from Advanced Custom
// Fields "local JSON" files, the format WordPress sites keep in their
// acf-json directory and ACF's export tool writes: one field group per
// file (or an array of groups), with its fields and location rules.
//
// ParseGroups decodes one file into fields.Group values; Adapter is a
// fields.Adapter over a directory of such files in an fs.FS, read afresh
// on every call so that edits show up (and make templates stale, see
// templates.Library.Stale).
//
// Field types text, textarea, number, range, email, url, password, image,
// file, wysiwyg, select, checkbox, radio, true_false, date_picker,
// date_time_picker, time_picker, color_picker, relationship, post_object,
// taxonomy, user, repeater, group, gallery, link and google_map are read
// with their settings (min, max, step, choices, multiple, allow_null,
// return_format, required, maxlength, sub_fields, post_type, taxonomy,
// role, enable_opacity, default_value). ACF writes numbers and flags
// loosely ("", "1", 1, true); all spellings are accepted. Presentational
// fields (tab, message, accordion) hold no value and are skipped. A group
// applies to the post types named by its "post_type ==" location rules.
package acfjson
