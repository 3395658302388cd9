package license

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/contentgen/contentgen/internal/memstate"
)

// Licence states reported in Status.Status.
const (
	StatusActive   = "active"
	StatusInactive = "inactive"
	StatusExpired  = "expired"
	StatusInvalid  = "invalid"
)

// Status is the licence state as GET /license reports it.
type Status struct {
	// Status is StatusActive, StatusInactive, StatusExpired or
	// StatusInvalid.
	Status string `json:"status"`
	// Plan is the plan of the activated key, empty when inactive.
	Plan string `json:"plan"`
	// ExpiresAt is the expiry of the activated key; nil when inactive or
	// when the key never expires.
	ExpiresAt *time.Time `json:"expires_at"`
	// Site is the site the key was activated on.
	Site string `json:"site"`
	// ActivatedAt is when the key was activated.
	ActivatedAt *time.Time `json:"activated_at"`
	// CheckedAt is when the key was last verified by Refresh or Activate.
	CheckedAt *time.Time `json:"checked_at"`
	// Key is the activated key, masked.
	Key string `json:"license_key"`
	// Message explains the state in a sentence safe to show a user.
	Message string `json:"message"`
}

// LicenseManager is the licence seam of the HTTP layer. Implementations
// must be safe for concurrent use and honour ctx (returning ctx.Err(),
// possibly wrapped, when it is done).
type LicenseManager interface {
	// Status returns the current licence state; with no activated key it
	// is StatusInactive and no error.
	Status(ctx context.Context) (Status, error)
	// Activate verifies key and makes it the licence of site. A malformed
	// or forged key fails with ErrMalformed or ErrForged, an expired one
	// with ErrExpired, a key for another site with ErrSiteMismatch; the
	// previous state is then kept.
	Activate(ctx context.Context, key, site string) (Status, error)
	// Deactivate forgets the activated key; it succeeds when there is none.
	Deactivate(ctx context.Context) (Status, error)
	// Refresh verifies the activated key again (and asks a licence server
	// when one is configured) and returns the new state.
	Refresh(ctx context.Context) (Status, error)
}

// Store persists one JSON value under a key; its method set matches the
// service's state store. Implementations must be safe for concurrent use
// and honour ctx.
type Store interface {
	// Load returns the value stored under key, or nil and no error when
	// there is none.
	Load(ctx context.Context, key string) ([]byte, error)
	// Save stores value under key, replacing any previous value.
	Save(ctx context.Context, key string, value []byte) error
}

// MemStore is an in-memory Store, safe for concurrent use.
type MemStore struct{ memstate.Store }

// NewMemStore returns an empty MemStore.
func NewMemStore() *MemStore { return new(MemStore) }

// RemoteVerdict is a licence server's answer.
type RemoteVerdict struct {
	// Active is false when the server withdrew the licence.
	Active bool
	// Message explains a withdrawal, safe to show a user.
	Message string
}

// RemoteVerifier asks a licence server about an activated key. It must be
// safe for concurrent use and honour ctx; an error means the server could
// not answer (the offline state is then kept).
type RemoteVerifier interface {
	// Verify returns the server's verdict on key, activated on site.
	Verify(ctx context.Context, key, site string) (RemoteVerdict, error)
}

// DefaultStoreKey is the Store key of the activation state.
const DefaultStoreKey = "license"

// Options configure a Manager; nil means defaults.
type Options struct {
	// Store keeps the activation state; nil means a new MemStore.
	Store Store
	// StoreKey is the Store key; empty means DefaultStoreKey.
	StoreKey string
	// Remote, when set, is asked by Refresh.
	Remote RemoteVerifier
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Manager is the default LicenseManager: it verifies keys offline against
// an ed25519 public key. It is safe for concurrent use.
type Manager struct {
	pub    ed25519.PublicKey
	store  Store
	key    string
	remote RemoteVerifier
	now    func() time.Time
	mu     sync.Mutex
}

var _ LicenseManager = (*Manager)(nil)

// NewManager returns a Manager that accepts keys signed for pub.
func NewManager(pub ed25519.PublicKey, opts *Options) (*Manager, error) {
	if len(pub) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("license: public key has %d bytes, want %d", len(pub), ed25519.PublicKeySize)
	}
	m := &Manager{pub: append(ed25519.PublicKey(nil), pub...), key: DefaultStoreKey, now: time.Now}
	if opts != nil {
		m.store, m.remote = opts.Store, opts.Remote
		if opts.StoreKey != "" {
			m.key = opts.StoreKey
		}
		if opts.Now != nil {
			m.now = opts.Now
		}
	}
	if m.store == nil {
		m.store = NewMemStore()
	}
	return m, nil
}

// state is what the Manager stores.
type state struct {
	Key           string    `json:"key,omitempty"`
	Site          string    `json:"site,omitempty"`
	ActivatedAt   time.Time `json:"activated_at,omitzero"`
	CheckedAt     time.Time `json:"checked_at,omitzero"`
	Revoked       bool      `json:"revoked,omitempty"`
	RemoteMessage string    `json:"remote_message,omitempty"`
}

