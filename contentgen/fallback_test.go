package contentgen_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/hosttest"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/internal/imagetest"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/local"
)

// TestWithoutOptionalCapabilities runs generation and deletion over a
// host that has no transactions, trash, bulk existence checks or media
// storage: tracking, deletion and cleanup take their fallback paths and
// keep the same guarantees.
func TestWithoutOptionalCapabilities(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	host, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	h := hosttest.Minimal(host)
	for _, capability := range []func(contentgen.Host) bool{
		func(h contentgen.Host) bool { _, ok := h.(contentgen.Transactor); return ok },
		func(h contentgen.Host) bool { _, ok := h.(contentgen.Trasher); return ok },
		func(h contentgen.Host) bool { _, ok := h.(contentgen.Exister); return ok },
		func(h contentgen.Host) bool { _, ok := h.(contentgen.MediaStorer); return ok },
	} {
		require.False(t, capability(h))
	}
	prov, err := local.New(nil)
	require.NoError(t, err)
	hist := history.NewMemStore(clock)
	seed := int64(5)
	gen, err := contentgen.New(h, hist, &contentgen.Config{Seed: &seed, Now: clock, ImageProviders: []providers.ImageProvider{prov, imagetest.Linked(prov)}})
	require.NoError(t, err)
	handMade := snapshot(t, host, false)

	posts, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(4), ImageProvider: providers.Random, ImageWidth: new(200), ImageHeight: new(150), AutoComments: true})
	require.NoError(t, err)
	require.Len(t, posts.IDs, 4)
	require.Equal(t, 4, posts.WithFeaturedImage, "images are kept as records of their URLs when the host keeps no files")
	requireRecordedByURL(t, host, posts.IDs)
	local, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(2), ImageProvider: providers.Local, ImageWidth: new(200), ImageHeight: new(150)})
	require.NoError(t, err, "an image that cannot be kept never fails the run")
	require.Len(t, local.IDs, 2)
	require.Equal(t, 2, local.WithoutFeaturedImage, "images drawn locally have no URL to be recorded by")
	require.Equal(t, []string{"2 images from provider_local were left out: the site keeps no media files, and these images have no URL to be recorded by"}, local.Warnings)
	_, err = gen.GenerateTerms(ctx, contentgen.TermsRequest{GenerateHierarchy: true, Depth: new(2), Breadth: new(2)})
	require.NoError(t, err)
	_, err = gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(3), GenerateAvatars: new(false)})
	require.NoError(t, err)
	requireTrackedExactly(t, host, hist)

	// Without a trash, a delete without force is permanent and forgets
	// the history.
	rm, err := gen.Delete(ctx, contentgen.KindPost, contentgen.OnlyIDs(posts.IDs[:1]...), false)
	require.NoError(t, err)
	require.Equal(t, 1, rm.Posts)
	require.False(t, rm.Trashed)
	requireTrackedExactly(t, host, hist)

	_, err = gen.Media().Upload(ctx, "notes.txt", []byte("plain text"))
	require.ErrorIs(t, err, contentgen.ErrWriteFailed, "uploads need a host that keeps bytes")

	_, err = gen.DeleteAll(ctx)
	require.NoError(t, err)
	require.Equal(t, handMade, snapshot(t, host, true))
	_, total, err := gen.History().List(ctx, contentgen.HistoryQuery{})
	require.NoError(t, err)
	require.Zero(t, total)
}

// requireRecordedByURL checks that the featured image of every post is a
// record of the URL it came from, without sizes.
func requireRecordedByURL(t *testing.T, h contentgen.Host, posts []int64) {
	t.Helper()
	ctx := context.Background()
	got, err := h.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(posts...)})
	require.NoError(t, err)
	require.Len(t, got, len(posts))
	for _, p := range got {
		require.NotZero(t, p.FeaturedMediaID)
		media, err := h.Media(ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(p.FeaturedMediaID)})
		require.NoError(t, err)
		require.Len(t, media, 1)
		require.True(t, strings.HasPrefix(media[0].URL, "https://images.example.com/"), media[0].URL)
		require.Empty(t, media[0].Sizes, "renditions exist only as files")
		require.Equal(t, 200, media[0].Width)
		require.True(t, media[0].Meta.Generated())
	}
}

// refusing is a host without optional capabilities but StoreMedia, which
// fails with err, as a host does that is set up without a place for
// files (errors.ErrUnsupported) or whose storage fails.
type refusing struct {
	contentgen.Host
	err   error
	calls *int
}

func (r refusing) StoreMedia(context.Context, contentgen.Media, []byte) (int64, error) {
	*r.calls++
	return 0, r.err
}

