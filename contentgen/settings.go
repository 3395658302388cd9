package contentgen

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/contentgen/contentgen/contentgen/secrets"
	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/providers"
)

// Settings are the settings of the service: the general ones and the AI
// part. Keys of AI providers are never part of them; AIKeys holds their
// masked form.
type Settings struct {
	// AdminLocale is the language of the service's own messages: "auto"
	// (the site's) or a locale code.
	AdminLocale string
	// Locale is the default language of generated content: "auto" (the
	// site's) or a locale code.
	Locale                    string
	DefaultPostCount          int
	DefaultTermCount          int
	DefaultUserCount          int
	DeleteHistoryOnDeactivate bool
	DeleteMediaWithPosts      bool
	AutoSelectDefaultTemplate bool
	DeleteRelatedMedia        bool
	DeleteRelatedTerms        bool
	DeleteRelatedAuthors      bool
	DeleteRelatedComments     bool
	DefaultImageProvider      string
	// TelemetryEnabled is stored and reported only: the service sends
	// nothing anywhere, whatever its value.
	TelemetryEnabled       bool
	SaveAndGenerateAutoRun bool
	ChildGenerateBehavior  string
	HourlyRate             float64
	// TextSource is "lorem" (Latin placeholder text) or "realtext" (text
	// in the content's language; in a locale with topics every post is
	// about a topic, see "Topics" in the package documentation).
	TextSource string

	// AIEnabled turns AI-assisted field detection on, with AIProvider
	// (ai_one, ai_two or ai_three) and, with AISecondaryEnabled, another
	// provider that has a key as fallback.
	AIEnabled          bool
	AIProvider         string
	AISecondaryEnabled bool
	// AIKeys maps each AI provider slug to its stored key, masked
	// ("********abcd"); "" when the provider has no key.
	AIKeys map[string]string
}

// SettingsPatch is a partial update of Settings: nil fields keep their
// value. In AIKeys a key maps to the new API key of that provider, and ""
// removes it.
type SettingsPatch struct {
	AdminLocale               *string
	Locale                    *string
	DefaultPostCount          *int
	DefaultTermCount          *int
	DefaultUserCount          *int
	DeleteHistoryOnDeactivate *bool
	DeleteMediaWithPosts      *bool
	AutoSelectDefaultTemplate *bool
	DeleteRelatedMedia        *bool
	DeleteRelatedTerms        *bool
	DeleteRelatedAuthors      *bool
	DeleteRelatedComments     *bool
	DefaultImageProvider      *string
	TelemetryEnabled          *bool
	SaveAndGenerateAutoRun    *bool
	ChildGenerateBehavior     *string
	HourlyRate                *float64
	TextSource                *string

	AIEnabled          *bool
	AIProvider         *string
	AISecondaryEnabled *bool
	AIKeys             map[string]string
}

// AI provider slugs.
const (
	AIOne   = "ai_one"
	AITwo   = "ai_two"
	AIThree = "ai_three"
)

// aiProviders are the AI provider slugs in order.
var aiProviders = []string{AIOne, AITwo, AIThree}

// stored is the persisted form of the settings, under one state key so
// that an update is one atomic read-modify-write. Keys holds ciphertexts.
type stored struct {
	AdminLocale               string            `json:"admin_locale"`
	Locale                    string            `json:"locale"`
	DefaultPostCount          int               `json:"default_post_count"`
	DefaultTermCount          int               `json:"default_term_count"`
	DefaultUserCount          int               `json:"default_user_count"`
	DeleteHistoryOnDeactivate bool              `json:"delete_history_on_deactivate"`
	DeleteMediaWithPosts      bool              `json:"delete_media_with_posts"`
	AutoSelectDefaultTemplate bool              `json:"auto_select_default_template"`
	DeleteRelatedMedia        bool              `json:"delete_related_media"`
	DeleteRelatedTerms        bool              `json:"delete_related_terms"`
	DeleteRelatedAuthors      bool              `json:"delete_related_authors"`
	DeleteRelatedComments     bool              `json:"delete_related_comments"`
	DefaultImageProvider      string            `json:"default_image_provider"`
	TelemetryEnabled          bool              `json:"telemetry_enabled"`
	SaveAndGenerateAutoRun    bool              `json:"save_and_generate_auto_run"`
	ChildGenerateBehavior     string            `json:"child_generate_behavior"`
	HourlyRate                float64           `json:"hourly_rate"`
	TextSource                string            `json:"text_source"`
	AIEnabled                 bool              `json:"ai_enabled"`
	AIProvider                string            `json:"ai_provider"`
	AISecondaryEnabled        bool              `json:"ai_secondary_enabled"`
	Keys                      map[string]string `json:"ai_keys,omitempty"`
}

