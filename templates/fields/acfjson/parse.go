package acfjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/contentgen/contentgen/templates/fields"
)

// maxDepth bounds the nesting of sub_fields.
const maxDepth = 16

// ParseGroups decodes one ACF local JSON file: a field group object or an
// array of them. Inactive groups ("active": false) are left out. A group
// needs a key or a title and, when present, fields must be an array; a
// field needs a name and a type. The error says which group or field is
// wrong.
func ParseGroups(data []byte) ([]fields.Group, error) {
	data = bytes.TrimSpace(data)
	var raws []json.RawMessage
	if len(data) > 0 && data[0] == '[' {
		if err := json.Unmarshal(data, &raws); err != nil {
			return nil, fmt.Errorf("acfjson: not a JSON array of field groups: %w", err)
		}
	} else {
		raws = []json.RawMessage{data}
	}
	var out []fields.Group
	for i, raw := range raws {
		g, ok, err := parseGroup(raw)
		if err != nil {
			if len(raws) > 1 {
				return nil, fmt.Errorf("acfjson: group %d: %w", i, err)
			}
			return nil, fmt.Errorf("acfjson: %w", err)
		}
		if ok {
			out = append(out, g)
		}
	}
	return out, nil
}

type object map[string]json.RawMessage

func parseGroup(raw json.RawMessage) (fields.Group, bool, error) {
	var o object
	if err := json.Unmarshal(raw, &o); err != nil || o == nil {
		return fields.Group{}, false, errors.New("a field group must be a JSON object")
	}
	g := fields.Group{Key: str(o["key"]), Title: str(o["title"])}
	if g.Key == "" && g.Title == "" {
		return g, false, errors.New("a field group needs a key or a title")
	}
	if v, ok := o["active"]; ok && !flag(v, true) {
		return g, false, nil
	}
	defs, err := parseFields(o["fields"], 0)
	if err != nil {
		return g, false, fmt.Errorf("group %q: %w", g.Key, err)
	}
	g.Fields = defs
	g.PostTypes = postTypes(o["location"])
	return g, true, nil
}

