package license_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/httpapi/license"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// clock is a settable clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.now = t }

func keyPair(t *testing.T) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	return pub, priv
}

func issue(t *testing.T, priv ed25519.PrivateKey, c license.Claims) string {
	t.Helper()
	k, err := license.Issue(priv, c)
	require.NoError(t, err)
	return k
}

func TestVerify(t *testing.T) {
	t.Parallel()
	pub, priv := keyPair(t)
	_, otherPriv := keyPair(t)
	valid := issue(t, priv, license.Claims{ID: "lic_1", Plan: "pro", Site: "example.com", Issued: t0, Expires: t0.AddDate(1, 0, 0)})
	require.True(t, strings.HasPrefix(valid, "CGL1."))

	c, err := license.Verify(pub, valid, t0.Add(time.Hour))
	require.NoError(t, err)
	require.Equal(t, license.Claims{ID: "lic_1", Plan: "pro", Site: "example.com", Issued: t0, Expires: t0.AddDate(1, 0, 0)}, c)

	lifetime := issue(t, priv, license.Claims{Plan: "agency", Issued: t0})
	c, err = license.Verify(pub, " "+lifetime+"\n", t0.AddDate(50, 0, 0))
	require.NoError(t, err)
	require.True(t, c.Expires.IsZero())

	// Expired: genuine, with a clear message naming the date.
	c, err = license.Verify(pub, valid, t0.AddDate(1, 0, 0))
	require.ErrorIs(t, err, license.ErrExpired)
	require.Contains(t, err.Error(), "expired on 2026-03-01")
	require.Equal(t, "pro", c.Plan)
	require.True(t, license.IsKeyError(err))

	// Forged: signed by another key, or payload altered.
	forged := issue(t, otherPriv, license.Claims{Plan: "pro", Issued: t0})
	_, err = license.Verify(pub, forged, t0)
	require.ErrorIs(t, err, license.ErrForged)
	parts := strings.Split(valid, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	altered := strings.Replace(string(payload), `"pro"`, `"enterprise"`, 1)
	_, err = license.Verify(pub, "CGL1."+base64.RawURLEncoding.EncodeToString([]byte(altered))+"."+parts[2], t0)
	require.ErrorIs(t, err, license.ErrForged)

	// Malformed.
	sig := base64.RawURLEncoding.EncodeToString(make([]byte, 64))
	signedNonJSON := func() string {
		signed := "CGL1." + base64.RawURLEncoding.EncodeToString([]byte("not json"))
		return signed + "." + base64.RawURLEncoding.EncodeToString(ed25519.Sign(priv, []byte(signed)))
	}()
	signedNoPlan := func() string {
		signed := "CGL1." + base64.RawURLEncoding.EncodeToString([]byte(`{"issued":"2025-01-01T00:00:00Z"}`))
		return signed + "." + base64.RawURLEncoding.EncodeToString(ed25519.Sign(priv, []byte(signed)))
	}()
	for _, bad := range []string{"", "hello", "CGL1.", "CGL1.abc", "CGL2." + parts[1] + "." + parts[2],
		"CGL1.***." + sig, "CGL1." + parts[1] + ".short", "CGL1." + parts[1] + "." + parts[2] + "x", signedNonJSON, signedNoPlan} {
		_, err := license.Verify(pub, bad, t0)
		require.ErrorIs(t, err, license.ErrMalformed, "%q", bad)
		require.True(t, license.IsKeyError(err))
	}
}

func TestIssueValidates(t *testing.T) {
	t.Parallel()
	_, priv := keyPair(t)
	_, err := license.Issue(priv, license.Claims{Issued: t0})
	require.ErrorContains(t, err, "Plan")
	_, err = license.Issue(priv, license.Claims{Plan: "pro"})
	require.ErrorContains(t, err, "Issued")
	_, err = license.Issue(priv[:10], license.Claims{Plan: "pro", Issued: t0})
	require.Error(t, err)
}

func TestPublicKeyFormats(t *testing.T) {
	t.Parallel()
	pub, _ := keyPair(t)
	for _, s := range []string{license.FormatPublicKey(pub), base64.RawURLEncoding.EncodeToString(pub), hex.EncodeToString(pub), " " + license.FormatPublicKey(pub) + "\n"} {
		got, err := license.ParsePublicKey(s)
		require.NoError(t, err, s)
		require.Equal(t, pub, got)
	}
	_, err := license.ParsePublicKey(base64.StdEncoding.EncodeToString(pub[:16]))
	require.Error(t, err)
	_, err = license.ParsePublicKey("???")
	require.Error(t, err)
	_, err = license.NewManager(pub[:5], nil)
	require.Error(t, err)
}

func TestNormalizeSite(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                               "",
		"example.com":                    "example.com",
		"https://www.Example.com/":       "example.com",
		"http://example.com:80":          "example.com",
		"https://example.com:8443/blog/": "example.com:8443/blog",
		"EXAMPLE.com/Shop":               "example.com/shop",
	} {
		require.Equal(t, want, license.NormalizeSite(in), in)
	}
}

