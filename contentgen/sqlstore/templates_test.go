package sqlstore_test

import (
	"testing"

	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/templatetest"
)

func TestTemplatesConformance(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		templatetest.Run(t, func(t *testing.T) templates.Store { return e.open(t, nil).Templates() })
	})
}
