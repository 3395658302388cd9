package contentgen

import (
	"context"
	"errors"
	"fmt"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/ai"
)

// keyPurpose binds stored API keys to their use.
const keyPurpose = "ai_api_key"

func (s *SettingsService) openKey(ciphertext, slug string) (string, error) {
	if s.g.cfg.AIKeyring == nil {
		return "", errors.New("contentgen: no keyring configured")
	}
	return s.g.cfg.AIKeyring.OpenString(ciphertext, keyPurpose, slug)
}

// TestAI checks the current AI provider's key with one cheap request and
// returns nil when it works. Any other result is the reason it does not:
// an *Error with CodeUnavailable when the provider is not set up on this
// server or has no usable key, else the provider's error (see
// ai.TestMessage for a client-safe message). A cancelled ctx gives
// ctx.Err().
func (s *SettingsService) TestAI(ctx context.Context) error {
	st, err := s.stored(ctx)
	if err != nil {
		return err
	}
	d, err := s.detector(&st, st.Provider)
	if err != nil {
		return err
	}
	err = d.Test(ctx)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// detector builds the client of slug with its stored key.
func (s *SettingsService) detector(st *stored, slug string) (ai.Detector, error) {
	opts, err := s.clientOptions(st, slug)
	if err != nil {
		return nil, err
	}
	return ai.New(slug, opts)
}

// clientOptions are the options of the client of slug with its key: the
// stored key, else the key of Config.AIProviders, else none when the
// options say the endpoint needs none (a local server).
func (s *SettingsService) clientOptions(st *stored, slug string) (ai.Options, error) {
	opts, ok := s.g.cfg.AIProviders[slug]
	if !ok {
		return ai.Options{}, &Error{Code: CodeUnavailable, Param: "provider", Message: fmt.Sprintf("The AI provider %s is not set up on this server.", slug), Err: providers.ErrNotConfigured}
	}
	if c := st.Keys[slug]; c != "" {
		key, err := s.openKey(c, slug)
		if err != nil {
			return ai.Options{}, &Error{Code: CodeUnavailable, Param: slug + "_api_key", Message: "The stored API key cannot be decrypted with this server's encryption key; store it again.", Err: err}
		}
		opts.APIKey = key
	}
	if opts.APIKey == "" && !opts.KeyOptional {
		return ai.Options{}, &Error{Code: CodeUnavailable, Param: slug + "_api_key", Message: "The API key is not configured.", Err: providers.ErrNotConfigured}
	}
	if opts.Logger == nil {
		opts.Logger = s.g.log
	}
	return opts, nil
}

// fieldDetector returns the detector a generation run uses for fields the
// offline detection cannot place: nil when AI is disabled or unusable.
// With the secondary provider enabled, another provider with a key answers
// when the current one fails.
func (g *Generator) fieldDetector(ctx context.Context) (providers.FieldDetector, error) {
	st, err := g.settings.stored(ctx)
	if err != nil || !st.Enabled {
		return nil, err
	}
	if g.cfg.AIDetector != nil {
		return ai.NewCachedDetector(g.cfg.AIDetector, g.aiCache, g.log), nil
	}
	var chain []providers.FieldDetector
	if d, err := g.settings.detector(&st, st.Provider); err == nil {
		chain = append(chain, d)
	}
	if st.SecondaryEnabled {
		for _, slug := range aiProviders {
			if slug == st.Provider {
				continue
			}
			if d, err := g.settings.detector(&st, slug); err == nil {
				chain = append(chain, d)
				break
			}
		}
	}
	if len(chain) == 0 {
		return nil, nil
	}
	return ai.NewCachedDetector(ai.NewChain(chain...), g.aiCache, g.log), nil
}
