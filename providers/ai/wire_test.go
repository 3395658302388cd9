package ai_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/ai"
)

const (
	testKey   = "sk-test-0123456789abcdefWXYZ"
	testModel = "test-model-1"
)

var knownTypes = []string{"email", "price", "city", "phone", "first_name"}

// recorded is one request the fake provider received.
type recorded struct {
	Method, Path, RawQuery string
	Header                 http.Header
	Body                   []byte
}

// fakeProvider is an httptest server whose answers are scripted per
// request number (starting at 1).
type fakeProvider struct {
	srv    *httptest.Server
	mu     sync.Mutex
	reqs   []recorded
	handle func(w http.ResponseWriter, r *http.Request, n int, body []byte)
}

func newFake(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, n int, body []byte)) *fakeProvider {
	t.Helper()
	f := &fakeProvider{handle: handle}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.reqs = append(f.reqs, recorded{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), body})
		n := len(f.reqs)
		f.mu.Unlock()
		f.handle(w, r, n, body)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeProvider) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// wireCase describes one provider's real wire format.
type wireCase struct {
	slug       string
	newClient  func(ai.Options) (ai.Detector, error)
	detectPath string
	testPath   string
	// checkAuth asserts the key travels in the right header.
	checkAuth func(t *testing.T, h http.Header)
	// request returns the user prompt and the answer schema of a request
	// body after checking its provider-specific shape.
	request func(t *testing.T, body map[string]any) (user string, schema map[string]any)
	// success wraps an answer document in a success body.
	success func(doc string) string
	// malformed is a 200 body whose answer cannot be used.
	malformed string
	// unauthorized is the status and body of a rejected key.
	unauthStatus int
	unauthBody   string
	// errorBody is a body for the given status.
	errorBody func(status int, msg string) string
	// schemaTypes are the type names the schema uses for object, array,
	// string.
	object, array, str string
}

