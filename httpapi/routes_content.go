package httpapi

import (
	"context"
	"net/http"
	"slices"
	"strconv"

	"github.com/contentgen/contentgen/contentgen"
)

// The read endpoints: what exists on the site, generated or not, as a
// reader or the admin page sees it. They only read, and only what a user
// with manage_options may see anyway.

func (a *API) contentRoutes() {
	a.handle("GET /content/posts", a.contentPosts)
	a.handle("GET /content/posts/{id}", a.contentPost)
	a.handle("GET /content/users", a.contentUsers)
	a.handle("GET /content/terms", a.contentTerms)
	a.handle("GET /content/media", a.contentMedia)
}

// listPage is the paging of a read endpoint: per_page 1-100 (default
// 20) and page from 1.
type listPage struct{ perPage, page int }

func (q *query) listPage() listPage {
	return listPage{perPage: q.intIn("per_page", 20, 1, 100), page: q.intIn("page", 1, 1, 1_000_000)}
}

// window returns the part of n items the page shows.
func (p listPage) window(n int) (lo, hi int) {
	lo = min((p.page-1)*p.perPage, n)
	return lo, min(lo+p.perPage, n)
}

func (p listPage) pages(total int) int { return (total + p.perPage - 1) / p.perPage }

type authorRecord struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	AvatarURL string `json:"avatar_url"`
}

type mediaRef struct {
	ID  int64  `json:"id"`
	URL string `json:"url"`
	Alt string `json:"alt"`
}

type termRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
}

type contentPostRecord struct {
	ID            int64                `json:"id"`
	PostType      string               `json:"post_type"`
	Status        string               `json:"status"`
	Title         string               `json:"title"`
	Excerpt       string               `json:"excerpt"`
	Date          string               `json:"date"`
	Author        *authorRecord        `json:"author"`
	FeaturedMedia *mediaRef            `json:"featured_media"`
	Terms         map[string][]termRef `json:"terms"`
	Generated     bool                 `json:"generated"`
}

type commentRecord struct {
	ID         int64  `json:"id"`
	Parent     int64  `json:"parent"`
	AuthorName string `json:"author_name"`
	AvatarURL  string `json:"avatar_url"`
	Content    string `json:"content"`
	Date       string `json:"date"`
	Status     string `json:"status"`
}

// resolver loads the users, terms and media that records refer to, one
// host call per kind.
type resolver struct {
	users map[int64]contentgen.User
	terms map[int64]contentgen.Term
	media map[int64]contentgen.Media
}

func (a *API) resolve(ctx context.Context, userIDs, termIDs, mediaIDs []int64) (*resolver, error) {
	h := a.g.Host()
	rs := &resolver{users: map[int64]contentgen.User{}, terms: map[int64]contentgen.Term{}, media: map[int64]contentgen.Media{}}
	if len(userIDs) > 0 {
		users, err := h.Users(ctx, contentgen.UserQuery{IDs: contentgen.OnlyIDs(userIDs...)})
		if err != nil {
			return nil, err
		}
		for _, u := range users {
			rs.users[u.ID] = u
			if id, err := strconv.ParseInt(u.Meta[contentgen.AvatarKey], 10, 64); err == nil {
				mediaIDs = append(mediaIDs, id)
			}
		}
	}
	if len(termIDs) > 0 {
		terms, err := h.Terms(ctx, contentgen.TermQuery{IDs: contentgen.OnlyIDs(termIDs...)})
		if err != nil {
			return nil, err
		}
		for _, t := range terms {
			rs.terms[t.ID] = t
		}
	}
	if len(mediaIDs) > 0 {
		media, err := h.Media(ctx, contentgen.MediaQuery{IDs: contentgen.OnlyIDs(mediaIDs...)})
		if err != nil {
			return nil, err
		}
		for _, m := range media {
			rs.media[m.ID] = m
		}
	}
	return rs, nil
}

// avatarOf returns the URL of the avatar an object's meta names.
func (rs *resolver) avatarOf(m contentgen.Meta) string {
	id, err := strconv.ParseInt(m[contentgen.AvatarKey], 10, 64)
	if err != nil {
		return ""
	}
	return thumbnailOf(rs.media[id])
}

// thumbnailOf is the URL of a media item's thumbnail, else of the item.
func thumbnailOf(m contentgen.Media) string {
	for _, s := range m.Sizes {
		if s.Name == "thumbnail" {
			return s.URL
		}
	}
	return m.URL
}

