package site

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
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

// TestDemoContentIsDated: the hand-made content of a new SQLite site has
// the date it was made, not the zero time.
func TestDemoContentIsDated(t *testing.T) {
	ctx := context.Background()
	before := time.Now().UTC().Truncate(time.Second)
	st, err := Open(ctx, filepath.Join(t.TempDir(), "site.db"), "", contentgen.Site{URL: "http://127.0.0.1:1"}, nil)
	require.NoError(t, err)
	defer st.Close()
	require.True(t, st.Fresh)
	posts, err := st.Host.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	require.Len(t, posts, 2, "the post and the page")
	comments, err := st.Host.Comments(ctx, contentgen.CommentQuery{})
	require.NoError(t, err)
	require.Len(t, comments, 1)
	users, err := st.Host.Users(ctx, contentgen.UserQuery{})
	require.NoError(t, err)
	require.Len(t, users, 1)
	for _, d := range []time.Time{posts[0].Date, posts[1].Date, comments[0].Date, users[0].Registered} {
		require.False(t, d.Before(before), "dated when the site was made, not %s", d)
	}
}
