package memhost_test

import (
	"testing"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/hosttest"
	"github.com/contentgen/contentgen/contentgen/memhost"
)

func TestStateStoreConformance(t *testing.T) {
	t.Parallel()
	hosttest.RunStateStore(t, func(*testing.T) contentgen.StateStore { return memhost.NewStateStore() })
}
