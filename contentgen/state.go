package contentgen

import "context"

// StateStore persists the service's own small state: settings, AI keys,
// time-saved counters and caches, each as one JSON value under a key.
// Implementations must be safe for concurrent use and honour ctx: when ctx
// is done they return ctx.Err() (possibly wrapped) and change nothing.
type StateStore interface {
	// Load returns the value stored under key, or nil and no error when
	// there is none. The returned slice is the caller's.
	Load(ctx context.Context, key string) ([]byte, error)
	// Update replaces the value under key with fn's result, atomically:
	// fn receives the current value (nil when there is none) and no other
	// Update of the same key, in this process or in another one sharing
	// the store, can change the value between that read and the write.
	// When fn returns an error nothing is written and Update returns it.
	// fn may run more than once (a SQL store retries on a serialisation
	// failure), so it must not have side effects beyond its result.
	Update(ctx context.Context, key string, fn func(old []byte) ([]byte, error)) error
}

// stateSaver adapts a StateStore to the Load/Save store of the AI cache.
type stateSaver struct{ StateStore }

func (s stateSaver) Save(ctx context.Context, key string, value []byte) error {
	return s.Update(ctx, key, func([]byte) ([]byte, error) { return value, nil })
}
