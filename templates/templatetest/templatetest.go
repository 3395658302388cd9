package templatetest

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/locales/markup"
	"github.com/contentgen/contentgen/templates"
)

// Run runs the suite: the Store contract against the stores newStore
// returns, and the behaviour of a templates.Library over them. newStore
// must return a new, empty store for each call; the subtests run in
// parallel.
func Run(t *testing.T, newStore func(t *testing.T) templates.Store) {
	t.Helper()
	t.Run("Store", func(t *testing.T) {
		for _, tc := range storeTests {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				tc.fn(t, newStore(t))
			})
		}
	})
	t.Run("Library", func(t *testing.T) {
		for _, tc := range libraryTests {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				tc.fn(t, templates.NewLibrary(newStore(t), &templates.LibraryOptions{Now: func() time.Time { return suiteTime }}))
			})
		}
		for _, tc := range libraryStoreTests {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				tc.fn(t, newStore(t))
			})
		}
	})
}

func bookConfig() templates.FieldConfig {
	return templates.FieldConfig{
		ContentFormat: markup.Blocks,
		CoreFields: map[string]templates.FieldSetting{
			"post_title": {Mode: templates.ModeCreate, Create: &templates.CreateOptions{Method: templates.MethodWords, WordCountMin: 3, WordCountMax: 6}},
		},
		CustomFields: map[string]templates.FieldSetting{
			"price":  {Mode: templates.ModeCreate, FieldType: "number", Create: &templates.CreateOptions{Min: ptr(5.0), Max: ptr(50.0), DecimalPlaces: 2}},
			"format": {Mode: templates.ModeChoose, FieldType: "select", Choose: &templates.ChooseOptions{Values: []any{"hardcover", "ebook"}, SelectionMode: templates.SelectionRotate}},
		},
	}
}

func ptr[T any](v T) *T { return &v }

func create(t *testing.T, l *templates.Library, in templates.Input) templates.Template {
	t.Helper()
	tpl, err := l.Create(context.Background(), in)
	require.NoError(t, err)
	return tpl
}

func get(t *testing.T, l *templates.Library, id int64) templates.Template {
	t.Helper()
	tpl, err := l.Get(context.Background(), id)
	require.NoError(t, err)
	return tpl
}

func requireParam(t *testing.T, err error, param string) {
	t.Helper()
	require.Error(t, err)
	require.ErrorIs(t, err, templates.ErrInvalid)
	var pe *templates.ParamError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, param, pe.Param)
}

func ids(list []templates.Template) []int64 {
	out := []int64{}
	for _, t := range list {
		out = append(out, t.ID)
	}
	return out
}

func defaults(t *testing.T, l *templates.Library, postType string) []int64 {
	t.Helper()
	list, err := l.List(context.Background(), templates.Filter{PostType: postType, DefaultOnly: true})
	require.NoError(t, err)
	return ids(list)
}
