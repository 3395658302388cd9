package localetext

import (
	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/templates/fill"
)

// Text wraps a Writer; like the Writer, it is not safe for concurrent use.
type Text struct {
	*locales.Writer
}

var _ interface {
	fill.TextSource
	fill.Titler
	fill.CityNamer
	fill.DomainNamer
	fill.PersonNamer
} = Text{}

// New returns w as a text source with person names.
func New(w *locales.Writer) Text { return Text{Writer: w} }

// FirstName implements fill.PersonNamer.
func (t Text) FirstName() string { return t.Person().First }

// LastName implements fill.PersonNamer.
func (t Text) LastName() string { return t.Person().Last }
