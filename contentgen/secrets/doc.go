// Package secrets encrypts small secrets at rest, such as the API keys of
// AI providers, and masks them for display.
//
// A [Keyring] holds the encryption keys: one current key that seals, and
// older keys kept only to open what they sealed, each with a version
// number. [Keyring.Seal] encrypts with AES-256-GCM under a fresh random
// nonce, with additional data that binds the ciphertext to its purpose and
// subject (for example purpose "ai_api_key", subject "ai_one"), so a
// ciphertext copied to another provider's slot does not open. The result
// is a printable string "v<version>:<base64url(nonce|ciphertext)>"; the
// version prefix tells which key opens it, so the encryption key can be
// rotated: add a new current key, keep the old one, and
// [Keyring.Reseal] moves old ciphertexts to the new key.
//
// Keys come from the embedding program ([NewKeyring]) or from text in a
// file or an environment variable ([ParseKeyring], [LoadKeyringFile],
// [KeyringFromEnv]): one key per line as "<version>:<base64>" (a single
// bare base64 key is version 1), the highest version current.
// [LoadOrCreateKeyFile] creates such a file with 0600 permissions on first
// start, and [AddKeyVersion] appends a new current key to it.
//
// Keys must never be stored beside the ciphertexts they protect, and are
// never logged: a Keyring prints as "secrets.Keyring{...}" without key
// material. [Mask] shows at most the last four characters of a secret.
//
// The package imports only the standard library.
package secrets
