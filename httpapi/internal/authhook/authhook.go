// Package authhook lets the tests of package httpapi reach into package
// auth without widening auth's API. Package auth fills the hooks when it
// is initialised; nothing else writes them.
package authhook

// CheapHashes makes passwords, an *auth.Passwords, hash with one PBKDF2
// round instead of the configured number, for tests that check many
// passwords. Call it before storing any password.
var CheapHashes func(passwords any)
