package sqlstore_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/templatetest"
)

func TestTemplatesConformance(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		templatetest.Run(t, func(t *testing.T) templates.Store { return e.open(t, nil).Templates() })
	})
}

// TestTemplatePutUnchanged puts a template as it is stored: the row
// exists, so Put succeeds though no value changes (MySQL counts such an
// UPDATE as affecting no rows unless told to count the rows it finds).
func TestTemplatePutUnchanged(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		s := e.open(t, nil).Templates()
		tpl, err := s.Insert(t.Context(), templates.Template{Name: "Book", PostType: "book"})
		require.NoError(t, err)
		require.NoError(t, s.Put(t.Context(), tpl))
		require.NoError(t, s.Put(t.Context(), tpl))
		got, err := s.Get(t.Context(), tpl.ID)
		require.NoError(t, err)
		require.Equal(t, "Book", got.Name)
	})
}

// TestNULIsInvalidParameter: a NUL in a text PostgreSQL refuses
// (character_not_in_repertoire, untranslatable_character) is the
// caller's invalid parameter, never an internal failure; the other
// engines may store it.
func TestNULIsInvalidParameter(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		db := e.open(t, nil)
		check := func(what string, err error) {
			t.Helper()
			if e.name == "PostgreSQL" {
				require.ErrorIs(t, err, contentgen.ErrInvalidParameter, what)
				return
			}
			if err != nil {
				require.ErrorIs(t, err, contentgen.ErrInvalidParameter, what)
			}
		}
		_, err := db.Templates().Insert(t.Context(), templates.Template{Name: "a\x00b", PostType: "post"})
		check("template name", err)
		_, err = db.Host(nil).Posts(t.Context(), contentgen.PostQuery{Search: "a\x00b"})
		check("post search", err)
		_, err = db.Host(nil).Users(t.Context(), contentgen.UserQuery{Search: "a\x00b"})
		check("user search", err)
	})
}
