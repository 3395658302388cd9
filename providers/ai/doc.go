// Package ai holds the clients of AI providers: HTTP clients that ask a
// model which semantic type (email, price, city, ...) a custom field holds
// and that have it write text, plus the pieces that make them safe to use
// in a generation run.
//
// # Clients
//
// Three clients implement [providers.FieldDetector], one per AI provider slug
// of the specification, each speaking the wire format of a family of model
// APIs:
//
//   - [ChatClient] (slug ai_one): a chat-completions style API,
//     POST {base}/v1/chat/completions with a bearer key and a JSON-schema
//     structured output (response_format json_schema).
//   - [MessagesClient] (slug ai_two): a messages style API,
//     POST {base}/v1/messages with an x-api-key header, a version header and
//     a forced tool whose input schema carries the answer.
//   - [GenerateClient] (slug ai_three): a generate-content style API,
//     POST {base}/v1beta/models/{model}:generateContent with an
//     x-goog-api-key header and a response schema.
//
// [New] builds one of them from its slug. Every client sends all fields of a
// post type in one request (split into batches of
// Options.MaxFieldsPerRequest), bounds every attempt with Options.Timeout,
// retries once on 429 and 5xx answers (honouring Retry-After up to a cap),
// never follows redirects (so the key is never sent elsewhere) and never
// puts the key in a URL or a log line. Answers are never trusted blindly:
// types outside the caller's known list, keys that were not asked about and
// malformed entries are dropped, confidences are clamped to 0..1.
//
// # Writing
//
// Every client is also a [Writer]: Write sends a system prompt and a user
// prompt as plain text in the provider's format (chat messages, a messages
// request, or generate-content contents) and returns the answer's text
// with the tokens the provider counted (estimated when it reports none).
// Answers are untrusted text: callers sanitise them. A base URL may carry
// the client's version path (http://localhost:11434/v1, as
// OpenAI-compatible servers such as Ollama, llama.cpp and vLLM document
// theirs), and Options.KeyOptional lets a client talk to a local server
// that needs no key. Retries (Options.MaxRetries) wait on Options.Sleep,
// which tests replace.
//
// # Errors
//
// Failures are typed so that callers can report them: a missing key wraps
// [providers.ErrNotConfigured], a rejected key matches [ErrUnauthorized], a
// provider that cannot be reached (or times out) matches [ErrUnreachable],
// an unusable answer matches [ErrBadAnswer], and any other HTTP failure is
// an [*APIError]. [TestMessage] turns the result of a client's Test method
// into the message of POST /settings/ai/test.
//
// # Cache and fallback
//
// [Cache] remembers detections per post type and field signature (also the
// fields a model could not place), optionally persisted through a [Store].
// [CachedDetector] puts a Cache in front of any detector so that a second
// run makes no AI call, and [Chain] asks a secondary detector when the
// primary fails or is unreachable.
//
// The package imports only the providers package of this module.
package ai
