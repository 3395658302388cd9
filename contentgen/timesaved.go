package contentgen

import (
	"context"
	"encoding/json"
	"time"
)

// Estimates of the work a person would spend per item.
const (
	PostBasicWork = 3 * time.Minute
	// PostRichWork is a post with a featured image or custom fields.
	PostRichWork = 8 * time.Minute
	TermWork     = 90 * time.Second
	UserWork     = 150 * time.Second
	CommentWork  = 30 * time.Second
)

// tally counts what a run made, for the time-saved counters.
type tally struct {
	basicPosts, richPosts, terms, users, comments int
	// sources counts the posts by the text source that wrote them.
	sources map[string]int
}

// bySource counts a post written by the text source src.
func (t *tally) bySource(src string) {
	if t.sources == nil {
		t.sources = map[string]int{}
	}
	t.sources[src]++
}

func (t tally) posts() time.Duration {
	return time.Duration(t.basicPosts)*PostBasicWork + time.Duration(t.richPosts)*PostRichWork
}

func (t tally) total() time.Duration {
	return t.posts() + time.Duration(t.terms)*TermWork + time.Duration(t.users)*UserWork + time.Duration(t.comments)*CommentWork
}

// timeCounters is the persisted time-saved state.
type timeCounters struct {
	PostSeconds    int64 `json:"post_seconds"`
	TermSeconds    int64 `json:"term_seconds"`
	UserSeconds    int64 `json:"user_seconds"`
	CommentSeconds int64 `json:"comment_seconds"`
	// PostsBySource counts the posts by the text source that wrote them.
	PostsBySource map[string]int64 `json:"posts_by_text_source,omitempty"`
	LastUpdated   time.Time        `json:"last_updated"`
}

const stateTimeSaved = "time_saved"

// TimeSaved is the estimated work generation has saved so far.
type TimeSaved struct {
	Posts, Terms, Users, Comments time.Duration
	// PostsByTextSource counts the posts behind Posts by the text source
	// that wrote them (lorem, realtext, ai); posts of before it was kept
	// are not counted.
	PostsByTextSource map[string]int
	// HourlyRate is the hourly_rate setting the money is valued at.
	HourlyRate float64
	// LastUpdated is when a run last added to the counters; zero before
	// anything was generated.
	LastUpdated time.Time
}

// addTimeSaved adds what a run made to the counters in one atomic update
// and returns the run's estimate. A failure is logged: it never fails the
// run whose content exists.
func (g *Generator) addTimeSaved(ctx context.Context, t tally) time.Duration {
	total := t.total()
	if total == 0 {
		return 0
	}
	now := g.now()
	err := g.cfg.State.Update(context.WithoutCancel(ctx), stateTimeSaved, func(old []byte) ([]byte, error) {
		var c timeCounters
		if old != nil {
			if err := json.Unmarshal(old, &c); err != nil {
				return nil, err
			}
		}
		c.PostSeconds += int64(t.posts() / time.Second)
		c.TermSeconds += int64(time.Duration(t.terms) * TermWork / time.Second)
		c.UserSeconds += int64(time.Duration(t.users) * UserWork / time.Second)
		c.CommentSeconds += int64(time.Duration(t.comments) * CommentWork / time.Second)
		for src, n := range t.sources {
			if c.PostsBySource == nil {
				c.PostsBySource = map[string]int64{}
			}
			c.PostsBySource[src] += int64(n)
		}
		c.LastUpdated = now
		return json.Marshal(c)
	})
	if err != nil {
		g.log.Warn("contentgen: time saved not recorded", "err", err)
	}
	return total
}

// TimeSaved reports the time saved so far.
func (g *Generator) TimeSaved(ctx context.Context) (TimeSaved, error) {
	var c timeCounters
	raw, err := g.cfg.State.Load(ctx, stateTimeSaved)
	if err != nil {
		return TimeSaved{}, internal(err, "reading the time saved")
	}
	if raw != nil {
		if err := json.Unmarshal(raw, &c); err != nil {
			return TimeSaved{}, internal(err, "decoding the time saved")
		}
	}
	s, err := g.settings.load(ctx)
	if err != nil {
		return TimeSaved{}, err
	}
	bySource := make(map[string]int, len(c.PostsBySource))
	for src, n := range c.PostsBySource {
		bySource[src] = int(n)
	}
	return TimeSaved{
		PostsByTextSource: bySource,
		Posts:             time.Duration(c.PostSeconds) * time.Second,
		Terms:             time.Duration(c.TermSeconds) * time.Second,
		Users:             time.Duration(c.UserSeconds) * time.Second,
		Comments:          time.Duration(c.CommentSeconds) * time.Second,
		HourlyRate:        s.HourlyRate,
		LastUpdated:       c.LastUpdated,
	}, nil
}

// ResetTimeSaved sets every time-saved counter to zero.
func (g *Generator) ResetTimeSaved(ctx context.Context) error {
	err := g.cfg.State.Update(ctx, stateTimeSaved, func([]byte) ([]byte, error) { return json.Marshal(timeCounters{}) })
	return internal(err, "resetting the time saved")
}