func wireCases() []wireCase {
	return []wireCase{
		{
			slug:       ai.SlugOne,
			newClient:  func(o ai.Options) (ai.Detector, error) { return ai.NewChatClient(o) },
			detectPath: "/v1/chat/completions",
			testPath:   "/v1/models/" + testModel,
			checkAuth: func(t *testing.T, h http.Header) {
				require.Equal(t, "Bearer "+testKey, h.Get("Authorization"))
			},
			request: func(t *testing.T, body map[string]any) (string, map[string]any) {
				require.Equal(t, testModel, body["model"])
				msgs := body["messages"].([]any)
				require.Len(t, msgs, 2)
				require.Equal(t, "system", msgs[0].(map[string]any)["role"])
				user := msgs[1].(map[string]any)
				require.Equal(t, "user", user["role"])
				rf := body["response_format"].(map[string]any)
				require.Equal(t, "json_schema", rf["type"])
				js := rf["json_schema"].(map[string]any)
				require.Equal(t, "record_field_types", js["name"])
				require.Equal(t, true, js["strict"])
				schema := js["schema"].(map[string]any)
				require.Equal(t, false, schema["additionalProperties"])
				return user["content"].(string), schema
			},
			success: func(doc string) string {
				return `{"id":"chatcmpl-9xYz","object":"chat.completion","created":1718000000,"model":"` + testModel + `",` +
					`"choices":[{"index":0,"message":{"role":"assistant","content":` + jsonString(doc) + `,"refusal":null},"logprobs":null,"finish_reason":"stop"}],` +
					`"usage":{"prompt_tokens":412,"completion_tokens":58,"total_tokens":470},"system_fingerprint":"fp_1"}`
			},
			malformed:    `{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Sure! The first field is an email.","refusal":null},"finish_reason":"stop"}]}`,
			unauthStatus: 401,
			unauthBody:   `{"error":{"message":"Incorrect API key provided: sk-test-***WXYZ. You can find your API key in your account settings.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			errorBody: func(status int, msg string) string {
				return fmt.Sprintf(`{"error":{"message":%s,"type":"server_error","param":null,"code":null}}`, jsonString(msg))
			},
			object: "object", array: "array", str: "string",
		},
		{
			slug:       ai.SlugTwo,
			newClient:  func(o ai.Options) (ai.Detector, error) { return ai.NewMessagesClient(o) },
			detectPath: "/v1/messages",
			testPath:   "/v1/models/" + testModel,
			checkAuth: func(t *testing.T, h http.Header) {
				require.Equal(t, testKey, h.Get("x-api-key"))
				require.Equal(t, "2023-06-01", h.Get("anthropic-version"))
				require.Empty(t, h.Get("Authorization"))
			},
			request: func(t *testing.T, body map[string]any) (string, map[string]any) {
				require.Equal(t, testModel, body["model"])
				require.Greater(t, body["max_tokens"].(float64), 0.0)
				require.NotEmpty(t, body["system"])
				msgs := body["messages"].([]any)
				require.Len(t, msgs, 1)
				user := msgs[0].(map[string]any)
				require.Equal(t, "user", user["role"])
				tools := body["tools"].([]any)
				require.Len(t, tools, 1)
				tool := tools[0].(map[string]any)
				require.Equal(t, "record_field_types", tool["name"])
				require.Equal(t, map[string]any{"type": "tool", "name": "record_field_types"}, body["tool_choice"])
				return user["content"].(string), tool["input_schema"].(map[string]any)
			},
			success: func(doc string) string {
				return `{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","model":"` + testModel + `",` +
					`"content":[{"type":"text","text":"I'll record the field types."},{"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"record_field_types","input":` + doc + `}],` +
					`"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":512,"output_tokens":96}}`
			},
			malformed:    `{"id":"msg_02","type":"message","role":"assistant","model":"` + testModel + `","content":[{"type":"text","text":"The first field is an email."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":9}}`,
			unauthStatus: 401,
			unauthBody:   `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_011"}`,
			errorBody: func(status int, msg string) string {
				typ := "api_error"
				if status == 429 {
					typ = "rate_limit_error"
				}
				return fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":%s}}`, typ, jsonString(msg))
			},
			object: "object", array: "array", str: "string",
		},
		{
			slug:       ai.SlugThree,
			newClient:  func(o ai.Options) (ai.Detector, error) { return ai.NewGenerateClient(o) },
			detectPath: "/v1beta/models/" + testModel + ":generateContent",
			testPath:   "/v1beta/models/" + testModel,
			checkAuth: func(t *testing.T, h http.Header) {
				require.Equal(t, testKey, h.Get("x-goog-api-key"))
				require.Empty(t, h.Get("Authorization"))
			},
			request: func(t *testing.T, body map[string]any) (string, map[string]any) {
				_, hasModel := body["model"]
				require.False(t, hasModel, "the model travels in the path")
				si := body["systemInstruction"].(map[string]any)["parts"].([]any)
				require.NotEmpty(t, si[0].(map[string]any)["text"])
				contents := body["contents"].([]any)
				require.Len(t, contents, 1)
				c := contents[0].(map[string]any)
				require.Equal(t, "user", c["role"])
				gc := body["generationConfig"].(map[string]any)
				require.Equal(t, "application/json", gc["responseMimeType"])
				return c["parts"].([]any)[0].(map[string]any)["text"].(string), gc["responseSchema"].(map[string]any)
			},
			success: func(doc string) string {
				return `{"candidates":[{"content":{"parts":[{"text":` + jsonString(doc) + `}],"role":"model"},"finishReason":"STOP","avgLogprobs":-0.02,"index":0}],` +
					`"usageMetadata":{"promptTokenCount":420,"candidatesTokenCount":61,"totalTokenCount":481},"modelVersion":"` + testModel + `","responseId":"abc"}`
			},
			malformed:    `{"candidates":[{"content":{"parts":[{"text":"{\"detections\": [{\"key\": \"contact"}],"role":"model"},"finishReason":"STOP","index":0}]}`,
			unauthStatus: 400,
			unauthBody: `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[` +
				`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}`,
			errorBody: func(status int, msg string) string {
				st := "INTERNAL"
				if status == 429 {
					st = "RESOURCE_EXHAUSTED"
				}
				return fmt.Sprintf(`{"error":{"code":%d,"message":%s,"status":%q}}`, status, jsonString(msg), st)
			},
			object: "OBJECT", array: "ARRAY", str: "STRING",
		},
	}
}

