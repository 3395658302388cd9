package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// KeySize is the size in bytes of an encryption key (AES-256).
const KeySize = 32

// Errors of Open and the key loaders; match them with errors.Is.
var (
	// ErrMalformed is returned for text that is not a sealed value.
	ErrMalformed = errors.New("secrets: malformed ciphertext")
	// ErrUnknownKeyVersion is returned when the ciphertext was sealed with a
	// key version the keyring does not hold (a wrong or missing encryption
	// key).
	ErrUnknownKeyVersion = errors.New("secrets: ciphertext was sealed with an encryption key this keyring does not hold")
	// ErrDecrypt is returned when authentication fails: the encryption key
	// is wrong, the purpose or subject differ from those used to seal, or
	// the ciphertext was tampered with.
	ErrDecrypt = errors.New("secrets: cannot decrypt: wrong encryption key, wrong purpose or subject, or tampered ciphertext")
	// ErrInvalidKey is returned for key material that is not KeySize bytes.
	ErrInvalidKey = errors.New("secrets: invalid encryption key")
)

// Key is one encryption key of a Keyring.
type Key struct {
	// Version identifies the key in ciphertexts; it must be at least 1.
	Version uint32
	// Secret is KeySize random bytes.
	Secret []byte
}

// Keyring seals with its current key and opens with any of its keys. It is
// immutable and safe for concurrent use. It never reveals key material
// when printed or logged.
type Keyring struct {
	current uint32
	aeads   map[uint32]cipher.AEAD
}

// NewKeyring returns a keyring whose current (sealing) key is the one with
// the highest version. Versions must be unique and at least 1 and every
// secret KeySize bytes; errors name the offending version but never the
// key.
func NewKeyring(keys ...Key) (*Keyring, error) {
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w: no key given", ErrInvalidKey)
	}
	kr := &Keyring{aeads: make(map[uint32]cipher.AEAD, len(keys))}
	for _, k := range keys {
		if k.Version == 0 {
			return nil, fmt.Errorf("%w: version must be at least 1", ErrInvalidKey)
		}
		if len(k.Secret) != KeySize {
			return nil, fmt.Errorf("%w: version %d has %d bytes, want %d", ErrInvalidKey, k.Version, len(k.Secret), KeySize)
		}
		if _, dup := kr.aeads[k.Version]; dup {
			return nil, fmt.Errorf("%w: version %d given twice", ErrInvalidKey, k.Version)
		}
		block, err := aes.NewCipher(k.Secret)
		if err != nil {
			return nil, fmt.Errorf("%w: version %d: %v", ErrInvalidKey, k.Version, err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("%w: version %d: %v", ErrInvalidKey, k.Version, err)
		}
		kr.aeads[k.Version] = aead
		kr.current = max(kr.current, k.Version)
	}
	return kr, nil
}

// NewKeyringFromKey returns a keyring of the single key secret as version
// 1, for embedders that hold one 32-byte key.
func NewKeyringFromKey(secret []byte) (*Keyring, error) {
	return NewKeyring(Key{Version: 1, Secret: secret})
}

// GenerateKey returns KeySize random bytes from crypto/rand.
func GenerateKey() []byte {
	k := make([]byte, KeySize)
	_, _ = rand.Read(k) // never fails (crypto/rand panics instead)
	return k
}

// CurrentVersion returns the version of the sealing key.
func (k *Keyring) CurrentVersion() uint32 { return k.current }

// Versions returns the key versions held, in ascending order.
func (k *Keyring) Versions() []uint32 {
	vs := make([]uint32, 0, len(k.aeads))
	for v := range k.aeads {
		vs = append(vs, v)
	}
	slices.Sort(vs)
	return vs
}

// String describes the keyring without key material.
func (k *Keyring) String() string {
	return fmt.Sprintf("secrets.Keyring{current: v%d, versions: %v}", k.current, k.Versions())
}

// GoString is String, so %#v reveals nothing either.
func (k *Keyring) GoString() string { return k.String() }

// LogValue implements slog.LogValuer without key material.
func (k *Keyring) LogValue() slog.Value { return slog.StringValue(k.String()) }

// additionalData binds a ciphertext to its key version, purpose and
// subject, each length-prefixed so that no two inputs collide.
func additionalData(version uint32, purpose, subject string) []byte {
	ad := make([]byte, 0, 32+len(purpose)+len(subject))
	ad = append(ad, "contentgen-secrets/1"...)
	ad = binary.BigEndian.AppendUint32(ad, version)
	ad = binary.BigEndian.AppendUint32(ad, uint32(len(purpose)))
	ad = append(ad, purpose...)
	ad = binary.BigEndian.AppendUint32(ad, uint32(len(subject)))
	ad = append(ad, subject...)
	return ad
}

