package contentgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/contentgen/contentgen/contentgen/secrets"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/ai"
)

// AIConfig configures AI-assisted field detection.
type AIConfig struct {
	// Keyring encrypts the API keys at rest. Without it, API keys cannot be
	// stored (POST /settings/ai with a key fails).
	Keyring *secrets.Keyring
	// Providers holds the client options per AI provider slug (base URL,
	// model, HTTP client, timeouts); the API key comes from the settings.
	// A provider without options cannot be used.
	Providers map[string]ai.Options
	// Cache remembers detections; nil means a cache persisted in the
	// Generator's StateStore.
	Cache *ai.Cache
	// Detector, when set, answers instead of the clients built from
	// Providers whenever AI detection is enabled in the settings: a
	// custom detector, or a fake one in tests. No API key is needed.
	Detector providers.FieldDetector
}

// AIProviders lists the AI provider slugs.
var AIProviders = []string{AIOne, AITwo, AIThree}

// aiState is what the StateStore keeps of the AI settings. Keys holds
// ciphertexts only.
type aiState struct {
	Enabled            bool              `json:"enabled"`
	Provider           string            `json:"provider"`
	SecondaryAIEnabled bool              `json:"secondary_ai_enabled"`
	Keys               map[string]string `json:"keys,omitempty"`
}

// AIProviderKey reports whether a provider has a key, and its masked form.
type AIProviderKey struct {
	HasAPIKey    bool   `json:"has_api_key"`
	MaskedAPIKey string `json:"masked_api_key"`
}

// AISettingsDetail is the AI part of the settings with the key state of
// every provider, as GET /settings/ai reports it.
type AISettingsDetail struct {
	AISettings
	Providers map[string]AIProviderKey `json:"providers"`
}

// AISettingsPatch is a partial update of the AI settings. A nil key keeps
// the stored key; an empty string removes it.
type AISettingsPatch struct {
	Enabled            *bool   `json:"enabled"`
	Provider           *string `json:"provider"`
	SecondaryAIEnabled *bool   `json:"secondary_ai_enabled"`
	AIOneAPIKey        *string `json:"ai_one_api_key"`
	AITwoAPIKey        *string `json:"ai_two_api_key"`
	AIThreeAPIKey      *string `json:"ai_three_api_key"`
}

const keyPurpose = "ai_api_key"

func (g *Generator) loadAI(ctx context.Context) (aiState, error) {
	st := aiState{Provider: AIOne}
	raw, err := g.state.Load(ctx, stateAISettings)
	if err != nil {
		return st, fmt.Errorf("contentgen: loading AI settings: %w", err)
	}
	if raw != nil {
		if err := json.Unmarshal(raw, &st); err != nil {
			return aiState{Provider: AIOne}, fmt.Errorf("contentgen: decoding AI settings: %w", err)
		}
	}
	if !slices.Contains(AIProviders, st.Provider) {
		st.Provider = AIOne
	}
	return st, nil
}

func (st *aiState) public() AISettings {
	return AISettings{
		Enabled:            st.Enabled,
		Provider:           st.Provider,
		HasAPIKey:          st.Keys[st.Provider] != "",
		SecondaryAIEnabled: st.SecondaryAIEnabled,
	}
}

// AISettings returns the AI part of the settings.
func (g *Generator) AISettings(ctx context.Context) (AISettings, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	st, err := g.loadAI(ctx)
	if err != nil {
		return AISettings{}, err
	}
	return st.public(), nil
}

// AISettingsDetail returns the AI settings with every provider's key state.
// Keys are never returned, only masked.
func (g *Generator) AISettingsDetail(ctx context.Context) (AISettingsDetail, error) {
	g.mu.Lock()
	st, err := g.loadAI(ctx)
	g.mu.Unlock()
	if err != nil {
		return AISettingsDetail{}, err
	}
	return g.detail(&st), nil
}

func (g *Generator) detail(st *aiState) AISettingsDetail {
	d := AISettingsDetail{AISettings: st.public(), Providers: make(map[string]AIProviderKey, len(AIProviders))}
	for _, slug := range AIProviders {
		k := AIProviderKey{}
		if c := st.Keys[slug]; c != "" {
			k.HasAPIKey = true
			k.MaskedAPIKey = "********"
			if key, err := g.openKey(c, slug); err == nil {
				k.MaskedAPIKey = secrets.Mask(key)
			}
		}
		d.Providers[slug] = k
	}
	return d
}

func (g *Generator) openKey(ciphertext, slug string) (string, error) {
	if g.ai.Keyring == nil {
		return "", errors.New("contentgen: no keyring configured")
	}
	return g.ai.Keyring.OpenString(ciphertext, keyPurpose, slug)
}

