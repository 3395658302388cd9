package ai

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"

	"github.com/contentgen/contentgen/providers"
)

// Store persists one JSON value under a key. Its method set matches the
// service's state store, so the same store can hold the cache.
// Implementations must be safe for concurrent use and honour ctx.
type Store interface {
	// Load returns the value stored under key, or nil and no error when
	// there is none.
	Load(ctx context.Context, key string) ([]byte, error)
	// Save stores value under key, replacing any previous value.
	Save(ctx context.Context, key string, value []byte) error
}

// DefaultCacheKey is the Store key under which a Cache persists itself.
const DefaultCacheKey = "ai.field_detections"

// CacheOptions configure a Cache; the zero value keeps it in memory only.
type CacheOptions struct {
	// Store persists the cache; nil keeps it in memory only.
	Store Store
	// Key is the Store key; empty means DefaultCacheKey.
	Key string
	// Logger receives notes about stored data that could not be read; nil
	// discards them.
	Logger *slog.Logger
}

// cacheEntry is what is remembered of one field. An empty Type records
// that the detector could not place the field.
type cacheEntry struct {
	Type       string  `json:"type"`
	Confidence float64 `json:"confidence"`
	Key        string  `json:"key"`
}

type cacheDoc struct {
	Version int                              `json:"version"`
	Entries map[string]map[string]cacheEntry `json:"entries"`
}

const cacheVersion = 1

// Cache remembers detections per post type and field signature, including
// fields the detector could not place, so that a second run asks nothing.
// A Cache is safe for concurrent use. With a Store it loads the persisted
// entries on first use and saves after every change.
type Cache struct {
	store Store
	key   string
	log   *slog.Logger

	mu     sync.Mutex
	loaded bool
	m      map[string]map[string]cacheEntry // post type -> signature -> entry
}