const stateSettings = "settings"

// maxHourlyRate bounds the hourly_rate setting, so that the money saved
// stays a finite number.
const maxHourlyRate = 1_000_000

func defaultStored() stored {
	return stored{
		AdminLocale:               "auto",
		Locale:                    "auto",
		DefaultPostCount:          5,
		DefaultTermCount:          5,
		DefaultUserCount:          5,
		AutoSelectDefaultTemplate: true,
		DeleteRelatedMedia:        true,
		DeleteRelatedTerms:        true,
		DeleteRelatedAuthors:      true,
		DeleteRelatedComments:     true,
		DefaultImageProvider:      providers.Keyword,
		TelemetryEnabled:          true,
		SaveAndGenerateAutoRun:    true,
		ChildGenerateBehavior:     "ask",
		HourlyRate:                75,
		TextSource:                "lorem",
		AIProvider:                AIOne,
	}
}

// SettingsService reads and changes the settings, AI keys included, and
// tests the AI connection.
type SettingsService struct{ g *Generator }

// Get returns the current settings.
func (s *SettingsService) Get(ctx context.Context) (Settings, error) { return s.load(ctx) }

// load reads the stored settings.
func (s *SettingsService) load(ctx context.Context) (Settings, error) {
	st, err := s.stored(ctx)
	if err != nil {
		return Settings{}, err
	}
	return s.public(&st), nil
}

func (s *SettingsService) stored(ctx context.Context) (stored, error) {
	raw, err := s.g.cfg.State.Load(ctx, stateSettings)
	if err != nil {
		return stored{}, internal(err, "reading the settings")
	}
	return decodeStored(raw)
}

func decodeStored(raw []byte) (stored, error) {
	st := defaultStored()
	if raw != nil {
		if err := json.Unmarshal(raw, &st); err != nil {
			return defaultStored(), internal(err, "decoding the settings")
		}
	}
	if !slices.Contains(aiProviders, st.AIProvider) {
		st.AIProvider = AIOne
	}
	return st, nil
}

// public turns stored settings into Settings, masking the keys.
func (s *SettingsService) public(st *stored) Settings {
	out := Settings{
		AdminLocale: st.AdminLocale, Locale: st.Locale,
		DefaultPostCount: st.DefaultPostCount, DefaultTermCount: st.DefaultTermCount, DefaultUserCount: st.DefaultUserCount,
		DeleteHistoryOnDeactivate: st.DeleteHistoryOnDeactivate, DeleteMediaWithPosts: st.DeleteMediaWithPosts,
		AutoSelectDefaultTemplate: st.AutoSelectDefaultTemplate,
		DeleteRelatedMedia:        st.DeleteRelatedMedia, DeleteRelatedTerms: st.DeleteRelatedTerms,
		DeleteRelatedAuthors: st.DeleteRelatedAuthors, DeleteRelatedComments: st.DeleteRelatedComments,
		DefaultImageProvider: st.DefaultImageProvider, TelemetryEnabled: st.TelemetryEnabled,
		SaveAndGenerateAutoRun: st.SaveAndGenerateAutoRun, ChildGenerateBehavior: st.ChildGenerateBehavior,
		HourlyRate: st.HourlyRate, TextSource: st.TextSource,
		AIEnabled: st.AIEnabled, AIProvider: st.AIProvider, AISecondaryEnabled: st.AISecondaryEnabled,
		AIKeys: make(map[string]string, len(aiProviders)),
	}
	for _, slug := range aiProviders {
		out.AIKeys[slug] = ""
		if c := st.Keys[slug]; c != "" {
			out.AIKeys[slug] = "********"
			if key, err := s.openKey(c, slug); err == nil {
				out.AIKeys[slug] = secrets.Mask(key)
			}
		}
	}
	return out
}

// Update validates p, applies it over the current settings and stores the
// result in one atomic read-modify-write, so that concurrent updates (also
// from other processes sharing the store) never lose each other's
// changes. Nothing is stored when any value is invalid. API keys are
// encrypted with the configured keyring before they are stored.
func (s *SettingsService) Update(ctx context.Context, p SettingsPatch) (Settings, error) {
	var out stored
	err := s.g.cfg.State.Update(ctx, stateSettings, func(old []byte) ([]byte, error) {
		st, err := decodeStored(old)
		if err != nil {
			return nil, err
		}
		if err := s.apply(&st, &p); err != nil {
			return nil, err
		}
		out = st
		return json.Marshal(st)
	})
	if err != nil {
		return Settings{}, internal(err, "saving the settings")
	}
	return s.public(&out), nil
}

