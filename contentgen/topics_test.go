package contentgen_test

import (
	"context"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/contentgen/memhost"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/local"
)

// topicLocales returns the packs of the locales that have topics.
func topicLocales(t *testing.T) []*locales.Pack {
	t.Helper()
	reg := locales.NewRegistry()
	var out []*locales.Pack
	for _, l := range reg.List() {
		p, err := reg.Lookup(l.Code)
		require.NoError(t, err)
		if len(p.Topics()) > 0 {
			out = append(out, p)
		}
	}
	require.NotEmpty(t, out)
	return out
}

var htmlTag = regexp.MustCompile(`<[^>]*>`)

// topicHits counts the occurrences in text of the words of topic, ignoring
// case; in languages written with spaces, only whole words count.
func topicHits(p *locales.Pack, topic locales.Topic, text string) int {
	spaced := p.Locale().Code != "ja" && p.Locale().Code != "zh_CN"
	text = strings.ToLower(text)
	n := 0
	for _, w := range topic.Words() {
		w = strings.ToLower(w)
		for i := 0; ; {
			k := strings.Index(text[i:], w)
			if k < 0 {
				break
			}
			at := i + k
			i = at + len(w)
			if spaced {
				before, _ := utf8.DecodeLastRuneInString(text[:at])
				after, _ := utf8.DecodeRuneInString(text[i:])
				if unicode.IsLetter(before) || unicode.IsLetter(after) {
					continue
				}
			}
			n++
		}
	}
	return n
}

// topicOfPost returns the topic of the first of a post's categories and
// tags that is named after one.
func topicOfPost(pack *locales.Pack, p contentgen.Post, names map[int64]string) (locales.Topic, bool) {
	for _, tax := range []string{"category", "post_tag"} {
		for _, id := range p.Terms[tax] {
			if tp, ok := pack.TopicByTermName(names[id]); ok {
				return tp, true
			}
		}
	}
	return locales.Topic{}, false
}

// onTopic reports whether a post's body uses at least three words of the
// topic and each of its comments at least one.
func onTopic(p *locales.Pack, topic locales.Topic, body string, comments []string) bool {
	if topicHits(p, topic, body) < 3 {
		return false
	}
	for _, c := range comments {
		if topicHits(p, topic, c) < 1 {
			return false
		}
	}
	return true
}

// TestTopicRealism measures how well real text keeps to its topic: over
// 300 generated posts per locale with topics, the share of posts whose
// body and comments use words of the topic of their category, against the
// same share when each post is paired with another post's topic.
func TestTopicRealism(t *testing.T) {
	t.Parallel()
	for _, pack := range topicLocales(t) {
		code := pack.Locale().Code
		t.Run(code, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			f := newFixture(t, 17)
			realText(t, f)
			res, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{
				Count: new(300), Locale: code, AutoComments: true,
				CommentsPerPostMin: new(1), CommentsPerPostMax: new(3),
			}))
			require.NoError(t, err)
			posts := f.posts(t, res.IDs)
			comments, err := f.host.Comments(ctx, contentgen.CommentQuery{PostIDs: contentgen.OnlyIDs(res.IDs...)})
			require.NoError(t, err)
			byPost := map[int64][]string{}
			for _, c := range comments {
				byPost[c.PostID] = append(byPost[c.PostID], c.Content)
			}
			terms, err := f.host.Terms(ctx, contentgen.TermQuery{})
			require.NoError(t, err)
			names := map[int64]string{}
			for _, term := range terms {
				names[term.ID] = term.Name
				if term.Meta[contentgen.MarkerKey] == contentgen.MarkerValue {
					_, ok := pack.TopicByTermName(term.Name)
					require.True(t, ok, "%s: generated term %q is named after a topic", code, term.Name)
				}
			}

			type sample struct {
				topic    locales.Topic
				body     string
				comments []string
			}
			var samples []sample
			for _, p := range posts {
				topic, ok := topicOfPost(pack, p, names)
				if !ok {
					continue
				}
				samples = append(samples, sample{topic, htmlTag.ReplaceAllString(p.Content, " "), byPost[p.ID]})
			}
			require.GreaterOrEqual(t, len(samples), 250, "%s: posts filed under a topic", code)

			// The shuffled pairing draws the post's own topic now and then
			// (a run files its posts under a few categories); pairs with
			// another topic show how far the words of one topic reach into
			// text about another.
			own, shuffled, other, otherOn := 0, 0, 0, 0
			perm := rand.New(rand.NewPCG(1, 2)).Perm(len(samples))
			for i, s := range samples {
				require.NotEmpty(t, s.comments)
				if onTopic(pack, s.topic, s.body, s.comments) {
					own++
				}
				paired := samples[perm[i]].topic
				on := onTopic(pack, paired, s.body, s.comments)
				if on {
					shuffled++
				}
				if paired != s.topic {
					other++
					if on {
						otherOn++
					}
				}
			}
			ownShare := float64(own) / float64(len(samples))
			shuffledShare := float64(shuffled) / float64(len(samples))
			otherShare := float64(otherOn) / float64(max(other, 1))
			t.Logf("%s: %d posts, on their own topic %.3f, on a shuffled topic %.3f, on another topic %.3f (%d pairs)",
				code, len(samples), ownShare, shuffledShare, otherShare, other)
			require.GreaterOrEqual(t, ownShare, 0.95, "%s: posts keep to their topic", code)
			require.Less(t, shuffledShare*3, ownShare, "%s: own topics far above the shuffled baseline", code)
			require.Greater(t, other, len(samples)/2)
			require.Less(t, otherShare, 0.1, "%s: text about one topic rarely reads as another", code)
		})
	}
}

