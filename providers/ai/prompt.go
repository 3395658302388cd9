package ai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/contentgen/contentgen/providers"
)

// noneType is the answer for a field no known type fits; it is dropped.
const noneType = "none"

// Limits on what one field contributes to a prompt.
const (
	maxTextRunes   = 200
	maxInstrRunes  = 500
	maxChoices     = 30
	maxChoiceRunes = 100
)

// systemPrompt tells the model what to do.
const systemPrompt = `You classify the custom fields of a content platform so that realistic sample values can be generated for them.
For every field you are given, decide which one of the allowed semantic types describes the values the field holds, judging by its key, name, label, field type, instructions and choices (names may be in any language).
Use only the allowed types. Use "none" when no allowed type fits.
Give a confidence between 0 and 1.
Answer with exactly one detection per field key you were given, and nothing else.`

// toolName names the tool (ai_two) or schema (ai_one) carrying the answer.
const toolName = "record_field_types"

// typeSet is the caller's list of known types, normalised.
type typeSet struct {
	list   []string          // normalised, in the caller's order, without duplicates
	byNorm map[string]string // normalised -> caller's spelling
}

func normType(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func knownTypes(known []string) typeSet {
	ts := typeSet{byNorm: make(map[string]string, len(known))}
	for _, k := range known {
		n := normType(k)
		if n == "" || n == noneType {
			continue
		}
		if _, dup := ts.byNorm[n]; dup {
			continue
		}
		ts.byNorm[n] = k
		ts.list = append(ts.list, n)
	}
	return ts
}

// uniqueFields drops fields without a key and repeated keys (the first
// wins).
func uniqueFields(fields []providers.Field) []providers.Field {
	seen := make(map[string]bool, len(fields))
	out := make([]providers.Field, 0, len(fields))
	for _, f := range fields {
		if f.Key == "" || seen[f.Key] {
			continue
		}
		seen[f.Key] = true
		out = append(out, f)
	}
	return out
}

// prompt is what one detection request asks.
type prompt struct {
	System string
	User   string   // JSON document describing the fields
	Keys   []string // field keys of the batch
	Types  []string // allowed types, "none" last
}

type promptField struct {
	Key          string   `json:"key"`
	Name         string   `json:"name,omitempty"`
	Label        string   `json:"label,omitempty"`
	Type         string   `json:"type,omitempty"`
	Instructions string   `json:"instructions,omitempty"`
	Choices      []string `json:"choices,omitempty"`
}

func truncRunes(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}

func newPrompt(postType string, fields []providers.Field, types []string) prompt {
	pf := make([]promptField, len(fields))
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.Key
		p := promptField{
			Key:          f.Key,
			Name:         truncRunes(f.Name, maxTextRunes),
			Label:        truncRunes(f.Label, maxTextRunes),
			Type:         truncRunes(f.Type, maxTextRunes),
			Instructions: truncRunes(f.Instructions, maxInstrRunes),
		}
		for j, c := range f.Choices {
			if j == maxChoices {
				break
			}
			p.Choices = append(p.Choices, truncRunes(c, maxChoiceRunes))
		}
		pf[i] = p
	}
	allowed := append(append([]string(nil), types...), noneType)
	doc := struct {
		PostType     string        `json:"post_type"`
		AllowedTypes []string      `json:"allowed_types"`
		Fields       []promptField `json:"fields"`
	}{postType, allowed, pf}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(doc) // strings and slices only: cannot fail
	return prompt{
		System: systemPrompt,
		User:   "Classify these fields:\n" + strings.TrimSpace(buf.String()),
		Keys:   keys,
		Types:  allowed,
	}
}

// jsonSchema is the answer schema in JSON Schema form (ai_one, ai_two):
// an object with a "detections" array of {key, type, confidence}, keys and
// types constrained to enums, no other properties.
func jsonSchema(p prompt) map[string]any {
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"detections": map[string]any{
				"type": "array",
				"items": map[string]any{
					"type": "object",
					"properties": map[string]any{
						"key":        map[string]any{"type": "string", "enum": p.Keys},
						"type":       map[string]any{"type": "string", "enum": p.Types},
						"confidence": map[string]any{"type": "number", "description": "between 0 and 1"},
					},
					"required":             []string{"key", "type", "confidence"},
					"additionalProperties": false,
				},
			},
		},
		"required":             []string{"detections"},
		"additionalProperties": false,
	}
}

