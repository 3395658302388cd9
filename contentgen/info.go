package contentgen

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/locales"
)

// ContentTypes lists the post types content can be generated into: public,
// not internal, and neither pages nor attachments.
func (g *Generator) ContentTypes(ctx context.Context) ([]PostType, error) {
	types, err := g.host.PostTypes(ctx)
	if err != nil {
		return nil, failed(err, "listing post types")
	}
	out := types[:0:0]
	for _, pt := range types {
		if pt.Internal || !pt.Public || pt.Name == "page" || pt.Name == "attachment" {
			continue
		}
		out = append(out, pt)
	}
	return out, nil
}

// PostType returns a registered, non-internal post type, or an error with
// CodeInvalidPostType naming post_type.
func (g *Generator) PostType(ctx context.Context, name string) (PostType, error) {
	return g.postType(ctx, name)
}

// Taxonomies lists the registered taxonomies.
func (g *Generator) Taxonomies(ctx context.Context) ([]Taxonomy, error) {
	taxes, err := g.host.Taxonomies(ctx)
	if err != nil {
		return nil, failed(err, "listing taxonomies")
	}
	return taxes, nil
}

// TermsQuery selects terms of one taxonomy for Generator.Terms.
type TermsQuery struct {
	Taxonomy string
	// Search matches part of the name.
	Search string
	// Parent keeps the children of this term; 0 keeps top-level terms;
	// nil does not filter.
	Parent *int64
	// PerPage caps the result; nil means 100.
	PerPage *int
}

// Terms lists terms of a registered taxonomy.
func (g *Generator) Terms(ctx context.Context, q TermsQuery) ([]Term, error) {
	tax, err := g.taxonomy(ctx, q.Taxonomy)
	if err != nil {
		return nil, err
	}
	perPage, err := intParam(q.PerPage, 100, 1, 1000, "per_page")
	if err != nil {
		return nil, err
	}
	tq := TermQuery{Taxonomies: []string{tax.Name}, Search: q.Search, Limit: perPage}
	if q.Parent != nil {
		if *q.Parent < 0 {
			return nil, invalid("parent", "parent must not be negative, got %d", *q.Parent)
		}
		tq.Parent, tq.HasParent = *q.Parent, true
	}
	terms, err := g.host.Terms(ctx, tq)
	if err != nil {
		return nil, failed(err, "listing terms")
	}
	return terms, nil
}

// UsersQuery selects users for Generator.Users.
type UsersQuery struct {
	// Roles keeps users with one of these roles; every role must exist.
	Roles []string
	// Search matches login, display name or e-mail.
	Search string
	// PerPage caps the result; nil means 50.
	PerPage *int
}

// Users lists users.
func (g *Generator) Users(ctx context.Context, q UsersQuery) ([]User, error) {
	perPage, err := intParam(q.PerPage, 50, 1, 1000, "per_page")
	if err != nil {
		return nil, err
	}
	if len(q.Roles) > 0 {
		roles, err := g.Roles(ctx)
		if err != nil {
			return nil, err
		}
		for _, r := range q.Roles {
			if !slices.ContainsFunc(roles, func(x Role) bool { return x.Slug == r }) {
				return nil, invalid("roles", "roles names %q, which is not a registered role", r)
			}
		}
	}
	users, err := g.host.Users(ctx, UserQuery{Roles: q.Roles, Search: q.Search, Limit: perPage})
	if err != nil {
		return nil, failed(err, "listing users")
	}
	return users, nil
}

// Roles lists the registered roles.
func (g *Generator) Roles(ctx context.Context) ([]Role, error) {
	roles, err := g.host.Roles(ctx)
	if err != nil {
		return nil, failed(err, "listing roles")
	}
	return roles, nil
}

// Site describes the host installation.
func (g *Generator) Site(ctx context.Context) (Site, error) {
	s, err := g.host.Site(ctx)
	if err != nil {
		return Site{}, failed(err, "reading the site")
	}
	return s, nil
}

// PostMeta is what GET /post-meta/{id} reports about a post.
type PostMeta struct {
	IsGenerated bool  `json:"is_generated"`
	TemplateID  int64 `json:"template_id"`
}

// PostMeta reports whether a post is generated and which template made it
// (0 for none). An unknown post gives CodeNotFound.
func (g *Generator) PostMeta(ctx context.Context, id int64) (*PostMeta, error) {
	if id <= 0 {
		return nil, invalid("id", "id must be a positive integer, got %d", id)
	}
	m, err := g.host.Meta(ctx, KindPost, id)
	if errors.Is(err, ErrHostNotFound) {
		return nil, Errorf(CodeNotFound, "id", "post %d not found", id)
	}
	if err != nil {
		return nil, failed(err, "reading post meta")
	}
	out := &PostMeta{IsGenerated: m.Generated()}
	if !out.IsGenerated {
		// History is the other source of truth for generated content.
		entries, _, err := g.hist.List(ctx, historyFilterFor(KindPost, id))
		if err != nil {
			return nil, failed(err, "reading history")
		}
		out.IsGenerated = len(entries) > 0
	}
	if v, err := strconv.ParseInt(m[TemplateKey], 10, 64); err == nil && v > 0 {
		out.TemplateID = v
	}
	return out, nil
}

func historyFilterFor(kind ObjectKind, id int64) history.Filter {
	return history.Filter{ContentType: string(kind), ContentIDs: []int64{id}, Limit: 1}
}

// Languages is what GET /languages reports: the supported locales and the
// default generation locale (the locale setting, with "auto" resolved to
// the site's language).
type Languages struct {
	Success   bool             `json:"success"`
	Languages []locales.Locale `json:"languages"`
	Default   string           `json:"default"`
}

// Languages lists the locales valid as the locale parameter of generation
// requests.
func (g *Generator) Languages(ctx context.Context) (*Languages, error) {
	s, err := g.Settings(ctx)
	if err != nil {
		return nil, err
	}
	def, err := g.resolveLocale(ctx, "", s)
	if err != nil {
		return nil, err
	}
	return &Languages{Success: true, Languages: g.locales.List(), Default: def}, nil
}
