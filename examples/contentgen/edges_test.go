package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/httpapi"
)

// TestUnknownSubcommandFails: a command that groups subcommands fails on
// a missing or unknown one, naming the ones it has.
func TestUnknownSubcommandFails(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"generate", "bogus"}, {"generate"}, {"templates", "bogus"}, {"media"}, {"bogus"}} {
		r := runCLI(t, false, "", args...)
		require.Equal(t, exitUsage, r.code, "%v: %s", args, r.stderr)
		if len(args) == 2 {
			require.Contains(t, r.stderr, `unknown command "bogus"`, args)
		}
	}
	r := runCLI(t, false, "", "generate", "bogus")
	require.Contains(t, r.stderr, "posts, terms, users", "the message names the commands there are")
}

// TestUninstallNeedsAWordPressDatabase: uninstall is for a WordPress
// site's database only (the WordPress tests run it on a real site).
func TestUninstallNeedsAWordPressDatabase(t *testing.T) {
	t.Parallel()
	r := runCLI(t, false, "", "uninstall", "--db", "memory", "--yes")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "--wordpress-db")
}

func TestVersion(t *testing.T) {
	t.Parallel()
	r := runCLI(t, false, "", "--version")
	require.Equal(t, 0, r.code, r.stderr)
	require.True(t, strings.HasPrefix(r.stdout, "contentgen "), r.stdout)
	require.Contains(t, r.stdout, "go1.")
}

// TestLocaleErrorSaysWhereTheLocalesAre: an unsupported locale names the
// supported ones and the command that lists them, which exists.
func TestLocaleErrorSaysWhereTheLocalesAre(t *testing.T) {
	t.Parallel()
	r := runCLI(t, false, "", "generate", "posts", "--db", "memory", "--count", "1", "--locale", "xx_YY")
	require.Equal(t, exitUsage, r.code, r.stderr)
	require.Contains(t, r.stderr, "--locale: ")
	require.Contains(t, r.stderr, "de_DE, en_GB, en_US")
	require.Contains(t, r.stderr, "contentgen locales")

	r = runCLI(t, false, "", "locales", "--db", "memory")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "de_DE  German (Germany)")
	require.Regexp(t, `(?m)^en_US +English \(United States\) +English \(United States\)  \(default\)$`, r.stdout)
}

// TestErrorsNameTheFlagsAsSpelled: errors of the site name --db, not the
// server's -db.
func TestErrorsNameTheFlagsAsSpelled(t *testing.T) {
	t.Parallel()
	r := runCLI(t, false, "", "history", "--db", filepath.Join(t.TempDir(), "missing", "site.db"))
	require.Equal(t, exitFailure, r.code)
	require.Contains(t, r.stderr, "contentgen: --db ")

	r = runCLI(t, false, "", "--wordpress-url", "http://127.0.0.1:1", "--wordpress-user", "admin",
		"--wordpress-app-password", "x", "--wordpress-uploads", "/tmp", "history")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "--wordpress-uploads needs --wordpress-db")
}

// TestSettingsShowsEverySetting: settings lists every setting of GET
// /settings and the AI settings, and --set changes any of them.
func TestSettingsShowsEverySetting(t *testing.T) {
	t.Parallel()
	db, _ := newSiteFile(t)
	r := runCLI(t, false, "", "settings", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	for _, typ := range []reflect.Type{reflect.TypeFor[contentgen.GeneralSettings](), reflect.TypeFor[httpapi.Preferences]()} {
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			require.Contains(t, r.stdout, name+" ", "settings shows %s", name)
		}
	}
	require.Contains(t, r.stdout, "ai_provider")

	r = runCLI(t, false, "", "settings", "--db", db, "--set", "delete_related_media=false", "--set", "default_post_count=20", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var got struct {
		Settings map[string]any `json:"settings"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	require.Equal(t, false, got.Settings["delete_related_media"])
	require.Equal(t, 20.0, got.Settings["default_post_count"])

	r = runCLI(t, false, "", "settings", "--db", db, "--set", "no_such_setting=1")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "no_such_setting")
	r = runCLI(t, false, "", "settings", "--db", db, "--set", "default_post_count=many")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "--set default_post_count: want a whole number, got string")
	r = runCLI(t, false, "", "settings", "--db", db, "--set", "default_post_count=0")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "default_post_count")
}

// TestTemplateCommands: get, export, import and delete, as the API's
// template endpoints do.
func TestTemplateCommands(t *testing.T) {
	t.Parallel()
	db, _ := newSiteFile(t)
	r := runCLI(t, false, "", "templates", "get", "2", "--db", db, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var got struct {
		Template struct {
			ID       int64  `json:"id"`
			PostType string `json:"post_type"`
		} `json:"template"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got), r.stdout)
	require.Equal(t, int64(2), got.Template.ID)

	r = runCLI(t, false, "", "templates", "export", "--ids", "2", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	file := filepath.Join(t.TempDir(), "templates.json")
	require.NoError(t, os.WriteFile(file, []byte(r.stdout), 0o644))

	r = runCLI(t, false, "", "templates", "import", file, "--db", db, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var imported struct {
		Results []struct {
			ID int64 `json:"id"`
		} `json:"results"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &imported), r.stdout)
	require.Len(t, imported.Results, 1)
	id := imported.Results[0].ID
	require.NotZero(t, id)

	r = runCLI(t, false, "", "templates", "delete", strconvI(id), "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	r = runCLI(t, false, "", "templates", "get", strconvI(id), "--db", db)
	require.Equal(t, exitUsage, r.code, "the template is gone: %s", r.stderr)
	r = runCLI(t, false, "", "templates", "get", "x", "--db", db)
	require.Equal(t, exitUsage, r.code)
}

// TestMediaCommands: download, upload and list, as the API's media
// endpoints do.
func TestMediaCommands(t *testing.T) {
	t.Parallel()
	db, _ := newSiteFile(t)
	r := runCLI(t, false, "", "media", "download", "--db", db, "--count", "2", "--provider", "provider_local", "--width", "120")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "Generated 2 images")

	doc := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(doc, []byte("plain notes\n"), 0o644))
	r = runCLI(t, false, "", "media", "upload", doc, "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "Uploaded")

	r = runCLI(t, false, "", "media", "list", "--db", db, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var images struct {
		Total int `json:"total"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &images))
	require.Equal(t, 2, images.Total)
	r = runCLI(t, false, "", "media", "list", "--files", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "notes")
}

func strconvI(id int64) string { return strconv.FormatInt(id, 10) }
