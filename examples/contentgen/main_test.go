package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/examples/internal/site"
	"github.com/contentgen/contentgen/history"
)

// result is what one command line did.
type result struct {
	code           int
	stdout, stderr string
}

// runCLI runs a command line in-process. tty makes stdin and stderr
// count as terminals; stdin is what a user types.
func runCLI(t *testing.T, tty bool, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	a := &app{
		stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut,
		isTerminal: func(any) bool { return tty },
		now:        time.Now,
		getenv:     os.Getenv,
	}
	code := a.execute(context.Background(), args)
	return result{code, out.String(), errOut.String()}
}

// snapshot is every object of a site, by kind, and its history size.
type snapshot struct {
	posts, terms, users, comments, media []int64
	history                              int
}

// inspect opens the site file db as the server would and reads what it
// holds.
func inspect(t *testing.T, db string) snapshot {
	t.Helper()
	return inspectMedia(t, db, "")
}

// inspectMedia is inspect with the media directory of --media.
func inspectMedia(t *testing.T, db, mediaDir string) snapshot {
	t.Helper()
	ctx := context.Background()
	st, err := site.Open(ctx, db, mediaDir, contentgen.Site{URL: siteURL}, nil)
	require.NoError(t, err)
	defer st.Close()
	require.False(t, st.Fresh, "the site exists already")
	h := st.Host
	var s snapshot
	posts, err := h.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	for _, p := range posts {
		s.posts = append(s.posts, p.ID)
	}
	terms, err := h.Terms(ctx, contentgen.TermQuery{})
	require.NoError(t, err)
	for _, x := range terms {
		s.terms = append(s.terms, x.ID)
	}
	users, err := h.Users(ctx, contentgen.UserQuery{})
	require.NoError(t, err)
	for _, x := range users {
		s.users = append(s.users, x.ID)
	}
	comments, err := h.Comments(ctx, contentgen.CommentQuery{})
	require.NoError(t, err)
	for _, x := range comments {
		s.comments = append(s.comments, x.ID)
	}
	media, err := h.Media(ctx, contentgen.MediaQuery{})
	require.NoError(t, err)
	for _, x := range media {
		s.media = append(s.media, x.ID)
	}
	for _, ids := range [][]int64{s.posts, s.terms, s.users, s.comments, s.media} {
		slices.Sort(ids)
	}
	_, s.history, err = st.History.List(ctx, history.Filter{})
	require.NoError(t, err)
	return s
}

// newSiteFile creates the demo site in a new SQLite file through the
// command line and returns the file and its hand-made baseline.
func newSiteFile(t *testing.T) (string, snapshot) {
	t.Helper()
	return newSite(t, filepath.Join(t.TempDir(), "site.db"), "")
}

// newSite creates the demo site in the new database db (with media files
// in media, "" for the default) through the command line and returns db
// and its hand-made baseline.
func newSite(t *testing.T, db, media string) (string, snapshot) {
	t.Helper()
	args := []string{"history", "--db", db}
	if media != "" {
		args = append(args, "--media", media)
	}
	r := runCLI(t, false, "", args...)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "0 of 0 entries")
	base := inspectMedia(t, db, media)
	require.NotEmpty(t, base.posts, "the demo site has hand-made posts")
	require.Zero(t, base.history)
	return db, base
}

func added(after, before []int64) []int64 {
	var out []int64
	for _, id := range after {
		if !slices.Contains(before, id) {
			out = append(out, id)
		}
	}
	return out
}

