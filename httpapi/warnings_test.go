package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/providers"
)

// offlineProvider fails as a remote service does on a machine without a
// network.
type offlineProvider struct{}

func (offlineProvider) Info() providers.Info {
	return providers.Info{Slug: providers.Keyword, Name: "Keyword", SupportsCategory: true}
}

func (offlineProvider) Image(context.Context, providers.ImageRequest) (*providers.Image, error) {
	return nil, fmt.Errorf("remote: provider_keyword: %w", providers.ErrUnreachable)
}

// TestGenerateUsersReportsFailedAvatars: avatars the site's default
// provider could not give are a warning in the answer, which names the
// provider and the offline one.
func TestGenerateUsersReportsFailedAvatars(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, func(c *contentgen.Config) { c.ImageProviders = []providers.ImageProvider{offlineProvider{}} }, nil)
	status, body := e.do("POST", "/generate/users", map[string]any{"count": 3}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.EqualValues(t, 3, body["count"])
	warnings, _ := body["warnings"].([]any)
	require.Len(t, warnings, 1, "%v", body)
	require.Contains(t, warnings[0], providers.Keyword)
	require.Contains(t, warnings[0], providers.Local)

	status, body = e.do("POST", "/generate/users", map[string]any{"count": 2, "generate_avatars": false}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, []any{}, body["warnings"])
}
