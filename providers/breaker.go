package providers

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrProviderDown is returned (wrapped) by a Breaker whose provider failed
// too often in a row: the request was not sent, so that a dead service
// costs one failure per cool-down instead of one timeout per image.
var ErrProviderDown = errors.New("providers: image provider is unavailable")

// Defaults of BreakerOptions.
const (
	DefaultBreakerFailures = 3
	DefaultBreakerCoolDown = 30 * time.Second
)

// BreakerOptions configures NewBreaker. The zero value (or nil) means
// defaults.
type BreakerOptions struct {
	// Failures is the number of failures in a row that opens the breaker
	// (default DefaultBreakerFailures).
	Failures int
	// CoolDown is how long an open breaker refuses requests before it lets
	// one trial request through (default DefaultBreakerCoolDown).
	CoolDown time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
	// IsFailure tells whether an error of the provider counts against it.
	// The default counts every error except the caller's own: a done
	// context, ErrInvalidSize and ErrNoResults (the service answered).
	IsFailure func(error) bool
}

// BreakerState is the state of a Breaker.
type BreakerState int

// States of a Breaker.
const (
	// BreakerClosed passes requests to the provider.
	BreakerClosed BreakerState = iota
	// BreakerOpen refuses requests with ErrProviderDown until the
	// cool-down ends.
	BreakerOpen
	// BreakerHalfOpen has let one trial request through after the
	// cool-down; others are refused until it ends. Its success closes the
	// breaker, its failure opens it for another cool-down.
	BreakerHalfOpen
)

// String returns "closed", "open" or "half-open".
func (s BreakerState) String() string {
	switch s {
	case BreakerClosed:
		return "closed"
	case BreakerOpen:
		return "open"
	case BreakerHalfOpen:
		return "half-open"
	}
	return fmt.Sprintf("BreakerState(%d)", int(s))
}

// Breaker is an ImageProvider that wraps another and stops asking it
// after Failures failures in a row, or after one failure that says the
// service cannot be reached at all (Unreachable): for CoolDown it answers
// at once with an error wrapping ErrProviderDown, then lets one trial
// request through (half-open) and closes again when that succeeds. Make one per provider
// and per run (or per process, with a short cool-down); Skipped counts the
// requests it refused, for the run's warnings. It is safe for concurrent
// use.
type Breaker struct {
	p         ImageProvider
	slug      string
	failures  int
	coolDown  time.Duration
	now       func() time.Time
	isFailure func(error) bool

	mu       sync.Mutex
	state    BreakerState
	failed   int       // failures in a row while closed
	openedAt time.Time // when the breaker last opened
	offline  bool      // it opened because the service could not be reached
	trial    bool      // a half-open trial is in flight
	skipped  int
}

// BreakerSnapshot is what a Breaker remembers of an opening, for keeping
// it beyond the process (Snapshot, Restore).
type BreakerSnapshot struct {
	// Open is set while the breaker is open or half-open.
	Open bool `json:"open"`
	// OpenedAt is when the breaker last opened.
	OpenedAt time.Time `json:"opened_at,omitzero"`
	// Unreachable is set when it opened because the service could not be
	// reached at all (see Unreachable).
	Unreachable bool `json:"unreachable,omitempty"`
}

var _ ImageProvider = (*Breaker)(nil)

