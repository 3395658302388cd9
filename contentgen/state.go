package contentgen

import (
	"context"
	"sync"
)

// StateStore persists the service's own small state: settings, time-saved
// counters and the like, each as one JSON value under a key. Implementations
// must be safe for concurrent use and honour ctx.
type StateStore interface {
	// Load returns the value stored under key, or nil and no error when
	// there is none.
	Load(ctx context.Context, key string) ([]byte, error)
	// Save stores value under key, replacing any previous value.
	Save(ctx context.Context, key string, value []byte) error
}

// MemState is an in-memory StateStore.
type MemState struct {
	mu sync.RWMutex
	m  map[string][]byte
}

var _ StateStore = (*MemState)(nil)

// NewMemState returns an empty MemState.
func NewMemState() *MemState { return &MemState{m: map[string][]byte{}} }

// Load implements StateStore.
func (s *MemState) Load(ctx context.Context, key string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.m[key]
	if !ok {
		return nil, nil
	}
	return append([]byte(nil), v...), nil
}

// Save implements StateStore.
func (s *MemState) Save(ctx context.Context, key string, value []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = append([]byte(nil), value...)
	return nil
}
