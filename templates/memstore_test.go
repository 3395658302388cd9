package templates_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/templatetest"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestMemStoreConformance(t *testing.T) {
	t.Parallel()
	templatetest.Run(t, func(t *testing.T) templates.Store {
		return templates.NewMemStore(nil)
	})
}

func TestMemStoreTimestamps(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := &fakeClock{t: time.Date(2025, 5, 1, 10, 0, 0, 123456789, time.UTC)}
	s := templates.NewMemStore(clock.Now)
	tpl, err := s.Create(ctx, templates.Input{Name: "Books", PostType: "book"})
	require.NoError(t, err)
	require.Equal(t, time.Date(2025, 5, 1, 10, 0, 0, 0, time.UTC), tpl.CreatedAt, "timestamps are kept to the second")
	require.Equal(t, tpl.CreatedAt, tpl.UpdatedAt)

	clock.Advance(90 * time.Second)
	upd, err := s.Update(ctx, tpl.ID, templates.Patch{Description: templates.Ptr("new")})
	require.NoError(t, err)
	require.Equal(t, tpl.CreatedAt, upd.CreatedAt)
	require.Equal(t, time.Date(2025, 5, 1, 10, 1, 30, 0, time.UTC), upd.UpdatedAt)
}
