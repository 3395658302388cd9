package memhost

import (
	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/internal/memstate"
)

// StateStore is an in-memory contentgen.StateStore, safe for concurrent
// use. Its updates are atomic within the process; two processes cannot
// share it.
type StateStore struct{ memstate.Store }

var _ contentgen.StateStore = (*StateStore)(nil)

// NewStateStore returns an empty StateStore.
func NewStateStore() *StateStore { return new(StateStore) }