func (rs *resolver) post(p *contentgen.Post) contentPostRecord {
	rec := contentPostRecord{
		ID: p.ID, PostType: p.Type, Status: p.Status, Title: p.Title, Excerpt: p.Excerpt,
		Date: timestamp(p.Date), Terms: map[string][]termRef{}, Generated: p.Meta.Generated(),
	}
	if u, ok := rs.users[p.AuthorID]; ok {
		rec.Author = &authorRecord{ID: u.ID, Name: u.DisplayName, AvatarURL: rs.avatarOf(u.Meta)}
	}
	if m, ok := rs.media[p.FeaturedMediaID]; ok {
		rec.FeaturedMedia = &mediaRef{ID: m.ID, URL: m.URL, Alt: m.Title}
	}
	for tax, ids := range p.Terms {
		refs := []termRef{}
		for _, id := range ids {
			if t, ok := rs.terms[id]; ok {
				refs = append(refs, termRef{t.ID, t.Name, t.Slug})
			}
		}
		rec.Terms[tax] = refs
	}
	return rec
}

// refsOf collects the users, terms and media posts refer to.
func refsOf(posts []contentgen.Post) (users, terms, media []int64) {
	for i := range posts {
		p := &posts[i]
		if p.AuthorID != 0 {
			users = append(users, p.AuthorID)
		}
		if p.FeaturedMediaID != 0 {
			media = append(media, p.FeaturedMediaID)
		}
		for _, ids := range p.Terms {
			terms = append(terms, ids...)
		}
	}
	return users, terms, media
}

// generatedFilter reads the optional generated=true|false parameter.
func (q *query) generatedFilter() *bool {
	if !q.has("generated") {
		return nil
	}
	v := q.boolean("generated", false)
	return &v
}

func keepGenerated(want *bool, m contentgen.Meta) bool { return want == nil || *want == m.Generated() }

func (a *API) contentPosts(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	pq := contentgen.PostQuery{Search: q.str("search")}
	if pt := q.str("post_type"); pt != "" {
		pq.Types = []string{pt}
	} else {
		types, err := a.g.Host().PostTypes(r.Context())
		if err != nil {
			return err
		}
		for _, pt := range types {
			if !pt.Internal {
				pq.Types = append(pq.Types, pt.Name)
			}
		}
	}
	if st := q.str("status"); st != "" {
		pq.Statuses = []string{st}
	}
	gen := q.generatedFilter()
	pg := q.listPage()
	if q.err != nil {
		return q.err
	}
	all, err := a.g.Host().Posts(r.Context(), pq)
	if err != nil {
		return err
	}
	all = slices.DeleteFunc(all, func(p contentgen.Post) bool { return !keepGenerated(gen, p.Meta) })
	lo, hi := pg.window(len(all))
	posts := all[lo:hi]
	users, terms, media := refsOf(posts)
	rs, err := a.resolve(r.Context(), users, terms, media)
	if err != nil {
		return err
	}
	out := make([]contentPostRecord, len(posts))
	for i := range posts {
		out[i] = rs.post(&posts[i])
	}
	return ok(w, struct {
		Success bool                `json:"success"`
		Posts   []contentPostRecord `json:"posts"`
		Total   int                 `json:"total"`
		Pages   int                 `json:"pages"`
	}{true, out, len(all), pg.pages(len(all))})
}

func (a *API) contentPost(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	ctx := r.Context()
	posts, err := a.g.Host().Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(id)})
	if err != nil {
		return err
	}
	if len(posts) == 0 {
		return contentgen.Errorf(contentgen.CodeNotFound, "id", "post %d not found", id)
	}
	comments, err := a.g.Host().Comments(ctx, contentgen.CommentQuery{PostIDs: contentgen.OnlyIDs(id)})
	if err != nil {
		return err
	}
	users, terms, media := refsOf(posts)
	for _, c := range comments {
		if c.UserID != 0 {
			users = append(users, c.UserID)
		}
		if mid, err := strconv.ParseInt(c.Meta[contentgen.AvatarKey], 10, 64); err == nil {
			media = append(media, mid)
		}
	}
	rs, err := a.resolve(ctx, users, terms, media)
	if err != nil {
		return err
	}
	rec := struct {
		contentPostRecord
		Content  string            `json:"content"`
		Meta     map[string]string `json:"meta"`
		Comments []commentRecord   `json:"comments"`
	}{rs.post(&posts[0]), posts[0].Content, posts[0].Meta, make([]commentRecord, len(comments))}
	if rec.Meta == nil {
		rec.Meta = map[string]string{}
	}
	for i, c := range comments {
		avatar := rs.avatarOf(c.Meta)
		if u, ok := rs.users[c.UserID]; ok && avatar == "" {
			avatar = rs.avatarOf(u.Meta)
		}
		rec.Comments[i] = commentRecord{ID: c.ID, Parent: c.ParentID, AuthorName: c.AuthorName, AvatarURL: avatar,
			Content: c.Content, Date: timestamp(c.Date), Status: c.Status}
	}
	return ok(w, struct {
		Success bool `json:"success"`
		Post    any  `json:"post"`
	}{true, rec})
}

