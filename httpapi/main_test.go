package httpapi_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them. The
// API starts goroutines of its own (heartbeats of event streams) and runs
// work that must stop when a client goes away or stops reading; a
// goroutine left behind there would hold memory, a run and possibly a
// connection for good, which no assertion on a response would notice.
//
// A run of all the tests also fails when an operation of the OpenAPI
// document never gave a successful answer checked against it (see
// checkContract), so that every operation's answer is checked by some
// test.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(coverageCheck{m})
}

// coverageCheck runs the tests, then requires every documented operation
// to have been checked when all tests ran.
type coverageCheck struct{ m *testing.M }

func (c coverageCheck) Run() int {
	code := c.m.Run()
	if code != 0 || !allTestsRan() || sharedContract == nil {
		return code
	}
	if missing := sharedContract.unchecked(); len(missing) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: no test got a successful answer of these OpenAPI operations checked against the document:\n  %s\n",
			strings.Join(missing, "\n  "))
		return 1
	}
	return 0
}

// allTestsRan reports whether the run selected every test: no -run,
// -skip or -fuzz filter and not -short.
func allTestsRan() bool {
	for _, name := range []string{"test.run", "test.skip", "test.fuzz"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return false
		}
	}
	return !testing.Short()
}
