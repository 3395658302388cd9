package httpapi

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
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
