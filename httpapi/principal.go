package httpapi

import (
	"context"

	"github.com/contentgen/contentgen/httpapi/auth"
)

type principalKey struct{}

func withPrincipal(ctx context.Context, p *auth.Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the authenticated principal of a request context
// served by an API, or nil.
func PrincipalFrom(ctx context.Context) *auth.Principal {
	p, _ := ctx.Value(principalKey{}).(*auth.Principal)
	return p
}
