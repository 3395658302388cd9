package contentgen

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/contentgen/contentgen/providers"
)

// Settings are the general settings of the service.
type Settings struct {
	AdminLocale               string  `json:"admin_locale"`
	Locale                    string  `json:"locale"`
	DefaultPostCount          int     `json:"default_post_count"`
	DefaultTermCount          int     `json:"default_term_count"`
	DefaultUserCount          int     `json:"default_user_count"`
	DeleteHistoryOnDeactivate bool    `json:"delete_history_on_deactivate"`
	DeleteMediaWithPosts      bool    `json:"delete_media_with_posts"`
	AutoSelectDefaultTemplate bool    `json:"auto_select_default_template"`
	DeleteRelatedMedia        bool    `json:"delete_related_media"`
	DeleteRelatedTerms        bool    `json:"delete_related_terms"`
	DeleteRelatedAuthors      bool    `json:"delete_related_authors"`
	DeleteRelatedComments     bool    `json:"delete_related_comments"`
	DefaultImageProvider      string  `json:"default_image_provider"`
	TelemetryEnabled          bool    `json:"telemetry_enabled"`
	SaveAndGenerateAutoRun    bool    `json:"save_and_generate_auto_run"`
	ChildGenerateBehavior     string  `json:"child_generate_behavior"`
	HourlyRate                float64 `json:"hourly_rate"`
	TextSource                string  `json:"text_source"`
}

// DefaultSettings returns the settings of a fresh installation.
func DefaultSettings() Settings {
	return Settings{
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
	}
}

// SettingsPatch is a partial update of Settings: nil fields keep their value.
type SettingsPatch struct {
	AdminLocale               *string  `json:"admin_locale"`
	Locale                    *string  `json:"locale"`
	DefaultPostCount          *int     `json:"default_post_count"`
	DefaultTermCount          *int     `json:"default_term_count"`
	DefaultUserCount          *int     `json:"default_user_count"`
	DeleteHistoryOnDeactivate *bool    `json:"delete_history_on_deactivate"`
	DeleteMediaWithPosts      *bool    `json:"delete_media_with_posts"`
	AutoSelectDefaultTemplate *bool    `json:"auto_select_default_template"`
	DeleteRelatedMedia        *bool    `json:"delete_related_media"`
	DeleteRelatedTerms        *bool    `json:"delete_related_terms"`
	DeleteRelatedAuthors      *bool    `json:"delete_related_authors"`
	DeleteRelatedComments     *bool    `json:"delete_related_comments"`
	DefaultImageProvider      *string  `json:"default_image_provider"`
	TelemetryEnabled          *bool    `json:"telemetry_enabled"`
	SaveAndGenerateAutoRun    *bool    `json:"save_and_generate_auto_run"`
	ChildGenerateBehavior     *string  `json:"child_generate_behavior"`
	HourlyRate                *float64 `json:"hourly_rate"`
	TextSource                *string  `json:"text_source"`
}

// AISettings are the AI part of the settings as GET /settings reports it.
type AISettings struct {
	Enabled            bool   `json:"enabled"`
	Provider           string `json:"provider"`
	HasAPIKey          bool   `json:"has_api_key"`
	SecondaryAIEnabled bool   `json:"secondary_ai_enabled"`
}

// AI provider slugs.
const (
	AIOne   = "ai_one"
	AITwo   = "ai_two"
	AIThree = "ai_three"
)

const (
	stateSettings   = "settings.general"
	stateAISettings = "settings.ai"
	stateTimeSaved  = "time_saved"
)

// Settings returns the current general settings.
func (g *Generator) Settings(ctx context.Context) (Settings, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.loadSettings(ctx)
}

// loadSettings reads the settings; g.mu must be held.
func (g *Generator) loadSettings(ctx context.Context) (Settings, error) {
	s := DefaultSettings()
	raw, err := g.state.Load(ctx, stateSettings)
	if err != nil {
		return s, fmt.Errorf("contentgen: loading settings: %w", err)
	}
	if raw != nil {
		if err := json.Unmarshal(raw, &s); err != nil {
			return DefaultSettings(), fmt.Errorf("contentgen: decoding stored settings: %w", err)
		}
	}
	return s, nil
}

