package httpapi

import (
	"bytes"
	"encoding/json"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// NUL characters are refused at the edge: no backend stores them the same
// way (PostgreSQL refuses them in text outright), and no parameter of the
// API needs one. A request with a NUL in a query parameter or in a string
// of its JSON body is answered 400 invalid_parameter naming the parameter.

// queryNUL returns the error for the first query parameter, in name
// order, whose name or value holds a NUL, or nil.
func queryNUL(rawQuery string) error {
	if !strings.Contains(rawQuery, "%00") && !strings.Contains(rawQuery, "\x00") {
		return nil
	}
	q, _ := url.ParseQuery(rawQuery)
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		bad := strings.ContainsRune(name, 0)
		for _, v := range q[name] {
			bad = bad || strings.ContainsRune(v, 0)
		}
		if bad {
			param := strings.TrimSuffix(strings.ToValidUTF8(strings.ReplaceAll(name, "\x00", ""), ""), "[]")
			return paramError(param, "%s must not contain NUL characters", param)
		}
	}
	return nil
}

// bodyNUL returns the error for a JSON body with a NUL in one of its
// strings, naming the parameter (dotted for nested objects, with the
// index of array items), or nil. Bodies without the escape \u0000 are
// passed at the cost of one scan.
func bodyNUL(body []byte) error {
	if !bytes.Contains(body, []byte(`\u0000`)) {
		return nil
	}
	var v any
	if json.Unmarshal(body, &v) != nil {
		return nil // the decoder reports malformed JSON
	}
	if path, ok := findNUL(v, ""); ok {
		if path == "" {
			path = "body"
		}
		return paramError(path, "%s must not contain NUL characters", path)
	}
	return nil
}

// findNUL returns the path of the first string (key or value) in v that
// holds a NUL.
func findNUL(v any, path string) (string, bool) {
	switch x := v.(type) {
	case string:
		return path, strings.ContainsRune(x, 0)
	case []any:
		for i, e := range x {
			if p, ok := findNUL(e, path+"["+strconv.Itoa(i)+"]"); ok {
				return p, true
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			if strings.ContainsRune(k, 0) {
				return strings.ReplaceAll(p, "\x00", ""), true
			}
			if p, ok := findNUL(x[k], p); ok {
				return p, true
			}
		}
	}
	return "", false
}