func (r refusing) MediaBytes(context.Context, int64) ([]byte, string, error) {
	return nil, "", r.err
}

// described is refusing with Capabilities.
type described struct {
	refusing
	caps contentgen.Capabilities
}

func (d described) Capabilities() contentgen.Capabilities { return d.caps }

// TestImagesOnHostsThatKeepNoFiles checks that a host that cannot store
// files, whether it says so (Capabilities.MediaRecordsOnly) or finds out
// (StoreMedia fails with errors.ErrUnsupported), gets its images as
// records of their URLs, and that an image that cannot be stored at all
// costs a warning, never the run.
func TestImagesOnHostsThatKeepNoFiles(t *testing.T) {
	t.Parallel()
	prov, err := local.New(nil)
	require.NoError(t, err)
	for _, c := range []struct {
		name string
		err  error
		// says is set when the host says it keeps no files.
		says bool
		// recorded is whether the images end up as records; calls the
		// calls of StoreMedia for 3 images.
		recorded bool
		calls    int
		warning  string
	}{
		{name: "says so", err: errors.New("must not be called"), says: true, recorded: true},
		{name: "finds out", err: fmt.Errorf("no uploads: %w", errors.ErrUnsupported), recorded: true, calls: 3},
		{name: "storage fails", err: errors.New("disk on fire"), calls: 3, warning: "image 1 from provider_random could not be stored and was skipped: the site refused it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			host, err := demosite.New(&memhost.Options{Now: clock})
			require.NoError(t, err)
			hist := history.NewMemStore(clock)
			calls := 0
			var h contentgen.Host = refusing{hosttest.Minimal(host), c.err, &calls}
			if c.says {
				h = described{h.(refusing), contentgen.Capabilities{History: hist, MediaRecordsOnly: true}}
			}
			seed := int64(9)
			cfg := &contentgen.Config{Seed: &seed, Now: clock, ImageProviders: []providers.ImageProvider{imagetest.Linked(prov)}}
			var gen *contentgen.Generator
			if c.says {
				gen, err = contentgen.New(h, nil, cfg)
			} else {
				gen, err = contentgen.New(h, hist, cfg)
			}
			require.NoError(t, err)
			req := contentgen.PostsRequest{Count: new(3), ImageProvider: providers.Random, ImageWidth: new(200), ImageHeight: new(150)}
			res, err := gen.GeneratePosts(ctx, req)
			require.NoError(t, err)
			require.Len(t, res.IDs, 3)
			require.Equal(t, c.calls, calls)
			if c.recorded {
				require.Empty(t, res.Warnings)
				require.Equal(t, 3, res.WithFeaturedImage)
				requireRecordedByURL(t, host, res.IDs)
			} else {
				require.Equal(t, 3, res.WithoutFeaturedImage)
				require.Len(t, res.Warnings, 3)
				require.Equal(t, c.warning, res.Warnings[0])
			}
			requireTrackedExactly(t, host, hist)
			if c.says {
				_, err = gen.Media().Upload(ctx, "notes.txt", []byte("plain text"))
				require.ErrorIs(t, err, contentgen.ErrWriteFailed, "uploads need a host that keeps files")
				return
			}

			// A full storage is not a failed image: the request keeps
			// nothing and says so.
			handMade := snapshot(t, host, true)
			full := refusing{hosttest.Minimal(host), fmt.Errorf("no space left: %w", contentgen.ErrHostFull), new(int)}
			gen, err = contentgen.New(full, hist, cfg)
			require.NoError(t, err)
			_, err = gen.GeneratePosts(ctx, req)
			require.ErrorIs(t, err, contentgen.ErrInsufficientStorage)
			require.Equal(t, handMade, snapshot(t, host, true))
			requireTrackedExactly(t, host, hist)
		})
	}
}

// TestNewTakesTheHostsStores checks that New uses the stores a host says
// it keeps when none are given, and wants a history from somewhere.
func TestNewTakesTheHostsStores(t *testing.T) {
	t.Parallel()
	host, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	_, err = contentgen.New(host, nil, nil)
	require.ErrorContains(t, err, "history store is nil, and the host keeps none")

	hist := history.NewMemStore(clock)
	h := described{refusing{host, errors.New("unused"), new(int)}, contentgen.Capabilities{History: hist}}
	gen, err := contentgen.New(h, nil, &contentgen.Config{Now: clock})
	require.NoError(t, err)
	res, err := gen.GenerateUsers(context.Background(), contentgen.UsersRequest{Count: new(2), GenerateAvatars: new(false)})
	require.NoError(t, err)
	_, total, err := hist.List(context.Background(), history.Filter{})
	require.NoError(t, err)
	require.Equal(t, len(res.IDs), total, "the generation is recorded in the host's history")
}
