package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/providers/fetch"
)

func TestCheckAddr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		addr   string
		reason string // empty: allowed
	}{
		{"93.184.216.34", ""},
		{"8.8.8.8", ""},
		{"2606:4700:4700::1111", ""},
		{"127.0.0.1", "loopback"},
		{"127.8.9.10", "loopback"},
		{"::1", "loopback"},
		{"10.1.2.3", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.254", "private"},
		{"192.168.1.1", "private"},
		{"fd12:3456:789a::1", "private"},
		{"169.254.169.254", "link-local"},
		{"fe80::1", "link-local"},
		{"100.64.0.1", "carrier-grade NAT"},
		{"100.127.255.254", "carrier-grade NAT"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"0.1.2.3", "this network"},
		{"224.0.0.1", "multicast"},
		{"ff02::1", "multicast"},
		{"255.255.255.255", "broadcast"},
		{"240.0.0.1", "reserved"},
		{"192.0.2.10", "documentation"},
		{"198.18.0.1", "benchmarking"},
		{"2001:db8::1", "documentation"},
		{"::ffff:127.0.0.1", "loopback"},
		{"::ffff:10.0.0.1", "private"},
		{"64:ff9b::7f00:1", "embeds loopback 127.0.0.1"},
		{"64:ff9b::808:808", ""},
		{"2002:c0a8:0101::1", "embeds private 192.168.1.1"},
		{"2001:0:4136:e378::1", "Teredo"},
		{"172.32.0.1", ""},
		{"100.128.0.1", ""},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			t.Parallel()
			err := fetch.CheckAddr(netip.MustParseAddr(tt.addr))
			if tt.reason == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, fetch.ErrAddressNotAllowed)
			var ae *fetch.AddressError
			require.ErrorAs(t, err, &ae)
			require.Equal(t, tt.reason, ae.Reason)
		})
	}
}

func TestCheckURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw  string
		want error
	}{
		{"https://example.com/a.jpg", nil},
		{"  http://example.com:8080/x?y=1  ", nil},
		{"ftp://example.com/file", fetch.ErrSchemeNotAllowed},
		{"file:///etc/passwd", fetch.ErrSchemeNotAllowed},
		{"gopher://example.com", fetch.ErrSchemeNotAllowed},
		{"javascript:alert(1)", fetch.ErrSchemeNotAllowed},
		{"/relative/path", fetch.ErrSchemeNotAllowed},
		{"http://", fetch.ErrInvalidURL},
		{"http://user:pass@example.com/", fetch.ErrInvalidURL},
		{"http://exa mple.com/", fetch.ErrInvalidURL},
	}
	for _, tt := range tests {
		_, err := fetch.CheckURL(tt.raw)
		if tt.want == nil {
			require.NoError(t, err, tt.raw)
		} else {
			require.ErrorIs(t, err, tt.want, tt.raw)
		}
	}
}

// allowOnly is a CheckAddr policy that lets through the ports of the
// given servers only, so that tests on 127.0.0.1 can tell an allowed
// first hop from a refused redirect target.
func allowOnly(servers ...*httptest.Server) func(netip.AddrPort) error {
	ports := map[uint16]bool{}
	for _, s := range servers {
		u, _ := url.Parse(s.URL)
		p, _ := strconv.Atoi(u.Port())
		ports[uint16(p)] = true
	}
	return func(ap netip.AddrPort) error {
		if ports[ap.Port()] {
			return nil
		}
		return fetch.CheckAddr(ap.Addr())
	}
}

