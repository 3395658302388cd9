package httpapi

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
)

func (a *API) routes() {
	// Generation and deletion.
	a.handle("POST /generate/posts", a.generatePosts)
	a.handle("POST /generate/posts/stream", a.generatePostsStream)
	a.handle("POST /generate/terms", a.generateTerms)
	a.handle("POST /generate/users", a.generateUsers)
	a.handle("POST /generate/comments", a.generateComments)
	a.handle("DELETE /generate/delete", a.deleteGenerated)
	a.handle("POST /generate/posts/delete", a.deletePosts)

	// History, statistics, time saved, cleanup.
	a.handle("GET /history", a.history)
	a.handle("GET /history/stats", a.historyStats)
	a.handle("DELETE /history/clear", a.historyClear)
	a.handle("DELETE /history/{id}", a.historyDelete)
	a.handle("POST /history/cleanup", a.historyCleanup)
	a.handle("GET /time-saved", a.timeSaved)
	a.handle("DELETE /time-saved", a.timeSavedReset)
	a.handle("DELETE /cleanup/all", a.cleanupAll)

	// Settings.
	a.handle("GET /settings", a.settings)
	a.handle("POST /settings", a.updateSettings)

	// Information.
	a.handle("GET /cpts/all", a.postTypes)
	a.handle("GET /cpts/supports/{post_type}", a.postTypeSupports)
	a.handle("GET /taxonomies/all", a.taxonomies)
	a.handle("GET /taxonomies/{taxonomy}/terms", a.terms)
	a.handle("GET /variation-profiles", a.variationProfiles)
	a.handle("GET /languages", a.languages)
	a.handle("GET /post-meta/{id}", a.postMeta)
	a.handle("GET /urls", a.urlsInfo)
	a.handle("GET /users", a.users)
	a.handle("GET /users/roles", a.roles)
}

type success struct {
	Success bool   `json:"success"`
	Message string `json:"message,omitempty"`
}

func ok(w http.ResponseWriter, v any) error {
	writeJSON(w, http.StatusOK, v)
	return nil
}

// Generation.

func (a *API) generatePosts(w http.ResponseWriter, r *http.Request) error {
	var req contentgen.PostsRequest
	if err := decodeJSON(w, r, a.maxBody, &req); err != nil {
		return err
	}
	res, err := a.g.GeneratePosts(r.Context(), req)
	if err != nil {
		return err
	}
	return ok(w, res)
}

func (a *API) generateTerms(w http.ResponseWriter, r *http.Request) error {
	var req contentgen.TermsRequest
	if err := decodeJSON(w, r, a.maxBody, &req); err != nil {
		return err
	}
	res, err := a.g.GenerateTerms(r.Context(), req)
	if err != nil {
		return err
	}
	return ok(w, res)
}

func (a *API) generateUsers(w http.ResponseWriter, r *http.Request) error {
	var req contentgen.UsersRequest
	if err := decodeJSON(w, r, a.maxBody, &req); err != nil {
		return err
	}
	res, err := a.g.GenerateUsers(r.Context(), req)
	if err != nil {
		return err
	}
	return ok(w, res)
}

func (a *API) generateComments(w http.ResponseWriter, r *http.Request) error {
	var req contentgen.CommentsRequest
	if err := decodeJSON(w, r, a.maxBody, &req); err != nil {
		return err
	}
	res, err := a.g.GenerateComments(r.Context(), req)
	if err != nil {
		return err
	}
	return ok(w, res)
}

func (a *API) deleteGenerated(w http.ResponseWriter, r *http.Request) error {
	var req contentgen.DeleteRequest
	if err := decodeJSON(w, r, a.maxBody, &req); err != nil {
		return err
	}
	res, err := a.g.Delete(r.Context(), req)
	if err != nil {
		return err
	}
	return ok(w, res)
}

func (a *API) deletePosts(w http.ResponseWriter, r *http.Request) error {
	var req contentgen.DeletePostsRequest
	if err := decodeJSON(w, r, a.maxBody, &req); err != nil {
		return err
	}
	res, err := a.g.DeletePosts(r.Context(), req)
	if err != nil {
		return err
	}
	return ok(w, res)
}

// History and cleanup.

func (a *API) history(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	hq := contentgen.HistoryQuery{Type: q.str("type"), Limit: q.intPtr("limit"), Offset: q.intPtr("offset")}
	if q.err != nil {
		return q.err
	}
	page, err := a.g.History(r.Context(), hq)
	if err != nil {
		return err
	}
	return ok(w, page)
}

