package contentgen

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// dateLayouts are the forms of a date the library accepts: in post_date
// values and in the DateFrom and DateTo of requests (see ParseDate).
var dateLayouts = []string{time.DateTime, time.RFC3339, "2006-01-02T15:04:05", time.DateOnly}

// parseDate parses s in one of dateLayouts, in UTC, and reports whether
// s was a bare day.
func parseDate(s string) (t time.Time, ok, day bool) {
	for _, l := range dateLayouts {
		if t, err := time.ParseInLocation(l, s, time.UTC); err == nil {
			return t, true, l == time.DateOnly
		}
	}
	return time.Time{}, false, false
}

// ParseDate parses a bound of a request's date range (DateFrom, DateTo)
// in the forms the API and the command line accept, in UTC:
// "YYYY-MM-DD HH:MM:SS", RFC 3339, "YYYY-MM-DDTHH:MM:SS" or a bare day
// "YYYY-MM-DD". A bare day as the upper bound (upper true) includes the
// whole day: it is the day's last second. The empty string is no bound,
// the zero time. ok is false when s is in none of the forms.
func ParseDate(s string, upper bool) (t time.Time, ok bool) {
	if s == "" {
		return time.Time{}, true
	}
	t, ok, day := parseDate(s)
	if ok && day && upper {
		t = t.Add(24*time.Hour - time.Second)
	}
	return t, ok
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
