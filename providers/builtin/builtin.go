package builtin

import (
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/local"
	"github.com/contentgen/contentgen/providers/remote"
)

// Options configures each provider; a nil field means its defaults.
type Options struct {
	// Local configures provider_local.
	Local *local.Options
	// Keyword configures provider_keyword (LoremFlickr).
	Keyword *remote.Options
	// Curated configures provider_curated (Wikimedia Commons).
	Curated *remote.CuratedOptions
	// Random configures provider_random (Lorem Picsum).
	Random *remote.Options
}

// New returns the built-in providers in the order of providers.Slugs. It
// returns the first option error.
func New(opts *Options) ([]providers.ImageProvider, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	kw, err := remote.NewKeyword(o.Keyword)
	if err != nil {
		return nil, err
	}
	cur, err := remote.NewCurated(o.Curated)
	if err != nil {
		return nil, err
	}
	rnd, err := remote.NewRandom(o.Random)
	if err != nil {
		return nil, err
	}
	loc, err := local.New(o.Local)
	if err != nil {
		return nil, err
	}
	return []providers.ImageProvider{kw, cur, rnd, loc}, nil
}
