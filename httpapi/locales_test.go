package httpapi_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

func TestLanguagesEndpoint(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, _ := e.do("GET", "/languages", nil, asNobody)
	require.Equal(t, http.StatusUnauthorized, status)

	status, body := e.do("GET", "/languages", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, true, body["success"])
	langs := body["languages"].([]any)
	byCode := map[string]map[string]any{}
	for _, l := range langs {
		m := l.(map[string]any)
		requireShape(t, m, map[string]string{"code": "string", "name": "string", "native_name": "string", "flag": "string"})
		byCode[m["code"].(string)] = m
	}
	for _, code := range []string{"en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "pt_BR", "pt_PT", "pl_PL",
		"sv_SE", "da_DK", "cs_CZ", "tr_TR", "ru_RU", "uk", "ja", "zh_CN", "ko_KR"} {
		require.Contains(t, byCode, code)
	}
	require.Equal(t, map[string]any{"code": "de_DE", "name": "German (Germany)", "native_name": "Deutsch (Deutschland)", "flag": "🇩🇪"}, byCode["de_DE"])

	// Every listed code is accepted as locale by the generation endpoints.
	for code := range byCode {
		status, body := e.do("POST", "/generate/comments", map[string]any{"locale": code, "comments_per_post_min": 1, "comments_per_post_max": 1}, asAdmin)
		require.Equal(t, http.StatusOK, status, "%s: %v", code, body)
	}

	status, body = e.do("POST", "/settings", map[string]any{"locale": "pl_PL"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	_, body = e.do("GET", "/languages", nil, asAdmin)
	require.Equal(t, "pl_PL", body["default"], "default follows the locale setting")
}

func TestGenerateInLocaleOverHTTP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, body := e.do("POST", "/settings", map[string]any{"text_source": "realtext"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	status, body = e.do("POST", "/generate/posts", map[string]any{
		"count": 3, "locale": "de-CH", "set_featured_image": false,
	}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	ids := body["ids"].([]any)
	require.Len(t, ids, 3)
	for _, id := range ids {
		posts, err := e.host.Posts(context.Background(), contentgen.PostQuery{IDs: contentgen.OnlyIDs(int64(id.(float64)))})
		require.NoError(t, err)
		require.Regexp(t, `\b(der|die|das|dem|den|ein|eine|einen|jeder|jede|jedes)\b`, posts[0].Content)
		require.NotRegexp(t, `\b(the|with|every|their)\b`, posts[0].Content)
	}

	for _, path := range []string{"/generate/posts", "/generate/comments", "/generate/users"} {
		status, body := e.do("POST", path, map[string]any{"locale": "tlh"}, asAdmin)
		require.Equal(t, http.StatusBadRequest, status, path)
		require.Equal(t, "invalid_parameter", body["code"])
		require.Contains(t, body["message"], "locale")
	}
	status, body = e.do("POST", "/settings", map[string]any{"locale": "xx_YY"}, asAdmin)
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "invalid_parameter", body["code"])
	require.Contains(t, body["message"], "locale")
}