func (m *Manager) load(ctx context.Context) (state, error) {
	var st state
	raw, err := m.store.Load(ctx, m.key)
	if err != nil {
		return st, fmt.Errorf("license: loading state: %w", err)
	}
	if len(raw) == 0 {
		return st, nil
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return state{}, fmt.Errorf("license: decoding state: %w", err)
	}
	return st, nil
}

func (m *Manager) save(ctx context.Context, st state) error {
	raw, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := m.store.Save(ctx, m.key, raw); err != nil {
		return fmt.Errorf("license: saving state: %w", err)
	}
	return nil
}

// status derives the reported state from the stored one.
func (m *Manager) status(st state) Status {
	if st.Key == "" {
		return Status{Status: StatusInactive, Message: "No licence key is activated."}
	}
	s := Status{Site: st.Site, Key: mask(st.Key)}
	if !st.ActivatedAt.IsZero() {
		t := st.ActivatedAt
		s.ActivatedAt = &t
	}
	if !st.CheckedAt.IsZero() {
		t := st.CheckedAt
		s.CheckedAt = &t
	}
	c, err := Verify(m.pub, st.Key, m.now())
	if c.Plan != "" {
		s.Plan = c.Plan
		if !c.Expires.IsZero() {
			t := c.Expires
			s.ExpiresAt = &t
		}
	}
	switch {
	case errors.Is(err, ErrExpired):
		s.Status, s.Message = StatusExpired, UserMessage(err)
	case err != nil:
		s.Status, s.Message = StatusInvalid, UserMessage(err)
	case st.Revoked:
		s.Status, s.Message = StatusInvalid, "The licence was withdrawn by the licence server."
		if st.RemoteMessage != "" {
			s.Message = st.RemoteMessage
		}
	default:
		s.Status, s.Message = StatusActive, "The licence is active."
	}
	return s
}

// UserMessage turns an error of this package into a sentence safe to show
// a user (for example "Licence key has expired: it expired on 2024-05-01;
// renew it or enter a current key."); nil gives "".
func UserMessage(err error) string {
	if err == nil {
		return ""
	}
	msg := strings.TrimPrefix(err.Error(), "license: ")
	if msg == "" {
		return msg
	}
	r, n := utf8.DecodeRuneInString(msg)
	return strings.ToUpper(string(r)) + msg[n:] + "."
}

// IsKeyError reports whether err is about the key a user entered
// (malformed, forged, expired or for another site), which the HTTP layer
// answers with 400, as opposed to a failure of the service.
func IsKeyError(err error) bool {
	return errors.Is(err, ErrMalformed) || errors.Is(err, ErrForged) ||
		errors.Is(err, ErrExpired) || errors.Is(err, ErrSiteMismatch)
}

// Status implements LicenseManager.
func (m *Manager) Status(ctx context.Context) (Status, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st, err := m.load(ctx)
	if err != nil {
		return Status{}, err
	}
	return m.status(st), nil
}

// Activate implements LicenseManager. site is the address of the site the
// service runs on; it must match the key's site when the key names one.
func (m *Manager) Activate(ctx context.Context, key, site string) (Status, error) {
	if err := ctx.Err(); err != nil {
		return Status{}, err
	}
	key = strings.TrimSpace(key)
	c, err := Verify(m.pub, key, m.now())
	if err != nil {
		return Status{}, err
	}
	if c.Site != "" && NormalizeSite(c.Site) != NormalizeSite(site) {
		return Status{}, fmt.Errorf("%w: the key is for %q, this site is %q", ErrSiteMismatch, NormalizeSite(c.Site), NormalizeSite(site))
	}
	now := m.now().UTC()
	st := state{Key: key, Site: NormalizeSite(site), ActivatedAt: now, CheckedAt: now}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.save(ctx, st); err != nil {
		return Status{}, err
	}
	return m.status(st), nil
}

// Deactivate implements LicenseManager.
func (m *Manager) Deactivate(ctx context.Context) (Status, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.save(ctx, state{}); err != nil {
		return Status{}, err
	}
	return m.status(state{}), nil
}

// Refresh implements LicenseManager. Without an activated key it returns
// the inactive state. With a RemoteVerifier it asks the server about a key
// that verifies offline; when the server cannot answer, it returns the
// unchanged state with an error wrapping ErrRemote.
func (m *Manager) Refresh(ctx context.Context) (Status, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st, err := m.load(ctx)
	if err != nil {
		return Status{}, err
	}
	if st.Key == "" {
		return m.status(st), nil
	}
	if _, err := Verify(m.pub, st.Key, m.now()); err == nil && m.remote != nil {
		v, err := m.remote.Verify(ctx, st.Key, st.Site)
		if err != nil {
			return m.status(st), fmt.Errorf("%w: %w", ErrRemote, err)
		}
		st.Revoked, st.RemoteMessage = !v.Active, strings.TrimSpace(v.Message)
	}
	st.CheckedAt = m.now().UTC()
	if err := m.save(ctx, st); err != nil {
		return Status{}, err
	}
	return m.status(st), nil
}

// mask shows at most the last four characters of a licence key.
func mask(key string) string {
	if len(key) < 12 {
		return "********"
	}
	return "********" + key[len(key)-4:]
}
