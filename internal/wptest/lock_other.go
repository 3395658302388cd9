//go:build !unix

package wptest

import "sync"

// locks serialises the tests of one process where no file lock is at
// hand; tests of several packages may then meet on the site.
var locks sync.Map

// lockFile takes the process-wide lock of path, waiting for it, and
// returns what releases it.
func lockFile(path string) (func(), error) {
	mu, _ := locks.LoadOrStore(path, new(sync.Mutex))
	mu.(*sync.Mutex).Lock()
	return mu.(*sync.Mutex).Unlock, nil
}
