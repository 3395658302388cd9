package contentgen

import (
	"context"
	"fmt"
	"slices"
	"strconv"
)

// ContentService reads what is on the site, generated or not, as a
// reader or an administrator sees it: pages of posts, terms, users and
// media with the objects they refer to resolved, one post with its
// comments, and the site's registration (post types, taxonomies, roles).
// Pages are filtered, ordered, counted and cut by the host when it
// implements Lister, else by the Generator (see Lister). It only reads.
type ContentService struct{ g *Generator }

// ContentQuery selects a page of one kind of content. Zero fields do not
// filter; see Listing for the filters.
type ContentQuery struct {
	Subtypes []string
	Statuses []string
	Parent   *int64
	Origin   Origin
	Search   string
	Order    Order
	// Page counts from 1; PerPage is 1 to MaxPerPage. Zero means 1 and
	// 20.
	Page, PerPage int
}

// MaxPerPage is the largest ContentQuery.PerPage.
const MaxPerPage = 1000

// Page is one page of a listing.
type Page[T any] struct {
	Items []T
	// Total is the number of matching items; Pages the number of pages
	// of PerPage items they fill.
	Total, Pages int
}

// PostView is a post with the objects it refers to.
type PostView struct {
	Post Post
	// Author is nil when the post has none or it no longer exists.
	Author *UserView
	// FeaturedImage is nil when the post has none or it no longer
	// exists.
	FeaturedImage *Media
	// Terms holds the existing terms of Post.Terms, per taxonomy, in the
	// post's order; every taxonomy of Post.Terms has an entry.
	Terms map[string][]Term
}

// UserView is a user with its avatar, nil when it has none.
type UserView struct {
	User   User
	Avatar *Media
}

// CommentView is a comment with its avatar: its own, else that of its
// user; nil when neither has one.
type CommentView struct {
	Comment Comment
	Avatar  *Media
}

// PostDetail is a post with its references and its comments, oldest
// first.
type PostDetail struct {
	PostView
	Comments []CommentView
}

// Content returns the service that reads the site's content.
func (g *Generator) Content() *ContentService { return g.content }

// Site describes the installation.
func (c *ContentService) Site(ctx context.Context) (Site, error) { return c.g.host.Site(ctx) }

// PostTypes lists every registered post type, internal ones included,
// with its number of posts.
func (c *ContentService) PostTypes(ctx context.Context) ([]PostType, error) {
	return c.g.host.PostTypes(ctx)
}

// PostType returns the registered post type name that is not internal,
// or an *Error with CodeInvalidPostType naming post_type.
func (c *ContentService) PostType(ctx context.Context, name string) (PostType, error) {
	return c.g.postType(ctx, name)
}

// Taxonomies lists every registered taxonomy with its number of terms.
func (c *ContentService) Taxonomies(ctx context.Context) ([]Taxonomy, error) {
	return c.g.host.Taxonomies(ctx)
}

// Taxonomy returns the registered taxonomy name, or an *Error with
// CodeInvalidTaxonomy naming taxonomy.
func (c *ContentService) Taxonomy(ctx context.Context, name string) (Taxonomy, error) {
	return c.g.taxonomy(ctx, name)
}

// Roles lists the registered roles.
func (c *ContentService) Roles(ctx context.Context) ([]Role, error) { return c.g.host.Roles(ctx) }

// UserByLogin returns the user whose login is login, or an *Error with
// CodeNotFound.
func (c *ContentService) UserByLogin(ctx context.Context, login string) (User, error) {
	if login == "" {
		return User{}, Errorf(CodeNotFound, "login", "no user has an empty login")
	}
	users, err := c.g.host.Users(ctx, UserQuery{Login: login, Limit: 1})
	if err != nil {
		return User{}, err
	}
	if len(users) == 0 {
		return User{}, Errorf(CodeNotFound, "login", "user %q not found", login)
	}
	return users[0], nil
}

// MediaByID returns the media items among ids that exist, by ascending
// id.
func (c *ContentService) MediaByID(ctx context.Context, ids ...int64) ([]Media, error) {
	return c.g.host.Media(ctx, MediaQuery{IDs: OnlyIDs(ids...)})
}

// page validates the paging of q and returns its Limit and Offset.
func (q *ContentQuery) page() (limit, offset int, err error) {
	perPage, page := q.PerPage, q.Page
	if perPage == 0 {
		perPage = 20
	}
	if page == 0 {
		page = 1
	}
	switch {
	case perPage < 1 || perPage > MaxPerPage:
		return 0, 0, invalid("per_page", "per_page must be between 1 and %d, got %d", MaxPerPage, q.PerPage)
	case page < 1 || page > 1_000_000:
		return 0, 0, invalid("page", "page must be between 1 and 1000000, got %d", q.Page)
	}
	return perPage, (page - 1) * perPage, nil
}

