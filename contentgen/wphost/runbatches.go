package wphost

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/go-sql-driver/mysql"
)

// The batches of runs (package contentgen/runs) keep their jobs in
// another database than the site's (River has no MySQL driver), so the
// completion of a batch's job cannot commit with its content. Instead a
// batch records itself in the table prefix+"contentgen_run_batches" of
// the site's database, in the transaction of its content and history
// entries: a batch run again after a crash between that commit and the
// one of its job finds its record and is only counted, never made twice.
// *Site is the runs.Ledger of a site (InTx, RecordRunBatch, RunBatches,
// LedgerID).

// runBatchesDDL creates the table of the batches of runs: one row per
// batch done, keyed by run and batch number, with the worker that made
// it, the number of items and the warnings (a JSON array).
func runBatchesDDL(table string) string {
	return "CREATE TABLE IF NOT EXISTS " + table + ` (
	run_id VARCHAR(64) NOT NULL,
	batch BIGINT NOT NULL,
	worker VARCHAR(255) NOT NULL,
	items INT NOT NULL,
	warnings TEXT NOT NULL,
	finished_at BIGINT NOT NULL,
	PRIMARY KEY (run_id, batch)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`
}

// InTx runs fn in one transaction of the site's database, the transaction
// of Host.InTx and of Site.DB: the writes of the Host, of the history,
// templates and state of Site.DB, and RecordRunBatch, made with the
// context fn receives, commit together or not at all. Called with a
// context that carries such a transaction, fn runs in a savepoint of it.
func (s *Site) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	if fn == nil {
		return fmt.Errorf("%w: InTx with a nil function", ErrInvalid)
	}
	return s.db.InTx(ctx, fn)
}

// RecordRunBatch records, in the transaction ctx carries (see InTx), that
// batch of run was made by worker, with items items and the warnings. It
// reports false, recording nothing, when that batch is recorded already;
// a record that another transaction made and has not committed yet is
// waited for (it holds the row's lock). Outside a transaction of the site
// it fails: the record must commit with the batch's content.
func (s *Site) RecordRunBatch(ctx context.Context, run string, batch int64, worker string, items int, warnings []string) (bool, error) {
	if !s.db.InTxOf(ctx) {
		return false, fmt.Errorf("%w: RecordRunBatch outside a transaction of the site's database", ErrInvalid)
	}
	if run == "" || batch < 0 || items < 0 {
		return false, fmt.Errorf("%w: RecordRunBatch needs a run, a batch number and a count that are not negative", ErrInvalid)
	}
	if warnings == nil {
		warnings = []string{}
	}
	w, err := json.Marshal(warnings)
	if err != nil {
		return false, fmt.Errorf("wphost: recording batch %d of run %s: %w", batch, run, err)
	}
	_, err = s.db.Querier(ctx).ExecContext(ctx, "INSERT INTO "+s.t.runBatches+
		" (run_id, batch, worker, items, warnings, finished_at) VALUES (?, ?, ?, ?, ?, ?)",
		run, batch, worker, items, string(w), s.o.Now().UnixMicro())
	var me *mysql.MySQLError
	if errors.As(err, &me) && me.Number == 1062 {
		// Recorded already; MySQL undoes the statement, not the
		// transaction.
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("wphost: recording batch %d of run %s: %w", batch, run, err)
	}
	return true, nil
}

// RunBatches calls fn with each recorded batch of run numbered from from
// to to-1, in the order of their numbers, with what RecordRunBatch
// recorded; an error of fn stops the reading and is returned. In a
// transaction (see InTx) it reads in it.
func (s *Site) RunBatches(ctx context.Context, run string, from, to int64, fn func(batch int64, worker string, items int, warnings []string) error) error {
	if fn == nil {
		return fmt.Errorf("%w: RunBatches with a nil function", ErrInvalid)
	}
	var stop error
	err := s.db.Querier(ctx).QueryEach(ctx, "SELECT batch, worker, items, warnings FROM "+s.t.runBatches+
		" WHERE run_id = ? AND batch >= ? AND batch < ? ORDER BY batch", []any{run, from, to},
		func(r *sql.Rows) error {
			var b int64
			var worker, w string
			var items int
			if err := r.Scan(&b, &worker, &items, &w); err != nil {
				return err
			}
			var warnings []string
			if err := json.Unmarshal([]byte(w), &warnings); err != nil {
				return fmt.Errorf("the warnings of batch %d: %w", b, err)
			}
			if err := fn(b, worker, items, warnings); err != nil {
				stop = err
				return err
			}
			return nil
		})
	if err != nil {
		if stop != nil && errors.Is(err, stop) {
			return stop
		}
		return fmt.Errorf("wphost: reading the batches of run %s: %w", run, err)
	}
	return nil
}

// LedgerID names the site's tables as their server knows them: its host
// name and port, the database and the table prefix, however the DSN
// spells the address. Runs into the site keep their jobs in a queue of
// this name's own, so that the workers of another site sharing the
// database of the jobs never take them.
func (s *Site) LedgerID() string { return s.ledgerID }
