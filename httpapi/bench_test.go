package httpapi_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/demosite"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/httpapi"
	"github.com/contentgen/contentgen/httpapi/auth"
)

// BenchmarkGeneratePosts500HTTP is BenchmarkGeneratePosts500 of package
// contentgen through POST /generate/posts over a real HTTP connection with
// application-password authentication.
func BenchmarkGeneratePosts500HTTP(b *testing.B) {
	seed := int64(1)
	pw, err := auth.NewPasswords(nil)
	if err != nil {
		b.Fatal(err)
	}
	secret, err := pw.NewAppPassword("admin", "bench")
	if err != nil {
		b.Fatal(err)
	}
	var current atomic.Pointer[http.ServeMux]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { current.Load().ServeHTTP(w, r) }))
	defer srv.Close()
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		host, err := demosite.New(nil)
		if err != nil {
			b.Fatal(err)
		}
		gen, err := contentgen.New(host, history.NewMemStore(nil), &contentgen.Config{Seed: &seed})
		if err != nil {
			b.Fatal(err)
		}
		api, err := httpapi.New(gen, &httpapi.Options{Auth: &auth.Basic{Passwords: pw, Users: auth.GeneratorDirectory(gen)}})
		if err != nil {
			b.Fatal(err)
		}
		mux := http.NewServeMux()
		httpapi.Mount(mux, "/contentgen/v1", api)
		current.Store(mux)
		b.StartTimer()

		req, err := http.NewRequest("POST", srv.URL+"/contentgen/v1/generate/posts", strings.NewReader(`{"count":500}`))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.SetBasicAuth("admin", secret)
		resp, err := srv.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%d %s", resp.StatusCode, body)
		}
	}
}