func TestGeneratePostsJSONMatchesTheDatabase(t *testing.T) {
	t.Parallel()
	db, base := newSiteFile(t)
	r := runCLI(t, false, "", "generate", "posts", "--db", db, "--json",
		"--count", "4", "--seed", "7", "--image-provider", "provider_local", "--image-width", "160", "--image-height", "120",
		"--auto-comments", "--comments-per-post-min", "1", "--comments-per-post-max", "3", "--locale", "de_DE",
		"--date-from", "2025-01-01", "--date-to", "2025-03-31")
	require.Equal(t, 0, r.code, r.stderr)

	var got struct {
		Success        bool    `json:"success"`
		Count          int     `json:"count"`
		IDs            []int64 `json:"ids"`
		VariationStats struct {
			With    int `json:"with_featured_image"`
			Without int `json:"without_featured_image"`
		} `json:"variation_stats"`
		AutoCreated struct {
			Authors  int            `json:"authors"`
			Terms    map[string]int `json:"terms"`
			Comments int            `json:"comments"`
		} `json:"auto_created"`
		TimeSavedSeconds int64 `json:"time_saved_seconds"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got), "stdout holds only the JSON result: %q", r.stdout)
	require.True(t, got.Success)
	require.Equal(t, 4, got.Count)
	require.Regexp(t, `(?s)^\{\s*"success": true,\s*"count": 4,\s*"ids": \[.*\],\s*"post_type": "post",\s*"message": .*,\s*"warnings": \[.*\],\s*`+
		`"variation_stats": \{\s*"with_featured_image": \d+,\s*"without_featured_image": \d+\s*\},\s*`+
		`"auto_created": \{\s*"authors": \d+,\s*"terms": \{.*\},\s*"comments": \d+,\s*"related_posts": 0,\s*"related_per_cpt": \{\}\s*\},\s*`+
		`"time_saved": "[^"]+",\s*"time_saved_seconds": \d+,\s*"elapsed_seconds": [0-9.e-]+\s*\}\s*$`, r.stdout,
		"the keys of the API's posts result, in its order, and the command line's own")

	now := inspect(t, db)
	newPosts := added(now.posts, base.posts)
	require.ElementsMatch(t, got.IDs, newPosts, "the ids printed are the posts the file holds now")
	require.Equal(t, got.VariationStats.With, len(added(now.media, base.media)), "one image per featured post")
	require.Equal(t, 4, got.VariationStats.With+got.VariationStats.Without)
	require.Equal(t, got.AutoCreated.Authors, len(added(now.users, base.users)))
	require.Equal(t, got.AutoCreated.Comments, len(added(now.comments, base.comments)))
	require.GreaterOrEqual(t, got.AutoCreated.Comments, 4)
	terms := 0
	for _, n := range got.AutoCreated.Terms {
		terms += n
	}
	require.Equal(t, terms, len(added(now.terms, base.terms)))
	require.Positive(t, got.TimeSavedSeconds)
	require.Equal(t, 4+got.VariationStats.With+got.AutoCreated.Authors+got.AutoCreated.Comments+terms, now.history,
		"every item made is in the history")

	// The German posts are dated in the range asked for.
	st, err := site.Open(context.Background(), db, "", contentgen.Site{URL: siteURL}, nil)
	require.NoError(t, err)
	posts, err := st.Host.Posts(context.Background(), contentgen.PostQuery{IDs: contentgen.OnlyIDs(got.IDs...)})
	require.NoError(t, err)
	require.NoError(t, st.Close())
	for _, p := range posts {
		require.False(t, p.Date.Before(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)), p.Date)
		require.False(t, p.Date.After(time.Date(2025, 3, 31, 23, 59, 59, 0, time.UTC)), p.Date)
	}
}

