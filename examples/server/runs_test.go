package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/examples/internal/site"
)

// runRecord is what the /runs answers and events say of a run.
type runRecord struct {
	ID          string `json:"id"`
	Status      string `json:"status"`
	Done        int64  `json:"done"`
	Total       int64  `json:"total"`
	Batches     int64  `json:"batches"`
	BatchesDone int64  `json:"batches_done"`
	Errors      int64  `json:"errors"`
	LastError   string `json:"last_error"`
	Workers     []struct {
		Name    string `json:"name"`
		Batches int64  `json:"batches"`
		Items   int64  `json:"items"`
	} `json:"workers"`
}

// final reports whether no batch of the run runs any more.
func (r runRecord) final() bool {
	return r.Status == "succeeded" || r.Status == "failed" || r.Status == "cancelled"
}

// errStreamEnded is the error of followRun when the stream ends before
// the run does, as when the server dies.
var errStreamEnded = errors.New("the event stream ended")

// followRun reads the events of the run at eventsURL (GET
// {base}/runs/{id}/events, as admin with password pw) and calls fn with
// the run of each, until fn returns true or the run ends (the run then),
// or the stream ends or fails (an error).
func followRun(ctx context.Context, eventsURL, pw string, fn func(runRecord) bool) (runRecord, error) {
	var last runRecord
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, eventsURL, nil)
	if err != nil {
		return last, err
	}
	req.SetBasicAuth("admin", pw)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return last, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return last, fmt.Errorf("GET %s: %s", eventsURL, resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue // a heartbeat, or the blank line between events
		}
		var ev struct {
			Type    string    `json:"type"`
			Run     runRecord `json:"run"`
			Message string    `json:"message"`
		}
		if err := json.Unmarshal([]byte(data), &ev); err != nil {
			return last, fmt.Errorf("event %q: %w", data, err)
		}
		if ev.Type == "error" {
			return last, fmt.Errorf("error event: %s", ev.Message)
		}
		last = ev.Run
		if fn(last) || ev.Type == "complete" {
			return last, nil
		}
	}
	if err := sc.Err(); err != nil {
		return last, fmt.Errorf("%w: %w", errStreamEnded, err)
	}
	return last, errStreamEnded
}

// TestRunsUnavailable: a server that keeps the site in memory answers the
// /runs endpoints with 503 not_configured saying why.
func TestRunsUnavailable(t *testing.T) {
	srv, _, closeSite, err := newServer(context.Background(), serverConfig{
		addr: "127.0.0.1:1", base: "/api", adminPassword: testPassword, db: site.Memory, workers: 1,
	})
	require.NoError(t, err)
	defer closeSite()
	req := httptest.NewRequest("POST", "/api/runs", strings.NewReader(`{"kind":"posts","count":600}`))
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth("admin", testPassword)
	rec := httptest.NewRecorder()
	srv.Handler.ServeHTTP(rec, req)
	require.Equal(t, http.StatusServiceUnavailable, rec.Code, rec.Body.String())
	var out map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out))
	require.Equal(t, "not_configured", out["code"])
	require.Contains(t, out["message"], "-db names memory")
}

// newTestServer serves the API of c on a local address; it returns the
// API's base URL.
func newTestServer(t *testing.T, c serverConfig) string {
	t.Helper()
	srv, _, closeSite, err := newServer(context.Background(), c)
	require.NoError(t, err)
	ts := httptest.NewServer(srv.Handler)
	t.Cleanup(func() {
		ts.Close()
		require.NoError(t, closeSite())
	})
	return ts.URL + c.base
}
