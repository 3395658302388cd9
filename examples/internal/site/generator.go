package site

import (
	"context"
	"log/slog"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/secrets"
	"github.com/contentgen/contentgen/providers/ai"
	"github.com/contentgen/contentgen/providers/imaging"
	"github.com/contentgen/contentgen/templates/fields"
)

// GeneratorOptions are what a program adds to the demo site's Generator.
// The zero value is a Generator without AI detection and without ACF
// JSON field groups that logs nothing.
type GeneratorOptions struct {
	Logger      *slog.Logger
	AIKeyring   *secrets.Keyring
	AIProviders map[string]ai.Options
	// ACFDir is a directory of ACF local JSON field groups added on top of
	// the built-in ones; empty means none.
	ACFDir string
}

// Generator builds the Generator of the demo site with contentgen.New,
// as for any host: what the host keeps and can do (its batch size, media
// files or records of URLs) it says itself. The demo adds the four image
// providers behind one bounded decoder, the demo custom fields (which
// register the publisher post type) and the starter templates, installed
// once.
func (s *Site) Generator(ctx context.Context, o GeneratorOptions) (*contentgen.Generator, error) {
	decoder, err := imaging.NewDecoder(nil)
	if err != nil {
		return nil, err
	}
	images, err := ImageProviders(decoder)
	if err != nil {
		return nil, err
	}
	var defs *fields.Registry
	if s.WordPress {
		defs, err = ACFFields(o.ACFDir)
	} else {
		defs, err = Fields(ctx, s.Register, o.ACFDir)
	}
	if err != nil {
		return nil, err
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	gen, err := contentgen.New(s.Host, s.History, &contentgen.Config{
		State:          s.State,
		Logger:         logger,
		ImageProviders: images,
		Decoder:        decoder,
		AIKeyring:      o.AIKeyring,
		AIProviders:    o.AIProviders,
		Templates:      s.Templates,
		FieldAdapters:  defs,
	})
	if err != nil {
		return nil, err
	}
	if err := InstallStarters(ctx, gen, s.Host); err != nil {
		return nil, err
	}
	return gen, nil
}
