package memhost

import (
	"context"
	"sync"

	"github.com/contentgen/contentgen/contentgen"
)

// StateStore is an in-memory contentgen.StateStore, safe for concurrent
// use. Updates of one store are atomic; two processes cannot share it.
type StateStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

var _ contentgen.StateStore = (*StateStore)(nil)

// NewStateStore returns an empty StateStore.
func NewStateStore() *StateStore { return &StateStore{m: map[string][]byte{}} }

// Load implements contentgen.StateStore.
func (s *StateStore) Load(ctx context.Context, key string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	if !ok {
		return nil, nil
	}
	return append([]byte(nil), v...), nil
}

// Update implements contentgen.StateStore.
func (s *StateStore) Update(ctx context.Context, key string, fn func(old []byte) ([]byte, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var old []byte
	if v, ok := s.m[key]; ok {
		old = append([]byte(nil), v...)
	}
	v, err := fn(old)
	if err != nil {
		return err
	}
	s.m[key] = append([]byte(nil), v...)
	return nil
}