func TestSummaryMatchesTheDatabaseAndCleanupRestoresTheBaseline(t *testing.T) {
	t.Parallel()
	db, base := newSiteFile(t)
	r := runCLI(t, false, "", "generate", "posts", "--db", db, "--count", "3", "--set-featured-image=false", "--post-status", "draft")
	require.Equal(t, 0, r.code, r.stderr)
	now := inspect(t, db)
	newPosts := added(now.posts, base.posts)
	require.Len(t, newPosts, 3)
	require.Contains(t, r.stdout, "Generated 3 posts of type post in ")
	require.Contains(t, r.stdout, "ids:             "+formatIDs(newPosts)+"\n")
	require.Contains(t, r.stdout, "featured images: 0 with, 3 without")
	require.Contains(t, r.stdout, fmt.Sprintf("also created:    %d authors, %d terms", len(added(now.users, base.users)), len(added(now.terms, base.terms))))
	saved := 3*contentgen.PostBasicWork + time.Duration(len(added(now.users, base.users)))*contentgen.UserWork +
		time.Duration(len(added(now.terms, base.terms)))*contentgen.TermWork
	require.Contains(t, r.stdout, "time saved:      "+formatDuration(saved)+"\n", "three basic posts, their authors and terms")

	r = runCLI(t, false, "", "generate", "users", "--db", db, "--count", "2", "--generate-avatars=false", "--role", "editor")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "Generated 2 users in ")

	r = runCLI(t, false, "", "history", "stats", "--db", db, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var stats struct {
		Stats struct {
			Total    int            `json:"total"`
			ByType   map[string]int `json:"by_type"`
			Existing map[string]int `json:"existing"`
		} `json:"stats"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &stats))
	require.Equal(t, inspect(t, db).history, stats.Stats.Total)
	require.Equal(t, 3, stats.Stats.ByType["post"])
	require.Equal(t, 3, stats.Stats.Existing["post"])

	r = runCLI(t, false, "", "cleanup", "--db", db, "--yes", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var cleaned struct {
		Stats map[string]int `json:"stats"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &cleaned))
	require.Equal(t, 3, cleaned.Stats["posts"])
	require.Equal(t, base, inspect(t, db), "the hand-made site is back, with an empty history")
}

