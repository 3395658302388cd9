package license

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// tokenPrefix starts every licence key and is covered by the signature.
const tokenPrefix = "CGL1."

// Errors of Verify and Activate; match them with errors.Is.
var (
	// ErrMalformed is returned for text that is not a licence key.
	ErrMalformed = errors.New("license: malformed licence key")
	// ErrForged is returned for a key whose signature does not verify with
	// the configured public key.
	ErrForged = errors.New("license: licence key signature is not valid")
	// ErrExpired is returned for a genuine key past its expiry; the error
	// message names the expiry date.
	ErrExpired = errors.New("license: licence key has expired")
	// ErrSiteMismatch is returned when a key issued for one site is
	// activated on another.
	ErrSiteMismatch = errors.New("license: licence key is issued for another site")
	// ErrRemote is returned by Refresh when the remote verifier failed; the
	// offline status is kept.
	ErrRemote = errors.New("license: licence server could not be reached")
)

// Claims are the signed contents of a licence key.
type Claims struct {
	// ID identifies the licence at the issuer (optional).
	ID string `json:"id,omitempty"`
	// Plan is the plan name, such as "pro"; required.
	Plan string `json:"plan"`
	// Site restricts the key to one site (a host name, compared without
	// scheme, "www." and trailing slash); empty means any site.
	Site string `json:"site,omitempty"`
	// Issued is when the key was issued; required.
	Issued time.Time `json:"issued"`
	// Expires is when the key stops being valid; zero means never.
	Expires time.Time `json:"expires,omitzero"`
}

// Issue signs claims with priv and returns the licence key. Plan and
// Issued are required. It is meant for issuing tools, tests and examples;
// the service itself only needs the public key.
func Issue(priv ed25519.PrivateKey, c Claims) (string, error) {
	if len(priv) != ed25519.PrivateKeySize {
		return "", fmt.Errorf("license: private key has %d bytes, want %d", len(priv), ed25519.PrivateKeySize)
	}
	if strings.TrimSpace(c.Plan) == "" {
		return "", errors.New("license: Claims.Plan is required")
	}
	if c.Issued.IsZero() {
		return "", errors.New("license: Claims.Issued is required")
	}
	c.Issued = c.Issued.UTC().Truncate(time.Second)
	if !c.Expires.IsZero() {
		c.Expires = c.Expires.UTC().Truncate(time.Second)
	}
	payload, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	signed := tokenPrefix + base64.RawURLEncoding.EncodeToString(payload)
	sig := ed25519.Sign(priv, []byte(signed))
	return signed + "." + base64.RawURLEncoding.EncodeToString(sig), nil
}

// Verify checks key against pub and returns its claims. It fails with
// ErrMalformed for text that is not a licence key, ErrForged for a bad
// signature and ErrExpired (claims returned too) when now is past the
// expiry.
func Verify(pub ed25519.PublicKey, key string, now time.Time) (Claims, error) {
	c, err := parse(pub, key)
	if err != nil {
		return Claims{}, err
	}
	if c.Expired(now) {
		return c, fmt.Errorf("%w: it expired on %s; renew it or enter a current key", ErrExpired, c.Expires.UTC().Format("2006-01-02"))
	}
	return c, nil
}

// Expired reports whether the claims have an expiry at or before now.
func (c Claims) Expired(now time.Time) bool {
	return !c.Expires.IsZero() && !now.Before(c.Expires)
}

func parse(pub ed25519.PublicKey, key string) (Claims, error) {
	key = strings.TrimSpace(key)
	if !strings.HasPrefix(key, tokenPrefix) {
		return Claims{}, fmt.Errorf("%w: it must start with %q", ErrMalformed, tokenPrefix)
	}
	dot := strings.LastIndexByte(key, '.')
	if dot <= len(tokenPrefix) {
		return Claims{}, fmt.Errorf("%w: missing signature", ErrMalformed)
	}
	signed, sigText := key[:dot], key[dot+1:]
	payload, err := base64.RawURLEncoding.DecodeString(signed[len(tokenPrefix):])
	if err != nil {
		return Claims{}, fmt.Errorf("%w: payload is not base64url", ErrMalformed)
	}
	sig, err := base64.RawURLEncoding.DecodeString(sigText)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return Claims{}, fmt.Errorf("%w: signature is not %d bytes of base64url", ErrMalformed, ed25519.SignatureSize)
	}
	if len(pub) != ed25519.PublicKeySize || !ed25519.Verify(pub, []byte(signed), sig) {
		return Claims{}, ErrForged
	}
	var c Claims
	dec := json.NewDecoder(bytes.NewReader(payload))
	if err := dec.Decode(&c); err != nil {
		return Claims{}, fmt.Errorf("%w: payload is not valid JSON", ErrMalformed)
	}
	if strings.TrimSpace(c.Plan) == "" || c.Issued.IsZero() {
		return Claims{}, fmt.Errorf("%w: plan and issued are required", ErrMalformed)
	}
	return c, nil
}

// ParsePublicKey reads an ed25519 public key given as base64 (standard or
// URL alphabet, padded or not) or hex.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	s = strings.TrimSpace(s)
	if len(s) == 2*ed25519.PublicKeySize {
		if b, err := hex.DecodeString(s); err == nil {
			return ed25519.PublicKey(b), nil
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			if len(b) != ed25519.PublicKeySize {
				return nil, fmt.Errorf("license: public key has %d bytes, want %d", len(b), ed25519.PublicKeySize)
			}
			return ed25519.PublicKey(b), nil
		}
	}
	return nil, errors.New("license: public key is not base64 or hex")
}

// FormatPublicKey returns pub as standard base64, the form ParsePublicKey
// reads.
func FormatPublicKey(pub ed25519.PublicKey) string {
	return base64.StdEncoding.EncodeToString(pub)
}

// NormalizeSite reduces a site address to the form sites are compared in:
// lower-case host and path without scheme, "www.", port-less default
// ports, or trailing slash ("https://www.Example.com/" becomes
// "example.com").
func NormalizeSite(site string) string {
	s := strings.TrimSpace(site)
	if s == "" {
		return ""
	}
	if !strings.Contains(s, "://") {
		s = "//" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return strings.ToLower(strings.TrimRight(strings.TrimSpace(site), "/"))
	}
	host := strings.ToLower(u.Host)
	if (u.Scheme == "https" && strings.HasSuffix(host, ":443")) || (u.Scheme == "http" && strings.HasSuffix(host, ":80")) {
		host = host[:strings.LastIndexByte(host, ':')]
	}
	host = strings.TrimPrefix(host, "www.")
	return host + strings.TrimRight(strings.ToLower(u.Path), "/")
}
