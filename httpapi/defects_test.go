package httpapi_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/memhost"
)

// countingState counts the reads of a state store.
type countingState struct {
	*memhost.StateStore
	loads atomic.Int64
}

func (s *countingState) Load(ctx context.Context, key string) ([]byte, error) {
	s.loads.Add(1)
	return s.StateStore.Load(ctx, key)
}

func TestUnauthenticatedAnswersReadNoState(t *testing.T) {
	t.Parallel()
	state := &countingState{StateStore: memhost.NewStateStore()}
	e := newEnvWith(t, func(c *contentgen.Config) { c.State = state }, nil)
	before := state.loads.Load()
	for range 5 {
		status, _ := e.do("GET", "/cpts/all", nil, asNobody)
		require.Equal(t, http.StatusUnauthorized, status)
		status, _ = e.do("GET", "/cpts/all", nil, asWrongPassword)
		require.Equal(t, http.StatusUnauthorized, status)
	}
	require.Equal(t, before, state.loads.Load(), "a refused request reads no settings")
}

func TestPostsSummaryFollowsAdminLocale(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, body := e.do("POST", "/settings", map[string]any{"admin_locale": "de_DE"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	status, body = e.do("POST", "/generate/posts", map[string]any{"count": 2, "set_featured_image": false}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, "2 Beiträge erfolgreich erstellt.", body["message"])
}
