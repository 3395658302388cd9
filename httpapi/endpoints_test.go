package httpapi_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

var postsResultShape = map[string]string{
	"success": "boolean", "count": "number", "ids": "array", "message": "string",
	"warnings": "array", "variation_stats": "object", "auto_created": "object", "time_saved": "string",
}

var itemsResultShape = map[string]string{
	"success": "boolean", "count": "number", "ids": "array", "deleted_count": "number",
	"message": "string", "time_saved": "string",
}

func TestGeneratePosts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, body := e.do("POST", "/generate/posts", map[string]any{
		"post_type": "post", "count": 4, "post_status": "draft", "set_featured_image": false,
		"auto_comments": true, "comments_per_post_min": 1, "comments_per_post_max": 2,
	}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, postsResultShape)
	require.Equal(t, true, body["success"])
	require.EqualValues(t, 4, body["count"])
	require.Len(t, body["ids"], 4)
	requireShape(t, body["variation_stats"].(map[string]any), map[string]string{"with_featured_image": "number", "without_featured_image": "number"})
	requireShape(t, body["auto_created"].(map[string]any), map[string]string{
		"authors": "number", "terms": "object", "comments": "number", "related_posts": "number", "related_per_cpt": "object",
	})
	require.GreaterOrEqual(t, body["auto_created"].(map[string]any)["comments"], float64(4))

	for _, id := range body["ids"].([]any) {
		posts, err := e.host.Posts(context.Background(), contentgen.PostQuery{IDs: contentgen.OnlyIDs(int64(id.(float64)))})
		require.NoError(t, err)
		require.Len(t, posts, 1)
		require.Equal(t, "draft", posts[0].Status)
		require.True(t, posts[0].Meta.Generated())
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := []struct {
		name, method, path string
		body               any
		code, param        string
	}{
		{"unknown post type", "POST", "/generate/posts", map[string]any{"post_type": "nope"}, "invalid_post_type", "post_type"},
		{"count too high", "POST", "/generate/posts", map[string]any{"count": 501}, "invalid_count", "count"},
		{"count zero", "POST", "/generate/posts", map[string]any{"count": 0}, "invalid_count", "count"},
		{"count wrong type", "POST", "/generate/posts", `{"count":"five"}`, "invalid_parameter", "count"},
		{"bad status", "POST", "/generate/posts", map[string]any{"post_status": "published"}, "invalid_parameter", "post_status"},
		{"bad profile", "POST", "/generate/posts", map[string]any{"variation_profile": "wild"}, "invalid_parameter", "variation_profile"},
		{"bad content format", "POST", "/generate/posts", map[string]any{"content_format": "docx"}, "invalid_parameter", "content_format"},
		{"content format wrong type", "POST", "/generate/posts", `{"content_format":5}`, "invalid_parameter", "content_format"},
		{"bad template content format", "POST", "/generate/posts", map[string]any{"field_config": map[string]any{"content_format": "rtf"}}, "invalid_parameter", "field_config.content_format"},
		{"stream content format", "POST", "/generate/posts/stream", map[string]any{"content_format": "HTML"}, "invalid_parameter", "content_format"},
		{"bad locale", "POST", "/generate/posts", map[string]any{"locale": "xx_XX"}, "invalid_parameter", "locale"},
		{"image width", "POST", "/generate/posts", map[string]any{"image_width": 50}, "invalid_parameter", "image_width"},
		{"malformed json", "POST", "/generate/posts", `{"count":`, "invalid_parameter", "body"},
		{"not an object", "POST", "/generate/posts", `[1,2]`, "invalid_parameter", "body"},
		{"bool wrong type", "POST", "/generate/posts", `{"auto_comments":"yes"}`, "invalid_parameter", "auto_comments"},
		{"unknown taxonomy", "POST", "/generate/terms", map[string]any{"taxonomy": "nope"}, "invalid_taxonomy", "taxonomy"},
		{"depth", "POST", "/generate/terms", map[string]any{"taxonomy": "category", "generate_hierarchy": true, "depth": 6}, "invalid_parameter", "depth"},
		{"users count", "POST", "/generate/users", map[string]any{"count": 1000}, "invalid_count", "count"},
		{"users role", "POST", "/generate/users", map[string]any{"role": "pirate"}, "invalid_parameter", "role"},
		{"comments min", "POST", "/generate/comments", map[string]any{"post_type": "post", "comments_per_post_min": 0}, "invalid_parameter", "comments_per_post_min"},
		{"comments pct", "POST", "/generate/comments", map[string]any{"post_type": "post", "pending_percentage": 101}, "invalid_parameter", "pending_percentage"},
		{"delete type", "DELETE", "/generate/delete", map[string]any{"type": "planet"}, "invalid_parameter", "type"},
		{"delete type missing", "DELETE", "/generate/delete", map[string]any{}, "invalid_parameter", "type"},
		{"delete posts scope", "POST", "/generate/posts/delete", map[string]any{"post_type": "post", "delete_scope": "everything"}, "invalid_parameter", "delete_scope"},
		{"delete posts type", "POST", "/generate/posts/delete", map[string]any{"post_type": "nope"}, "invalid_post_type", "post_type"},
		{"history type", "GET", "/history?type=planet", nil, "invalid_parameter", "type"},
		{"history limit", "GET", "/history?limit=abc", nil, "invalid_parameter", "limit"},
		{"settings rate", "POST", "/settings", map[string]any{"hourly_rate": 0.5}, "invalid_parameter", "hourly_rate"},
		{"settings source", "POST", "/settings", map[string]any{"text_source": "poetry"}, "invalid_parameter", "text_source"},
		{"settings type", "POST", "/settings", `{"default_post_count":"5"}`, "invalid_parameter", "default_post_count"},
		{"terms taxonomy", "GET", "/taxonomies/nope/terms", nil, "invalid_taxonomy", "taxonomy"},
		{"terms parent", "GET", "/taxonomies/category/terms?parent=x", nil, "invalid_parameter", "parent"},
		{"supports type", "GET", "/cpts/supports/nope", nil, "invalid_post_type", "post_type"},
		{"post meta id", "GET", "/post-meta/abc", nil, "invalid_parameter", "id"},
		{"users roles", "GET", "/users?roles[]=pirate", nil, "invalid_parameter", "roles"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := e.do(c.method, c.path, c.body, asAdmin)
			require.Equal(t, http.StatusBadRequest, status, body)
			require.Equal(t, false, body["success"])
			require.Equal(t, c.code, body["code"])
			require.Contains(t, body["message"], c.param, "the message must name the parameter")
			require.Len(t, body, 3, "error envelope is {success, code, message}")
		})
	}
	_, total, err := e.gen.History().List(context.Background(), contentgen.HistoryQuery{})
	require.NoError(t, err)
	require.Zero(t, total, "rejected requests must not write anything")
}

func TestUnknownRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, body := e.do("GET", "/nothing/here", nil, asAdmin)
	require.Equal(t, http.StatusNotFound, status)
	require.Equal(t, "not_found", body["code"])
	require.Equal(t, false, body["success"])

	status, body = e.do("GET", "/generate/posts", nil, asAdmin)
	require.Equal(t, http.StatusMethodNotAllowed, status)
	require.Equal(t, false, body["success"])
}

func TestBodyTooLarge(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	big := `{"post_type":"post","x":"` + strings.Repeat("a", 2<<20) + `"}`
	status, body := e.do("POST", "/generate/posts", big, asAdmin)
	require.Equal(t, http.StatusRequestEntityTooLarge, status)
	require.Equal(t, false, body["success"])
}

func TestGenerateTermsUsersComments(t *testing.T) {
	t.Parallel()
	e := newEnv(t)

	status, body := e.do("POST", "/generate/terms", map[string]any{"taxonomy": "category", "generate_hierarchy": true, "depth": 2, "breadth": 3}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, itemsResultShape)
	require.EqualValues(t, 3+9, body["count"], "depth 2 breadth 3 is 3 roots with 3 children each")

	status, body = e.do("POST", "/generate/users", map[string]any{"count": 3, "role": "author"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, itemsResultShape)
	require.EqualValues(t, 3, body["count"])

	status, body = e.do("POST", "/generate/comments", map[string]any{"post_type": "post", "comments_per_post_min": 2, "comments_per_post_max": 2}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, itemsResultShape)
	require.EqualValues(t, 2, body["count"], "the demo site has one post; two comments on it")
}

func TestDeleteOnlyGenerated(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	before, err := e.host.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)

	status, body := e.do("POST", "/generate/posts", map[string]any{"count": 3, "set_featured_image": false}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)

	// Trash first (force false), then delete permanently.
	status, body = e.do("DELETE", "/generate/delete", map[string]any{"type": "post"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "deleted": "number", "message": "string"})
	require.EqualValues(t, 3, body["deleted"])
	trashed, err := e.host.Posts(ctx, contentgen.PostQuery{Statuses: []string{"trash"}})
	require.NoError(t, err)
	require.Len(t, trashed, 3)

	status, body = e.do("DELETE", "/generate/delete", map[string]any{"type": "post", "force": true}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.EqualValues(t, 3, body["deleted"])

	after, err := e.host.Posts(ctx, contentgen.PostQuery{})
	require.NoError(t, err)
	require.Equal(t, before, after, "hand-made posts are untouched")

	// ids that are not generated are ignored.
	status, body = e.do("DELETE", "/generate/delete", map[string]any{"type": "post", "ids": []int64{before[0].ID}, "force": true}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.EqualValues(t, 0, body["deleted"])
}

func TestDeletePostsChunked(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, body := e.do("POST", "/generate/posts", map[string]any{"count": 5, "set_featured_image": false}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	status, body = e.do("POST", "/generate/posts/delete", map[string]any{
		"post_type": "post", "delete_related_terms": true, "delete_related_authors": true, "delete_related_comments": true,
	}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{
		"success": "boolean", "deleted_count": "number", "deleted_stats": "object", "deleted_related_cpts": "object", "message": "string",
	})
	requireShape(t, body["deleted_stats"].(map[string]any), map[string]string{"posts": "number", "media": "number", "terms": "number", "authors": "number"})
	require.EqualValues(t, 5, body["deleted_count"])
}

func TestHistoryEndpoints(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, body := e.do("POST", "/generate/posts", map[string]any{"count": 3, "set_featured_image": false, "auto_taxonomies": false}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)

	status, body = e.do("GET", "/history?type=post&limit=2", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "history": "array", "total": "number"})
	require.EqualValues(t, 3, body["total"])
	items := body["history"].([]any)
	require.Len(t, items, 2)
	first := items[0].(map[string]any)
	requireShape(t, first, map[string]string{
		"id": "string", "content_type": "string", "content_id": "string", "content_subtype": "string",
		"meta": "object", "created_at": "string", "content_title": "string|null", "content_exists": "boolean", "template_name": "string|null",
	})
	require.Regexp(t, `^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$`, first["created_at"])
	require.Equal(t, true, first["content_exists"])

	status, body = e.do("GET", "/history/stats", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	stats := body["stats"].(map[string]any)
	requireShape(t, stats, map[string]string{"total": "number", "by_type": "object", "by_subtype": "array", "recent_activity": "array", "existing": "object"})
	row := stats["by_subtype"].([]any)[0].(map[string]any)
	requireShape(t, row, map[string]string{"content_type": "string", "content_subtype": "string", "count": "string"})
	day := stats["recent_activity"].([]any)[0].(map[string]any)
	requireShape(t, day, map[string]string{"date": "string", "count": "string"})
	for _, k := range []string{"post", "term", "user", "comment", "media"} {
		require.Contains(t, stats["by_type"], k)
		require.Contains(t, stats["existing"], k)
	}

	// Delete one entry with its content; a second delete is a 404 without code.
	id := first["id"].(string)
	contentID, err := strconv.ParseInt(first["content_id"].(string), 10, 64)
	require.NoError(t, err)
	status, body = e.do("DELETE", "/history/"+id, nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, map[string]any{"success": true, "message": body["message"], "entry_deleted": true, "content_deleted": true}, body)
	posts, err := e.host.Posts(context.Background(), contentgen.PostQuery{IDs: contentgen.OnlyIDs(contentID)})
	require.NoError(t, err)
	require.Empty(t, posts)

	status, body = e.do("DELETE", "/history/"+id, nil, asAdmin)
	require.Equal(t, http.StatusNotFound, status)
	require.Equal(t, false, body["success"])
	require.NotContains(t, body, "code")

	// Content deleted outside the service: cleanup removes its entry.
	second := items[1].(map[string]any)
	otherID, _ := strconv.ParseInt(second["content_id"].(string), 10, 64)
	require.NoError(t, e.host.DeletePosts(context.Background(), []int64{otherID}))
	status, body = e.do("POST", "/history/cleanup", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.EqualValues(t, 1, body["cleaned"])

	status, body = e.do("DELETE", "/history/clear", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	status, body = e.do("GET", "/history", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.EqualValues(t, 0, body["total"])
	// The content remains and still counts as generated (marker).
	status, body = e.do("DELETE", "/generate/delete", map[string]any{"type": "post", "force": true}, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.EqualValues(t, 1, body["deleted"])
}

func TestTimeSaved(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, gen := e.do("POST", "/generate/posts", map[string]any{"count": 2, "set_featured_image": false, "auto_taxonomies": false}, asAdmin)
	authors := gen["auto_created"].(map[string]any)["authors"].(float64)
	require.Positive(t, authors)
	status, body := e.do("GET", "/time-saved", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	ts := body["time_savings"].(map[string]any)
	requireShape(t, ts, map[string]string{
		"total": "object", "by_type": "object", "work_days_equivalent": "number", "money_saved": "object",
		"last_updated": "string|null", "estimates_based_on": "object",
	})
	total := ts["total"].(map[string]any)
	requireShape(t, total, map[string]string{"hours": "number", "minutes": "number", "seconds": "number", "total_seconds": "number", "formatted": "string", "formatted_short": "string"})
	want := 2*180 + authors*150
	require.EqualValues(t, want, total["total_seconds"], "two basic posts at 3 minutes each and the authors made for them at 2.5")
	money := ts["money_saved"].(map[string]any)
	require.InDelta(t, want/3600*75, money["amount"], 0.01, "at 75 USD per hour")

	status, _ = e.do("DELETE", "/time-saved", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	_, body = e.do("GET", "/time-saved", nil, asAdmin)
	require.EqualValues(t, 0, body["time_savings"].(map[string]any)["total"].(map[string]any)["total_seconds"])
}

func TestSettings(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, body := e.do("GET", "/settings", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	settings := body["settings"].(map[string]any)
	general := settings["general"].(map[string]any)
	require.EqualValues(t, 5, general["default_post_count"])
	require.EqualValues(t, 75, general["hourly_rate"])
	require.Equal(t, "lorem", general["text_source"])
	require.Equal(t, "provider_keyword", general["default_image_provider"])
	require.Equal(t, map[string]any{"enabled": false, "provider": "ai_one", "has_api_key": false, "secondary_ai_enabled": false}, settings["ai"])

	status, body = e.do("POST", "/settings", map[string]any{"default_post_count": 2, "hourly_rate": 100}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.EqualValues(t, 2, body["settings"].(map[string]any)["default_post_count"])
	require.Equal(t, "lorem", body["settings"].(map[string]any)["text_source"], "omitted settings keep their value")

	// The new default count takes effect.
	status, body = e.do("POST", "/generate/posts", map[string]any{"set_featured_image": false}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.EqualValues(t, 2, body["count"])
}

func TestInformationEndpoints(t *testing.T) {
	t.Parallel()
	e := newEnv(t)

	status, body := e.do("GET", "/cpts/all", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.EqualValues(t, 200, body["status"])
	var names []string
	for _, it := range body["result"].([]any) {
		pt := it.(map[string]any)
		requireShape(t, pt, map[string]string{
			"name": "string", "label": "string", "labels": "object", "description": "string", "public": "boolean",
			"hierarchical": "boolean", "has_archive": "boolean", "supports": "object", "taxonomies": "array",
			"menu_icon": "string|null", "count": "object",
		})
		names = append(names, pt["name"].(string))
	}
	require.Contains(t, names, "post")
	require.NotContains(t, names, "page")
	require.NotContains(t, names, "attachment")

	status, body = e.do("GET", "/cpts/supports/post", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	result := body["result"].(map[string]any)
	require.Equal(t, "post", result["post_type"])
	require.Equal(t, true, result["supports"].(map[string]any)["thumbnail"])

	status, body = e.do("GET", "/taxonomies/all", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.EqualValues(t, 200, body["status"])
	for _, it := range body["result"].([]any) {
		requireShape(t, it.(map[string]any), map[string]string{
			"name": "string", "label": "string", "labels": "object", "hierarchical": "boolean", "public": "boolean", "post_types": "array", "count": "number",
		})
	}

	status, body = e.do("GET", "/taxonomies/category/terms?search=uncat&parent=0", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	terms := body["terms"].([]any)
	require.Len(t, terms, 1)
	require.Equal(t, "Uncategorized", terms[0].(map[string]any)["name"])

	status, body = e.do("GET", "/variation-profiles", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "random", body["default"])
	require.Len(t, body["profiles"], 3)

	status, body = e.do("GET", "/users?roles[]=administrator&per_page=5", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	users := body["users"].([]any)
	require.Len(t, users, 1)
	require.Equal(t, "admin", users[0].(map[string]any)["login"])

	status, body = e.do("GET", "/users/roles", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Len(t, body["roles"], 5)

	status, body = e.do("GET", "/urls", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.EqualValues(t, 200, body["status"])
	urls := body["urls"].(map[string]any)
	for _, k := range []string{"plugin_url", "api_url", "admin_url", "ajax_url", "logo_url", "plugin_dir", "plugin_file", "plugin_name", "nonce"} {
		require.Contains(t, urls, k)
	}
	require.Equal(t, e.srv.URL+base, urls["api_url"], "api_url is the mounted base, seen through StripPrefix")

	// post-meta of a hand-made and of a generated post.
	hand, err := e.host.Posts(context.Background(), contentgen.PostQuery{Types: []string{"post"}})
	require.NoError(t, err)
	status, body = e.do("GET", "/post-meta/"+strconv.FormatInt(hand[0].ID, 10), nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, map[string]any{"is_generated": false, "template_id": float64(0)}, body)
	_, gen := e.do("POST", "/generate/posts", map[string]any{"count": 1, "set_featured_image": false}, asAdmin)
	id := int64(gen["ids"].([]any)[0].(float64))
	status, body = e.do("GET", "/post-meta/"+strconv.FormatInt(id, 10), nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, true, body["is_generated"])
	status, _ = e.do("GET", "/post-meta/999999", nil, asAdmin)
	require.Equal(t, http.StatusNotFound, status)
}

func TestCleanupAllKeepsHandMade(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	postsBefore, _ := e.host.Posts(ctx, contentgen.PostQuery{})
	termsBefore, _ := e.host.Terms(ctx, contentgen.TermQuery{})
	usersBefore, _ := e.host.Users(ctx, contentgen.UserQuery{})
	commentsBefore, _ := e.host.Comments(ctx, contentgen.CommentQuery{})

	for _, req := range []struct {
		path string
		body map[string]any
	}{
		{"/generate/terms", map[string]any{"taxonomy": "post_tag", "count": 4}},
		{"/generate/users", map[string]any{"count": 2}},
		{"/generate/posts", map[string]any{"count": 3, "set_featured_image": false, "auto_comments": true}},
		{"/generate/comments", map[string]any{"post_type": "post"}},
	} {
		status, body := e.do("POST", req.path, req.body, asAdmin)
		require.Equal(t, http.StatusOK, status, body)
	}
	_, st := e.do("GET", "/history/stats", nil, asAdmin)
	existing := st["stats"].(map[string]any)["existing"].(map[string]any)
	status, body := e.do("DELETE", "/cleanup/all", nil, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	requireShape(t, body, map[string]string{"success": "boolean", "message": "string", "stats": "object"})
	stats := body["stats"].(map[string]any)
	requireShape(t, stats, map[string]string{"posts": "number", "terms": "number", "users": "number", "media": "number"})
	require.EqualValues(t, 3, stats["posts"])
	require.Equal(t, existing["post"], stats["posts"])
	require.Equal(t, existing["term"], stats["terms"])
	require.Equal(t, existing["user"], stats["users"])
	require.GreaterOrEqual(t, stats["users"], float64(2))

	postsAfter, _ := e.host.Posts(ctx, contentgen.PostQuery{})
	require.Len(t, postsAfter, len(postsBefore))
	// Counts of hand-made terms change when their posts go, so compare ids.
	termsAfter, _ := e.host.Terms(ctx, contentgen.TermQuery{})
	require.Equal(t, ids(termsBefore, func(t contentgen.Term) int64 { return t.ID }), ids(termsAfter, func(t contentgen.Term) int64 { return t.ID }))
	usersAfter, _ := e.host.Users(ctx, contentgen.UserQuery{})
	require.Equal(t, usersBefore, usersAfter)
	commentsAfter, _ := e.host.Comments(ctx, contentgen.CommentQuery{})
	require.Equal(t, ids(commentsBefore, func(c contentgen.Comment) int64 { return c.ID }), ids(commentsAfter, func(c contentgen.Comment) int64 { return c.ID }))
	_, hist := e.do("GET", "/history", nil, asAdmin)
	require.EqualValues(t, 0, hist["total"])
}

func ids[T any](items []T, id func(T) int64) []int64 {
	out := make([]int64, len(items))
	for i, it := range items {
		out[i] = id(it)
	}
	return out
}

func TestStream(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	req, err := http.NewRequest("POST", e.srv.URL+base+"/generate/posts/stream", strings.NewReader(`{"count":3,"set_featured_image":false}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth("admin", e.adminPW)
	resp, err := e.srv.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	require.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
	require.Equal(t, "no", resp.Header.Get("X-Accel-Buffering"))

	var events []map[string]any
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, ":") {
			continue // blank lines end events; comment lines are heartbeats
		}
		require.True(t, strings.HasPrefix(line, "data: "), "line %q", line)
		var ev map[string]any
		require.NoError(t, json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev))
		events = append(events, ev)
	}
	require.NoError(t, sc.Err())
	require.GreaterOrEqual(t, len(events), 4, "progress events then complete")
	for _, ev := range events[:len(events)-1] {
		require.Contains(t, []any{"info", "warning"}, ev["type"])
		require.IsType(t, "", ev["message"])
	}
	last := events[len(events)-1]
	require.Equal(t, "complete", last["type"])
	requireShape(t, last["result"].(map[string]any), postsResultShape)
	require.EqualValues(t, 3, last["result"].(map[string]any)["count"])

	// A rejected request gets the ordinary JSON error, not a stream.
	status, body := e.do("POST", "/generate/posts/stream", map[string]any{"count": 0}, asAdmin)
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "invalid_count", body["code"])
}

func TestAdminLocaleMessages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	status, body := e.do("POST", "/generate/users", map[string]any{"count": 2, "generate_avatars": false}, asAdmin)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "Successfully generated 2 users.", body["message"], "auto follows the en_US site")

	status, body = e.do("POST", "/settings", map[string]any{"admin_locale": "de_DE"}, asAdmin)
	require.Equal(t, http.StatusOK, status, body)
	require.Equal(t, "Einstellungen gespeichert.", body["message"])
	_, body = e.do("POST", "/generate/users", map[string]any{"count": 2, "generate_avatars": false}, asAdmin)
	require.Equal(t, "2 Benutzer erfolgreich erstellt.", body["message"])
	_, body = e.do("GET", "/cpts/all", nil, asNobody)
	require.Equal(t, "Sie sind nicht angemeldet.", body["message"])
	_, body = e.do("DELETE", "/history/no-such-entry", nil, asAdmin)
	require.Contains(t, body["message"], "nicht gefunden")

	status, body = e.do("GET", "/languages", nil, asAdmin)
	require.Equal(t, http.StatusOK, status)
	requireShape(t, body, map[string]string{"success": "boolean", "languages": "array", "default": "string"})
	require.Equal(t, "en_US", body["default"], "the locale setting is auto: the site's language")
	lang := body["languages"].([]any)[0].(map[string]any)
	requireShape(t, lang, map[string]string{"code": "string", "name": "string", "native_name": "string", "flag": "string"})
}