// promptFields decodes the fields JSON of a user prompt.
type promptDoc struct {
	PostType     string   `json:"post_type"`
	AllowedTypes []string `json:"allowed_types"`
	Fields       []struct {
		Key, Name, Label, Type, Instructions string
		Choices                              []string
	} `json:"fields"`
}

func parsePrompt(t *testing.T, user string) promptDoc {
	t.Helper()
	i := strings.IndexByte(user, '{')
	require.GreaterOrEqual(t, i, 0, "prompt carries a JSON document")
	var d promptDoc
	require.NoError(t, json.Unmarshal([]byte(user[i:]), &d))
	return d
}

// requestKeys returns the field keys of a recorded detection request.
func requestKeys(t *testing.T, wc wireCase, body []byte) []string {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(body, &m))
	user, _ := wc.request(t, m)
	var keys []string
	for _, f := range parsePrompt(t, user).Fields {
		keys = append(keys, f.Key)
	}
	return keys
}

func testFields() []providers.Field {
	return []providers.Field{
		{Key: "field_contact", Name: "contact", Label: "Kontakt E-Mail", Type: "text", Instructions: "Where readers can write to"},
		{Key: "field_cost", Name: "kosten", Label: "Kosten", Type: "number"},
		{Key: "field_town", Name: "ort", Label: "Ort", Type: "select", Choices: []string{"Berlin", "Hamburg"}},
		{Key: "field_mood", Name: "mood", Label: "Mood", Type: "text"},
		{Key: "field_misc", Name: "x1", Label: "X1", Type: "text"},
	}
}

func options(base string) ai.Options {
	return ai.Options{
		BaseURL:      base,
		Model:        testModel,
		APIKey:       testKey,
		Timeout:      time.Minute, // far beyond any answer of the fake, so no outcome depends on the clock
		RetryWait:    10 * time.Millisecond,
		MaxRetryWait: 50 * time.Millisecond,
	}
}

func newClient(t *testing.T, wc wireCase, opts ai.Options) ai.Detector {
	t.Helper()
	d, err := wc.newClient(opts)
	require.NoError(t, err)
	require.Equal(t, wc.slug, d.Name())
	return d
}

