package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/contentgen/contentgen/providers"
)

// MessagesAPIVersion is the API version header value sent by
// MessagesClient.
const MessagesAPIVersion = "2023-06-01"

// MessagesClient is the ai_two detector. It speaks a messages style API:
// POST {base}/v1/messages with "x-api-key: <key>" and
// "anthropic-version: 2023-06-01", a system prompt, one user message, one
// tool whose input_schema is the answer schema and a tool_choice forcing
// that tool; the answer is the input of the tool_use content block. Test
// reads GET {base}/v1/models/{model}. It is safe for concurrent use.
type MessagesClient struct{ c *core }

// NewMessagesClient returns the ai_two client; see Options for the
// requirements.
func NewMessagesClient(opts Options) (*MessagesClient, error) {
	c, err := newCore(SlugTwo, opts, messagesWire{})
	if err != nil {
		return nil, err
	}
	return &MessagesClient{c}, nil
}

// Name returns SlugTwo.
func (c *MessagesClient) Name() string { return SlugTwo }

// Detect implements providers.FieldDetector; see the package documentation
// for batching, retries and validation.
func (c *MessagesClient) Detect(ctx context.Context, postType string, fields []providers.Field, known []string) ([]providers.Detection, error) {
	return c.c.detect(ctx, postType, fields, known)
}

// Test implements Detector.
func (c *MessagesClient) Test(ctx context.Context) error { return c.c.test(ctx) }

type messagesWire struct{}

type messagesRequest struct {
	Model      string            `json:"model"`
	MaxTokens  int               `json:"max_tokens"`
	System     string            `json:"system"`
	Messages   []chatMessage     `json:"messages"`
	Tools      []messagesTool    `json:"tools"`
	ToolChoice map[string]string `json:"tool_choice"`
}

type messagesTool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"input_schema"`
}

// messagesMaxTokens leaves room for about 60 tokens per field.
func messagesMaxTokens(fields int) int { return min(1024+64*fields, 8192) }

func (messagesWire) detect(model string, p prompt) (string, []byte, error) {
	body, err := json.Marshal(messagesRequest{
		Model:     model,
		MaxTokens: messagesMaxTokens(len(p.Keys)),
		System:    p.System,
		Messages:  []chatMessage{{Role: "user", Content: p.User}},
		Tools: []messagesTool{{
			Name:        toolName,
			Description: "Record the semantic type of every field.",
			InputSchema: jsonSchema(p),
		}},
		ToolChoice: map[string]string{"type": "tool", "name": toolName},
	})
	return "/v1/messages", body, err
}

type messagesResponse struct {
	Type    string `json:"type"`
	Content []struct {
		Type  string          `json:"type"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
}

func (messagesWire) answer(body []byte) ([]byte, error) {
	var r messagesResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadAnswer, err)
	}
	if r.StopReason == "max_tokens" {
		return nil, fmt.Errorf("%w: answer truncated", ErrBadAnswer)
	}
	for _, b := range r.Content {
		if b.Type == "tool_use" && b.Name == toolName && len(b.Input) > 0 {
			return b.Input, nil
		}
	}
	return nil, fmt.Errorf("%w: no %s tool_use block", ErrBadAnswer, toolName)
}

func (messagesWire) testPath(model string) string { return "/v1/models/" + url.PathEscape(model) }

func (messagesWire) version() string { return "/v1" }

func (messagesWire) auth(h http.Header, key string) {
	if key != "" {
		h.Set("x-api-key", key)
	}
	h.Set("anthropic-version", MessagesAPIVersion)
}

func (messagesWire) apiError(status int, body []byte) *APIError {
	var r struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	e := &APIError{}
	if json.Unmarshal(body, &r) == nil {
		e.Message = r.Error.Message
		e.Code = r.Error.Type
	}
	e.InvalidKey = e.Code == "authentication_error"
	return e
}
