package ai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// DefaultMaxTokens bounds an answer of Write when WriteRequest.MaxTokens
// is zero.
const DefaultMaxTokens = 1024

// WriteRequest asks a model for text.
type WriteRequest struct {
	// System holds the standing instructions (the system prompt).
	System string
	// Prompt is the user message: what to write.
	Prompt string
	// MaxTokens bounds the answer; 0 means DefaultMaxTokens.
	MaxTokens int
	// Temperature is the sampling temperature, 0 to 2.
	Temperature float64
	// Seed, when not zero, is sent to providers that accept one (ai_one,
	// ai_three), so that a model that honours it answers the same prompt
	// the same way.
	Seed int64
}

// Written is the answer of Write.
type Written struct {
	// Text is the model's answer as it gave it: not trimmed, not
	// sanitised. Callers must treat it as untrusted input.
	Text string
	// InputTokens and OutputTokens are the tokens the provider counted for
	// the prompt and the answer. When the provider reported none they are
	// estimated (about four bytes a token) and Estimated is set.
	InputTokens, OutputTokens int
	Estimated                 bool
}

// Tokens returns the tokens the call used, prompt and answer.
func (w *Written) Tokens() int { return w.InputTokens + w.OutputTokens }

// Writer is a client that writes text with a model. All three clients
// implement it.
type Writer interface {
	// Name returns the provider slug.
	Name() string
	// Write sends req and returns the model's answer. It retries 429 and
	// 5xx answers (Options.MaxRetries, honouring Retry-After), bounds
	// every attempt with Options.Timeout and fails with an error matching
	// ErrUnreachable when the provider cannot be reached or does not
	// answer in time, ErrBadAnswer when the answer is empty, truncated,
	// refused or not the provider's format, ErrUnauthorized for a
	// rejected key, wrapping providers.ErrNotConfigured when a key is
	// needed and missing (no request is sent), and with ctx.Err()
	// (wrapped) when ctx is done.
	Write(ctx context.Context, req WriteRequest) (*Written, error)
}

var (
	_ Writer = (*ChatClient)(nil)
	_ Writer = (*MessagesClient)(nil)
	_ Writer = (*GenerateClient)(nil)
)

// NewWriter returns the client of the AI provider slug as a Writer; see
// New.
func NewWriter(slug string, opts Options) (Writer, error) {
	d, err := New(slug, opts)
	if err != nil {
		return nil, err
	}
	return d.(Writer), nil
}

// Write implements Writer.
func (c *ChatClient) Write(ctx context.Context, req WriteRequest) (*Written, error) {
	return c.c.write(ctx, req)
}

// Write implements Writer.
func (c *MessagesClient) Write(ctx context.Context, req WriteRequest) (*Written, error) {
	return c.c.write(ctx, req)
}

// Write implements Writer.
func (c *GenerateClient) Write(ctx context.Context, req WriteRequest) (*Written, error) {
	return c.c.write(ctx, req)
}

func (c *core) write(ctx context.Context, req WriteRequest) (*Written, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("ai: %s: %w", c.slug, err)
	}
	if c.keyMissing() {
		return nil, c.notConfigured()
	}
	if req.MaxTokens <= 0 {
		req.MaxTokens = DefaultMaxTokens
	}
	path, body, err := c.wire.write(c.opts.Model, req)
	if err != nil {
		return nil, fmt.Errorf("ai: %s: encoding request: %w", c.slug, err)
	}
	resp, err := c.send(ctx, "POST", path, body, true)
	if err != nil {
		return nil, err
	}
	w, err := c.wire.written(resp)
	if err != nil {
		return nil, fmt.Errorf("ai: %s: %w", c.slug, err)
	}
	if strings.TrimSpace(w.Text) == "" {
		return nil, fmt.Errorf("ai: %s: %w: empty answer", c.slug, ErrBadAnswer)
	}
	if !utf8.ValidString(w.Text) {
		return nil, fmt.Errorf("ai: %s: %w: answer is not UTF-8", c.slug, ErrBadAnswer)
	}
	if w.InputTokens == 0 && w.OutputTokens == 0 {
		w.InputTokens = (len(req.System) + len(req.Prompt) + 3) / 4
		w.OutputTokens = (len(w.Text) + 3) / 4
		w.Estimated = true
	}
	return w, nil
}

// ai_one: chat completions.

