package wphost

import (
	"context"

	"github.com/contentgen/contentgen/contentgen"
)

// hostCore is the required part of contentgen.Host, embedded by
// recordsHost so that only its methods are promoted.
type hostCore = contentgen.Host

// recordsHost is a Host without MediaStorer, for a Site with no uploads
// directory: the Generator then keeps images as records of their URLs.
// It embeds the Host's required methods as the interface, which hides
// StoreMedia and MediaBytes, and passes on the other optional ones.
type recordsHost struct {
	hostCore
	h *Host
}

func newRecordsHost(h *Host) recordsHost { return recordsHost{hostCore: h, h: h} }

var (
	_ contentgen.Host       = recordsHost{}
	_ contentgen.Transactor = recordsHost{}
	_ contentgen.Exister    = recordsHost{}
	_ contentgen.Trasher    = recordsHost{}
)

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
