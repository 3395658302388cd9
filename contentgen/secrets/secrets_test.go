package secrets_test

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen/secrets"
)

const apiKey = "sk-live-9f8e7d6c5b4a39281706ABCD"

func keyring(t *testing.T, keys ...secrets.Key) *secrets.Keyring {
	t.Helper()
	kr, err := secrets.NewKeyring(keys...)
	require.NoError(t, err)
	return kr
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	kr := keyring(t, secrets.Key{Version: 1, Secret: secrets.GenerateKey()})
	a := kr.SealString(apiKey, "ai_api_key", "ai_one")
	b := kr.SealString(apiKey, "ai_api_key", "ai_one")
	require.NotEqual(t, a, b, "fresh nonce per seal")
	require.True(t, strings.HasPrefix(a, "v1:"))
	require.NotContains(t, a, apiKey)
	for _, c := range []string{a, b} {
		got, err := kr.OpenString(c, "ai_api_key", "ai_one")
		require.NoError(t, err)
		require.Equal(t, apiKey, got)
	}
	empty := kr.Seal(nil, "p", "s")
	got, err := kr.Open(empty, "p", "s")
	require.NoError(t, err)
	require.Empty(t, got)
}

func TestWrongAdditionalDataFails(t *testing.T) {
	t.Parallel()
	kr := keyring(t, secrets.Key{Version: 1, Secret: secrets.GenerateKey()})
	c := kr.SealString(apiKey, "ai_api_key", "ai_one")
	for _, tc := range []struct{ purpose, subject string }{
		{"ai_api_key", "ai_two"},
		{"license", "ai_one"},
		{"ai_api_keyai_one", ""}, // boundaries cannot shift
		{"", "ai_api_keyai_one"},
	} {
		_, err := kr.Open(c, tc.purpose, tc.subject)
		require.ErrorIs(t, err, secrets.ErrDecrypt, "%+v", tc)
	}
}

func TestTamperingFails(t *testing.T) {
	t.Parallel()
	kr := keyring(t, secrets.Key{Version: 1, Secret: secrets.GenerateKey()})
	c := kr.SealString(apiKey, "ai_api_key", "ai_one")
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(c, "v1:"))
	require.NoError(t, err)
	for i := range raw {
		flipped := append([]byte(nil), raw...)
		flipped[i] ^= 0x01
		_, err := kr.Open("v1:"+base64.RawURLEncoding.EncodeToString(flipped), "ai_api_key", "ai_one")
		require.ErrorIs(t, err, secrets.ErrDecrypt, "byte %d", i)
	}
	_, err = kr.Open("v1:"+base64.RawURLEncoding.EncodeToString(raw[:len(raw)-1]), "ai_api_key", "ai_one")
	require.ErrorIs(t, err, secrets.ErrDecrypt)

	for _, bad := range []string{"", "plain text", "v1", "1:abc", "v0:abc", "vx:abc", "v1:***", "v1:" + base64.RawURLEncoding.EncodeToString([]byte("short"))} {
		_, err := kr.Open(bad, "ai_api_key", "ai_one")
		require.ErrorIs(t, err, secrets.ErrMalformed, "%q", bad)
	}
}

func TestWrongEncryptionKey(t *testing.T) {
	t.Parallel()
	one := keyring(t, secrets.Key{Version: 1, Secret: secrets.GenerateKey()})
	other := keyring(t, secrets.Key{Version: 1, Secret: secrets.GenerateKey()})
	c := one.SealString(apiKey, "ai_api_key", "ai_one")
	_, err := other.Open(c, "ai_api_key", "ai_one")
	require.ErrorIs(t, err, secrets.ErrDecrypt)
	require.Contains(t, err.Error(), "wrong encryption key")

	v2 := keyring(t, secrets.Key{Version: 2, Secret: secrets.GenerateKey()})
	_, err = v2.Open(c, "ai_api_key", "ai_one")
	require.ErrorIs(t, err, secrets.ErrUnknownKeyVersion)
	require.Contains(t, err.Error(), "key version 1")
}