func TestDetectSuccessRequestShape(t *testing.T) {
	t.Parallel()
	for _, wc := range wireCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			answer := `{"detections":[` +
				`{"key":"field_contact","type":"email","confidence":0.97},` +
				`{"key":"field_cost","type":"PRICE","confidence":1.7},` + // case and clamp
				`{"key":"field_town","type":"city","confidence":-0.2},` +
				`{"key":"field_mood","type":"weather","confidence":0.9},` + // unknown type
				`{"key":"field_misc","type":"none","confidence":0.1},` +
				`{"key":"field_injected","type":"email","confidence":0.99},` + // not asked
				`{"key":"field_contact","type":"phone","confidence":0.3}]}` // weaker duplicate
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				writeJSON(w, 200, wc.success(answer))
			})
			var logs bytes.Buffer
			opts := options(fake.srv.URL + "/")
			opts.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			d := newClient(t, wc, opts)

			got, err := d.Detect(context.Background(), "book", testFields(), knownTypes)
			require.NoError(t, err)
			require.Equal(t, []providers.Detection{
				{Key: "field_contact", Type: "email", Confidence: 0.97},
				{Key: "field_cost", Type: "price", Confidence: 1},
				{Key: "field_town", Type: "city", Confidence: 0},
			}, got)

			reqs := fake.requests()
			require.Len(t, reqs, 1, "all fields in one request")
			r := reqs[0]
			require.Equal(t, http.MethodPost, r.Method)
			require.Equal(t, wc.detectPath, r.Path)
			require.Empty(t, r.RawQuery, "nothing, least of all the key, in the URL")
			require.Equal(t, "application/json", r.Header.Get("Content-Type"))
			wc.checkAuth(t, r.Header)

			var body map[string]any
			require.NoError(t, json.Unmarshal(r.Body, &body))
			user, schema := wc.request(t, body)
			p := parsePrompt(t, user)
			require.Equal(t, "book", p.PostType)
			require.Equal(t, append(append([]string(nil), knownTypes...), "none"), p.AllowedTypes)
			require.Len(t, p.Fields, 5)
			require.Equal(t, "Kontakt E-Mail", p.Fields[0].Label)
			require.Equal(t, "Where readers can write to", p.Fields[0].Instructions)
			require.Equal(t, []string{"Berlin", "Hamburg"}, p.Fields[2].Choices)

			require.Equal(t, wc.object, schema["type"])
			require.Equal(t, []any{"detections"}, schema["required"])
			det := schema["properties"].(map[string]any)["detections"].(map[string]any)
			require.Equal(t, wc.array, det["type"])
			item := det["items"].(map[string]any)
			require.Equal(t, wc.object, item["type"])
			require.ElementsMatch(t, []any{"key", "type", "confidence"}, item["required"])
			props := item["properties"].(map[string]any)
			keyProp := props["key"].(map[string]any)
			require.Equal(t, wc.str, keyProp["type"])
			require.Equal(t, []any{"field_contact", "field_cost", "field_town", "field_mood", "field_misc"}, keyProp["enum"])
			require.Equal(t, []any{"email", "price", "city", "phone", "first_name", "none"}, props["type"].(map[string]any)["enum"])
			require.Contains(t, props, "confidence")

			require.NotContains(t, logs.String(), testKey)
			require.Contains(t, logs.String(), "dropped=2", "unknown type and unknown key are reported")
		})
	}
}

func TestDetectUnauthorized(t *testing.T) {
	t.Parallel()
	for _, wc := range wireCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				writeJSON(w, wc.unauthStatus, wc.unauthBody)
			})
			d := newClient(t, wc, options(fake.srv.URL))
			_, err := d.Detect(context.Background(), "book", testFields(), knownTypes)
			require.ErrorIs(t, err, ai.ErrUnauthorized)
			require.Contains(t, err.Error(), "invalid API key")
			require.NotContains(t, err.Error(), testKey)
			var apiErr *ai.APIError
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, wc.unauthStatus, apiErr.StatusCode)
			require.Equal(t, wc.slug, apiErr.Provider)
			require.Len(t, fake.requests(), 1, "a rejected key is not retried")

			err = d.Test(context.Background())
			require.ErrorIs(t, err, ai.ErrUnauthorized)
			require.Equal(t, "API error 401: invalid API key.", ai.TestMessage(err))
		})
	}
}

func TestDetectRateLimitedThenSuccess(t *testing.T) {
	t.Parallel()
	for _, wc := range wireCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				if n == 1 {
					w.Header().Set("Retry-After", "3600") // capped by MaxRetryWait
					writeJSON(w, 429, wc.errorBody(429, "Rate limit reached, please retry later."))
					return
				}
				writeJSON(w, 200, wc.success(`{"detections":[{"key":"field_contact","type":"email","confidence":0.8}]}`))
			})
			var logs bytes.Buffer
			opts := options(fake.srv.URL)
			opts.MaxRetryWait = 30 * time.Millisecond
			opts.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			d := newClient(t, wc, opts)
			got, err := d.Detect(context.Background(), "book", testFields()[:1], knownTypes)
			require.NoError(t, err)
			require.Contains(t, logs.String(), "wait=30ms", "Retry-After is capped")
			require.Equal(t, []providers.Detection{{Key: "field_contact", Type: "email", Confidence: 0.8}}, got)
			reqs := fake.requests()
			require.Len(t, reqs, 2)
			require.Equal(t, reqs[0].Body, reqs[1].Body, "the retry sends the same request")
			require.Contains(t, logs.String(), "status=429")
			require.NotContains(t, logs.String(), testKey)
		})
	}
}

