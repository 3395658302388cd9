package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/httpapi"
)

// TestServerAgreesWithDocument sends, for every operation of the OpenAPI
// document, requests the document forbids (wrong methods, wrong types,
// nulls, numbers out of range, values outside an enum, empty query
// values, unknown properties where additionalProperties is false) and
// requests it allows at every boundary, and fails on any disagreement:
// a forbidden request must be refused with 400 (405 for a method) naming
// the parameter; an allowed value must never be refused for itself.
func TestServerAgreesWithDocument(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(httpapi.OpenAPI(), &doc))
	resolve := func(s map[string]any) map[string]any {
		for s != nil && s["$ref"] != nil {
			s = doc.Components.Schemas[strings.TrimPrefix(s["$ref"].(string), "#/components/schemas/")]
		}
		return s
	}
	fill := func(path string) string {
		r := strings.NewReplacer("{id}", "1", "{post_type}", "post", "{taxonomy}", "category", "{field_type}", "text")
		return r.Replace(path)
	}
	all := []string{"GET", "POST", "PUT", "PATCH", "DELETE"}
	checked := 0

	refused := func(what, method, target string, body any, param string) {
		t.Helper()
		status, got := e.answer(method, target, body)
		checked++
		if status != http.StatusBadRequest || !strings.Contains(fmt.Sprint(got["message"]), param) {
			t.Errorf("%s: %s %s %v: the document forbids it, the server answered %d %v", what, method, target, body, status, got)
		}
	}
	accepted := func(what, method, target string, body any, param string) {
		t.Helper()
		status, got := e.answer(method, target, body)
		checked++
		// A refusal for the site's state (a provider not set up here, an
		// id deleted by the same request) is no disagreement; one of the
		// value's type, range or form is.
		msg := fmt.Sprint(got["message"])
		if status == http.StatusBadRequest && strings.Contains(msg, param) &&
			!strings.Contains(msg, "not set up on this server") && !strings.Contains(msg, "deleted along with") {
			t.Errorf("%s: %s %s %v: the document allows it, the server refused it: %v", what, method, target, body, got)
		}
	}

	paths := make([]string, 0, len(doc.Paths))
	for p := range doc.Paths {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, path := range paths {
		item := doc.Paths[path]
		target := fill(path)
		var methods []string
		for m := range item {
			methods = append(methods, strings.ToUpper(m))
		}
		// Wrong methods: 405 with every documented method in Allow.
		for _, m := range all {
			if slices.Contains(methods, m) {
				continue
			}
			req, err := http.NewRequest(m, e.srv.URL+base+target, nil)
			require.NoError(t, err)
			req.SetBasicAuth("admin", e.adminPW)
			resp, err := e.srv.Client().Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			checked++
			allow := strings.Split(resp.Header.Get("Allow"), ", ")
			if resp.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: no such operation, answered %d", m, target, resp.StatusCode)
				continue
			}
			for _, want := range methods {
				if want == "PARAMETERS" {
					continue
				}
				require.Contains(t, allow, want, "%s %s: Allow %v", m, target, allow)
			}
		}
		for _, method := range methods {
			var op struct {
				Parameters []struct {
					Name   string         `json:"name"`
					In     string         `json:"in"`
					Schema map[string]any `json:"schema"`
				} `json:"parameters"`
				RequestBody struct {
					Content map[string]struct {
						Schema map[string]any `json:"schema"`
					} `json:"content"`
				} `json:"requestBody"`
			}
			require.NoError(t, json.Unmarshal(item[strings.ToLower(method)], &op))
			// Query parameters.
			for _, p := range op.Parameters {
				if p.In != "query" {
					continue
				}
				name := strings.TrimSuffix(p.Name, "[]")
				s := resolve(p.Schema)
				if s["type"] == "array" {
					s = resolve(s["items"].(map[string]any))
				}
				q := func(v string) string { return target + "?" + url.Values{p.Name: {v}}.Encode() }
				what := method + " " + path + " query " + name
				refused(what+" empty", method, q(""), nil, name)
				for _, bad := range badScalars(s) {
					refused(what+" = "+bad, method, q(bad), nil, name)
				}
				for _, good := range goodScalars(s) {
					accepted(what+" = "+good, method, q(good), nil, name)
				}
			}
			// JSON body properties, one at a time.
			c, ok := op.RequestBody.Content["application/json"]
			if !ok {
				continue
			}
			s := resolve(c.Schema)
			props, _ := s["properties"].(map[string]any)
			base := map[string]any{}
			req, _ := s["required"].([]any)
			for _, r := range req {
				base[r.(string)] = requiredValue(r.(string))
			}
			with := func(k string, v any) map[string]any {
				b := map[string]any{}
				for bk, bv := range base {
					b[bk] = bv
				}
				b[k] = v
				return b
			}
			names := make([]string, 0, len(props))
			for k := range props {
				names = append(names, k)
			}
			slices.Sort(names)
			for _, k := range names {
				ps := resolve(props[k].(map[string]any))
				what := method + " " + path + " body " + k
				if !allowsNull(ps) {
					refused(what+" null", method, target, with(k, nil), k)
				}
				for _, bad := range badValues(ps) {
					refused(fmt.Sprintf("%s = %v", what, bad), method, target, with(k, bad), k)
				}
				if ps["additionalProperties"] == false {
					refused(what+" unknown key", method, target, with(k, map[string]any{"no_such_key": 1}), k+".no_such_key")
				}
				if costly(path, ps) {
					continue
				}
				for _, good := range goodValues(ps) {
					accepted(fmt.Sprintf("%s = %v", what, good), method, target, with(k, good), k)
				}
			}
			if s["additionalProperties"] == false {
				refused(method+" "+path+" body unknown key", method, target, with("no_such_key", 1), "no_such_key")
			}
		}
	}
	require.Greater(t, checked, 300, "the document's operations were exercised")
}

