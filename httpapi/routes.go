package httpapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/locales"
)

// coreRoutes registers the generation, deletion, history, settings and
// information endpoints.
func (a *API) coreRoutes() {
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
	a.handle("GET /openapi.json", a.openAPI)
}

type success struct {
	Success bool   `json:"success"`
	Message string `json:"message,omitempty"`
}

// ok writes v as a success answer. When v cannot be encoded nothing is
// written and the error is returned, so that it is logged with its cause
// and answered in the error envelope.
func ok(w http.ResponseWriter, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("httpapi: encoding the answer: %w", err)
	}
	writeRaw(w, http.StatusOK, b)
	return nil
}

// Generation.

func (a *API) generatePosts(w http.ResponseWriter, r *http.Request) error {
	var body postsBody
	if err := decodeJSON(w, r, a.maxBody, &body); err != nil {
		return err
	}
	req, err := body.request()
	if err != nil {
		return err
	}
	res, err := a.g.GeneratePosts(r.Context(), req)
	if err != nil {
		return err
	}
	return ok(w, newPostsRecord(res, a.messages(r.Context())))
}

func (a *API) generateTerms(w http.ResponseWriter, r *http.Request) error {
	var b termsBody
	if err := decodeJSON(w, r, a.maxBody, &b); err != nil {
		return err
	}
	res, err := a.g.GenerateTerms(r.Context(), contentgen.TermsRequest(b))
	if err != nil {
		return err
	}
	return ok(w, newItemsRecord(res, a.messages(r.Context()).TermsGenerated(len(res.IDs), res.Taxonomy)))
}

func (a *API) generateUsers(w http.ResponseWriter, r *http.Request) error {
	var b usersBody
	if err := decodeJSON(w, r, a.maxBody, &b); err != nil {
		return err
	}
	res, err := a.g.GenerateUsers(r.Context(), contentgen.UsersRequest(b))
	if err != nil {
		return err
	}
	return ok(w, newItemsRecord(res, a.messages(r.Context()).UsersGenerated(len(res.IDs))))
}

func (a *API) generateComments(w http.ResponseWriter, r *http.Request) error {
	var b commentsBody
	if err := decodeJSON(w, r, a.maxBody, &b); err != nil {
		return err
	}
	req, err := b.request()
	if err != nil {
		return err
	}
	res, err := a.g.GenerateComments(r.Context(), req)
	if err != nil {
		return err
	}
	return ok(w, newItemsRecord(res, a.messages(r.Context()).CommentsGenerated(len(res.IDs), res.Posts)))
}

func (a *API) deleteGenerated(w http.ResponseWriter, r *http.Request) error {
	var b deleteBody
	if err := decodeJSON(w, r, a.maxBody, &b); err != nil {
		return err
	}
	kind := contentgen.ObjectKind(b.Type)
	// The contract: no ids means every generated item of the type.
	var ids contentgen.IDFilter
	if len(b.IDs) > 0 {
		ids = contentgen.OnlyIDs(b.IDs...)
	}
	rm, err := a.g.Delete(r.Context(), kind, ids, b.Force)
	if err != nil {
		return err
	}
	n := rm.Posts + rm.Terms + rm.Users + rm.Comments
	return ok(w, struct {
		Success bool   `json:"success"`
		Deleted int    `json:"deleted"`
		Message string `json:"message"`
	}{true, n, a.messages(r.Context()).Deleted(n, b.Type, rm.Trashed)})
}

func (a *API) deletePosts(w http.ResponseWriter, r *http.Request) error {
	var b deletePostsBody
	if err := decodeJSON(w, r, a.maxBody, &b); err != nil {
		return err
	}
	rm, err := a.g.DeletePosts(r.Context(), contentgen.DeletePostsRequest{
		PostType: b.PostType, DeleteScope: b.DeleteScope,
		DeleteRelatedMedia: b.DeleteRelatedMedia, DeleteRelatedTerms: b.DeleteRelatedTerms,
		DeleteRelatedAuthors: b.DeleteRelatedAuthors, DeleteRelatedComments: b.DeleteRelatedComments,
		DeleteRelatedPosts: b.DeleteRelatedCPTs,
	})
	if err != nil {
		return err
	}
	related := 0
	for _, n := range rm.RelatedPosts {
		related += n
	}
	return ok(w, struct {
		Success      bool           `json:"success"`
		DeletedCount int            `json:"deleted_count"`
		DeletedStats deletedStats   `json:"deleted_stats"`
		RelatedCPTs  map[string]int `json:"deleted_related_cpts"`
		Message      string         `json:"message"`
	}{true, rm.Posts, deletedStats{rm.Posts, rm.Media, rm.Terms, rm.Users}, rm.RelatedPosts,
		a.messages(r.Context()).PostsDeleted(rm.Posts, rm.Media+rm.Terms+rm.Users+related)})
}