func TestDeleteReturnsToTheBaseline(t *testing.T) {
	t.Parallel()
	db, base := newSiteFile(t)
	r := runCLI(t, false, "", "generate", "posts", "--db", db, "--count", "3", "--post-type", "book",
		"--image-provider", "provider_local", "--image-width", "100", "--image-height", "100", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	r = runCLI(t, false, "", "generate", "terms", "--db", db, "--taxonomy", "category", "--generate-hierarchy", "--depth", "2", "--breadth", "2")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "Generated 6 category terms", "a tree of 2 with 2 children each")

	r = runCLI(t, false, "", "delete", "posts", "--db", db, "--post-type", "book", "--json",
		"--delete-related-media", "--delete-related-terms", "--delete-related-authors", "--delete-related-cpts")
	require.Equal(t, 0, r.code, r.stderr)
	var del struct {
		DeletedCount int            `json:"deleted_count"`
		Related      map[string]int `json:"deleted_related_cpts"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &del))
	require.Equal(t, 3, del.DeletedCount)
	require.Positive(t, del.Related["publisher"], "books made publishers to point at")

	r = runCLI(t, false, "", "delete", "--db", db, "--type", "term", "--force")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "Deleted 6 generated items of type term")
	r = runCLI(t, false, "", "history", "prune", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)

	now := inspect(t, db)
	require.Equal(t, base.posts, now.posts)
	require.Equal(t, base.terms, now.terms)
	require.Equal(t, base.users, now.users)
	require.Equal(t, base.media, now.media)
	require.Equal(t, base.comments, now.comments)
	require.Zero(t, now.history, "nothing generated is left to track")
}

func TestCleanupAsksOnATerminal(t *testing.T) {
	t.Parallel()
	db, base := newSiteFile(t)
	r := runCLI(t, false, "", "generate", "users", "--db", db, "--count", "2", "--generate-avatars=false")
	require.Equal(t, 0, r.code, r.stderr)
	generated := inspect(t, db)

	r = runCLI(t, true, "n\n", "cleanup", "--db", db)
	require.Equal(t, 1, r.code)
	require.Contains(t, r.stderr, "[y/N]")
	require.Contains(t, r.stderr, "nothing was deleted")
	require.Equal(t, generated, inspect(t, db))

	r = runCLI(t, false, "y\n", "cleanup", "--db", db)
	require.Equal(t, 2, r.code, "without a terminal to ask on, --yes is required")
	require.Contains(t, r.stderr, "--yes")
	require.Equal(t, generated, inspect(t, db))

	r = runCLI(t, true, "y\n", "cleanup", "--db", db)
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stdout, "Deleted 0 posts, 0 terms, 2 users")
	require.Equal(t, base, inspect(t, db))
}

func TestMemory(t *testing.T) {
	t.Parallel()
	r := runCLI(t, false, "", "generate", "posts", "--db", "memory", "--count", "2", "--set-featured-image=false", "--json", "--quiet")
	require.Equal(t, 0, r.code, r.stderr)
	require.Empty(t, r.stderr, "--quiet prints no progress")
	var got struct {
		Count int     `json:"count"`
		IDs   []int64 `json:"ids"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
	require.Equal(t, 2, got.Count)
	require.Len(t, got.IDs, 2)

	r = runCLI(t, false, "", "history", "--db", "memory", "--json")
	require.Equal(t, 0, r.code, r.stderr)
	require.JSONEq(t, `{"success":true,"history":[],"total":0}`, r.stdout, "memory is gone when the command ends")
}

func TestProgressOutput(t *testing.T) {
	t.Parallel()
	args := []string{"generate", "posts", "--db", "memory", "--count", "3", "--set-featured-image=false"}

	plain := runCLI(t, false, "", args...)
	require.Equal(t, 0, plain.code, plain.stderr)
	for _, want := range []string{"Generating 3 posts\n", "Created post 1 of 3: ", "Created post 3 of 3: "} {
		require.Contains(t, plain.stderr, want)
	}
	require.NotContains(t, plain.stderr, "\r", "no bar without a terminal")
	require.NotContains(t, plain.stderr, "\x1b", "no escape sequences without a terminal")
	require.NotContains(t, plain.stdout, "Created post", "progress goes to stderr only")

	tty := runCLI(t, true, "", args...)
	require.Equal(t, 0, tty.code, tty.stderr)
	require.Contains(t, tty.stderr, "\r", "a bar redraws its line")
	require.Contains(t, tty.stderr, "(1/3)", "the bar counts the posts")
	require.NotContains(t, tty.stderr, "Created post", "the bar replaces the per-post lines")
	require.Equal(t, strings.Count(plain.stdout, "\n"), strings.Count(tty.stdout, "\n"), "the summary is the same")
}

// TestProgressBarCountsImagesThenPosts: on a terminal the bar shows the
// done and total of each counting step, from its first event on.
func TestProgressBarCountsImagesThenPosts(t *testing.T) {
	t.Parallel()
	r := runCLI(t, true, "", "generate", "posts", "--db", "memory", "--count", "3",
		"--image-provider", "provider_local", "--image-width", "120", "--image-height", "100")
	require.Equal(t, 0, r.code, r.stderr)
	require.Contains(t, r.stderr, "Generating 3 posts\n")
	for _, want := range []string{"\rimages ", "\rstored images ", "\rposts ", "(2/3)"} {
		require.Contains(t, r.stderr, want)
	}
	require.NotContains(t, r.stderr, "/-)", "no count without a total")
	require.NotContains(t, r.stderr, "Image 1 of 3", "the bar replaces the per-image lines")
}

// TestProgressPlainLinesAtMostOncePerSecond: without a terminal a
// counting step prints its first and last event and at most one line a
// second between them, by the injected clock.
func TestProgressPlainLinesAtMostOncePerSecond(t *testing.T) {
	var out bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &progress{out: &out, now: func() time.Time { return clock }}
	p.note("Generating 500 posts")
	for i := 1; i <= 500; i++ {
		clock = clock.Add(10 * time.Millisecond)
		p.event(contentgen.Event{Type: contentgen.EventInfo, Message: fmt.Sprintf("Created post %d of 500", i), Done: i, Total: 500, Items: contentgen.ItemsPosts})
		if i == 250 {
			p.event(contentgen.Event{Type: contentgen.EventWarning, Message: "a warning is always shown"})
		}
	}
	require.Equal(t, `Generating 500 posts
Created post 1 of 500
Created post 101 of 500
Created post 201 of 500
warning: a warning is always shown
Created post 301 of 500
Created post 401 of 500
Created post 500 of 500
`, out.String())
}

// TestProgressPlainLinesFrozenClock: a whole run without a terminal,
// whose clock does not move, prints the first and last line of each
// counting step only.
func TestProgressPlainLinesFrozenClock(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	frozen := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a := &app{
		stdin: strings.NewReader(""), stdout: &out, stderr: &errOut,
		isTerminal: func(any) bool { return false }, now: func() time.Time { return frozen }, getenv: os.Getenv,
	}
	code := a.execute(context.Background(), []string{"generate", "posts", "--db", "memory", "--count", "40",
		"--image-provider", "provider_local", "--image-width", "100", "--image-height", "100"})
	require.Equal(t, 0, code, errOut.String())
	var counted []string
	for line := range strings.SplitSeq(strings.TrimSpace(errOut.String()), "\n") {
		if strings.Contains(line, " of 40") {
			counted = append(counted, line)
		}
	}
	require.Len(t, counted, 6, "first and last of images made, stored and posts:\n%s", errOut.String())
	require.True(t, strings.HasPrefix(counted[0], "Image 1 of 40 made"), counted[0])
	require.True(t, strings.HasPrefix(counted[5], "Created post 40 of 40"), counted[5])
}

func TestUsageErrorsNameTheFlag(t *testing.T) {
	t.Parallel()
	db, _ := newSiteFile(t)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"generate", "posts", "--count", "0"}, "--count: count must be between 1 and 500"},
		{[]string{"generate", "posts", "--count", "many"}, `invalid argument "many" for "--count"`},
		{[]string{"generate", "posts", "--post-type", "nope"}, "--post-type: "},
		{[]string{"generate", "posts", "--locale", "xx_XX"}, "--locale: "},
		{[]string{"generate", "posts", "--post-status", "gone"}, "--post-status: "},
		{[]string{"generate", "posts", "--image-width", "50"}, "--image-width: "},
		{[]string{"generate", "posts", "--template-id", "999"}, "--template-id: "},
		{[]string{"generate", "posts", "--date-from", "yesterday"}, `--date-from: want a date as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS, got "yesterday"`},
		{[]string{"generate", "comments", "--date-to", "2020-13-01"}, `--date-to: want a date as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS, got "2020-13-01"`},
		{[]string{"generate", "posts", "--taxonomy-config", "{"}, "--taxonomy-config: not valid JSON"},
		{[]string{"generate", "posts", "--related-cpt-options", `{"nope":{"count":1}}`}, "--related-cpt-options: "},
		{[]string{"generate", "posts", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"generate", "terms", "--taxonomy", "nope"}, "--taxonomy: "},
		{[]string{"generate", "terms", "--depth", "9", "--generate-hierarchy"}, "--depth: "},
		{[]string{"generate", "users", "--count", "0"}, "--count: "},
		{[]string{"generate", "users", "--count", "501", "--batch-size", "600"}, "--batch-size: "},
		{[]string{"generate", "comments", "--reply-probability", "101"}, "--reply-probability: "},
		{[]string{"delete"}, "--type: type is required"},
		{[]string{"delete", "--type", "book"}, "--type: "},
		{[]string{"delete", "posts", "--post-type", "nope"}, "--post-type: "},
		{[]string{"history", "--type", "nope"}, "--type: "},
		{[]string{"history", "--limit", "0"}, "--limit: "},
		{[]string{"generate", "posts", "extra"}, `unexpected argument "extra"`},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"--acf-json", "/nonexistent/acf", "history"}, "--acf-json: "},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := runCLI(t, false, "", append(c.args, "--db", db)...)
			require.Equal(t, 2, r.code, "stdout %q stderr %q", r.stdout, r.stderr)
			require.Contains(t, r.stderr, c.want)
			require.Contains(t, r.stderr, "--help' for usage")
			require.Empty(t, r.stdout)
		})
	}
	r := runCLI(t, false, "", "generate", "posts", "--count", "0", "--db", db, "--json")
	require.Equal(t, 2, r.code)
	require.JSONEq(t, `{"success":false,"code":"invalid_count","param":"count","message":"count must be between 1 and 500, got 0"}`, r.stdout)
}

