package fields_test

import (
	"testing"

	"github.com/contentgen/contentgen/templates/fields"
)

// BenchmarkDetect measures detection of one field name.
func BenchmarkDetect(b *testing.B) {
	f := fields.Field{Key: "field_5f8a1c2b", Name: "billing_email_address", Label: "E-Mail-Adresse", Type: "text"}
	b.ReportAllocs()
	for b.Loop() {
		_ = fields.Detect(&f)
	}
}
