package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNULIsRefused: a NUL character, which PostgreSQL cannot store and
// no parameter needs, is 400 invalid_parameter naming the parameter on
// every backend, refused before any store sees it.
func TestNULIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	id := e.createTemplate(map[string]any{"name": "Plain", "post_type": "post"})
	cases := []struct {
		name, method, path string
		body               any
		param              string
	}{
		{"template name", "POST", "/templates", `{"name":"a\u0000b","post_type":"post"}`, "name"},
		{"template rename", "PUT", "/templates/" + itoa64(id), `{"name":"a\u0000b"}`, "name"},
		{"template description", "POST", "/templates", `{"name":"ok","post_type":"post","description":"x\u0000"}`, "description"},
		{"template import", "POST", "/templates/import", `{"templates":[{"name":"a\u0000b","post_type":"post"}]}`, "templates[0].name"},
		{"post search", "GET", "/content/posts?search=a%00b", nil, "search"},
		{"user search", "GET", "/content/users?search=a%00b", nil, "search"},
		{"term search", "GET", "/content/terms?taxonomy=category&search=%00", nil, "search"},
		{"array parameter", "GET", "/content/posts?post_type[]=po%00st", nil, "post_type"},
	}
	for _, c := range cases {
		status, body := e.do(c.method, c.path, c.body, asAdmin)
		require.Equal(t, http.StatusBadRequest, status, "%s: %v", c.name, body)
		require.Equal(t, "invalid_parameter", body["code"], c.name)
		require.Contains(t, body["message"], c.param, c.name)
	}
	status, body := e.do("GET", "/templates", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.Len(t, body["templates"], 1, "nothing was stored: %v", body)
}
