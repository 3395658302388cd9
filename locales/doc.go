// Package locales holds the language data and the text writer that
// contentgen uses to make up titles, paragraphs, names, e-mail addresses and
// term names.
//
// A Registry knows the supported locales and matches near codes ("en",
// "en-US") to the best one. Each Locale has a Pack: immutable word lists and
// rules for one language, built once per Registry and shared by every run.
// A Writer turns a Pack and a caller's random source into text; it is
// cheap to create, not safe for concurrent use, and reuses one buffer so
// that the only allocation per call is the returned string.
//
// The package imports nothing from the rest of the module.
package locales