// TestTopicTermTrees checks that generated term trees are meaningful: a
// child is a subtopic or a word of its parent's topic, never a random
// name.
func TestTopicTermTrees(t *testing.T) {
	t.Parallel()
	for _, pack := range topicLocales(t) {
		code := pack.Locale().Code
		t.Run(code, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			f := newFixture(t, 23)
			realText(t, f)
			res, err := f.gen.GenerateTerms(ctx, contentgen.TermsRequest{Taxonomy: "category", Locale: code, GenerateHierarchy: true, Depth: new(3), Breadth: new(3)})
			require.NoError(t, err)
			require.Len(t, res.IDs, 3+9+27)
			terms, err := f.host.Terms(ctx, contentgen.TermQuery{IDs: contentgen.OnlyIDs(res.IDs...)})
			require.NoError(t, err)
			byID := map[int64]contentgen.Term{}
			for _, term := range terms {
				byID[term.ID] = term
			}
			// subtopics[parent][topic] counts the children of a term that
			// name one subtopic: one name each, no synonyms side by side.
			subtopics := map[int64]map[string]int{}
			for _, term := range terms {
				topic, ok := pack.TopicByTermName(term.Name)
				require.True(t, ok, "%s: %q is named after a topic", code, term.Name)
				if term.ParentID == 0 {
					require.True(t, topic.Parent().IsZero(), "%s: top-level term %q is a broad topic", code, term.Name)
					continue
				}
				parent, ok := pack.TopicByTermName(byID[term.ParentID].Name)
				require.True(t, ok)
				var allowed []string
				for _, c := range parent.Children() {
					allowed = append(allowed, c.Names()...)
				}
				allowed = append(allowed, parent.TermNames()[len(parent.Names()):]...)
				require.Contains(t, allowed, term.Name, "%s: %q under %q", code, term.Name, byID[term.ParentID].Name)
				if topic != parent {
					if subtopics[term.ParentID] == nil {
						subtopics[term.ParentID] = map[string]int{}
					}
					subtopics[term.ParentID][topic.ID()]++
					require.Equal(t, 1, subtopics[term.ParentID][topic.ID()], "%s: two children of %q name %s", code, byID[term.ParentID].Name, topic.ID())
				}
			}
		})
	}
}

// recordingProvider is the local image provider, recording the categories
// it was asked for.
type recordingProvider struct {
	providers.ImageProvider
	mu         sync.Mutex
	categories []string
}

func (p *recordingProvider) Image(ctx context.Context, req providers.ImageRequest) (*providers.Image, error) {
	p.mu.Lock()
	p.categories = append(p.categories, req.Category)
	p.mu.Unlock()
	return p.ImageProvider.Image(ctx, req)
}

