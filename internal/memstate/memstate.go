// Package memstate is the one in-memory key-value store behind the
// in-memory state stores of the module (the Generator's default, memhost's
// StateStore and the licence MemStore).
package memstate

import (
	"context"
	"sync"
)

// Store keeps byte values by key in memory, safe for concurrent use. It
// never hands out or keeps memory of its callers. The zero value is ready.
type Store struct {
	mu sync.Mutex
	m  map[string][]byte
}

// Load returns a copy of the value under key, nil when there is none.
func (s *Store) Load(ctx context.Context, key string) ([]byte, error) {
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

// Update replaces the value under key with fn's result under the store's
// lock; an error of fn writes nothing.
func (s *Store) Update(ctx context.Context, key string, fn func(old []byte) ([]byte, error)) error {
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
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	s.m[key] = append([]byte(nil), v...)
	return nil
}

// Save replaces the value under key.
func (s *Store) Save(ctx context.Context, key string, value []byte) error {
	return s.Update(ctx, key, func([]byte) ([]byte, error) { return value, nil })
}
