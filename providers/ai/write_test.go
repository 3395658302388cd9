package ai_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/ai"
)

// writeCase is one provider's wire format for writing text.
type writeCase struct {
	slug string
	path string
	// success is a 200 body carrying text, with usage.
	success func(text string) string
	// noUsage is a 200 body carrying text without usage.
	noUsage func(text string) string
	// truncated is a 200 body of an answer cut at the token limit.
	truncated string
	// prompt returns the system and user text and the max tokens of a
	// request body after checking its provider-specific shape.
	prompt func(t *testing.T, body map[string]any) (system, user string, maxTokens float64)
	// seed returns the seed a request sent (nil when the format has none).
	seed      func(body map[string]any) any
	errorBody func(status int, msg string) string
	// base is how users write the base URL, version path included.
	base string
}

func writeCases() []writeCase {
	wcs := wireCases()
	return []writeCase{
		{
			slug: ai.SlugOne, path: "/v1/chat/completions", base: "/v1",
			success: func(text string) string {
				return `{"id":"chatcmpl-1","object":"chat.completion","created":1718000000,"model":"` + testModel + `",` +
					`"choices":[{"index":0,"message":{"role":"assistant","content":` + jsonString(text) + `},"finish_reason":"stop"}],` +
					`"usage":{"prompt_tokens":120,"completion_tokens":380,"total_tokens":500}}`
			},
			noUsage: func(text string) string {
				return `{"id":"chatcmpl-2","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":` + jsonString(text) + `},"finish_reason":"stop"}]}`
			},
			truncated: `{"id":"chatcmpl-3","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"# Half a"},"finish_reason":"length"}]}`,
			prompt: func(t *testing.T, body map[string]any) (string, string, float64) {
				require.Equal(t, testModel, body["model"])
				require.Equal(t, false, body["stream"])
				msgs := body["messages"].([]any)
				require.Len(t, msgs, 2)
				require.Equal(t, "system", msgs[0].(map[string]any)["role"])
				require.Equal(t, "user", msgs[1].(map[string]any)["role"])
				_, hasFormat := body["response_format"]
				require.False(t, hasFormat, "text is asked for as text")
				return msgs[0].(map[string]any)["content"].(string), msgs[1].(map[string]any)["content"].(string), body["max_tokens"].(float64)
			},
			seed:      func(body map[string]any) any { return body["seed"] },
			errorBody: wcs[0].errorBody,
		},
		{
			slug: ai.SlugTwo, path: "/v1/messages", base: "/v1",
			success: func(text string) string {
				return `{"id":"msg_1","type":"message","role":"assistant","model":"` + testModel + `","content":[{"type":"text","text":` + jsonString(text) + `}],` +
					`"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":120,"output_tokens":380}}`
			},
			noUsage: func(text string) string {
				return `{"id":"msg_2","type":"message","role":"assistant","content":[{"type":"text","text":` + jsonString(text) + `}],"stop_reason":"end_turn"}`
			},
			truncated: `{"id":"msg_3","type":"message","role":"assistant","content":[{"type":"text","text":"# Half a"}],"stop_reason":"max_tokens","usage":{"input_tokens":1,"output_tokens":2}}`,
			prompt: func(t *testing.T, body map[string]any) (string, string, float64) {
				require.Equal(t, testModel, body["model"])
				msgs := body["messages"].([]any)
				require.Len(t, msgs, 1)
				require.Equal(t, "user", msgs[0].(map[string]any)["role"])
				_, hasTools := body["tools"]
				require.False(t, hasTools)
				return body["system"].(string), msgs[0].(map[string]any)["content"].(string), body["max_tokens"].(float64)
			},
			seed:      func(map[string]any) any { return nil },
			errorBody: wcs[1].errorBody,
		},
		{
			slug: ai.SlugThree, path: "/v1beta/models/" + testModel + ":generateContent", base: "/v1beta",
			success: func(text string) string {
				return `{"candidates":[{"content":{"parts":[{"text":"thinking…","thought":true},{"text":` + jsonString(text) + `}],"role":"model"},"finishReason":"STOP","index":0}],` +
					`"usageMetadata":{"promptTokenCount":120,"candidatesTokenCount":380,"totalTokenCount":500},"modelVersion":"` + testModel + `"}`
			},
			noUsage: func(text string) string {
				return `{"candidates":[{"content":{"parts":[{"text":` + jsonString(text) + `}],"role":"model"},"finishReason":"STOP","index":0}]}`
			},
			truncated: `{"candidates":[{"content":{"parts":[{"text":"# Half a"}],"role":"model"},"finishReason":"MAX_TOKENS","index":0}]}`,
			prompt: func(t *testing.T, body map[string]any) (string, string, float64) {
				si := body["systemInstruction"].(map[string]any)["parts"].([]any)[0].(map[string]any)["text"].(string)
				c := body["contents"].([]any)[0].(map[string]any)
				require.Equal(t, "user", c["role"])
				gc := body["generationConfig"].(map[string]any)
				_, hasSchema := gc["responseSchema"]
				require.False(t, hasSchema)
				return si, c["parts"].([]any)[0].(map[string]any)["text"].(string), gc["maxOutputTokens"].(float64)
			},
			seed:      func(body map[string]any) any { return body["generationConfig"].(map[string]any)["seed"] },
			errorBody: wcs[2].errorBody,
		},
	}
}

