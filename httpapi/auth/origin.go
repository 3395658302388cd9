package auth

import (
	"fmt"
	"net/http"
)

// NewCrossOriginProtection returns the protection against cross-site
// requests that the API applies before authentication, for every
// state-changing handler that accepts credentials a browser sends on its
// own (Basic credentials it remembers, a session cookie), such as a login
// endpoint. Requests with GET, HEAD or OPTIONS pass; any other request
// passes only when the browser marks it as same-origin (Sec-Fetch-Site),
// when its Origin names the host it was sent to or one of trustedOrigins
// ("scheme://host[:port]"), or when it carries neither header, as
// requests from programs other than browsers do.
func NewCrossOriginProtection(trustedOrigins ...string) (*http.CrossOriginProtection, error) {
	c := http.NewCrossOriginProtection()
	for _, o := range trustedOrigins {
		if err := c.AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("auth: trusted origin %q: %w", o, err)
		}
	}
	return c, nil
}
