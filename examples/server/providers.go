package main

import (
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/builtin"
)

// imageProviders are the image sources of the demo site: the offline
// provider_local and the three remote services with their defaults.
func imageProviders() ([]providers.ImageProvider, error) {
	return builtin.New(nil)
}
