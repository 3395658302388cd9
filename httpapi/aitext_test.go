package httpapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/locales/markup/markuptest"
	"github.com/contentgen/contentgen/providers/ai"
	"github.com/contentgen/contentgen/providers/ai/aitest"
)

// text_source ai in a posts request and in the settings: the posts carry
// the text of an OpenAI-compatible server in every format, the message
// names the tokens, and with the server stopped the run succeeds with one
// warning.
func TestPostsWithAIText(t *testing.T) {
	t.Parallel()
	fake := aitest.NewServer(t)
	e := newEnvWith(t, func(c *contentgen.Config) {
		c.AIProviders = map[string]ai.Options{contentgen.AIOne: {BaseURL: fake.BaseURL(), Model: "llama3.2", KeyOptional: true, Timeout: time.Minute}}
	}, nil)
	for _, format := range []string{"html", "blocks", "markdown"} {
		status, out := e.do("POST", "/generate/posts", map[string]any{
			"count": 2, "text_source": "ai", "content_format": format, "set_featured_image": false, "locale": "fr_FR",
		}, asAdmin)
		require.Equal(t, http.StatusOK, status, out)
		require.Empty(t, out["warnings"])
		require.Contains(t, out["message"], "AI text: 2 posts by ai_one")
		for _, id := range out["ids"].([]any) {
			status, post := e.do("GET", fmt.Sprintf("/content/posts/%v", id), nil, asAdmin)
			require.Equal(t, http.StatusOK, status, post)
			p := post["post"].(map[string]any)
			require.Equal(t, aitest.Title, p["title"])
			content := p["content"].(string)
			require.NotContains(t, strings.ToLower(content), "<script")
			if format != "markdown" {
				require.NoError(t, markuptest.CheckBalanced(content))
			}
			if format == "blocks" {
				require.NoError(t, markuptest.CheckBlocks(content))
			}
		}
	}
	require.Contains(t, fake.Requests()[0].Prompt(), "French")

	// The setting, and the fake gone.
	status, out := e.do("POST", "/settings", map[string]any{"text_source": "ai"}, asAdmin)
	require.Equal(t, http.StatusOK, status, out)
	fake.Close()
	status, out = e.do("POST", "/generate/posts", map[string]any{"count": 3, "set_featured_image": false}, asAdmin)
	require.Equal(t, http.StatusOK, status, out)
	require.Len(t, out["ids"], 3)
	require.Len(t, out["warnings"], 1, out)
	require.Contains(t, out["warnings"].([]any)[0], "3 posts were written by the offline writer")

	status, out = e.do("POST", "/generate/posts", map[string]any{"text_source": "gpt"}, asAdmin)
	require.Equal(t, http.StatusBadRequest, status, out)
	require.Equal(t, "invalid_parameter", out["code"])
}