// sleeps records the waits of retries instead of waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.d = append(s.d, d)
	return ctx.Err()
}

func (s *sleeps) waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

func newWriter(t *testing.T, slug string, opts ai.Options) ai.Writer {
	t.Helper()
	w, err := ai.NewWriter(slug, opts)
	require.NoError(t, err)
	require.Equal(t, slug, w.Name())
	return w
}

var writeReq = ai.WriteRequest{System: "You write blog posts.", Prompt: "Write about hiking.", MaxTokens: 900, Temperature: 0.8, Seed: 42}

// Every client sends a writing request in its provider's format, with the
// key in its header, and returns the text and the usage the provider
// counted.
func TestWriteRequestShapeAndAnswer(t *testing.T) {
	t.Parallel()
	wires := wireCases()
	for i, wc := range writeCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			const text = "# A walk in the hills\n\nThe path climbs **slowly**."
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				writeJSON(w, 200, wc.success(text))
			})
			got, err := newWriter(t, wc.slug, options(fake.srv.URL)).Write(context.Background(), writeReq)
			require.NoError(t, err)
			require.Equal(t, &ai.Written{Text: text, InputTokens: 120, OutputTokens: 380}, got)
			require.Equal(t, 500, got.Tokens())
			reqs := fake.requests()
			require.Len(t, reqs, 1)
			require.Equal(t, wc.path, reqs[0].Path)
			wires[i].checkAuth(t, reqs[0].Header)
			var body map[string]any
			require.NoError(t, json.Unmarshal(reqs[0].Body, &body))
			system, user, maxTokens := wc.prompt(t, body)
			require.Equal(t, writeReq.System, system)
			require.Equal(t, writeReq.Prompt, user)
			require.Equal(t, 900.0, maxTokens)
			if s := wc.seed(body); s != nil {
				require.Equal(t, 42.0, s)
			}
		})
	}
}

// A base URL written with the version path, as OpenAI-compatible servers
// document theirs, reaches the same endpoint; without a key and with
// KeyOptional no key header is sent; without usage the tokens are
// estimated.
func TestWriteLocalServer(t *testing.T) {
	t.Parallel()
	for _, wc := range writeCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				writeJSON(w, 200, wc.noUsage("Some text of forty bytes, more or less."))
			})
			opts := options(fake.srv.URL + wc.base + "/")
			opts.APIKey = ""
			_, err := newWriter(t, wc.slug, opts).Write(context.Background(), writeReq)
			require.ErrorIs(t, err, providers.ErrNotConfigured, "a key is needed unless KeyOptional")
			require.Empty(t, fake.requests())

			opts.KeyOptional = true
			got, err := newWriter(t, wc.slug, opts).Write(context.Background(), writeReq)
			require.NoError(t, err)
			require.True(t, got.Estimated)
			require.Equal(t, 10, got.OutputTokens)
			reqs := fake.requests()
			require.Len(t, reqs, 1)
			require.Equal(t, wc.path, reqs[0].Path)
			for _, h := range []string{"Authorization", "x-api-key", "x-goog-api-key"} {
				require.Empty(t, reqs[0].Header.Get(h))
			}
		})
	}
}

