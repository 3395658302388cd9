// Package providers defines the seams through which contentgen reaches
// outside sources of content: image providers (featured images, avatars,
// media downloads) and AI field detectors (semantic types of custom fields).
//
// The package imports nothing from the rest of the module; neither do its
// subpackages, which implement and support the image seam:
//
//   - local: provider_local, placeholder images drawn offline per
//     category, deterministic for a seed; portraits double as avatars.
//   - remote: provider_keyword (LoremFlickr), provider_curated (Wikimedia
//     Commons featured pictures) and provider_random (Lorem Picsum), HTTP
//     clients with timeouts, retries that honour Retry-After, size caps
//     and content checks.
//   - builtin: all four in one call.
//   - imaging: identify images, make thumbnail and medium renditions,
//     format dimensions and ratio.
//   - fetch: an HTTP client and downloader that cannot be pointed at the
//     server's own network (for POST /media/upload-url).
//   - filetype: content sniffing, the upload allow-list, file name
//     sanitising and the file_type groups of GET /media/files.
//
// Providers report failures with the sentinel errors of this package
// (ErrInvalidSize, ErrNotImage, ErrTooLarge, ErrNoResults) and
// *StatusError, so callers can tell throttling from broken content
// without knowing which provider ran.
//
// A Breaker wraps one provider and stops asking it after failures in a
// row: for a cool-down it answers at once with ErrProviderDown, so that a
// dead service costs one failure per cool-down instead of a timeout and
// its retries per image. It counts the requests it skipped.
package providers
