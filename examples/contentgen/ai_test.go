package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/examples/internal/site"
	"github.com/contentgen/contentgen/locales/markup/markuptest"
	"github.com/contentgen/contentgen/providers/ai/aitest"
)

// postsOf reads posts of the site file db.
func postsOf(t *testing.T, db string, ids []int64) []contentgen.Post {
	t.Helper()
	ctx := context.Background()
	st, err := site.Open(ctx, db, "", contentgen.Site{URL: siteURL}, nil)
	require.NoError(t, err)
	defer st.Close()
	posts, err := st.Host.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(ids...)})
	require.NoError(t, err)
	require.Len(t, posts, len(ids))
	return posts
}

// --text-source ai with --ai-base-url and --ai-model: the posts carry the
// text of an OpenAI-compatible server in every format, valid; with the
// server stopped the command succeeds on the offline writer with one
// warning.
func TestGeneratePostsWithALocalModel(t *testing.T) {
	t.Parallel()
	fake := aitest.NewServer(t)
	db, _ := newSiteFile(t)
	model := []string{"--db", db, "--ai-base-url", fake.BaseURL(), "--ai-model", "llama3.2"}
	for _, format := range []string{"html", "blocks", "markdown"} {
		r := runCLI(t, false, "", append([]string{"generate", "posts", "--count", "2", "--text-source", "ai", "--content-format", format,
			"--set-featured-image=false", "--auto-comments", "--locale", "de_DE", "--json"}, model...)...)
		require.Equal(t, 0, r.code, r.stderr)
		var out struct {
			IDs      []int64  `json:"ids"`
			Warnings []string `json:"warnings"`
			AIText   struct {
				Provider string `json:"provider"`
				Posts    int    `json:"posts"`
				Tokens   int    `json:"tokens"`
			} `json:"ai_text"`
		}
		require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
		require.Empty(t, out.Warnings)
		require.Equal(t, "ai_one", out.AIText.Provider)
		require.Equal(t, 2, out.AIText.Posts)
		require.Positive(t, out.AIText.Tokens)
		for _, p := range postsOf(t, db, out.IDs) {
			require.Equal(t, aitest.Title, p.Title)
			require.NotContains(t, strings.ToLower(p.Content), "<script")
			switch format {
			case "blocks":
				require.NoError(t, markuptest.CheckBlocks(p.Content), p.Content)
				require.NoError(t, markuptest.CheckBalanced(p.Content))
			case "html":
				require.NoError(t, markuptest.CheckBalanced(p.Content))
			case "markdown":
				require.NotContains(t, p.Content, "<")
			}
		}
	}
	require.Contains(t, fake.Requests()[0].Prompt(), "German")

	fake.Close()
	r := runCLI(t, false, "", append([]string{"generate", "posts", "--count", "3", "--text-source", "ai", "--set-featured-image=false"}, model...)...)
	require.Equal(t, 0, r.code, r.stderr)
	require.Equal(t, 1, strings.Count(r.stdout, "written by the offline writer"), r.stdout)
	require.Contains(t, r.stdout, "3 posts were written by the offline writer")

	r = runCLI(t, false, "", "generate", "posts", "--db", db, "--ai-base-url", fake.BaseURL())
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "--ai-model")
}
