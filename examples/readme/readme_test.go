//go:build unix

package readme

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/internal/wptest"
)

// block is a fenced shell block of the README.
type block struct {
	line  int    // line of the opening fence
	marks string // the info string after "sh": "", "norun" or "wordpress"
	text  string
}

// shellBlocks returns the ```sh blocks of a Markdown document.
func shellBlocks(doc string) ([]block, error) {
	var out []block
	var cur *block
	var body strings.Builder
	for i, line := range strings.Split(doc, "\n") {
		trimmed := strings.TrimSpace(line)
		if cur == nil {
			info, ok := strings.CutPrefix(trimmed, "```")
			if !ok {
				continue
			}
			lang, marks, _ := strings.Cut(info, " ")
			cur = &block{line: i + 1, marks: strings.TrimSpace(marks)}
			if lang != "sh" {
				cur.marks = "other:" + lang
			}
			body.Reset()
			continue
		}
		if trimmed == "```" {
			if !strings.HasPrefix(cur.marks, "other:") {
				switch cur.marks {
				case "", "norun", "wordpress":
				default:
					return nil, fmt.Errorf("README.md:%d: unknown mark %q of a sh block (want norun or wordpress)", cur.line, cur.marks)
				}
				cur.text = body.String()
				out = append(out, *cur)
			}
			cur = nil
			continue
		}
		body.WriteString(line)
		body.WriteByte('\n')
	}
	if cur != nil {
		return nil, fmt.Errorf("README.md:%d: block not closed", cur.line)
	}
	return out, nil
}

// expected is output that blocks must print, by a command of the block
// that says it: the README's comments promise these.
var expected = map[string][]string{
	"$API/cpts/all": {`"book"`, `"publisher"`},
	`"count":10,"image_provider":"provider_local","auto_comments":true,"seed":42`: {`"count":10`},
	"generate posts --count 10":                 {"Generated 10 posts of type post"},
	"$API/languages":                            {`"de_DE"`, `"native_name"`},
	`"locale":"de-AT"`:                          {`"count":3`},
	"/generate/posts/stream":                    {`"type":"complete"`},
	"$API/history/stats":                        {`"total"`},
	"-X DELETE $API/cleanup/all":                {`"success":true`},
	"$API/templates/stale":                      {`"sub_title"`},
	"$API/sync/status":                          {`"has_unseen_changes":true`},
	"/duplicate":                                {"Book starter (Copy)"},
	"/post-meta/$ID":                            {`"is_generated":true`, `"template_id":2`},
	"history stats":                             {"time saved"},
	"generate posts --count 2000":               {"succeeded, 2000 of 2000 posts"},
	"$API/runs/$RUN/events":                     {`"type":"complete"`, `"status":"succeeded"`, `"done":1500`},
	"contentgen cleanup":                        {"Deleted"},
	"generate posts --count 500 --locale de_DE": {"Generated 500 posts of type post"},
	`"${wp[@]}" generate posts --count 500`:     {"Generated 500 posts of type post"},
	`"${wp[@]}" cleanup --yes`:                  {"Deleted"},
	`"${wp[@]}" uninstall --yes`:                {"dropped", "wp_contentgen_history"},
}

