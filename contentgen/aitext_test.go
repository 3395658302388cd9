package contentgen_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/internal/memstate"
	"github.com/contentgen/contentgen/locales/markup/markuptest"
	"github.com/contentgen/contentgen/providers/ai"
	"github.com/contentgen/contentgen/providers/ai/aitest"
	"github.com/contentgen/contentgen/templates"
)

// aiFixture is a demo site whose Generator writes with the ai_one client
// against a fake OpenAI-compatible server, which needs no key.
type aiFixture struct {
	*fixture
	fake   *aitest.Server
	state  *memstate.Store
	sleeps *recordedSleeps
}

type recordedSleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *recordedSleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func newAIFixture(t *testing.T, cfg func(*contentgen.Config)) *aiFixture {
	t.Helper()
	fake := aitest.NewServer(t)
	state := new(memstate.Store)
	f := &aiFixture{fake: fake, state: state, sleeps: &recordedSleeps{}}
	f.fixture = newAIGen(t, fake, state, f.sleeps, cfg)
	return f
}

func newAIGen(t *testing.T, fake *aitest.Server, state *memstate.Store, sleeps *recordedSleeps, cfg func(*contentgen.Config)) *fixture {
	t.Helper()
	host, err := demosite.New(&memhost.Options{Now: clock})
	require.NoError(t, err)
	hist := history.NewMemStore(clock)
	seed := int64(3)
	c := &contentgen.Config{Seed: &seed, Now: clock, State: state, AIProviders: map[string]ai.Options{
		contentgen.AIOne: {BaseURL: fake.BaseURL(), Model: "llama3.2", KeyOptional: true, Sleep: sleeps.sleep, Timeout: time.Minute},
	}}
	if cfg != nil {
		cfg(c)
	}
	gen, err := contentgen.New(host, hist, c)
	require.NoError(t, err)
	return &fixture{host: host, hist: hist, gen: gen}
}

func aiPosts(n int, format contentgen.ContentFormat) contentgen.PostsRequest {
	return contentgen.PostsRequest{Count: new(n), SetFeaturedImage: new(false), TextSource: contentgen.TextSourceAI,
		ContentFormat: format, Locale: "de_DE", Seed: new(int64(11)), AutoComments: true,
		CommentsPerPostMin: new(2), CommentsPerPostMax: new(3)}
}

func (f *fixture) historyMeta(t *testing.T, id int64) map[string]any {
	t.Helper()
	entries, _, err := f.hist.List(context.Background(), history.Filter{ContentType: "post", ContentIDs: []int64{id}})
	require.NoError(t, err)
	require.Len(t, entries, 1)
	return entries[0].Meta
}

var markupRE = regexp.MustCompile(`<[^>]*>|\]\([^)]*\)|\[|\*`)

// textOf is the text of a body in any format, without tags, links and
// emphasis marks.
func textOf(body string) string { return markupRE.ReplaceAllString(body, "") }

// checkBody checks a body in its format as the offline bodies are checked,
// and that nothing of the model's script, raw HTML, links or images
// passed.
func checkBody(t *testing.T, format contentgen.ContentFormat, body string) {
	t.Helper()
	switch format {
	case contentgen.FormatBlocks:
		require.NoError(t, markuptest.CheckBlocks(body), body)
		require.NoError(t, markuptest.CheckBalanced(body), body)
	case contentgen.FormatHTML:
		require.NoError(t, markuptest.CheckBalanced(body), body)
	}
	lower := strings.ToLower(body)
	for _, bad := range []string{"<script", "alert", "onerror", "evil.example", "<b>"} {
		require.NotContains(t, lower, bad)
	}
}