type contentUserRecord struct {
	ID          int64    `json:"id"`
	Login       string   `json:"login"`
	DisplayName string   `json:"display_name"`
	Email       string   `json:"email"`
	Roles       []string `json:"roles"`
	Registered  string   `json:"registered"`
	AvatarURL   string   `json:"avatar_url"`
	Description string   `json:"description"`
	Generated   bool     `json:"generated"`
}

func (a *API) contentUsers(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	uq := contentgen.UserQuery{Search: q.str("search")}
	if role := q.str("role"); role != "" {
		uq.Roles = []string{role}
	}
	gen := q.generatedFilter()
	pg := q.listPage()
	if q.err != nil {
		return q.err
	}
	all, err := a.g.Host().Users(r.Context(), uq)
	if err != nil {
		return err
	}
	all = slices.DeleteFunc(all, func(u contentgen.User) bool { return !keepGenerated(gen, u.Meta) })
	lo, hi := pg.window(len(all))
	users := all[lo:hi]
	ids := make([]int64, len(users))
	for i, u := range users {
		ids[i] = u.ID
	}
	rs, err := a.resolve(r.Context(), ids, nil, nil)
	if err != nil {
		return err
	}
	out := make([]contentUserRecord, len(users))
	for i, u := range users {
		out[i] = contentUserRecord{ID: u.ID, Login: u.Login, DisplayName: u.DisplayName, Email: u.Email, Roles: nonNil(u.Roles),
			Registered: timestamp(u.Registered), AvatarURL: rs.avatarOf(u.Meta), Description: u.Description, Generated: u.Meta.Generated()}
	}
	return ok(w, struct {
		Success bool                `json:"success"`
		Users   []contentUserRecord `json:"users"`
		Total   int                 `json:"total"`
		Pages   int                 `json:"pages"`
	}{true, out, len(all), pg.pages(len(all))})
}

func (a *API) contentTerms(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	tq := contentgen.TermQuery{Search: q.str("search")}
	if tax := q.str("taxonomy"); tax != "" {
		tq.Taxonomies = []string{tax}
	}
	gen := q.generatedFilter()
	pg := q.listPage()
	if q.err != nil {
		return q.err
	}
	all, err := a.g.Host().Terms(r.Context(), tq)
	if err != nil {
		return err
	}
	all = slices.DeleteFunc(all, func(t contentgen.Term) bool { return !keepGenerated(gen, t.Meta) })
	lo, hi := pg.window(len(all))
	out := make([]termRecord, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, newTermRecord(&all[i]))
	}
	return ok(w, struct {
		Success bool         `json:"success"`
		Terms   []termRecord `json:"terms"`
		Total   int          `json:"total"`
		Pages   int          `json:"pages"`
	}{true, out, len(all), pg.pages(len(all))})
}

type contentMediaRecord struct {
	ID        int64  `json:"id"`
	Title     string `json:"title"`
	URL       string `json:"url"`
	Thumbnail string `json:"thumbnail"`
	MIMEType  string `json:"mime_type"`
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	Date      string `json:"date"`
	Generated bool   `json:"generated"`
}

func (a *API) contentMedia(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	mq := contentgen.MediaQuery{Search: q.str("search")}
	gen := q.generatedFilter()
	pg := q.listPage()
	if q.err != nil {
		return q.err
	}
	all, err := a.g.Host().Media(r.Context(), mq)
	if err != nil {
		return err
	}
	all = slices.DeleteFunc(all, func(m contentgen.Media) bool {
		return !keepGenerated(gen, m.Meta) && !(gen != nil && *gen && m.Meta[contentgen.UploadedKey] == contentgen.MarkerValue)
	})
	lo, hi := pg.window(len(all))
	out := make([]contentMediaRecord, 0, hi-lo)
	for i := lo; i < hi; i++ {
		m := &all[i]
		out = append(out, contentMediaRecord{ID: m.ID, Title: m.Title, URL: m.URL, Thumbnail: thumbnailOf(*m), MIMEType: m.MIMEType,
			Width: m.Width, Height: m.Height, Date: timestamp(m.Date), Generated: m.Meta.Generated()})
	}
	return ok(w, struct {
		Success bool                 `json:"success"`
		Media   []contentMediaRecord `json:"media"`
		Total   int                  `json:"total"`
		Pages   int                  `json:"pages"`
	}{true, out, len(all), pg.pages(len(all))})
}
