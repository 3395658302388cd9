package contentgen

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/ai"
)

// Text sources of the text_source setting, of PostsRequest.TextSource and
// of a template's field configuration.
const (
	// TextSourceLorem is Latin placeholder text.
	TextSourceLorem = "lorem"
	// TextSourceRealText is text in the content's language, written
	// offline.
	TextSourceRealText = "realtext"
	// TextSourceAI is text written by the AI provider of the settings: the
	// titles, bodies, excerpts and comments of posts. Posts the provider
	// cannot write are written as with TextSourceRealText.
	TextSourceAI = "ai"
)

// textSources are the valid text sources.
var textSources = []string{TextSourceRealText, TextSourceLorem, TextSourceAI}

// Defaults of the AI writer.
const (
	// DefaultAITextConcurrency bounds the requests to the AI provider in
	// flight in one run.
	DefaultAITextConcurrency = 4
	// DefaultAITokenBudget is the tokens one run may spend.
	DefaultAITokenBudget = 1_000_000
	// DefaultAITextCache is the number of answers remembered.
	DefaultAITextCache = 500
	// aiWriteRetries is the retries of a 429 or 5xx answer when the
	// provider's options do not say.
	aiWriteRetries = 2
)

// AITextStats is what the AI provider wrote in a run whose text source is
// TextSourceAI.
type AITextStats struct {
	// Provider is the slug of the provider that was asked.
	Provider string
	// Posts and Comments are written by the provider, Cached of them
	// answered from the cache without a request.
	Posts, Comments, Cached int
	// FallbackPosts and FallbackComments are written by the offline writer
	// because the provider failed, was not set up or the budget was used
	// up.
	FallbackPosts, FallbackComments int
	// Tokens are the tokens the run's requests used; TokenBudget what it
	// could use.
	Tokens, TokenBudget int
}

// clone returns a copy of s.
func (s *AITextStats) clone() *AITextStats {
	c := *s
	return &c
}

// aiRun writes the text of one run with the AI provider.
type aiRun struct {
	g      *Generator
	w      ai.Writer // nil when the provider cannot be used; reason says why
	reason error
	slug   string
	lang   string
	seed   uint64
	sem    chan struct{}
	budget int

	mu       sync.Mutex
	stats    AITextStats
	failure  error // the last failure, for the warning
	overBudg bool
}

// newAIRun prepares the AI writing of run rn with the settings s.
func (g *Generator) newAIRun(ctx context.Context, rn *run, s Settings) *aiRun {
	a := &aiRun{g: g, seed: rn.seed, budget: g.cfg.AITokenBudget, sem: make(chan struct{}, g.cfg.AITextConcurrency)}
	a.slug = s.AI.Provider
	a.stats.TokenBudget = a.budget
	if pack, err := g.cfg.Locales.Lookup(rn.locale); err == nil {
		l := pack.Locale()
		a.lang = fmt.Sprintf("%s, locale %s", l.Name, l.Code)
	}
	a.w, a.reason = g.textWriter(ctx)
	if a.w != nil {
		a.slug = a.w.Name()
	}
	a.stats.Provider = a.slug
	return a
}

// textWriter returns the writer of the current AI provider with its key:
// Config.AIWriter when set, else the client of AIProviders.
func (g *Generator) textWriter(ctx context.Context) (ai.Writer, error) {
	if g.cfg.AIWriter != nil {
		return g.cfg.AIWriter, nil
	}
	st, err := g.settings.stored(ctx)
	if err != nil {
		return nil, err
	}
	opts, err := g.settings.clientOptions(&st, st.Provider)
	if err != nil {
		return nil, err
	}
	if opts.MaxRetries == 0 {
		opts.MaxRetries = aiWriteRetries
	}
	return ai.NewWriter(st.Provider, opts)
}

// breaker returns the Generator's breaker of the text provider slug, made
// on first use: a provider that keeps failing is not asked for a
// cool-down, in this run and the next ones.
func (g *Generator) textBreaker(slug string) *providers.Breaker {
	g.textMu.Lock()
	defer g.textMu.Unlock()
	if b := g.textBreakers[slug]; b != nil {
		return b
	}
	b, _ := providers.NewServiceBreaker(slug, &providers.BreakerOptions{Now: g.now, IsFailure: func(err error) bool {
		// A bad answer is that request's; the provider is up.
		return !errors.Is(err, ai.ErrBadAnswer) && !errors.Is(err, context.Canceled)
	}}) // valid options
	g.textBreakers[slug] = b
	return b
}

