package builtin_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/builtin"
	"github.com/contentgen/contentgen/providers/remote"
)

func TestNewMatchesSpecification(t *testing.T) {
	t.Parallel()
	ps, err := builtin.New(nil)
	require.NoError(t, err)
	require.Len(t, ps, len(providers.Slugs()))
	for i, p := range ps {
		info := p.Info()
		require.Equal(t, providers.Slugs()[i], info.Slug)
		require.NotEmpty(t, info.Name)
		require.NotEmpty(t, info.Description)
		require.False(t, info.RequiresAPIKey, "no built-in provider needs a key")
		require.True(t, info.Configured)
		// Only provider_random lacks categories.
		require.Equal(t, info.Slug != providers.Random, info.SupportsCategory, info.Slug)
	}
}

func TestNewReportsOptionErrors(t *testing.T) {
	t.Parallel()
	_, err := builtin.New(&builtin.Options{Random: &remote.Options{BaseURL: "ftp://example.com"}})
	require.ErrorContains(t, err, "BaseURL")
}