// openAPISchema is the same schema in the OpenAPI subset with upper-case
// type names that generate-content style APIs take (ai_three).
func openAPISchema(p prompt) map[string]any {
	return map[string]any{
		"type": "OBJECT",
		"properties": map[string]any{
			"detections": map[string]any{
				"type": "ARRAY",
				"items": map[string]any{
					"type": "OBJECT",
					"properties": map[string]any{
						"key":        map[string]any{"type": "STRING", "format": "enum", "enum": p.Keys},
						"type":       map[string]any{"type": "STRING", "format": "enum", "enum": p.Types},
						"confidence": map[string]any{"type": "NUMBER", "minimum": 0, "maximum": 1},
					},
					"required":         []string{"key", "type", "confidence"},
					"propertyOrdering": []string{"key", "type", "confidence"},
				},
			},
		},
		"required": []string{"detections"},
	}
}

// rawDetection is one entry of a model's answer, read leniently.
type rawDetection struct {
	Key        string          `json:"key"`
	Type       string          `json:"type"`
	Confidence json.RawMessage `json:"confidence"`
}

// parseAnswer validates a model's answer document against the batch and
// the known types. It returns the detections in the order of the batch
// and the number of entries it dropped (unknown keys or types, not counting
// "none"). A document that is not an answer at all is ErrBadAnswer.
func parseAnswer(doc []byte, batch []providers.Field, types typeSet) ([]providers.Detection, int, error) {
	doc = stripFence(doc)
	var entries []json.RawMessage
	trimmed := bytes.TrimSpace(doc)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if err := json.Unmarshal(trimmed, &entries); err != nil {
			return nil, 0, fmt.Errorf("%w: %v", ErrBadAnswer, err)
		}
	} else {
		var wrapped struct {
			Detections *[]json.RawMessage `json:"detections"`
		}
		if err := json.Unmarshal(trimmed, &wrapped); err != nil {
			return nil, 0, fmt.Errorf("%w: %v", ErrBadAnswer, err)
		}
		if wrapped.Detections == nil {
			return nil, 0, fmt.Errorf("%w: no detections in the answer", ErrBadAnswer)
		}
		entries = *wrapped.Detections
	}
	index := make(map[string]int, len(batch))
	for i, f := range batch {
		index[f.Key] = i
	}
	best := make([]*providers.Detection, len(batch))
	dropped := 0
	for _, raw := range entries {
		var e rawDetection
		if err := json.Unmarshal(raw, &e); err != nil {
			dropped++
			continue
		}
		i, ok := index[e.Key]
		n := normType(e.Type)
		if n == noneType || n == "" {
			continue
		}
		t, known := types.byNorm[n]
		if !ok || !known {
			dropped++
			continue
		}
		d := providers.Detection{Key: e.Key, Type: t, Confidence: confidence(e.Confidence)}
		if best[i] == nil || d.Confidence > best[i].Confidence {
			best[i] = &d
		}
	}
	out := make([]providers.Detection, 0, len(batch))
	for _, d := range best {
		if d != nil {
			out = append(out, *d)
		}
	}
	return out, dropped, nil
}

// confidence reads a number or numeric string, clamped to 0..1; anything
// else is 0.
func confidence(raw json.RawMessage) float64 {
	var f float64
	if err := json.Unmarshal(raw, &f); err != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return 0
		}
		f = v
	}
	if math.IsNaN(f) || f < 0 {
		return 0
	}
	return min(f, 1)
}

// stripFence removes a Markdown code fence around a JSON document.
func stripFence(doc []byte) []byte {
	t := bytes.TrimSpace(doc)
	if !bytes.HasPrefix(t, []byte("```")) {
		return t
	}
	t = t[3:]
	if nl := bytes.IndexByte(t, '\n'); nl >= 0 {
		t = t[nl+1:]
	}
	t = bytes.TrimSpace(t)
	return bytes.TrimSuffix(t, []byte("```"))
}