// systemPrompt is the standing instruction of every request.
const aiSystemPrompt = `You write the content of a website: blog posts and readers' comments.
Write only in the language you are asked for, naturally, as a person writing for readers would.
Answer in Markdown only. Use no HTML, no links, no images and no code unless asked. Add no preamble, notes or explanations.`

// postJob is one post to be written by the provider.
type postJob struct {
	i       int
	prompt  string
	key     string
	seed    int64
	excerpt bool
	// answer, when ok, is the provider's (or the cache's) text.
	answer string
	ok     bool
}

// postSubject is what a post is about, as the offline writer decided it:
// its topic in a topical run, its terms, the template and the post type.
type postSubject struct {
	topic    string
	terms    []string
	template string
	// postType is the singular label of the post type; builtin is set for
	// the type "post", which needs no mention.
	postType string
	builtin  bool
}

// postPrompt asks for one post of the shape sh with body options o.
func (a *aiRun) postPrompt(subj postSubject, sh *postShape, o *locales.HTMLOptions, tone string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Write a blog post in %s.\n", a.lang)
	switch {
	case subj.topic != "":
		fmt.Fprintf(&b, "Topic: %s.\n", subj.topic)
	case len(subj.terms) > 0:
		fmt.Fprintf(&b, "Topic: %s.\n", strings.Join(subj.terms, ", "))
	default:
		fmt.Fprintf(&b, "Topic: anything a reader of a %s would enjoy.\n", subj.postType)
	}
	if subj.topic != "" && len(subj.terms) > 0 {
		fmt.Fprintf(&b, "It is filed under: %s.\n", strings.Join(subj.terms, ", "))
	}
	switch {
	case subj.template != "" && !subj.builtin:
		fmt.Fprintf(&b, "Kind of content: %s (%s).\n", subj.template, subj.postType)
	case subj.template != "":
		fmt.Fprintf(&b, "Kind of content: %s.\n", subj.template)
	case !subj.builtin:
		fmt.Fprintf(&b, "Kind of content: %s.\n", subj.postType)
	}
	fmt.Fprintf(&b, "Tone: %s.\n", tone)
	fmt.Fprintf(&b, "Length: %d paragraphs of three to six sentences each.\n", sh.paragraphs)
	if o.Headings {
		b.WriteString("Put a few ## headings between the sections.\n")
	} else {
		b.WriteString("Use no headings in the post.\n")
	}
	if o.Lists {
		b.WriteString("Include one short list.\n")
	} else {
		b.WriteString("Use no lists.\n")
	}
	if o.Quotes {
		b.WriteString("Include one short quotation as a > blockquote, with its speaker on the last line after a dash.\n")
	}
	if o.Emphasis {
		b.WriteString("Mark a few important words in **bold** or *italics*.\n")
	}
	if o.Technical {
		b.WriteString("The topic is technical: include one small table and one short code block.\n")
	}
	b.WriteString("Answer in this form:\n# The title, at most ten words\n\n")
	if sh.excerpt {
		b.WriteString("A summary of the post in one or two sentences.\n\n")
	}
	b.WriteString("The post.\n")
	return b.String()
}

// tones vary the posts of a run.
var tones = []string{"practical and friendly", "personal, from experience", "enthusiastic", "calm and factual", "reflective", "light and humorous"}

// jobSeed is the seed of item i of kind in the run: the same for the same
// run seed, so that the cache answers a repeated run.
func (a *aiRun) jobSeed(kind string, i int) int64 {
	var b [8]byte
	h := sha256.New()
	binary.LittleEndian.PutUint64(b[:], a.seed)
	h.Write(b[:])
	h.Write([]byte(kind))
	binary.LittleEndian.PutUint64(b[:], uint64(i))
	h.Write(b[:])
	return int64(binary.LittleEndian.Uint64(h.Sum(nil)) >> 1)
}