// UpdateSettings validates p, applies it over the current settings, stores
// the result and returns it. Nothing is stored when any value is invalid.
func (g *Generator) UpdateSettings(ctx context.Context, p SettingsPatch) (Settings, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	s, err := g.loadSettings(ctx)
	if err != nil {
		return s, err
	}
	if err := g.applyPatch(&s, p); err != nil {
		return s, err
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return s, err
	}
	if err := g.state.Save(ctx, stateSettings, raw); err != nil {
		return s, fmt.Errorf("contentgen: saving settings: %w", err)
	}
	return s, nil
}

func (g *Generator) applyPatch(s *Settings, p SettingsPatch) error {
	locale := func(param string, v *string, dst *string) error {
		if v == nil {
			return nil
		}
		if *v == "auto" {
			*dst = *v
			return nil
		}
		code, ok := g.locales.Match(*v)
		if !ok {
			return invalid(param, "%s must be \"auto\" or a supported locale code, got %q", param, *v)
		}
		*dst = code
		return nil
	}
	count := func(param string, v *int, dst *int) error {
		if v == nil {
			return nil
		}
		if *v < 1 || *v > g.maxCount {
			return invalid(param, "%s must be between 1 and %d", param, g.maxCount)
		}
		*dst = *v
		return nil
	}
	enum := func(param string, v *string, dst *string, allowed ...string) error {
		if v == nil {
			return nil
		}
		for _, a := range allowed {
			if *v == a {
				*dst = *v
				return nil
			}
		}
		return invalid(param, "%s must be one of %v, got %q", param, allowed, *v)
	}
	boolean := func(v *bool, dst *bool) {
		if v != nil {
			*dst = *v
		}
	}
	for _, err := range []error{
		locale("admin_locale", p.AdminLocale, &s.AdminLocale),
		locale("locale", p.Locale, &s.Locale),
		count("default_post_count", p.DefaultPostCount, &s.DefaultPostCount),
		count("default_term_count", p.DefaultTermCount, &s.DefaultTermCount),
		count("default_user_count", p.DefaultUserCount, &s.DefaultUserCount),
		enum("default_image_provider", p.DefaultImageProvider, &s.DefaultImageProvider, providers.Slugs...),
		enum("child_generate_behavior", p.ChildGenerateBehavior, &s.ChildGenerateBehavior, "ask", "child_only", "parent_chain"),
		enum("text_source", p.TextSource, &s.TextSource, "realtext", "lorem"),
	} {
		if err != nil {
			return err
		}
	}
	if p.HourlyRate != nil {
		if math.IsNaN(*p.HourlyRate) || math.IsInf(*p.HourlyRate, 0) || *p.HourlyRate < 1 {
			return invalid("hourly_rate", "hourly_rate must be a number of at least 1")
		}
		s.HourlyRate = *p.HourlyRate
	}
	boolean(p.DeleteHistoryOnDeactivate, &s.DeleteHistoryOnDeactivate)
	boolean(p.DeleteMediaWithPosts, &s.DeleteMediaWithPosts)
	boolean(p.AutoSelectDefaultTemplate, &s.AutoSelectDefaultTemplate)
	boolean(p.DeleteRelatedMedia, &s.DeleteRelatedMedia)
	boolean(p.DeleteRelatedTerms, &s.DeleteRelatedTerms)
	boolean(p.DeleteRelatedAuthors, &s.DeleteRelatedAuthors)
	boolean(p.DeleteRelatedComments, &s.DeleteRelatedComments)
	boolean(p.TelemetryEnabled, &s.TelemetryEnabled)
	boolean(p.SaveAndGenerateAutoRun, &s.SaveAndGenerateAutoRun)
	return nil
}