// 429 and 5xx answers are retried up to MaxRetries times, after the wait
// Retry-After asks for (capped), on the injected sleeper.
func TestWriteRetriesHonourRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, wc := range writeCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				switch n {
				case 1:
					w.Header().Set("Retry-After", "7")
					writeJSON(w, 429, wc.errorBody(429, "slow down"))
				case 2:
					w.Header().Set("Retry-After", now.Add(4*time.Second).Format(http.TimeFormat))
					writeJSON(w, 503, wc.errorBody(503, "overloaded"))
				case 3:
					writeJSON(w, 500, wc.errorBody(500, "oops"))
				default:
					writeJSON(w, 200, wc.success("Done."))
				}
			})
			var s sleeps
			opts := options(fake.srv.URL)
			opts.MaxRetries, opts.Sleep, opts.Now = 3, s.sleep, func() time.Time { return now }
			opts.RetryWait, opts.MaxRetryWait = 2*time.Second, 20*time.Second
			got, err := newWriter(t, wc.slug, opts).Write(context.Background(), writeReq)
			require.NoError(t, err)
			require.Equal(t, "Done.", got.Text)
			require.Equal(t, []time.Duration{7 * time.Second, 4 * time.Second, 2 * time.Second}, s.waits())
			require.Len(t, fake.requests(), 4)

			// Retries run out: the last answer's error.
			fake2 := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				w.Header().Set("Retry-After", "1")
				writeJSON(w, 429, wc.errorBody(429, "slow down"))
			})
			opts.BaseURL = fake2.srv.URL
			_, err = newWriter(t, wc.slug, opts).Write(context.Background(), writeReq)
			require.ErrorIs(t, err, ai.ErrRateLimited)
			require.Len(t, fake2.requests(), 4)
		})
	}
}

// Answers that cannot be used fail with ErrBadAnswer: not JSON, another
// shape, empty, truncated.
func TestWriteMalformedAnswers(t *testing.T) {
	t.Parallel()
	for _, wc := range writeCases() {
		for name, body := range map[string]string{
			"not json":  `<html>Bad gateway</html>`,
			"no text":   `{"unexpected":true}`,
			"empty":     wc.success("  \n"),
			"truncated": wc.truncated,
		} {
			t.Run(wc.slug+"/"+name, func(t *testing.T) {
				t.Parallel()
				fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, _ []byte) { writeJSON(w, 200, body) })
				_, err := newWriter(t, wc.slug, options(fake.srv.URL)).Write(context.Background(), writeReq)
				require.ErrorIs(t, err, ai.ErrBadAnswer)
				require.Len(t, fake.requests(), 1, "a bad answer is not retried")
			})
		}
	}
}

// An answer slower than Options.Timeout fails as unreachable; a cancelled
// context as cancelled.
func TestWriteSlowAnswer(t *testing.T) {
	t.Parallel()
	for _, wc := range writeCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, _ []byte) {
				select {
				case <-r.Context().Done():
				case <-release:
				}
			})
			defer close(release)
			opts := options(fake.srv.URL)
			opts.Timeout = 20 * time.Millisecond
			_, err := newWriter(t, wc.slug, opts).Write(context.Background(), writeReq)
			require.ErrorIs(t, err, ai.ErrUnreachable)
			require.True(t, providers.Unreachable(err) || errors.Is(err, ai.ErrUnreachable))

			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			_, err = newWriter(t, wc.slug, options(fake.srv.URL)).Write(ctx, writeReq)
			require.ErrorIs(t, err, context.Canceled)
		})
	}
}
