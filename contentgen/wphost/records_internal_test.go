package wphost

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

// TestRecordsHostStoresNoBytes: the host of a site without uploads
// directory offers every optional capability but MediaStorer.
func TestRecordsHostStoresNoBytes(t *testing.T) {
	var h any = newRecordsHost(&Host{})
	_, stores := h.(contentgen.MediaStorer)
	require.False(t, stores)
	_, tx := h.(contentgen.Transactor)
	_, ex := h.(contentgen.Exister)
	_, tr := h.(contentgen.Trasher)
	require.True(t, tx && ex && tr)
}
