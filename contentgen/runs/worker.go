package runs

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivertype"

	"github.com/contentgen/contentgen/contentgen"
)

// batchWorker works on the batch jobs of runs.
type batchWorker struct {
	river.WorkerDefaults[batchArgs]
	s *Service
}

// Timeout is the time batch job may take: Options.RescueAfter when set,
// else its run's BatchTimeout. River cancels the batch past it, and its
// rescuer takes up the batch of a process that died once it passed.
func (w *batchWorker) Timeout(job *river.Job[batchArgs]) time.Duration {
	if w.s.o.RescueAfter > 0 {
		return w.s.o.RescueAfter
	}
	return cmp.Or(time.Duration(job.Args.TimeoutMS)*time.Millisecond, DefaultBatchTimeout)
}

// errSkip rolls back a batch's transaction that found nothing to do.
var errSkip = errors.New("runs: batch not to be done")

// Work makes one batch, records it and completes its job in one
// transaction.
func (w *batchWorker) Work(ctx context.Context, job *river.Job[batchArgs]) error {
	s := w.s
	if s.o.Ledger != nil {
		return s.workLedger(ctx, job)
	}
	r, err := s.Get(ctx, job.Args.Run)
	if errors.Is(err, contentgen.ErrNotFound) {
		return river.JobCancel(err)
	}
	if err != nil {
		return err
	}
	if r.Status.Final() || job.Args.Batch >= r.Batches {
		return nil
	}
	if err := s.started(ctx, r); err != nil {
		return err
	}
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		var skip bool
		if err := s.db.WithSQLTx(ctx, func(tx *sql.Tx) error {
			var status string
			if err := tx.QueryRowContext(ctx, s.q(`SELECT status FROM `+s.t.runs+` WHERE id = ?`), r.ID).Scan(&status); err != nil {
				return err
			}
			var n int
			if err := tx.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM `+s.t.batches+` WHERE run_id = ? AND batch = ?`), r.ID, job.Args.Batch).Scan(&n); err != nil {
				return err
			}
			skip = n > 0 || Status(status).Final()
			return nil
		}); err != nil {
			return fmt.Errorf("runs: reading run %s: %w", r.ID, err)
		}
		if skip {
			return errSkip
		}
		items, warnings, err := s.generate(ctx, r, job.Args.Batch)
		if err != nil {
			return err
		}
		return s.db.WithSQLTx(ctx, func(tx *sql.Tx) error {
			counted, err := s.count(ctx, tx, r.ID, job.Args.Batch, s.WorkerName(), items, warnings)
			if err != nil {
				return err
			}
			if !counted {
				// Another worker recorded it first: undo this one's.
				return errSkip
			}
			return s.complete(ctx, tx, job)
		})
	})
	if errors.Is(err, errSkip) {
		// Nothing of the batch is to be kept; its job is done.
		err = s.db.InTx(ctx, func(ctx context.Context) error {
			return s.db.WithSQLTx(ctx, func(tx *sql.Tx) error { return s.complete(ctx, tx, job) })
		})
		return err
	}
	if err != nil {
		return s.failed(ctx, r, job, err)
	}
	s.notify()
	return nil
}

// started sets run r running when it is queued.
func (s *Service) started(ctx context.Context, r *Run) error {
	if r.Status != StatusQueued {
		return nil
	}
	if _, err := s.db.WritePool().ExecContext(ctx, s.q(`UPDATE `+s.t.runs+` SET status = ?, started_at = ? WHERE id = ? AND status = ?`),
		string(StatusRunning), s.o.Now().UnixMicro(), r.ID, string(StatusQueued)); err != nil {
		return fmt.Errorf("runs: starting run %s: %w", r.ID, err)
	}
	s.notify()
	return nil
}

// count records, in tx, batch b of run as made by worker with items
// items, adds them to the run's done count (the last batch sets it
// succeeded, however many items the batches made: a comment on a post
// deleted meanwhile is not made) and keeps the warnings. It reports false, changing nothing,
// when the batch is recorded already: a batch counts once.
func (s *Service) count(ctx context.Context, tx *sql.Tx, run string, b int64, worker string, items int, warnings []string) (bool, error) {
	res, err := tx.ExecContext(ctx, s.q(`INSERT INTO `+s.t.batches+` (run_id, batch, worker, items, finished_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
		run, b, worker, items, s.o.Now().UnixMicro())
	if err != nil {
		return false, fmt.Errorf("runs: recording batch %d of run %s: %w", b, run, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	now := s.o.Now().UnixMicro()
	if _, err := tx.ExecContext(ctx, s.q(`UPDATE `+s.t.runs+` SET done = done + ?, batches_done = batches_done + 1,
		status = CASE WHEN batches_done + 1 >= batches AND status IN (?, ?) THEN ? ELSE status END,
		ended_at = CASE WHEN batches_done + 1 >= batches AND status IN (?, ?) THEN ? ELSE ended_at END
		WHERE id = ?`),
		items, string(StatusQueued), string(StatusRunning), string(StatusSucceeded),
		string(StatusQueued), string(StatusRunning), now, run); err != nil {
		return false, fmt.Errorf("runs: counting batch %d of run %s: %w", b, run, err)
	}
	for _, m := range warnings {
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO `+s.t.warnings+` (run_id, message) VALUES (?, ?) ON CONFLICT DO NOTHING`), run, m); err != nil {
			return false, fmt.Errorf("runs: recording warnings of run %s: %w", run, err)
		}
	}
	return true, nil
}

// complete completes the running job in tx.
func (s *Service) complete(ctx context.Context, tx *sql.Tx, job *river.Job[batchArgs]) error {
	if _, err := river.JobCompleteTx[riverdriver.Driver[*sql.Tx]](ctx, tx, job); err != nil {
		return fmt.Errorf("runs: completing the job of batch %d of run %s: %w", job.Args.Batch, job.Args.Run, err)
	}
	return nil
}

// permanent reports whether err will fail every attempt of a batch: the
// request does not fit the site.
func permanent(err error) bool {
	for _, e := range []error{contentgen.ErrInvalidPostType, contentgen.ErrInvalidTaxonomy, contentgen.ErrInvalidCount, contentgen.ErrInvalidParameter, contentgen.ErrNotFound} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// failed counts a failed attempt of a batch and fails the run when the
// batch will not succeed; it returns what Work returns.
func (s *Service) failed(ctx context.Context, r *Run, job *river.Job[batchArgs], err error) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		// Stopping: the batch runs again, nothing to count.
		return err
	}
	s.o.Logger.Error("runs: batch failed", "run", r.ID, "batch", job.Args.Batch, "attempt", job.Attempt, "err", err)
	msg := clientMessage(err)
	if ctx.Err() != nil {
		// Past its time: a failed attempt like any other.
		msg = fmt.Sprintf("batch %d took longer than its %s", job.Args.Batch, (&batchWorker{s: s}).Timeout(job))
	}
	final := permanent(err) || job.Attempt >= job.MaxAttempts
	s.recordFailure(ctx, r.ID, msg, final)
	if permanent(err) {
		return river.JobCancel(counted{err})
	}
	return counted{err}
}

// clientMessage is the client-safe message of err, the failure of a
// batch: the message of a *contentgen.Error, else "generation failed".
func clientMessage(err error) string {
	var ce *contentgen.Error
	if errors.As(err, &ce) && ce.Message != "" {
		return ce.Message
	}
	return "generation failed"
}

// counted marks the error of a failed attempt that Work counted itself
// (failing the run when the attempt was the batch's last), so that
// errorHandler does not count it again.
type counted struct{ error }

func (e counted) Unwrap() error { return e.error }

// recordFailure counts, in one transaction, a failed attempt of a batch
// of run, with msg as the run's last error; when final (the batch will
// not run again), it also fails the run, if still active, and removes its
// queued batches, which are not to run.
func (s *Service) recordFailure(ctx context.Context, run, msg string, final bool) {
	q := `UPDATE ` + s.t.runs + ` SET errors = errors + 1, last_error = ? WHERE id = ?`
	args := []any{msg, run}
	if final {
		q = `UPDATE ` + s.t.runs + ` SET errors = errors + 1, last_error = ?, status = CASE WHEN status IN (?, ?) THEN ? ELSE status END, ended_at = CASE WHEN status IN (?, ?) THEN ? ELSE ended_at END WHERE id = ?`
		now := s.o.Now().UnixMicro()
		args = []any{msg, string(StatusQueued), string(StatusRunning), string(StatusFailed), string(StatusQueued), string(StatusRunning), now, run}
	}
	err := s.db.InTx(context.WithoutCancel(ctx), func(ctx context.Context) error {
		return s.db.WithSQLTx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, s.q(q), args...); err != nil {
				return err
			}
			if !final {
				return nil
			}
			return s.dropJobs(ctx, tx, run)
		})
	})
	if err != nil {
		s.o.Logger.Error("runs: recording a failed batch", "run", run, "err", err)
	}
	s.notify()
}

// errorHandler hears from River of every failed attempt of a batch: those
// that Work did not count (an error outside the batch's transaction, such
// as reading the run, or a panic) are counted here, and the last attempt
// of a batch, which River then discards, fails its run, as Work's own
// failures do; else the run would stay active, waiting for a batch that
// never runs again.
type errorHandler struct{ s *Service }

func (h errorHandler) HandleError(ctx context.Context, job *rivertype.JobRow, err error) *river.ErrorHandlerResult {
	h.s.attemptFailed(ctx, job, err)
	return nil
}

func (h errorHandler) HandlePanic(ctx context.Context, job *rivertype.JobRow, panicVal any, trace string) *river.ErrorHandlerResult {
	h.s.attemptFailed(ctx, job, fmt.Errorf("panic: %v\n%s", panicVal, trace))
	return nil
}

// attemptFailed records the failed attempt job of a batch with err,
// unless Work counted it.
func (s *Service) attemptFailed(ctx context.Context, job *rivertype.JobRow, err error) {
	if job.Kind != jobKind || errors.As(err, new(counted)) {
		return
	}
	var args batchArgs
	if jerr := json.Unmarshal(job.EncodedArgs, &args); jerr != nil {
		s.o.Logger.Error("runs: reading the arguments of a failed batch", "job", job.ID, "err", jerr)
		return
	}
	s.o.Logger.Error("runs: batch failed", "run", args.Run, "batch", args.Batch, "attempt", job.Attempt, "err", err)
	s.recordFailure(ctx, args.Run, clientMessage(err), job.Attempt >= job.MaxAttempts)
}

// generate makes batch b of r through the Generator, with ctx, which
// carries the batch's transaction, and returns the number of items made
// and the warnings.
func (s *Service) generate(ctx context.Context, r *Run, b int64) (int, []string, error) {
	count := int(min(int64(r.BatchSize), r.Total-b*int64(r.BatchSize)))
	seed := new(batchSeed(r.Seed, b))
	// Each batch decodes its own copy of the request.
	switch r.Kind {
	case KindPosts:
		var req contentgen.PostsRequest
		if err := clone(r.Request.Posts, &req); err != nil {
			return 0, nil, err
		}
		req.Count, req.Seed, req.Progress = &count, seed, nil
		res, err := s.gen.GeneratePosts(ctx, req)
		if err != nil {
			return 0, nil, err
		}
		return len(res.IDs), res.Warnings, nil
	case KindTerms:
		var req contentgen.TermsRequest
		if err := clone(r.Request.Terms, &req); err != nil {
			return 0, nil, err
		}
		req.Count, req.Seed = &count, seed
		res, err := s.gen.GenerateTerms(ctx, req)
		if err != nil {
			return 0, nil, err
		}
		return len(res.IDs), res.Warnings, nil
	case KindUsers:
		var req contentgen.UsersRequest
		if err := clone(r.Request.Users, &req); err != nil {
			return 0, nil, err
		}
		req.Count, req.Seed = &count, seed
		res, err := s.gen.GenerateUsers(ctx, req)
		if err != nil {
			return 0, nil, err
		}
		return len(res.IDs), res.Warnings, nil
	case KindComments:
		var req contentgen.CommentsRequest
		if err := clone(r.Request.Comments, &req); err != nil {
			return 0, nil, err
		}
		req.Count, req.Seed, req.FirstPost = &count, seed, firstPost(&req, b, r.BatchSize)
		res, err := s.gen.GenerateComments(ctx, req)
		if err != nil {
			return 0, nil, err
		}
		return len(res.IDs), res.Warnings, nil
	}
	return 0, nil, fmt.Errorf("runs: unknown kind %q", r.Kind)
}

// firstPost is the position of the post that takes the first turn of
// batch b of a comments run of req in batches of size: the post the
// comments of the batches before reach when each turn makes the average
// of the request's CommentsPerPostMin and CommentsPerPostMax (1 and 15 by
// default, as the generate endpoint has them). The Generator takes it
// modulo the number of posts.
func firstPost(req *contentgen.CommentsRequest, b int64, size int) int {
	lo, hi := 1, 15
	if req.CommentsPerPostMin != nil {
		lo = *req.CommentsPerPostMin
	}
	if req.CommentsPerPostMax != nil {
		hi = *req.CommentsPerPostMax
	}
	return int(b * int64(size) * 2 / int64(max(lo+hi, 2)))
}

// clone copies *src (nil: the zero value) into dst through JSON, so that
// batches never share the request's pointers.
func clone[T any](src *T, dst *T) error {
	if src == nil {
		return nil
	}
	b, err := json.Marshal(src)
	if err != nil {
		return fmt.Errorf("runs: copying the request: %w", err)
	}
	return json.Unmarshal(b, dst)
}