func newManager(t *testing.T, pub ed25519.PublicKey, opts *license.Options) *license.Manager {
	t.Helper()
	m, err := license.NewManager(pub, opts)
	require.NoError(t, err)
	return m
}

func TestManagerLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pub, priv := keyPair(t)
	clk := &clock{now: t0}
	store := license.NewMemStore()
	m := newManager(t, pub, &license.Options{Store: store, Now: clk.Now})

	st, err := m.Status(ctx)
	require.NoError(t, err)
	require.Equal(t, license.StatusInactive, st.Status)
	require.Empty(t, st.Plan)
	require.Nil(t, st.ExpiresAt)

	exp := t0.AddDate(0, 6, 0)
	key := issue(t, priv, license.Claims{Plan: "pro", Site: "example.com", Issued: t0, Expires: exp})
	st, err = m.Activate(ctx, key, "https://www.example.com/")
	require.NoError(t, err)
	require.Equal(t, license.StatusActive, st.Status)
	require.Equal(t, "pro", st.Plan)
	require.Equal(t, exp, *st.ExpiresAt)
	require.Equal(t, "example.com", st.Site)
	require.Equal(t, t0, *st.ActivatedAt)
	require.Equal(t, "********"+key[len(key)-4:], st.Key)
	require.NotContains(t, st.Key, key[:20])

	// JSON shape.
	b, err := json.Marshal(st)
	require.NoError(t, err)
	var shape map[string]any
	require.NoError(t, json.Unmarshal(b, &shape))
	for _, k := range []string{"status", "plan", "expires_at", "site", "activated_at", "checked_at", "license_key", "message"} {
		require.Contains(t, shape, k)
	}

	// Persisted: another manager on the same store sees it.
	m2 := newManager(t, pub, &license.Options{Store: store, Now: clk.Now})
	st, err = m2.Status(ctx)
	require.NoError(t, err)
	require.Equal(t, license.StatusActive, st.Status)

	// Time passes: expired.
	clk.Set(exp.Add(time.Second))
	st, err = m.Status(ctx)
	require.NoError(t, err)
	require.Equal(t, license.StatusExpired, st.Status)
	require.Contains(t, st.Message, "expired on")
	st, err = m.Refresh(ctx)
	require.NoError(t, err)
	require.Equal(t, license.StatusExpired, st.Status)

	// A changed public key makes the stored key invalid.
	otherPub, _ := keyPair(t)
	st, err = newManager(t, otherPub, &license.Options{Store: store, Now: clk.Now}).Status(ctx)
	require.NoError(t, err)
	require.Equal(t, license.StatusInvalid, st.Status)

	st, err = m.Deactivate(ctx)
	require.NoError(t, err)
	require.Equal(t, license.StatusInactive, st.Status)
	st, err = m2.Status(ctx)
	require.NoError(t, err)
	require.Equal(t, license.StatusInactive, st.Status)
	_, err = m.Deactivate(ctx)
	require.NoError(t, err, "deactivating twice is fine")
	st, err = m.Refresh(ctx)
	require.NoError(t, err)
	require.Equal(t, license.StatusInactive, st.Status)
}