func TestFailuresExitOne(t *testing.T) {
	t.Parallel()
	r := runCLI(t, false, "", "history", "--db", filepath.Join(t.TempDir(), "missing", "dir", "site.db"))
	require.Equal(t, 1, r.code, r.stderr)
	require.Contains(t, r.stderr, "contentgen: ")
	require.NotContains(t, r.stderr, "for usage")
}

func TestHelpListsEveryOption(t *testing.T) {
	t.Parallel()
	cases := map[string][]string{
		"generate posts": {"--post-type", "--count", "--post-status", "--set-featured-image", "--download-images",
			"--image-provider", "--image-category", "--image-width", "--image-height", "--populate-custom-fields",
			"--auto-taxonomies", "--delete-existing-before-generate", "--delete-related-media", "--delete-related-terms",
			"--delete-related-authors", "--delete-related-comments", "--delete-scope", "--taxonomy-config",
			"--auto-comments", "--comments-per-post-min", "--comments-per-post-max", "--enable-comment-threading",
			"--comment-reply-probability", "--related-cpt-options", "--template-id", "--field-config",
			"--enable-variation", "--variation-profile", "--locale", "--date-from", "--date-to", "--seed",
			"--text-source", "--content-format", "--db", "--media", "--json", "--ai-base-url", "--ai-model"},
		"generate terms": {"--taxonomy", "--count", "--generate-hierarchy", "--depth", "--breadth", "--delete-existing", "--locale", "--seed"},
		"generate users": {"--count", "--role", "--allowed-roles", "--generate-avatars", "--avatar-provider", "--delete-existing", "--locale", "--seed"},
		"generate comments": {"--post-type", "--post-ids", "--comments-per-post-min", "--comments-per-post-max", "--enable-threading",
			"--reply-probability", "--pending-percentage", "--anonymous-percentage", "--avatar-percentage", "--avatar-provider",
			"--locale", "--delete-existing", "--date-from", "--date-to", "--seed"},
		"delete":         {"--type", "--ids", "--force", "posts"},
		"delete posts":   {"--post-type", "--delete-scope", "--delete-related-media", "--delete-related-terms", "--delete-related-authors", "--delete-related-comments", "--delete-related-cpts"},
		"cleanup":        {"--yes"},
		"history":        {"--type", "--limit", "--offset", "stats", "prune", "clear"},
		"history clear":  {"--yes"},
		"templates list": {"--post-type"},
		"":               {"generate", "delete", "cleanup", "history", "templates", "--db", "--media", "--json"},
	}
	for path, flags := range cases {
		t.Run(path, func(t *testing.T) {
			r := runCLI(t, false, "", append(strings.Fields(path), "--help")...)
			require.Equal(t, 0, r.code, r.stderr)
			for _, f := range flags {
				require.Contains(t, r.stdout, f)
			}
		})
	}
}