type deletedStats struct {
	Posts   int `json:"posts"`
	Media   int `json:"media"`
	Terms   int `json:"terms"`
	Authors int `json:"authors"`
}

// History and cleanup.

// historyItem is a history entry as the API reports it.
type historyItem struct {
	ID             string         `json:"id"`
	ContentType    string         `json:"content_type"`
	ContentID      string         `json:"content_id"`
	ContentSubtype string         `json:"content_subtype"`
	Meta           map[string]any `json:"meta"`
	CreatedAt      string         `json:"created_at"`
	ContentTitle   *string        `json:"content_title"`
	ContentExists  bool           `json:"content_exists"`
	TemplateName   *string        `json:"template_name"`
}

func (a *API) history(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	hq := contentgen.HistoryQuery{Kind: contentgen.ObjectKind(q.str("type")), Limit: q.intPtr("limit"), Offset: q.intPtr("offset")}
	if q.err != nil {
		return q.err
	}
	items, total, err := a.g.History().List(r.Context(), hq)
	if err != nil {
		return err
	}
	out := make([]historyItem, len(items))
	for i, it := range items {
		rec := historyItem{
			ID: it.ID, ContentType: it.ContentType, ContentID: strconv.FormatInt(it.ContentID, 10),
			ContentSubtype: it.ContentSubtype, Meta: it.Meta, CreatedAt: timestamp(it.CreatedAt),
			ContentExists: it.Exists,
		}
		if rec.Meta == nil {
			rec.Meta = map[string]any{}
		}
		if it.Exists {
			title := it.Title
			rec.ContentTitle = &title
		}
		if name := history.MetaString(it.Meta["template_name"]); name != "" {
			rec.TemplateName = &name
		}
		out[i] = rec
	}
	return ok(w, struct {
		Success bool          `json:"success"`
		History []historyItem `json:"history"`
		Total   int           `json:"total"`
	}{true, out, total})
}

type subtypeCount struct {
	ContentType    string `json:"content_type"`
	ContentSubtype string `json:"content_subtype"`
	Count          string `json:"count"`
}

type activityCount struct {
	Date  string `json:"date"`
	Count string `json:"count"`
}

func (a *API) historyStats(w http.ResponseWriter, r *http.Request) error {
	st, existing, err := a.g.History().Stats(r.Context())
	if err != nil {
		return err
	}
	stats := struct {
		Total          int             `json:"total"`
		ByType         map[string]int  `json:"by_type"`
		BySubtype      []subtypeCount  `json:"by_subtype"`
		RecentActivity []activityCount `json:"recent_activity"`
		Existing       map[string]int  `json:"existing"`
	}{st.Total, st.ByType, make([]subtypeCount, 0, len(st.BySubtype)), make([]activityCount, 0, len(st.Daily)), existing}
	for _, s := range st.BySubtype {
		stats.BySubtype = append(stats.BySubtype, subtypeCount{s.ContentType, s.ContentSubtype, strconv.Itoa(s.Count)})
	}
	for _, d := range st.Daily {
		stats.RecentActivity = append(stats.RecentActivity, activityCount{d.Date, strconv.Itoa(d.Count)})
	}
	return ok(w, struct {
		Success bool `json:"success"`
		Stats   any  `json:"stats"`
	}{true, stats})
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
	id := r.PathValue("id")
	deleted, err := a.g.History().Delete(r.Context(), id, deleteContent)
	m := a.messages(r.Context())
	if errors.Is(err, contentgen.ErrNotFound) {
		return withoutCode(contentgen.Errorf(contentgen.CodeNotFound, "id", "%s", m.HistoryEntryNotFound(id)))
	}
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success        bool   `json:"success"`
		Message        string `json:"message"`
		EntryDeleted   bool   `json:"entry_deleted"`
		ContentDeleted bool   `json:"content_deleted"`
	}{true, m.HistoryEntryDeleted(deleted), true, deleted})
}

