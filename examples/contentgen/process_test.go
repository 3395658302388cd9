package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBinaryExitStatus builds the contentgen binary and checks its exit
// statuses and streams end to end.
func TestBinaryExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "contentgen")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, string(out))
	db := filepath.Join(dir, "site.db")

	exec1 := func(args ...string) (int, string, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), stdout.String(), stderr.String()
		}
		require.NoError(t, err)
		return 0, stdout.String(), stderr.String()
	}

	code, stdout, _ := exec1("--help")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "generate")

	code, stdout, stderr := exec1("generate", "posts", "--db", db, "--count", "2", "--set-featured-image=false", "--json")
	require.Equal(t, 0, code, stderr)
	var res struct {
		Count int `json:"count"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &res))
	require.Equal(t, 2, res.Count)
	require.Contains(t, stderr, "Created post 2 of 2")

	code, _, stderr = exec1("generate", "posts", "--db", db, "--count", "0")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "--count")

	code, _, stderr = exec1("history", "--db", filepath.Join(dir, "missing", "site.db"))
	require.Equal(t, 1, code, stderr)

	// Without a terminal, cleanup needs --yes; the default site file is
	// contentgen.db in the working directory.
	code, _, _ = exec1("cleanup", "--db", db)
	require.Equal(t, 2, code)
	code, stdout, stderr = exec1("cleanup", "--db", db, "--yes")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "Deleted 2 posts")

	code, _, stderr = exec1("generate", "users", "--count", "1", "--generate-avatars=false")
	require.Equal(t, 0, code, stderr)
	require.FileExists(t, filepath.Join(dir, "contentgen.db"))
}
