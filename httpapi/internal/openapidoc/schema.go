package openapidoc

import (
	"maps"
	"slices"
)

// obj is one JSON object of the document.
type obj = map[string]any

// Schema constructors. Every helper returns a new map, so callers may
// add keys to what they get.

func str(desc string) obj { return withDesc(obj{"type": "string"}, desc) }

func integer(desc string) obj { return withDesc(obj{"type": "integer"}, desc) }

func number(desc string) obj { return withDesc(obj{"type": "number"}, desc) }

func boolean(desc string) obj { return withDesc(obj{"type": "boolean"}, desc) }

// count is a non-negative integer.
func count(desc string) obj { return withDesc(obj{"type": "integer", "minimum": 0}, desc) }

// id is a positive integer id.
func id(desc string) obj { return withDesc(obj{"type": "integer", "minimum": 1}, desc) }

// intIn is an integer in lo..hi.
func intIn(lo, hi int, desc string) obj {
	return withDesc(obj{"type": "integer", "minimum": lo, "maximum": hi}, desc)
}

// enum is a string with the given values.
func enum(desc string, values ...string) obj {
	return withDesc(obj{"type": "string", "enum": slices.Clone(values)}, desc)
}

// constant is a JSON value that is always v.
func constant(v any, desc string) obj { return withDesc(obj{"const": v}, desc) }

// timestamp is a record timestamp, "YYYY-MM-DD HH:MM:SS".
func timestamp(desc string) obj {
	return withDesc(obj{"type": "string", "pattern": timestampPattern}, desc)
}

const timestampPattern = `^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$`

// digits is an integer written as a string, as some counts are.
func digits(desc string) obj { return withDesc(obj{"type": "string", "pattern": `^[0-9]+$`}, desc) }

// nullable widens s (a schema with a single "type") to accept null too.
func nullable(s obj) obj {
	out := maps.Clone(s)
	if t, ok := out["type"].(string); ok {
		out["type"] = []string{t, "null"}
		return out
	}
	return obj{"oneOf": []any{out, obj{"type": "null"}}}
}

func arr(items obj, desc string) obj {
	return withDesc(obj{"type": "array", "items": items}, desc)
}

func strList(desc string) obj { return arr(obj{"type": "string"}, desc) }

func ids(desc string) obj { return arr(obj{"type": "integer", "minimum": 1}, desc) }

// mapOf is an object whose keys are free and whose values are v.
func mapOf(v obj, desc string) obj {
	return withDesc(obj{"type": "object", "additionalProperties": v}, desc)
}

// anyValue is any JSON value.
func anyValue(desc string) obj { return withDesc(obj{}, desc) }

// openObject is an object of any properties.
func openObject(desc string) obj { return withDesc(obj{"type": "object"}, desc) }

func ref(name string) obj { return obj{"$ref": "#/components/schemas/" + name} }

// refDesc is a reference with a description of its use.
func refDesc(name, desc string) obj { return withDesc(ref(name), desc) }

func withDesc(s obj, desc string) obj {
	if desc != "" {
		s["description"] = desc
	}
	return s
}

// props are the properties of an object schema.
type props = map[string]obj

// record is an answer's object of fixed shape: every property is required
// except those named in optional, and no other property may appear.
func record(p props, optional ...string) obj {
	s := obj{"type": "object", "properties": toAny(p), "additionalProperties": false}
	var req []string
	for name := range p {
		if !slices.Contains(optional, name) {
			req = append(req, name)
		}
	}
	for _, name := range optional {
		if _, ok := p[name]; !ok {
			panic("openapidoc: optional property " + name + " is not a property")
		}
	}
	slices.Sort(req)
	if len(req) > 0 {
		s["required"] = req
	}
	return s
}

// body is a request body object: its properties are optional unless
// named in required, and unknown properties are ignored by the server.
func body(desc string, p props, required ...string) obj {
	s := obj{"type": "object", "properties": toAny(p)}
	for _, name := range required {
		if _, ok := p[name]; !ok {
			panic("openapidoc: required property " + name + " is not a property")
		}
	}
	if len(required) > 0 {
		s["required"] = slices.Sorted(slices.Values(required))
	}
	return withDesc(s, desc)
}

// ok is a success answer: {"success": true} plus p, all required except
// optional.
func ok(p props, optional ...string) obj {
	all := maps.Clone(p)
	all["success"] = constant(true, "")
	return record(all, optional...)
}

// merge returns the union of property sets; later sets win.
func merge(sets ...props) props {
	out := props{}
	for _, s := range sets {
		maps.Copy(out, s)
	}
	return out
}

func toAny(p props) obj {
	out := make(obj, len(p))
	for k, v := range p {
		out[k] = v
	}
	return out
}
