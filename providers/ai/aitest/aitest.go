// Package aitest is an in-process fake of an OpenAI-compatible chat
// completions server (the wire format of the ai_one client, and of local
// servers such as Ollama, llama.cpp and vLLM), for tests of code that has
// posts and comments written by a model.
//
// Its default answers are Markdown posts and comment lists of a fixed
// text that carries what a model must not bring into content (a script,
// raw HTML, its own links and images), so that tests can check both that
// the model's text arrives and that it arrives sanitised.
package aitest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The fixed text of the default answers.
const (
	// Title is the title of every post the fake writes.
	Title = "A Day on the Fake Trail"
	// Phrase is in the first paragraph of every post body.
	Phrase = "the fake model wrote this walk"
	// Summary is the summary of posts that ask for an excerpt.
	Summary = "A short summary the fake model wrote."
	// Comment starts every comment the fake writes.
	Comment = "Fake reader comment"
	// PromptTokens and CompletionTokens are the usage every answer
	// reports.
	PromptTokens, CompletionTokens = 100, 400
)

// Post is the Markdown of a post the fake writes, with a summary when
// summary is set.
func Post(summary bool) string {
	var b strings.Builder
	b.WriteString("# " + Title + "\n\n")
	if summary {
		b.WriteString(Summary + "\n\n")
	}
	b.WriteString("Early in the morning " + Phrase + " with **sturdy** boots and *fresh* bread. See [my blog](https://evil.example/x) <b>now</b>.\n\n")
	b.WriteString("<script>alert('x')</script>\n\n")
	b.WriteString("## Along the ridge\n\nThe path climbs slowly & the view opens over three valleys.\n\n")
	b.WriteString("- Water\n- A map and a compass\n- Rain jacket\n\n")
	b.WriteString("> Walk as if you are kissing the earth with your feet.\n> — Thich Nhat Hanh\n\n")
	b.WriteString("![view](https://evil.example/i.png)\n\n")
	b.WriteString("<img src=x onerror=alert(1)>Back in the valley, the inn serves soup.\n")
	return b.String()
}

var commentsAsked = regexp.MustCompile(`Write (\d+) comments`)

// Comments is the Markdown list of n comments the fake writes.
func Comments(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "- %s number %d, <script>x()</script>about the walk.\n", Comment, i)
	}
	return b.String()
}

// Request is a chat completions request the fake received.
type Request struct {
	Model       string  `json:"model"`
	MaxTokens   int     `json:"max_tokens"`
	Temperature float64 `json:"temperature"`
	Seed        int64   `json:"seed"`
	Messages    []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	// Authorization is the header the request carried.
	Authorization string `json:"-"`
}

// Prompt returns the user message.
func (r *Request) Prompt() string {
	for _, m := range r.Messages {
		if m.Role == "user" {
			return m.Content
		}
	}
	return ""
}

// Server is the fake. Its zero answer hook gives the default answers;
// set Answer to script others. It is safe for concurrent use.
type Server struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []Request
	// answer, when set, answers request n (from 1) instead of the
	// default: it writes the whole response.
	answer func(w http.ResponseWriter, req *Request, n int) bool
}

// NewServer starts a fake that t stops at its end.
func NewServer(t testing.TB) *Server {
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Server.Close)
	return s
}

// BaseURL is the address to configure, as OpenAI-compatible servers
// document theirs: with the /v1 path.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// SetAnswer replaces the default answers: fn gets every request and its
// number (from 1) and returns false to give the default answer.
func (s *Server) SetAnswer(fn func(w http.ResponseWriter, req *Request, n int) bool) {
	s.mu.Lock()
	s.answer = fn
	s.mu.Unlock()
}

// Requests returns the chat completions requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		WriteError(w, http.StatusNotFound, "unknown path "+r.URL.Path)
		return
	}
	var req Request
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil {
		WriteError(w, http.StatusBadRequest, "bad JSON")
		return
	}
	req.Authorization = r.Header.Get("Authorization")
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	n := len(s.reqs)
	answer := s.answer
	s.mu.Unlock()
	if answer != nil && answer(w, &req, n) {
		return
	}
	WriteAnswer(w, DefaultAnswer(&req))
}

// DefaultAnswer is the fake's answer to req: the comments it asks for, or
// a post.
func DefaultAnswer(req *Request) string {
	if m := commentsAsked.FindStringSubmatch(req.Prompt()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return Comments(n)
	}
	return Post(strings.Contains(req.Prompt(), "summary"))
}

// WriteAnswer writes a chat completion carrying text, with usage.
func WriteAnswer(w http.ResponseWriter, text string) {
	content, _ := json.Marshal(text)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id":"chatcmpl-fake","object":"chat.completion","created":1718000000,"model":"fake",`+
		`"choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],`+
		`"usage":{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}}`,
		content, PromptTokens, CompletionTokens, PromptTokens+CompletionTokens)
}

// WriteError writes an error in the format's envelope.
func WriteError(w http.ResponseWriter, status int, msg string) {
	m, _ := json.Marshal(msg)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error":{"message":%s,"type":"server_error","param":null,"code":null}}`, m)
}
