package contentgen_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/imaging"
)

// deadProvider fails every image and counts the calls.
type deadProvider struct{ calls atomic.Int64 }

func (d *deadProvider) Info() providers.Info {
	return providers.Info{Slug: providers.Curated, Name: "dead", Configured: true}
}

func (d *deadProvider) Image(context.Context, providers.ImageRequest) (*providers.Image, error) {
	d.calls.Add(1)
	return nil, errors.New("connection refused")
}

func TestDeadProviderCostsTwoAttemptsPerRun(t *testing.T) {
	t.Parallel()
	host, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	dead := &deadProvider{}
	seed := int64(1)
	gen, err := contentgen.New(host, history.NewMemStore(clock), &contentgen.Config{Seed: &seed, Now: clock, ImageConcurrency: 1, ImageProviders: []providers.ImageProvider{dead}})
	require.NoError(t, err)
	res, err := gen.GenerateUsers(context.Background(), contentgen.UsersRequest{Count: new(40), AvatarProvider: providers.Curated})
	require.NoError(t, err, "an avatar never fails a run")
	require.Len(t, res.IDs, 40)
	require.EqualValues(t, 2, dead.calls.Load(), "after two failures in a row the run asks nothing more")
	require.True(t, slicesContainsPrefix(res.Warnings, "38 images from provider_curated were skipped"), "%v", res.Warnings)
}

func slicesContainsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

func TestUploadOverThePixelBudgetIsRefused(t *testing.T) {
	t.Parallel()
	host, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	dec, err := imaging.NewDecoder(&imaging.Limits{MaxPixels: 100})
	require.NoError(t, err)
	gen, err := contentgen.New(host, history.NewMemStore(clock), &contentgen.Config{Now: clock, Decoder: dec})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, 20, 20))))
	_, err = gen.Media().Upload(context.Background(), "big.png", buf.Bytes())
	require.ErrorIs(t, err, contentgen.ErrTooLarge, "400 pixels over a budget of 100 are refused before decoding")
	buf.Reset()
	require.NoError(t, png.Encode(&buf, image.NewGray(image.Rect(0, 0, 10, 10))))
	m, err := gen.Media().Upload(context.Background(), "small.png", buf.Bytes())
	require.NoError(t, err)
	require.Equal(t, 10, m.Width)
	left, err := host.Media(context.Background(), contentgen.MediaQuery{})
	require.NoError(t, err)
	require.Len(t, left, 1, "nothing is stored for the refused upload")
}

// clashingHost fails every term and user creation with a unique-value
// clash and counts the attempts.
type clashingHost struct {
	contentgen.Host
	attempts atomic.Int64
}

func (h *clashingHost) CreateTerms(context.Context, []contentgen.Term) ([]int64, error) {
	h.attempts.Add(1)
	return nil, fmt.Errorf("slug taken: %w", contentgen.ErrHostConflict)
}

func (h *clashingHost) CreateUsers(context.Context, []contentgen.User) ([]int64, error) {
	h.attempts.Add(1)
	return nil, fmt.Errorf("login taken: %w", contentgen.ErrHostConflict)
}

func TestClashThatSurvivesRetriesIsConflict(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	demo, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	host := &clashingHost{Host: demo}
	hist := history.NewMemStore(clock)
	gen, err := contentgen.New(host, hist, &contentgen.Config{Now: clock})
	require.NoError(t, err)

	_, err = gen.GenerateTerms(ctx, contentgen.TermsRequest{Count: new(3)})
	require.ErrorIs(t, err, contentgen.ErrConflict)
	require.EqualValues(t, 4, host.attempts.Load(), "a clash is retried with new names a bounded number of times")

	res, err := gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(3), GenerateAvatars: new(false)})
	require.ErrorIs(t, err, contentgen.ErrConflict)
	require.Nil(t, res, "no ids of users that do not exist")
	_, total, err := gen.History().List(ctx, contentgen.HistoryQuery{})
	require.NoError(t, err)
	require.Zero(t, total, "nothing is tracked that was not made")
}

// panickyProvider panics on every image.
type panickyProvider struct{}

func (panickyProvider) Info() providers.Info {
	return providers.Info{Slug: providers.Local, Name: "panicky", Configured: true}
}

func (panickyProvider) Image(context.Context, providers.ImageRequest) (*providers.Image, error) {
	panic("decoder bug")
}

func TestPanickingProviderCostsItsImagesOnly(t *testing.T) {
	t.Parallel()
	host, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	gen, err := contentgen.New(host, history.NewMemStore(clock), &contentgen.Config{Now: clock, ImageProviders: []providers.ImageProvider{panickyProvider{}}})
	require.NoError(t, err)
	res, err := gen.GeneratePosts(context.Background(), contentgen.PostsRequest{Count: new(3), ImageProvider: providers.Local})
	require.NoError(t, err)
	require.Len(t, res.IDs, 3)
	require.Equal(t, 3, res.WithoutFeaturedImage)
	require.NotEmpty(t, res.Warnings)
}

func TestHourlyRateIsBounded(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 1)
	_, err := f.gen.Settings().Update(context.Background(), func(s *contentgen.Settings) { s.HourlyRate = 1e308 })
	requireParam(t, err, contentgen.ErrInvalidParameter, "hourly_rate")
}

func TestImageWarningsCarryNoInternalDetails(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  error
		want string
	}{
		{&providers.StatusError{Provider: "provider_random", StatusCode: 429, Attempts: 3}, "HTTP 429"},
		{&url.Error{Op: "Get", URL: "http://10.0.0.7/secret", Err: errors.New("dial tcp 10.0.0.7:80: refused")}, "could not be reached"},
	} {
		host, err := demosite.New(&memhost.Options{Now: clock})
		require.NoError(t, err)
		gen, err := contentgen.New(host, history.NewMemStore(clock), &contentgen.Config{Now: clock, ImageProviders: []providers.ImageProvider{failing{c.err}}})
		require.NoError(t, err)
		res, err := gen.GeneratePosts(context.Background(), contentgen.PostsRequest{Count: new(1), ImageProvider: providers.Random})
		require.NoError(t, err)
		require.Len(t, res.Warnings, 1)
		require.Contains(t, res.Warnings[0], c.want)
		require.NotContains(t, res.Warnings[0], "10.0.0.7")
	}
}

// failing is a provider whose every image fails with err.
type failing struct{ err error }

func (f failing) Info() providers.Info {
	return providers.Info{Slug: providers.Random, Name: "failing", Configured: true}
}

func (f failing) Image(context.Context, providers.ImageRequest) (*providers.Image, error) {
	return nil, f.err
}