func TestDetectServerErrorRetriedOnce(t *testing.T) {
	t.Parallel()
	for _, wc := range wireCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				writeJSON(w, 500, wc.errorBody(500, "The server had an error while processing your request. key="+testKey))
			})
			d := newClient(t, wc, options(fake.srv.URL))
			_, err := d.Detect(context.Background(), "book", testFields(), knownTypes)
			var apiErr *ai.APIError
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, 500, apiErr.StatusCode)
			require.True(t, apiErr.Temporary())
			require.NotErrorIs(t, err, ai.ErrUnauthorized)
			require.Contains(t, apiErr.Message, "had an error")
			require.NotContains(t, err.Error(), testKey, "an echoed key is redacted")
			require.Len(t, fake.requests(), 2, "one retry, no more")
		})
	}
}

func TestDetectMalformedAnswer(t *testing.T) {
	t.Parallel()
	for _, wc := range wireCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			for name, body := range map[string]string{
				"wrong shape": wc.malformed,
				"not json":    `<html>Bad gateway</html>`,
				"no list":     wc.success(`{"answer":"email"}`),
			} {
				fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, _ []byte) {
					writeJSON(w, 200, body)
				})
				d := newClient(t, wc, options(fake.srv.URL))
				got, err := d.Detect(context.Background(), "book", testFields(), knownTypes)
				require.ErrorIs(t, err, ai.ErrBadAnswer, name)
				require.Nil(t, got, name)
				require.Len(t, fake.requests(), 1, "%s: a bad answer is not retried", name)
			}
		})
	}
}

func TestDetectOnlyUnknownTypes(t *testing.T) {
	t.Parallel()
	for _, wc := range wireCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				writeJSON(w, 200, wc.success(`{"detections":[{"key":"field_contact","type":"rm -rf /","confidence":1},{"key":"field_cost","type":"credit_card","confidence":"0.9"}]}`))
			})
			d := newClient(t, wc, options(fake.srv.URL))
			got, err := d.Detect(context.Background(), "book", testFields(), knownTypes)
			require.NoError(t, err)
			require.Empty(t, got)
		})
	}
}

func TestDetectBatching(t *testing.T) {
	t.Parallel()
	for _, wc := range wireCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t, nil)
			fake.handle = func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				var dets []string
				for _, k := range requestKeys(t, wc, body) {
					dets = append(dets, fmt.Sprintf(`{"key":%q,"type":"city","confidence":0.5}`, k))
				}
				writeJSON(w, 200, wc.success(`{"detections":[`+strings.Join(dets, ",")+`]}`))
			}
			opts := options(fake.srv.URL)
			opts.MaxFieldsPerRequest = 2
			d := newClient(t, wc, opts)
			fields := append(testFields(), testFields()[0]) // a repeated key is sent once
			got, err := d.Detect(context.Background(), "book", fields, knownTypes)
			require.NoError(t, err)
			require.Len(t, got, 5)
			for i, f := range testFields() {
				require.Equal(t, f.Key, got[i].Key)
			}
			reqs := fake.requests()
			require.Len(t, reqs, 3)
			require.Equal(t, []string{"field_contact", "field_cost"}, requestKeys(t, wc, reqs[0].Body))
			require.Equal(t, []string{"field_town", "field_mood"}, requestKeys(t, wc, reqs[1].Body))
			require.Equal(t, []string{"field_misc"}, requestKeys(t, wc, reqs[2].Body))
		})
	}
}