func TestGet(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("/files/report.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		fmt.Fprint(w, "%PDF-1.7 body")
	})
	mux.HandleFunc("/download", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="Quartal 3.xlsx"`)
		fmt.Fprint(w, "PK\x03\x04")
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/files/report.pdf", http.StatusFound)
	})
	mux.HandleFunc("/missing", http.NotFound)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	f := fetch.New(&fetch.Options{CheckAddr: allowOnly(srv)})
	ctx := context.Background()

	res, err := f.Get(ctx, srv.URL+"/files/report.pdf")
	require.NoError(t, err)
	require.Equal(t, "%PDF-1.7 body", string(res.Data))
	require.Equal(t, "report.pdf", res.Filename)
	require.Equal(t, "application/pdf", res.ContentType)

	res, err = f.Get(ctx, srv.URL+"/download")
	require.NoError(t, err)
	require.Equal(t, "Quartal 3.xlsx", res.Filename, "Content-Disposition wins")

	res, err = f.Get(ctx, srv.URL+"/moved")
	require.NoError(t, err)
	require.Equal(t, srv.URL+"/files/report.pdf", res.URL, "URL is the final one")

	_, err = f.Get(ctx, srv.URL+"/missing")
	var se *fetch.StatusError
	require.ErrorAs(t, err, &se)
	require.Equal(t, http.StatusNotFound, se.StatusCode)
}

func TestGetRefusesInternalAddresses(t *testing.T) {
	t.Parallel()
	internal := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "secret")
	}))
	t.Cleanup(internal.Close)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(internal.URL, "http://"))

	// The public-looking front server redirects into the internal one.
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-internal":
			http.Redirect(w, r, internal.URL+"/", http.StatusFound)
		case "/to-metadata":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
		case "/to-file":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		}
	}))
	t.Cleanup(front.Close)

	strict := fetch.New(nil)
	frontOnly := fetch.New(&fetch.Options{CheckAddr: allowOnly(front), DialTimeout: time.Second})
	tests := []struct {
		name    string
		f       *fetch.Fetcher
		url     string
		want    error
		addr    string
		reasons string
	}{
		{"loopback literal", strict, internal.URL, fetch.ErrAddressNotAllowed, "127.0.0.1", "loopback"},
		{"name resolving to loopback", strict, "http://localhost:" + port + "/", fetch.ErrAddressNotAllowed, "127.0.0.1", "loopback"},
		{"IPv4-mapped loopback", strict, "http://[::ffff:127.0.0.1]:" + port + "/", fetch.ErrAddressNotAllowed, "127.0.0.1", "loopback"},
		{"redirect to internal", frontOnly, front.URL + "/to-internal", fetch.ErrAddressNotAllowed, "127.0.0.1", "loopback"},
		{"redirect to metadata", frontOnly, front.URL + "/to-metadata", fetch.ErrAddressNotAllowed, "169.254.169.254", "link-local"},
		{"redirect to file", frontOnly, front.URL + "/to-file", fetch.ErrSchemeNotAllowed, "", ""},
		{"redirect loop", frontOnly, front.URL + "/loop", fetch.ErrTooManyRedirects, "", ""},
		{"scheme", strict, "ftp://example.com/", fetch.ErrSchemeNotAllowed, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := tt.f.Get(context.Background(), tt.url)
			require.ErrorIs(t, err, tt.want)
			if tt.addr != "" {
				var ae *fetch.AddressError
				require.ErrorAs(t, err, &ae)
				require.Equal(t, tt.addr, ae.Addr.Unmap().String())
				require.Equal(t, tt.reasons, ae.Reason)
			}
		})
	}
}

func TestAllowPrivate(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))
	t.Cleanup(srv.Close)
	res, err := fetch.New(&fetch.Options{AllowPrivate: true}).Get(context.Background(), srv.URL)
	require.NoError(t, err)
	require.Equal(t, "ok", string(res.Data))
}

func TestGetLimits(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 2048)
	arrived := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/announced":
			w.Header().Set("Content-Length", strconv.Itoa(len(big)))
			fmt.Fprint(w, big)
		case "/chunked":
			for range 4 {
				fmt.Fprint(w, big[:512])
				w.(http.Flusher).Flush()
			}
		case "/exact":
			fmt.Fprint(w, big[:1024])
		case "/stall":
			// Never answers: only the client's timeout or the caller's
			// cancellation ends the request, whatever the machine's speed.
			<-r.Context().Done()
		case "/stall-and-tell":
			arrived <- struct{}{}
			<-r.Context().Done()
		}
	}))
	t.Cleanup(srv.Close)
	f := fetch.New(&fetch.Options{AllowPrivate: true, MaxBytes: 1024})
	ctx := context.Background()

	_, err := f.Get(ctx, srv.URL+"/announced")
	require.ErrorIs(t, err, fetch.ErrTooLarge)
	_, err = f.Get(ctx, srv.URL+"/chunked")
	require.ErrorIs(t, err, fetch.ErrTooLarge)
	res, err := f.Get(ctx, srv.URL+"/exact")
	require.NoError(t, err, "a body of exactly MaxBytes is fine")
	require.Len(t, res.Data, 1024)

	timed := fetch.New(&fetch.Options{AllowPrivate: true, Timeout: 20 * time.Millisecond})
	_, err = timed.Get(ctx, srv.URL+"/stall")
	require.ErrorIs(t, err, fetch.ErrTimeout, "Timeout bounds the request")

	cctx, cancel := context.WithCancel(ctx)
	go func() { <-arrived; cancel() }()
	_, err = f.Get(cctx, srv.URL+"/stall-and-tell")
	require.ErrorIs(t, err, fetch.ErrCanceled)
	require.ErrorIs(t, err, context.Canceled)
	require.False(t, errors.Is(err, fetch.ErrAddressNotAllowed))
}

// TestGetErrorsAreClientSafe checks that every failure of Get has one
// kind, that its message is the kind's message only, and that the cause,
// which names internal addresses, stays reachable for logs.
func TestGetErrorsAreClientSafe(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/missing":
			http.NotFound(w, r)
		case "/stall":
			<-r.Context().Done()
		case "/to-internal":
			http.Redirect(w, r, "http://10.1.2.3:8080/admin", http.StatusFound)
		}
	}))
	t.Cleanup(srv.Close)
	// A port that refuses connections: listen, note the address, close.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := ln.Addr().String()
	require.NoError(t, ln.Close())
	// A resolver at an internal address that refuses: the kind of leak the
	// raw error of a failed lookup carries ("dial udp 10.0.0.53:53").
	resolverAddr := "127.0.0.1:1" // nothing listens on port 1
	badDNS := fetch.New(&fetch.Options{AllowPrivate: true, Resolver: &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, resolverAddr)
		},
	}})

	open := fetch.New(&fetch.Options{AllowPrivate: true})
	frontOnly := fetch.New(&fetch.Options{CheckAddr: allowOnly(srv)})
	timed := fetch.New(&fetch.Options{AllowPrivate: true, Timeout: 20 * time.Millisecond})
	tests := []struct {
		name   string
		f      *fetch.Fetcher
		url    string
		kind   error
		secret string // in the cause, never in the message
	}{
		{"connection refused", open, "http://" + closed + "/x", fetch.ErrUnreachable, closed},
		{"resolver fails", badDNS, "http://files.example.test/x.jpg", fetch.ErrUnreachable, "files.example.test"},
		{"bad status", open, srv.URL + "/missing", fetch.ErrBadStatus, srv.URL},
		{"timeout", timed, srv.URL + "/stall", fetch.ErrTimeout, srv.URL},
		{"redirect to internal", frontOnly, srv.URL + "/to-internal", fetch.ErrAddressNotAllowed, "10.1.2.3"},
		{"invalid URL", open, "http://user:secret-pw@example.com/", fetch.ErrInvalidURL, ""},
		{"scheme", open, "file:///etc/passwd", fetch.ErrSchemeNotAllowed, ""},
	}
	kinds := []error{fetch.ErrInvalidURL, fetch.ErrSchemeNotAllowed, fetch.ErrAddressNotAllowed, fetch.ErrTooManyRedirects,
		fetch.ErrTooLarge, fetch.ErrTimeout, fetch.ErrUnreachable, fetch.ErrBadStatus, fetch.ErrCanceled}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := tt.f.Get(context.Background(), tt.url)
			require.ErrorIs(t, err, tt.kind)
			require.Equal(t, tt.kind, fetch.Kind(err))
			require.Equal(t, tt.kind.Error(), err.Error(), "the message is the kind's only")
			for _, k := range kinds {
				if k != tt.kind {
					require.NotErrorIs(t, err, k, "one kind only")
				}
			}
			var fe *fetch.Error
			require.ErrorAs(t, err, &fe)
			require.Error(t, fe.Err, "the cause is kept for logs")
			if tt.secret != "" {
				require.NotContains(t, err.Error(), tt.secret)
				require.NotContains(t, err.Error(), "127.0.0.1")
			}
		})
	}
	_, err = badDNS.Get(context.Background(), "http://files.example.test/x.jpg")
	require.NotContains(t, err.Error(), resolverAddr, "the resolver's address stays in the cause")
	var fe *fetch.Error
	require.ErrorAs(t, err, &fe)
	require.Contains(t, fe.Err.Error(), "127.0.0.1:1", "and the cause has it, for the log")
	var se *fetch.StatusError
	_, err = open.Get(context.Background(), srv.URL+"/missing")
	require.ErrorAs(t, err, &se)
	require.Equal(t, http.StatusNotFound, se.StatusCode)
	require.Nil(t, fetch.Kind(errors.New("other")))
}

func ExampleCheckAddr() {
	for _, a := range []string{"93.184.216.34", "10.0.0.8", "169.254.169.254"} {
		fmt.Println(a, fetch.CheckAddr(netip.MustParseAddr(a)))
	}
	// Output:
	// 93.184.216.34 <nil>
	// 10.0.0.8 fetch: address 10.0.0.8 not allowed (private)
	// 169.254.169.254 fetch: address 169.254.169.254 not allowed (link-local)
}
