package contentgen

import "context"

// Check is what a generate call would reach outside the site for, as the
// Check methods find it for a request they accept. Such calls take longer
// than those that make everything offline.
type Check struct {
	// Images is whether the call fetches images from an image provider
	// (featured images, avatars).
	Images bool
	// AIText is whether an AI provider writes the text.
	AIText bool
}

// CheckPosts validates req as GeneratePosts does before it writes
// anything, against the settings and the site as they are now (the post
// type, taxonomies, template, locale and every option), without writing
// or drawing anything: a request it refuses, GeneratePosts refuses with
// the same *Error. It serves whoever makes posts later, such as a run of
// many requests that should fail when it is asked for, not at its first
// batch.
func (g *Generator) CheckPosts(ctx context.Context, req PostsRequest) (Check, error) {
	s, err := g.settings.load(ctx)
	if err != nil {
		return Check{}, err
	}
	p, err := g.planPosts(ctx, &req, s)
	if err != nil {
		return Check{}, err
	}
	if _, err := g.localePack(ctx, req.Locale, s); err != nil {
		return Check{}, err
	}
	return Check{Images: p.featured && p.download, AIText: p.text == TextSourceAI}, nil
}

// CheckTerms validates req as GenerateTerms does before it writes
// anything (the taxonomy, count, depth, breadth and locale), as
// CheckPosts does for posts.
func (g *Generator) CheckTerms(ctx context.Context, req TermsRequest) (Check, error) {
	s, err := g.settings.load(ctx)
	if err != nil {
		return Check{}, err
	}
	if _, err := g.planTerms(ctx, &req, s); err != nil {
		return Check{}, err
	}
	if _, err := g.localePack(ctx, req.Locale, s); err != nil {
		return Check{}, err
	}
	return Check{}, nil
}

// CheckUsers validates req as GenerateUsers does before it writes
// anything (the count, roles, avatar provider and locale), as CheckPosts
// does for posts.
func (g *Generator) CheckUsers(ctx context.Context, req UsersRequest) (Check, error) {
	s, err := g.settings.load(ctx)
	if err != nil {
		return Check{}, err
	}
	p, err := g.planUsers(ctx, &req, s)
	if err != nil {
		return Check{}, err
	}
	if _, err := g.localePack(ctx, req.Locale, s); err != nil {
		return Check{}, err
	}
	return Check{Images: p.avatars}, nil
}

// CheckComments validates req as GenerateComments does before it writes
// anything (the post type, the posts PostIDs names, every option and the
// locale; with Count, that there are posts to comment on), as CheckPosts
// does for posts.
func (g *Generator) CheckComments(ctx context.Context, req CommentsRequest) (Check, error) {
	s, err := g.settings.load(ctx)
	if err != nil {
		return Check{}, err
	}
	p, err := g.planCommentsRequest(ctx, &req, s)
	if err != nil {
		return Check{}, err
	}
	switch {
	case len(req.PostIDs) > 0:
		_, err = g.commentTargets(ctx, p.pt, req.PostIDs)
	case p.cp.total > 0:
		var total int
		_, total, err = g.list(ctx, KindPost, Listing{Subtypes: []string{p.pt.Name}, Statuses: []string{StatusPublish}, Limit: 1})
		switch {
		case err != nil:
			err = failed(err, "listing posts")
		case total == 0:
			err = invalid("post_type", "post_type %q has no published posts to comment on", p.pt.Name)
		}
	}
	if err != nil {
		return Check{}, err
	}
	if _, err := g.localePack(ctx, req.Locale, s); err != nil {
		return Check{}, err
	}
	return Check{Images: p.cp.avatarPct > 0, AIText: s.TextSource == TextSourceAI}, nil
}

// MaxCount is the largest count of one generate request (Config.MaxCount).
func (g *Generator) MaxCount() int { return g.cfg.MaxCount }
