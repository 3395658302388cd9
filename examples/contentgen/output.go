package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/httpapi"
)

// progress shows the events of a run on stderr. On a terminal, a step
// that counts (images made, posts written) is a bar of its done and total
// items, and the other events are lines above it. Elsewhere every event
// is a plain line, but a counting step prints at most one line a second
// (and its first and last); nothing with --quiet.
type progress struct {
	out   io.Writer
	tty   bool
	quiet bool
	// throttle is the least time between two redraws of the bar.
	throttle time.Duration
	now      func() time.Time
	bar      *progressbar.ProgressBar
	// items is what the bar, or the last counted plain line, counts.
	items string
	// printed is when the last counted plain line was printed.
	printed time.Time
	// rate adds the rate of the counted items to the bar (runs).
	rate bool
}

// plainInterval is the least time between two counted plain lines.
const plainInterval = time.Second

func (a *app) newProgress() *progress {
	return &progress{out: a.stderr, tty: a.isTerminal(a.stderr), quiet: a.quiet, throttle: a.barThrottle, now: a.now}
}

// note reports a step of a run without a count.
func (p *progress) note(msg string) {
	p.event(contentgen.Event{Type: contentgen.EventInfo, Message: msg})
}

// event reports e. It runs on the generating goroutine and only writes.
func (p *progress) event(e contentgen.Event) {
	if p.quiet {
		return
	}
	line := e.Message
	if e.Type == contentgen.EventWarning {
		line = "warning: " + line
	}
	if e.Total <= 0 || e.Type == contentgen.EventWarning {
		if p.tty {
			p.println(line)
		} else {
			fmt.Fprintln(p.out, line)
		}
		return
	}
	if !p.tty {
		now := p.now()
		if e.Items != p.items || e.Done >= e.Total || now.Sub(p.printed) >= plainInterval {
			fmt.Fprintln(p.out, line)
			p.items, p.printed = e.Items, now
		}
		return
	}
	if p.bar == nil || e.Items != p.items || p.bar.GetMax() != e.Total {
		p.finish()
		p.items = e.Items
		opts := []progressbar.Option{
			progressbar.OptionSetWriter(p.out),
			progressbar.OptionSetDescription(e.Items),
			progressbar.OptionShowCount(),
			progressbar.OptionSetWidth(30),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(p.throttle),
			progressbar.OptionClearOnFinish(),
		}
		if p.rate {
			opts = append(opts, progressbar.OptionShowIts(), progressbar.OptionSetItsString(e.Items))
		}
		p.bar = progressbar.NewOptions(e.Total, opts...)
	}
	_ = p.bar.Set(e.Done)
}

// println prints a line above the bar, or alone before it starts.
func (p *progress) println(line string) {
	if p.bar != nil {
		_, _ = progressbar.Bprintln(p.bar, line)
		return
	}
	fmt.Fprintln(p.out, line)
}

// finish removes the bar.
func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
		p.bar = nil
	}
}

// postsJSON is the result of generate posts with --json: the fields of
// the API's posts generation result (its counts as the API builds them),
// the post type, the elapsed time and the time saved in seconds.
type postsJSON struct {
	Success  bool     `json:"success"`
	Count    int      `json:"count"`
	IDs      []int64  `json:"ids"`
	PostType string   `json:"post_type"`
	Message  string   `json:"message"`
	Warnings []string `json:"warnings"`
	httpapi.PostsCounts
	TimeSaved        string  `json:"time_saved"`
	TimeSavedSeconds int64   `json:"time_saved_seconds"`
	ElapsedSeconds   float64 `json:"elapsed_seconds"`
	// AIText is set for runs with --text-source ai.
	AIText *aiTextJSON `json:"ai_text,omitempty"`
}

// aiTextJSON is what the AI provider wrote in a run and the tokens it
// took.
type aiTextJSON struct {
	Provider         string `json:"provider"`
	Posts            int    `json:"posts"`
	Comments         int    `json:"comments"`
	Cached           int    `json:"cached"`
	FallbackPosts    int    `json:"fallback_posts"`
	FallbackComments int    `json:"fallback_comments"`
	Tokens           int    `json:"tokens"`
	TokenBudget      int    `json:"token_budget"`
}

func newAITextJSON(s *contentgen.AITextStats) *aiTextJSON {
	if s == nil {
		return nil
	}
	return &aiTextJSON{s.Provider, s.Posts, s.Comments, s.Cached, s.FallbackPosts, s.FallbackComments, s.Tokens, s.TokenBudget}
}