type chatWriteRequest struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	MaxTokens   int           `json:"max_tokens"`
	Temperature float64       `json:"temperature"`
	Seed        int64         `json:"seed,omitempty"`
	Stream      bool          `json:"stream"`
}

func (chatWire) write(model string, req WriteRequest) (string, []byte, error) {
	msgs := make([]chatMessage, 0, 2)
	if req.System != "" {
		msgs = append(msgs, chatMessage{Role: "system", Content: req.System})
	}
	msgs = append(msgs, chatMessage{Role: "user", Content: req.Prompt})
	body, err := json.Marshal(chatWriteRequest{Model: model, Messages: msgs, MaxTokens: req.MaxTokens, Temperature: req.Temperature, Seed: req.Seed})
	return "/v1/chat/completions", body, err
}

func (w chatWire) written(body []byte) (*Written, error) {
	doc, err := w.answer(body)
	if err != nil {
		return nil, err
	}
	var u struct {
		Usage struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
	}
	_ = json.Unmarshal(body, &u) // answer has checked the JSON
	return &Written{Text: string(doc), InputTokens: u.Usage.PromptTokens, OutputTokens: u.Usage.CompletionTokens}, nil
}

// ai_two: messages.

type messagesWriteRequest struct {
	Model       string        `json:"model"`
	MaxTokens   int           `json:"max_tokens"`
	System      string        `json:"system,omitempty"`
	Messages    []chatMessage `json:"messages"`
	Temperature float64       `json:"temperature"`
}

func (messagesWire) write(model string, req WriteRequest) (string, []byte, error) {
	body, err := json.Marshal(messagesWriteRequest{
		Model: model, MaxTokens: req.MaxTokens, System: req.System,
		Messages:    []chatMessage{{Role: "user", Content: req.Prompt}},
		Temperature: min(req.Temperature, 1), // the messages API takes 0 to 1
	})
	return "/v1/messages", body, err
}

func (messagesWire) written(body []byte) (*Written, error) {
	var r struct {
		Type    string `json:"type"`
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StopReason string `json:"stop_reason"`
		Usage      struct {
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadAnswer, err)
	}
	switch r.StopReason {
	case "max_tokens":
		return nil, fmt.Errorf("%w: answer truncated", ErrBadAnswer)
	case "refusal":
		return nil, fmt.Errorf("%w: the model refused", ErrBadAnswer)
	}
	var b strings.Builder
	for _, c := range r.Content {
		if c.Type == "text" {
			b.WriteString(c.Text)
		}
	}
	if b.Len() == 0 {
		return nil, fmt.Errorf("%w: no text block", ErrBadAnswer)
	}
	return &Written{Text: b.String(), InputTokens: r.Usage.InputTokens, OutputTokens: r.Usage.OutputTokens}, nil
}

// ai_three: generate content.

type generateWriteRequest struct {
	SystemInstruction *generateContent  `json:"systemInstruction,omitempty"`
	Contents          []generateContent `json:"contents"`
	GenerationConfig  struct {
		MaxOutputTokens int     `json:"maxOutputTokens"`
		Temperature     float64 `json:"temperature"`
		Seed            int64   `json:"seed,omitempty"`
	} `json:"generationConfig"`
}

func (generateWire) write(model string, req WriteRequest) (string, []byte, error) {
	var r generateWriteRequest
	if req.System != "" {
		r.SystemInstruction = &generateContent{Parts: []generatePart{{Text: req.System}}}
	}
	r.Contents = []generateContent{{Role: "user", Parts: []generatePart{{Text: req.Prompt}}}}
	r.GenerationConfig.MaxOutputTokens = req.MaxTokens
	r.GenerationConfig.Temperature = req.Temperature
	// The API takes a 32-bit seed.
	r.GenerationConfig.Seed = int64(int32(req.Seed))
	body, err := json.Marshal(r)
	return "/v1beta/models/" + url.PathEscape(model) + ":generateContent", body, err
}

func (w generateWire) written(body []byte) (*Written, error) {
	doc, err := w.answer(body)
	if err != nil {
		return nil, err
	}
	var u struct {
		UsageMetadata struct {
			PromptTokenCount     int `json:"promptTokenCount"`
			CandidatesTokenCount int `json:"candidatesTokenCount"`
		} `json:"usageMetadata"`
	}
	_ = json.Unmarshal(body, &u)
	return &Written{Text: string(doc), InputTokens: u.UsageMetadata.PromptTokenCount, OutputTokens: u.UsageMetadata.CandidatesTokenCount}, nil
}