func TestFormats(t *testing.T) {
	t.Parallel()
	require.Equal(t, "none", formatIDs(nil))
	require.Equal(t, "3-5, 9, 11-12", formatIDs([]int64{3, 4, 5, 9, 11, 12}))
	require.Equal(t, "0m 30s", formatDuration(30*time.Second))
	require.Equal(t, "39m 30s", formatDuration(39*time.Minute+30*time.Second))
	require.Equal(t, "2h 05m", formatDuration(2*time.Hour+5*time.Minute+20*time.Second))
}

func TestSettingsAreKeptWithTheSite(t *testing.T) {
	t.Parallel()
	db, _ := newSiteFile(t)
	r := runCLI(t, false, "", "settings", "--db", db, "--text-source", "realtext", "--hourly-rate", "80")
	require.Equal(t, 0, r.code, r.stderr)
	r = runCLI(t, false, "", "settings", "--db", db, "--json")
	require.Equal(t, 0, r.code, r.stderr)
	var got struct {
		Settings struct {
			TextSource string  `json:"text_source"`
			HourlyRate float64 `json:"hourly_rate"`
		} `json:"settings"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &got), r.stdout)
	require.Equal(t, "realtext", got.Settings.TextSource)
	require.Equal(t, 80.0, got.Settings.HourlyRate)

	r = runCLI(t, false, "", "settings", "--db", db, "--text-source", "klingon")
	require.Equal(t, exitUsage, r.code)
	require.Contains(t, r.stderr, "--text-source")
}
