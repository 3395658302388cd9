package wphost

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/history"
)

type historyEntry = history.Entry

// historyOf returns the history entries whose subtype is subtype.
func historyOf(ctx context.Context, t *testing.T, s *Site, subtype string) []history.Entry {
	t.Helper()
	list, _, err := s.DB().History().List(ctx, history.Filter{})
	require.NoError(t, err)
	var out []history.Entry
	for _, e := range list {
		if e.ContentSubtype == subtype {
			out = append(out, e)
		}
	}
	return out
}
