package httpapi_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them. The
// API starts goroutines of its own (heartbeats of event streams) and runs
// work that must stop when a client goes away or stops reading; a
// goroutine left behind there would hold memory, a run and possibly a
// connection for good, which no assertion on a response would notice.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