// NewCache returns an empty cache; opts may be nil.
func NewCache(opts *CacheOptions) *Cache {
	c := &Cache{key: DefaultCacheKey, m: map[string]map[string]cacheEntry{}}
	if opts != nil {
		c.store = opts.Store
		if opts.Key != "" {
			c.key = opts.Key
		}
		c.log = opts.Logger
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	c.loaded = c.store == nil
	return c
}

// FieldSignature returns the hash that identifies f in the cache: a hex
// SHA-256 over its key, name, label, type, instructions and choices, so a
// field whose definition changes is asked about again.
func FieldSignature(f providers.Field) string {
	h := sha256.New()
	write := func(s string) {
		fmt.Fprintf(h, "%d:%s;", len(s), s)
	}
	write(f.Key)
	write(f.Name)
	write(f.Label)
	write(f.Type)
	write(f.Instructions)
	fmt.Fprintf(h, "%d;", len(f.Choices))
	for _, c := range f.Choices {
		write(c)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// load reads the persisted entries once; c.mu must be held. Unreadable
// data is logged and discarded (it is only a cache); a failing Store is
// returned and retried on the next call.
func (c *Cache) load(ctx context.Context) error {
	if c.loaded {
		return nil
	}
	raw, err := c.store.Load(ctx, c.key)
	if err != nil {
		return fmt.Errorf("ai: loading detection cache: %w", err)
	}
	c.loaded = true
	if raw == nil {
		return nil
	}
	var doc cacheDoc
	if err := json.Unmarshal(raw, &doc); err != nil || doc.Version != cacheVersion {
		c.log.WarnContext(ctx, "ai: discarding unreadable detection cache", "error", err, "version", doc.Version)
		return nil
	}
	for pt, entries := range doc.Entries {
		if len(entries) > 0 {
			c.m[pt] = entries
		}
	}
	return nil
}

// save persists the entries; c.mu must be held.
func (c *Cache) save(ctx context.Context) error {
	if c.store == nil {
		return nil
	}
	raw, err := json.Marshal(cacheDoc{Version: cacheVersion, Entries: c.m})
	if err != nil {
		return err
	}
	if err := c.store.Save(ctx, c.key, raw); err != nil {
		return fmt.Errorf("ai: saving detection cache: %w", err)
	}
	return nil
}

// Lookup splits fields of postType into the remembered detections (only
// those of a type in known, in field order) and the fields not remembered.
// Fields remembered as not placeable are in neither. On a Store failure it
// returns the error with every field a miss.
func (c *Cache) Lookup(ctx context.Context, postType string, fields []providers.Field, known []string) (hits []providers.Detection, misses []providers.Field, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.load(ctx); err != nil {
		return nil, fields, err
	}
	types := knownTypes(known)
	entries := c.m[postType]
	for _, f := range fields {
		e, ok := entries[FieldSignature(f)]
		if !ok {
			misses = append(misses, f)
			continue
		}
		if t, known := types.byNorm[normType(e.Type)]; e.Type != "" && known {
			hits = append(hits, providers.Detection{Key: f.Key, Type: t, Confidence: e.Confidence})
		}
	}
	return hits, misses, nil
}

// Put remembers the answer of a detector for the fields it was asked
// about: the detection of each field in found, and "not placeable" for the
// fields of asked without one. Detections for keys not in asked are
// ignored. The in-memory cache is updated even when saving fails.
func (c *Cache) Put(ctx context.Context, postType string, asked []providers.Field, found []providers.Detection) error {
	if len(asked) == 0 {
		return nil
	}
	byKey := make(map[string]providers.Detection, len(found))
	for _, d := range found {
		byKey[d.Key] = d
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.load(ctx); err != nil {
		return err
	}
	entries := c.m[postType]
	if entries == nil {
		entries = make(map[string]cacheEntry, len(asked))
		c.m[postType] = entries
	}
	for _, f := range asked {
		d := byKey[f.Key]
		entries[FieldSignature(f)] = cacheEntry{Key: f.Key, Type: d.Type, Confidence: d.Confidence}
	}
	return c.save(ctx)
}

// Len returns the number of remembered fields over all post types.
func (c *Cache) Len(ctx context.Context) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.load(ctx); err != nil {
		return 0, err
	}
	n := 0
	for _, e := range c.m {
		n += len(e)
	}
	return n, nil
}

// ClearAll forgets every remembered field and returns how many there were
// (the count of DELETE /field-detections). With a Store, the persisted
// entries are read first so that they are counted and removed too.
func (c *Cache) ClearAll(ctx context.Context) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.load(ctx); err != nil {
		return 0, err
	}
	n := 0
	for _, e := range c.m {
		n += len(e)
	}
	c.m = map[string]map[string]cacheEntry{}
	if n == 0 {
		return 0, nil
	}
	return n, c.save(ctx)
}

// ClearPostType forgets the remembered fields of postType and returns how
// many there were; an unknown post type gives 0.
func (c *Cache) ClearPostType(ctx context.Context, postType string) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.load(ctx); err != nil {
		return 0, err
	}
	n := len(c.m[postType])
	if n == 0 {
		return 0, nil
	}
	delete(c.m, postType)
	return n, c.save(ctx)
}

// CachedDetector puts a Cache in front of a detector: remembered fields
// are answered from the cache, only the others go to the detector, and its
// answer (including the fields it could not place) is remembered. It is
// safe for concurrent use when the detector is.
type CachedDetector struct {
	detector providers.FieldDetector
	cache    *Cache
	log      *slog.Logger
}

var _ providers.FieldDetector = (*CachedDetector)(nil)

// NewCachedDetector returns d behind cache. logger (nil discards) receives
// cache store failures, which never fail a detection.
func NewCachedDetector(d providers.FieldDetector, cache *Cache, logger *slog.Logger) *CachedDetector {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &CachedDetector{detector: d, cache: cache, log: logger}
}

// Name returns the wrapped detector's name.
func (c *CachedDetector) Name() string { return c.detector.Name() }

// Detect answers from the cache and asks the wrapped detector about the
// rest, in one call. Detections come in field order. When the detector
// fails, Detect returns the detections found in the cache together with
// the detector's error, and nothing is remembered for the fields asked.
func (c *CachedDetector) Detect(ctx context.Context, postType string, fields []providers.Field, known []string) ([]providers.Detection, error) {
	fields = uniqueFields(fields)
	hits, misses, err := c.cache.Lookup(ctx, postType, fields, known)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		c.log.WarnContext(ctx, "ai: detection cache unavailable", "error", err)
	}
	if len(misses) == 0 {
		return hits, nil
	}
	found, err := c.detector.Detect(ctx, postType, misses, known)
	if err != nil {
		return hits, err
	}
	asked := make(map[string]bool, len(misses))
	for _, f := range misses {
		asked[f.Key] = true
	}
	kept := found[:0:0]
	for _, d := range found {
		if asked[d.Key] {
			kept = append(kept, d)
		}
	}
	if err := c.cache.Put(ctx, postType, misses, kept); err != nil {
		c.log.WarnContext(ctx, "ai: could not remember detections", "error", err)
	}
	return inFieldOrder(fields, hits, kept), nil
}

// inFieldOrder merges detections in the order of fields.
func inFieldOrder(fields []providers.Field, sets ...[]providers.Detection) []providers.Detection {
	byKey := map[string]providers.Detection{}
	for _, set := range sets {
		for _, d := range set {
			byKey[d.Key] = d
		}
	}
	out := make([]providers.Detection, 0, len(byKey))
	for _, f := range fields {
		if d, ok := byKey[f.Key]; ok {
			out = append(out, d)
		}
	}
	return out
}
