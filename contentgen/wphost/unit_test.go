package wphost

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestPortableHash(t *testing.T) {
	// Made by WordPress's own PasswordHash(8, true)->HashPassword("secret").
	const php = "$P$B70IZQabv62MFhLkaQ1t0/On01i2SK0"
	require.Equal(t, php, cryptPrivate([]byte("secret"), php))
	require.NotEqual(t, php, cryptPrivate([]byte("Secret"), php))
	require.Empty(t, cryptPrivate([]byte("secret"), "$2y$10$abc"))

	h := randomPasswordHash()
	require.True(t, strings.HasPrefix(h, "$P$B"), h)
	require.Len(t, h, 34)
	require.NotEqual(t, h, randomPasswordHash(), "each hash has its own salt and password")
}

// TestPortableHashAcceptedByWordPress asks WordPress's wp_check_password
// whether it accepts the hashes the package writes.
func TestPortableHashAcceptedByWordPress(t *testing.T) {
	root := os.Getenv(envRoot)
	if root == "" {
		t.Skipf("set %s to the WordPress directory holding wp-includes to run this check", envRoot)
	}
	if _, err := exec.LookPath("php"); err != nil {
		t.Skip("php is not installed")
	}
	hash := portableHash([]byte("correct horse"), []byte("saltyy"), portableHashLog2)
	script := `<?php require $argv[1] . '/wp-includes/class-phpass.php';
$h = new PasswordHash(8, true);
echo $h->CheckPassword($argv[2], $argv[3]) ? "yes" : "no";`
	run := func(pw string) string {
		out, err := exec.CommandContext(t.Context(), "php", "-r", strings.TrimPrefix(script, "<?php "), "--", root, pw, hash).CombinedOutput()
		require.NoError(t, err, "%s", out)
		return string(out)
	}
	require.Equal(t, "yes", run("correct horse"))
	require.Equal(t, "no", run("wrong"))
}

func TestSanitizeTitle(t *testing.T) {
	cases := map[string]string{
		"Hello World":             "hello-world",
		"  Hello,   World!  ":     "hello-world",
		"Crème brûlée à la carte": "creme-brulee-a-la-carte",
		"Straße":                  "strasse",
		"<b>Bold</b> move":        "bold-move",
		"Fish &amp; Chips":        "fish-chips",
		"v1.2 release":            "v1-2-release",
		"snake_case stays":        "snake_case-stays",
		"Привет":                  "%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82",
		"100% sure":               "100-sure",
		"---":                     "",
		"":                        "",
	}
	for in, want := range cases {
		require.Equal(t, want, sanitizeTitle(in), "%q", in)
	}
	long := sanitizeTitle(strings.Repeat("ж", 150))
	require.LessOrEqual(t, len(long), maxSlugBytes)
	require.Zero(t, len(long)%6, "characters are never cut: %q", long[len(long)-6:])
}

func TestUniqueSlug(t *testing.T) {
	existing := map[string]bool{"hello-world": true, "hello-world-2": true, "other": true}
	batch := map[string]bool{}
	taken := func(s string) bool { return existing[s] || batch[s] }
	var got []string
	for _, base := range []string{"hello-world", "hello-world", "fresh", "fresh", "other"} {
		s := uniqueSlug(base, taken)
		batch[s] = true
		got = append(got, s)
	}
	require.Equal(t, []string{"hello-world-3", "hello-world-4", "fresh", "fresh-2", "other-2"}, got)

	long := strings.Repeat("a", 200)
	s := uniqueSlug(long, func(x string) bool { return x == long })
	require.Len(t, s, 200)
	require.True(t, strings.HasSuffix(s, "a-2"))
	enc := strings.Repeat("%d0%bf", 33) + "ab" // 200 bytes
	s = uniqueSlug(enc, func(x string) bool { return x == enc })
	require.LessOrEqual(t, len(s), 200)
	require.True(t, strings.HasSuffix(s, "%bf-2") || strings.HasSuffix(s, "a-2") || strings.HasSuffix(s, "b-2"), s)

	require.Equal(t, "hello-world", slugBase("hello-world-12"))
	require.Equal(t, "hello-world", slugBase("hello-world"))
	require.Equal(t, "-2", slugBase("-2"))
}

func TestSiteDates(t *testing.T) {
	berlin, err := siteLocation("Europe/Berlin", "0")
	require.NoError(t, err)
	summer := time.Date(2024, 7, 1, 10, 0, 0, 0, time.UTC)
	local, gmt := localAndGMT(summer, berlin)
	require.Equal(t, "2024-07-01 12:00:00", local, "CEST is two hours ahead")
	require.Equal(t, "2024-07-01 10:00:00", gmt)
	local, _ = localAndGMT(time.Date(2024, 1, 1, 23, 30, 0, 0, time.UTC), berlin)
	require.Equal(t, "2024-01-02 00:30:00", local, "CET is one hour ahead")

	india, err := siteLocation("", "5.5")
	require.NoError(t, err)
	local, _ = localAndGMT(summer, india)
	require.Equal(t, "2024-07-01 15:30:00", local)
	west, err := siteLocation("", "-3")
	require.NoError(t, err)
	local, _ = localAndGMT(summer, west)
	require.Equal(t, "2024-07-01 07:00:00", local)
	utc, err := siteLocation("", "")
	require.NoError(t, err)
	require.Equal(t, time.UTC, utc)
	_, err = siteLocation("Mars/Olympus", "")
	require.Error(t, err)
	_, err = siteLocation("", "two")
	require.Error(t, err)

	// Back from the columns: GMT when set, else the local time in the
	// site's zone.
	lt, _ := time.Parse(mysqlTime, "2024-07-01 12:00:00")
	gt, _ := time.Parse(mysqlTime, "2024-07-01 10:00:00")
	require.True(t, summer.Equal(fromColumns(lt, gt, berlin)))
	require.True(t, summer.Equal(fromColumns(lt, time.Time{}, berlin)))
	require.True(t, fromColumns(time.Time{}, time.Time{}, berlin).IsZero())
}

// TestRemoveEmptyDateFolders: only empty YYYY/MM folders go, and the
// years they leave empty; files and other folders stay.
func TestRemoveEmptyDateFolders(t *testing.T) {
	up := t.TempDir()
	for _, d := range []string{"2026/11", "2026/10", "2025/01", "2024/05", "plugins-data", "2023/notes"} {
		require.NoError(t, os.MkdirAll(filepath.Join(up, filepath.FromSlash(d)), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(up, "2026", "10", "photo.jpg"), []byte("x"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(up, "2024", "readme.txt"), []byte("x"), 0o644))
	removed, err := removeEmptyDateFolders(up)
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"2026/11", "2025/01", "2025", "2024/05"}, removed)
	for _, d := range []string{"2026/10", "2024", "plugins-data", "2023/notes"} {
		require.DirExists(t, filepath.Join(up, filepath.FromSlash(d)))
	}
}
