package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/memhost"
)

// fullState is a state store on a full disk: it reads, but every write
// fails as a store reports a full storage.
type fullState struct {
	*memhost.StateStore
	full bool
}

func (s *fullState) Update(ctx context.Context, key string, fn func([]byte) ([]byte, error)) error {
	if s.full {
		return fmt.Errorf("state: writing %s: %w", key, contentgen.ErrHostFull)
	}
	return s.StateStore.Update(ctx, key, fn)
}

// TestFullStorageIsInsufficientStorage checks that a write failing for
// lack of space is answered 507 insufficient_storage with a message that
// says so, as the document describes, and that deleting still works.
func TestFullStorageIsInsufficientStorage(t *testing.T) {
	t.Parallel()
	state := &fullState{StateStore: memhost.NewStateStore()}
	e := newEnvWith(t, func(c *contentgen.Config) { c.State = state }, nil)
	status, body := e.do("POST", "/generate/posts", map[string]any{"count": 2, "set_featured_image": false}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)

	state.full = true
	status, body = e.do("POST", "/settings", map[string]any{"hourly_rate": 80}, asAdmin)
	require.Equal(t, http.StatusInsufficientStorage, status, body)
	require.Equal(t, "insufficient_storage", body["code"])
	require.Contains(t, body["message"], "storage is full")

	status, body = e.do("DELETE", "/cleanup/all", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
}