func TestDetectTimeout(t *testing.T) {
	t.Parallel()
	for _, wc := range wireCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				<-r.Context().Done() // never answers: only the timeout ends the attempt
			})
			opts := options(fake.srv.URL)
			opts.Timeout = 50 * time.Millisecond
			d := newClient(t, wc, opts)
			_, err := d.Detect(context.Background(), "book", testFields(), knownTypes)
			require.ErrorIs(t, err, ai.ErrUnreachable)
			require.Equal(t, ai.MessageUnreachable, ai.TestMessage(err))
		})
	}
}

func TestDetectCancellation(t *testing.T) {
	t.Parallel()
	for _, wc := range wireCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			arrived := make(chan struct{}, 2)
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				arrived <- struct{}{}
				<-r.Context().Done()
			})
			d := newClient(t, wc, options(fake.srv.URL))
			ctx, cancel := context.WithCancel(context.Background())
			go func() { <-arrived; cancel() }()
			_, err := d.Detect(ctx, "book", testFields(), knownTypes)
			require.ErrorIs(t, err, context.Canceled)
			require.NotErrorIs(t, err, ai.ErrUnreachable)

			// Cancelled while waiting for the retry: the service asks for an
			// hour's pause and the options allow it, so only the
			// cancellation can end the wait.
			answered := make(chan struct{}, 1)
			fake2 := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				w.Header().Set("Retry-After", "3600")
				writeJSON(w, 503, wc.errorBody(503, "overloaded"))
				answered <- struct{}{}
			})
			opts := options(fake2.srv.URL)
			opts.MaxRetryWait = 2 * time.Hour
			d = newClient(t, wc, opts)
			ctx, cancel = context.WithCancel(context.Background())
			defer cancel()
			go func() { <-answered; cancel() }()
			_, err = d.Detect(ctx, "book", testFields(), knownTypes)
			require.ErrorIs(t, err, context.Canceled)
			require.Len(t, fake2.requests(), 1)

			// Already cancelled: no request at all.
			done, cancelNow := context.WithCancel(context.Background())
			cancelNow()
			_, err = d.Detect(done, "book", testFields(), knownTypes)
			require.ErrorIs(t, err, context.Canceled)
			require.Len(t, fake2.requests(), 1)
		})
	}
}

func TestNoKeyMakesNoRequest(t *testing.T) {
	t.Parallel()
	for _, wc := range wireCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				writeJSON(w, 500, "{}")
			})
			opts := options(fake.srv.URL)
			opts.APIKey = ""
			d := newClient(t, wc, opts)
			_, err := d.Detect(context.Background(), "book", testFields(), knownTypes)
			require.ErrorIs(t, err, providers.ErrNotConfigured)
			err = d.Test(context.Background())
			require.ErrorIs(t, err, providers.ErrNotConfigured)
			require.Equal(t, "The API key is not configured.", ai.TestMessage(err))
			require.Empty(t, fake.requests())
		})
	}
}

func TestNothingToAsk(t *testing.T) {
	t.Parallel()
	fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
		writeJSON(w, 500, "{}")
	})
	d := newClient(t, wireCases()[0], options(fake.srv.URL))
	got, err := d.Detect(context.Background(), "book", nil, knownTypes)
	require.NoError(t, err)
	require.Empty(t, got)
	got, err = d.Detect(context.Background(), "book", testFields(), nil)
	require.NoError(t, err)
	require.Empty(t, got)
	require.Empty(t, fake.requests())
}

