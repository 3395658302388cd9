package contentgen

import (
	"context"
	"strconv"
	"strings"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/providers"
)

// defaultAllowedRoles are the roles users get at random when none is named.
var defaultAllowedRoles = []string{"subscriber", "contributor", "author"}

// AvatarKey is the user and comment meta key holding the avatar media id.
const AvatarKey = "_svc_avatar_id"

// minAuthors is the number of authors a posts run makes sure exist.
const minAuthors = 3

// GenerateUsers creates user accounts.
func (g *Generator) GenerateUsers(ctx context.Context, req UsersRequest) (*Result, error) {
	s, err := g.settings.load(ctx)
	if err != nil {
		return nil, err
	}
	p, err := g.planUsers(ctx, &req, s)
	if err != nil {
		return nil, err
	}
	count, avatars, provider, pick := p.count, p.avatars, p.provider, p.roles
	rn, err := g.newRun(ctx, s, req.Seed, req.Locale, nil)
	if err != nil {
		return nil, err
	}
	res := &Result{IDs: []int64{}}
	var work tally
	defer func() { res.TimeSaved = g.addTimeSaved(ctx, work) }()
	if req.DeleteExisting {
		if res.Deleted, err = g.deleteGenerated(ctx, KindUser, deleteScope{}, true); err != nil {
			return nil, err
		}
	}
	role := func() string { return pick[rn.r.IntN(len(pick))] }
	ids, err := g.createUsers(ctx, rn, count, role, map[string]any{"origin": "users"})
	res.IDs = append(res.IDs, ids...)
	work.users += len(ids)
	if err != nil {
		return nil, err
	}
	if avatars {
		if err := g.avatars(ctx, rn, KindUser, ids, provider); err != nil {
			return nil, err
		}
	}
	res.Warnings = append([]string{}, rn.warnings...)
	return res, nil
}

// usersPlan is a validated UsersRequest with its defaults applied.
type usersPlan struct {
	count    int
	avatars  bool
	provider string
	roles    []string
}

// planUsers validates req against the site and the settings s and applies
// the defaults. Nothing is written.
func (g *Generator) planUsers(ctx context.Context, req *UsersRequest, s Settings) (*usersPlan, error) {
	v := validator{}
	p := &usersPlan{}
	p.count = v.count(req.Count, s.DefaultUserCount, g.cfg.MaxCount)
	p.avatars = boolOr(req.GenerateAvatars, true)
	p.provider = v.enum("avatar_provider", req.AvatarProvider, s.DefaultImageProvider, providers.Slugs()...)
	if v.err != nil {
		return nil, v.err
	}
	var err error
	if p.roles, err = g.userRoles(ctx, *req); err != nil {
		return nil, err
	}
	return p, nil
}

// userRoles returns the roles a users run picks from.
func (g *Generator) userRoles(ctx context.Context, req UsersRequest) ([]string, error) {
	roles, err := g.host.Roles(ctx)
	if err != nil {
		return nil, failed(err, "listing roles")
	}
	known := make(map[string]bool, len(roles))
	for _, r := range roles {
		known[r.Slug] = true
	}
	if req.Role != "" {
		if !known[req.Role] {
			return nil, invalid("role", "role %q is not a registered role", req.Role)
		}
		return []string{req.Role}, nil
	}
	pick := req.AllowedRoles
	if len(pick) == 0 {
		pick = defaultAllowedRoles
	}
	for _, r := range pick {
		if !known[r] {
			return nil, invalid("allowed_roles", "allowed_roles names %q, which is not a registered role", r)
		}
	}
	return pick, nil
}

// createUsers creates n tracked users with roles from role(). Logins and
// e-mail addresses are unique against the users read before each batch;
// a clash with a user made meanwhile is retried with new names.
func (g *Generator) createUsers(ctx context.Context, rn *run, n int, role func() string, meta map[string]any) ([]int64, error) {
	roles := make([]string, n)
	for i := range roles {
		roles[i] = role()
	}
	var all []int64
	err := chunks(n, g.cfg.BatchSize, func(lo, hi int) error {
		ids, err := g.writeTracked(ctx, batchWrite{kind: KindUser, write: func(ctx context.Context, h Host) ([]int64, []history.Entry, error) {
			used, err := usedNames(ctx, h)
			if err != nil {
				return nil, nil, err
			}
			users := make([]User, 0, hi-lo)
			for _, r := range roles[lo:hi] {
				users = append(users, rn.makeUser(r, used))
			}
			ids, err := h.CreateUsers(ctx, users)
			if err != nil {
				return nil, nil, err
			}
			entries := make([]history.Entry, len(ids))
			for i, id := range ids {
				m := map[string]any{"locale": rn.locale, "run_id": rn.id, "role": users[i].Roles[0]}
				for k, v := range meta {
					m[k] = v
				}
				entries[i] = history.Entry{ContentType: history.TypeUser, ContentID: id, ContentSubtype: users[i].Roles[0], CreatedAt: rn.now, Meta: m}
			}
			return ids, entries, nil
		}})
		all = append(all, ids...)
		return err
	})
	return all, err
}

