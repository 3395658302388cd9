package templates_test

import (
	"sync"
	"testing"
	"time"

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
		return templates.NewMemStore()
	})
}
