package contentgen

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Per-item estimates of the work a person would spend, in seconds.
const (
	secondsPostBasic = 180 // 3 minutes
	secondsPostRich  = 480 // 8 minutes: with image and custom fields
	secondsTerm      = 90  // 1.5 minutes
	secondsUser      = 150 // 2.5 minutes
	secondsComment   = 30  // 0.5 minutes
)

// timeCounters is the persisted time-saved state.
type timeCounters struct {
	PostSeconds    int64     `json:"post_seconds"`
	TermSeconds    int64     `json:"term_seconds"`
	UserSeconds    int64     `json:"user_seconds"`
	CommentSeconds int64     `json:"comment_seconds"`
	LastUpdated    time.Time `json:"last_updated"`
}

// Duration is a time-saved value object.
type Duration struct {
	Hours          int    `json:"hours"`
	Minutes        int    `json:"minutes"`
	Seconds        int    `json:"seconds"`
	TotalSeconds   int64  `json:"total_seconds"`
	Formatted      string `json:"formatted"`
	FormattedShort string `json:"formatted_short"`
}

// NewDuration splits a number of seconds into a Duration.
func NewDuration(total int64) Duration {
	if total < 0 {
		total = 0
	}
	d := Duration{
		Hours:        int(total / 3600),
		Minutes:      int(total % 3600 / 60),
		Seconds:      int(total % 60),
		TotalSeconds: total,
	}
	d.Formatted = formatDuration(d)
	switch {
	case d.Hours > 0:
		d.FormattedShort = fmt.Sprintf("%dh %dm", d.Hours, d.Minutes)
	case d.Minutes > 0:
		d.FormattedShort = fmt.Sprintf("%dm", d.Minutes)
	default:
		d.FormattedShort = fmt.Sprintf("%ds", d.Seconds)
	}
	return d
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

func formatDuration(d Duration) string {
	var parts []string
	if d.Hours > 0 {
		parts = append(parts, plural(d.Hours, "hour"))
	}
	if d.Minutes > 0 {
		parts = append(parts, plural(d.Minutes, "minute"))
	}
	if len(parts) == 0 {
		return plural(d.Seconds, "second")
	}
	return strings.Join(parts, " ")
}

// TimeSavings is the report of GET /time-saved.
type TimeSavings struct {
	Total              Duration            `json:"total"`
	ByType             map[string]Duration `json:"by_type"`
	WorkDaysEquivalent float64             `json:"work_days_equivalent"`
	MoneySaved         MoneySaved          `json:"money_saved"`
	// LastUpdated is a timestamp, or nil before anything was generated.
	LastUpdated      *string           `json:"last_updated"`
	EstimatesBasedOn map[string]string `json:"estimates_based_on"`
}

// MoneySaved values the time saved at the hourly rate.
type MoneySaved struct {
	Amount     float64 `json:"amount"`
	Currency   string  `json:"currency"`
	HourlyRate float64 `json:"hourly_rate"`
}

// addTimeSaved adds the estimate of a run to the counters and returns the
// run's formatted estimate.
func (g *Generator) addTimeSaved(ctx context.Context, kind ObjectKind, seconds int64) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	c, err := g.loadCounters(ctx)
	if err == nil {
		switch kind {
		case KindPost:
			c.PostSeconds += seconds
		case KindTerm:
			c.TermSeconds += seconds
		case KindUser:
			c.UserSeconds += seconds
		case KindComment:
			c.CommentSeconds += seconds
		}
		c.LastUpdated = g.now()
		err = g.saveCounters(ctx, c)
	}
	if err != nil {
		g.log.Warn("contentgen: time saved not recorded", "err", err)
	}
	return NewDuration(seconds).Formatted
}

func (g *Generator) loadCounters(ctx context.Context) (timeCounters, error) {
	var c timeCounters
	raw, err := g.state.Load(ctx, stateTimeSaved)
	if err != nil || raw == nil {
		return c, err
	}
	return c, json.Unmarshal(raw, &c)
}

func (g *Generator) saveCounters(ctx context.Context, c timeCounters) error {
	raw, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return g.state.Save(ctx, stateTimeSaved, raw)
}

// TimeSaved reports the time saved so far.
func (g *Generator) TimeSaved(ctx context.Context) (TimeSavings, error) {
	g.mu.Lock()
	c, err := g.loadCounters(ctx)
	var s Settings
	if err == nil {
		s, err = g.loadSettings(ctx)
	}
	g.mu.Unlock()
	if err != nil {
		return TimeSavings{}, err
	}
	total := c.PostSeconds + c.TermSeconds + c.UserSeconds + c.CommentSeconds
	hours := float64(total) / 3600
	ts := TimeSavings{
		Total: NewDuration(total),
		ByType: map[string]Duration{
			"posts":    NewDuration(c.PostSeconds),
			"terms":    NewDuration(c.TermSeconds),
			"users":    NewDuration(c.UserSeconds),
			"comments": NewDuration(c.CommentSeconds),
		},
		WorkDaysEquivalent: math.Round(hours/8*100) / 100,
		MoneySaved: MoneySaved{
			Amount:     math.Round(hours*s.HourlyRate*100) / 100,
			Currency:   "USD",
			HourlyRate: s.HourlyRate,
		},
		EstimatesBasedOn: map[string]string{
			"post_basic":                 "3 minutes",
			"post_with_image_and_fields": "8 minutes",
			"term":                       "1.5 minutes",
			"user":                       "2.5 minutes",
			"comment":                    "0.5 minutes",
		},
	}
	if !c.LastUpdated.IsZero() {
		t := Timestamp(c.LastUpdated)
		ts.LastUpdated = &t
	}
	return ts, nil
}

// ResetTimeSaved sets every time-saved counter to zero.
func (g *Generator) ResetTimeSaved(ctx context.Context) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.saveCounters(ctx, timeCounters{})
}

// Timestamp formats t the way records carry timestamps: "YYYY-MM-DD HH:MM:SS".
func Timestamp(t time.Time) string { return t.Format(time.DateTime) }
