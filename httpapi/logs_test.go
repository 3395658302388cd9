package httpapi_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
)

// logRecorder is a slog.Handler that keeps every record, for tests that
// check what was logged and at which level. It is safe for concurrent use.
type logRecorder struct {
	mu      sync.Mutex
	records []slog.Record
}

func (l *logRecorder) Enabled(context.Context, slog.Level) bool { return true }

func (l *logRecorder) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	l.records = append(l.records, r.Clone())
	l.mu.Unlock()
	return nil
}

func (l *logRecorder) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logRecorder) WithGroup(string) slog.Handler      { return l }

// logLine is a record flattened for assertions.
type logLine struct {
	Level   slog.Level
	Message string
	Attrs   map[string]string
}

// lines returns the records so far.
func (l *logRecorder) lines() []logLine {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]logLine, len(l.records))
	for i, r := range l.records {
		line := logLine{Level: r.Level, Message: r.Message, Attrs: map[string]string{}}
		r.Attrs(func(a slog.Attr) bool {
			line.Attrs[a.Key] = a.Value.String()
			return true
		})
		out[i] = line
	}
	return out
}

// find returns the records whose message contains s.
func (l *logRecorder) find(s string) []logLine {
	var out []logLine
	for _, line := range l.lines() {
		if strings.Contains(line.Message, s) {
			out = append(out, line)
		}
	}
	return out
}

// atLeast returns the records at level or above.
func (l *logRecorder) atLeast(level slog.Level) []logLine {
	var out []logLine
	for _, line := range l.lines() {
		if line.Level >= level {
			out = append(out, line)
		}
	}
	return out
}
