package httpapi

import (
	"net/http"

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

// listQuery reads the paging of a read endpoint (per_page 1-100,
// default 20, and page from 1), its search and its generated filter
// into a query of the content service.
func (q *query) listQuery() contentgen.ContentQuery {
	return contentgen.ContentQuery{
		Search: q.str("search"), Origin: q.origin(),
		PerPage: q.intIn("per_page", 20, 1, 100), Page: q.intIn("page", 1, 1, 1_000_000),
	}
}

// newestFirst reads the optional order=desc|asc parameter of the posts
// and media lists: desc, the default, lists the newest first, as
// WordPress lists posts and media.
func (q *query) newestFirst() contentgen.Order {
	switch s := q.str("order"); s {
	case "", "desc":
		return contentgen.NewestFirst
	case "asc":
		return contentgen.OldestFirst
	default:
		q.fail(paramError("order", "order must be desc or asc, got %q", s))
		return contentgen.NewestFirst
	}
}

// origin reads the optional generated=true|false parameter.
func (q *query) origin() contentgen.Origin {
	switch {
	case !q.has("generated"):
		return contentgen.AnyOrigin
	case q.boolean("generated", false):
		return contentgen.OnlyGenerated
	}
	return contentgen.NotGenerated
}

// one returns a list of v, or none when v is empty.
func one(v string) []string {
	if v == "" {
		return nil
	}
	return []string{v}
}

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

// thumbnailOf is the URL of a media item's thumbnail, else of the item.
func thumbnailOf(m contentgen.Media) string {
	for _, s := range m.Sizes {
		if s.Name == "thumbnail" {
			return s.URL
		}
	}
	return m.URL
}

// avatarURL is the URL of an avatar's thumbnail, "" for none.
func avatarURL(m *contentgen.Media) string {
	if m == nil {
		return ""
	}
	return thumbnailOf(*m)
}

func newContentPostRecord(v *contentgen.PostView) contentPostRecord {
	p := &v.Post
	rec := contentPostRecord{
		ID: p.ID, PostType: p.Type, Status: p.Status, Title: p.Title, Excerpt: p.Excerpt,
		Date: timestamp(p.Date), Terms: make(map[string][]termRef, len(v.Terms)), Generated: p.Meta.Generated(),
	}
	if u := v.Author; u != nil {
		rec.Author = &authorRecord{ID: u.User.ID, Name: u.User.DisplayName, AvatarURL: avatarURL(u.Avatar)}
	}
	if m := v.FeaturedImage; m != nil {
		rec.FeaturedMedia = &mediaRef{ID: m.ID, URL: m.URL, Alt: m.Title}
	}
	for tax, terms := range v.Terms {
		refs := make([]termRef, len(terms))
		for i, t := range terms {
			refs[i] = termRef{t.ID, t.Name, t.Slug}
		}
		rec.Terms[tax] = refs
	}
	return rec
}

func (a *API) contentPosts(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	cq := q.listQuery()
	cq.Subtypes, cq.Statuses = one(q.str("post_type")), one(q.str("status"))
	cq.Order = q.newestFirst()
	if q.err != nil {
		return q.err
	}
	page, err := a.g.Content().Posts(r.Context(), cq)
	if err != nil {
		return err
	}
	out := make([]contentPostRecord, len(page.Items))
	for i := range page.Items {
		out[i] = newContentPostRecord(&page.Items[i])
	}
	return ok(w, struct {
		Success bool                `json:"success"`
		Posts   []contentPostRecord `json:"posts"`
		Total   int                 `json:"total"`
		Pages   int                 `json:"pages"`
	}{true, out, page.Total, page.Pages})
}

func (a *API) contentPost(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	d, err := a.g.Content().Post(r.Context(), id)
	if err != nil {
		return err
	}
	rec := struct {
		contentPostRecord
		Content  string            `json:"content"`
		Meta     map[string]string `json:"meta"`
		Comments []commentRecord   `json:"comments"`
	}{newContentPostRecord(&d.PostView), d.Post.Content, d.Post.Meta, make([]commentRecord, len(d.Comments))}
	if rec.Meta == nil {
		rec.Meta = map[string]string{}
	}
	for i := range d.Comments {
		c := &d.Comments[i].Comment
		rec.Comments[i] = commentRecord{ID: c.ID, Parent: c.ParentID, AuthorName: c.AuthorName, AvatarURL: avatarURL(d.Comments[i].Avatar),
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
	cq := q.listQuery()
	cq.Subtypes = one(q.str("role"))
	if q.err != nil {
		return q.err
	}
	page, err := a.g.Content().Users(r.Context(), cq)
	if err != nil {
		return err
	}
	out := make([]contentUserRecord, len(page.Items))
	for i := range page.Items {
		u := &page.Items[i].User
		out[i] = contentUserRecord{ID: u.ID, Login: u.Login, DisplayName: u.DisplayName, Email: u.Email, Roles: nonNil(u.Roles),
			Registered: timestamp(u.Registered), AvatarURL: avatarURL(page.Items[i].Avatar), Description: u.Description, Generated: u.Meta.Generated()}
	}
	return ok(w, struct {
		Success bool                `json:"success"`
		Users   []contentUserRecord `json:"users"`
		Total   int                 `json:"total"`
		Pages   int                 `json:"pages"`
	}{true, out, page.Total, page.Pages})
}

func (a *API) contentTerms(w http.ResponseWriter, r *http.Request) error {
	q := newQuery(r)
	cq := q.listQuery()
	cq.Subtypes = one(q.str("taxonomy"))
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
		Success bool         `json:"success"`
		Terms   []termRecord `json:"terms"`
		Total   int          `json:"total"`
		Pages   int          `json:"pages"`
	}{true, out, page.Total, page.Pages})
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
	cq := q.listQuery()
	cq.Order = q.newestFirst()
	if q.err != nil {
		return q.err
	}
	page, err := a.g.Content().Media(r.Context(), cq)
	if err != nil {
		return err
	}
	out := make([]contentMediaRecord, len(page.Items))
	for i := range page.Items {
		m := &page.Items[i]
		out[i] = contentMediaRecord{ID: m.ID, Title: m.Title, URL: m.URL, Thumbnail: thumbnailOf(*m), MIMEType: m.MIMEType,
			Width: m.Width, Height: m.Height, Date: timestamp(m.Date), Generated: m.Meta.Generated()}
	}
	return ok(w, struct {
		Success bool                 `json:"success"`
		Media   []contentMediaRecord `json:"media"`
		Total   int                  `json:"total"`
		Pages   int                  `json:"pages"`
	}{true, out, page.Total, page.Pages})
}
