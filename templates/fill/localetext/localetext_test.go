package localetext_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/templates/fields"
	"github.com/contentgen/contentgen/templates/fill"
	"github.com/contentgen/contentgen/templates/fill/localetext"
)

func TestLocaleNames(t *testing.T) {
	t.Parallel()
	pack, err := locales.NewRegistry().Lookup("en_US")
	require.NoError(t, err)
	r := rand.New(rand.NewPCG(1, 2))
	text := localetext.New(locales.NewWriter(pack, locales.RealText, r))
	g := fill.New(r, text, nil)
	fields := []fields.Field{
		{Name: "first_name", Type: "text", DetectedType: fields.SemFirstName},
		{Name: "full_name", Type: "text", DetectedType: fields.SemFullName},
		{Name: "email", Type: "email"},
		{Name: "city", Type: "text", DetectedType: fields.SemCity},
		{Name: "bio", Type: "textarea"},
	}
	for range 20 {
		v := g.Fill(fields, nil)
		require.NotEmpty(t, v["first_name"])
		require.NotContains(t, v["first_name"], " ")
		require.Contains(t, v["full_name"], " ")
		require.Contains(t, v["email"], "@")
		require.NotEmpty(t, v["city"])
		require.GreaterOrEqual(t, len(strings.Fields(v["bio"].(string))), 5, "textareas get running text of the locale")
	}
}
