package imaging

import (
	"context"
	"sync"
)

// gate is a first-come, first-served semaphore over two resources at
// once: a number of holders and a weight (pixels). A request that does
// not fit waits behind those that came before it, so a large image is
// not starved by a stream of small ones.
type gate struct {
	maxN, maxW int64

	mu      sync.Mutex
	n, w    int64
	waiters []*gateWaiter
	// peakN and peakW are the highest holders and weight seen, for tests.
	peakN, peakW int64
}

type gateWaiter struct {
	w     int64
	ready chan struct{} // closed when the slot is granted
}

func newGate(maxN, maxW int64) *gate { return &gate{maxN: maxN, maxW: maxW} }

// acquire takes one holder and w of the weight (w is cut to the gate's
// capacity), waiting until they are free or ctx is done.
func (g *gate) acquire(ctx context.Context, w int64) (int64, error) {
	w = min(w, g.maxW)
	g.mu.Lock()
	if len(g.waiters) == 0 && g.fitsLocked(w) {
		g.takeLocked(w)
		g.mu.Unlock()
		return w, nil
	}
	if err := ctx.Err(); err != nil {
		g.mu.Unlock()
		return 0, err
	}
	q := &gateWaiter{w: w, ready: make(chan struct{})}
	g.waiters = append(g.waiters, q)
	g.mu.Unlock()

	select {
	case <-q.ready:
		return w, nil
	case <-ctx.Done():
		g.mu.Lock()
		select {
		case <-q.ready:
			// Granted while giving up: hand the slot back.
			g.mu.Unlock()
			g.release(w)
		default:
			for i, x := range g.waiters {
				if x == q {
					g.waiters = append(g.waiters[:i], g.waiters[i+1:]...)
					break
				}
			}
			// The head may have changed; let those now first in.
			g.grantLocked()
			g.mu.Unlock()
		}
		return 0, ctx.Err()
	}
}

// release gives back one holder and w, as returned by acquire.
func (g *gate) release(w int64) {
	g.mu.Lock()
	g.n--
	g.w -= w
	g.grantLocked()
	g.mu.Unlock()
}

func (g *gate) fitsLocked(w int64) bool { return g.n < g.maxN && g.w+w <= g.maxW }

func (g *gate) takeLocked(w int64) {
	g.n++
	g.w += w
	g.peakN = max(g.peakN, g.n)
	g.peakW = max(g.peakW, g.w)
}

// grantLocked lets in waiters from the head of the queue while they fit.
func (g *gate) grantLocked() {
	for len(g.waiters) > 0 && g.fitsLocked(g.waiters[0].w) {
		q := g.waiters[0]
		g.waiters[0] = nil
		g.waiters = g.waiters[1:]
		g.takeLocked(q.w)
		close(q.ready)
	}
}
