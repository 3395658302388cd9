package contentgen

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/locales"
	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/ai"
	"github.com/contentgen/contentgen/providers/fetch"
	"github.com/contentgen/contentgen/providers/filetype"
	"github.com/contentgen/contentgen/templates"
)

// DefaultMaxCount is the default upper limit of count per request.
const DefaultMaxCount = 500

// Config holds the optional parts of a Generator. The zero value (or a nil
// *Config) gives a working Generator: in-memory state, the shipped locales,
// no image providers, no templates, no AI.
type Config struct {
	// State persists settings and time-saved counters; nil means in memory.
	State StateStore
	// Locales is the locale registry; nil means locales.NewRegistry().
	Locales *locales.Registry
	// ImageProviders are the image sources, by their Info().Slug.
	ImageProviders []providers.ImageProvider
	// ImageConcurrency bounds parallel image fetches of a run; 0 means 4.
	ImageConcurrency int
	// Templates stores saved templates; nil means an empty in-memory
	// store.
	Templates templates.Store
	// FieldAdapters supplies the custom field definitions and relations of
	// post types (see templates.NewRegistry); nil means no custom fields.
	FieldAdapters *templates.Registry
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Seed, when set, makes every run deterministic: run n of the
	// Generator uses a seed derived from Seed and n, unless the request
	// has its own seed.
	Seed *int64
	// MaxCount is the upper limit of count per request, 1-500; 0 means 500.
	MaxCount int
	// BatchSize is the number of items written to the host per call; 0
	// means 50.
	BatchSize int
	// AI configures AI-assisted field detection; nil means no AI provider
	// can be used (the settings can still be read and changed).
	AI *AIConfig
	// Fetcher downloads the files of UploadURL; nil means one that refuses
	// private, loopback and link-local addresses.
	Fetcher *fetch.Fetcher
	// MaxUploadBytes is the largest file Upload accepts; 0 means
	// DefaultMaxUpload.
	MaxUploadBytes int64
	// UploadTypes is the allow-list of uploaded file types; nil means the
	// default list (images, PDF, office documents, spreadsheets, archives,
	// plain text).
	UploadTypes *filetype.Policy
}

// Generator makes fake content in a Host and tracks it in a history Store.
// It is safe for concurrent use; create one per host.
type Generator struct {
	host      Host
	hist      history.Store
	state     StateStore
	locales   *locales.Registry
	images    map[string]providers.ImageProvider
	imageConc int
	tmpl      templates.Store
	adapters  *templates.Registry
	detected  templates.DetectionCache
	log       *slog.Logger
	now       func() time.Time
	seed      *int64
	runs      atomic.Int64
	maxCount  int
	batch     int
	ai        AIConfig
	aiCache   *ai.Cache

	fetcher     *fetch.Fetcher
	maxUpload   int64
	uploadTypes *filetype.Policy

	// mu serialises read-modify-write of settings and counters.
	mu sync.Mutex
}

// New returns a Generator over host, recording into hist. cfg may be nil.
func New(host Host, hist history.Store, cfg *Config) (*Generator, error) {
	if host == nil {
		return nil, errors.New("contentgen: New: host is nil")
	}
	if hist == nil {
		return nil, errors.New("contentgen: New: history store is nil")
	}
	var c Config
	if cfg != nil {
		c = *cfg
	}
	g := &Generator{
		host:      host,
		hist:      hist,
		state:     c.State,
		locales:   c.Locales,
		images:    map[string]providers.ImageProvider{},
		imageConc: c.ImageConcurrency,
		tmpl:      c.Templates,
		adapters:  c.FieldAdapters,
		log:       c.Logger,
		now:       c.Now,
		seed:      c.Seed,
		maxCount:  c.MaxCount,
		batch:     c.BatchSize,
	}
	if g.state == nil {
		g.state = NewMemState()
	}
	if c.AI != nil {
		g.ai = *c.AI
		for slug := range g.ai.Providers {
			if !slices.Contains(AIProviders, slug) {
				return nil, fmt.Errorf("contentgen: New: Config.AI.Providers has unknown slug %q", slug)
			}
		}
	}
	g.fetcher, g.maxUpload, g.uploadTypes = c.Fetcher, c.MaxUploadBytes, c.UploadTypes
	if g.fetcher == nil {
		g.fetcher = fetch.New(nil)
	}
	switch {
	case g.maxUpload == 0:
		g.maxUpload = DefaultMaxUpload
	case g.maxUpload < 0:
		return nil, fmt.Errorf("contentgen: New: Config.MaxUploadBytes must not be negative, got %d", c.MaxUploadBytes)
	}
	if g.uploadTypes == nil {
		g.uploadTypes = &filetype.Policy{}
	}
	g.aiCache = g.ai.Cache
	if g.aiCache == nil {
		g.aiCache = ai.NewCache(&ai.CacheOptions{Store: g.state})
	}
	if g.locales == nil {
		g.locales = locales.NewRegistry()
	}
	if g.log == nil {
		g.log = slog.New(slog.DiscardHandler)
	}
	if g.now == nil {
		g.now = time.Now
	}
	if g.tmpl == nil {
		g.tmpl = templates.NewMemStore(g.now)
	}
	switch {
	case g.maxCount == 0:
		g.maxCount = DefaultMaxCount
	case g.maxCount < 1 || g.maxCount > DefaultMaxCount:
		return nil, fmt.Errorf("contentgen: New: Config.MaxCount must be between 1 and %d, got %d", DefaultMaxCount, c.MaxCount)
	}
	if g.batch == 0 {
		g.batch = 50
	} else if g.batch < 1 {
		return nil, fmt.Errorf("contentgen: New: Config.BatchSize must be positive, got %d", c.BatchSize)
	}
	if g.imageConc == 0 {
		g.imageConc = 4
	} else if g.imageConc < 1 {
		return nil, fmt.Errorf("contentgen: New: Config.ImageConcurrency must be positive, got %d", c.ImageConcurrency)
	}
	for i, p := range c.ImageProviders {
		if p == nil {
			return nil, fmt.Errorf("contentgen: New: Config.ImageProviders[%d] is nil", i)
		}
		g.images[p.Info().Slug] = p
	}
	return g, nil
}