// TestREADME runs the README's shell blocks in order (see the package
// documentation for how).
func TestREADME(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the README test builds and runs the server and the command line")
	}
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the README's blocks need %s, which is not installed", tool)
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	doc, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	blocks, err := shellBlocks(string(doc))
	require.NoError(t, err)
	require.NotEmpty(t, blocks)
	all := ""
	for _, b := range blocks {
		all += b.text
	}
	for cmd := range expected {
		require.Contains(t, all, cmd, "a command the test expects output of is no longer in the README")
	}

	wp := wordPressSite()
	if wp == nil {
		t.Logf("the README's WordPress blocks are skipped: set %s, %s, %s, %s and %s (.ci/wordpress start DIR prints them)",
			wptest.EnvURL, wptest.EnvUser, wptest.EnvAppPassword, wptest.EnvDB, wptest.EnvUploads)
	} else {
		wptest.Exclusive(t, *wp)
	}

	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	work := filepath.Join(dir, "work")
	tmp := filepath.Join(dir, "tmp")
	for _, d := range []string{bin, work, tmp, filepath.Join(dir, "config")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "./examples/server", "./examples/contentgen")
	build.Dir = root
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	for _, name := range []string{"README.md", "templates"} {
		require.NoError(t, os.Symlink(filepath.Join(root, name), filepath.Join(work, name)))
	}
	port := freePort(t)

	sh := startShell(t, work, []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"CG_BIN=" + bin, "CG_PORT=" + strconv.Itoa(port), "CG_LOG=" + filepath.Join(dir, "server.log"),
	})
	require.NoError(t, sh.run("prelude", prelude))
	// The site starts with provider_local as its default image provider,
	// so that no block reaches the network.
	require.NoError(t, sh.run("offline", `"$CG_BIN/contentgen" settings --default-image-provider provider_local >/dev/null`), sh.output())

	replacer := strings.NewReplacer("127.0.0.1:8080", "127.0.0.1:"+strconv.Itoa(port), "/tmp/", tmp+"/")
	for i, b := range blocks {
		name := fmt.Sprintf("README.md:%d", b.line)
		switch {
		case b.marks == "norun":
			continue
		case b.marks == "wordpress" && wp == nil:
			t.Logf("%s: skipped, no WordPress site (%s unset)", name, wptest.EnvURL)
			continue
		}
		file := filepath.Join(dir, fmt.Sprintf("block%02d.sh", i))
		require.NoError(t, os.WriteFile(file, []byte(replacer.Replace(b.text)), 0o644))
		script := ". " + shellQuote(file)
		if b.marks == "wordpress" {
			script = "__wordpress=1\n" + script + "\n__after_wordpress"
		}
		err := sh.run(name, script)
		output := sh.output()
		if err != nil {
			log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
			t.Fatalf("%s failed: %v\n--- block:\n%s--- output:\n%s\n--- server log:\n%s", name, err, b.text, tail(output), tail(string(log)))
		}
		t.Logf("%s: ok", name)
		require.NotContains(t, output, `"success":false`, "%s answered an error:\n%s", name, tail(output))
		for cmd, want := range expected {
			if !strings.Contains(b.text, cmd) {
				continue
			}
			for _, w := range want {
				require.True(t, strings.Contains(output, w), "%s: the output of %q lacks %q:\n%s", name, cmd, w, tail(output))
			}
		}
	}
	require.NoError(t, sh.run("end", "__stop_server"))
}

// wordPressSite is the WordPress site of the CONTENTGEN_TEST_WORDPRESS_*
// variables, or nil when they do not name one.
func wordPressSite() *wptest.Site {
	s := wptest.Site{
		URL: os.Getenv(wptest.EnvURL), User: os.Getenv(wptest.EnvUser), AppPassword: os.Getenv(wptest.EnvAppPassword),
		DB: os.Getenv(wptest.EnvDB), Uploads: os.Getenv(wptest.EnvUploads),
	}
	if s.URL == "" || s.User == "" || s.AppPassword == "" || s.DB == "" || s.Uploads == "" {
		return nil
	}
	return &s
}

