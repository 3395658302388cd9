package contentgen

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/ai"
	"github.com/contentgen/contentgen/templates/fields"
)

// Generator makes fake content in a Host, tracks it in a history Store and
// removes it again. Templates, settings and the media library are reached
// through Templates, Settings and Media, what is on the site through
// Content. It is safe for concurrent use;
// create one per host.
type Generator struct {
	cfg  Config
	host Host
	hist history.Store
	// files is whether the host keeps media files; without them images
	// are kept as records of their URLs (see MediaStorer).
	files  bool
	images map[string]providers.ImageProvider
	log    *slog.Logger
	now    func() time.Time
	runs   atomic.Int64

	// detected caches the offline field detection per post type.
	detected fields.DetectionCache
	// aiCache remembers AI detections, aiTexts AI answers.
	aiCache *ai.Cache
	aiTexts *textCache
	// textBreakers are the breakers of the AI providers that write text,
	// by slug, made on first use.
	textMu       sync.Mutex
	textBreakers map[string]*providers.Breaker

	templates *TemplatesService
	settings  *SettingsService
	media     *MediaService
	history   *HistoryService
	content   *ContentService
}

// New returns a Generator over host, recording into hist. It is the one
// way to build a Generator, whatever the backend: what the host keeps
// besides content it says through Describer, and the Generator adds what
// it lacks. hist may be nil when the host keeps a history (such as the
// hosts of contentgen/sqlstore and contentgen/wphost, whose batches then
// commit with their history entries); Config.State, Config.Templates and
// Config.BatchSize left zero come from the host's Capabilities too, then
// from the defaults. cfg may be nil; an invalid cfg gives an error naming
// the field.
func New(host Host, hist history.Store, cfg *Config) (*Generator, error) {
	if host == nil {
		return nil, errors.New("contentgen: New: host is nil")
	}
	var caps Capabilities
	if d, ok := host.(Describer); ok {
		caps = d.Capabilities()
	}
	if hist == nil {
		hist = caps.History
	}
	if hist == nil {
		return nil, errors.New("contentgen: New: history store is nil, and the host keeps none")
	}
	var c Config
	if cfg != nil {
		c = *cfg
	}
	if c.State == nil {
		c.State = caps.State
	}
	if c.Templates == nil {
		c.Templates = caps.Templates
	}
	if c.BatchSize == 0 {
		c.BatchSize = caps.BatchSize
	}
	c = c.withDefaults()
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("contentgen: New: %w", err)
	}
	_, files := host.(MediaStorer)
	g := &Generator{
		cfg:    c,
		host:   host,
		hist:   hist,
		files:  files && !caps.MediaRecordsOnly,
		images: make(map[string]providers.ImageProvider, len(c.ImageProviders)),
		log:    c.Logger,
		now:    c.Now,
	}
	for _, p := range c.ImageProviders {
		// A provider that keeps failing is skipped for a cool-down
		// instead of costing a timeout per image.
		b, err := providers.NewBreaker(p, &providers.BreakerOptions{Now: c.Now})
		if err != nil {
			return nil, fmt.Errorf("contentgen: New: %w", err)
		}
		g.images[p.Info().Slug] = b
	}
	g.aiCache = ai.NewCache(&ai.CacheOptions{Store: stateSaver{c.State}})
	g.aiTexts = newTextCache(c.State, c.AITextCache, c.Logger)
	g.textBreakers = map[string]*providers.Breaker{}
	g.templates = newTemplates(g)
	g.settings = &SettingsService{g: g}
	g.media = &MediaService{g: g}
	g.history = &HistoryService{g: g}
	g.content = &ContentService{g: g}
	return g, nil
}

// Templates returns the service of saved templates and custom fields.
func (g *Generator) Templates() *TemplatesService { return g.templates }

// Settings returns the service of the general and AI settings.
func (g *Generator) Settings() *SettingsService { return g.settings }

// Media returns the service of the media library.
func (g *Generator) Media() *MediaService { return g.media }

// History returns the service of the history of generated items.
func (g *Generator) History() *HistoryService { return g.history }