// listPage lists the ids of one page of kind and its totals.
func (c *ContentService) listPage(ctx context.Context, kind ObjectKind, q ContentQuery) ([]int64, int, int, error) {
	limit, offset, err := q.page()
	if err != nil {
		return nil, 0, 0, err
	}
	ids, total, err := c.g.list(ctx, kind, Listing{
		Subtypes: q.Subtypes, Statuses: q.Statuses, Parent: q.Parent, Origin: q.Origin,
		Search: q.Search, Order: q.Order, Limit: limit, Offset: offset,
	})
	if err != nil {
		return nil, 0, 0, fmt.Errorf("contentgen: listing %ss: %w", kind, err)
	}
	return ids, total, (total + limit - 1) / limit, nil
}

// inOrder reorders items, which hosts return by ascending id, into the
// order of ids, leaving out ids with no item.
func inOrder[T any](ids []int64, items []T, id func(*T) int64) []T {
	at := make(map[int64]int, len(items))
	for i := range items {
		at[id(&items[i])] = i
	}
	out := make([]T, 0, len(ids))
	for _, x := range ids {
		if i, ok := at[x]; ok {
			out = append(out, items[i])
		}
	}
	return out
}

// Posts returns a page of posts (Subtypes are post types, none meaning
// every type that is not internal) with their authors, featured images
// and terms.
func (c *ContentService) Posts(ctx context.Context, q ContentQuery) (Page[PostView], error) {
	ids, total, pages, err := c.listPage(ctx, KindPost, q)
	if err != nil {
		return Page[PostView]{}, err
	}
	out := Page[PostView]{Items: []PostView{}, Total: total, Pages: pages}
	if len(ids) == 0 {
		return out, nil
	}
	posts, err := c.g.host.Posts(ctx, PostQuery{IDs: OnlyIDs(ids...)})
	if err != nil {
		return Page[PostView]{}, fmt.Errorf("contentgen: reading posts: %w", err)
	}
	posts = inOrder(ids, posts, func(p *Post) int64 { return p.ID })
	rs := c.newResolver()
	for i := range posts {
		rs.wantPost(&posts[i])
	}
	if err := rs.load(ctx); err != nil {
		return Page[PostView]{}, err
	}
	out.Items = make([]PostView, len(posts))
	for i := range posts {
		out.Items[i] = rs.post(&posts[i])
	}
	return out, nil
}

// Post returns a post with its references and comments, or an *Error
// with CodeNotFound.
func (c *ContentService) Post(ctx context.Context, id int64) (PostDetail, error) {
	posts, err := c.g.host.Posts(ctx, PostQuery{IDs: OnlyIDs(id)})
	if err != nil {
		return PostDetail{}, fmt.Errorf("contentgen: reading post %d: %w", id, err)
	}
	if len(posts) == 0 {
		return PostDetail{}, Errorf(CodeNotFound, "id", "post %d not found", id)
	}
	comments, err := c.g.host.Comments(ctx, CommentQuery{PostIDs: OnlyIDs(id)})
	if err != nil {
		return PostDetail{}, fmt.Errorf("contentgen: reading the comments of post %d: %w", id, err)
	}
	rs := c.newResolver()
	rs.wantPost(&posts[0])
	for i := range comments {
		rs.wantUser(comments[i].UserID)
		rs.wantAvatar(comments[i].Meta)
	}
	if err := rs.load(ctx); err != nil {
		return PostDetail{}, err
	}
	d := PostDetail{PostView: rs.post(&posts[0]), Comments: make([]CommentView, len(comments))}
	for i, cm := range comments {
		avatar := rs.avatar(cm.Meta)
		if u, ok := rs.users[cm.UserID]; ok && avatar == nil {
			avatar = rs.avatar(u.Meta)
		}
		d.Comments[i] = CommentView{Comment: cm, Avatar: avatar}
	}
	return d, nil
}

// Users returns a page of users (Subtypes are roles, of which a user
// needs one) with their avatars.
func (c *ContentService) Users(ctx context.Context, q ContentQuery) (Page[UserView], error) {
	ids, total, pages, err := c.listPage(ctx, KindUser, q)
	if err != nil {
		return Page[UserView]{}, err
	}
	out := Page[UserView]{Items: []UserView{}, Total: total, Pages: pages}
	if len(ids) == 0 {
		return out, nil
	}
	rs := c.newResolver()
	for _, id := range ids {
		rs.wantUser(id)
	}
	if err := rs.load(ctx); err != nil {
		return Page[UserView]{}, err
	}
	for _, id := range ids {
		if v := rs.user(id); v != nil {
			out.Items = append(out.Items, *v)
		}
	}
	return out, nil
}