func (a *API) historyClear(w http.ResponseWriter, r *http.Request) error {
	if err := a.g.History().Clear(r.Context()); err != nil {
		return err
	}
	return ok(w, success{true, a.messages(r.Context()).HistoryCleared()})
}

func (a *API) historyCleanup(w http.ResponseWriter, r *http.Request) error {
	n, err := a.g.History().Prune(r.Context())
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success bool   `json:"success"`
		Cleaned int    `json:"cleaned"`
		Message string `json:"message"`
	}{true, n, a.messages(r.Context()).OrphansRemoved(n)})
}

func (a *API) timeSaved(w http.ResponseWriter, r *http.Request) error {
	ts, err := a.g.TimeSaved(r.Context())
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success     bool        `json:"success"`
		TimeSavings timeSavings `json:"time_savings"`
	}{true, newTimeSavings(&ts)})
}

func (a *API) timeSavedReset(w http.ResponseWriter, r *http.Request) error {
	if err := a.g.ResetTimeSaved(r.Context()); err != nil {
		return err
	}
	return ok(w, success{true, a.messages(r.Context()).TimeSavedReset()})
}

func (a *API) cleanupAll(w http.ResponseWriter, r *http.Request) error {
	rm, err := a.g.DeleteAll(r.Context())
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success bool   `json:"success"`
		Message string `json:"message"`
		Stats   struct {
			Posts int `json:"posts"`
			Terms int `json:"terms"`
			Users int `json:"users"`
			Media int `json:"media"`
		} `json:"stats"`
	}{Success: true, Message: a.messages(r.Context()).CleanedUp(rm), Stats: struct {
		Posts int `json:"posts"`
		Terms int `json:"terms"`
		Users int `json:"users"`
		Media int `json:"media"`
	}{rm.Posts, rm.Terms, rm.Users, rm.Media}})
}

// Settings.

func (a *API) settings(w http.ResponseWriter, r *http.Request) error {
	var p Preferences
	s, err := a.g.Settings().GetWith(r.Context(), &p)
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success  bool `json:"success"`
		Settings struct {
			General generalSettings `json:"general"`
			AI      aiSettings      `json:"ai"`
		} `json:"settings"`
	}{Success: true, Settings: struct {
		General generalSettings `json:"general"`
		AI      aiSettings      `json:"ai"`
	}{generalSettings{s.GeneralSettings, p}, newAISettings(&s)}})
}

// updateSettings decodes the body over the current settings and
// preferences: the properties it has change, the others keep their value.
func (a *API) updateSettings(w http.ResponseWriter, r *http.Request) error {
	body, err := readJSON(w, r, a.maxBody)
	if err != nil {
		return err
	}
	if body != nil {
		// Types first, so that the update below cannot fail half-way.
		if err := jsonError(json.Unmarshal(body, new(generalSettings))); err != nil {
			return err
		}
	}
	var p Preferences
	s, err := a.g.Settings().UpdateWith(r.Context(), &p, func(s *contentgen.Settings) {
		if body != nil {
			_ = json.Unmarshal(body, &s.GeneralSettings)
			_ = json.Unmarshal(body, &p)
		}
	})
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success  bool            `json:"success"`
		Message  string          `json:"message"`
		Settings generalSettings `json:"settings"`
	}{true, a.messagesOf(r.Context(), p.AdminLocale).SettingsSaved(), generalSettings{s.GeneralSettings, p}})
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
	pt, err := a.postType(r, r.PathValue("post_type"))
	if err != nil {
		return err
	}
	return ok(w, legacy{http.StatusOK, struct {
		PostType string          `json:"post_type"`
		Supports map[string]bool `json:"supports"`
	}{pt.Name, supportsMap(pt.Supports)}})
}

// postType returns a registered post type that is not internal, or
// invalid_post_type naming post_type.
func (a *API) postType(r *http.Request, name string) (contentgen.PostType, error) {
	return a.g.Content().PostType(r.Context(), name)
}

