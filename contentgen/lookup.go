package contentgen

import (
	"context"
	"slices"

	"github.com/contentgen/contentgen/templates/fill"
)

// siteLookup resolves relational values against the host, loading each
// list once per run: published posts per post type, terms per taxonomy,
// users per role, and images.
type siteLookup struct {
	g     *Generator
	posts map[string][]int64
	terms map[string][]int64
	users map[string][]int64
	media []int64
	urls  map[int64]string
}

var _ fill.URLLookup = (*siteLookup)(nil)

func (g *Generator) newSiteLookup() *siteLookup {
	return &siteLookup{g: g, posts: map[string][]int64{}, terms: map[string][]int64{}, users: map[string][]int64{}}
}

// IDs implements fill.Lookup.
func (l *siteLookup) IDs(ctx context.Context, kind fill.RefKind, targets []string) ([]int64, error) {
	var one func(context.Context, string) ([]int64, error)
	switch kind {
	case fill.RefPost:
		one = l.postIDs
	case fill.RefTerm:
		one = l.cached(l.terms, l.termIDs)
	case fill.RefUser:
		one = l.cached(l.users, l.userIDs)
	case fill.RefMedia:
		return l.mediaIDs(ctx)
	default:
		return nil, nil
	}
	if len(targets) == 0 {
		return one(ctx, "")
	}
	if len(targets) == 1 {
		return one(ctx, targets[0])
	}
	var all []int64
	for _, t := range targets {
		ids, err := one(ctx, t)
		if err != nil {
			return nil, err
		}
		all = append(all, ids...)
	}
	slices.Sort(all)
	return slices.Compact(all), nil
}

// URL implements fill.URLLookup.
func (l *siteLookup) URL(ctx context.Context, kind fill.RefKind, id int64) (string, error) {
	if kind != fill.RefMedia {
		return "", nil
	}
	if _, err := l.mediaIDs(ctx); err != nil {
		return "", err
	}
	return l.urls[id], nil
}

// cached memoises load per key in m.
func (l *siteLookup) cached(m map[string][]int64, load func(context.Context, string) ([]int64, error)) func(context.Context, string) ([]int64, error) {
	return func(ctx context.Context, key string) ([]int64, error) {
		if ids, ok := m[key]; ok {
			return ids, nil
		}
		ids, err := load(ctx, key)
		if err == nil {
			m[key] = ids
		}
		return ids, err
	}
}

func (l *siteLookup) postIDs(ctx context.Context, postType string) ([]int64, error) {
	if ids, ok := l.posts[postType]; ok {
		return ids, nil
	}
	q := PostQuery{Statuses: []string{StatusPublish}, Limit: lookupLimit}
	if postType != "" {
		q.Types = []string{postType}
	} else {
		types, err := l.g.host.PostTypes(ctx)
		if err != nil {
			return nil, failed(err, "listing post types")
		}
		for _, pt := range types {
			if !pt.Internal {
				q.Types = append(q.Types, pt.Name)
			}
		}
	}
	posts, err := l.g.host.Posts(ctx, q)
	if err != nil {
		return nil, failed(err, "looking up related posts")
	}
	ids := make([]int64, len(posts))
	for i := range posts {
		ids[i] = posts[i].ID
	}
	l.posts[postType] = ids
	return ids, nil
}

func (l *siteLookup) termIDs(ctx context.Context, taxonomy string) ([]int64, error) {
	q := TermQuery{Limit: lookupLimit}
	if taxonomy != "" {
		q.Taxonomies = []string{taxonomy}
	}
	terms, err := l.g.host.Terms(ctx, q)
	if err != nil {
		return nil, failed(err, "looking up terms")
	}
	ids := make([]int64, len(terms))
	for i := range terms {
		ids[i] = terms[i].ID
	}
	return ids, nil
}

func (l *siteLookup) userIDs(ctx context.Context, role string) ([]int64, error) {
	q := UserQuery{Limit: lookupLimit}
	if role != "" {
		q.Roles = []string{role}
	}
	users, err := l.g.host.Users(ctx, q)
	if err != nil {
		return nil, failed(err, "looking up users")
	}
	ids := make([]int64, len(users))
	for i := range users {
		ids[i] = users[i].ID
	}
	return ids, nil
}

// mediaIDs lists images: they fit image and gallery fields and are valid
// files too.
func (l *siteLookup) mediaIDs(ctx context.Context) ([]int64, error) {
	if l.urls != nil {
		return l.media, nil
	}
	media, err := l.g.host.Media(ctx, MediaQuery{MIMEPrefixes: []string{"image/"}, Limit: lookupLimit})
	if err != nil {
		return nil, failed(err, "looking up images")
	}
	l.urls = make(map[int64]string, len(media))
	l.media = make([]int64, len(media))
	for i := range media {
		l.media[i] = media[i].ID
		l.urls[media[i].ID] = media[i].URL
	}
	return l.media, nil
}