// Posts carry the model's title, excerpt, body and comments in every
// format, sanitised and valid; the history and the time saved record the
// text source; the run reports its tokens.
func TestAITextInEveryFormat(t *testing.T) {
	t.Parallel()
	for _, format := range []contentgen.ContentFormat{contentgen.FormatHTML, contentgen.FormatBlocks, contentgen.FormatMarkdown} {
		t.Run(string(format), func(t *testing.T) {
			t.Parallel()
			f := newAIFixture(t, nil)
			ctx := context.Background()
			res, err := f.gen.GeneratePosts(ctx, aiPosts(4, format))
			require.NoError(t, err)
			require.Empty(t, res.Warnings)
			require.Equal(t, contentgen.TextSourceAI, res.TextSource)
			require.NotNil(t, res.AIText)
			require.Equal(t, 4, res.AIText.Posts)
			require.Equal(t, res.Comments, res.AIText.Comments)
			require.Zero(t, res.AIText.FallbackPosts+res.AIText.FallbackComments)
			reqs := f.fake.Requests()
			require.Equal(t, len(reqs)*(aitest.PromptTokens+aitest.CompletionTokens), res.AIText.Tokens)
			require.Equal(t, contentgen.DefaultAITokenBudget, res.AIText.TokenBudget)
			for _, r := range reqs {
				require.Equal(t, "llama3.2", r.Model)
				require.Empty(t, r.Authorization, "no key for a local server")
				require.Contains(t, r.Prompt(), "German")
				require.NotZero(t, r.Seed)
			}
			for _, p := range f.posts(t, res.IDs) {
				require.Equal(t, aitest.Title, p.Title)
				require.Contains(t, textOf(p.Content), aitest.Phrase)
				if p.Excerpt != "" {
					require.Equal(t, aitest.Summary, p.Excerpt)
				}
				checkBody(t, format, p.Content)
				if format == contentgen.FormatMarkdown {
					require.NotContains(t, p.Content, "<")
				}
				require.Equal(t, "ai", f.historyMeta(t, p.ID)["text_source"])
			}
			comments, err := f.host.Comments(ctx, contentgen.CommentQuery{IDs: contentgen.OnlyIDs(res.CommentIDs...)})
			require.NoError(t, err)
			require.NotEmpty(t, comments)
			for _, c := range comments {
				require.Contains(t, c.Content, aitest.Comment)
				require.NotContains(t, c.Content, "<")
			}
			saved, err := f.gen.TimeSaved(ctx)
			require.NoError(t, err)
			require.Equal(t, map[string]int{"ai": 4}, saved.PostsByTextSource)
		})
	}
}

// The same seed gives the same text again from the cache, also in a new
// Generator over the same state, without a request.
func TestAITextCacheBySeed(t *testing.T) {
	t.Parallel()
	f := newAIFixture(t, nil)
	ctx := context.Background()
	first, err := f.gen.GeneratePosts(ctx, aiPosts(3, contentgen.FormatHTML))
	require.NoError(t, err)
	asked := len(f.fake.Requests())
	require.Positive(t, asked)

	again := newAIGen(t, f.fake, f.state, f.sleeps, nil)
	second, err := again.gen.GeneratePosts(ctx, aiPosts(3, contentgen.FormatHTML))
	require.NoError(t, err)
	require.Len(t, f.fake.Requests(), asked, "no new request")
	require.Equal(t, second.AIText.Cached, asked)
	require.Zero(t, second.AIText.Tokens)
	a, b := f.posts(t, first.IDs), again.posts(t, second.IDs)
	for i := range a {
		require.Equal(t, a[i].Title, b[i].Title)
		require.Equal(t, a[i].Content, b[i].Content)
	}

	// Another seed asks again.
	req := aiPosts(1, contentgen.FormatHTML)
	req.Seed = new(int64(12))
	_, err = again.gen.GeneratePosts(ctx, req)
	require.NoError(t, err)
	require.Greater(t, len(f.fake.Requests()), asked)
}