// postTypes reads the location rules: an OR of AND groups of rules. A rule
// group contributes the post type of its "post_type ==" rule.
func postTypes(raw json.RawMessage) []string {
	var groups [][]struct {
		Param    string          `json:"param"`
		Operator string          `json:"operator"`
		Value    json.RawMessage `json:"value"`
	}
	if json.Unmarshal(raw, &groups) != nil {
		return nil
	}
	var out []string
	for _, rules := range groups {
		for _, r := range rules {
			if r.Param != "post_type" || r.Operator != "==" {
				continue
			}
			if v := str(r.Value); v != "" && !contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// presentational field types hold no value.
func presentational(t string) bool { return t == "tab" || t == "message" || t == "accordion" }

func parseFields(raw json.RawMessage, depth int) ([]fields.Field, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if depth > maxDepth {
		return nil, errors.New("sub_fields are nested too deeply")
	}
	var items []object
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, errors.New("fields must be an array of field objects")
	}
	out := make([]fields.Field, 0, len(items))
	for i, o := range items {
		if o == nil {
			return nil, fmt.Errorf("field %d is not an object", i)
		}
		t := str(o["type"])
		if presentational(t) {
			continue
		}
		f, err := parseField(o, depth)
		if err != nil {
			name := f.Name
			if name == "" {
				name = strconv.Itoa(i)
			}
			return nil, fmt.Errorf("field %s: %w", name, err)
		}
		out = append(out, f)
	}
	return out, nil
}

func parseField(o object, depth int) (fields.Field, error) {
	f := fields.Field{
		Key: str(o["key"]), Name: str(o["name"]), Label: str(o["label"]), Type: str(o["type"]),
		Required: flag(o["required"], false), Instructions: str(o["instructions"]),
		Min: num(o["min"]), Max: num(o["max"]), Step: num(o["step"]),
		AllowNull: flag(o["allow_null"], false), Multiple: flag(o["multiple"], false),
		ReturnFormat: str(o["return_format"]), EnableOpacity: flag(o["enable_opacity"], false),
	}
	if f.Name == "" {
		return f, errors.New("a field needs a name")
	}
	if f.Type == "" {
		return f, errors.New("a field needs a type")
	}
	if m := num(o["maxlength"]); m != nil && *m > 0 && *m < 1<<31 {
		f.MaxLength = int(*m)
	}
	if dv, ok := o["default_value"]; ok {
		var v any
		if json.Unmarshal(dv, &v) == nil && v != "" {
			f.DefaultValue = v
		}
	}
	switch f.Type {
	case fields.TypeSelect, fields.TypeCheckbox, fields.TypeRadio:
		choices, err := parseChoices(o["choices"])
		if err != nil {
			return f, err
		}
		f.Choices = choices
	case fields.TypeRelationship, fields.TypePostObject:
		f.PostTypes = strList(o["post_type"])
	case fields.TypeTaxonomy:
		f.Taxonomy = str(o["taxonomy"])
		switch str(o["field_type"]) {
		case "checkbox", "multi_select":
			f.Multiple = true
		default:
			f.Multiple = false
		}
	case fields.TypeUser:
		f.Roles = strList(o["role"])
	case fields.TypeRepeater, fields.TypeGroup:
		subs, err := parseFields(o["sub_fields"], depth+1)
		if err != nil {
			return f, err
		}
		f.SubFields = subs
	case fields.TypeRange:
		// ACF's range defaults to 0..100.
		if f.Min == nil {
			f.Min = ptr(0)
		}
		if f.Max == nil {
			f.Max = ptr(100)
		}
	}
	if f.Min != nil && f.Max != nil && *f.Min > *f.Max {
		return f, fmt.Errorf("min %v is above max %v", *f.Min, *f.Max)
	}
	if f.Step != nil && *f.Step <= 0 {
		f.Step = nil
	}
	return f, nil
}

func ptr(v float64) *float64 { return &v }

// parseChoices reads ACF choices: an object of value to label, kept in
// file order, or an array (ACF writes [] for no choices).
func parseChoices(raw json.RawMessage) ([]fields.Choice, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" || string(raw) == `""` {
		return nil, nil
	}
	if raw[0] == '[' {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, errors.New("choices must be an object or an array")
		}
		out := make([]fields.Choice, 0, len(list))
		for _, e := range list {
			if s := str(e); s != "" {
				out = append(out, fields.Choice{Value: s, Label: s})
			}
		}
		return out, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("choices must be an object or an array")
	}
	var out []fields.Choice
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errors.New("choices is not valid JSON")
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, errors.New("choices is not valid JSON")
		}
		label := str(v)
		if label == "" {
			label = key
		}
		out = append(out, fields.Choice{Value: key, Label: label})
	}
	return out, nil
}

// str reads a JSON string or number as a string; anything else is "".
func str(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var n json.Number
		if json.Unmarshal(raw, &n) == nil {
			return n.String()
		}
	}
	return ""
}

// flag reads ACF's loose booleans: true/false, 1/0, "1"/"0", "true"; def
// when absent or unreadable.
func flag(raw json.RawMessage, def bool) bool {
	s := strings.TrimSpace(string(raw))
	switch s {
	case "true", "1", `"1"`, `"true"`:
		return true
	case "false", "0", `"0"`, `"false"`, `""`, "null":
		return false
	}
	return def
}

// num reads a JSON number or numeric string; nil for "", null and others.
func num(raw json.RawMessage) *float64 {
	s := str(raw)
	if s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v != v || v > 1e15 || v < -1e15 {
		return nil
	}
	return &v
}

// strList reads an array of strings or a single string.
func strList(raw json.RawMessage) []string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '[' {
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			return nil
		}
		var out []string
		for _, e := range list {
			if s := str(e); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	if s := str(raw); s != "" {
		return []string{s}
	}
	return nil
}
