package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/contentgen/contentgen/contentgen"
)

// Requests are checked against the OpenAPI document the API serves, so
// that the server accepts exactly what the document describes: the
// document's paths give the methods of a path (405 with Allow for any
// other), and the schemas of an operation's query parameters and JSON
// body are compiled once from the embedded document and checked before
// the handler runs. A request the document forbids is 400
// invalid_parameter naming the parameter (dotted for nested properties).
// The handlers keep their own checks for what a schema cannot say.

// apiSpec is the compiled document: its paths in order.
type apiSpec struct {
	paths []*specPath
}

// specPath is one path of the document, split into segments; a segment
// "" is a path parameter.
type specPath struct {
	segments []string
	literals int
	ops      map[string]*specOp
	allow    string
}

// specOp is what a request of one operation is checked against.
type specOp struct {
	query []specParam
	body  *schema // nil: no JSON body described
}

type specParam struct {
	name   string // without "[]"
	schema *schema
}

// schema is a compiled JSON Schema of the subset the document uses.
type schema struct {
	types      []string // empty: any
	props      map[string]*schema
	propNames  []string // sorted
	required   []string
	addl       *schema
	addlFalse  bool
	items      *schema
	min, max   *float64
	minLength  int
	enum       []any
	constant   any
	hasConst   bool
	pattern    *regexp.Regexp
	oneOf      []*schema
	ref        string
	components map[string]*schema
}

// compiledSpec is the document compiled once per process: it is built
// from the embedded bytes and never changes.
var compiledSpec = sync.OnceValues(func() (*apiSpec, error) { return compileSpec(openAPIDocument) })

func compileSpec(doc []byte) (*apiSpec, error) {
	var d struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	comps := map[string]*schema{}
	for name, s := range d.Components.Schemas {
		comps[name] = compileSchema(s, comps)
	}
	spec := &apiSpec{}
	for path, item := range d.Paths {
		sp := &specPath{ops: map[string]*specOp{}}
		for _, seg := range strings.Split(strings.Trim(path, "/"), "/") {
			if strings.HasPrefix(seg, "{") {
				seg = ""
			} else {
				sp.literals++
			}
			sp.segments = append(sp.segments, seg)
		}
		var methods []string
		for method, raw := range item {
			m := strings.ToUpper(method)
			switch m {
			case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
			default:
				continue
			}
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
			if err := json.Unmarshal(raw, &op); err != nil {
				return nil, fmt.Errorf("%s %s: %w", m, path, err)
			}
			so := &specOp{}
			for _, p := range op.Parameters {
				if p.In == "query" {
					so.query = append(so.query, specParam{strings.TrimSuffix(p.Name, "[]"), compileSchema(p.Schema, comps)})
				}
			}
			if c, ok := op.RequestBody.Content["application/json"]; ok {
				so.body = compileSchema(c.Schema, comps)
			}
			sp.ops[m] = so
			methods = append(methods, m)
		}
		order := []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}
		slices.SortFunc(methods, func(a, b string) int { return slices.Index(order, a) - slices.Index(order, b) })
		sp.allow = strings.Join(methods, ", ")
		spec.paths = append(spec.paths, sp)
	}
	// The most literal path wins: /templates/import before /templates/{id}.
	slices.SortStableFunc(spec.paths, func(a, b *specPath) int {
		if a.literals != b.literals {
			return b.literals - a.literals
		}
		return strings.Compare(strings.Join(a.segments, "/"), strings.Join(b.segments, "/"))
	})
	return spec, nil
}

