package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ParseKeyring reads keys from text: one key per line or per comma, each
// "<version>:<key>" where key is base64 (standard or URL alphabet, padded
// or not) or hex of KeySize bytes. A text of one bare key is version 1.
// Blank lines and lines starting with # are ignored. The highest version is
// current. Errors name the line but never the key.
func ParseKeyring(text string) (*Keyring, error) {
	var entries []string
	for _, line := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "#") {
			continue
		}
		for _, f := range strings.Split(line, ",") {
			if f = strings.TrimSpace(f); f != "" {
				entries = append(entries, f)
			}
		}
	}
	keys := make([]Key, 0, len(entries))
	for i, f := range entries {
		version := uint64(1)
		enc := f
		if v, rest, ok := strings.Cut(f, ":"); ok {
			parsed, err := strconv.ParseUint(strings.TrimSpace(v), 10, 32)
			if err != nil || parsed == 0 {
				return nil, fmt.Errorf("%w: entry %d: version must be a positive number", ErrInvalidKey, i+1)
			}
			version, enc = parsed, strings.TrimSpace(rest)
		} else if len(entries) > 1 {
			return nil, fmt.Errorf("%w: entry %d: several keys need \"<version>:\" prefixes", ErrInvalidKey, i+1)
		}
		secret, err := decodeKey(enc)
		if err != nil {
			return nil, fmt.Errorf("%w: entry %d (version %d): %v", ErrInvalidKey, i+1, version, err)
		}
		keys = append(keys, Key{Version: uint32(version), Secret: secret})
	}
	return NewKeyring(keys...)
}

// decodeKey accepts hex or any base64 form of KeySize bytes.
func decodeKey(s string) ([]byte, error) {
	if len(s) == 2*KeySize {
		if b, err := hex.DecodeString(s); err == nil {
			return b, nil
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			if len(b) != KeySize {
				return nil, fmt.Errorf("decodes to %d bytes, want %d", len(b), KeySize)
			}
			return b, nil
		}
	}
	return nil, errors.New("not base64 or hex")
}

// FormatKey returns the line for key in a key file: "<version>:<base64>".
func FormatKey(k Key) string {
	return strconv.FormatUint(uint64(k.Version), 10) + ":" + base64.StdEncoding.EncodeToString(k.Secret)
}

// LoadKeyringFile reads a keyring from the file at path (see ParseKeyring).
func LoadKeyringFile(path string) (*Keyring, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("secrets: reading key file: %w", err)
	}
	kr, err := ParseKeyring(string(data))
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return kr, nil
}

// KeyringFromEnv reads a keyring from the environment variable name (see
// ParseKeyring; separate several keys with commas). ok is false when the
// variable is unset or empty.
func KeyringFromEnv(name string) (kr *Keyring, ok bool, err error) {
	v := strings.TrimSpace(os.Getenv(name))
	if v == "" {
		return nil, false, nil
	}
	kr, err = ParseKeyring(v)
	if err != nil {
		return nil, true, fmt.Errorf("%w (environment variable %s)", err, name)
	}
	return kr, true, nil
}

// LoadOrCreateKeyFile returns the keyring in the file at path, creating
// the file first, with a new random version 1 key and permissions 0600
// (its directory 0700 if missing), when it does not exist. created reports
// whether it did. An existing file is never overwritten.
func LoadOrCreateKeyFile(path string) (kr *Keyring, created bool, err error) {
	if _, err := os.Stat(path); err == nil {
		kr, err := LoadKeyringFile(path)
		return kr, false, err
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, false, fmt.Errorf("secrets: key file: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, fmt.Errorf("secrets: key file directory: %w", err)
	}
	key := Key{Version: 1, Secret: GenerateKey()}
	content := "# contentgen encryption keys: <version>:<base64>, highest version current. Keep secret; back up.\n" + FormatKey(key) + "\n"
	// Write a private temporary file, then link it into place: readers never
	// see a half-written file and an existing file is never replaced.
	f, err := os.CreateTemp(filepath.Dir(path), ".keyfile-*")
	if err != nil {
		return nil, false, fmt.Errorf("secrets: creating key file: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := f.Chmod(0o600); err != nil {
		_ = f.Close()
		return nil, false, fmt.Errorf("secrets: creating key file: %w", err)
	}
	if err := writeClose(f, content); err != nil {
		return nil, false, err
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) { // created concurrently: use that one
			kr, err := LoadKeyringFile(path)
			return kr, false, err
		}
		return nil, false, fmt.Errorf("secrets: creating key file: %w", err)
	}
	kr, err = NewKeyring(key)
	return kr, true, err
}

// AddKeyVersion appends a new random key, one version above the highest
// in the file at path, and returns the keyring with it current. Old keys
// stay in the file so existing ciphertexts still open; reseal them with
// Keyring.Reseal, then old lines may be removed.
func AddKeyVersion(path string) (*Keyring, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("secrets: reading key file: %w", err)
	}
	old, err := ParseKeyring(string(data))
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	// A single bare key becomes an explicit version 1 line.
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	for i, l := range lines {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") && !strings.Contains(t, ":") {
			lines[i] = "1:" + t
		}
	}
	text := strings.Join(lines, "\n")
	key := Key{Version: old.CurrentVersion() + 1, Secret: GenerateKey()}
	text = strings.TrimRight(text, "\n") + "\n" + FormatKey(key) + "\n"
	f, err := os.CreateTemp(filepath.Dir(path), ".keyfile-*") // mode 0600
	if err != nil {
		return nil, fmt.Errorf("secrets: writing key file: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // fails harmlessly after the rename
	if err := writeClose(f, text); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, fmt.Errorf("secrets: replacing key file: %w", err)
	}
	return LoadKeyringFile(path)
}

func writeClose(f *os.File, content string) error {
	_, err := f.WriteString(content)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("secrets: writing key file: %w", err)
	}
	return nil
}