// apply validates p and applies it to st.
func (s *SettingsService) apply(st *stored, p *SettingsPatch) error {
	g := s.g
	v := validator{}
	locale := func(param string, x *string, dst *string) {
		switch {
		case x == nil:
		case *x == "auto":
			*dst = *x
		default:
			if code, ok := g.cfg.Locales.Match(*x); ok {
				*dst = code
			} else {
				v.fail(invalid(param, "%s must be \"auto\" or a supported locale code, got %q", param, *x))
			}
		}
	}
	count := func(param string, x *int, dst *int) {
		if x != nil {
			*dst = v.intIn(param, x, *dst, 1, g.cfg.MaxCount)
		}
	}
	enum := func(param string, x *string, dst *string, allowed ...string) {
		if x != nil {
			if *x == "" {
				v.fail(invalid(param, "%s must be one of %v, got %q", param, allowed, *x))
				return
			}
			*dst = v.enum(param, *x, *dst, allowed...)
		}
	}
	locale("admin_locale", p.AdminLocale, &st.AdminLocale)
	locale("locale", p.Locale, &st.Locale)
	count("default_post_count", p.DefaultPostCount, &st.DefaultPostCount)
	count("default_term_count", p.DefaultTermCount, &st.DefaultTermCount)
	count("default_user_count", p.DefaultUserCount, &st.DefaultUserCount)
	enum("default_image_provider", p.DefaultImageProvider, &st.DefaultImageProvider, providers.Slugs()...)
	enum("child_generate_behavior", p.ChildGenerateBehavior, &st.ChildGenerateBehavior, "ask", "child_only", "parent_chain")
	enum("text_source", p.TextSource, &st.TextSource, "realtext", "lorem")
	if p.HourlyRate != nil {
		if r := *p.HourlyRate; math.IsNaN(r) || r < 1 || r > maxHourlyRate {
			v.fail(invalid("hourly_rate", "hourly_rate must be a number from 1 to %d", maxHourlyRate))
		} else {
			st.HourlyRate = r
		}
	}
	enum("provider", p.AIProvider, &st.AIProvider, aiProviders...)
	if v.err != nil {
		return v.err
	}
	for _, b := range []struct {
		x   *bool
		dst *bool
	}{
		{p.DeleteHistoryOnDeactivate, &st.DeleteHistoryOnDeactivate},
		{p.DeleteMediaWithPosts, &st.DeleteMediaWithPosts},
		{p.AutoSelectDefaultTemplate, &st.AutoSelectDefaultTemplate},
		{p.DeleteRelatedMedia, &st.DeleteRelatedMedia},
		{p.DeleteRelatedTerms, &st.DeleteRelatedTerms},
		{p.DeleteRelatedAuthors, &st.DeleteRelatedAuthors},
		{p.DeleteRelatedComments, &st.DeleteRelatedComments},
		{p.TelemetryEnabled, &st.TelemetryEnabled},
		{p.SaveAndGenerateAutoRun, &st.SaveAndGenerateAutoRun},
		{p.AIEnabled, &st.AIEnabled},
		{p.AISecondaryEnabled, &st.AISecondaryEnabled},
	} {
		if b.x != nil {
			*b.dst = *b.x
		}
	}
	return s.applyKeys(st, p.AIKeys)
}

// applyKeys encrypts and stores the API keys of keys; "" removes one.
func (s *SettingsService) applyKeys(st *stored, keys map[string]string) error {
	for _, slug := range sortedNames(keys) {
		param := slug + "_api_key"
		if !slices.Contains(aiProviders, slug) {
			return invalid(param, "%s: %q is not an AI provider; known: %v", param, slug, aiProviders)
		}
		key := strings.TrimSpace(keys[slug])
		if key == "" {
			delete(st.Keys, slug)
			continue
		}
		if len(key) > 512 || strings.IndexFunc(key, unicode.IsControl) >= 0 || strings.ContainsRune(key, ' ') {
			return invalid(param, "%s must be a single token of at most 512 printable characters", param)
		}
		kr := s.g.cfg.AIKeyring
		if kr == nil {
			return &Error{Code: CodeInternal, Param: param, Message: "API keys cannot be stored: the server has no encryption key configured"}
		}
		if st.Keys == nil {
			st.Keys = map[string]string{}
		}
		st.Keys[slug] = kr.SealString(key, keyPurpose, slug)
	}
	return nil
}

// Languages lists the locales valid as the locale of generation requests
// and the default one: the locale setting, with "auto" resolved to the
// site's language.
func (s *SettingsService) Languages(ctx context.Context) ([]locales.Locale, string, error) {
	st, err := s.load(ctx)
	if err != nil {
		return nil, "", err
	}
	def, err := s.g.resolveLocale(ctx, "", st)
	if err != nil {
		return nil, "", err
	}
	return s.g.cfg.Locales.List(), def, nil
}