// TestTopicPostsAreCoherent checks one run in detail: titles name their
// topic, the other categories and tags of a post are of related topics, images are asked
// for in the topic's category unless the request names one, and the same
// seed gives the same posts.
func TestTopicPostsAreCoherent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	lp, err := local.New(nil)
	require.NoError(t, err)
	run := func(category string) ([]contentgen.Post, *recordingProvider, *fixture) {
		prov := &recordingProvider{ImageProvider: lp}
		host, err := demosite.New(&memhost.Options{Now: clock})
		require.NoError(t, err)
		hist := history.NewMemStore(clock)
		seed := int64(9)
		gen, err := contentgen.New(host, hist, &contentgen.Config{Seed: &seed, Now: clock, ImageProviders: []providers.ImageProvider{prov}})
		require.NoError(t, err)
		f := &fixture{host: host, hist: hist, gen: gen}
		realText(t, f)
		res, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{
			Count: new(12), Locale: "en_US", ImageProvider: providers.Local, ImageCategory: category,
			ImageWidth: new(100), ImageHeight: new(100),
		})
		require.NoError(t, err)
		return f.posts(t, res.IDs), prov, f
	}
	posts, prov, f := run("")
	pack, err := locales.NewRegistry().Lookup("en_US")
	require.NoError(t, err)
	terms, err := f.host.Terms(ctx, contentgen.TermQuery{})
	require.NoError(t, err)
	names := map[int64]string{}
	for _, term := range terms {
		names[term.ID] = term.Name
	}
	var want []string
	for _, p := range posts {
		topic, ok := topicOfPost(pack, p, names)
		require.True(t, ok, "post %q has terms of a topic", p.Title)
		require.Positive(t, topicHits(pack, topic, p.Title), "title %q is about %s", p.Title, topic.ID())
		require.Positive(t, topicHits(pack, topic, p.Excerpt), "excerpt %q is about %s", p.Excerpt, topic.ID())
		for _, id := range append(p.Terms["category"], p.Terms["post_tag"]...) {
			if tt, ok := pack.TopicByTermName(names[id]); ok {
				require.True(t, tt.Related(topic), "term %q on a post about %s", names[id], topic.ID())
			}
		}
		want = append(want, topic.ImageCategory())
	}
	require.ElementsMatch(t, want, prov.categories, "images follow the topics")

	again, _, _ := run("")
	require.Equal(t, posts, again, "the same seed gives the same posts")

	_, prov, _ = run("architecture")
	for _, c := range prov.categories {
		require.Equal(t, "architecture", c, "a requested image category wins")
	}
}

// TestTopicCommentsOnExistingPosts checks that comments generated later on
// posts follow the topic of their terms.
func TestTopicCommentsOnExistingPosts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 31)
	realText(t, f)
	pack, err := locales.NewRegistry().Lookup("de_DE")
	require.NoError(t, err)
	res, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(20), Locale: "de_DE"}))
	require.NoError(t, err)
	cres, err := f.gen.GenerateComments(ctx, contentgen.CommentsRequest{PostIDs: res.IDs, Locale: "de_DE", CommentsPerPostMin: new(2), CommentsPerPostMax: new(2)})
	require.NoError(t, err)
	require.Len(t, cres.IDs, 40)
	terms, err := f.host.Terms(ctx, contentgen.TermQuery{})
	require.NoError(t, err)
	names := map[int64]string{}
	for _, term := range terms {
		names[term.ID] = term.Name
	}
	comments, err := f.host.Comments(ctx, contentgen.CommentQuery{PostIDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	posts := map[int64]contentgen.Post{}
	for _, p := range f.posts(t, res.IDs) {
		posts[p.ID] = p
	}
	checked, replies := 0, 0
	byID := map[int64]contentgen.Comment{}
	for _, c := range comments {
		byID[c.ID] = c
	}
	for _, c := range comments {
		if c.ParentID != 0 {
			replies++
			require.True(t, strings.HasPrefix(c.Content, "@"+byID[c.ParentID].AuthorName+" "), "reply %q addresses %q", c.Content, byID[c.ParentID].AuthorName)
		}
		topic, ok := topicOfPost(pack, posts[c.PostID], names)
		if !ok {
			continue
		}
		checked++
		require.Positive(t, topicHits(pack, topic, c.Content), "comment %q on a post about %s", c.Content, topic.ID())
	}
	require.Greater(t, checked, 30)
	require.Positive(t, replies)
}

// TestCommentsSpeakOfTheirPost generates posts with comments in real
// English and checks that every top-level comment names the subject of
// its post's title and every reply answers within that subject too.
func TestCommentsSpeakOfTheirPost(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 23)
	realText(t, f)
	res, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{
		Count: new(40), Locale: "en_US", AutoComments: true,
		CommentsPerPostMin: new(2), CommentsPerPostMax: new(4),
	}))
	require.NoError(t, err)
	pack, err := locales.NewRegistry().Lookup("en_US")
	require.NoError(t, err)
	posts := f.posts(t, res.IDs)
	comments, err := f.host.Comments(ctx, contentgen.CommentQuery{PostIDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	subject := map[int64]string{}
	for _, p := range posts {
		_, s, ok := pack.TitleSubject(p.Title)
		require.True(t, ok, "title %q names a subject", p.Title)
		subject[p.ID] = strings.ToLower(s)
	}
	n := 0
	for _, c := range comments {
		if c.ParentID != 0 {
			continue
		}
		n++
		require.Contains(t, strings.ToLower(c.Content), subject[c.PostID], "comment on a post about %q", subject[c.PostID])
	}
	require.Greater(t, n, 40)
}
