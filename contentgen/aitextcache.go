package contentgen

import (
	"container/list"
	"context"
	"encoding/json"
	"log/slog"
	"sync"
)

// stateAITexts is the state key of the AI text cache: the answers of the
// AI provider by prompt and seed, most recent last, so that a run
// repeated with the same seed makes no new request, also in the next
// process.
const stateAITexts = "ai_texts"

// textCache remembers answers of the AI provider by their key (provider,
// prompt and seed), at most size of them, the least recently used leaving
// first. It is loaded from the state store on first use and saved by
// flush. It is safe for concurrent use.
type textCache struct {
	state StateStore
	size  int
	log   *slog.Logger

	mu     sync.Mutex
	loaded bool
	dirty  bool
	order  *list.List // of *textEntry, least recently used first
	byKey  map[string]*list.Element
}

type textEntry struct {
	Key  string `json:"k"`
	Text string `json:"t"`
}

func newTextCache(state StateStore, size int, log *slog.Logger) *textCache {
	return &textCache{state: state, size: size, log: log, order: list.New(), byKey: map[string]*list.Element{}}
}

// load reads the kept answers once; c.mu is held. A failure is logged and
// the cache starts empty: it only saves requests.
func (c *textCache) load(ctx context.Context) {
	if c.loaded {
		return
	}
	c.loaded = true
	raw, err := c.state.Load(ctx, stateAITexts)
	if err != nil {
		c.log.Warn("contentgen: reading the AI text cache", "err", err)
		return
	}
	var kept []textEntry
	if len(raw) > 0 && json.Unmarshal(raw, &kept) != nil {
		return // a damaged cache is an empty one
	}
	for _, e := range kept {
		c.add(e.Key, e.Text)
	}
}

func (c *textCache) add(key, text string) {
	if el, ok := c.byKey[key]; ok {
		el.Value.(*textEntry).Text = text
		c.order.MoveToBack(el)
		return
	}
	c.byKey[key] = c.order.PushBack(&textEntry{Key: key, Text: text})
	for c.order.Len() > c.size {
		old := c.order.Front()
		c.order.Remove(old)
		delete(c.byKey, old.Value.(*textEntry).Key)
	}
}

// get returns the answer kept under key.
func (c *textCache) get(ctx context.Context, key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.load(ctx)
	el, ok := c.byKey[key]
	if !ok {
		return "", false
	}
	c.order.MoveToBack(el)
	return el.Value.(*textEntry).Text, true
}

// put keeps an answer under key.
func (c *textCache) put(key, text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.add(key, text)
	c.dirty = true
}

// len returns the number of answers kept in memory.
func (c *textCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// flush saves the cache to the state store when it changed. A failure is
// logged.
func (c *textCache) flush(ctx context.Context) {
	c.mu.Lock()
	if !c.dirty {
		c.mu.Unlock()
		return
	}
	kept := make([]textEntry, 0, c.order.Len())
	for el := c.order.Front(); el != nil; el = el.Next() {
		kept = append(kept, *el.Value.(*textEntry))
	}
	c.dirty = false
	c.mu.Unlock()
	raw, err := json.Marshal(kept)
	if err == nil {
		err = c.state.Update(context.WithoutCancel(ctx), stateAITexts, func([]byte) ([]byte, error) { return raw, nil })
	}
	if err != nil {
		c.log.Warn("contentgen: keeping the AI text cache", "err", err)
	}
}