func TestRotation(t *testing.T) {
	t.Parallel()
	k1 := secrets.Key{Version: 1, Secret: secrets.GenerateKey()}
	k2 := secrets.Key{Version: 2, Secret: secrets.GenerateKey()}
	old := keyring(t, k1)
	c1 := old.SealString(apiKey, "ai_api_key", "ai_three")

	rotated := keyring(t, k2, k1) // order does not matter: highest is current
	require.Equal(t, uint32(2), rotated.CurrentVersion())
	require.Equal(t, []uint32{1, 2}, rotated.Versions())
	got, err := rotated.OpenString(c1, "ai_api_key", "ai_three")
	require.NoError(t, err)
	require.Equal(t, apiKey, got)
	require.True(t, rotated.NeedsReseal(c1))

	c2, changed, err := rotated.Reseal(c1, "ai_api_key", "ai_three")
	require.NoError(t, err)
	require.True(t, changed)
	require.True(t, strings.HasPrefix(c2, "v2:"))
	require.False(t, rotated.NeedsReseal(c2))
	same, changed, err := rotated.Reseal(c2, "ai_api_key", "ai_three")
	require.NoError(t, err)
	require.False(t, changed)
	require.Equal(t, c2, same)
	v, err := secrets.Version(c2)
	require.NoError(t, err)
	require.Equal(t, uint32(2), v)

	// After dropping key 1, the resealed value still opens.
	only2 := keyring(t, k2)
	got, err = only2.OpenString(c2, "ai_api_key", "ai_three")
	require.NoError(t, err)
	require.Equal(t, apiKey, got)
	_, _, err = only2.Reseal(c1, "ai_api_key", "ai_three")
	require.ErrorIs(t, err, secrets.ErrUnknownKeyVersion)
}

func TestNewKeyringValidates(t *testing.T) {
	t.Parallel()
	good := secrets.GenerateKey()
	for _, keys := range [][]secrets.Key{
		nil,
		{{Version: 0, Secret: good}},
		{{Version: 1, Secret: good[:16]}},
		{{Version: 1, Secret: good}, {Version: 1, Secret: secrets.GenerateKey()}},
	} {
		_, err := secrets.NewKeyring(keys...)
		require.ErrorIs(t, err, secrets.ErrInvalidKey)
	}
	_, err := secrets.NewKeyringFromKey(make([]byte, 31))
	require.ErrorIs(t, err, secrets.ErrInvalidKey)
	kr, err := secrets.NewKeyringFromKey(good)
	require.NoError(t, err)
	require.Equal(t, uint32(1), kr.CurrentVersion())
}

func TestKeyringNeverPrintsKeys(t *testing.T) {
	t.Parallel()
	secret := secrets.GenerateKey()
	kr := keyring(t, secrets.Key{Version: 3, Secret: secret})
	var logs bytes.Buffer
	slog.New(slog.NewTextHandler(&logs, nil)).Info("loaded", "keyring", kr)
	out := fmt.Sprintf("%v %+v %#v %s", kr, kr, kr, kr) + logs.String()
	for _, enc := range []string{
		base64.StdEncoding.EncodeToString(secret),
		base64.RawURLEncoding.EncodeToString(secret),
		hex.EncodeToString(secret),
		string(secret),
	} {
		require.NotContains(t, out, enc)
	}
	require.Contains(t, out, "current: v3")
}

func TestMask(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":             "",
		"abc":          "********",
		"abcdefghijk":  "********",
		"abcdefghijkl": "********ijkl",
		apiKey:         "********ABCD",
		"ключ-очень-секретный-ЖЗИК": "********ЖЗИК",
	} {
		got := secrets.Mask(in)
		require.Equal(t, want, got, in)
		if in != "" {
			require.NotContains(t, got, in)
		}
	}
}

func TestParseKeyring(t *testing.T) {
	t.Parallel()
	k := secrets.GenerateKey()
	k2 := secrets.GenerateKey()
	for name, text := range map[string]string{
		"bare std":       base64.StdEncoding.EncodeToString(k),
		"bare raw url":   base64.RawURLEncoding.EncodeToString(k) + "\n",
		"bare hex":       hex.EncodeToString(k),
		"versioned":      "# keys\n\n1:" + base64.StdEncoding.EncodeToString(k) + "\n",
		"commented list": "# a, b: c\n" + secrets.FormatKey(secrets.Key{Version: 1, Secret: k}),
	} {
		kr, err := secrets.ParseKeyring(text)
		require.NoError(t, err, name)
		require.Equal(t, uint32(1), kr.CurrentVersion(), name)
		other, _ := secrets.NewKeyringFromKey(k)
		got, err := kr.OpenString(other.SealString("x", "p", "s"), "p", "s")
		require.NoError(t, err, name)
		require.Equal(t, "x", got, name)
	}
	kr, err := secrets.ParseKeyring("1:" + hex.EncodeToString(k) + ", 7:" + base64.StdEncoding.EncodeToString(k2))
	require.NoError(t, err)
	require.Equal(t, uint32(7), kr.CurrentVersion())

	for name, text := range map[string]string{
		"empty":         "",
		"short":         base64.StdEncoding.EncodeToString(k[:20]),
		"garbage":       "not a key!",
		"two bare":      base64.StdEncoding.EncodeToString(k) + "\n" + base64.StdEncoding.EncodeToString(k2),
		"bad version":   "x:" + base64.StdEncoding.EncodeToString(k),
		"zero version":  "0:" + base64.StdEncoding.EncodeToString(k),
		"dupe versions": "1:" + base64.StdEncoding.EncodeToString(k) + "\n1:" + base64.StdEncoding.EncodeToString(k2),
	} {
		_, err := secrets.ParseKeyring(text)
		require.ErrorIs(t, err, secrets.ErrInvalidKey, name)
		require.NotContains(t, err.Error(), base64.StdEncoding.EncodeToString(k), name)
	}
}

