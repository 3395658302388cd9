// Package runs generates content of any size as a durable run: a count
// with no upper limit, split into batches of the per-request size, each
// batch a job of River (github.com/riverqueue/river) in the database of
// contentgen/sqlstore.
//
// # Why a package of its own
//
// DESIGN.md hangs small services off the Generator, but a run needs the
// transaction of a SQL database: a batch's content, its history entries,
// the record of the batch and the completion of its job commit in one
// transaction, so that a process killed at any moment leaves every batch
// wholly done and counted, or not done at all. package contentgen knows no
// database (contentgen/sqlstore imports it, not the other way), so the
// service that joins a Generator, a *sqlstore.DB and River lives here,
// beside the backends, and contentgen itself keeps no dependency on River.
//
// # How a run goes
//
// Service.Submit records the run (kind, total, the request of the matching
// generate call, batch size) and inserts one River job per batch, in one
// transaction. A worker (a Service with Options.Workers, in any process on
// the same database) takes a batch job and, in one transaction of the
// database: skips the batch when it is already recorded or the run is no
// longer active, generates the batch's items through the Generator (whose
// host and history are the DB's, so they join the transaction), records
// the batch (run, number, worker, items: the primary key keeps a batch
// from counting twice), adds its items to the run's done count, and
// completes the job with river.JobCompleteTx. The last batch sets the run
// succeeded. A failing batch counts an error and is retried by River; an
// invalid request (a post type that does not exist) fails the run at
// once, as does a batch that fails every attempt.
//
// A job whose process died is rescued by River after Options.RescueAfter
// and run again; as its first run committed nothing, the run resumes where
// it stopped. Cancel stops a run within one batch: batches that start
// after it do nothing, the one being written finishes and stays counted,
// and everything made stays in the history, to be deleted as any other
// generated content. Resume queues the batches a cancelled or failed run
// has not done.
//
// # Engines
//
// SQLite uses River's riversqlite driver on the DB's one writing
// connection (WritePool), so River's tables live in the same file, and
// ":memory:" works too. PostgreSQL uses River's riverdatabasesql driver on
// the DB's pgx pool: sqlstore's transactions are database/sql
// transactions, and river.JobCompleteTx needs the transaction of its
// driver, a *sql.Tx here (riverpgxv5 would need a pgx.Tx, which
// database/sql cannot hand out). That driver polls for jobs
// (Options.PollInterval) instead of listening. River's tables take the
// PostgreSQL schema of sqlstore.Options.Schema through the search path;
// they do not take sqlstore's TablePrefix, the run tables of this package
// do. MySQL has no River driver: New refuses it.
//
// Runs of posts, terms and users are supported; comments, whose count is
// per post, are not yet.
package runs
