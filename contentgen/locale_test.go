package contentgen_test

import (
	"context"
	"net/mail"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/templates"
)

var englishWord = regexp.MustCompile(`(?i)\b(the|with|this|that|every|their|which)\b`)

func realText(t *testing.T, f *fixture) {
	t.Helper()
	_, err := f.gen.Settings().Update(context.Background(), func(s *contentgen.Settings) { s.TextSource = "realtext" })
	require.NoError(t, err)
}

// german reports whether s reads as German: it has articles and no English.
func german(s string) bool {
	return regexp.MustCompile(`\b(der|die|das|dem|den|ein|eine|einen|jeder|jede|jedes|unser|unsere)\b`).MatchString(s) &&
		!englishWord.MatchString(s)
}

func TestPostsInTheRequestedLocale(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 41)
	realText(t, f)
	res, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{
		Count: new(4), Locale: "de-AT", AutoComments: true,
		CommentsPerPostMin: new(2), CommentsPerPostMax: new(2),
		TaxonomyConfig: templates.TaxonomyConfig{"post_tag": {Mode: "create", CountMin: new(2), CountMax: new(2)}},
	}))
	require.NoError(t, err)
	text := ""
	for _, p := range f.posts(t, res.IDs) {
		text += p.Title + "\n" + p.Content + "\n" + p.Excerpt + "\n"
		require.Len(t, p.Terms["post_tag"], 2)
	}
	require.True(t, german(text), "posts are not German:\n%s", text)

	comments, err := f.host.Comments(ctx, contentgen.CommentQuery{PostIDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	require.NotEmpty(t, comments)
	all := ""
	for _, c := range comments {
		all += c.Content + "\n"
	}
	require.True(t, german(all), "comments are not German:\n%s", all)

	// New tags carry German names; their slugs are ASCII.
	tags, err := f.host.Terms(ctx, contentgen.TermQuery{Taxonomies: []string{"post_tag"}, MetaKey: contentgen.MarkerKey, MetaValue: contentgen.MarkerValue})
	require.NoError(t, err)
	require.NotEmpty(t, tags)
	for _, tag := range tags {
		require.Regexp(t, `^[a-z0-9-]+$`, tag.Slug)
		require.NotRegexp(t, englishWord, tag.Name)
	}

	entries, _, err := f.hist.List(ctx, history.Filter{})
	require.NoError(t, err)
	require.NotEmpty(t, entries)
	require.Equal(t, "de_DE", entries[0].Meta["locale"], "history records the locale the run used")
}

func TestLocaleSettingAndSiteLanguage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	seed := int64(5)
	host, err := demosite.New(&memhost.Options{Now: clock, Site: contentgen.Site{Locale: "fr_FR"}})
	require.NoError(t, err)
	hist := history.NewMemStore(clock)
	gen, err := contentgen.New(host, hist, &contentgen.Config{Seed: &seed, Now: clock})
	require.NoError(t, err)
	_, err = gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.TextSource = "realtext" })
	require.NoError(t, err)

	// "auto" (the default) follows the site: French.
	res, err := gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(3)}))
	require.NoError(t, err)
	posts, err := host.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	for _, p := range posts {
		require.Regexp(t, `\b(le|la|les|un|une|chaque|notre|ce|cette)\b`, strings.ToLower(p.Content))
		require.NotRegexp(t, englishWord, p.Content)
	}

	// A locale setting overrides the site; a request overrides the setting.
	_, err = gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.Locale = "de_DE" })
	require.NoError(t, err)
	res, err = gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(2)}))
	require.NoError(t, err)
	posts, err = host.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	require.True(t, german(posts[0].Content+posts[1].Content))

	res, err = gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(2), Locale: "ja"}))
	require.NoError(t, err)
	posts, err = host.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	for _, p := range posts {
		require.NotContains(t, p.Title, " ", "Japanese titles have no spaces")
		require.Regexp(t, `\p{Han}|\p{Hiragana}|\p{Katakana}`, p.Content)
	}

	_, err = gen.Settings().Update(ctx, func(s *contentgen.Settings) { s.Locale = "tlh" })
	require.ErrorIs(t, err, contentgen.ErrInvalidParameter)
	require.ErrorContains(t, err, "locale")
}