// Terms returns a page of terms (Subtypes are taxonomies).
func (c *ContentService) Terms(ctx context.Context, q ContentQuery) (Page[Term], error) {
	ids, total, pages, err := c.listPage(ctx, KindTerm, q)
	if err != nil {
		return Page[Term]{}, err
	}
	out := Page[Term]{Items: []Term{}, Total: total, Pages: pages}
	if len(ids) == 0 {
		return out, nil
	}
	terms, err := c.g.host.Terms(ctx, TermQuery{IDs: OnlyIDs(ids...)})
	if err != nil {
		return Page[Term]{}, fmt.Errorf("contentgen: reading terms: %w", err)
	}
	out.Items = inOrder(ids, terms, func(t *Term) int64 { return t.ID })
	return out, nil
}

// Media returns a page of media items (no Subtypes).
func (c *ContentService) Media(ctx context.Context, q ContentQuery) (Page[Media], error) {
	ids, total, pages, err := c.listPage(ctx, KindMedia, q)
	if err != nil {
		return Page[Media]{}, err
	}
	out := Page[Media]{Items: []Media{}, Total: total, Pages: pages}
	if len(ids) == 0 {
		return out, nil
	}
	media, err := c.g.host.Media(ctx, MediaQuery{IDs: OnlyIDs(ids...)})
	if err != nil {
		return Page[Media]{}, fmt.Errorf("contentgen: reading media: %w", err)
	}
	out.Items = inOrder(ids, media, func(m *Media) int64 { return m.ID })
	return out, nil
}

// resolver loads the users, terms and media that a page refers to, one
// host query per kind (and one more for the avatars of the users).
type resolver struct {
	c                          *ContentService
	userIDs, termIDs, mediaIDs []int64
	users                      map[int64]User
	terms                      map[int64]Term
	media                      map[int64]Media
}

func (c *ContentService) newResolver() *resolver {
	return &resolver{c: c, users: map[int64]User{}, terms: map[int64]Term{}, media: map[int64]Media{}}
}

func (rs *resolver) wantUser(id int64) {
	if id != 0 {
		rs.userIDs = append(rs.userIDs, id)
	}
}

func (rs *resolver) wantPost(p *Post) {
	rs.wantUser(p.AuthorID)
	if p.FeaturedMediaID != 0 {
		rs.mediaIDs = append(rs.mediaIDs, p.FeaturedMediaID)
	}
	for _, ids := range p.Terms {
		rs.termIDs = append(rs.termIDs, ids...)
	}
}

// avatarID returns the id of the avatar meta m names, 0 for none.
func avatarID(m Meta) int64 {
	id, err := strconv.ParseInt(m[AvatarKey], 10, 64)
	if err != nil || id <= 0 {
		return 0
	}
	return id
}

func (rs *resolver) wantAvatar(m Meta) {
	if id := avatarID(m); id != 0 {
		rs.mediaIDs = append(rs.mediaIDs, id)
	}
}

func unique(ids []int64) []int64 {
	slices.Sort(ids)
	return slices.Compact(ids)
}

// load reads what was asked for.
func (rs *resolver) load(ctx context.Context) error {
	h := rs.c.g.host
	if len(rs.userIDs) > 0 {
		users, err := h.Users(ctx, UserQuery{IDs: OnlyIDs(unique(rs.userIDs)...)})
		if err != nil {
			return fmt.Errorf("contentgen: reading users: %w", err)
		}
		for _, u := range users {
			rs.users[u.ID] = u
			rs.wantAvatar(u.Meta)
		}
	}
	if len(rs.termIDs) > 0 {
		terms, err := h.Terms(ctx, TermQuery{IDs: OnlyIDs(unique(rs.termIDs)...), Bare: true})
		if err != nil {
			return fmt.Errorf("contentgen: reading terms: %w", err)
		}
		for _, t := range terms {
			rs.terms[t.ID] = t
		}
	}
	if len(rs.mediaIDs) > 0 {
		media, err := h.Media(ctx, MediaQuery{IDs: OnlyIDs(unique(rs.mediaIDs)...)})
		if err != nil {
			return fmt.Errorf("contentgen: reading media: %w", err)
		}
		for _, m := range media {
			rs.media[m.ID] = m
		}
	}
	return nil
}

// avatar returns the avatar that meta m names, if it exists.
func (rs *resolver) avatar(m Meta) *Media {
	if x, ok := rs.media[avatarID(m)]; ok {
		return &x
	}
	return nil
}

func (rs *resolver) user(id int64) *UserView {
	u, ok := rs.users[id]
	if !ok {
		return nil
	}
	return &UserView{User: u, Avatar: rs.avatar(u.Meta)}
}

func (rs *resolver) post(p *Post) PostView {
	v := PostView{Post: *p, Author: rs.user(p.AuthorID), Terms: make(map[string][]Term, len(p.Terms))}
	if m, ok := rs.media[p.FeaturedMediaID]; ok {
		v.FeaturedImage = &m
	}
	for tax, ids := range p.Terms {
		list := []Term{}
		for _, id := range ids {
			if t, ok := rs.terms[id]; ok {
				list = append(list, t)
			}
		}
		v.Terms[tax] = list
	}
	return v
}
