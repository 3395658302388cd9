package providers_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers"
)

func TestImageRequestValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		w, h int
		ok   bool
	}{
		{"featured", 1200, 800, true},
		{"smallest", providers.MinImageSize, providers.MinImageSize, true},
		{"largest", providers.MaxImageSize, providers.MaxImageSize, true},
		{"zero width", 0, 800, false},
		{"too wide", providers.MaxImageSize + 1, 800, false},
		{"too short", 800, providers.MinImageSize - 1, false},
		{"negative", -5, -5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := providers.ImageRequest{Width: tt.w, Height: tt.h}.Validate()
			if tt.ok {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, providers.ErrInvalidSize)
		})
	}
}

func TestCategorySlugsMatchCategories(t *testing.T) {
	t.Parallel()
	slugs := providers.CategorySlugs()
	require.Len(t, slugs, len(providers.Categories()))
	for _, s := range slugs {
		require.Contains(t, providers.Categories(), s)
	}
	slugs[0] = "changed"
	require.Equal(t, "nature", providers.CategorySlugs()[0], "each call returns a new slice")
}

func TestStatusError(t *testing.T) {
	t.Parallel()
	var err error = &providers.StatusError{Provider: providers.Random, StatusCode: 429, RetryAfter: time.Minute, Attempts: 1}
	var se *providers.StatusError
	require.True(t, errors.As(err, &se))
	require.True(t, se.Throttled())
	require.Contains(t, err.Error(), "429")
	require.Contains(t, err.Error(), "1m0s")
	require.False(t, (&providers.StatusError{StatusCode: 503}).Throttled())
}