func TestTestCall(t *testing.T) {
	t.Parallel()
	for _, wc := range wireCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				writeJSON(w, 200, `{"id":"`+testModel+`","name":"models/`+testModel+`","type":"model","object":"model"}`)
			})
			d := newClient(t, wc, options(fake.srv.URL))
			require.NoError(t, d.Test(context.Background()))
			require.Equal(t, ai.MessageSuccess, ai.TestMessage(nil))
			reqs := fake.requests()
			require.Len(t, reqs, 1)
			require.Equal(t, http.MethodGet, reqs[0].Method)
			require.Equal(t, wc.testPath, reqs[0].Path)
			require.Empty(t, reqs[0].RawQuery)
			require.Empty(t, reqs[0].Body)
			wc.checkAuth(t, reqs[0].Header)

			// A model the provider does not know.
			fake.handle = func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				writeJSON(w, 404, wc.errorBody(404, "model not found"))
			}
			err := d.Test(context.Background())
			require.NotErrorIs(t, err, ai.ErrUnauthorized)
			require.Equal(t, "API error 404: model not found", ai.TestMessage(err))

			// A provider that cannot be reached.
			closed := httptest.NewServer(http.NotFoundHandler())
			closed.Close()
			d = newClient(t, wc, options(closed.URL))
			err = d.Test(context.Background())
			require.ErrorIs(t, err, ai.ErrUnreachable)
			require.Equal(t, ai.MessageUnreachable, ai.TestMessage(err))
		})
	}
}

func TestRedirectsAreNotFollowed(t *testing.T) {
	t.Parallel()
	var leaked sync.Map
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.URL.Path, r.Header.Clone())
	}))
	t.Cleanup(elsewhere.Close)
	for _, wc := range wireCases() {
		t.Run(wc.slug, func(t *testing.T) {
			t.Parallel()
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
				http.Redirect(w, r, elsewhere.URL+"/"+wc.slug, http.StatusTemporaryRedirect)
			})
			d := newClient(t, wc, options(fake.srv.URL))
			_, err := d.Detect(context.Background(), "book", testFields(), knownTypes)
			var apiErr *ai.APIError
			require.ErrorAs(t, err, &apiErr)
			require.Equal(t, http.StatusTemporaryRedirect, apiErr.StatusCode)
			_, ok := leaked.Load("/" + wc.slug)
			require.False(t, ok, "the key must not follow a redirect")
		})
	}
}

func TestNewValidatesOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		slug string
		opts ai.Options
		want string
	}{
		{"unknown slug", "ai_four", ai.Options{BaseURL: "http://x", Model: "m"}, `unknown provider "ai_four"`},
		{"no base", ai.SlugOne, ai.Options{Model: "m"}, "Options.BaseURL"},
		{"relative base", ai.SlugTwo, ai.Options{BaseURL: "api.example.com", Model: "m"}, "Options.BaseURL"},
		{"query in base", ai.SlugTwo, ai.Options{BaseURL: "https://h/?key=1", Model: "m"}, "Options.BaseURL"},
		{"no model", ai.SlugThree, ai.Options{BaseURL: "https://h"}, "Options.Model"},
		{"negative timeout", ai.SlugOne, ai.Options{BaseURL: "https://h", Model: "m", Timeout: -1}, "Options.Timeout"},
		{"negative batch", ai.SlugOne, ai.Options{BaseURL: "https://h", Model: "m", MaxFieldsPerRequest: -1}, "Options.MaxFieldsPerRequest"},
	} {
		_, err := ai.New(tc.slug, tc.opts)
		require.ErrorContains(t, err, tc.want, tc.name)
	}
	for _, slug := range ai.Slugs() {
		d, err := ai.New(slug, ai.Options{BaseURL: "https://h", Model: "m"})
		require.NoError(t, err)
		require.Equal(t, slug, d.Name())
	}
}

func TestOptionsNeverPrintTheKey(t *testing.T) {
	t.Parallel()
	o := options("https://h")
	require.NotContains(t, fmt.Sprint(o), testKey)
	require.NotContains(t, fmt.Sprintf("%v %+v %s", o, o, o), testKey)
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("configured", "opts", o)
	require.NotContains(t, logs.String(), testKey)
	require.Contains(t, logs.String(), `"has_api_key":true`)
}