func compileSchema(m map[string]any, comps map[string]*schema) *schema {
	s := &schema{components: comps}
	if m == nil {
		return s
	}
	if r, ok := m["$ref"].(string); ok {
		s.ref = strings.TrimPrefix(r, "#/components/schemas/")
		return s
	}
	switch t := m["type"].(type) {
	case string:
		s.types = []string{t}
	case []any:
		for _, x := range t {
			s.types = append(s.types, x.(string))
		}
	}
	if p, ok := m["properties"].(map[string]any); ok {
		s.props = map[string]*schema{}
		for name, ps := range p {
			s.props[name] = compileSchema(ps.(map[string]any), comps)
			s.propNames = append(s.propNames, name)
		}
		slices.Sort(s.propNames)
	}
	if r, ok := m["required"].([]any); ok {
		for _, x := range r {
			s.required = append(s.required, x.(string))
		}
	}
	switch a := m["additionalProperties"].(type) {
	case bool:
		s.addlFalse = !a
	case map[string]any:
		s.addl = compileSchema(a, comps)
	}
	if it, ok := m["items"].(map[string]any); ok {
		s.items = compileSchema(it, comps)
	}
	if v, ok := m["minimum"].(float64); ok {
		s.min = &v
	}
	if v, ok := m["maximum"].(float64); ok {
		s.max = &v
	}
	if v, ok := m["minLength"].(float64); ok {
		s.minLength = int(v)
	}
	if e, ok := m["enum"].([]any); ok {
		s.enum = e
	}
	if c, ok := m["const"]; ok {
		s.constant, s.hasConst = c, true
	}
	if p, ok := m["pattern"].(string); ok {
		s.pattern = regexp.MustCompile(p)
	}
	if o, ok := m["oneOf"].([]any); ok {
		for _, x := range o {
			s.oneOf = append(s.oneOf, compileSchema(x.(map[string]any), comps))
		}
	}
	return s
}

// target resolves a reference.
func (s *schema) target() *schema {
	for s != nil && s.ref != "" {
		s = s.components[s.ref]
	}
	return s
}

// match returns the document's path of segments, or nil.
func (sp *apiSpec) match(path string) *specPath {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for _, p := range sp.paths {
		if len(p.segments) != len(segs) {
			continue
		}
		ok := true
		for i, s := range p.segments {
			if s != "" && s != segs[i] || s == "" && segs[i] == "" {
				ok = false
				break
			}
		}
		if ok {
			return p
		}
	}
	return nil
}

// checkRequest checks r against the document. It returns (nil, false)
// when the document does not describe r's path, and the error to answer
// (405 or 400) or nil when it does. It may replace r.Body with the bytes
// it read.
func (a *API) checkRequest(w http.ResponseWriter, r *http.Request) (error, bool) {
	spec, err := compiledSpec()
	if err != nil {
		return err, true // New refuses to build an API without it
	}
	p := spec.match(r.URL.Path)
	if p == nil {
		return nil, false
	}
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	op := p.ops[method]
	if op == nil {
		w.Header().Set("Allow", p.allow)
		return contentgen.Errorf(codeMethodNotAllowed, "", "Method %s is not allowed here; use %s.", r.Method, strings.ReplaceAll(p.allow, ", ", " or ")), true
	}
	if len(op.query) > 0 && r.URL.RawQuery != "" {
		if err := op.checkQuery(r.URL.Query()); err != nil {
			return err, true
		}
	}
	if op.body != nil && r.Body != nil && r.Body != http.NoBody {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, a.maxBody))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return contentgen.Errorf(codeTooLarge, "body", "request body is larger than %d bytes", mbe.Limit), true
			}
			return paramError("body", "request body could not be read"), true
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '{' {
			d := json.NewDecoder(bytes.NewReader(t))
			d.UseNumber()
			var v any
			if d.Decode(&v) == nil {
				if err := op.body.check(v, ""); err != nil {
					return err, true
				}
			}
		}
	}
	return nil, true
}

