// Package jsonclone deep-copies the values encoding/json decodes into an
// any: the default values of custom fields and the value lists of
// template settings, which the templates packages hand out as copies.
package jsonclone

// Value returns a deep copy of v: []any and map[string]any are copied
// element by element (a nil []any stays nil); every other value (numbers,
// strings, booleans, nil) is returned as it is.
func Value(v any) any {
	switch x := v.(type) {
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = Value(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = Value(e)
		}
		return out
	default:
		return v
	}
}
