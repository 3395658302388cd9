package sqlstore

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/history"
)

// TestMetaEncoderMatchesJSON checks that the meta of history entries is
// stored as json.Marshal writes it, whatever the values, and with the
// index writeMetaIndex describes.
func TestMetaEncoderMatchesJSON(t *testing.T) {
	var enc metaEncoder
	metas := []map[string]any{
		nil,
		{},
		{"locale": "en_US", "has_featured_image": false, "custom_fields_populated": true, "taxonomies_assigned": []string{"category", "post_tag"},
			"template_name": "", "run_id": "r-1", "n": 42, "big": int64(math.MinInt64), "none": nil, "empty": []string{}, "unset": []string(nil)},
		{"html": "<b>&amp;</b>", "quote": `say "hi"`, "slash": `C:\Temp`, "newline": "a\nb", "tab\tkey": "v", "ctl": "\x01\x1f"},
		{"é": "ü", "emoji": "🙂", "line sep": "a\u2028b", "bad utf8": "a\xffb", "del": "\x7f"},
		{"float": 1.5, "int8": int8(-3), "uint": uint(7), "any list": []any{"a", 1, true}, "nested": map[string]any{"x": "y"}},
		{"list": []string{"<x>", "fine"}},
	}
	for _, m := range metas {
		want, err := json.Marshal(m)
		require.NoError(t, err)
		got, index, err := enc.encode(m)
		require.NoError(t, err)
		require.Equal(t, string(want), got, "meta %v", m)
		var b strings.Builder
		writeMetaIndexForTest(&b, m)
		require.Equal(t, b.String(), index, "index of %v", m)
	}
	_, _, err := enc.encode(map[string]any{"nan": math.NaN()})
	require.Error(t, err, "what json.Marshal cannot encode fails")
}

// writeMetaIndexForTest is the meta index as databases hold it: each
// value that history.MetaString formats as non-empty, by sorted key.
func writeMetaIndexForTest(b *strings.Builder, m map[string]any) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	wrote := false
	for _, k := range keys {
		v := history.MetaString(m[k])
		if v == "" {
			continue
		}
		b.WriteString(metaSep + metaEscaper.Replace(k) + metaKV + metaEscaper.Replace(v))
		wrote = true
	}
	if wrote {
		b.WriteString(metaSep)
	}
}
