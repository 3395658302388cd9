package contentgen_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/secrets"
	"github.com/contentgen/contentgen/providers/ai"
	"github.com/contentgen/contentgen/templates/fields"
)

// aiServer is a model provider that answers with status and body and counts
// the detection requests it gets.
type aiServer struct {
	srv    *httptest.Server
	calls  atomic.Int32
	status atomic.Int32
	body   atomic.Value
}

func newAIServer(t *testing.T, status int, body string) *aiServer {
	s := &aiServer{}
	s.status.Store(int32(status))
	s.body.Store(body)
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(int(s.status.Load()))
		_, _ = w.Write([]byte(s.body.Load().(string)))
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// TestAISecondaryProviderOverTheWire runs the detection flow of a
// Generator against two providers speaking their real wire formats: the
// primary is down, the secondary answers, the answer is cached, and when
// both fail the run still completes with a warning.
func TestAISecondaryProviderOverTheWire(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// The primary's error message echoes the key, as some providers do.
	primary := newAIServer(t, http.StatusServiceUnavailable,
		`{"error":{"message":"The engine is currently overloaded (key sk-one-secret-1234).","type":"server_error","param":null,"code":null}}`)
	secondary := newAIServer(t, http.StatusOK,
		`{"id":"msg_01","type":"message","role":"assistant","model":"m-1","content":[{"type":"tool_use","id":"toolu_01","name":"record_field_types",`+
			`"input":{"detections":[{"key":"field_xq","type":"email","confidence":0.93}]}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":100,"output_tokens":20}}`)

	keyring, err := secrets.NewKeyringFromKey([]byte("0123456789abcdef0123456789abcdef"))
	require.NoError(t, err)
	opts := func(url string) ai.Options {
		return ai.Options{BaseURL: url, Model: "m-1", Timeout: 2 * time.Second, RetryWait: time.Millisecond, MaxRetryWait: 5 * time.Millisecond}
	}
	f := newFieldFixture(t, 31, nil)
	seed := int64(31)
	logs := &lockedBuffer{}
	gen, err := contentgen.New(f.host, f.hist, &contentgen.Config{
		Seed: &seed, Now: clock, Templates: f.tmpl, FieldAdapters: fields.NewRegistry(f.adapter),
		Logger:    slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		AIKeyring: keyring,
		AIProviders: map[string]ai.Options{
			contentgen.AIOne: opts(primary.srv.URL),
			contentgen.AITwo: opts(secondary.srv.URL),
		},
	})
	require.NoError(t, err)
	f.gen = gen
	_, err = gen.Settings().Update(ctx, func(s *contentgen.Settings) {
		s.AI.Enabled, s.AI.Provider, s.AI.SecondaryEnabled = true, contentgen.AIOne, true
		s.AI.Keys[contentgen.AIOne], s.AI.Keys[contentgen.AITwo] = "sk-one-secret-1234", "two-secret-5678"
	})
	require.NoError(t, err)

	res, posts := f.generate(t, books(2))
	require.Empty(t, res.Warnings)
	for _, p := range posts {
		_, err := mail.ParseAddress(p.Meta["xq_value"])
		require.NoError(t, err, "the secondary provider's answer is used: %q", p.Meta["xq_value"])
	}
	require.EqualValues(t, 2, primary.calls.Load(), "the primary is tried and retried once")
	require.EqualValues(t, 1, secondary.calls.Load())

	_, _ = f.generate(t, books(1))
	require.EqualValues(t, 2, primary.calls.Load(), "a second run is served from the cache")
	require.EqualValues(t, 1, secondary.calls.Load())

	// Both down: the fields fall back to type-based values with a warning.
	_, err = gen.Templates().ClearDetections(ctx, "")
	require.NoError(t, err)
	secondary.status.Store(http.StatusInternalServerError)
	secondary.body.Store(`{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`)
	res, posts = f.generate(t, books(2))
	require.Equal(t, 2, len(res.IDs))
	require.Contains(t, strings.Join(res.Warnings, "\n"), "AI field detection failed")
	require.NotContains(t, strings.Join(res.Warnings, "\n"), "secret")
	for _, p := range posts {
		require.NotEmpty(t, p.Meta["xq_value"])
	}

	// The failures were logged, and no log line carries a key.
	require.Contains(t, logs.String(), "AI field detection failed")
	for _, key := range []string{"sk-one-secret-1234", "two-secret-5678"} {
		require.NotContains(t, logs.String(), key)
	}
}

// lockedBuffer is a bytes.Buffer safe for a logger's concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