// Seal encrypts plaintext with the current key for purpose and subject and
// returns "v<version>:<base64url>". Sealing the same plaintext twice gives
// different ciphertexts (fresh random nonce).
func (k *Keyring) Seal(plaintext []byte, purpose, subject string) string {
	aead := k.aeads[k.current]
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plaintext)+aead.Overhead())
	_, _ = rand.Read(nonce)
	sealed := aead.Seal(nonce, nonce, plaintext, additionalData(k.current, purpose, subject))
	return "v" + strconv.FormatUint(uint64(k.current), 10) + ":" + base64.RawURLEncoding.EncodeToString(sealed)
}

// SealString is Seal for a string.
func (k *Keyring) SealString(plaintext, purpose, subject string) string {
	return k.Seal([]byte(plaintext), purpose, subject)
}

// Version returns the key version a ciphertext was sealed with, or an
// error wrapping ErrMalformed.
func Version(ciphertext string) (uint32, error) {
	v, _, err := split(ciphertext)
	return v, err
}

func split(ciphertext string) (uint32, []byte, error) {
	prefix, body, ok := strings.Cut(ciphertext, ":")
	if !ok || len(prefix) < 2 || prefix[0] != 'v' {
		return 0, nil, fmt.Errorf("%w: missing key version prefix", ErrMalformed)
	}
	v, err := strconv.ParseUint(prefix[1:], 10, 32)
	if err != nil || v == 0 {
		return 0, nil, fmt.Errorf("%w: bad key version", ErrMalformed)
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return 0, nil, fmt.Errorf("%w: bad encoding", ErrMalformed)
	}
	return uint32(v), raw, nil
}

// Open decrypts a ciphertext of Seal for the same purpose and subject. It
// fails with ErrMalformed for text that is not a sealed value,
// ErrUnknownKeyVersion when the key that sealed it is not in the keyring,
// and ErrDecrypt when the key is wrong, the purpose or subject differ, or
// the ciphertext was altered.
func (k *Keyring) Open(ciphertext, purpose, subject string) ([]byte, error) {
	v, raw, err := split(ciphertext)
	if err != nil {
		return nil, err
	}
	aead, ok := k.aeads[v]
	if !ok {
		return nil, fmt.Errorf("%w (key version %d; keyring holds %v)", ErrUnknownKeyVersion, v, k.Versions())
	}
	if len(raw) < aead.NonceSize()+aead.Overhead() {
		return nil, fmt.Errorf("%w: too short", ErrMalformed)
	}
	nonce, sealed := raw[:aead.NonceSize()], raw[aead.NonceSize():]
	plain, err := aead.Open(nil, nonce, sealed, additionalData(v, purpose, subject))
	if err != nil {
		return nil, fmt.Errorf("%w (key version %d)", ErrDecrypt, v)
	}
	return plain, nil
}

// OpenString is Open returning a string.
func (k *Keyring) OpenString(ciphertext, purpose, subject string) (string, error) {
	p, err := k.Open(ciphertext, purpose, subject)
	return string(p), err
}

// NeedsReseal reports whether ciphertext was sealed with a key other than
// the current one (a malformed ciphertext also needs attention: true).
func (k *Keyring) NeedsReseal(ciphertext string) bool {
	v, err := Version(ciphertext)
	return err != nil || v != k.current
}

// Reseal opens ciphertext and, when it was sealed with an older key, seals
// it again with the current key. It returns the ciphertext to store and
// whether it changed; a ciphertext already under the current key is
// returned unchanged.
func (k *Keyring) Reseal(ciphertext, purpose, subject string) (string, bool, error) {
	plain, err := k.Open(ciphertext, purpose, subject)
	if err != nil {
		return ciphertext, false, err
	}
	if !k.NeedsReseal(ciphertext) {
		return ciphertext, false, nil
	}
	out := k.Seal(plain, purpose, subject)
	clear(plain)
	return out, true, nil
}

// maskPrefix replaces the hidden part of a masked secret; its length does
// not depend on the secret's.
const maskPrefix = "********"

// Mask returns a display form of secret that shows at most its last four
// characters: "" for an empty secret, "********" for secrets shorter than
// 12 characters (showing four of them would give away too much), and
// "********" followed by the last four characters otherwise.
func Mask(secret string) string {
	n := utf8.RuneCountInString(secret)
	if n == 0 {
		return ""
	}
	if n < 12 {
		return maskPrefix
	}
	r := []rune(secret)
	return maskPrefix + string(r[n-4:])
}
