package ai

import (
	"context"
	"errors"
	"fmt"

	"github.com/contentgen/contentgen/providers"
)

// Chain is a FieldDetector that asks its detectors in order and returns
// the first answer that is not an error: the secondary provider is asked
// when the primary fails or is unreachable. Set the fields before first
// use; a Chain is then safe for concurrent use when its detectors are.
type Chain struct {
	// Detectors are asked in order; nil entries are skipped.
	Detectors []providers.FieldDetector
	// OnFailure, when set, is called with the name and error of every
	// detector that failed before the next one is asked or the chain gives
	// up (for example to report a warning).
	OnFailure func(name string, err error)
}

var _ providers.FieldDetector = (*Chain)(nil)

// NewChain returns a chain of the given detectors (nil ones are skipped),
// typically NewChain(primary, secondary).
func NewChain(detectors ...providers.FieldDetector) *Chain {
	return &Chain{Detectors: detectors}
}

// Name returns the name of the first detector, or "chain" when there is
// none.
func (c *Chain) Name() string {
	for _, d := range c.Detectors {
		if d != nil {
			return d.Name()
		}
	}
	return "chain"
}

// Detect implements providers.FieldDetector. When every detector fails it
// returns all their errors joined (so errors.Is finds ErrUnauthorized,
// ErrUnreachable and the like); with no detector it returns an error
// wrapping providers.ErrNotConfigured. When ctx is done it stops and
// returns ctx.Err() (wrapped) without asking further detectors.
func (c *Chain) Detect(ctx context.Context, postType string, fields []providers.Field, known []string) ([]providers.Detection, error) {
	var errs []error
	for _, d := range c.Detectors {
		if d == nil {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("ai: chain: %w", err)
		}
		found, err := d.Detect(ctx, postType, fields, known)
		if err == nil {
			return found, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("ai: chain: %w", ctx.Err())
		}
		if c.OnFailure != nil {
			c.OnFailure(d.Name(), err)
		}
		errs = append(errs, err)
	}
	if len(errs) == 0 {
		return nil, fmt.Errorf("ai: chain: no detector: %w", providers.ErrNotConfigured)
	}
	return nil, fmt.Errorf("ai: every detector failed: %w", errors.Join(errs...))
}
