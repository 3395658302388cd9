// Package remote holds the image providers that download photos from
// public services needing no API key:
//
//   - Keyword (provider_keyword): LoremFlickr, Creative Commons photos from
//     Flickr found by keyword: https://loremflickr.com/{w}/{h}/{keywords}?lock={n}.
//   - Curated (provider_curated): Wikimedia Commons featured pictures, a
//     collection curated by community review, searched through the
//     MediaWiki API (https://commons.wikimedia.org/w/api.php) and cut to
//     the requested size from a standard-width thumbnail.
//   - Random (provider_random): Lorem Picsum, random photos without
//     categories: https://picsum.photos/seed/{seed}/{w}/{h}.
//
// Categories are mapped to each service's keywords (KeywordsFor); Random
// ignores them silently.
//
// # Robustness
//
// Every request has a per-attempt timeout and is retried with exponential
// backoff on HTTP 429 and 5xx answers and on network errors, except a
// service that cannot be reached at all (its name does not resolve, no
// route, connection refused: providers.Unreachable), which fails at once
// with providers.ErrUnreachable, as on a machine without a network. A Retry-After
// header is honoured when it is within Options.MaxRetryWait; when the
// service asks for a longer pause the provider gives up at once with a
// *providers.StatusError carrying RetryAfter, so that a throttled service
// costs a generation run one warning instead of minutes. Waiting stops as
// soon as the context ends. Redirects are followed only to http and https,
// bodies are read up to Options.MaxBytes (providers.ErrTooLarge beyond),
// and the content must identify as an image from its header
// (providers.ErrNotImage otherwise): JPEG, PNG and GIF are checked by
// image.DecodeConfig, WebP is accepted by its RIFF/VP8 header with the
// size read from it, because the standard library cannot decode WebP.
// Width and Height of the result are the real ones from the image.
//
// The default HTTP client refuses private and loopback addresses (see
// package fetch), since a service could redirect anywhere; set
// Options.AllowPrivateAddresses or pass Options.Client to point a
// provider at a local mirror or a test server.
package remote
