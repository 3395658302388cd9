package auth_test

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/httpapi/auth"
)

// An application password has WordPress's shape, and every one of its 62
// letters and digits turns up.
func TestRandomAppPassword(t *testing.T) {
	t.Parallel()
	shape := regexp.MustCompile(`^[a-zA-Z0-9]{4}( [a-zA-Z0-9]{4}){5}$`)
	seen := map[rune]bool{}
	for range 500 {
		pw, err := auth.RandomAppPassword()
		require.NoError(t, err)
		require.Regexp(t, shape, pw)
		for _, r := range pw {
			seen[r] = r != ' '
		}
	}
	delete(seen, ' ')
	require.Len(t, seen, 62)
}
