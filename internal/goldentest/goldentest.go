// Package goldentest checks JSON records for tests: against golden files
// under testdata, refreshed with go test -update-golden, and by the JSON
// type of each key.
package goldentest

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update-golden", false, "rewrite the golden files under testdata")

// JSON compares v as indented JSON with testdata/name, or rewrites the
// file with -update-golden.
func JSON(t testing.TB, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	got = append(got, '\n')
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update-golden to create %s", path)
	require.Equal(t, string(want), string(got))
}

// Types returns the JSON type of each key of v's JSON object: string,
// number, boolean, array, object or null.
func Types(t testing.TB, v any) map[string]string {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m))
	out := make(map[string]string, len(m))
	for k, v := range m {
		switch v.(type) {
		case string:
			out[k] = "string"
		case float64:
			out[k] = "number"
		case bool:
			out[k] = "boolean"
		case []any:
			out[k] = "array"
		case map[string]any:
			out[k] = "object"
		default:
			out[k] = "null"
		}
	}
	return out
}
