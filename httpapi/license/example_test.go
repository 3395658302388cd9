package license_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"time"

	"github.com/contentgen/contentgen/httpapi/license"
)

func Example() {
	// The issuer holds the private key; the service is configured with the
	// public one.
	seed := make([]byte, ed25519.SeedSize) // use ed25519.GenerateKey in real code
	priv := ed25519.NewKeyFromSeed(seed)
	pub := priv.Public().(ed25519.PublicKey)

	issued := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	key, _ := license.Issue(priv, license.Claims{Plan: "pro", Site: "example.com", Issued: issued, Expires: issued.AddDate(1, 0, 0)})

	m, _ := license.NewManager(pub, &license.Options{Now: func() time.Time { return issued.AddDate(0, 1, 0) }})
	st, err := m.Activate(context.Background(), key, "https://www.example.com")
	fmt.Println(st.Status, st.Plan, st.ExpiresAt.Format("2006-01-02"), st.Site, err)

	_, err = m.Activate(context.Background(), key[:len(key)-2]+"AA", "example.com")
	fmt.Println(license.IsKeyError(err), license.UserMessage(err))
	// Output:
	// active pro 2026-01-01 example.com <nil>
	// true Licence key signature is not valid.
}
