package contentgen

import (
	"context"
	"encoding/json"
	"maps"

	"github.com/contentgen/contentgen/providers"
)

// stateImageProviders is the state key of the image providers' breakers:
// a JSON object mapping each provider slug whose breaker is open to its
// providers.BreakerSnapshot. Keeping it with the site's state lets an
// opening outlive the process for its cool-down, so that a command-line
// run on a machine without a network does not ask a provider the run
// before found unreachable.
const stateImageProviders = "image_providers"

// breakerOf returns the Generator's breaker of provider slug, if any.
func (g *Generator) breakerOf(slug string) *providers.Breaker {
	b, _ := g.images[slug].(*providers.Breaker)
	return b
}

// loadBreakers reads the kept breaker openings; a failure is logged and
// reads as none, since the breakers only save time.
func (g *Generator) loadBreakers(ctx context.Context) map[string]providers.BreakerSnapshot {
	raw, err := g.cfg.State.Load(ctx, stateImageProviders)
	if err != nil {
		g.log.Warn("contentgen: reading the image providers' state", "err", err)
		return nil
	}
	return decodeBreakers(raw)
}

func decodeBreakers(raw []byte) map[string]providers.BreakerSnapshot {
	m := map[string]providers.BreakerSnapshot{}
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &m) // a damaged value is no opening
	}
	return m
}

// restoreBreaker opens the breaker of slug when the site's state says it
// is open (see stateImageProviders).
func (g *Generator) restoreBreaker(ctx context.Context, slug string) {
	if b := g.breakerOf(slug); b != nil {
		b.Restore(g.loadBreakers(ctx)[slug])
	}
}

// keepBreaker writes the state of the breaker of slug to the site's state
// when it differs from what is kept there: an opening is added, a closed
// breaker removed.
func (g *Generator) keepBreaker(ctx context.Context, slug string) {
	b := g.breakerOf(slug)
	if b == nil {
		return
	}
	snap := b.Snapshot()
	if sameSnapshot(g.loadBreakers(ctx)[slug], snap) {
		return
	}
	err := g.cfg.State.Update(ctx, stateImageProviders, func(old []byte) ([]byte, error) {
		m := maps.Clone(decodeBreakers(old))
		if snap.Open {
			m[slug] = snap
		} else {
			delete(m, slug)
		}
		return json.Marshal(m)
	})
	if err != nil {
		g.log.Warn("contentgen: keeping the image providers' state", "provider", slug, "err", err)
	}
}

func sameSnapshot(a, b providers.BreakerSnapshot) bool {
	return a.Open == b.Open && a.Unreachable == b.Unreachable && a.OpenedAt.Equal(b.OpenedAt)
}