// NewBreaker wraps p. It returns an error naming the field when an
// option is negative, or when p is nil.
func NewBreaker(p ImageProvider, opts *BreakerOptions) (*Breaker, error) {
	if p == nil {
		return nil, errors.New("providers: NewBreaker: nil provider")
	}
	var o BreakerOptions
	if opts != nil {
		o = *opts
	}
	switch {
	case o.Failures < 0:
		return nil, fmt.Errorf("providers: BreakerOptions.Failures %d is negative", o.Failures)
	case o.CoolDown < 0:
		return nil, fmt.Errorf("providers: BreakerOptions.CoolDown %s is negative", o.CoolDown)
	}
	if o.Failures == 0 {
		o.Failures = DefaultBreakerFailures
	}
	if o.CoolDown == 0 {
		o.CoolDown = DefaultBreakerCoolDown
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	b := &Breaker{p: p, slug: p.Info().Slug, failures: o.Failures, coolDown: o.CoolDown, now: o.Now, isFailure: o.IsFailure}
	return b, nil
}

// NewServiceBreaker returns a Breaker for a service that is not an image
// provider (a text model, say), named slug, to be used through Call; its
// Image method fails. It validates opts as NewBreaker does.
func NewServiceBreaker(slug string, opts *BreakerOptions) (*Breaker, error) {
	b, err := NewBreaker(serviceStub(slug), opts)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// serviceStub names the service of a breaker made by NewServiceBreaker.
type serviceStub string

func (s serviceStub) Info() Info { return Info{Slug: string(s), Name: string(s)} }

func (s serviceStub) Image(context.Context, ImageRequest) (*Image, error) {
	return nil, fmt.Errorf("providers: %s is not an image provider", string(s))
}

// Call runs fn, a request to the service, unless the breaker is open, in
// which case it returns an error wrapping ErrProviderDown at once, without
// calling fn. fn's error counts as Image's does.
func (b *Breaker) Call(ctx context.Context, fn func(context.Context) error) error {
	trial, err := b.admit()
	if err != nil {
		return err
	}
	err = fn(ctx)
	b.record(ctx, trial, err)
	return err
}

// Info returns the wrapped provider's Info.
func (b *Breaker) Info() Info { return b.p.Info() }

// State returns the breaker's state now; an open breaker whose cool-down
// has ended reports BreakerHalfOpen.
func (b *Breaker) State() BreakerState {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == BreakerOpen && !b.now().Before(b.openedAt.Add(b.coolDown)) {
		return BreakerHalfOpen
	}
	return b.state
}

// Snapshot returns what the breaker remembers of its last opening; Open
// is false while it is closed.
func (b *Breaker) Snapshot() BreakerSnapshot {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == BreakerClosed {
		return BreakerSnapshot{}
	}
	return BreakerSnapshot{Open: true, OpenedAt: b.openedAt, Unreachable: b.offline}
}

// Restore opens the breaker as s says, so that an opening recorded by
// another process (or before a restart) is honoured for the rest of its
// cool-down. It does nothing when s is not open, or when the breaker
// opened at s.OpenedAt or later itself.
func (b *Breaker) Restore(s BreakerSnapshot) {
	if !s.Open {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state != BreakerClosed && !s.OpenedAt.After(b.openedAt) {
		return
	}
	b.state, b.openedAt, b.offline, b.trial = BreakerOpen, s.OpenedAt, s.Unreachable, false
}

// Skipped returns the number of requests refused with ErrProviderDown.
func (b *Breaker) Skipped() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.skipped
}

// Image asks the wrapped provider for an image unless the breaker is
// open, in which case it returns an error wrapping ErrProviderDown at
// once, without calling the provider.
func (b *Breaker) Image(ctx context.Context, req ImageRequest) (*Image, error) {
	if s, ok := b.p.(serviceStub); ok {
		return s.Image(ctx, req) // not a request to the service
	}
	trial, err := b.admit()
	if err != nil {
		return nil, err
	}
	img, err := b.p.Image(ctx, req)
	b.record(ctx, trial, err)
	return img, err
}

// admit decides whether a request may go through, and whether it is the
// half-open trial.
func (b *Breaker) admit() (trial bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch b.state {
	case BreakerClosed:
		return false, nil
	case BreakerOpen:
		if !b.now().Before(b.openedAt.Add(b.coolDown)) {
			b.state, b.trial = BreakerHalfOpen, true
			return true, nil
		}
	case BreakerHalfOpen:
		if !b.trial {
			b.trial = true
			return true, nil
		}
	}
	b.skipped++
	if b.offline {
		return false, fmt.Errorf("%w: %s: %w", ErrProviderDown, b.slug, ErrUnreachable)
	}
	return false, fmt.Errorf("%w: %s", ErrProviderDown, b.slug)
}

// record counts the outcome of a request admitted by admit.
func (b *Breaker) record(ctx context.Context, trial bool, err error) {
	failed := err != nil && b.counts(ctx, err)
	offline := failed && Unreachable(err)
	b.mu.Lock()
	defer b.mu.Unlock()
	if trial {
		b.trial = false
		switch {
		case failed:
			b.state, b.openedAt, b.offline = BreakerOpen, b.now(), offline
		case err == nil:
			b.state, b.failed, b.offline = BreakerClosed, 0, false
		default:
			// Neither success nor failure (the caller gave up): the next
			// request is the trial.
		}
		return
	}
	if b.state != BreakerClosed {
		return // an answer from before the breaker opened
	}
	switch {
	case failed:
		b.failed++
		if b.failed >= b.failures || offline {
			b.state, b.openedAt, b.offline = BreakerOpen, b.now(), offline
		}
	case err == nil:
		b.failed = 0
	}
}

func (b *Breaker) counts(ctx context.Context, err error) bool {
	if b.isFailure != nil {
		return b.isFailure(err)
	}
	if ctx.Err() != nil {
		return false
	}
	return !errors.Is(err, ErrInvalidSize) && !errors.Is(err, ErrNoResults)
}
