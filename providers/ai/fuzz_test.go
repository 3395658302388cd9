package ai

import (
	"testing"

	"github.com/contentgen/contentgen/providers"
)

// FuzzParseAnswer checks that no answer, however odd, yields a detection
// outside the batch, outside the known types or with a confidence outside
// 0..1.
func FuzzParseAnswer(f *testing.F) {
	for _, seed := range []string{
		`{"detections":[{"key":"a","type":"email","confidence":0.9}]}`,
		`[{"key":"b","type":"CITY","confidence":"2"}]`,
		"```json\n{\"detections\":[]}\n```",
		`{"detections":[{"key":"a","type":"none"},{"key":"zz","type":"email","confidence":-1}, 7, null]}`,
		`{"detections":null}`,
		`{}`,
		``,
	} {
		f.Add(seed)
	}
	batch := []providers.Field{{Key: "a"}, {Key: "b"}}
	types := knownTypes([]string{"email", "City"})
	f.Fuzz(func(t *testing.T, doc string) {
		got, _, err := parseAnswer([]byte(doc), batch, types)
		if err != nil && got != nil {
			t.Fatalf("detections with an error: %v", got)
		}
		seen := map[string]bool{}
		for _, d := range got {
			if d.Key != "a" && d.Key != "b" {
				t.Fatalf("key %q not asked", d.Key)
			}
			if seen[d.Key] {
				t.Fatalf("key %q twice", d.Key)
			}
			seen[d.Key] = true
			if d.Type != "email" && d.Type != "City" {
				t.Fatalf("type %q not known", d.Type)
			}
			if !(d.Confidence >= 0 && d.Confidence <= 1) {
				t.Fatalf("confidence %v out of range", d.Confidence)
			}
		}
	})
}

func BenchmarkParseAnswer(b *testing.B) {
	batch := make([]providers.Field, 40)
	doc := []byte(`{"detections":[`)
	for i := range batch {
		batch[i] = providers.Field{Key: "field_" + string(rune('a'+i%26)) + string(rune('a'+i/26))}
		if i > 0 {
			doc = append(doc, ',')
		}
		doc = append(doc, `{"key":"`+batch[i].Key+`","type":"email","confidence":0.8}`...)
	}
	doc = append(doc, "]}"...)
	types := knownTypes([]string{"email", "city", "price"})
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := parseAnswer(doc, batch, types); err != nil {
			b.Fatal(err)
		}
	}
}
