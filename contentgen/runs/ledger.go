package runs

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/riverqueue/river"

	"github.com/contentgen/contentgen/contentgen"
)

// Ledger is the database of a Generator's content when it is not the
// run's: a WordPress site written through contentgen/wphost, whose
// *wphost.Site is one, keeps its content in MySQL or MariaDB, for which
// River has no driver. A batch's content, history entries and record
// commit in one transaction of the Ledger; the batch is counted, and its
// job completed, in a second transaction, of the run's database. A batch
// run again after a crash between the two finds its record and is
// counted without being made again; the run's own record of its batches
// keeps it from counting twice.
type Ledger interface {
	// InTx runs fn in one transaction of the content's database; the
	// writes of the Generator's host and history made with the context fn
	// receives join it.
	InTx(ctx context.Context, fn func(ctx context.Context) error) error
	// RecordRunBatch records, in the transaction ctx carries, that batch
	// of run was made by worker, with items items and the warnings. It
	// reports false, recording nothing, when the batch is recorded
	// already, by this transaction or another that committed.
	RecordRunBatch(ctx context.Context, run string, batch int64, worker string, items int, warnings []string) (bool, error)
	// RunBatches calls fn with each recorded batch of run numbered from
	// from to to-1.
	RunBatches(ctx context.Context, run string, from, to int64, fn func(batch int64, worker string, items int, warnings []string) error) error
	// LedgerID names the content's database, the same in every process
	// that opens it and different for another: the batches of its runs
	// go to a River queue of their own, so that workers of another site
	// (or of the run's database itself) that share the run's database
	// never take them, nor these workers theirs.
	LedgerID() string
}

// queueOf is River's queue of the batches of the runs kept in the tables
// of prefix (sqlstore's TablePrefix) whose content goes to l: queue for
// the run's database itself without a prefix, else a queue of the two's
// own. River's tables take no prefix, so sites that differ only by theirs
// share River's tables and keep their batches apart by queue. The prefix
// counts without case, as the tables do in SQLite and PostgreSQL.
func queueOf(prefix string, l Ledger) string {
	id := ""
	if l != nil {
		id = l.LedgerID()
	}
	switch {
	case prefix == "" && l == nil:
		return queue
	case prefix != "":
		id = strings.ToLower(prefix) + "\x00" + id
	}
	sum := sha256.Sum256([]byte(id))
	return queue + "_" + hex.EncodeToString(sum[:8])
}

// siteBatch is a batch as the Ledger recorded it.
type siteBatch struct {
	batch    int64
	worker   string
	items    int
	warnings []string
}

// siteBatches returns the batches of run from to to-1 that the Ledger
// recorded.
func (s *Service) siteBatches(ctx context.Context, run string, from, to int64) ([]siteBatch, error) {
	var out []siteBatch
	err := s.o.Ledger.RunBatches(ctx, run, from, to, func(b int64, worker string, items int, warnings []string) error {
		out = append(out, siteBatch{b, worker, items, warnings})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("runs: reading the batches of run %s in the site: %w", run, err)
	}
	return out, nil
}

// countSite counts, in one transaction of the run's database, the
// batches of run the Ledger recorded that the run has not counted, and
// completes job (when not nil) in it.
func (s *Service) countSite(ctx context.Context, run string, batches []siteBatch, job *river.Job[batchArgs]) error {
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		return s.db.WithSQLTx(ctx, func(tx *sql.Tx) error {
			for _, b := range batches {
				if _, err := s.count(ctx, tx, run, b.batch, b.worker, b.items, b.warnings); err != nil {
					return err
				}
			}
			if job == nil {
				return nil
			}
			return s.complete(ctx, tx, job)
		})
	})
	if err == nil {
		s.notify()
	}
	return err
}

// workLedger makes a batch whose content goes to the Ledger: in one
// transaction of the Ledger its content, history entries and record;
// then, in one of the run's database, its count and the completion of its
// job. A batch the Ledger recorded before (its first run died between
// the two commits, or another worker made it) is only counted, whatever
// the run's status now: its content exists.
func (s *Service) workLedger(ctx context.Context, job *river.Job[batchArgs]) error {
	r, err := s.Get(ctx, job.Args.Run)
	if errors.Is(err, contentgen.ErrNotFound) {
		return river.JobCancel(err)
	}
	if err != nil {
		return err
	}
	b := job.Args.Batch
	recorded, err := s.siteBatches(ctx, r.ID, b, b+1)
	if err != nil {
		return err
	}
	if len(recorded) > 0 {
		return s.countSite(ctx, r.ID, recorded, job)
	}
	if r.Status.Final() || b >= r.Batches {
		return nil
	}
	if err := s.started(ctx, r); err != nil {
		return err
	}
	var made siteBatch
	err = s.o.Ledger.InTx(ctx, func(ctx context.Context) error {
		// Made meanwhile by a worker that took the batch again.
		if again, err := s.siteBatches(ctx, r.ID, b, b+1); err != nil || len(again) > 0 {
			if err == nil {
				err = errSkip
			}
			return err
		}
		items, warnings, err := s.generate(ctx, r, b)
		if err != nil {
			return err
		}
		made = siteBatch{batch: b, worker: s.WorkerName(), items: items, warnings: warnings}
		ok, err := s.o.Ledger.RecordRunBatch(ctx, r.ID, b, made.worker, items, warnings)
		if err != nil {
			return fmt.Errorf("runs: recording batch %d of run %s in the site: %w", b, r.ID, err)
		}
		if !ok {
			// Another worker recorded it first: undo this one's.
			return errSkip
		}
		return nil
	})
	if errors.Is(err, errSkip) {
		// Count what the other worker made.
		recorded, err := s.siteBatches(ctx, r.ID, b, b+1)
		if err != nil {
			return err
		}
		return s.countSite(ctx, r.ID, recorded, job)
	}
	if err != nil {
		return s.failed(ctx, r, job, err)
	}
	// The batch is made. A crash from here on leaves its job running
	// until River rescues it: run again, it finds the record above.
	if err := s.countSite(ctx, r.ID, []siteBatch{made}, job); err != nil {
		return s.failed(ctx, r, job, err)
	}
	return nil
}

// reconcile counts the batches of run r that the Ledger recorded and the
// run has not counted, such as one whose job was removed or given up
// after its content committed. It reports whether the run has then done
// everything; a cancelled or failed run that has is set succeeded.
func (s *Service) reconcile(ctx context.Context, r *Run) (bool, error) {
	recorded, err := s.siteBatches(ctx, r.ID, 0, r.Batches)
	if err != nil {
		return false, err
	}
	if err := s.countSite(ctx, r.ID, recorded, nil); err != nil {
		return false, err
	}
	var done, batches int64
	if err := s.db.ReadPool().QueryRowContext(ctx, s.q(`SELECT batches_done, batches FROM `+s.t.runs+` WHERE id = ?`), r.ID).Scan(&done, &batches); err != nil {
		return false, fmt.Errorf("runs: reading run %s: %w", r.ID, err)
	}
	if done < batches {
		return false, nil
	}
	if _, err := s.db.WritePool().ExecContext(ctx, s.q(`UPDATE `+s.t.runs+` SET status = ?, ended_at = ? WHERE id = ? AND status IN (?, ?)`),
		string(StatusSucceeded), s.o.Now().UnixMicro(), r.ID, string(StatusCancelled), string(StatusFailed)); err != nil {
		return false, fmt.Errorf("runs: finishing run %s: %w", r.ID, err)
	}
	s.notify()
	return true, nil
}