// requiredValue is a valid value of a required body property.
func requiredValue(name string) any {
	switch name {
	case "templates":
		return []any{}
	case "post_type":
		return "post"
	case "name":
		return "Agreement"
	case "kind":
		return "posts"
	case "count":
		return 1
	}
	return "x"
}

// costly reports whether values at a property's upper bound would make
// the request do a great deal of work (500 posts with images): those
// are checked at the lower bound only.
func costly(path string, s map[string]any) bool {
	max, ok := s["maximum"].(float64)
	return ok && max > 50 && (strings.HasPrefix(path, "/generate/") || strings.HasPrefix(path, "/media/"))
}

func allowsNull(s map[string]any) bool {
	switch t := s["type"].(type) {
	case nil:
		return s["oneOf"] != nil || len(s) == 0 || s["const"] == nil && s["enum"] == nil && s["properties"] == nil
	case []any:
		return slices.Contains(t, any("null"))
	}
	return false
}

func typeOf(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if x != "null" {
				return x.(string)
			}
		}
	}
	return ""
}

// badValues are JSON values the schema forbids.
func badValues(s map[string]any) []any {
	var out []any
	switch typeOf(s) {
	case "integer":
		out = append(out, "1", 1.5, true)
		if lo, ok := s["minimum"].(float64); ok {
			out = append(out, lo-1)
		}
		if hi, ok := s["maximum"].(float64); ok {
			out = append(out, hi+1)
		}
	case "number":
		out = append(out, "1", true)
		if lo, ok := s["minimum"].(float64); ok {
			out = append(out, lo-1)
		}
		if hi, ok := s["maximum"].(float64); ok {
			out = append(out, hi+1)
		}
	case "string":
		out = append(out, 1, false)
		if s["enum"] != nil {
			out = append(out, "no-such-value")
		}
		if n, ok := s["minLength"].(float64); ok && n > 0 {
			out = append(out, "")
		}
	case "boolean":
		out = append(out, "true", 1)
	case "array":
		out = append(out, "x", map[string]any{})
	case "object":
		out = append(out, "x", []any{})
	}
	return out
}

// goodValues are JSON values at the schema's boundaries.
func goodValues(s map[string]any) []any {
	var out []any
	switch typeOf(s) {
	case "integer", "number":
		if lo, ok := s["minimum"].(float64); ok {
			out = append(out, lo)
		}
		if hi, ok := s["maximum"].(float64); ok {
			out = append(out, hi)
		}
	case "boolean":
		out = append(out, true, false)
	case "string":
		if e, ok := s["enum"].([]any); ok {
			out = append(out, e...)
		}
	}
	return out
}

// badScalars are query values the schema forbids.
func badScalars(s map[string]any) []string {
	var out []string
	switch typeOf(s) {
	case "integer":
		out = append(out, "x", "1.5")
		if lo, ok := s["minimum"].(float64); ok {
			out = append(out, strconv.FormatFloat(lo-1, 'f', -1, 64))
		}
		if hi, ok := s["maximum"].(float64); ok {
			out = append(out, strconv.FormatFloat(hi+1, 'f', -1, 64))
		}
	case "boolean":
		out = append(out, "yes", "1", "TRUE")
	case "string":
		if s["enum"] != nil {
			out = append(out, "no-such-value")
		}
	}
	return out
}

// goodScalars are query values at the schema's boundaries.
func goodScalars(s map[string]any) []string {
	var out []string
	switch typeOf(s) {
	case "integer":
		if lo, ok := s["minimum"].(float64); ok {
			out = append(out, strconv.FormatFloat(lo, 'f', -1, 64))
		}
		if hi, ok := s["maximum"].(float64); ok {
			out = append(out, strconv.FormatFloat(hi, 'f', -1, 64))
		}
	case "boolean":
		out = append(out, "true", "false")
	case "string":
		if e, ok := s["enum"].([]any); ok {
			for _, v := range e {
				out = append(out, fmt.Sprint(v))
			}
		}
	}
	return out
}

// answer sends a request as the administrator and decodes a JSON answer
// (an event stream's answer is left undecoded).
func (e *env) answer(method, target string, body any) (int, map[string]any) {
	e.t.Helper()
	status, raw := e.raw(method, target, body, asAdmin)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return status, out
}