// run is the state of one generation run: its random source, text writer,
// settings, clock reading and the events it reports.
type run struct {
	g        *Generator
	id       string
	seed     uint64
	r        *mrand.Rand
	w        *locales.Writer
	locale   string
	settings Settings
	// now is the clock reading of the run: every date it makes is
	// relative to it, so a run is a pure function of seed, host state and
	// clock.
	now      time.Time
	progress func(Event)
	warnings []string
	warned   map[string]bool
	// ai writes the text of a run whose text source is TextSourceAI; nil
	// otherwise.
	ai *aiRun
	// from and to bound the dates of posts and comments (DateFrom and
	// DateTo of the request); zero means the defaults.
	from, to time.Time
	// format is the format of post bodies and wysiwyg values (HTML for
	// runs that write no posts).
	format ContentFormat
	// topical is set when the run writes real text in a locale with topics
	// (see topics.go); termTopics then holds the topic of every term the
	// run knows (the zero Topic for terms not named after one), and themes
	// the topics new terms at the top level are drawn from, if any.
	topical    bool
	termTopics map[int64]locales.Topic
	themes     []locales.Topic
	// marker is the meta of the posts and comments of the run that carry
	// the marker alone: one map for all of them, never changed (hosts do
	// not change their input), where a large run would otherwise make one
	// for each.
	marker Meta
}

// newRun prepares a run with the settings s. seed is the request's seed,
// if any.
func (g *Generator) newRun(ctx context.Context, s Settings, seed *int64, locale string, progress func(Event)) (*run, error) {
	pack, err := g.localePack(ctx, locale, s)
	if err != nil {
		return nil, err
	}
	n := g.runs.Add(1)
	var sd uint64
	switch {
	case seed != nil:
		sd = uint64(*seed)
	case g.cfg.Seed != nil:
		sd = uint64(*g.cfg.Seed) ^ (uint64(n) * 0x9E3779B97F4A7C15)
	default:
		var b [8]byte
		_, _ = rand.Read(b[:])
		sd = binary.LittleEndian.Uint64(b[:])
	}
	r := mrand.New(mrand.NewPCG(sd, sd^0xDA942042E4DD58B5))
	// AI text falls back on the offline writer's real text.
	src := locales.Source(s.TextSource)
	if s.TextSource == TextSourceAI {
		src = locales.RealText
	}
	topical := src == locales.RealText && len(pack.Topics()) > 0
	return &run{
		seed:       sd,
		topical:    topical,
		termTopics: map[int64]locales.Topic{},
		g:          g,
		id:         fmt.Sprintf("%016x-%d", sd, n),
		r:          r,
		w:          locales.NewWriter(pack, src, r),
		locale:     pack.Locale().Code,
		settings:   s,
		now:        g.now().Truncate(time.Second),
		progress:   progress,
		warned:     map[string]bool{},
		marker:     trackMeta(0),
	}, nil
}

// localePack returns the pack of the locale a run with the settings s
// writes in when its request asks for locale.
func (g *Generator) localePack(ctx context.Context, locale string, s Settings) (*locales.Pack, error) {
	code, err := g.resolveLocale(ctx, locale, s)
	if err != nil {
		return nil, err
	}
	pack, err := g.cfg.Locales.Lookup(code)
	if err != nil {
		return nil, invalid("locale", "locale %q is not supported", locale)
	}
	return pack, nil
}

// supportedLocales lists the codes of the registry's locales.
func supportedLocales(r *locales.Registry) string {
	var b strings.Builder
	for i, l := range r.List() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(l.Code)
	}
	return b.String()
}

// resolveLocale picks the run's locale: the request's, else the setting,
// with "auto" following the site.
func (g *Generator) resolveLocale(ctx context.Context, requested string, s Settings) (string, error) {
	if requested != "" && requested != "auto" {
		code, ok := g.cfg.Locales.Match(requested)
		if !ok {
			return "", invalid("locale", "locale %q is not supported and has no close match; the supported locales are %s", requested, supportedLocales(g.cfg.Locales))
		}
		return code, nil
	}
	code := s.Locale
	if code == "" || code == "auto" {
		site, err := g.host.Site(ctx)
		if err != nil {
			return "", failed(err, "reading the site")
		}
		code = site.Locale
	}
	if c, ok := g.cfg.Locales.Match(code); ok {
		return c, nil
	}
	return "en_US", nil
}

func (rn *run) info(format string, args ...any) {
	if rn.progress != nil {
		rn.progress(Event{Type: EventInfo, Message: fmt.Sprintf(format, args...)})
	}
}

// count reports that done of total items are done.
func (rn *run) count(items string, done, total int, format string, args ...any) {
	if rn.progress != nil {
		rn.progress(Event{Type: EventInfo, Message: fmt.Sprintf(format, args...), Done: done, Total: total, Items: items})
	}
}

