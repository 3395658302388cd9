package secrets_test

import (
	"errors"
	"testing"

	"github.com/contentgen/contentgen/contentgen/secrets"
)

// FuzzOpen checks that arbitrary text never opens and always fails with
// one of the documented errors.
func FuzzOpen(f *testing.F) {
	kr, err := secrets.NewKeyringFromKey(make([]byte, secrets.KeySize))
	if err != nil {
		f.Fatal(err)
	}
	good := kr.SealString("secret", "p", "s")
	for _, s := range []string{good, "", "v1:", "v2:" + good[3:], "v1:AAAA", good[:len(good)-2]} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, c string) {
		p, err := kr.OpenString(c, "p", "s")
		if err == nil {
			if p != "secret" {
				t.Fatalf("opened %q", p)
			}
			return
		}
		if !errors.Is(err, secrets.ErrMalformed) && !errors.Is(err, secrets.ErrDecrypt) && !errors.Is(err, secrets.ErrUnknownKeyVersion) {
			t.Fatalf("unexpected error %v", err)
		}
	})
}

func BenchmarkSealOpen(b *testing.B) {
	kr, _ := secrets.NewKeyringFromKey(secrets.GenerateKey())
	b.ReportAllocs()
	for b.Loop() {
		c := kr.SealString("sk-live-9f8e7d6c5b4a39281706ABCD", "ai_api_key", "ai_one")
		if _, err := kr.Open(c, "ai_api_key", "ai_one"); err != nil {
			b.Fatal(err)
		}
	}
}
