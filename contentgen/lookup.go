package contentgen

import (
	"context"
	"slices"

	"github.com/contentgen/contentgen/templates"
)

// siteLookup resolves relational values against the host, loading each
// list once per run: published posts per post type, terms per taxonomy,
// users per role, and images. The first host error is kept in err and
// the lookups answer nothing after it.
type siteLookup struct {
	ctx   context.Context
	g     *Generator
	posts map[string][]int64
	terms map[string][]int64
	users map[string][]int64
	media []int64
	urls  map[int64]string
	err   error
}

var _ templates.URLLookup = (*siteLookup)(nil)

func (g *Generator) newSiteLookup(ctx context.Context) *siteLookup {
	return &siteLookup{ctx: ctx, g: g, posts: map[string][]int64{}, terms: map[string][]int64{}, users: map[string][]int64{}}
}

// IDs implements templates.Lookup.
func (l *siteLookup) IDs(kind templates.RefKind, targets []string) []int64 {
	if l.err != nil {
		return nil
	}
	var one func(string) []int64
	switch kind {
	case templates.RefPost:
		one = l.postIDs
	case templates.RefTerm:
		one = l.termIDs
	case templates.RefUser:
		one = l.userIDs
	case templates.RefMedia:
		return l.mediaIDs()
	default:
		return nil
	}
	switch len(targets) {
	case 0:
		return one("")
	case 1:
		return one(targets[0])
	}
	var all []int64
	for _, t := range targets {
		all = append(all, one(t)...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// URL implements templates.URLLookup.
func (l *siteLookup) URL(kind templates.RefKind, id int64) string {
	if kind != templates.RefMedia {
		return ""
	}
	l.mediaIDs()
	return l.urls[id]
}

func (l *siteLookup) fail(err error) {
	if l.err == nil {
		l.err = err
	}
}

func (l *siteLookup) postIDs(postType string) []int64 {
	if ids, ok := l.posts[postType]; ok {
		return ids
	}
	q := PostQuery{Statuses: []string{StatusPublish}, Limit: lookupLimit}
	if postType != "" {
		q.Types = []string{postType}
	} else {
		types, err := l.g.host.PostTypes(l.ctx)
		if err != nil {
			l.fail(err)
			return nil
		}
		for _, pt := range types {
			if !pt.Internal {
				q.Types = append(q.Types, pt.Name)
			}
		}
	}
	posts, err := l.g.host.Posts(l.ctx, q)
	if err != nil {
		l.fail(err)
		return nil
	}
	ids := make([]int64, len(posts))
	for i := range posts {
		ids[i] = posts[i].ID
	}
	l.posts[postType] = ids
	return ids
}

func (l *siteLookup) termIDs(taxonomy string) []int64 {
	if ids, ok := l.terms[taxonomy]; ok {
		return ids
	}
	q := TermQuery{Limit: lookupLimit}
	if taxonomy != "" {
		q.Taxonomies = []string{taxonomy}
	}
	terms, err := l.g.host.Terms(l.ctx, q)
	if err != nil {
		l.fail(err)
		return nil
	}
	ids := make([]int64, len(terms))
	for i := range terms {
		ids[i] = terms[i].ID
	}
	l.terms[taxonomy] = ids
	return ids
}

func (l *siteLookup) userIDs(role string) []int64 {
	if ids, ok := l.users[role]; ok {
		return ids
	}
	q := UserQuery{Limit: lookupLimit}
	if role != "" {
		q.Roles = []string{role}
	}
	users, err := l.g.host.Users(l.ctx, q)
	if err != nil {
		l.fail(err)
		return nil
	}
	ids := make([]int64, len(users))
	for i := range users {
		ids[i] = users[i].ID
	}
	l.users[role] = ids
	return ids
}

// mediaIDs lists images: they fit image and gallery fields and are valid
// files too.
func (l *siteLookup) mediaIDs() []int64 {
	if l.urls != nil {
		return l.media
	}
	media, err := l.g.host.Media(l.ctx, MediaQuery{MIMEPrefixes: []string{"image/"}, Limit: lookupLimit})
	if err != nil {
		l.fail(err)
		return nil
	}
	l.urls = make(map[int64]string, len(media))
	l.media = make([]int64, len(media))
	for i := range media {
		l.media[i] = media[i].ID
		l.urls[media[i].ID] = media[i].URL
	}
	return l.media
}
