package sqlstore_test

import (
	"testing"

	"github.com/stretchr/testify/require"

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