// warn records a warning once per distinct message and reports it.
func (rn *run) warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if rn.progress != nil {
		rn.progress(Event{Type: EventWarning, Message: msg})
	}
	if rn.warned[msg] {
		return
	}
	rn.warned[msg] = true
	rn.warnings = append(rn.warnings, msg)
}

func (rn *run) between(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + rn.r.IntN(hi-lo+1)
}

// percent reports true with probability p/100.
func (rn *run) percent(p int) bool { return rn.r.IntN(100) < p }

// pastDate returns a time within the last days days before the run's
// clock reading.
func (rn *run) pastDate(days int) time.Time {
	return rn.now.Add(-time.Duration(rn.r.Int64N(int64(days) * int64(24*time.Hour)))).Truncate(time.Second)
}

// futureDate returns a time after the run's clock reading: up to the
// run's DateTo when that is later, else 1 to 90 days ahead.
func (rn *run) futureDate() time.Time {
	if rn.to.After(rn.now) {
		return rn.between2(maxTime(rn.from, rn.now.Add(time.Second)), rn.to)
	}
	return rn.now.Add(time.Duration(1+rn.r.IntN(90)) * 24 * time.Hour).Add(time.Duration(rn.r.IntN(86400)) * time.Second)
}

// publishedDate returns the date of a post that is not scheduled: within
// the run's DateFrom and DateTo, never after the clock reading, else
// within the last year.
func (rn *run) publishedDate() time.Time {
	if rn.from.IsZero() && rn.to.IsZero() {
		return rn.pastDate(365)
	}
	from, to := rn.from, rn.to
	if from.IsZero() {
		from = rn.now.AddDate(-1, 0, 0)
	}
	if to.IsZero() || to.After(rn.now) {
		to = rn.now
	}
	if from.After(to) {
		from = to
	}
	return rn.between2(from, to)
}

// between2 returns a time from lo to hi, to the second; lo when hi is not
// after it.
func (rn *run) between2(lo, hi time.Time) time.Time {
	span := hi.Sub(lo)
	if span <= 0 {
		return lo.Truncate(time.Second)
	}
	return lo.Add(time.Duration(rn.r.Int64N(int64(span) + 1))).Truncate(time.Second)
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// checkDates validates a DateFrom and DateTo pair of a request; future
// says whether scheduled posts are asked for, which may lie after now.
func (g *Generator) checkDates(from, to time.Time, future bool) error {
	switch now := g.now(); {
	case !from.IsZero() && !to.IsZero() && to.Before(from):
		return invalid("date_to", "date_to (%s) must not be before date_from (%s)", to.Format(time.DateTime), from.Format(time.DateTime))
	case !future && !from.IsZero() && from.After(now):
		return invalid("date_from", "date_from must not be after now, except for post_status future or random")
	}
	return nil
}

// trackMeta is the marker meta every generated object carries.
func trackMeta(extra int) Meta {
	m := make(Meta, 1+extra)
	m[MarkerKey] = MarkerValue
	return m
}

// postType returns the registered, non-internal post type name.
func (g *Generator) postType(ctx context.Context, name string) (PostType, error) {
	types, err := g.host.PostTypes(ctx)
	if err != nil {
		return PostType{}, failed(err, "listing post types")
	}
	for _, pt := range types {
		if pt.Name == name && !pt.Internal {
			return pt, nil
		}
	}
	return PostType{}, Errorf(CodeInvalidPostType, "post_type", "post_type %q is not a registered post type", name)
}

// taxonomy returns the registered taxonomy name.
func (g *Generator) taxonomy(ctx context.Context, name string) (Taxonomy, error) {
	taxes, err := g.host.Taxonomies(ctx)
	if err != nil {
		return Taxonomy{}, failed(err, "listing taxonomies")
	}
	for _, t := range taxes {
		if t.Name == name {
			return t, nil
		}
	}
	return Taxonomy{}, Errorf(CodeInvalidTaxonomy, "taxonomy", "taxonomy %q is not registered", name)
}

// chunks calls fn for consecutive slices of at most size items of n.
func chunks(n, size int, fn func(lo, hi int) error) error {
	for lo := 0; lo < n; lo += size {
		if err := fn(lo, min(lo+size, n)); err != nil {
			return err
		}
	}
	return nil
}
