package site

import (
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/builtin"
	"github.com/contentgen/contentgen/providers/imaging"
	"github.com/contentgen/contentgen/providers/remote"
)

// ImageProviders are the image sources of the demo site: the offline
// provider_local and the three remote services with their defaults. The
// curated provider decodes its thumbnails through dec, the decoder the
// Generator uses too, so that one bound covers every decode.
func ImageProviders(dec *imaging.Decoder) ([]providers.ImageProvider, error) {
	return builtin.New(&builtin.Options{Curated: &remote.CuratedOptions{Decoder: dec}})
}
