package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/locales/markup/markuptest"
	"github.com/contentgen/contentgen/providers/ai/aitest"
)

// The server started with -ai-base-url and -ai-model writes posts with
// text_source ai through an OpenAI-compatible server, in every format;
// with that server stopped a run succeeds on the offline writer with one
// warning.
func TestServerWithALocalModel(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	fake := aitest.NewServer(t)
	p := startServer(t, bin, "memory", "-ai-base-url", fake.BaseURL(), "-ai-model", "llama3.2")
	defer p.stop(t)
	require.Contains(t, p.log.String(), "AI text (ai_one): model llama3.2")
	for _, format := range []string{"html", "blocks", "markdown"} {
		out := p.mustCall(t, "POST", "/generate/posts", fmt.Sprintf(`{"count":2,"text_source":"ai","content_format":%q,"set_featured_image":false,"auto_comments":true}`, format))
		require.Empty(t, out["warnings"])
		require.Contains(t, out["message"], "AI text: 2 posts by ai_one")
		for _, id := range idsOf(out) {
			post := p.mustCall(t, "GET", fmt.Sprintf("/content/posts/%d", id), "")["post"].(map[string]any)
			require.Equal(t, aitest.Title, post["title"])
			content := post["content"].(string)
			require.NotContains(t, strings.ToLower(content), "<script")
			switch format {
			case "blocks":
				require.NoError(t, markuptest.CheckBlocks(content), content)
				require.NoError(t, markuptest.CheckBalanced(content))
			case "html":
				require.NoError(t, markuptest.CheckBalanced(content))
			case "markdown":
				require.NotContains(t, content, "<")
			}
		}
	}
	fake.Close()
	out := p.mustCall(t, "POST", "/generate/posts", `{"count":3,"text_source":"ai","set_featured_image":false}`)
	require.Len(t, idsOf(out), 3)
	require.Len(t, out["warnings"], 1, out)
	require.Contains(t, out["warnings"].([]any)[0], "3 posts were written by the offline writer")
}
