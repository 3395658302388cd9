package remote_test

import (
	"context"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers"
	"github.com/contentgen/contentgen/providers/remote"
)

// failingDialer is a client whose every connection fails with err,
// counting the attempts: a machine without a network, without touching
// one.
func failingDialer(err error) (*http.Client, *atomic.Int32) {
	var dials atomic.Int32
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return nil, &net.OpError{Op: "dial", Net: network, Err: err}
	}}
	return &http.Client{Transport: tr}, &dials
}

// TestUnreachableIsNotRetried: a service whose name does not resolve, to
// which no route leads or which refuses the connection fails after one
// attempt with ErrUnreachable, where other network trouble is retried.
func TestUnreachableIsNotRetried(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		err         error
		attempts    int32
		unreachable bool
	}{
		{"no such host", &net.DNSError{Err: "no such host", Name: "loremflickr.com", IsNotFound: true}, 1, true},
		{"connection refused", os.NewSyscallError("connect", syscall.ECONNREFUSED), 1, true},
		{"network unreachable", os.NewSyscallError("connect", syscall.ENETUNREACH), 1, true},
		{"no route to host", os.NewSyscallError("connect", syscall.EHOSTUNREACH), 1, true},
		{"connection reset is retried", os.NewSyscallError("read", syscall.ECONNRESET), 3, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			client, dials := failingDialer(tt.err)
			p, err := remote.NewKeyword(&remote.Options{
				Client: client, MaxRetries: 2, RetryBase: time.Millisecond, MaxRetryWait: time.Millisecond, Timeout: time.Minute,
			})
			require.NoError(t, err)
			_, err = p.Image(context.Background(), req)
			require.Error(t, err)
			require.Equal(t, tt.attempts, dials.Load(), "connection attempts")
			require.Equal(t, tt.unreachable, providers.Unreachable(err), "Unreachable(%v)", err)
			if tt.unreachable {
				require.ErrorIs(t, err, providers.ErrUnreachable)
			}
		})
	}
}