func (a *API) historyStats(w http.ResponseWriter, r *http.Request) error {
	st, err := a.g.HistoryStats(r.Context())
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success bool                     `json:"success"`
		Stats   *contentgen.HistoryStats `json:"stats"`
	}{true, st})
}

func (a *API) historyDelete(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	deleteContent := q.boolean("delete_content", true)
	if q.err != nil {
		return q.err
	}
	// The flag may also come in a JSON body.
	body := struct {
		DeleteContent *bool `json:"delete_content"`
	}{}
	if err := decodeJSON(w, r, a.maxBody, &body); err != nil {
		return err
	}
	if body.DeleteContent != nil && !q.has("delete_content") {
		deleteContent = *body.DeleteContent
	}
	res, err := a.g.DeleteHistoryEntry(r.Context(), r.PathValue("id"), deleteContent)
	if err != nil {
		if contentgen.CodeOf(err) == contentgen.CodeNotFound {
			return withoutCode(err)
		}
		return err
	}
	return ok(w, res)
}

func (a *API) historyClear(w http.ResponseWriter, r *http.Request) error {
	if err := a.g.ClearHistory(r.Context()); err != nil {
		return err
	}
	return ok(w, success{true, a.g.Messages(r.Context()).HistoryCleared()})
}

func (a *API) historyCleanup(w http.ResponseWriter, r *http.Request) error {
	n, err := a.g.CleanupHistory(r.Context())
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success bool   `json:"success"`
		Cleaned int    `json:"cleaned"`
		Message string `json:"message"`
	}{true, n, a.g.Messages(r.Context()).OrphansRemoved(n)})
}

func (a *API) timeSaved(w http.ResponseWriter, r *http.Request) error {
	ts, err := a.g.TimeSaved(r.Context())
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success     bool                   `json:"success"`
		TimeSavings contentgen.TimeSavings `json:"time_savings"`
	}{true, ts})
}

func (a *API) timeSavedReset(w http.ResponseWriter, r *http.Request) error {
	if err := a.g.ResetTimeSaved(r.Context()); err != nil {
		return err
	}
	return ok(w, success{true, a.g.Messages(r.Context()).TimeSavedReset()})
}

func (a *API) cleanupAll(w http.ResponseWriter, r *http.Request) error {
	res, err := a.g.CleanupAll(r.Context())
	if err != nil {
		return err
	}
	return ok(w, res)
}

// Settings.

type settingsBody struct {
	General contentgen.Settings   `json:"general"`
	AI      contentgen.AISettings `json:"ai"`
}

func (a *API) settings(w http.ResponseWriter, r *http.Request) error {
	s, err := a.g.Settings(r.Context())
	if err != nil {
		return err
	}
	ai, err := a.g.AISettings(r.Context())
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success  bool         `json:"success"`
		Settings settingsBody `json:"settings"`
	}{true, settingsBody{s, ai}})
}

func (a *API) updateSettings(w http.ResponseWriter, r *http.Request) error {
	var p contentgen.SettingsPatch
	if err := decodeJSON(w, r, a.maxBody, &p); err != nil {
		return err
	}
	s, err := a.g.UpdateSettings(r.Context(), p)
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success  bool                `json:"success"`
		Message  string              `json:"message"`
		Settings contentgen.Settings `json:"settings"`
	}{true, a.g.Messages(r.Context()).SettingsSaved(), s})
}

// Information.

type legacy struct {
	Status int `json:"status"`
	Result any `json:"result"`
}

func (a *API) postTypes(w http.ResponseWriter, r *http.Request) error {
	types, err := a.g.ContentTypes(r.Context())
	if err != nil {
		return err
	}
	out := make([]postTypeRecord, len(types))
	for i := range types {
		out[i] = newPostTypeRecord(&types[i])
	}
	return ok(w, legacy{http.StatusOK, out})
}

func (a *API) postTypeSupports(w http.ResponseWriter, r *http.Request) error {
	pt, err := a.g.PostType(r.Context(), r.PathValue("post_type"))
	if err != nil {
		return err
	}
	return ok(w, legacy{http.StatusOK, struct {
		PostType string          `json:"post_type"`
		Supports map[string]bool `json:"supports"`
	}{pt.Name, supportsMap(pt.Supports)}})
}

