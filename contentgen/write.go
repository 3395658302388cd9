package contentgen

import (
	"context"
	"errors"

	"github.com/contentgen/contentgen/history"
)

// maxAttempts bounds the writes of one batch: a batch that fails because a
// unique value clashed or an object it refers to was deleted meanwhile is
// planned again and retried, at most this many times in all.
const maxAttempts = 4

// batch is one planned write of a run. plan, when set, builds the items
// afresh for each attempt (attempt 0 first), outside any transaction;
// write stores them through h, returning the new ids and their history
// entries. write runs inside the host's transaction, so every host call
// it makes must go through h (or use the ctx it receives).
type batchWrite struct {
	kind  ObjectKind
	plan  func(ctx context.Context, attempt int) error
	write func(ctx context.Context, h Host) ([]int64, []history.Entry, error)
}

// retryable reports whether a failed batch write can succeed when planned
// again.
func retryable(err error) bool {
	return errors.Is(err, ErrHostConflict) || errors.Is(err, ErrHostReference)
}

// writeTracked writes a batch and records its history entries so that
// content and tracking never part: on hosts with transactions both happen
// in one transaction; elsewhere created objects are removed again when the
// history write fails, and recorded entries are removed again when the
// transaction fails after them. A retryable failure plans the batch
// again, up to maxAttempts writes.
func (g *Generator) writeTracked(ctx context.Context, b batchWrite) ([]int64, error) {
	var err error
	for attempt := 0; attempt < maxAttempts; attempt++ {
		var ids []int64
		ids, err = g.writeOnce(ctx, b, attempt)
		if err == nil {
			return ids, nil
		}
		if !retryable(err) || ctx.Err() != nil {
			break
		}
		g.log.Debug("contentgen: batch retried", "kind", b.kind, "attempt", attempt+1, "err", err)
	}
	return nil, failed(err, "creating "+string(b.kind)+"s")
}

func (g *Generator) writeOnce(ctx context.Context, b batchWrite, attempt int) ([]int64, error) {
	if b.plan != nil {
		if err := b.plan(ctx, attempt); err != nil {
			return nil, err
		}
	}
	tx, transactional := g.host.(Transactor)
	if !transactional {
		ids, entries, err := b.write(ctx, g.host)
		if err != nil {
			return nil, err
		}
		if err := g.recordHistory(ctx, entries); err != nil {
			g.undo(ctx, b.kind, ids)
			return nil, err
		}
		return ids, nil
	}
	var ids []int64
	var recorded []history.Entry
	err := tx.InTx(ctx, func(ctx context.Context, h Host) error {
		var entries []history.Entry
		var err error
		if ids, entries, err = b.write(ctx, h); err != nil {
			return err
		}
		if err := g.recordHistory(ctx, entries); err != nil {
			return err
		}
		recorded = entries
		return nil
	})
	if err != nil && len(recorded) > 0 {
		// The transaction failed after the history was written.
		g.forgetEntries(context.WithoutCancel(ctx), recorded)
	}
	return ids, err
}

// recordHistory adds entries to the history store. The entries of a
// batch are made for it and only their IDs are read afterwards, so a store
// that can adopt them does, sparing a copy of every meta map.
func (g *Generator) recordHistory(ctx context.Context, entries []history.Entry) error {
	if len(entries) == 0 {
		return nil
	}
	add := g.hist.Add
	if a, ok := g.hist.(history.Adopter); ok {
		add = a.Adopt
	}
	if err := add(ctx, entries); err != nil {
		return failed(err, "recording history")
	}
	return nil
}

// undo removes objects that were created but could not be tracked.
func (g *Generator) undo(ctx context.Context, kind ObjectKind, ids []int64) {
	if len(ids) == 0 {
		return
	}
	ctx = context.WithoutCancel(ctx)
	var err error
	switch kind {
	case KindPost:
		err = g.host.DeletePosts(ctx, ids)
	case KindTerm:
		err = g.host.DeleteTerms(ctx, ids)
	case KindUser:
		err = g.host.DeleteUsers(ctx, ids, 0)
	case KindComment:
		err = g.host.DeleteComments(ctx, ids)
	case KindMedia:
		err = g.host.DeleteMedia(ctx, ids)
	}
	if err != nil {
		g.log.Error("contentgen: removing untracked content failed", "kind", kind, "ids", len(ids), "err", err)
	}
}

// forgetEntries removes history entries whose content was not kept;
// Add wrote their ids into them.
func (g *Generator) forgetEntries(ctx context.Context, entries []history.Entry) {
	ids := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.ID != "" {
			ids = append(ids, e.ID)
		}
	}
	if _, err := g.hist.Delete(ctx, ids...); err != nil {
		g.log.Error("contentgen: removing history of content that was not kept failed", "err", err)
	}
}

// isNotFound reports whether a host error says the object does not exist.
func isNotFound(err error) bool { return errors.Is(err, ErrHostNotFound) }

// existing returns the subset of ids of a kind that exist on the host.
func (g *Generator) existing(ctx context.Context, kind ObjectKind, ids []int64) (map[int64]bool, error) {
	return existingOn(ctx, g.host, kind, ids)
}

// existingOn is existing through h, such as a host bound to a transaction.
func existingOn(ctx context.Context, h Host, kind ObjectKind, ids []int64) (map[int64]bool, error) {
	ok, err := existOn(ctx, h, kind, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]bool, len(ids))
	for i, id := range ids {
		if ok[i] {
			out[id] = true
		}
	}
	return out, nil
}