// cacheKey identifies an answer: provider, prompt and seed.
func (a *aiRun) cacheKey(prompt string, seed int64) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d", a.slug, aiSystemPrompt, prompt, seed)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// ask returns the answer to prompt with seed: from the cache, else from
// the provider within the budget and the breaker. ok is false when the
// text must come from the offline writer.
func (a *aiRun) ask(ctx context.Context, key, prompt string, seed int64, maxTokens int) (string, bool) {
	if text, ok := a.g.aiTexts.get(ctx, key); ok {
		a.mu.Lock()
		a.stats.Cached++
		a.mu.Unlock()
		return text, true
	}
	if a.w == nil {
		return "", false
	}
	select {
	case a.sem <- struct{}{}:
	case <-ctx.Done():
		return "", false
	}
	defer func() { <-a.sem }()
	// The budget is read once a request may go, so that no more than the
	// requests in flight can pass it.
	a.mu.Lock()
	over := a.stats.Tokens >= a.budget
	if over {
		a.overBudg = true
	}
	a.mu.Unlock()
	if over {
		return "", false
	}
	var got *ai.Written
	err := a.g.textBreaker(a.slug).Call(ctx, func(ctx context.Context) error {
		var err error
		got, err = a.w.Write(ctx, ai.WriteRequest{System: aiSystemPrompt, Prompt: prompt, MaxTokens: maxTokens, Temperature: 0.8, Seed: seed})
		return err
	})
	a.mu.Lock()
	defer a.mu.Unlock()
	if err != nil {
		if ctx.Err() == nil {
			a.failure = err
		}
		a.g.log.Debug("contentgen: AI text failed", "provider", a.slug, "err", err)
		return "", false
	}
	a.stats.Tokens += got.Tokens()
	a.g.aiTexts.put(key, got.Text)
	return got.Text, true
}

// writePosts has the provider write the titles, excerpts and bodies of
// posts[k] (post lo+k of the run), made by the offline writer with the
// body options opts[k], concurrently; a post whose text the provider
// does not give keeps the offline text. sources receives the text
// source of each post.
func (a *aiRun) writePosts(ctx context.Context, rn *run, p *postsPlan, prep *preparedPosts, lo int, posts []Post, sources []string) error {
	subjects, err := a.subjects(ctx, rn, p, prep, lo, posts)
	if err != nil {
		return err
	}
	jobs := make([]postJob, len(posts))
	var wg sync.WaitGroup
	for k := range posts {
		i := lo + k
		j := &jobs[k]
		j.i = i
		j.seed = a.jobSeed("post", i)
		sh := &prep.shapes[i]
		j.excerpt = sh.excerpt
		tone := tones[uint64(j.seed)%uint64(len(tones))]
		j.prompt = a.postPrompt(subjects[k], sh, &prep.bodyOpts[i], tone)
		j.key = a.cacheKey(j.prompt, j.seed)
		wg.Add(1)
		go func() {
			defer wg.Done()
			j.answer, j.ok = a.ask(ctx, j.key, j.prompt, j.seed, 400+220*sh.paragraphs)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for k := range jobs {
		j := &jobs[k]
		post := &posts[k]
		sources[k] = rn.offlineSource()
		if j.ok {
			title, excerpt, body, ok := splitPost(j.answer, j.excerpt)
			if ok {
				r := rand.New(rand.NewPCG(uint64(j.seed), 0x5DEECE66D))
				if html, ok := locales.RenderModelMarkdown(body, prep.bodyOpts[j.i], p.format, r); ok {
					post.Title, post.Content = title, html
					if j.excerpt {
						post.Excerpt = excerpt
					}
					sources[k] = TextSourceAI
					a.count(func(s *AITextStats) { s.Posts++ })
					continue
				}
			}
			a.mu.Lock()
			a.failure = fmt.Errorf("%w: the answer has no title or no text", ai.ErrBadAnswer)
			a.mu.Unlock()
		}
		a.count(func(s *AITextStats) { s.FallbackPosts++ })
	}
	return nil
}

func (a *aiRun) count(fn func(*AITextStats)) {
	a.mu.Lock()
	fn(&a.stats)
	a.mu.Unlock()
}

// subjects are what posts[k] are about: the topics of a topical run, the
// names of their terms (one host query), the template and the post type.
func (a *aiRun) subjects(ctx context.Context, rn *run, p *postsPlan, prep *preparedPosts, lo int, posts []Post) ([]postSubject, error) {
	var ids []int64
	for i := range posts {
		for _, t := range posts[i].Terms {
			ids = append(ids, t...)
		}
	}
	names := map[int64]string{}
	if len(ids) > 0 {
		found, err := a.g.host.Terms(ctx, TermQuery{IDs: OnlyIDs(ids...), Bare: true})
		if err != nil {
			return nil, failed(err, "reading terms")
		}
		for _, t := range found {
			names[t.ID] = t.Name
		}
	}
	label := p.pt.Labels["singular_name"]
	if label == "" {
		label = p.pt.Label
	}
	if label == "" {
		label = p.pt.Name
	}
	out := make([]postSubject, len(posts))
	for k := range posts {
		s := postSubject{postType: label, builtin: p.pt.Name == "post"}
		if p.template != nil {
			s.template = p.template.Name
		}
		if prep.topics != nil {
			s.topic = prep.topics[lo+k].Name()
		}
		for _, tax := range sortedNames(posts[k].Terms) {
			for _, id := range posts[k].Terms[tax] {
				if n := names[id]; n != "" && !slices.Contains(s.terms, n) {
					s.terms = append(s.terms, n)
				}
			}
		}
		out[k] = s
	}
	return out, nil
}

// maxExcerptWords bounds an excerpt the provider wrote.
const maxExcerptWords = 55

// splitPost splits a model's post into its title, the summary when
// excerpt is asked for, and the Markdown of the body. ok is false when
// there is no title or no body.
func splitPost(answer string, excerpt bool) (title, summary, body string, ok bool) {
	// Thinking, scripts and raw HTML go first, so that they are not
	// taken for the title.
	s := strings.TrimSpace(locales.SanitizeModelText(answer))
	// A fence around the whole answer.
	if strings.HasPrefix(s, "```") {
		if nl := strings.IndexByte(s, '\n'); nl > 0 {
			s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s[nl+1:]), "```"))
		}
	}
	lines := strings.Split(s, "\n")
	// The title is the first level-one heading among the first lines (a
	// model may open with "Here is the post:"), else the first line when
	// it reads as a title.
	at := -1
	for i, seen := 0, 0; i < len(lines) && seen < 5; i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			continue
		}
		seen++
		if strings.HasPrefix(l, "# ") {
			at = i
			break
		}
	}
	var first string
	if at >= 0 {
		first = strings.TrimSpace(lines[at])[2:]
	} else {
		at = 0
		first = strings.TrimSpace(lines[0])
		switch {
		case strings.HasPrefix(first, "## "), strings.HasPrefix(first, "### "):
			first = strings.TrimLeft(first, "# ")
		case strings.HasPrefix(first, "**") && strings.HasSuffix(first, "**") && len(first) > 4:
		case len(strings.Fields(first)) <= 15 && !strings.HasSuffix(first, ".") && !strings.HasSuffix(first, ":") && !strings.HasPrefix(first, "#"):
		default:
			return "", "", "", false
		}
	}
	rest := strings.Join(lines[at+1:], "\n")
	if i := strings.Index(first, ":"); i >= 0 && i < 8 && strings.EqualFold(strings.TrimSpace(first[:i]), "title") {
		first = first[i+1:]
	}
	title = strings.Trim(locales.PlainText(first), "\"'“”„«»")
	title = strings.TrimSpace(title)
	if title == "" {
		return "", "", "", false
	}
	body = strings.TrimSpace(rest)
	if excerpt {
		para, after, _ := strings.Cut(body, "\n\n")
		if p := strings.TrimSpace(para); p != "" && !strings.ContainsAny(p[:1], "#->|*`0123456789") && strings.TrimSpace(after) != "" {
			summary = locales.PlainText(p)
			body = strings.TrimSpace(after)
		}
		if summary == "" {
			// No summary: the opening of the body, as an excerpt is made
			// of a post without one.
			for _, para := range strings.Split(body, "\n\n") {
				if p := strings.TrimSpace(para); p != "" && !strings.ContainsAny(p[:1], "#->|`") {
					summary = firstSentences(locales.PlainText(p))
					break
				}
			}
		}
		if w := strings.Fields(summary); len(w) > maxExcerptWords {
			summary = strings.Join(w[:maxExcerptWords], " ") + "…"
		}
	}
	return title, summary, body, body != ""
}

