package contentgen

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// dateLayouts are the layouts accepted for post_date values.
var dateLayouts = []string{time.DateTime, time.RFC3339, "2006-01-02T15:04:05", time.DateOnly}

func parseDate(s string) (time.Time, bool) {
	for _, l := range dateLayouts {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// toID converts a JSON-ish value to a positive id.
func toID(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, x > 0
	case int:
		return int64(x), x > 0
	case float64:
		if x > 0 && x == math.Trunc(x) && x < 1<<53 {
			return int64(x), true
		}
	case json.Number:
		n, err := x.Int64()
		return n, err == nil && n > 0
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		return n, err == nil && n > 0
	case []any:
		if len(x) == 1 {
			return toID(x[0])
		}
	}
	return 0, false
}

// valueText is a value as text: strings as they are, other scalars in
// their usual notation.
func valueText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	return metaString(v)
}

// emptyValue reports whether v holds nothing worth storing.
func emptyValue(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	case []int64:
		return len(x) == 0
	}
	return false
}

// metaString encodes a field value as a meta value: strings as they are,
// numbers in decimal, booleans as 1 or 0, lists and objects as JSON.
func metaString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		if x {
			return "1"
		}
		return "0"
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return x.String()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
