package site

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRedact(t *testing.T) {
	for dsn, want := range map[string]string{
		"contentgen.db":                              "contentgen.db",
		"/srv/sites/a@b.db":                          "/srv/sites/a@b.db",
		"postgres://alice:s3cret@db.example/site":    "postgres://alice@db.example/site",
		"postgres://alice@db.example/site":           "postgres://alice@db.example/site",
		"wp:p@ss:word@tcp(127.0.0.1:3306)/wordpress": "wp@tcp(127.0.0.1:3306)/wordpress",
		"mysql://wp:secret@tcp(127.0.0.1:3306)/wp":   "mysql://wp@tcp(127.0.0.1:3306)/wp",
		"root@tcp(127.0.0.1:3306)/test":              "root@tcp(127.0.0.1:3306)/test",
	} {
		require.Equal(t, want, Redact(dsn), dsn)
	}
}
