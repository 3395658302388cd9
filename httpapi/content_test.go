package httpapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestContentReadEndpoints(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, withLocalImages(t), nil)
	status, body := e.do("POST", "/generate/users", map[string]any{"count": 2, "avatar_provider": "provider_local"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	status, body = e.do("POST", "/generate/posts", map[string]any{
		"count": 3, "image_provider": "provider_local", "image_width": 300, "image_height": 200,
		"auto_comments": true, "comments_per_post_min": 2, "comments_per_post_max": 3,
	}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	ids := body["ids"].([]any)

	status, body = e.do("GET", "/content/posts?post_type=post&generated=true&per_page=2", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "posts": "array", "total": "number", "pages": "number"})
	require.EqualValues(t, 3, body["total"])
	require.EqualValues(t, 2, body["pages"])
	posts := body["posts"].([]any)
	require.Len(t, posts, 2)
	p := posts[0].(map[string]any)
	requireShape(t, p, map[string]string{
		"id": "number", "post_type": "string", "status": "string", "title": "string", "excerpt": "string",
		"date": "string", "author": "object", "featured_media": "object", "terms": "object", "generated": "boolean",
	})
	require.Equal(t, true, p["generated"])
	requireShape(t, p["author"].(map[string]any), map[string]string{"id": "number", "name": "string", "avatar_url": "string"})
	requireShape(t, p["featured_media"].(map[string]any), map[string]string{"id": "number", "url": "string", "alt": "string"})

	require.EqualValues(t, ids[2], p["id"], "the newest post first")
	_, body = e.do("GET", "/content/posts?post_type=post&generated=true&order=asc", nil, asAdmin)
	require.EqualValues(t, ids[0], body["posts"].([]any)[0].(map[string]any)["id"], "order=asc lists the oldest first")
	status, body = e.do("GET", "/content/posts?order=sideways", nil, asAdmin)
	require.Equal(t, http.StatusBadRequest, status, body)

	_, body = e.do("GET", "/content/posts?post_type=post&generated=false", nil, asAdmin)
	require.EqualValues(t, 1, body["total"], "the demo site's own post")
	require.Equal(t, false, body["posts"].([]any)[0].(map[string]any)["generated"])

	status, body = e.do("GET", fmt.Sprintf("/content/posts/%v", ids[0]), nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	post := body["post"].(map[string]any)
	require.Contains(t, post["content"], "<p>", "the body exactly as stored")
	require.Equal(t, "1", post["meta"].(map[string]any)["_svc_generated"])
	comments := post["comments"].([]any)
	require.GreaterOrEqual(t, len(comments), 2)
	requireShape(t, comments[0].(map[string]any), map[string]string{
		"id": "number", "parent": "number", "author_name": "string", "avatar_url": "string", "content": "string", "date": "string", "status": "string",
	})

	status, body = e.do("GET", "/content/posts/999999", nil, asAdmin)
	require.Equal(t, http.StatusNotFound, status, body)

	_, body = e.do("GET", "/content/users?generated=true", nil, asAdmin)
	require.GreaterOrEqual(t, body["total"], float64(2))
	u := body["users"].([]any)[0].(map[string]any)
	require.Equal(t, true, u["generated"])
	require.NotEmpty(t, u["avatar_url"], "generated users have avatars")

	_, body = e.do("GET", "/content/terms?taxonomy=category", nil, asAdmin)
	require.Positive(t, body["total"])
	_, body = e.do("GET", "/content/media?generated=true&per_page=100", nil, asAdmin)
	require.EqualValues(t, 5, body["total"], "three featured images and two avatars")

	status, body = e.do("GET", "/content/posts?per_page=0", nil, asAdmin)
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "invalid_parameter", body["code"])
	status, _ = e.do("GET", "/content/posts", nil, asNobody)
	require.Equal(t, http.StatusUnauthorized, status)
}

func TestDateParameters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, body := e.do("POST", "/generate/posts", map[string]any{"count": 2, "set_featured_image": false, "date_from": "2020-01-01", "date_to": "2020-01-31"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	status, body = e.do("GET", fmt.Sprintf("/content/posts/%v", body["ids"].([]any)[0]), nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.Regexp(t, `^2020-01-`, body["post"].(map[string]any)["date"])

	status, body = e.do("POST", "/generate/posts", map[string]any{"date_from": "yesterday"}, asAdmin)
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "invalid_parameter", body["code"])
	require.Equal(t, `date_from must be a date as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS, got "yesterday"`, body["message"])
	status, body = e.do("POST", "/generate/comments", map[string]any{"date_to": "2020-13-01"}, asAdmin)
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, `date_to must be a date as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS, got "2020-13-01"`, body["message"])
	status, body = e.do("POST", "/generate/comments", map[string]any{"date_from": "2020-02-01", "date_to": "2020-01-01"}, asAdmin)
	require.Equal(t, http.StatusBadRequest, status)
	require.Contains(t, body["message"], "date_to")
}