func TestGenerateModelPrefix(t *testing.T) {
	t.Parallel()
	wc := wireCases()[2]
	fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, body []byte) {
		writeJSON(w, 200, wc.success(`{"detections":[]}`))
	})
	opts := options(fake.srv.URL)
	opts.Model = "models/" + testModel
	d := newClient(t, wc, opts)
	_, err := d.Detect(context.Background(), "book", testFields(), knownTypes)
	require.NoError(t, err)
	require.Equal(t, wc.detectPath, fake.requests()[0].Path)
}

func TestTestMessage(t *testing.T) {
	t.Parallel()
	require.Equal(t, ai.MessageNotConfigured, ai.TestMessage(fmt.Errorf("x: %w", providers.ErrNotConfigured)))
	require.Equal(t, ai.MessageUnauthorized, ai.TestMessage(&ai.APIError{StatusCode: 401}))
	require.Equal(t, ai.MessageUnreachable, ai.TestMessage(context.DeadlineExceeded))
	require.Equal(t, ai.MessageBadAnswer, ai.TestMessage(ai.ErrBadAnswer))
	require.Equal(t, "API error 418.", ai.TestMessage(&ai.APIError{StatusCode: 418}))
	require.Equal(t, ai.MessageUnreachable, ai.TestMessage(errors.New("something else")))
}

func TestTruncatedRefusedOrBlockedAnswers(t *testing.T) {
	t.Parallel()
	cases := wireCases()
	bodies := map[string][]string{
		ai.SlugOne: {
			`{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"{\"detections\":[{\"key\":","refusal":null},"finish_reason":"length"}]}`,
			`{"id":"c","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]}`,
			`{"id":"c","object":"chat.completion","choices":[]}`,
		},
		ai.SlugTwo: {
			`{"id":"m","type":"message","role":"assistant","content":[{"type":"tool_use","id":"t","name":"record_field_types","input":{"detections":[]}}],"stop_reason":"max_tokens"}`,
			`{"id":"m","type":"message","role":"assistant","content":[{"type":"tool_use","id":"t","name":"other_tool","input":{"detections":[]}}],"stop_reason":"tool_use"}`,
		},
		ai.SlugThree: {
			`{"candidates":[{"content":{"parts":[{"text":"{\"detections\":["}],"role":"model"},"finishReason":"MAX_TOKENS","index":0}]}`,
			`{"promptFeedback":{"blockReason":"SAFETY"}}`,
			`{"candidates":[{"content":{"parts":[{"text":"thinking...","thought":true}],"role":"model"},"finishReason":"STOP","index":0}]}`,
		},
	}
	for _, wc := range cases {
		for i, body := range bodies[wc.slug] {
			fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, _ []byte) { writeJSON(w, 200, body) })
			_, err := newClient(t, wc, options(fake.srv.URL)).Detect(context.Background(), "book", testFields(), knownTypes)
			require.ErrorIs(t, err, ai.ErrBadAnswer, "%s body %d", wc.slug, i)
		}
	}
}

func TestLenientAnswers(t *testing.T) {
	t.Parallel()
	wc := wireCases()[0]
	for name, doc := range map[string]string{
		"fenced":     "```json\n{\"detections\":[{\"key\":\"field_cost\",\"type\":\"price\",\"confidence\":\"0.6\"}]}\n```",
		"bare array": `[{"key":"field_cost","type":" Price ","confidence":0.6}]`,
	} {
		fake := newFake(t, func(w http.ResponseWriter, r *http.Request, n int, _ []byte) { writeJSON(w, 200, wc.success(doc)) })
		got, err := newClient(t, wc, options(fake.srv.URL)).Detect(context.Background(), "book", testFields(), knownTypes)
		require.NoError(t, err, name)
		require.Equal(t, []providers.Detection{{Key: "field_cost", Type: "price", Confidence: 0.6}}, got, name)
	}
}