func (a *API) taxonomies(w http.ResponseWriter, r *http.Request) error {
	taxes, err := a.g.Taxonomies(r.Context())
	if err != nil {
		return err
	}
	out := make([]taxonomyRecord, len(taxes))
	for i := range taxes {
		out[i] = newTaxonomyRecord(&taxes[i])
	}
	return ok(w, legacy{http.StatusOK, out})
}

func (a *API) terms(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	tq := contentgen.TermsQuery{
		Taxonomy: r.PathValue("taxonomy"),
		Search:   q.str("search"),
		Parent:   q.int64Ptr("parent"),
		PerPage:  q.intPtr("per_page"),
	}
	if q.err != nil {
		return q.err
	}
	terms, err := a.g.Terms(r.Context(), tq)
	if err != nil {
		return err
	}
	out := make([]termRecord, len(terms))
	for i := range terms {
		out[i] = newTermRecord(&terms[i])
	}
	return ok(w, struct {
		Success  bool         `json:"success"`
		Taxonomy string       `json:"taxonomy"`
		Terms    []termRecord `json:"terms"`
		Total    int          `json:"total"`
	}{true, tq.Taxonomy, out, len(out)})
}

func (a *API) variationProfiles(w http.ResponseWriter, r *http.Request) error {
	profiles, def := contentgen.VariationProfiles()
	return ok(w, struct {
		Success  bool                                   `json:"success"`
		Profiles map[string]contentgen.VariationProfile `json:"profiles"`
		Default  string                                 `json:"default"`
	}{true, profiles, def})
}

func (a *API) languages(w http.ResponseWriter, r *http.Request) error {
	l, err := a.g.Languages(r.Context())
	if err != nil {
		return err
	}
	return ok(w, l)
}

func (a *API) postMeta(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	pm, err := a.g.PostMeta(r.Context(), id)
	if err != nil {
		return err
	}
	return ok(w, pm)
}

func (a *API) urlsInfo(w http.ResponseWriter, r *http.Request) error {
	site, err := a.g.Site(r.Context())
	if err != nil {
		return err
	}
	u := a.urls
	if u.APIURL == "" {
		u.APIURL = apiURL(r)
	}
	if u.AdminURL == "" {
		u.AdminURL = site.AdminURL
	}
	if u.AjaxURL == "" && site.AdminURL != "" {
		u.AjaxURL = strings.TrimSuffix(site.AdminURL, "/") + "/admin-ajax.php"
	}
	if u.PluginName == "" {
		u.PluginName = "contentgen"
	}
	nonce := ""
	if a.sessions != nil {
		nonce = a.sessions.Nonce(PrincipalFrom(r.Context()))
	}
	return ok(w, struct {
		Status int `json:"status"`
		URLs   struct {
			URLs
			Nonce string `json:"nonce"`
		} `json:"urls"`
	}{Status: http.StatusOK, URLs: struct {
		URLs
		Nonce string `json:"nonce"`
	}{u, nonce}})
}

// apiURL is the absolute address of the API root, derived from the
// request as the client sent it (the path before any StripPrefix).
func apiURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	path := r.URL.Path
	if u, err := url.ParseRequestURI(r.RequestURI); err == nil {
		path = u.Path
	}
	path = strings.TrimSuffix(path, "/urls")
	return scheme + "://" + r.Host + path
}

func (a *API) users(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	uq := contentgen.UsersQuery{Roles: q.list("roles"), Search: q.str("search"), PerPage: q.intPtr("per_page")}
	if q.err != nil {
		return q.err
	}
	users, err := a.g.Users(r.Context(), uq)
	if err != nil {
		return err
	}
	out := make([]userRecord, len(users))
	for i := range users {
		out[i] = newUserRecord(&users[i])
	}
	return ok(w, struct {
		Success bool         `json:"success"`
		Users   []userRecord `json:"users"`
		Total   int          `json:"total"`
	}{true, out, len(out)})
}

func (a *API) roles(w http.ResponseWriter, r *http.Request) error {
	roles, err := a.g.Roles(r.Context())
	if err != nil {
		return err
	}
	out := make([]roleRecord, len(roles))
	for i, ro := range roles {
		out[i] = roleRecord{Slug: ro.Slug, Name: ro.Name}
	}
	return ok(w, struct {
		Success bool         `json:"success"`
		Roles   []roleRecord `json:"roles"`
	}{true, out})
}
