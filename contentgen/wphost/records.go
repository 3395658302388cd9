package wphost

import (
	"context"

	"github.com/contentgen/contentgen/contentgen"
)

// recordsHost is a Host without MediaStorer, for a Site with no uploads
// directory: the Generator then keeps images as records of their URLs.
type recordsHost struct{ h *Host }

var (
	_ contentgen.Host       = recordsHost{}
	_ contentgen.Transactor = recordsHost{}
	_ contentgen.Exister    = recordsHost{}
	_ contentgen.Trasher    = recordsHost{}
)

func (r recordsHost) Site(ctx context.Context) (contentgen.Site, error) { return r.h.Site(ctx) }
func (r recordsHost) PostTypes(ctx context.Context) ([]contentgen.PostType, error) {
	return r.h.PostTypes(ctx)
}
func (r recordsHost) Taxonomies(ctx context.Context) ([]contentgen.Taxonomy, error) {
	return r.h.Taxonomies(ctx)
}
func (r recordsHost) Roles(ctx context.Context) ([]contentgen.Role, error) { return r.h.Roles(ctx) }
func (r recordsHost) CreatePosts(ctx context.Context, p []contentgen.Post) ([]int64, error) {
	return r.h.CreatePosts(ctx, p)
}
func (r recordsHost) Posts(ctx context.Context, q contentgen.PostQuery) ([]contentgen.Post, error) {
	return r.h.Posts(ctx, q)
}
func (r recordsHost) DeletePosts(ctx context.Context, ids []int64) error {
	return r.h.DeletePosts(ctx, ids)
}
func (r recordsHost) CreateTerms(ctx context.Context, t []contentgen.Term) ([]int64, error) {
	return r.h.CreateTerms(ctx, t)
}
func (r recordsHost) Terms(ctx context.Context, q contentgen.TermQuery) ([]contentgen.Term, error) {
	return r.h.Terms(ctx, q)
}
func (r recordsHost) DeleteTerms(ctx context.Context, ids []int64) error {
	return r.h.DeleteTerms(ctx, ids)
}
func (r recordsHost) CreateUsers(ctx context.Context, u []contentgen.User) ([]int64, error) {
	return r.h.CreateUsers(ctx, u)
}
func (r recordsHost) Users(ctx context.Context, q contentgen.UserQuery) ([]contentgen.User, error) {
	return r.h.Users(ctx, q)
}
func (r recordsHost) DeleteUsers(ctx context.Context, ids []int64, reassignTo int64) error {
	return r.h.DeleteUsers(ctx, ids, reassignTo)
}
func (r recordsHost) CreateComments(ctx context.Context, c []contentgen.Comment) ([]int64, error) {
	return r.h.CreateComments(ctx, c)
}
func (r recordsHost) Comments(ctx context.Context, q contentgen.CommentQuery) ([]contentgen.Comment, error) {
	return r.h.Comments(ctx, q)
}
func (r recordsHost) DeleteComments(ctx context.Context, ids []int64) error {
	return r.h.DeleteComments(ctx, ids)
}
func (r recordsHost) CreateMedia(ctx context.Context, m []contentgen.Media) ([]int64, error) {
	return r.h.CreateMedia(ctx, m)
}
func (r recordsHost) Media(ctx context.Context, q contentgen.MediaQuery) ([]contentgen.Media, error) {
	return r.h.Media(ctx, q)
}
func (r recordsHost) DeleteMedia(ctx context.Context, ids []int64) error {
	return r.h.DeleteMedia(ctx, ids)
}
func (r recordsHost) Meta(ctx context.Context, kind contentgen.ObjectKind, id int64) (contentgen.Meta, error) {
	return r.h.Meta(ctx, kind, id)
}
func (r recordsHost) SetMeta(ctx context.Context, kind contentgen.ObjectKind, id int64, m contentgen.Meta) error {
	return r.h.SetMeta(ctx, kind, id, m)
}
func (r recordsHost) TrashPosts(ctx context.Context, ids []int64) error {
	return r.h.TrashPosts(ctx, ids)
}
func (r recordsHost) TrashComments(ctx context.Context, ids []int64) error {
	return r.h.TrashComments(ctx, ids)
}
func (r recordsHost) Exist(ctx context.Context, kind contentgen.ObjectKind, ids []int64) ([]bool, error) {
	return r.h.Exist(ctx, kind, ids)
}

// InTx runs fn in a transaction of the site's database, handing it this
// host.
func (r recordsHost) InTx(ctx context.Context, fn func(ctx context.Context, tx contentgen.Host) error) error {
	if fn == nil {
		return r.h.InTx(ctx, nil)
	}
	return r.h.s.db.InTx(ctx, func(ctx context.Context) error { return fn(ctx, r) })
}
