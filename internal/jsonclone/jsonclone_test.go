package jsonclone

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestValueCopiesNestedListsAndObjects(t *testing.T) {
	t.Parallel()
	orig := []any{"a", 1.5, map[string]any{"k": []any{"x"}}, nil}
	c := Value(orig).([]any)
	require.Equal(t, orig, c)
	c[0] = "changed"
	c[2].(map[string]any)["k"].([]any)[0] = "changed"
	require.Equal(t, "a", orig[0])
	require.Equal(t, "x", orig[2].(map[string]any)["k"].([]any)[0])
}

func TestValueKeepsNilListAndScalars(t *testing.T) {
	t.Parallel()
	require.Nil(t, Value([]any(nil)))
	require.Equal(t, 3.0, Value(3.0))
	require.Nil(t, Value(nil))
}