// Host returns the host the Generator writes to.
func (g *Generator) Host() Host { return g.host }

// History returns the history store.
func (g *Generator) HistoryStore() history.Store { return g.hist }

// Locales returns the locale registry.
func (g *Generator) Locales() *locales.Registry { return g.locales }

// ImageProviders returns the configured image providers by slug.
func (g *Generator) ImageProviders() map[string]providers.ImageProvider {
	out := make(map[string]providers.ImageProvider, len(g.images))
	for k, v := range g.images {
		out[k] = v
	}
	return out
}

// run is the state of one generation run: its random source, text writer,
// settings and the events it reports.
type run struct {
	g        *Generator
	id       string
	seed     uint64
	r        *mrand.Rand
	w        *locales.Writer
	locale   string
	settings Settings
	progress func(Event)
	warnings []string
	warned   map[string]bool
	started  time.Time
}

// newRun prepares a run. seed is the request's seed, if any.
func (g *Generator) newRun(ctx context.Context, seed *int64, locale string, progress func(Event)) (*run, error) {
	settings, err := g.Settings(ctx)
	if err != nil {
		return nil, err
	}
	n := g.runs.Add(1)
	var s uint64
	switch {
	case seed != nil:
		s = uint64(*seed)
	case g.seed != nil:
		s = uint64(*g.seed) ^ (uint64(n) * 0x9E3779B97F4A7C15)
	default:
		var b [8]byte
		_, _ = rand.Read(b[:])
		s = binary.LittleEndian.Uint64(b[:])
	}
	code, err := g.resolveLocale(ctx, locale, settings)
	if err != nil {
		return nil, err
	}
	pack, err := g.locales.Lookup(code)
	if err != nil {
		return nil, invalid("locale", "locale %q is not supported", locale)
	}
	r := mrand.New(mrand.NewPCG(s, s^0xDA942042E4DD58B5))
	rn := &run{
		g:        g,
		seed:     s,
		r:        r,
		w:        locales.NewWriter(pack, locales.Source(settings.TextSource), r),
		locale:   pack.Locale().Code,
		settings: settings,
		progress: progress,
		warned:   map[string]bool{},
		started:  g.now(),
	}
	rn.id = fmt.Sprintf("%016x-%d", s, n)
	return rn, nil
}

// resolveLocale picks the run's locale: the request's, else the setting,
// with "auto" following the site.
func (g *Generator) resolveLocale(ctx context.Context, requested string, s Settings) (string, error) {
	if requested != "" && requested != "auto" {
		code, ok := g.locales.Match(requested)
		if !ok {
			return "", invalid("locale", "locale %q is not supported; GET /languages lists the supported codes", requested)
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
	if c, ok := g.locales.Match(code); ok {
		return c, nil
	}
	return "en_US", nil
}

func (rn *run) info(format string, args ...any) {
	if rn.progress != nil {
		rn.progress(Event{Type: EventInfo, Message: fmt.Sprintf(format, args...)})
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

// pastDate returns a time within the last days days, before now.
func (rn *run) pastDate(days int) time.Time {
	now := rn.g.now()
	return now.Add(-time.Duration(rn.r.Int64N(int64(days) * int64(24*time.Hour)))).Truncate(time.Second)
}

// trackMeta is the marker meta every generated object carries.
func trackMeta(extra int) Meta {
	m := make(Meta, 1+extra)
	m[MarkerKey] = MarkerValue
	return m
}

// record stores history entries for created ids. When it fails, the
// objects are removed again so that nothing generated is left untracked.
func (g *Generator) record(ctx context.Context, entries []history.Entry, undo func(context.Context) error) error {
	if len(entries) == 0 {
		return nil
	}
	if err := g.hist.Add(ctx, entries); err != nil {
		if undo != nil {
			if uerr := undo(context.WithoutCancel(ctx)); uerr != nil {
				g.log.Error("contentgen: removing untracked content failed", "err", uerr)
			}
		}
		return failed(err, "recording history")
	}
	return nil
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

// intParam resolves an optional integer parameter with a default and range.
func intParam(v *int, def, lo, hi int, param string) (int, error) {
	if v == nil {
		return def, nil
	}
	if *v < lo || *v > hi {
		return 0, invalid(param, "%s must be between %d and %d, got %d", param, lo, hi, *v)
	}
	return *v, nil
}

// countParam is intParam for count, with the invalid_count code.
func countParam(v *int, def, max int) (int, error) {
	if v == nil {
		return def, nil
	}
	if *v < 1 || *v > max {
		return 0, Errorf(CodeInvalidCount, "count", "count must be between 1 and %d, got %d", max, *v)
	}
	return *v, nil
}

func boolParam(v *bool, def bool) bool {
	if v == nil {
		return def
	}
	return *v
}

// enumParam checks v against allowed, returning def when v is empty.
func enumParam(v, def, param string, allowed ...string) (string, error) {
	if v == "" {
		return def, nil
	}
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	return "", invalid(param, "%s must be one of %v, got %q", param, allowed, v)
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

// withTx runs fn in a host transaction when the host supports them.
func (g *Generator) withTx(ctx context.Context, fn func(ctx context.Context, h Host) error) error {
	if tx, ok := g.host.(Transactor); ok {
		return tx.InTx(ctx, fn)
	}
	return fn(ctx, g.host)
}
