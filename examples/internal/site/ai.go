package site

import (
	"errors"
	"time"

	"github.com/contentgen/contentgen/providers/ai"
)

// EnvAIAPIKey names the environment variable with the API key of the
// endpoint given by -ai-base-url, for hosted OpenAI-compatible APIs; local
// servers need none.
const EnvAIAPIKey = "CONTENTGEN_AI_API_KEY"

// AITimeout bounds one request to the endpoint of -ai-base-url: a local
// model on a laptop may take a minute for a long post.
const AITimeout = 3 * time.Minute

// AIEndpoint returns the ai_one options of an OpenAI-compatible endpoint
// given on the command line: its base URL (http://localhost:11434/v1 for
// Ollama, with or without /v1) and model, both or neither. key may be
// empty: a local server needs none. ok is false when neither is given.
func AIEndpoint(baseURL, model, key string) (opts ai.Options, ok bool, err error) {
	switch {
	case baseURL == "" && model == "":
		return ai.Options{}, false, nil
	case baseURL == "":
		return ai.Options{}, false, errors.New("ai-base-url is required with ai-model")
	case model == "":
		return ai.Options{}, false, errors.New("ai-model is required with ai-base-url")
	}
	opts = ai.Options{BaseURL: baseURL, Model: model, APIKey: key, KeyOptional: true, Timeout: AITimeout}
	// The options are checked as the client will check them.
	if _, err := ai.NewWriter(ai.SlugOne, opts); err != nil {
		return ai.Options{}, false, err
	}
	return opts, true, nil
}
