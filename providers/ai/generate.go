package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/contentgen/contentgen/providers"
)

// GenerateClient is the ai_three detector. It speaks a generate-content
// style API: POST {base}/v1beta/models/{model}:generateContent with
// "x-goog-api-key: <key>", a systemInstruction, one user content and
// generationConfig {responseMimeType: "application/json", responseSchema};
// the answer is the text of the first candidate's parts. Test reads
// GET {base}/v1beta/models/{model}. A "models/" prefix of Options.Model is
// accepted. It is safe for concurrent use.
type GenerateClient struct{ c *core }

// NewGenerateClient returns the ai_three client; see Options for the
// requirements.
func NewGenerateClient(opts Options) (*GenerateClient, error) {
	opts.Model = strings.TrimPrefix(strings.TrimSpace(opts.Model), "models/")
	c, err := newCore(SlugThree, opts, generateWire{})
	if err != nil {
		return nil, err
	}
	return &GenerateClient{c}, nil
}

// Name returns SlugThree.
func (c *GenerateClient) Name() string { return SlugThree }

// Detect implements providers.FieldDetector; see the package documentation
// for batching, retries and validation.
func (c *GenerateClient) Detect(ctx context.Context, postType string, fields []providers.Field, known []string) ([]providers.Detection, error) {
	return c.c.detect(ctx, postType, fields, known)
}

// Test implements Detector.
func (c *GenerateClient) Test(ctx context.Context) error { return c.c.test(ctx) }

type generateWire struct{}

type generatePart struct {
	Text    string `json:"text,omitempty"`
	Thought bool   `json:"thought,omitempty"`
}

type generateContent struct {
	Role  string         `json:"role,omitempty"`
	Parts []generatePart `json:"parts"`
}

type generateRequest struct {
	SystemInstruction generateContent   `json:"systemInstruction"`
	Contents          []generateContent `json:"contents"`
	GenerationConfig  struct {
		ResponseMimeType string         `json:"responseMimeType"`
		ResponseSchema   map[string]any `json:"responseSchema"`
		Temperature      float64        `json:"temperature"`
	} `json:"generationConfig"`
}

func (generateWire) detect(model string, p prompt) (string, []byte, error) {
	var r generateRequest
	r.SystemInstruction = generateContent{Parts: []generatePart{{Text: p.System}}}
	r.Contents = []generateContent{{Role: "user", Parts: []generatePart{{Text: p.User}}}}
	r.GenerationConfig.ResponseMimeType = "application/json"
	r.GenerationConfig.ResponseSchema = openAPISchema(p)
	body, err := json.Marshal(r)
	return "/v1beta/models/" + url.PathEscape(model) + ":generateContent", body, err
}

type generateResponse struct {
	Candidates []struct {
		Content      generateContent `json:"content"`
		FinishReason string          `json:"finishReason"`
	} `json:"candidates"`
	PromptFeedback struct {
		BlockReason string `json:"blockReason"`
	} `json:"promptFeedback"`
}

func (generateWire) answer(body []byte) ([]byte, error) {
	var r generateResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadAnswer, err)
	}
	if len(r.Candidates) == 0 {
		if r.PromptFeedback.BlockReason != "" {
			return nil, fmt.Errorf("%w: prompt blocked (%s)", ErrBadAnswer, r.PromptFeedback.BlockReason)
		}
		return nil, fmt.Errorf("%w: no candidates", ErrBadAnswer)
	}
	c := r.Candidates[0]
	if c.FinishReason == "MAX_TOKENS" {
		return nil, fmt.Errorf("%w: answer truncated", ErrBadAnswer)
	}
	var b strings.Builder
	for _, p := range c.Content.Parts {
		if !p.Thought {
			b.WriteString(p.Text)
		}
	}
	if b.Len() == 0 {
		return nil, fmt.Errorf("%w: empty answer (finish reason %q)", ErrBadAnswer, c.FinishReason)
	}
	return []byte(b.String()), nil
}

func (generateWire) testPath(model string) string { return "/v1beta/models/" + url.PathEscape(model) }

func (generateWire) auth(h http.Header, key string) {
	if key != "" {
		h.Set("x-goog-api-key", key)
	}
}

func (generateWire) version() string { return "/v1beta" }

func (generateWire) apiError(status int, body []byte) *APIError {
	var r struct {
		Error struct {
			Message string `json:"message"`
			Status  string `json:"status"`
			Details []struct {
				Reason string `json:"reason"`
			} `json:"details"`
		} `json:"error"`
	}
	e := &APIError{}
	if json.Unmarshal(body, &r) == nil {
		e.Message = r.Error.Message
		e.Code = r.Error.Status
		for _, d := range r.Error.Details {
			if d.Reason == "API_KEY_INVALID" {
				e.Code = d.Reason
				e.InvalidKey = true
			}
		}
	}
	return e
}