// UpdateAISettings validates p, applies it and stores the result. Keys are
// encrypted with the configured keyring before they are stored.
func (g *Generator) UpdateAISettings(ctx context.Context, p AISettingsPatch) (AISettingsDetail, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	st, err := g.loadAI(ctx)
	if err != nil {
		return AISettingsDetail{}, err
	}
	if p.Provider != nil {
		if !slices.Contains(AIProviders, *p.Provider) {
			return AISettingsDetail{}, invalid("provider", "provider must be one of %v, got %q", AIProviders, *p.Provider)
		}
		st.Provider = *p.Provider
	}
	if p.Enabled != nil {
		st.Enabled = *p.Enabled
	}
	if p.SecondaryAIEnabled != nil {
		st.SecondaryAIEnabled = *p.SecondaryAIEnabled
	}
	keys := map[string]*string{AIOne: p.AIOneAPIKey, AITwo: p.AITwoAPIKey, AIThree: p.AIThreeAPIKey}
	for _, slug := range AIProviders {
		v := keys[slug]
		if v == nil {
			continue
		}
		param := slug + "_api_key"
		key := strings.TrimSpace(*v)
		if key == "" {
			delete(st.Keys, slug)
			continue
		}
		if len(key) > 512 || strings.IndexFunc(key, unicode.IsControl) >= 0 || strings.ContainsRune(key, ' ') {
			return AISettingsDetail{}, invalid(param, "%s must be a single token of at most 512 printable characters", param)
		}
		if g.ai.Keyring == nil {
			return AISettingsDetail{}, &Error{Code: CodeInternal, Param: param, Message: "API keys cannot be stored: the server has no encryption key configured"}
		}
		if st.Keys == nil {
			st.Keys = map[string]string{}
		}
		st.Keys[slug] = g.ai.Keyring.SealString(key, keyPurpose, slug)
	}
	raw, err := json.Marshal(st)
	if err != nil {
		return AISettingsDetail{}, err
	}
	if err := g.state.Save(ctx, stateAISettings, raw); err != nil {
		return AISettingsDetail{}, fmt.Errorf("contentgen: saving AI settings: %w", err)
	}
	return g.detail(&st), nil
}

// AITestResult is the outcome of TestAI.
type AITestResult struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// TestAI checks the current provider's key with one cheap request. A
// failing check is a result (Success false with the reason), not an error.
func (g *Generator) TestAI(ctx context.Context) (AITestResult, error) {
	g.mu.Lock()
	st, err := g.loadAI(ctx)
	g.mu.Unlock()
	if err != nil {
		return AITestResult{}, err
	}
	d, err := g.aiDetector(&st, st.Provider)
	if err != nil {
		return AITestResult{Message: ai.TestMessage(err)}, nil
	}
	err = d.Test(ctx)
	if ctx.Err() != nil {
		return AITestResult{}, ctx.Err()
	}
	return AITestResult{Success: err == nil, Message: ai.TestMessage(err)}, nil
}

// aiDetector builds the client of slug with its stored key.
func (g *Generator) aiDetector(st *aiState, slug string) (ai.Detector, error) {
	opts, ok := g.ai.Providers[slug]
	if !ok {
		return nil, fmt.Errorf("AI provider %s is not set up on this server: %w", slug, providers.ErrNotConfigured)
	}
	c := st.Keys[slug]
	if c == "" {
		return nil, fmt.Errorf("no API key for %s: %w", slug, providers.ErrNotConfigured)
	}
	key, err := g.openKey(c, slug)
	if err != nil {
		return nil, fmt.Errorf("the stored API key of %s cannot be decrypted: %w", slug, providers.ErrNotConfigured)
	}
	opts.APIKey = key
	if opts.Logger == nil {
		opts.Logger = g.log
	}
	return ai.New(slug, opts)
}

// fieldDetector returns the detector a generation run uses for fields the
// offline detection cannot place: nil when AI is disabled or unusable.
// With secondary_ai_enabled, another provider with a key answers when the
// current one fails.
func (g *Generator) fieldDetector(ctx context.Context) (providers.FieldDetector, error) {
	g.mu.Lock()
	st, err := g.loadAI(ctx)
	g.mu.Unlock()
	if err != nil || !st.Enabled {
		return nil, err
	}
	if g.ai.Detector != nil {
		return ai.NewCachedDetector(g.ai.Detector, g.aiCache, g.log), nil
	}
	var chain []providers.FieldDetector
	if d, err := g.aiDetector(&st, st.Provider); err == nil {
		chain = append(chain, d)
	}
	if st.SecondaryAIEnabled {
		for _, slug := range AIProviders {
			if slug == st.Provider {
				continue
			}
			if d, err := g.aiDetector(&st, slug); err == nil {
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

// ClearAICache removes every cached AI field detection and returns how
// many were removed.
func (g *Generator) ClearAICache(ctx context.Context) (int, error) {
	n, err := g.aiCache.ClearAll(ctx)
	if err != nil {
		return 0, failed(err, "clearing the detection cache")
	}
	return n, nil
}

// ClearFieldDetections removes the cached detections of one post type.
func (g *Generator) ClearFieldDetections(ctx context.Context, postType string) (int, error) {
	if postType == "" {
		return 0, invalid("post_type", "post_type is required")
	}
	n, err := g.aiCache.ClearPostType(ctx, postType)
	if err != nil {
		return 0, failed(err, "clearing the detection cache")
	}
	return n, nil
}