// With the provider gone, the run succeeds on the offline writer and
// reports one warning with the count; the history says realtext.
func TestAITextFallsBackWhenTheProviderIsDown(t *testing.T) {
	t.Parallel()
	f := newAIFixture(t, nil)
	f.fake.Close()
	res, err := f.gen.GeneratePosts(context.Background(), aiPosts(5, contentgen.FormatBlocks))
	require.NoError(t, err)
	require.Len(t, res.IDs, 5)
	require.Len(t, res.Warnings, 1, "%q", res.Warnings)
	require.Contains(t, res.Warnings[0], "5 posts and")
	require.Contains(t, res.Warnings[0], "written by the offline writer")
	require.Contains(t, res.Warnings[0], "ai_one")
	require.Equal(t, 5, res.AIText.FallbackPosts)
	require.Zero(t, res.AIText.Posts)
	for _, p := range f.posts(t, res.IDs) {
		require.NotEqual(t, aitest.Title, p.Title)
		require.NoError(t, markuptest.CheckBlocks(p.Content))
		require.Equal(t, "realtext", f.historyMeta(t, p.ID)["text_source"])
	}
}

// A provider that is not set up, or a key that is missing, is one warning
// too.
func TestAITextProviderNotSetUp(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	res, err := f.gen.GeneratePosts(context.Background(), aiPosts(3, contentgen.FormatHTML))
	require.NoError(t, err)
	require.Len(t, res.IDs, 3)
	require.Equal(t, []string{"3 posts and " + strconv.Itoa(res.Comments) + " comments were written by the offline writer: the AI provider ai_one cannot write (The AI provider ai_one is not set up on this server)."}, res.Warnings)
}

// 429 and 5xx answers are retried after the wait Retry-After asks for,
// on the injected sleeper; the posts still carry the model's text.
func TestAITextRetriesRateLimits(t *testing.T) {
	t.Parallel()
	f := newAIFixture(t, func(c *contentgen.Config) { c.AITextConcurrency = 1 })
	f.fake.SetAnswer(func(w http.ResponseWriter, req *aitest.Request, n int) bool {
		switch n {
		case 1:
			w.Header().Set("Retry-After", "3")
			aitest.WriteError(w, http.StatusTooManyRequests, "Rate limit reached")
			return true
		case 2:
			aitest.WriteError(w, http.StatusServiceUnavailable, "overloaded")
			return true
		}
		return false
	})
	req := aiPosts(2, contentgen.FormatHTML)
	req.AutoComments = false
	res, err := f.gen.GeneratePosts(context.Background(), req)
	require.NoError(t, err)
	require.Empty(t, res.Warnings)
	require.Equal(t, 2, res.AIText.Posts)
	f.sleeps.mu.Lock()
	require.Equal(t, []time.Duration{3 * time.Second, ai.DefaultRetryWait}, f.sleeps.d)
	f.sleeps.mu.Unlock()
}