func TestUsersInLocale(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, code := range []string{"de_DE", "ru_RU", "ja", "zh_CN", "ko_KR", "pl_PL", "tr_TR"} {
		f := newFixture(t, 3)
		res, err := f.gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(8), Locale: code, GenerateAvatars: new(false)})
		require.NoError(t, err, code)
		users, err := f.host.Users(ctx, contentgen.UserQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
		require.NoError(t, err)
		require.Len(t, users, 8)
		for _, u := range users {
			addr, err := mail.ParseAddress(u.Email)
			require.NoError(t, err, "%s: %q", code, u.Email)
			require.Equal(t, u.Email, addr.Address)
			require.Regexp(t, `^[\x21-\x7e]+$`, u.Email, "ASCII e-mail")
			require.Regexp(t, `^[a-z0-9._-]+$`, u.Login)
			switch code {
			case "ja", "zh_CN", "ko_KR":
				require.Equal(t, u.LastName+u.FirstName, u.DisplayName, "%s: family name first, no space", code)
			default:
				require.Equal(t, u.FirstName+" "+u.LastName, u.DisplayName)
			}
			switch code {
			case "ru_RU":
				require.Regexp(t, `^\p{Cyrillic}`, u.FirstName)
			case "ko_KR":
				require.Regexp(t, `^\p{Hangul}+$`, u.FirstName)
			case "ja", "zh_CN":
				require.Regexp(t, `^[\p{Han}\p{Hiragana}\p{Katakana}]+$`, u.LastName)
			}
		}
	}
}

func TestLoremKeepsLocaleNames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 8)
	res, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(2), Locale: "ru_RU"}))
	require.NoError(t, err)
	posts := f.posts(t, res.IDs)
	// Quote attributions are names, which follow the locale; code is not
	// text.
	content := regexp.MustCompile(`(?s)<cite>.*?</cite>|<pre>.*?</pre>`).ReplaceAllString(posts[0].Content, " ")
	text := regexp.MustCompile(`<[^>]+>`).ReplaceAllString(content, " ") + " " + posts[0].Title
	words := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) })
	require.NotEmpty(t, words)
	for _, w := range words {
		require.Regexp(t, `^[A-Za-z]+$`, w, "lorem text is Latin in every locale")
	}
	users, err := f.gen.GenerateUsers(ctx, contentgen.UsersRequest{Count: new(3), Locale: "ru_RU", GenerateAvatars: new(false)})
	require.NoError(t, err)
	got, err := f.host.Users(ctx, contentgen.UserQuery{IDs: contentgen.OnlyIDs(users.IDs...)})
	require.NoError(t, err)
	for _, u := range got {
		require.Regexp(t, `^\p{Cyrillic}`, u.DisplayName, "names follow the locale under lorem")
	}
}

func TestTermSlugsAreRomanisedInEveryScript(t *testing.T) {
	t.Parallel()
	for _, locale := range []string{"ja", "zh_CN", "ko_KR", "ru_RU"} {
		f := newFixture(t, 4)
		res, err := f.gen.GenerateTerms(context.Background(), contentgen.TermsRequest{Taxonomy: "post_tag", Count: new(20), Locale: locale})
		require.NoError(t, err)
		terms, err := f.host.Terms(context.Background(), contentgen.TermQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
		require.NoError(t, err)
		for _, term := range terms {
			require.Regexp(t, `^[a-z0-9]+(-[a-z0-9]+)*$`, term.Slug, "%s: %q is romanised, never percent-encoded", locale, term.Name)
		}
	}
}