// prelude sets up the shell the blocks run in.
const prelude = `
set -e -o pipefail
curl() { command curl --fail-with-body "$@"; }
__server_pid=
__demo_args=()
__wordpress=
__wordpress_server=
__stop_server() {
	if [ -n "$__server_pid" ]; then
		kill "$__server_pid" 2>/dev/null || true
		wait "$__server_pid" 2>/dev/null || true
		__server_pid=
	fi
}
__start_server() {
	__stop_server
	if [ -n "$__wordpress" ]; then
		__wordpress_server=1
	else
		__demo_args=("$@")
	fi
	: >"$CG_LOG"
	"$CG_BIN/server" "$@" -addr "127.0.0.1:$CG_PORT" >>"$CG_LOG" 2>&1 &
	__server_pid=$!
	until grep -q 'API base URL' "$CG_LOG"; do
		if ! kill -0 "$__server_pid" 2>/dev/null; then
			echo "the server ended:" >&2
			cat "$CG_LOG" >&2
			return 1
		fi
		sleep 0.05
	done
}
# A WordPress block's server gives way to the demo server again.
__after_wordpress() {
	__wordpress=
	if [ -n "$__wordpress_server" ]; then
		__wordpress_server=
		__start_server "${__demo_args[@]}"
	fi
}
go() {
	if [ "$1" = run ] && [ "$2" = ./examples/server ]; then
		shift 2
		__start_server "$@"
		return
	fi
	if [ "$1" = run ] && [ "$2" = ./examples/contentgen ]; then
		shift 2
		"$CG_BIN/contentgen" "$@"
		return
	fi
	echo "the README test does not run 'go $*': fence its block as sh norun" >&2
	return 1
}
`

// shell is a bash process that runs blocks one after another.
type shell struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	mu    sync.Mutex
	cond  *sync.Cond
	buf   bytes.Buffer
	mark  int // where the output of the current block starts
	seq   int
	ended bool
}

func startShell(t *testing.T, dir string, env []string) *shell {
	t.Helper()
	s := &shell{}
	s.cond = sync.NewCond(&s.mu)
	s.cmd = exec.Command("bash", "--noprofile", "--norc")
	s.cmd.Dir = dir
	s.cmd.Env = append(os.Environ(), env...)
	// The shell and what it starts form a process group of their own,
	// ended as one when the test ends.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	s.cmd.Stdout, s.cmd.Stderr = pw, pw
	s.stdin, err = s.cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, s.cmd.Start())
	pw.Close()
	go func() {
		r := bufio.NewReader(pr)
		chunk := make([]byte, 32<<10)
		for {
			n, err := r.Read(chunk)
			s.mu.Lock()
			s.buf.Write(chunk[:n])
			if err != nil {
				s.ended = true
			}
			s.cond.Broadcast()
			s.mu.Unlock()
			if err != nil {
				pr.Close()
				return
			}
		}
	}()
	t.Cleanup(func() {
		s.stdin.Close()
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
		_ = s.cmd.Wait()
	})
	return s
}

// run runs script in the shell and waits for it to end. The shell exits
// at the first failing command (set -e), which is an error naming its
// status.
func (s *shell) run(name, script string) error {
	s.mu.Lock()
	s.seq++
	done := fmt.Sprintf("\n@@readme-done %d\n", s.seq)
	s.mark = s.buf.Len()
	s.mu.Unlock()
	if _, err := fmt.Fprintf(s.stdin, "%s\nprintf '\\n@@readme-done %d\\n'\n", script, s.seq); err != nil {
		return fmt.Errorf("%s: writing to the shell: %w", name, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for !bytes.Contains(s.buf.Bytes()[s.mark:], []byte(done)) {
		if s.ended {
			err := s.cmd.Wait()
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				return fmt.Errorf("a command exited with status %d", ee.ExitCode())
			}
			return fmt.Errorf("the shell ended: %v", err)
		}
		s.cond.Wait()
	}
	return nil
}

// output is what the last block printed.
func (s *shell) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.buf.String()[s.mark:]
	if i := strings.LastIndex(out, "\n@@readme-done "); i >= 0 {
		out = out[:i]
	}
	return out
}

// freePort returns a TCP port of 127.0.0.1 that nothing listens on.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	return port
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// tail is the end of a long output, enough to see what failed.
func tail(s string) string {
	const n = 6000
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
