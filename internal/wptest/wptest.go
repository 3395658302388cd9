// Package wptest finds the WordPress site that the module's tests fill,
// and keeps tests of several packages from filling it at the same time.
//
// The site is named by environment variables (.ci/wordpress start prints
// them for a site it sets up):
//
//	CONTENTGEN_TEST_WORDPRESS_URL           the site, such as http://127.0.0.1:8000
//	CONTENTGEN_TEST_WORDPRESS_USER          an administrator
//	CONTENTGEN_TEST_WORDPRESS_APP_PASSWORD  an application password of that user
//	CONTENTGEN_TEST_WORDPRESS_DB            the go-sql-driver/mysql DSN of its database
//	CONTENTGEN_TEST_WORDPRESS_UPLOADS       its uploads directory
//	CONTENTGEN_TEST_WORDPRESS_ROOT          its WordPress directory (wp-load.php)
//
// Go runs the tests of different packages in parallel processes. Tests
// that remove generated content remove it site-wide (by the generated
// marker), so they take the site with Exclusive first.
package wptest

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Environment variables naming the test site.
const (
	EnvURL         = "CONTENTGEN_TEST_WORDPRESS_URL"
	EnvUser        = "CONTENTGEN_TEST_WORDPRESS_USER"
	EnvAppPassword = "CONTENTGEN_TEST_WORDPRESS_APP_PASSWORD"
	EnvDB          = "CONTENTGEN_TEST_WORDPRESS_DB"
	EnvUploads     = "CONTENTGEN_TEST_WORDPRESS_UPLOADS"
	EnvRoot        = "CONTENTGEN_TEST_WORDPRESS_ROOT"
)

// Site is the test site.
type Site struct {
	URL, User, AppPassword string
	DB, Uploads, Root      string
}

// Get returns the test site, or skips t with a message naming the
// variables it needs (URL, user and application password always, and the
// ones named in also, such as EnvDB).
func Get(t testing.TB, also ...string) Site {
	t.Helper()
	s := Site{
		URL: os.Getenv(EnvURL), User: os.Getenv(EnvUser), AppPassword: os.Getenv(EnvAppPassword),
		DB: os.Getenv(EnvDB), Uploads: os.Getenv(EnvUploads), Root: os.Getenv(EnvRoot),
	}
	var missing []string
	for _, name := range append([]string{EnvURL, EnvUser, EnvAppPassword}, also...) {
		if os.Getenv(name) == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		t.Skipf("no WordPress site to fill: set %s (.ci/wordpress start DIR prints them for a local site)", strings.Join(missing, ", "))
	}
	return s
}

// Exclusive keeps every other test that calls Exclusive for the same site,
// in this process or another, waiting until t and its subtests end.
func Exclusive(t testing.TB, s Site) {
	t.Helper()
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatalf("%s: %v", EnvURL, err)
	}
	name := "contentgen-wordpress-" + strings.NewReplacer(":", "_", "/", "_").Replace(u.Host) + ".lock"
	unlock, err := lockFile(filepath.Join(os.TempDir(), name))
	if err != nil {
		t.Fatalf("locking the test site: %v", err)
	}
	t.Cleanup(unlock)
}
