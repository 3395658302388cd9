package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/contentgen/contentgen/providers"
)

// ChatClient is the ai_one detector. It speaks a chat-completions style
// API: POST {base}/v1/chat/completions with "Authorization: Bearer <key>",
// a system and a user message, and response_format
// {type: "json_schema", json_schema: {name, strict: true, schema}}; the
// answer is the JSON text of choices[0].message.content. Test reads
// GET {base}/v1/models/{model}. It is safe for concurrent use.
type ChatClient struct{ c *core }

// NewChatClient returns the ai_one client; see Options for the
// requirements.
func NewChatClient(opts Options) (*ChatClient, error) {
	c, err := newCore(SlugOne, opts, chatWire{})
	if err != nil {
		return nil, err
	}
	return &ChatClient{c}, nil
}

// Name returns SlugOne.
func (c *ChatClient) Name() string { return SlugOne }

// Detect implements providers.FieldDetector; see the package documentation
// for batching, retries and validation.
func (c *ChatClient) Detect(ctx context.Context, postType string, fields []providers.Field, known []string) ([]providers.Detection, error) {
	return c.c.detect(ctx, postType, fields, known)
}

// Test implements Detector.
func (c *ChatClient) Test(ctx context.Context) error { return c.c.test(ctx) }

type chatWire struct{}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatRequest struct {
	Model          string         `json:"model"`
	Messages       []chatMessage  `json:"messages"`
	ResponseFormat chatRespFormat `json:"response_format"`
}

type chatRespFormat struct {
	Type       string         `json:"type"`
	JSONSchema chatJSONSchema `json:"json_schema"`
}

type chatJSONSchema struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Strict      bool           `json:"strict"`
	Schema      map[string]any `json:"schema"`
}

func (chatWire) detect(model string, p prompt) (string, []byte, error) {
	body, err := json.Marshal(chatRequest{
		Model: model,
		Messages: []chatMessage{
			{Role: "system", Content: p.System},
			{Role: "user", Content: p.User},
		},
		ResponseFormat: chatRespFormat{
			Type: "json_schema",
			JSONSchema: chatJSONSchema{
				Name:        toolName,
				Description: "The semantic type of every field.",
				Strict:      true,
				Schema:      jsonSchema(p),
			},
		},
	})
	return "/v1/chat/completions", body, err
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
			Refusal *string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
}

func (chatWire) answer(body []byte) ([]byte, error) {
	var r chatResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadAnswer, err)
	}
	if len(r.Choices) == 0 {
		return nil, fmt.Errorf("%w: no choices", ErrBadAnswer)
	}
	ch := r.Choices[0]
	switch {
	case ch.Message.Refusal != nil && *ch.Message.Refusal != "":
		return nil, fmt.Errorf("%w: the model refused", ErrBadAnswer)
	case ch.FinishReason == "length":
		return nil, fmt.Errorf("%w: answer truncated", ErrBadAnswer)
	case ch.Message.Content == nil:
		return nil, fmt.Errorf("%w: empty message", ErrBadAnswer)
	}
	return []byte(*ch.Message.Content), nil
}

func (chatWire) testPath(model string) string { return "/v1/models/" + url.PathEscape(model) }

func (chatWire) auth(h http.Header, key string) {
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
}

func (chatWire) version() string { return "/v1" }

func (chatWire) apiError(status int, body []byte) *APIError {
	var r struct {
		Error struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Code    any    `json:"code"`
		} `json:"error"`
	}
	e := &APIError{}
	if json.Unmarshal(body, &r) == nil {
		e.Message = r.Error.Message
		e.Code = r.Error.Type
		if code, ok := r.Error.Code.(string); ok && code != "" {
			e.Code = code
		}
	}
	e.InvalidKey = e.Code == "invalid_api_key"
	return e
}
