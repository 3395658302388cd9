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

// GenerateUsers creates user accounts.
func (g *Generator) GenerateUsers(ctx context.Context, req UsersRequest) (*ItemsResult, error) {
	settings, err := g.Settings(ctx)
	if err != nil {
		return nil, err
	}
	count, err := countParam(req.Count, settings.DefaultUserCount, g.maxCount)
	if err != nil {
		return nil, err
	}
	roles, err := g.host.Roles(ctx)
	if err != nil {
		return nil, failed(err, "listing roles")
	}
	known := make(map[string]bool, len(roles))
	for _, r := range roles {
		known[r.Slug] = true
	}
	var pick []string
	switch {
	case req.Role != "":
		if !known[req.Role] {
			return nil, invalid("role", "role %q is not a registered role", req.Role)
		}
		pick = []string{req.Role}
	default:
		pick = req.AllowedRoles
		if len(pick) == 0 {
			pick = defaultAllowedRoles
		}
		for _, r := range pick {
			if !known[r] {
				return nil, invalid("allowed_roles", "allowed_roles names %q, which is not a registered role", r)
			}
		}
	}
	avatars := boolParam(req.GenerateAvatars, true)
	provider, err := enumParam(req.AvatarProvider, providers.Curated, "avatar_provider", providers.Slugs...)
	if err != nil {
		return nil, err
	}
	rn, err := g.newRun(ctx, req.Seed, req.Locale, nil)
	if err != nil {
		return nil, err
	}
	res := &ItemsResult{IDs: []int64{}}
	if req.DeleteExisting {
		if res.DeletedCount, err = g.deleteGenerated(ctx, KindUser, deleteScope{}, true); err != nil {
			return nil, err
		}
	}
	role := func() string { return pick[rn.r.IntN(len(pick))] }
	ids, err := g.createUsers(ctx, rn, count, role, map[string]any{"origin": "users"})
	res.IDs = append(res.IDs, ids...)
	res.Count = len(res.IDs)
	if err == nil && avatars && res.Count > 0 {
		err = g.userAvatars(ctx, rn, res.IDs, provider)
	}
	res.TimeSaved = g.addTimeSaved(ctx, KindUser, int64(res.Count)*secondsUser)
	if err != nil {
		return nil, err
	}
	res.Success = true
	res.Message = g.messagesFor(ctx, settings).UsersGenerated(res.Count)
	return res, nil
}

// userAvatars gives each user a portrait when the provider is configured.
// Failed images are skipped: an avatar never fails a run.
func (g *Generator) userAvatars(ctx context.Context, rn *run, ids []int64, provider string) error {
	return g.avatars(ctx, rn, KindUser, ids, provider)
}

// avatars gives each object (users or comments) a portrait as avatar,
// stored as a generated media item whose id goes in the AvatarKey meta. A
// failed image is a warning, never an error.
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
		if err := g.host.SetMeta(ctx, kind, ids[i], Meta{AvatarKey: strconv.FormatInt(mid, 10)}); err != nil {
			return failed(err, "setting an avatar")
		}
	}
	return nil
}

// AvatarKey is the user and comment meta key holding the avatar media id.
const AvatarKey = "_svc_avatar_id"

// createUsers creates n tracked users with roles from role().
func (g *Generator) createUsers(ctx context.Context, rn *run, n int, role func() string, meta map[string]any) ([]int64, error) {
	existing, err := g.host.Users(ctx, UserQuery{})
	if err != nil {
		return nil, failed(err, "listing users")
	}
	used := make(map[string]bool, len(existing)*2+n*2)
	for _, u := range existing {
		used[strings.ToLower(u.Login)] = true
		used[strings.ToLower(u.Email)] = true
	}
	var all []int64
	err = chunks(n, g.batch, func(lo, hi int) error {
		users := make([]User, 0, hi-lo)
		for i := lo; i < hi; i++ {
			users = append(users, rn.makeUser(role(), used))
		}
		var ids []int64
		err := g.withTx(ctx, func(ctx context.Context, h Host) error {
			var err error
			if ids, err = h.CreateUsers(ctx, users); err != nil {
				return failed(err, "creating users")
			}
			entries := make([]history.Entry, len(ids))
			for i, id := range ids {
				m := map[string]any{"locale": rn.locale, "run_id": rn.id, "role": users[i].Roles[0]}
				for k, v := range meta {
					m[k] = v
				}
				entries[i] = history.Entry{ContentType: history.TypeUser, ContentID: id, ContentSubtype: users[i].Roles[0], Meta: m}
			}
			return g.record(ctx, entries, func(ctx context.Context) error {
				if _, ok := g.host.(Transactor); ok {
					return nil
				}
				return g.host.DeleteUsers(ctx, ids, 0)
			})
		})
		all = append(all, ids...)
		return err
	})
	return all, err
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
