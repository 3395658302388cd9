// Package pgtest gives the example programs' tests a PostgreSQL schema of
// their own on the server CONTENTGEN_TEST_POSTGRES names.
package pgtest

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// Env names the PostgreSQL URL the tests use, such as
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable.
const Env = "CONTENTGEN_TEST_POSTGRES"

// Schema creates a new schema named prefix plus random hex on the server
// of Env, dropped when the test ends, and returns a URL whose connections
// work in it. Without Env it skips the test, saying what needs it.
func Schema(t testing.TB, prefix, what string) string {
	t.Helper()
	dsn := os.Getenv(Env)
	if dsn == "" {
		t.Skip(Env + " is not set: " + what + " needs a PostgreSQL URL")
	}
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatalf("%s: %v", Env, err)
	}
	t.Cleanup(func() { admin.Close() })
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := prefix + hex.EncodeToString(b[:])
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("creating schema %s: %v", schema, err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
		}
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "search_path=" + schema
}
