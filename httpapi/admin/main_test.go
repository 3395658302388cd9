package admin

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	flag.Parse()
	if err := makeOutputDir(); err != nil {
		fmt.Fprintln(os.Stderr, "admin tests:", err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// makeOutputDir creates the directory of go test -outputdir when it does
// not exist: the testing package makes only its _artifacts folder inside
// it, so `go test -artifacts -outputdir /tmp/shots` (as the README shows
// for the screenshots of TestBrowser) would fail on a new folder.
func makeOutputDir() error {
	f := flag.Lookup("test.outputdir")
	if f == nil || f.Value.String() == "" {
		return nil
	}
	return os.MkdirAll(f.Value.String(), 0o755)
}

func TestMakeOutputDir(t *testing.T) {
	f := flag.Lookup("test.outputdir")
	require.NotNil(t, f)
	old := f.Value.String()
	t.Cleanup(func() { _ = f.Value.Set(old) })
	dir := filepath.Join(t.TempDir(), "shots", "new")
	require.NoError(t, f.Value.Set(dir))
	require.NoError(t, makeOutputDir())
	require.DirExists(t, dir)
}
