package wptest

import (
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLockFileExcludes holds the lock in many goroutines at once: never
// two inside together.
func TestLockFileExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "site.lock")
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				unlock, err := lockFile(path)
				require.NoError(t, err)
				n := inside.Add(1)
				if n > most.Load() {
					most.Store(n)
				}
				inside.Add(-1)
				unlock()
			}
		}()
	}
	wg.Wait()
	require.Equal(t, int32(1), most.Load())
}

// skipRecorder records a skip instead of ending the test.
type skipRecorder struct {
	testing.TB
	skipped string
}

func (r *skipRecorder) Helper() {}
func (r *skipRecorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
}

func TestGetSkipsNamingTheVariables(t *testing.T) {
	t.Setenv(EnvURL, "http://127.0.0.1:1")
	t.Setenv(EnvUser, "admin")
	t.Setenv(EnvAppPassword, "")
	t.Setenv(EnvDB, "")
	t.Setenv(EnvUploads, "")
	t.Setenv(EnvRoot, "")
	r := &skipRecorder{TB: t}
	Get(r, EnvDB)
	require.Contains(t, r.skipped, EnvAppPassword)
	require.Contains(t, r.skipped, EnvDB)
	require.NotContains(t, r.skipped, EnvUser)

	t.Setenv(EnvAppPassword, "x")
	t.Setenv(EnvDB, "root@tcp(127.0.0.1:3306)/wp")
	r = &skipRecorder{TB: t}
	s := Get(r, EnvDB)
	require.Empty(t, r.skipped)
	require.Equal(t, Site{URL: "http://127.0.0.1:1", User: "admin", AppPassword: "x", DB: "root@tcp(127.0.0.1:3306)/wp"}, s)
}
