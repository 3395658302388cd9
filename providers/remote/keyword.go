package remote

import (
	"context"
	"strconv"
	"strings"

	"github.com/contentgen/contentgen/providers"
)

// DefaultKeywordURL is LoremFlickr's address.
const DefaultKeywordURL = "https://loremflickr.com"

// Keyword is provider_keyword: LoremFlickr, photos from Flickr (Creative
// Commons) by keyword. A request becomes
// {base}/{w}/{h}/{keyword,keyword}?lock={n}, where the lock number comes
// from the seed so that the same seed gives the same photo. It is safe for
// concurrent use.
type Keyword struct{ c *client }

var _ providers.ImageProvider = (*Keyword)(nil)

// NewKeyword returns the LoremFlickr provider. It returns an error when
// Options.BaseURL is not an http or https URL.
func NewKeyword(opts *Options) (*Keyword, error) {
	c, err := newClient(providers.Keyword, DefaultKeywordURL, opts)
	if err != nil {
		return nil, err
	}
	return &Keyword{c: c}, nil
}

// Info describes the provider.
func (p *Keyword) Info() providers.Info {
	return providers.Info{
		Slug:             providers.Keyword,
		Name:             "LoremFlickr",
		Description:      "Creative Commons photos from Flickr, searched by keyword.",
		URL:              DefaultKeywordURL,
		SupportsCategory: true,
		Configured:       true,
	}
}

// Image downloads one photo of req's size for req's category. Errors wrap
// providers.ErrInvalidSize, ErrNotImage or ErrTooLarge, are a
// *providers.StatusError, or wrap ctx.Err().
func (p *Keyword) Image(ctx context.Context, req providers.ImageRequest) (*providers.Image, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	segs := []string{strconv.Itoa(req.Width), strconv.Itoa(req.Height)}
	u := joinPath(p.c.base, segs...)
	if kw := KeywordsFor(providers.Keyword, req.Category); len(kw) > 0 {
		for i, k := range kw {
			kw[i] = strings.ReplaceAll(k, ",", " ")
		}
		u = joinPath(u, strings.Join(kw, ","))
		u = strings.ReplaceAll(u, "%2C", ",")
	}
	u += "?lock=" + strconv.FormatUint(req.Seed%1_000_000+1, 10)
	img, _, err := p.c.image(ctx, u, req.Seed)
	if err != nil {
		return nil, err
	}
	return img, nil
}
