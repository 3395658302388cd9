// Package imagetest holds image providers for the module's tests.
package imagetest

import (
	"context"
	"fmt"

	"github.com/contentgen/contentgen/providers"
)

// Linked returns a provider that draws its images with p under the slug
// of provider_random and gives each the address it came from, as the
// images of remote providers have: https://images.example.com/SEED.jpg.
// No request leaves the process.
func Linked(p providers.ImageProvider) providers.ImageProvider { return linked{p} }

type linked struct{ providers.ImageProvider }

func (l linked) Info() providers.Info {
	info := l.ImageProvider.Info()
	info.Slug = providers.Random
	return info
}

func (l linked) Image(ctx context.Context, req providers.ImageRequest) (*providers.Image, error) {
	img, err := l.ImageProvider.Image(ctx, req)
	if err == nil {
		img.Source = fmt.Sprintf("https://images.example.com/%d.jpg", req.Seed)
	}
	return img, err
}