func (a *API) taxonomies(w http.ResponseWriter, r *http.Request) error {
	taxes, err := a.g.Content().Taxonomies(r.Context())
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
	name := r.PathValue("taxonomy")
	cq := contentgen.ContentQuery{Subtypes: []string{name}, Search: q.str("search"), PerPage: q.intIn("per_page", 100, 1, 1000)}
	if parent := q.int64Ptr("parent"); parent != nil {
		if *parent < 0 {
			q.fail(paramError("parent", "parent must not be negative, got %d", *parent))
		}
		cq.Parent = parent
	}
	if _, err := a.g.Content().Taxonomy(r.Context(), name); err != nil {
		return err
	}
	if q.err != nil {
		return q.err
	}
	page, err := a.g.Content().Terms(r.Context(), cq)
	if err != nil {
		return err
	}
	out := make([]termRecord, len(page.Items))
	for i := range page.Items {
		out[i] = newTermRecord(&page.Items[i])
	}
	return ok(w, struct {
		Success  bool         `json:"success"`
		Taxonomy string       `json:"taxonomy"`
		Terms    []termRecord `json:"terms"`
		Total    int          `json:"total"`
	}{true, name, out, len(out)})
}

func (a *API) variationProfiles(w http.ResponseWriter, r *http.Request) error {
	return ok(w, struct {
		Success  bool                        `json:"success"`
		Profiles map[string]variationProfile `json:"profiles"`
		Default  string                      `json:"default"`
	}{true, a.messages(r.Context()).variationProfiles(), contentgen.ProfileRandom})
}

func (a *API) languages(w http.ResponseWriter, r *http.Request) error {
	list, def, err := a.g.Settings().Languages(r.Context())
	if err != nil {
		return err
	}
	return ok(w, struct {
		Success   bool             `json:"success"`
		Languages []locales.Locale `json:"languages"`
		Default   string           `json:"default"`
	}{true, list, def})
}

func (a *API) postMeta(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	generated, templateID, err := a.g.PostOrigin(r.Context(), id)
	if err != nil {
		return err
	}
	return ok(w, struct {
		IsGenerated bool  `json:"is_generated"`
		TemplateID  int64 `json:"template_id"`
	}{generated, templateID})
}

func (a *API) urlsInfo(w http.ResponseWriter, r *http.Request) error {
	site, err := a.g.Content().Site(r.Context())
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
	// Addresses given as a path are on the server the request reached.
	// No address is made up: ajax_url stays empty unless the embedding
	// program serves one.
	for _, f := range []*string{&u.PluginURL, &u.AdminURL, &u.AjaxURL, &u.LogoURL} {
		if strings.HasPrefix(*f, "/") && !strings.HasPrefix(*f, "//") {
			*f = origin(r) + *f
		}
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

// origin is the scheme and host the request reached.
func origin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// apiURL is the absolute address of the API root, derived from the
// request as the client sent it (the path before any StripPrefix).
func apiURL(r *http.Request) string {
	path := r.URL.Path
	if u, err := url.ParseRequestURI(r.RequestURI); err == nil {
		path = u.Path
	}
	path = strings.TrimSuffix(path, "/urls")
	return origin(r) + path
}

func (a *API) users(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	uq := contentgen.ContentQuery{Subtypes: q.list("roles"), Search: q.str("search"), PerPage: q.intIn("per_page", 50, 1, 1000)}
	if q.err != nil {
		return q.err
	}
	if len(uq.Subtypes) > 0 {
		roles, err := a.g.Content().Roles(r.Context())
		if err != nil {
			return err
		}
		for _, name := range uq.Subtypes {
			if !slices.ContainsFunc(roles, func(x contentgen.Role) bool { return x.Slug == name }) {
				return paramError("roles", "roles names %q, which is not a registered role", name)
			}
		}
	}
	page, err := a.g.Content().Users(r.Context(), uq)
	if err != nil {
		return err
	}
	out := make([]userRecord, len(page.Items))
	for i := range page.Items {
		out[i] = newUserRecord(&page.Items[i].User)
	}
	return ok(w, struct {
		Success bool         `json:"success"`
		Users   []userRecord `json:"users"`
		Total   int          `json:"total"`
	}{true, out, len(out)})
}

func (a *API) roles(w http.ResponseWriter, r *http.Request) error {
	roles, err := a.g.Content().Roles(r.Context())
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
