package contentgen

import (
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/contentgen/contentgen/contentgen/secrets"
	"github.com/contentgen/contentgen/internal/memstate"
	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/ai"
	"github.com/contentgen/contentgen/providers/fetch"
	"github.com/contentgen/contentgen/providers/filetype"
	"github.com/contentgen/contentgen/providers/imaging"
	"github.com/contentgen/contentgen/templates"
	"github.com/contentgen/contentgen/templates/fields"
)

// Limits and defaults of the configuration.
const (
	// DefaultMaxCount is the default upper limit of count per request.
	DefaultMaxCount = 500
	// DefaultMaxUpload is the largest upload accepted when
	// Config.MaxUploadBytes is zero.
	DefaultMaxUpload = 20 << 20
)

// Config holds the optional parts of a Generator. The zero value (or a nil
// *Config) gives a working Generator: in-memory state, the shipped locales,
// no image providers, no templates, no AI.
type Config struct {
	// State persists settings, AI keys, time-saved counters and the AI
	// detection cache; nil means in memory.
	State StateStore
	// Locales is the locale registry; nil means locales.NewRegistry().
	Locales *locales.Registry
	// ImageProviders are the image sources, by their Info().Slug.
	ImageProviders []providers.ImageProvider
	// ImageConcurrency bounds parallel image fetches of a run; 0 means 4.
	ImageConcurrency int
	// Templates stores saved templates; nil means an empty in-memory
	// store.
	Templates templates.Store
	// FieldAdapters supplies the custom field definitions and relations of
	// post types (see fields.NewRegistry); nil means no custom fields.
	FieldAdapters *fields.Registry
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Now is the clock of every date the Generator makes (post and comment
	// dates, history, time saved); nil means time.Now. Give the host the
	// same clock for reproducible fixtures.
	Now func() time.Time
	// Seed, when set, makes every run deterministic: run n of the
	// Generator uses a seed derived from Seed and n, unless the request
	// has its own seed.
	Seed *int64
	// MaxCount is the upper limit of count per request, 1-500; 0 means 500.
	MaxCount int
	// BatchSize is the number of items written to the host per call; 0
	// means 50.
	BatchSize int
	// AIKeyring encrypts the API keys of AI providers at rest; without
	// it API keys cannot be stored.
	AIKeyring *secrets.Keyring
	// AIProviders holds the client options per AI provider slug (base
	// URL, model, HTTP client, timeouts); the API key comes from the
	// settings. A provider without options cannot be used.
	AIProviders map[string]ai.Options
	// AIDetector, when set, answers instead of the clients built from
	// AIProviders whenever AI detection is enabled in the settings: a
	// custom detector, or a fake one in tests. No API key is needed.
	AIDetector providers.FieldDetector
	// AIWriter, when set, writes the text of runs whose text source is
	// "ai" instead of the client of the settings' AI provider built from
	// AIProviders: a custom writer, or a fake one in tests. No API key is
	// needed.
	AIWriter ai.Writer
	// AITextConcurrency bounds the requests to the AI provider in flight
	// in one run; 0 means DefaultAITextConcurrency.
	AITextConcurrency int
	// AITokenBudget is the tokens one run may spend on AI text (prompts
	// and answers as the provider counts them); once spent, the run's
	// other posts are written offline. 0 means DefaultAITokenBudget.
	AITokenBudget int
	// AITextCache is the number of AI answers remembered, by prompt and
	// seed, in memory and in State; 0 means DefaultAITextCache.
	AITextCache int
	// Fetcher downloads the files of MediaService.UploadURL; nil means one
	// that refuses private, loopback and link-local addresses.
	Fetcher *fetch.Fetcher
	// MaxUploadBytes is the largest file an upload accepts; 0 means
	// DefaultMaxUpload.
	MaxUploadBytes int64
	// Decoder decodes every image the Generator handles (uploads,
	// downloads, renditions) within its limits: images whose header
	// claims more pixels than its budget are refused before decoding, and
	// concurrent decodes are bounded. nil means imaging.NewDecoder(nil);
	// share one with providers that decode images too.
	Decoder *imaging.Decoder
	// UploadTypes is the allow-list of uploaded file types; nil means the
	// default list (images, PDF, office documents, spreadsheets, archives,
	// plain text).
	UploadTypes *filetype.Policy
}

// withDefaults returns c with every zero field that has a default set.
func (c Config) withDefaults() Config {
	if c.State == nil {
		c.State = new(memstate.Store)
	}
	if c.Locales == nil {
		c.Locales = locales.NewRegistry()
	}
	if c.ImageConcurrency == 0 {
		c.ImageConcurrency = 4
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Templates == nil {
		c.Templates = templates.NewMemStore()
	}
	if c.MaxCount == 0 {
		c.MaxCount = DefaultMaxCount
	}
	if c.BatchSize == 0 {
		c.BatchSize = 50
	}
	if c.AITextConcurrency == 0 {
		c.AITextConcurrency = DefaultAITextConcurrency
	}
	if c.AITokenBudget == 0 {
		c.AITokenBudget = DefaultAITokenBudget
	}
	if c.AITextCache == 0 {
		c.AITextCache = DefaultAITextCache
	}
	if c.Fetcher == nil {
		c.Fetcher = fetch.New(nil)
	}
	if c.MaxUploadBytes == 0 {
		c.MaxUploadBytes = DefaultMaxUpload
	}
	if c.UploadTypes == nil {
		c.UploadTypes = &filetype.Policy{}
	}
	if c.Decoder == nil {
		// The default limits are valid.
		c.Decoder, _ = imaging.NewDecoder(nil)
	}
	return c
}

// validate checks a configuration with its defaults applied; its errors
// name the field at fault.
func (c *Config) validate() error {
	switch {
	case c.MaxCount < 1 || c.MaxCount > DefaultMaxCount:
		return fmt.Errorf("Config.MaxCount must be between 1 and %d, got %d", DefaultMaxCount, c.MaxCount)
	case c.BatchSize < 1:
		return fmt.Errorf("Config.BatchSize must be positive, got %d", c.BatchSize)
	case c.ImageConcurrency < 1:
		return fmt.Errorf("Config.ImageConcurrency must be positive, got %d", c.ImageConcurrency)
	case c.AITextConcurrency < 1:
		return fmt.Errorf("Config.AITextConcurrency must be positive, got %d", c.AITextConcurrency)
	case c.AITokenBudget < 1:
		return fmt.Errorf("Config.AITokenBudget must be positive, got %d", c.AITokenBudget)
	case c.AITextCache < 1:
		return fmt.Errorf("Config.AITextCache must be positive, got %d", c.AITextCache)
	case c.MaxUploadBytes < 0:
		return fmt.Errorf("Config.MaxUploadBytes must not be negative, got %d", c.MaxUploadBytes)
	}
	seen := map[string]bool{}
	for i, p := range c.ImageProviders {
		if p == nil {
			return fmt.Errorf("Config.ImageProviders[%d] is nil", i)
		}
		slug := p.Info().Slug
		if seen[slug] {
			return fmt.Errorf("Config.ImageProviders[%d] repeats the slug %q", i, slug)
		}
		seen[slug] = true
	}
	for slug := range c.AIProviders {
		if !slices.Contains(aiProviders, slug) {
			return fmt.Errorf("Config.AIProviders has unknown slug %q; known: %v", slug, aiProviders)
		}
	}
	return nil
}