func TestKeyringFromEnv(t *testing.T) { // not parallel: sets the environment
	const name = "CONTENTGEN_TEST_SECRETS_KEY"
	t.Setenv(name, "")
	_, ok, err := secrets.KeyringFromEnv(name)
	require.NoError(t, err)
	require.False(t, ok)

	k := secrets.GenerateKey()
	t.Setenv(name, "1:"+base64.StdEncoding.EncodeToString(k)+",2:"+base64.StdEncoding.EncodeToString(secrets.GenerateKey()))
	kr, ok, err := secrets.KeyringFromEnv(name)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, uint32(2), kr.CurrentVersion())

	t.Setenv(name, "nope")
	_, ok, err = secrets.KeyringFromEnv(name)
	require.True(t, ok)
	require.ErrorIs(t, err, secrets.ErrInvalidKey)
	require.Contains(t, err.Error(), name)
}

func TestLoadOrCreateKeyFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "conf", "secret.key")
	kr, created, err := secrets.LoadOrCreateKeyFile(path)
	require.NoError(t, err)
	require.True(t, created)
	c := kr.SealString(apiKey, "ai_api_key", "ai_one")

	if runtime.GOOS != "windows" {
		st, err := os.Stat(path)
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
		dir, err := os.Stat(filepath.Dir(path))
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o700), dir.Mode().Perm())
	}

	again, created, err := secrets.LoadOrCreateKeyFile(path)
	require.NoError(t, err)
	require.False(t, created, "an existing file is reused")
	got, err := again.OpenString(c, "ai_api_key", "ai_one")
	require.NoError(t, err)
	require.Equal(t, apiKey, got)

	// A broken file is reported, never replaced.
	bad := filepath.Join(t.TempDir(), "bad.key")
	require.NoError(t, os.WriteFile(bad, []byte("garbage"), 0o600))
	_, _, err = secrets.LoadOrCreateKeyFile(bad)
	require.ErrorIs(t, err, secrets.ErrInvalidKey)
	data, _ := os.ReadFile(bad)
	require.Equal(t, "garbage", string(data))
}

func TestLoadOrCreateKeyFileConcurrent(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "secret.key")
	var wg sync.WaitGroup
	var mu sync.Mutex
	creations := 0
	rings := make([]*secrets.Keyring, 6)
	for i := range rings {
		wg.Add(1)
		go func() {
			defer wg.Done()
			kr, created, err := secrets.LoadOrCreateKeyFile(path)
			if err != nil {
				t.Error(err)
				return
			}
			rings[i] = kr
			if created {
				mu.Lock()
				creations++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	require.Equal(t, 1, creations)
	final, err := secrets.LoadKeyringFile(path)
	require.NoError(t, err)
	c := final.SealString("x", "p", "s")
	for _, kr := range rings {
		_, err := kr.Open(c, "p", "s")
		require.NoError(t, err)
	}
}

func TestAddKeyVersion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "secret.key")
	k := secrets.GenerateKey()
	require.NoError(t, os.WriteFile(path, []byte("# mine\n"+base64.StdEncoding.EncodeToString(k)+"\n"), 0o600))
	v1, err := secrets.LoadKeyringFile(path)
	require.NoError(t, err)
	c1 := v1.SealString(apiKey, "ai_api_key", "ai_two")

	v2, err := secrets.AddKeyVersion(path)
	require.NoError(t, err)
	require.Equal(t, uint32(2), v2.CurrentVersion())
	c2, changed, err := v2.Reseal(c1, "ai_api_key", "ai_two")
	require.NoError(t, err)
	require.True(t, changed)

	reread, err := secrets.LoadKeyringFile(path)
	require.NoError(t, err)
	require.Equal(t, []uint32{1, 2}, reread.Versions())
	got, err := reread.OpenString(c2, "ai_api_key", "ai_two")
	require.NoError(t, err)
	require.Equal(t, apiKey, got)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(data), "# mine\n1:"))
	if runtime.GOOS != "windows" {
		st, err := os.Stat(path)
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	require.Len(t, entries, 1, "no temporary file left behind")
}
