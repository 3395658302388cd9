// Package localetext lets a locales.Writer serve as the text source of
// fill.Filler with the locale's own person names.
//
// A *locales.Writer already satisfies fill.TextSource, Titler,
// CityNamer and DomainNamer; New adds fill.PersonNamer on top of it,
// so first_name, last_name, full_name, e-mail and company values use the
// locale's names rather than the built-in fallback lists.
package localetext