func (a *app) postsSummary(res *contentgen.PostsResult, took time.Duration) error {
	postType, related := res.PostType, res.RelatedTotal()
	msg := fmt.Sprintf("Generated %d posts of type %s", len(res.IDs), postType)
	if a.jsonOut {
		return a.writeJSON(postsJSON{
			Success: true, Count: len(res.IDs), IDs: res.IDs, PostType: postType, Message: msg,
			Warnings: nonNil(res.Warnings), PostsCounts: httpapi.NewPostsCounts(res),
			TimeSaved: formatDuration(res.TimeSaved), TimeSavedSeconds: int64(res.TimeSaved / time.Second),
			ElapsedSeconds: took.Seconds(), AIText: newAITextJSON(res.AIText),
		})
	}
	a.printf("%s in %s.\n", msg, took.Round(time.Millisecond))
	a.printf("  ids:             %s\n", formatIDs(res.IDs))
	a.printf("  featured images: %d with, %d without\n", res.WithFeaturedImage, res.WithoutFeaturedImage)
	terms := 0
	for _, n := range res.Terms {
		terms += n
	}
	a.printf("  also created:    %d authors, %d terms%s, %d comments, %d related posts%s\n",
		res.Authors, terms, perKey(res.Terms), res.Comments, related, perKey(res.RelatedPosts))
	if s := res.AIText; s != nil {
		a.printf("  AI text:         %d posts, %d comments by %s (%d from the cache), %d of %d tokens\n",
			s.Posts, s.Comments, s.Provider, s.Cached, s.Tokens, s.TokenBudget)
	}
	a.warnings(res.Warnings)
	a.printf("  time saved:      %s\n", formatDuration(res.TimeSaved))
	return nil
}

// resultJSON is the result of generate terms, users and comments with
// --json: the fields of the API's generation result, the elapsed time
// and the time saved in seconds.
type resultJSON struct {
	Success          bool     `json:"success"`
	Count            int      `json:"count"`
	IDs              []int64  `json:"ids"`
	DeletedCount     int      `json:"deleted_count"`
	Message          string   `json:"message"`
	Warnings         []string `json:"warnings"`
	TimeSaved        string   `json:"time_saved"`
	TimeSavedSeconds int64    `json:"time_saved_seconds"`
	ElapsedSeconds   float64  `json:"elapsed_seconds"`
}

func (a *app) resultSummary(what string, res *contentgen.Result, took time.Duration) error {
	msg := fmt.Sprintf("Generated %d %s", len(res.IDs), what)
	if res.Posts > 0 {
		msg += fmt.Sprintf(" on %d posts", res.Posts)
	}
	if a.jsonOut {
		return a.writeJSON(resultJSON{
			Success: true, Count: len(res.IDs), IDs: nonNil(res.IDs), DeletedCount: res.Deleted, Message: msg,
			Warnings:  nonNil(res.Warnings),
			TimeSaved: formatDuration(res.TimeSaved), TimeSavedSeconds: int64(res.TimeSaved / time.Second),
			ElapsedSeconds: took.Seconds(),
		})
	}
	a.printf("%s in %s.\n", msg, took.Round(time.Millisecond))
	a.printf("  ids:        %s\n", formatIDs(res.IDs))
	if res.Deleted > 0 {
		a.printf("  deleted first: %d\n", res.Deleted)
	}
	a.warnings(res.Warnings)
	a.printf("  time saved: %s\n", formatDuration(res.TimeSaved))
	return nil
}

func (a *app) warnings(ws []string) {
	if len(ws) == 0 {
		return
	}
	a.printf("  warnings:\n")
	for _, w := range ws {
		a.printf("    - %s\n", w)
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// perKey formats counts per key as " (a 1, b 2)", or "" when there are
// none.
func perKey(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// formatIDs lists ids compactly: runs of consecutive ids as ranges, the
// first 20 items at most.
func formatIDs(ids []int64) string {
	if len(ids) == 0 {
		return "none"
	}
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, strconv.FormatInt(ids[i], 10)+"-"+strconv.FormatInt(ids[j], 10))
		} else {
			parts = append(parts, strconv.FormatInt(ids[i], 10))
		}
		i = j + 1
	}
	if len(parts) > 20 {
		parts = append(parts[:20], "...")
	}
	return strings.Join(parts, ", ")
}

// formatDuration writes a time saved as hours and minutes ("2h 05m"),
// or minutes and seconds under an hour ("4m 30s").
func formatDuration(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	if h > 0 {
		return fmt.Sprintf("%dh %02dm", h, m)
	}
	return fmt.Sprintf("%dm %02ds", m, s)
}
