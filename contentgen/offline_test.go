package contentgen_test

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/internal/memstate"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/local"
	"github.com/contentgen/contentgen/providers/remote"
)

// offlineClock is a clock the test moves by hand.
type offlineClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *offlineClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *offlineClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// offlineGenerator is a Generator, as a new process would make it, over
// host and the site's state st, whose remote providers run on a machine
// without a network: every name lookup fails with "no such host". It
// returns the number of lookups made.
func offlineGenerator(t *testing.T, host contentgen.Host, st contentgen.StateStore, clock *offlineClock) (*contentgen.Generator, *atomic.Int32) {
	t.Helper()
	var lookups atomic.Int32
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		lookups.Add(1)
		return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: addr, IsNotFound: true}}
	}}}
	var provs []providers.ImageProvider
	for _, mk := range []func(*remote.Options) (providers.ImageProvider, error){
		func(o *remote.Options) (providers.ImageProvider, error) { return remote.NewKeyword(o) },
		func(o *remote.Options) (providers.ImageProvider, error) { return remote.NewRandom(o) },
	} {
		// The default retries and waits: only the breaker keeps a run short.
		p, err := mk(&remote.Options{Client: client, Now: clock.Now})
		require.NoError(t, err)
		provs = append(provs, p)
	}
	lp, err := local.New(nil)
	require.NoError(t, err)
	seed := int64(3)
	gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{
		Seed: &seed, Now: clock.Now, State: st, ImageConcurrency: 4,
		ImageProviders: append(provs, lp),
	})
	require.NoError(t, err)
	return gen, &lookups
}

// offlineWarnings returns the warnings that name provider and suggest
// provider_local.
func offlineWarnings(t *testing.T, warnings []string, provider string) {
	t.Helper()
	require.Len(t, warnings, 1, "one warning for the whole run: %q", warnings)
	require.Contains(t, warnings[0], provider)
	require.Contains(t, warnings[0], providers.Local)
}

// TestOfflineProviderFailsOnceAcrossRunsAndKinds: on a machine without a
// network, the default (remote) provider is asked once, not once per
// image with retries: its breaker opens at the first "no such host", for
// featured images and avatars alike, and stays open for the next process
// on the same site until its cool-down ends. Avatars follow the site's
// default provider when the request names none.
func TestOfflineProviderFailsOnceAcrossRunsAndKinds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	host, err := demosite.New(nil)
	require.NoError(t, err)
	st := new(memstate.Store)
	clock := &offlineClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}

	gen, lookups := offlineGenerator(t, host, st, clock)
	res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(10)})
	require.NoError(t, err)
	require.Len(t, res.IDs, 10)
	require.Equal(t, 0, res.WithFeaturedImage)
	offlineWarnings(t, res.Warnings, providers.Keyword)
	first := lookups.Load()
	require.Positive(t, first)
	require.LessOrEqual(t, first, int32(4), "at most the images already in flight when the first failed, and no retries")

	// Avatars in the same process: the provider is not asked again.
	users, err := gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(20)})
	require.NoError(t, err)
	require.Len(t, users.IDs, 20)
	offlineWarnings(t, users.Warnings, providers.Keyword)
	require.Equal(t, first, lookups.Load())

	// The next process on the same site: not asked at all.
	clock.Advance(10 * time.Second)
	gen2, lookups2 := offlineGenerator(t, host, st, clock)
	res, err = gen2.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(10)})
	require.NoError(t, err)
	offlineWarnings(t, res.Warnings, providers.Keyword)
	require.Zero(t, lookups2.Load(), "the opening was kept with the site's state")

	// After the cool-down, one trial request, and open again.
	clock.Advance(providers.DefaultBreakerCoolDown)
	gen3, lookups3 := offlineGenerator(t, host, st, clock)
	_, err = gen3.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(10)})
	require.NoError(t, err)
	require.Equal(t, int32(1), lookups3.Load(), "one trial after the cool-down")
	clock.Advance(time.Second)
	gen4, lookups4 := offlineGenerator(t, host, st, clock)
	_, err = gen4.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(10)})
	require.NoError(t, err)
	require.Zero(t, lookups4.Load(), "the failed trial opened it for another cool-down")

	// Other providers have breakers of their own: asked once.
	users, err = gen4.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(2), AvatarProvider: providers.Random})
	require.NoError(t, err)
	offlineWarnings(t, users.Warnings, providers.Random)
	asked := lookups4.Load()
	require.Positive(t, asked)
	require.LessOrEqual(t, asked, int32(2), "the two avatars in flight, no retries")

	// With provider_local as the site's default, avatars are drawn offline.
	_, err = gen4.Settings().Update(ctx, func(s *contentgen.Settings) { s.DefaultImageProvider = providers.Local })
	require.NoError(t, err)
	users, err = gen4.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(3)})
	require.NoError(t, err)
	require.Empty(t, users.Warnings)
	for _, id := range users.IDs {
		meta, err := host.Meta(ctx, contentgen.KindUser, id)
		require.NoError(t, err)
		require.NotEmpty(t, meta[contentgen.AvatarKey], "user %d has an avatar", id)
	}
	require.Equal(t, asked, lookups4.Load())
}