// usedNames returns the lower-cased logins and e-mail addresses in use.
func usedNames(ctx context.Context, h Host) (map[string]bool, error) {
	existing, err := h.Users(ctx, UserQuery{})
	if err != nil {
		return nil, err
	}
	used := make(map[string]bool, len(existing)*2)
	for _, u := range existing {
		used[strings.ToLower(u.Login)] = true
		used[strings.ToLower(u.Email)] = true
	}
	return used, nil
}

// makeUser makes up one user with a login and e-mail address not in used.
func (rn *run) makeUser(role string, used map[string]bool) User {
	w := rn.w
	person := w.Person()
	var login, email string
	for n := 0; ; n++ {
		suffix := 0
		if n > 0 {
			suffix = rn.between(2, 99) + n*100
		}
		login = w.Login(person, suffix)
		email = w.Email(person, suffix)
		if !used[login] && !used[email] {
			break
		}
	}
	used[login], used[email] = true, true
	return User{
		Login:       login,
		Email:       email,
		DisplayName: person.Display,
		FirstName:   person.First,
		LastName:    person.Last,
		Description: w.Bio(),
		URL:         "https://" + login[:strings.IndexByte(login+".", '.')] + "." + w.Domain(),
		Roles:       []string{role},
		Registered:  rn.pastDate(730),
		Meta:        trackMeta(0),
	}
}

// authorPool holds the users posts of a run are attributed to.
type authorPool struct {
	postType string
	// roles may publish posts; newRole is the role of authors made.
	roles   []string
	newRole string
	ids     []int64
	created int
}

// ensureAuthors returns the users who can author posts, creating authors
// when fewer than minAuthors exist.
func (g *Generator) ensureAuthors(ctx context.Context, rn *run, postType string) (*authorPool, error) {
	roles, err := g.host.Roles(ctx)
	if err != nil {
		return nil, failed(err, "listing roles")
	}
	a := &authorPool{postType: postType}
	for _, r := range roles {
		for _, c := range r.Capabilities {
			if c == "publish_posts" {
				a.roles = append(a.roles, r.Slug)
				if r.Slug == "author" || a.newRole == "" && r.Slug != "administrator" {
					a.newRole = r.Slug
				}
				break
			}
		}
	}
	return a, a.refresh(ctx, g, rn)
}

// refresh reads the authors again and makes new ones when fewer than
// minAuthors exist.
func (a *authorPool) refresh(ctx context.Context, g *Generator, rn *run) error {
	if len(a.roles) == 0 {
		a.ids = nil
		return nil
	}
	users, err := g.host.Users(ctx, UserQuery{Roles: a.roles})
	if err != nil {
		return failed(err, "listing users")
	}
	a.ids = a.ids[:0]
	for _, u := range users {
		a.ids = append(a.ids, u.ID)
	}
	if len(a.ids) >= minAuthors || a.newRole == "" {
		return nil
	}
	made, err := g.createUsers(ctx, rn, minAuthors-len(a.ids), func() string { return a.newRole }, map[string]any{"origin": "author", "post_type": a.postType})
	a.ids = append(a.ids, made...)
	a.created += len(made)
	if err != nil {
		return err
	}
	rn.info("Created %d authors", len(made))
	return nil
}

// avatars gives each object (users or comments) a portrait as avatar,
// stored as a generated media item whose id goes in the AvatarKey meta. A
// failed image is a warning, never an error; an object deleted meanwhile
// is skipped.
func (g *Generator) avatars(ctx context.Context, rn *run, kind ObjectKind, ids []int64, provider string) error {
	if len(ids) == 0 {
		return nil
	}
	prov, ok := g.images[provider]
	if !ok {
		rn.warn("image provider %s is not configured; %ss created without avatar", provider, kind)
		return nil
	}
	reqs := make([]providers.ImageRequest, len(ids))
	for i := range reqs {
		// Providers without categories ignore it.
		reqs[i] = providers.ImageRequest{Width: 256, Height: 256, Seed: rn.r.Uint64(), Category: "portrait"}
	}
	media, err := g.fetchImages(ctx, rn, prov, reqs, map[string]any{"origin": "avatar", "object": string(kind)})
	if err != nil {
		return err
	}
	for i, mid := range media {
		if mid == 0 {
			continue
		}
		err := g.host.SetMeta(ctx, kind, ids[i], Meta{AvatarKey: strconv.FormatInt(mid, 10)})
		if err != nil && !isNotFound(err) {
			return failed(err, "setting an avatar")
		}
	}
	return nil
}
