package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
)

// decodeJSON reads the request body into v. An empty body leaves v as it
// is. Unknown fields are ignored; a wrong JSON type or malformed JSON gives
// an invalid_parameter error naming the parameter.
func decodeJSON(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	body, err := readJSON(w, r, limit)
	if err != nil || body == nil {
		return err
	}
	return jsonError(json.Unmarshal(body, v))
}

// readJSON reads the request body, which must be a JSON object; nil for
// an empty body.
func readJSON(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, contentgen.Errorf(codeTooLarge, "body", "request body is larger than %d bytes", mbe.Limit)
		}
		return nil, paramError("body", "request body could not be read")
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, nil
	}
	if body[0] != '{' {
		return nil, paramError("body", "request body must be a JSON object")
	}
	if err := bodyNUL(body); err != nil {
		return nil, err
	}
	return body, nil
}

// jsonError turns a decoding error into an invalid_parameter error naming
// the parameter.
func jsonError(err error) error {
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		param := te.Field
		if param == "" {
			param = "body"
		}
		return paramError(param, "%s must be %s, got a JSON %s", param, jsonKind(te.Type.String()), te.Value)
	case errors.As(err, &se):
		return paramError("body", "request body is not valid JSON (at byte %d)", se.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return paramError("body", "request body is not valid JSON (unexpected end)")
	}
	var pe *contentgen.Error
	if errors.As(err, &pe) {
		return err
	}
	return paramError("body", "request body is not valid: %v", err)
}

// jsonKind describes a Go type the way an API user thinks of it.
func jsonKind(goType string) string {
	t := strings.TrimPrefix(goType, "*")
	switch {
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "an integer"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "bool":
		return "a boolean"
	case t == "string":
		return "a string"
	case strings.HasPrefix(t, "[]"):
		return "an array"
	case strings.HasPrefix(t, "map["), strings.Contains(t, "."):
		return "an object"
	}
	return "of type " + t
}

// query reads query parameters, collecting the first error.
type query struct {
	v   url.Values
	err error
}

func newQuery(r *http.Request) *query { return &query{v: r.URL.Query()} }

// has reports whether the parameter is present.
func (q *query) has(name string) bool {
	_, a := q.v[name]
	_, b := q.v[name+"[]"]
	return a || b
}

// str returns the parameter's value, or "".
func (q *query) str(name string) string { return strings.TrimSpace(q.v.Get(name)) }

// list returns the values of name[]=v (and name=v, comma-separated).
func (q *query) list(name string) []string {
	var out []string
	for _, v := range q.v[name+"[]"] {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	for _, v := range q.v[name] {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// intPtr parses an optional integer parameter.
func (q *query) intPtr(name string) *int {
	s := q.str(name)
	if s == "" {
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		q.fail(paramError(name, "%s must be an integer, got %q", name, s))
		return nil
	}
	return &n
}

// int64Ptr parses an optional 64-bit integer parameter.
func (q *query) int64Ptr(name string) *int64 {
	s := q.str(name)
	if s == "" {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		q.fail(paramError(name, "%s must be an integer, got %q", name, s))
		return nil
	}
	return &n
}

// intIn parses an optional integer parameter in lo..hi with a default.
func (q *query) intIn(name string, def, lo, hi int) int {
	v := q.intPtr(name)
	if v == nil {
		return def
	}
	if *v < lo || *v > hi {
		q.fail(paramError(name, "%s must be between %d and %d, got %d", name, lo, hi, *v))
		return def
	}
	return *v
}

// boolean parses an optional boolean parameter with a default.
func (q *query) boolean(name string, def bool) bool {
	s := q.str(name)
	switch s {
	case "":
		return def
	case "true":
		return true
	case "false":
		return false
	}
	q.fail(paramError(name, "%s must be true or false, got %q", name, s))
	return def
}

func (q *query) fail(err error) {
	if q.err == nil {
		q.err = err
	}
}

// pathID parses a numeric path segment.
func pathID(r *http.Request, name string) (int64, error) {
	s := r.PathValue(name)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, paramError(name, "%s must be a positive integer, got %q", name, s)
	}
	return n, nil
}

// writeJSON writes v as the JSON answer with status. A v that cannot be
// encoded (a non-finite number, say) is a bug of the caller, which ok
// rules out by encoding first; here it becomes the generic 500.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(`{"success":false,"code":"internal_error","message":"Internal server error."}`)
		status = http.StatusInternalServerError
	}
	writeRaw(w, status, b)
}

// writeRaw writes the encoded JSON answer b with status.
func writeRaw(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
