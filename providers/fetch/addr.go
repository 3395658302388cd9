package fetch

import (
	"errors"
	"fmt"
	"net/netip"
)

// ErrAddressNotAllowed is matched (errors.Is) by every *AddressError.
var ErrAddressNotAllowed = errors.New("fetch: address not allowed")

// AddressError reports a connection refused because of its destination.
type AddressError struct {
	// Addr is the resolved address that was refused.
	Addr netip.Addr
	// Reason names the class of the address, such as "loopback" or
	// "private".
	Reason string
}

// Error implements error.
func (e *AddressError) Error() string {
	return fmt.Sprintf("fetch: address %s not allowed (%s)", e.Addr, e.Reason)
}

// Is makes errors.Is(err, ErrAddressNotAllowed) true.
func (e *AddressError) Is(target error) bool { return target == ErrAddressNotAllowed }

// blocked lists special-purpose ranges that are not reachable public
// unicast destinations, beyond what the netip predicates cover.
var blocked = [...]struct {
	prefix netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "this network"},
	{netip.MustParsePrefix("100.64.0.0/10"), "carrier-grade NAT"},
	{netip.MustParsePrefix("192.0.0.0/24"), "IETF protocol assignments"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation"},
	{netip.MustParsePrefix("192.88.99.0/24"), "6to4 relay anycast"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation"},
	{netip.MustParsePrefix("255.255.255.255/32"), "broadcast"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local-use NAT64"},
	{netip.MustParsePrefix("100::/64"), "discard-only"},
	{netip.MustParsePrefix("2001::/23"), "IETF protocol assignments"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
	{netip.MustParsePrefix("3fff::/20"), "documentation"},
	{netip.MustParsePrefix("5f00::/16"), "segment routing"},
	{netip.MustParsePrefix("fec0::/10"), "site-local"},
}

var (
	nat64   = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4  = netip.MustParsePrefix("2002::/16")
	teredo  = netip.MustParsePrefix("2001::/32")
	ipv4map = netip.MustParsePrefix("::ffff:0:0/96")
)

// CheckAddr returns nil when a is a public unicast address a server may
// connect to on a user's behalf, and an *AddressError otherwise: loopback,
// private (RFC 1918, RFC 4193), link-local (including the cloud metadata
// address 169.254.169.254), carrier-grade NAT, multicast, unspecified,
// broadcast, documentation, benchmarking and reserved ranges. IPv6
// addresses that embed an IPv4 address (IPv4-mapped, NAT64, 6to4) are
// judged by the embedded address; Teredo is refused.
func CheckAddr(a netip.Addr) error {
	if !a.IsValid() {
		return &AddressError{Addr: a, Reason: "invalid"}
	}
	a = a.WithZone("")
	if a.Is4In6() || ipv4map.Contains(a) {
		return CheckAddr(a.Unmap())
	}
	if a.Is6() {
		b := a.As16()
		switch {
		case nat64.Contains(a):
			return checkEmbedded(a, netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
		case sixTo4.Contains(a):
			return checkEmbedded(a, netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
		case teredo.Contains(a):
			return &AddressError{Addr: a, Reason: "Teredo"}
		}
	}
	var reason string
	switch {
	case a.IsUnspecified():
		reason = "unspecified"
	case a.IsLoopback():
		reason = "loopback"
	case a.IsPrivate():
		reason = "private"
	case a.IsLinkLocalUnicast():
		reason = "link-local"
	case a.IsMulticast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast():
		reason = "multicast"
	}
	if reason == "" {
		for _, b := range blocked {
			if b.prefix.Contains(a) {
				reason = b.reason
				break
			}
		}
	}
	if reason != "" {
		return &AddressError{Addr: a, Reason: reason}
	}
	return nil
}

func checkEmbedded(outer, inner netip.Addr) error {
	if err := CheckAddr(inner); err != nil {
		return &AddressError{Addr: outer, Reason: "embeds " + err.(*AddressError).Reason + " " + inner.String()}
	}
	return nil
}
