package contentgen_test

import (
	"bytes"
	"context"
	"image"
	_ "image/jpeg" // decodes the stored images
	"path"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/filetype"
	"github.com/contentgen/contentgen/providers/local"
)

// storedFile is one file the host keeps for a featured image: the image
// or one of its sizes.
type storedFile struct {
	name, mimeType string
	width, height  int
	data           []byte
}

// featuredFiles generates n posts with 240x160 featured images drawn by
// provider_local, fetching conc images at once, and returns the files of
// every featured image and its sizes, in post order.
func featuredFiles(t *testing.T, seed int64, conc, n int) []storedFile {
	t.Helper()
	ctx := context.Background()
	host, err := demosite.New(nil)
	require.NoError(t, err)
	prov, err := local.New(nil)
	require.NoError(t, err)
	gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{
		Seed: &seed, ImageConcurrency: conc, ImageProviders: []providers.ImageProvider{prov},
	})
	require.NoError(t, err)
	res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(n), ImageProvider: providers.Local, ImageWidth: new(240), ImageHeight: new(160)})
	require.NoError(t, err)
	require.Equal(t, n, res.WithFeaturedImage)
	posts, err := host.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	byID := map[int64]contentgen.Post{}
	for _, p := range posts {
		byID[p.ID] = p
	}
	var files []storedFile
	for _, id := range res.IDs {
		media, err := host.Media(ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(byID[id].FeaturedMediaID)})
		require.NoError(t, err)
		require.Len(t, media, 1)
		m := media[0]
		data, mimeType, ok := host.File(m.URL)
		require.True(t, ok, m.URL)
		files = append(files, storedFile{path.Base(m.URL), mimeType, m.Width, m.Height, data})
		require.Len(t, m.Sizes, 2)
		for _, sz := range m.Sizes {
			data, mimeType, ok := host.File(sz.URL)
			require.True(t, ok, sz.URL)
			files = append(files, storedFile{path.Base(sz.URL), mimeType, sz.Width, sz.Height, data})
		}
	}
	return files
}

// TestLocalImagesSameBytesWhateverTheConcurrency checks that images drawn
// in parallel are those drawn one by one: each image's random source comes
// from the run's seed and its place in the batch, never from scheduling.
func TestLocalImagesSameBytesWhateverTheConcurrency(t *testing.T) {
	t.Parallel()
	one := featuredFiles(t, 7, 1, 10)
	require.Len(t, one, 30, "each post's image and its two sizes")
	for _, conc := range []int{2, 4, 16} {
		require.Equal(t, one, featuredFiles(t, 7, conc, 10), "concurrency %d", conc)
	}
	require.NotEqual(t, one, featuredFiles(t, 8, 4, 10), "another seed draws other images")
}

// TestLocalImagesAreValidFiles checks what the host is handed: every file
// is what its name and MIME type say, decodes, and has the size recorded.
func TestLocalImagesAreValidFiles(t *testing.T) {
	t.Parallel()
	for _, f := range featuredFiles(t, 3, 4, 6) {
		typ, err := filetype.Check(f.name, f.data)
		require.NoError(t, err, f.name)
		require.Equal(t, f.mimeType, typ.MIMEType, f.name)
		require.Equal(t, "image/jpeg", f.mimeType, f.name)
		cfg, format, err := image.DecodeConfig(bytes.NewReader(f.data))
		require.NoError(t, err, f.name)
		require.Equal(t, "jpeg", format)
		require.Equal(t, [2]int{f.width, f.height}, [2]int{cfg.Width, cfg.Height}, f.name)
		img, _, err := image.Decode(bytes.NewReader(f.data))
		require.NoError(t, err, f.name)
		require.Equal(t, image.Rect(0, 0, f.width, f.height), img.Bounds())
	}
}
