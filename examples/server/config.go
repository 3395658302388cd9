package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/secrets"
	"github.com/contentgen/contentgen/httpapi/license"
	"github.com/contentgen/contentgen/providers/ai"
)

// Environment variables read by the server.
const (
	// envSecretKey holds the keyring that encrypts stored API keys (one
	// "<version>:<base64>" per comma-separated entry); when unset, the key
	// file is used.
	envSecretKey = "CONTENTGEN_SECRET_KEY"
	// envLicenseKey holds the ed25519 public key that verifies licence
	// keys, when -license-public-key is not given.
	envLicenseKey = "CONTENTGEN_LICENSE_PUBLIC_KEY"
)

// defaultKeyFile is where the encryption key is kept when no other is
// given: in the user's configuration directory, never beside the data.
func defaultKeyFile() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "contentgen", "secret.key")
}

// loadKeyring returns the keyring from the environment, else from keyFile,
// creating that file with a new key (0600) on first start.
func loadKeyring(keyFile string) (*secrets.Keyring, string, error) {
	if kr, ok, err := secrets.KeyringFromEnv(envSecretKey); err != nil {
		return nil, "", fmt.Errorf("%s: %w", envSecretKey, err)
	} else if ok {
		return kr, "from " + envSecretKey, nil
	}
	if keyFile == "" {
		return nil, "", nil
	}
	kr, created, err := secrets.LoadOrCreateKeyFile(keyFile)
	if err != nil {
		return nil, "", fmt.Errorf("key file %s: %w", keyFile, err)
	}
	if created {
		return kr, "created " + keyFile, nil
	}
	return kr, "from " + keyFile, nil
}

// aiProviders reads the base URL and model of each AI provider from
// CONTENTGEN_AI_ONE_BASE_URL, CONTENTGEN_AI_ONE_MODEL and likewise for
// AI_TWO and AI_THREE. A provider without both is not available. one,
// when set, configures ai_one instead (the -ai-base-url and -ai-model
// flags).
func aiProviders(one *ai.Options) map[string]ai.Options {
	out := map[string]ai.Options{}
	defer func() {
		if one != nil {
			out[contentgen.AIOne] = *one
		}
	}()
	for _, slug := range []string{contentgen.AIOne, contentgen.AITwo, contentgen.AIThree} {
		prefix := "CONTENTGEN_" + strings.ToUpper(slug) + "_"
		base, model := os.Getenv(prefix+"BASE_URL"), os.Getenv(prefix+"MODEL")
		if base != "" && model != "" {
			out[slug] = ai.Options{BaseURL: base, Model: model, Timeout: 30 * time.Second}
		}
	}
	return out
}

// licenseManager returns the offline licence verifier for the public key
// given by flag or environment, or nil when there is none.
func licenseManager(publicKey string) (license.LicenseManager, error) {
	if publicKey == "" {
		publicKey = os.Getenv(envLicenseKey)
	}
	if publicKey == "" {
		return nil, nil
	}
	pub, err := license.ParsePublicKey(publicKey)
	if err != nil {
		return nil, fmt.Errorf("licence public key: %w", err)
	}
	return license.NewManager(pub, nil)
}
