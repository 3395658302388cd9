package wphost_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/wphost"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/local"
)

// TestUninstall fills the real site, and after the cleanup removes
// contentgen's own tables and the empty upload folders, leaving
// WordPress's tables and every folder with a file.
func TestUninstall(t *testing.T) {
	o := siteOptions(t)
	if o.Uploads == "" {
		t.Skipf("set %s to the site's uploads directory to run this test", envUploads)
	}
	ctx := t.Context()
	raw, err := sql.Open("mysql", o.DSN)
	require.NoError(t, err)
	defer raw.Close()
	tablesLike := func(pattern string) []string {
		rows, err := raw.QueryContext(ctx, "SHOW TABLES LIKE '"+pattern+"'")
		require.NoError(t, err)
		defer rows.Close()
		var out []string
		for rows.Next() {
			var name string
			require.NoError(t, rows.Scan(&name))
			out = append(out, name)
		}
		require.NoError(t, rows.Err())
		return out
	}
	core := tablesLike(`wp\_%`)

	// Folders of the uploads directory that are not contentgen's to
	// remove: one with a file, one not named by a date.
	kept := filepath.Join(o.Uploads, "1999", "01")
	require.NoError(t, os.MkdirAll(kept, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(kept, "by-hand.txt"), []byte("kept"), 0o644))
	custom := filepath.Join(o.Uploads, "custom-folder")
	require.NoError(t, os.MkdirAll(custom, 0o755))
	t.Cleanup(func() {
		os.RemoveAll(filepath.Join(o.Uploads, "1999"))
		os.RemoveAll(custom)
	})

	site, err := wphost.Open(ctx, o)
	require.NoError(t, err)
	img, err := local.New(nil)
	require.NoError(t, err)
	gen, err := contentgen.New(site.Host(), nil, &contentgen.Config{ImageProviders: []providers.ImageProvider{img}, Seed: ptr(int64(5))})
	require.NoError(t, err)
	res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: ptr(3), ImageProvider: providers.Local, ImageWidth: ptr(200), ImageHeight: ptr(120)})
	require.NoError(t, err)
	require.Equal(t, 3, res.WithFeaturedImage)
	own := tablesLike(`wp\_contentgen\_%`)
	require.Contains(t, own, "wp_contentgen_history")

	_, err = wphost.Uninstall(ctx, o)
	require.ErrorIs(t, err, wphost.ErrNotCleanedUp, "generated content is still there")
	require.Equal(t, own, tablesLike(`wp\_contentgen\_%`), "and nothing was dropped")

	_, err = gen.DeleteAll(ctx)
	require.NoError(t, err)
	require.NoError(t, site.Close())

	done, err := wphost.Uninstall(ctx, o)
	require.NoError(t, err)
	require.ElementsMatch(t, own, done.Tables)
	require.Empty(t, tablesLike(`wp\_contentgen\_%`), "contentgen's tables are gone")
	require.ElementsMatch(t, without(core, own), tablesLike(`wp\_%`), "WordPress's own tables stay")
	require.FileExists(t, filepath.Join(kept, "by-hand.txt"))
	require.DirExists(t, custom)
	for _, f := range done.Folders {
		require.NoDirExists(t, filepath.Join(o.Uploads, filepath.FromSlash(f)))
	}
	entries, err := os.ReadDir(o.Uploads)
	require.NoError(t, err)
	for _, e := range entries {
		if e.Name() == "1999" || e.Name() == "custom-folder" {
			continue
		}
		sub, _ := os.ReadDir(filepath.Join(o.Uploads, e.Name()))
		require.NotEmpty(t, sub, "no empty folder is left: %s", e.Name())
	}

	// Again, on a site without contentgen's tables: nothing to do.
	again, err := wphost.Uninstall(ctx, o)
	require.NoError(t, err)
	require.Empty(t, again.Tables)

	// A Site opened later makes the tables again.
	site, err = wphost.Open(context.Background(), o)
	require.NoError(t, err)
	require.NoError(t, site.Close())
}

// without is list without the names of drop.
func without(list, drop []string) []string {
	var out []string
	for _, s := range list {
		keep := true
		for _, d := range drop {
			keep = keep && s != d
		}
		if keep {
			out = append(out, s)
		}
	}
	return out
}
