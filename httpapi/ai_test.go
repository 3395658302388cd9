package httpapi_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/contentgen/secrets"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/addons"
	"github.com/contentgen/contentgen/httpapi/license"
	"github.com/contentgen/contentgen/providers/ai"
)

// fakeModels answers the key check of the chat-completions wire format:
// GET /v1/models/{model} with a bearer key.
func fakeModels(t *testing.T, goodKey string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer "+goodKey {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}`))
			return
		}
		_, _ = w.Write([]byte(`{"id":"model-small","object":"model","created":1700000000,"owned_by":"system"}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestAISettings(t *testing.T) {
	t.Parallel()
	const good = "sk-test-0123456789abcdef"
	models := fakeModels(t, good)
	kr, err := secrets.NewKeyringFromKey(secrets.GenerateKey())
	require.NoError(t, err)
	state := memhost.NewStateStore()
	e := newEnvWith(t, func(c *contentgen.Config) {
		c.State = state
		c.AIKeyring, c.AIProviders = kr, map[string]ai.Options{
			ai.SlugOne: {BaseURL: models.URL, Model: "model-small", Timeout: 2 * time.Second},
		}
	}, nil)

	status, body := e.do("GET", "/settings/ai", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	s := body["settings"].(map[string]any)
	requireShape(t, s, map[string]string{"enabled": "boolean", "provider": "string", "has_api_key": "boolean", "secondary_ai_enabled": "boolean", "providers": "object"})
	require.Equal(t, map[string]any{"has_api_key": false, "masked_api_key": ""}, s["providers"].(map[string]any)["ai_two"])

	// No key yet: the test fails with the spec's message.
	status, body = e.do("POST", "/settings/ai/test", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, false, body["success"])
	require.Contains(t, body["message"], "not configured")

	status, body = e.do("POST", "/settings/ai", map[string]any{"provider": "ai_four"}, asAdmin)
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, body["message"], "provider")

	// A wrong key is stored encrypted, shown masked, and rejected by the test.
	status, body = e.do("POST", "/settings/ai", map[string]any{"enabled": true, "ai_one_api_key": "sk-wrong-key-000000"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	one := body["settings"].(map[string]any)["providers"].(map[string]any)["ai_one"].(map[string]any)
	require.Equal(t, true, one["has_api_key"])
	require.Equal(t, "********0000", one["masked_api_key"])
	raw, err := state.Load(context.Background(), "settings.ai")
	require.NoError(t, err)
	require.NotContains(t, string(raw), "sk-wrong-key", "keys are encrypted at rest")
	status, body = e.do("POST", "/settings/ai/test", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, false, body["success"])
	require.Contains(t, body["message"], "401")

	// The right key passes; omitting the key keeps it.
	_, _ = e.do("POST", "/settings/ai", map[string]any{"ai_one_api_key": good}, asAdmin)
	_, body = e.do("POST", "/settings/ai", map[string]any{"secondary_ai_enabled": true}, asAdmin)
	require.Equal(t, true, body["settings"].(map[string]any)["has_api_key"])
	status, body = e.do("POST", "/settings/ai/test", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, true, body["success"], body)

	_, body = e.do("GET", "/settings", nil, asAdmin)
	require.Equal(t, map[string]any{"enabled": true, "provider": "ai_one", "has_api_key": true, "secondary_ai_enabled": true}, body["settings"].(map[string]any)["ai"])

	// An empty string removes the key.
	_, body = e.do("POST", "/settings/ai", map[string]any{"ai_one_api_key": ""}, asAdmin)
	require.Equal(t, false, body["settings"].(map[string]any)["has_api_key"])

	// Unreachable provider.
	models.Close()
	_, _ = e.do("POST", "/settings/ai", map[string]any{"ai_one_api_key": good}, asAdmin)
	_, body = e.do("POST", "/settings/ai/test", nil, asAdmin)
	require.Equal(t, false, body["success"])
	require.Contains(t, strings.ToLower(body["message"].(string)), "connection failed")

	for _, path := range []string{"/settings/ai/clear-cache"} {
		status, body = e.do("POST", path, nil, asAdmin)
		require.Equal(t, http.StatusOK, status)
		require.Equal(t, true, body["success"])
	}
	for _, path := range []string{"/field-detections", "/field-detections/post"} {
		status, body = e.do("DELETE", path, nil, asAdmin)
		require.Equal(t, http.StatusOK, status)
		requireShape(t, body, map[string]string{"success": "boolean", "message": "string", "deleted": "number"})
	}
}

func TestAIKeyWithoutKeyring(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, body := e.do("POST", "/settings/ai", map[string]any{"ai_two_api_key": "key-123456"}, asAdmin)
	require.Equal(t, http.StatusInternalServerError, status, "a server without an encryption key cannot store keys")
	require.Contains(t, body["message"], "encryption key")
	_, body = e.do("GET", "/settings/ai", nil, asAdmin)
	require.Equal(t, false, body["settings"].(map[string]any)["providers"].(map[string]any)["ai_two"].(map[string]any)["has_api_key"])
}

func TestLicenseAndAddons(t *testing.T) {
	t.Parallel()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	mgr, err := license.NewManager(pub, nil)
	require.NoError(t, err)
	reg, err := addons.NewRegistry(addons.Addon{Name: "Shop fields", Slug: "shop-fields", Version: "1.2.0", Active: true, Description: "Product fields."})
	require.NoError(t, err)
	e := newEnvWith(t, nil, func(o *httpapi.Options) { o.License = mgr; o.Addons = reg })

	status, body := e.do("GET", "/license", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "inactive", body["license"].(map[string]any)["status"])

	status, body = e.do("POST", "/license/activate", map[string]any{"license_key": "not-a-key"}, asAdmin)
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "invalid_parameter", body["code"])

	_, otherPriv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	forged, err := license.Issue(otherPriv, license.Claims{ID: "x", Plan: "pro", Issued: time.Now(), Expires: time.Now().AddDate(1, 0, 0)})
	require.NoError(t, err)
	status, _ = e.do("POST", "/license/activate", map[string]any{"license_key": forged}, asAdmin)
	require.Equal(t, http.StatusBadRequest, status, "a key signed by another key is forged")

	expired, err := license.Issue(priv, license.Claims{ID: "y", Plan: "pro", Issued: time.Now().AddDate(-2, 0, 0), Expires: time.Now().AddDate(-1, 0, 0)})
	require.NoError(t, err)
	status, body = e.do("POST", "/license/activate", map[string]any{"license_key": expired}, asAdmin)
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, body["message"], "expired")

	key, err := license.Issue(priv, license.Claims{ID: "z", Plan: "pro", Issued: time.Now(), Expires: time.Now().AddDate(1, 0, 0)})
	require.NoError(t, err)
	status, body = e.do("POST", "/license/activate", map[string]any{"license_key": key}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	lic := body["license"].(map[string]any)
	require.Equal(t, "active", lic["status"])
	require.Equal(t, "pro", lic["plan"])
	require.NotEqual(t, key, lic["license_key"], "the key is returned masked")
	require.Regexp(t, `^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`, lic["expires_at"])

	status, body = e.do("POST", "/license/refresh", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "active", body["license"].(map[string]any)["status"])
	status, body = e.do("POST", "/license/deactivate", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "inactive", body["license"].(map[string]any)["status"])

	status, body = e.do("GET", "/addons", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, []any{map[string]any{"name": "Shop fields", "slug": "shop-fields", "version": "1.2.0", "active": true, "description": "Product fields."}}, body["addons"])
}

func TestAITestNamesWhatIsMissing(t *testing.T) {
	t.Parallel()
	kr, err := secrets.NewKeyringFromKey(secrets.GenerateKey())
	require.NoError(t, err)
	e := newEnvWith(t, func(c *contentgen.Config) { c.AIKeyring = kr }, nil)

	// A key is stored, but no provider is set up on this server.
	status, body := e.do("POST", "/settings/ai", map[string]any{"provider": "ai_two", "ai_two_api_key": "key-123456789"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	_, body = e.do("POST", "/settings/ai/test", nil, asAdmin)
	require.Equal(t, false, body["success"])
	require.Contains(t, body["message"], "not set up on this server", "the key is there; the provider is what is missing")

	// A provider without a key.
	_, _ = e.do("POST", "/settings/ai", map[string]any{"ai_two_api_key": ""}, asAdmin)
	_, body = e.do("POST", "/settings/ai/test", nil, asAdmin)
	require.Equal(t, false, body["success"])
	require.Contains(t, body["message"], "not set up on this server", "without options the provider is not set up, key or no key")
}
