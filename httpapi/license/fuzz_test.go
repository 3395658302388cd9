package license_test

import (
	"crypto/ed25519"
	"errors"
	"testing"

	"github.com/contentgen/contentgen/httpapi/license"
)

// FuzzVerify checks that arbitrary text never verifies and always fails
// with one of the key errors.
func FuzzVerify(f *testing.F) {
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	pub := priv.Public().(ed25519.PublicKey)
	good, err := license.Issue(priv, license.Claims{Plan: "pro", Issued: t0})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{good, "", "CGL1.", "CGL1.e30.AAAA", good[:len(good)-1], good + "."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		c, err := license.Verify(pub, key, t0)
		if err == nil {
			if c.Plan != "pro" {
				t.Fatalf("verified claims %+v not issued", c)
			}
			return
		}
		if !errors.Is(err, license.ErrMalformed) && !errors.Is(err, license.ErrForged) && !errors.Is(err, license.ErrExpired) {
			t.Fatalf("unexpected error %v", err)
		}
	})
}

func BenchmarkVerify(b *testing.B) {
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	pub := priv.Public().(ed25519.PublicKey)
	key, _ := license.Issue(priv, license.Claims{Plan: "pro", Issued: t0, Expires: t0.AddDate(1, 0, 0)})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := license.Verify(pub, key, t0); err != nil {
			b.Fatal(err)
		}
	}
}