func TestActivateRejects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pub, priv := keyPair(t)
	_, otherPriv := keyPair(t)
	m := newManager(t, pub, &license.Options{Now: func() time.Time { return t0 }})
	good := issue(t, priv, license.Claims{Plan: "basic", Issued: t0})
	_, err := m.Activate(ctx, good, "a.example")
	require.NoError(t, err)

	for _, tc := range []struct {
		name string
		key  string
		site string
		want error
		msg  string
	}{
		{"malformed", "CGL1.garbage", "a.example", license.ErrMalformed, "Malformed licence key"},
		{"forged", issue(t, otherPriv, license.Claims{Plan: "pro", Issued: t0}), "a.example", license.ErrForged, "signature is not valid"},
		{"expired", issue(t, priv, license.Claims{Plan: "pro", Issued: t0.AddDate(-2, 0, 0), Expires: t0.AddDate(-1, 0, 0)}), "a.example", license.ErrExpired, "expired on 2024-03-01"},
		{"other site", issue(t, priv, license.Claims{Plan: "pro", Site: "b.example", Issued: t0}), "a.example", license.ErrSiteMismatch, "another site"},
	} {
		_, err := m.Activate(ctx, tc.key, tc.site)
		require.ErrorIs(t, err, tc.want, tc.name)
		require.True(t, license.IsKeyError(err), tc.name)
		require.Contains(t, license.UserMessage(err), tc.msg, tc.name)
		st, err := m.Status(ctx)
		require.NoError(t, err)
		require.Equal(t, license.StatusActive, st.Status, "%s: the previous licence stays", tc.name)
		require.Equal(t, "basic", st.Plan, tc.name)
	}
	require.False(t, license.IsKeyError(errors.New("disk full")))
	require.Empty(t, license.UserMessage(nil))

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = m.Activate(cctx, good, "a.example")
	require.ErrorIs(t, err, context.Canceled)
}

type remote struct {
	verdict license.RemoteVerdict
	err     error
	calls   int
	gotSite string
}

func (r *remote) Verify(ctx context.Context, key, site string) (license.RemoteVerdict, error) {
	r.calls++
	r.gotSite = site
	return r.verdict, r.err
}

func TestRefreshWithRemote(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pub, priv := keyPair(t)
	clk := &clock{now: t0}
	rv := &remote{verdict: license.RemoteVerdict{Active: true}}
	m := newManager(t, pub, &license.Options{Remote: rv, Now: clk.Now})
	_, err := m.Activate(ctx, issue(t, priv, license.Claims{Plan: "pro", Issued: t0}), "shop.example")
	require.NoError(t, err)

	clk.Set(t0.Add(time.Hour))
	st, err := m.Refresh(ctx)
	require.NoError(t, err)
	require.Equal(t, license.StatusActive, st.Status)
	require.Equal(t, t0.Add(time.Hour), *st.CheckedAt)
	require.Equal(t, "shop.example", rv.gotSite)

	rv.verdict = license.RemoteVerdict{Active: false, Message: "Refunded."}
	st, err = m.Refresh(ctx)
	require.NoError(t, err)
	require.Equal(t, license.StatusInvalid, st.Status)
	require.Equal(t, "Refunded.", st.Message)

	rv.err = errors.New("dial tcp: connection refused")
	st, err = m.Refresh(ctx)
	require.ErrorIs(t, err, license.ErrRemote)
	require.Equal(t, license.StatusInvalid, st.Status, "state kept when the server is unreachable")

	rv.err, rv.verdict = nil, license.RemoteVerdict{Active: true}
	st, err = m.Refresh(ctx)
	require.NoError(t, err)
	require.Equal(t, license.StatusActive, st.Status)
	require.Equal(t, 4, rv.calls)
}

type failingStore struct{}

func (failingStore) Load(context.Context, string) ([]byte, error) {
	return nil, errors.New("store down")
}
func (failingStore) Save(context.Context, string, []byte) error { return errors.New("store down") }

func TestStoreFailures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pub, priv := keyPair(t)
	m := newManager(t, pub, &license.Options{Store: failingStore{}, Now: func() time.Time { return t0 }})
	_, err := m.Status(ctx)
	require.ErrorContains(t, err, "store down")
	_, err = m.Activate(ctx, issue(t, priv, license.Claims{Plan: "pro", Issued: t0}), "x")
	require.ErrorContains(t, err, "store down")
	require.False(t, license.IsKeyError(err))
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pub, priv := keyPair(t)
	m := newManager(t, pub, nil)
	key := issue(t, priv, license.Claims{Plan: "pro", Issued: time.Now().Add(-time.Hour)})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				switch i % 4 {
				case 0:
					_, _ = m.Activate(ctx, key, "x.example")
				case 1:
					_, _ = m.Deactivate(ctx)
				case 2:
					_, _ = m.Refresh(ctx)
				default:
					st, err := m.Status(ctx)
					if err == nil && st.Status != license.StatusActive && st.Status != license.StatusInactive {
						t.Errorf("unexpected status %q", st.Status)
					}
				}
			}
		}()
	}
	wg.Wait()
}