// checkQuery checks the documented query parameters that are present:
// every value must match the parameter's schema, and none may be empty.
func (op *specOp) checkQuery(q url.Values) error {
	for _, p := range op.query {
		vals := append(q[p.name], q[p.name+"[]"]...)
		if len(vals) == 0 {
			continue
		}
		s := p.schema.target()
		isArray := slices.Contains(s.types, "array")
		for _, v := range vals {
			if strings.TrimSpace(v) == "" {
				return paramError(p.name, "%s must not be empty", p.name)
			}
			if !isArray {
				if err := s.checkQueryValue(p.name, v); err != nil {
					return err
				}
				continue
			}
			for _, part := range strings.Split(v, ",") {
				if strings.TrimSpace(part) == "" {
					return paramError(p.name, "%s must not hold empty values", p.name)
				}
				if s.items != nil {
					if err := s.items.target().checkQueryValue(p.name, strings.TrimSpace(part)); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// checkQueryValue checks one query value by the type its schema names.
func (s *schema) checkQueryValue(name, v string) error {
	v = strings.TrimSpace(v)
	var x any = v
	switch {
	case slices.Contains(s.types, "integer"):
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			return paramError(name, "%s must be an integer, got %q", name, v)
		}
		x = json.Number(v)
	case slices.Contains(s.types, "boolean"):
		switch v {
		case "true":
			x = true
		case "false":
			x = false
		default:
			return paramError(name, "%s must be true or false, got %q", name, v)
		}
	}
	return s.check(x, name)
}

// check returns the invalid_parameter error of the first place where v
// departs from s, or nil. path names v ("" for the body).
func (s *schema) check(v any, path string) error {
	s = s.target()
	if s == nil {
		return nil
	}
	name := path
	if name == "" {
		name = "body"
	}
	if len(s.oneOf) > 0 {
		var first error
		for _, o := range s.oneOf {
			err := o.check(v, path)
			if err == nil {
				return nil
			}
			if first == nil {
				first = err
			}
		}
		return first
	}
	if len(s.types) > 0 && !slices.Contains(s.types, jsonTypeOf(v)) &&
		!(jsonTypeOf(v) == "integer" && slices.Contains(s.types, "number")) {
		if v == nil {
			return paramError(name, "%s must not be null", name)
		}
		return paramError(name, "%s must be %s, got a JSON %s", name, kindsOf(s.types), jsonTypeOf(v))
	}
	if s.hasConst && !sameJSON(v, s.constant) {
		return paramError(name, "%s must be %v", name, s.constant)
	}
	if len(s.enum) > 0 && !slices.ContainsFunc(s.enum, func(e any) bool { return sameJSON(v, e) }) {
		return paramError(name, "%s must be one of %v, got %v", name, s.enum, v)
	}
	switch x := v.(type) {
	case json.Number:
		f, _ := x.Float64()
		if s.min != nil && f < *s.min || s.max != nil && f > *s.max {
			if path == "count" {
				// The specification's own code for a count out of range.
				return contentgen.Errorf(contentgen.CodeInvalidCount, name, "%s must be %s, got %s", name, rangeOf(s.min, s.max), x)
			}
			return paramError(name, "%s must be %s, got %s", name, rangeOf(s.min, s.max), x)
		}
	case string:
		if len(x) < s.minLength {
			if s.minLength == 1 {
				return paramError(name, "%s must not be empty", name)
			}
			return paramError(name, "%s must be at least %d characters long", name, s.minLength)
		}
		if s.pattern != nil && !s.pattern.MatchString(x) {
			return paramError(name, "%s has the wrong form, got %q", name, x)
		}
	case []any:
		if s.items != nil {
			for i, e := range x {
				if err := s.items.check(e, name+"["+strconv.Itoa(i)+"]"); err != nil {
					return err
				}
			}
		}
	case map[string]any:
		for _, req := range s.required {
			if _, ok := x[req]; !ok {
				return paramError(join(path, req), "%s is required", join(path, req))
			}
		}
		for _, k := range s.propNames {
			if e, ok := x[k]; ok {
				if err := s.props[k].check(e, join(path, k)); err != nil {
					return err
				}
			}
		}
		if s.addl == nil && !s.addlFalse {
			return nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			if _, known := s.props[k]; !known {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			if s.addlFalse {
				return paramError(join(path, k), "%s is not a known parameter", join(path, k))
			}
			if err := s.addl.check(x[k], join(path, k)); err != nil {
				return err
			}
		}
	}
	return nil
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// jsonTypeOf names the JSON Schema type of a decoded value.
func jsonTypeOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

func kindsOf(types []string) string {
	var out []string
	for _, t := range types {
		switch t {
		case "null":
			continue
		case "integer", "array", "object":
			out = append(out, "an "+t)
		default:
			out = append(out, "a "+t)
		}
	}
	return strings.Join(out, " or ")
}

func rangeOf(lo, hi *float64) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	switch {
	case lo != nil && hi != nil:
		return "between " + f(*lo) + " and " + f(*hi)
	case lo != nil:
		return "at least " + f(*lo)
	case hi != nil:
		return "at most " + f(*hi)
	}
	return "a number"
}

// sameJSON compares a decoded value with one of the document.
func sameJSON(v, want any) bool {
	if n, ok := v.(json.Number); ok {
		f, err := n.Float64()
		w, ok := want.(float64)
		return err == nil && ok && math.Abs(f-w) == 0
	}
	return v == want
}