// firstSentences returns the first sentence of s, two when the first is
// short.
func firstSentences(s string) string {
	end := 0
	for end < len(s) {
		i := strings.IndexAny(s[end:], ".!?。！？")
		if i < 0 {
			return s
		}
		_, size := utf8.DecodeRuneInString(s[end+i:])
		end += i + size
		if len(strings.Fields(s[:end])) >= 8 {
			break
		}
	}
	return strings.TrimSpace(s[:end])
}

// commentsPrompt asks for n comments on a post.
func (a *aiRun) commentsPrompt(title, topic string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Write %d comments by different readers on a blog post titled %q", n, title)
	if topic != "" {
		fmt.Fprintf(&b, " (about %s)", topic)
	}
	fmt.Fprintf(&b, ", in %s.\n", a.lang)
	b.WriteString("Each comment is one to three sentences: some agree, some ask a question, some tell of the reader's own experience; a few answer the comment before them.\n")
	b.WriteString("Answer with a Markdown bulleted list, one comment per item, and nothing else.\n")
	return b.String()
}

// writeComments has the provider write the comments of plan, one request
// per post; a comment the answer does not give keeps the offline text.
func (a *aiRun) writeComments(ctx context.Context, posts []Post, topics map[int64]locales.Topic, plan []plannedComment) error {
	byPost := map[int64][]int{}
	for i := range plan {
		byPost[plan[i].c.PostID] = append(byPost[plan[i].c.PostID], i)
	}
	type job struct {
		idx    []int
		answer string
		ok     bool
	}
	jobs := make([]job, 0, len(byPost))
	titles := make([]string, 0, len(byPost))
	for _, post := range posts {
		if idx := byPost[post.ID]; len(idx) > 0 {
			jobs = append(jobs, job{idx: idx})
			titles = append(titles, post.Title)
			delete(byPost, post.ID)
		}
	}
	var wg sync.WaitGroup
	for k := range jobs {
		j := &jobs[k]
		post := plan[j.idx[0]].c.PostID
		title, topic := titles[k], ""
		if t, ok := topics[post]; ok && !t.IsZero() {
			topic = t.Name()
		}
		seed := a.jobSeed("comments", int(post))
		prompt := a.commentsPrompt(title, topic, len(j.idx))
		wg.Add(1)
		go func() {
			defer wg.Done()
			j.answer, j.ok = a.ask(ctx, a.cacheKey(prompt, seed), prompt, seed, 120+110*len(j.idx))
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, j := range jobs {
		var items []string
		if j.ok {
			items = commentItems(j.answer)
		}
		for n, i := range j.idx {
			if n >= len(items) {
				a.count(func(s *AITextStats) { s.FallbackComments++ })
				continue
			}
			c := &plan[i].c
			prefix := ""
			if pc := plan[i].parent; pc >= 0 && strings.HasPrefix(c.Content, "@"+plan[pc].c.AuthorName+" ") {
				prefix = "@" + plan[pc].c.AuthorName + " "
			}
			c.Content = prefix + items[n]
			a.count(func(s *AITextStats) { s.Comments++ })
		}
	}
	return nil
}

// commentItems reads the comments of a model's bulleted list, as plain
// text.
func commentItems(answer string) []string {
	var out []string
	for _, line := range strings.Split(locales.SanitizeModelText(answer), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "), strings.HasPrefix(t, "• "):
			t = t[strings.IndexByte(t, ' ')+1:]
		default:
			if i := strings.IndexAny(t, ".)"); i > 0 && i <= 3 {
				if _, err := strconv.Atoi(t[:i]); err == nil {
					t = t[i+1:]
					break
				}
			}
			if len(out) > 0 && t != "" && (line[0] == ' ' || line[0] == '\t') {
				out[len(out)-1] += " " + locales.PlainText(t)
			}
			continue
		}
		if c := locales.PlainText(t); c != "" && utf8.RuneCountInString(c) > 1 {
			out = append(out, c)
		}
	}
	return out
}

// finish reports the run's AI writing: one warning when any text came
// from the offline writer, and keeps the cache.
func (a *aiRun) finish(ctx context.Context, rn *run) {
	a.g.aiTexts.flush(ctx)
	st := a.stats
	if st.FallbackPosts == 0 && st.FallbackComments == 0 {
		return
	}
	var what string
	switch {
	case st.FallbackPosts > 0 && st.FallbackComments > 0:
		what = fmt.Sprintf("%d posts and %d comments were", st.FallbackPosts, st.FallbackComments)
	case st.FallbackPosts == 1:
		what = "1 post was"
	case st.FallbackPosts > 0:
		what = fmt.Sprintf("%d posts were", st.FallbackPosts)
	case st.FallbackComments == 1:
		what = "1 comment was"
	default:
		what = fmt.Sprintf("%d comments were", st.FallbackComments)
	}
	var why string
	switch {
	case a.w == nil:
		why = fmt.Sprintf("the AI provider %s cannot write (%s)", a.slug, reasonText(a.reason))
	case a.overBudg:
		why = fmt.Sprintf("the run's AI token budget of %d tokens was used up", a.budget)
	case a.failure != nil:
		why = fmt.Sprintf("the AI provider %s failed (%s)", a.slug, strings.TrimSuffix(ai.TestMessage(a.failure), "."))
	default:
		why = fmt.Sprintf("the AI provider %s gave no usable text", a.slug)
	}
	rn.warn("%s written by the offline writer: %s.", what, why)
}

// reasonText is the client-safe reason of a provider that cannot write.
func reasonText(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return strings.TrimSuffix(e.Message, ".")
	}
	return strings.TrimSuffix(ai.TestMessage(err), ".")
}

// offlineSource is the text source of the offline writer of the run.
func (rn *run) offlineSource() string {
	if rn.w.Source() == locales.RealText {
		return TextSourceRealText
	}
	return TextSourceLorem
}
