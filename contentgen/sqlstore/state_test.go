package sqlstore_test

import (
	"testing"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/hosttest"
)

func TestStateConformance(t *testing.T) {
	forEachEngine(t, func(t *testing.T, e engine) {
		hosttest.RunStateStore(t, func(t *testing.T) contentgen.StateStore { return e.open(t, nil).State() })
	})
}
