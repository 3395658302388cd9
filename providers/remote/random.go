package remote

import (
	"context"
	"strconv"

	"github.com/contentgen/contentgen/providers"
)

// DefaultRandomURL is Lorem Picsum's address.
const DefaultRandomURL = "https://picsum.photos"

// Random is provider_random: Lorem Picsum, random photos. A request
// becomes {base}/seed/{seed}/{w}/{h}, so the same seed gives the same
// photo. Categories are ignored. It is safe for concurrent use.
type Random struct{ c *client }

var _ providers.ImageProvider = (*Random)(nil)

// NewRandom returns the Lorem Picsum provider. It returns an error when
// Options.BaseURL is not an http or https URL.
func NewRandom(opts *Options) (*Random, error) {
	c, err := newClient(providers.Random, DefaultRandomURL, opts)
	if err != nil {
		return nil, err
	}
	return &Random{c: c}, nil
}

// Info describes the provider; it does not support categories.
func (p *Random) Info() providers.Info {
	return providers.Info{
		Slug:             providers.Random,
		Name:             "Lorem Picsum",
		Description:      "Random photos from Unsplash photographers, served by Lorem Picsum.",
		URL:              DefaultRandomURL,
		SupportsCategory: false,
		Configured:       true,
	}
}

// Image downloads one random photo of req's size; req.Category is
// ignored. Errors are as for Keyword.Image.
func (p *Random) Image(ctx context.Context, req providers.ImageRequest) (*providers.Image, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	u := joinPath(p.c.base, "seed", strconv.FormatUint(req.Seed, 10), strconv.Itoa(req.Width), strconv.Itoa(req.Height))
	img, hdr, err := p.c.image(ctx, u, req.Seed)
	if err != nil {
		return nil, err
	}
	if id := hdr.Get("Picsum-ID"); id != "" {
		img.Title = "Lorem Picsum photo " + id
	}
	return img, nil
}
