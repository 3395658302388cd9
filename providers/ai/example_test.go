package ai_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/ai"
)

// A primary provider that is down, a secondary that answers, and a cache
// so that the second run asks nobody.
func Example() {
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer down.Close()
	asked := 0
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked++
		_, _ = io.WriteString(w, `{"id":"msg_1","type":"message","role":"assistant","content":[`+
			`{"type":"tool_use","id":"toolu_1","name":"record_field_types","input":`+
			`{"detections":[{"key":"field_1","type":"email","confidence":0.92}]}}],"stop_reason":"tool_use"}`)
	}))
	defer up.Close()

	primary, _ := ai.New(ai.SlugOne, ai.Options{BaseURL: down.URL, Model: "model-a", APIKey: "key-1", RetryWait: 1})
	secondary, _ := ai.New(ai.SlugTwo, ai.Options{BaseURL: up.URL, Model: "model-b", APIKey: "key-2"})
	chain := ai.NewChain(primary, secondary)
	chain.OnFailure = func(name string, err error) { fmt.Println("warning:", name, "failed:", ai.TestMessage(err)) }
	detector := ai.NewCachedDetector(chain, ai.NewCache(nil), nil)

	fields := []providers.Field{{Key: "field_1", Name: "kontakt", Label: "Kontakt", Type: "text"}}
	for range 2 {
		found, err := detector.Detect(context.Background(), "book", fields, []string{"email", "phone"})
		fmt.Println(found, err)
	}
	fmt.Println("secondary asked", asked, "time(s)")
	// Output:
	// warning: ai_one failed: API error 503.
	// [{field_1 email 0.92}] <nil>
	// [{field_1 email 0.92}] <nil>
	// secondary asked 1 time(s)
}

func ExampleTestMessage() {
	fmt.Println(ai.TestMessage(nil))
	fmt.Println(ai.TestMessage(providers.ErrNotConfigured))
	fmt.Println(ai.TestMessage(&ai.APIError{Provider: ai.SlugTwo, StatusCode: 401}))
	fmt.Println(ai.TestMessage(ai.ErrUnreachable))
	// Output:
	// Connection successful: the API key is valid.
	// The API key is not configured.
	// API error 401: invalid API key.
	// Connection failed: the AI provider could not be reached.
}