// Malformed answers, answers without a title and error answers fall back
// post by post, with one warning.
func TestAITextBadAnswersFallBack(t *testing.T) {
	t.Parallel()
	f := newAIFixture(t, func(c *contentgen.Config) { c.AITextConcurrency = 1 })
	f.fake.SetAnswer(func(w http.ResponseWriter, req *aitest.Request, n int) bool {
		switch n {
		case 1:
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"choices":[]}`))
		case 2:
			aitest.WriteAnswer(w, "This answer is one long paragraph without any title at all, which cannot be used as a post.")
		case 3:
			aitest.WriteAnswer(w, "<script>alert(1)</script>")
		default:
			return false
		}
		return true
	})
	req := aiPosts(4, contentgen.FormatHTML)
	req.AutoComments = false
	res, err := f.gen.GeneratePosts(context.Background(), req)
	require.NoError(t, err)
	require.Equal(t, 1, res.AIText.Posts)
	require.Equal(t, 3, res.AIText.FallbackPosts)
	require.Len(t, res.Warnings, 1)
	require.Contains(t, res.Warnings[0], "3 posts were written by the offline writer")
	for _, p := range f.posts(t, res.IDs) {
		checkBody(t, contentgen.FormatHTML, p.Content)
	}
}

// The token budget bounds a run: once spent, the other posts are written
// offline, with one warning.
func TestAITextTokenBudget(t *testing.T) {
	t.Parallel()
	f := newAIFixture(t, func(c *contentgen.Config) {
		c.AITextConcurrency = 1
		c.AITokenBudget = 2 * (aitest.PromptTokens + aitest.CompletionTokens)
	})
	req := aiPosts(5, contentgen.FormatHTML)
	req.AutoComments = false
	res, err := f.gen.GeneratePosts(context.Background(), req)
	require.NoError(t, err)
	require.Equal(t, 2, res.AIText.Posts)
	require.Equal(t, 3, res.AIText.FallbackPosts)
	require.Equal(t, 1000, res.AIText.Tokens)
	require.Len(t, f.fake.Requests(), 2)
	require.Equal(t, []string{"3 posts were written by the offline writer: the run's AI token budget of 1000 tokens was used up."}, res.Warnings)
}

// The text source comes from the request, else the template's field
// configuration, else the setting; an unknown one is refused.
func TestAITextSourcePrecedence(t *testing.T) {
	t.Parallel()
	f := newAIFixture(t, nil)
	ctx := context.Background()
	_, err := f.gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.TextSource = contentgen.TextSourceAI })
	require.NoError(t, err)
	req := aiPosts(1, contentgen.FormatHTML)
	req.TextSource, req.AutoComments = "", false
	res, err := f.gen.GeneratePosts(ctx, req)
	require.NoError(t, err)
	require.Equal(t, "ai", res.TextSource)
	require.Equal(t, aitest.Title, f.posts(t, res.IDs)[0].Title)

	req.TextSource = contentgen.TextSourceLorem
	res, err = f.gen.GeneratePosts(ctx, req)
	require.NoError(t, err)
	require.Nil(t, res.AIText)
	require.Equal(t, "lorem", f.historyMeta(t, res.IDs[0])["text_source"])

	// A template's text source applies unless the request names one.
	_, err = f.gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.TextSource = contentgen.TextSourceLorem })
	require.NoError(t, err)
	tpl, err := f.gen.Templates().Create(ctx, templates.Input{Name: "Written", PostType: "post",
		FieldConfig: templates.FieldConfig{TextSource: contentgen.TextSourceAI}})
	require.NoError(t, err)
	req.TextSource, req.TemplateID = "", tpl.ID
	res, err = f.gen.GeneratePosts(ctx, req)
	require.NoError(t, err)
	require.Equal(t, "ai", res.TextSource)
	require.Equal(t, aitest.Title, f.posts(t, res.IDs)[0].Title)
	req.TextSource = contentgen.TextSourceRealText
	res, err = f.gen.GeneratePosts(ctx, req)
	require.NoError(t, err)
	require.Equal(t, "realtext", res.TextSource)

	req.TextSource = "gpt"
	_, err = f.gen.GeneratePosts(ctx, req)
	require.ErrorIs(t, err, contentgen.ErrInvalidParameter)
}

// A comments run with the ai text source setting has the model write the
// comments, one request per post.
func TestAITextComments(t *testing.T) {
	t.Parallel()
	f := newAIFixture(t, nil)
	ctx := context.Background()
	_, err := f.gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.TextSource = contentgen.TextSourceAI })
	require.NoError(t, err)
	res, err := f.gen.GenerateComments(ctx, contentgen.CommentsRequest{CommentsPerPostMin: new(2), CommentsPerPostMax: new(4), AvatarPercentage: new(0), Seed: new(int64(5))})
	require.NoError(t, err)
	require.NotEmpty(t, res.IDs)
	require.Empty(t, res.Warnings)
	require.Equal(t, len(res.IDs), res.AIText.Comments)
	require.Len(t, f.fake.Requests(), res.Posts)
	comments, err := f.host.Comments(ctx, contentgen.CommentQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	for _, c := range comments {
		require.Contains(t, c.Content, aitest.Comment)
	}
}

// A model's post is split into title, summary and body; a missing summary
// is the body's opening; an answer without a title is refused.
func TestSplitPost(t *testing.T) {
	t.Parallel()
	title, summary, body, ok := contentgen.SplitPost("```markdown\n# **Ein Tag** am See\n\nKurz gesagt: schön.\n\nDer Text.\n```", true)
	require.True(t, ok)
	require.Equal(t, "Ein Tag am See", title)
	require.Equal(t, "Kurz gesagt: schön.", summary)
	require.Equal(t, "Der Text.", body)

	_, summary, body, ok = contentgen.SplitPost("Title: Ein Tag\n\n## Morgens\n\nWir gehen los. Es regnet. Dann scheint die Sonne wieder über dem See.\n", true)
	require.True(t, ok)
	require.Equal(t, "Wir gehen los. Es regnet. Dann scheint die Sonne wieder über dem See.", summary)
	require.Contains(t, body, "## Morgens")

	// A reasoning model's thinking, and a preamble before the title.
	title, _, body, ok = contentgen.SplitPost("<think>\nThe user wants a post. Let me plan.\n</think>\n\nHere is your blog post:\n\n# Der **See**\n\nEs war kalt.\n", false)
	require.True(t, ok)
	require.Equal(t, "Der See", title)
	require.Equal(t, "Es war kalt.", body)
	_, _, _, ok = contentgen.SplitPost("Here is your blog post:\n\nEs war kalt, und wir gingen trotzdem hinaus an den See, weil es sonst nichts zu tun gab.\n", false)
	require.False(t, ok, "a preamble is no title")

	_, _, _, ok = contentgen.SplitPost("Dies ist ein langer Absatz ohne Titel, der nur aus Text besteht und sehr viele Wörter enthält, mehr als fünfzehn Stück.", false)
	require.False(t, ok)
}

// Answers slower than the provider's timeout fall back too, with one
// warning.
func TestAITextSlowAnswersFallBack(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	f := newAIFixture(t, func(c *contentgen.Config) {
		o := c.AIProviders[contentgen.AIOne]
		o.Timeout = 20 * time.Millisecond
		c.AIProviders[contentgen.AIOne] = o
	})
	defer close(release)
	f.fake.SetAnswer(func(w http.ResponseWriter, req *aitest.Request, n int) bool {
		<-release // until the test ends, long after the client gave up
		return true
	})
	req := aiPosts(3, contentgen.FormatHTML)
	req.AutoComments = false
	res, err := f.gen.GeneratePosts(context.Background(), req)
	require.NoError(t, err)
	require.Len(t, res.IDs, 3)
	require.Equal(t, 3, res.AIText.FallbackPosts)
	require.Equal(t, []string{"3 posts were written by the offline writer: the AI provider ai_one failed (Connection failed: the AI provider could not be reached)."}, res.Warnings)
}

// ai_two (messages) and ai_three (generate content) write posts too,
// through their own wire formats, sanitised as ai_one's are.
func TestAITextOtherProviders(t *testing.T) {
	t.Parallel()
	answers := map[string]struct {
		path string
		wrap func(text string) string
	}{
		contentgen.AITwo: {"/v1/messages", func(text string) string {
			return `{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":` + strconv.Quote(text) + `}],"stop_reason":"end_turn","usage":{"input_tokens":10,"output_tokens":90}}`
		}},
		contentgen.AIThree: {"/v1beta/models/m:generateContent", func(text string) string {
			return `{"candidates":[{"content":{"parts":[{"text":` + strconv.Quote(text) + `}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":90}}`
		}},
	}
	for slug, a := range answers {
		t.Run(slug, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != a.path {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(a.wrap(aitest.Post(false))))
			}))
			t.Cleanup(srv.Close)
			f := newAIFixture(t, func(c *contentgen.Config) {
				c.AIProviders[slug] = ai.Options{BaseURL: srv.URL, Model: "m", KeyOptional: true}
			})
			ctx := context.Background()
			_, err := f.gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.AI.Provider = slug })
			require.NoError(t, err)
			req := aiPosts(2, contentgen.FormatBlocks)
			req.AutoComments = false
			res, err := f.gen.GeneratePosts(ctx, req)
			require.NoError(t, err)
			require.Empty(t, res.Warnings)
			require.Equal(t, slug, res.AIText.Provider)
			require.Equal(t, 200, res.AIText.Tokens)
			for _, p := range f.posts(t, res.IDs) {
				require.Equal(t, aitest.Title, p.Title)
				checkBody(t, contentgen.FormatBlocks, p.Content)
			}
		})
	}
}
