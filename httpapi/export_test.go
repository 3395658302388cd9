package httpapi

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/httpapi/auth"
	"github.com/contentgen/contentgen/httpapi/internal/authhook"
)

func TestNewCodesHaveTheirStatus(t *testing.T) {
	t.Parallel()
	for code, status := range map[contentgen.Code]int{
		contentgen.CodeConflict:        http.StatusConflict,
		contentgen.CodeTooLarge:        http.StatusRequestEntityTooLarge,
		contentgen.CodeUnsupportedType: http.StatusUnsupportedMediaType,
		contentgen.CodeUnavailable:     http.StatusServiceUnavailable,
		contentgen.CodeNoFile:          http.StatusBadRequest,
	} {
		require.Equal(t, status, statusOf[code], code)
	}
}

// CheapHashes makes s hash with one PBKDF2 round instead of the configured
// number, for tests that check many passwords. Call it before storing any
// password in s.
func CheapHashes(s *auth.Passwords) { authhook.CheapHashes(s) }

// PatternOf returns the route pattern that serves r, "" when none does.
func (a *API) PatternOf(r *http.Request) string {
	_, pattern := a.mux.Handler(r)
	return pattern
}

// SetTicker makes the API's event streams take their heartbeat ticks from
// tick instead of the wall clock.
func (a *API) SetTicker(tick func(time.Duration) (<-chan time.Time, func())) { a.tick = tick }
