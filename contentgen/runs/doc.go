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
// Service.Submit first checks the request as the generate call of its kind
// would (the Generator's CheckPosts, CheckTerms and CheckUsers, with the
// count of the first batch): a request that call would refuse (an unknown
// post type, taxonomy or role, an option out of range, a batch larger than
// the Generator's MaxCount) is refused with its *contentgen.Error and
// nothing is recorded. It then records the run (kind, total, the request
// of the matching generate call, batch size) and inserts one River job per
// batch, in one transaction. A worker (a Service with Options.Workers, in
// any process on the same database) takes a batch job and, in one
// transaction of the
// database: skips the batch when it is already recorded or the run is no
// longer active, generates the batch's items through the Generator (whose
// host and history are the DB's, so they join the transaction), records
// the batch (run, number, worker, items: the primary key keeps a batch
// from counting twice), adds its items to the run's done count, and
// completes the job with river.JobCompleteTx. The last batch sets the run
// succeeded. A failing batch counts an error and is retried by River; a
// request that stopped fitting the site after it was submitted (its
// template deleted) fails the run at once, as does a batch that fails
// every attempt (River discards it then), and the run's queued jobs are
// removed with that status change. A failure outside the batch's
// transaction, a panic included, is heard of through River's
// ErrorHandler and counts and fails the run alike.
//
// Workers in several processes share a run batch by batch: River hands
// each batch job to one worker at a time. A Service that stops (Stop)
// takes no more batches, and once the context of Stop is done cancels
// those it is writing: they roll back and go back to the queue, for any
// worker to make at their next attempt.
//
// A job whose process died is rescued by River once its batch's time
// passed (see below) and run again; as its first run committed nothing,
// the run resumes where it stopped. Cancel stops a run within one batch: in one transaction it
// sets the run cancelled and removes the River jobs of its batches that no
// worker has taken (JobDeleteManyTx), so nothing of it stays queued; the
// batch being written finishes and stays counted (a batch taken in the
// same instant finds the run cancelled and does nothing), and everything
// made stays in the history, to be deleted as any other generated
// content. Resume queues, in one transaction with the status change, one
// job for each batch a cancelled or failed run has not done; a run that
// has none left (its last batches, taken before the cancel, counted after
// it) is succeeded then.
//
// # How long a batch may take
//
// River cannot tell a batch whose process died from one that is slow: it
// takes a batch running longer than its time as lost (its rescuer looks
// every 30 seconds) and runs it again, and cancels a batch of a live
// process once past that time (River's job timeout), counting a failed
// attempt. The time is then a trade-off: short, a killed worker's batch
// is taken up soon; too short for what a batch does, every attempt of it
// is cancelled and the run fails after Options.MaxAttempts. Making a batch
// twice is never the price: a second run of it rolls back (see above).
//
// So each run gets a time when it is submitted, by what its batches do
// (Run.BatchTimeout, kept in its jobs' arguments, so that any process
// applies it): DefaultBatchTimeout, a minute, for batches made offline
// (500 posts of lorem or real text take well under a second, a few with
// images drawn locally), and SlowItemTime, two seconds, an item (at least
// a minute) for batches that fetch images from a provider (featured
// images, avatars) or text from an AI provider, each waiting on another
// service (500 posts with images: 16m40s). The Generator's CheckPosts,
// CheckTerms, CheckUsers and CheckComments say which. A smaller batch_size shortens the
// wait for a lost batch of slow items. Options.RescueAfter, when set, is
// the time of every batch the Service submits, works on and rescues,
// instead; River's default (a minute of job timeout, an hour before a
// rescue) fits neither a batch of a few seconds nor one of a quarter of
// an hour.
//
// # Seeds
//
// A run has a seed: its request's Seed, or one Submit draws at random and
// records with the run (Run.Seed). Batch i is made with a seed derived
// from the run's seed and i alone (SplitMix64), never from the
// Generator's Config.Seed and the number of requests its process made: a
// batch run again after a crash or a resume makes what its first run
// would have, the batches of one run differ, and two runs without a seed
// differ even from processes started anew with the same Config.Seed. A
// run with the seed of another, on a site in the same state, makes the
// same content.
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
// (Options.PollInterval) instead of listening.
//
// River's tables (river_job, river_queue, river_leader, river_client,
// river_migration and the like) take the PostgreSQL schema of
// sqlstore.Options.Schema, through the search path, but not sqlstore's
// TablePrefix, which the run tables of this package take: River has no
// table prefix, only a schema (river.Config.Schema). On SQLite that
// schema would be an attached database, another file, and a transaction
// over attached databases of a file in WAL mode is atomic for each file
// but not across them, so a batch's content and its job's completion
// could part in a crash: River's tables stay in the main database of the
// file. Sites told apart only by their TablePrefix, in one SQLite file or
// one PostgreSQL schema, therefore share River's tables; each prefix's
// batches go to a River queue of their own (contentgen_runs_ and a hash
// of the prefix; contentgen_runs without one), so that the workers of one
// site never take another's, and River's upkeep (rescuing the batches of
// dead processes, deleting finished jobs) is shared. A site that wants
// River's tables to itself takes a schema or a file of its own. MySQL has
// no River driver: New refuses it as the run's database;
// a WordPress site's MySQL holds the content of runs through
// Options.Ledger (see below).
//
// # Content in another database: a WordPress site
//
// A WordPress site written through its database (contentgen/wphost)
// keeps its content, and the history of a Generator over it, in MySQL or
// MariaDB, which River cannot hold; the run's jobs and tables stay in a
// SQLite or PostgreSQL database of sqlstore. Options.Ledger names the
// site's database (a *wphost.Site is a Ledger), and a batch then commits
// twice. First, in one transaction of the site's database: its content,
// its history entries and a row of the site's table
// prefix+"contentgen_run_batches" ((run, batch) primary key: the batch,
// its worker, its items and warnings), which wphost.Open creates beside
// contentgen's other tables. Second, in one transaction of the run's
// database: the batch's record in the run's tables, its count, and the
// completion of its job. A worker takes a batch by first reading the
// site's record of it: when there is one (the process that made it died
// between the two commits, and River ran the job again), the batch is
// only counted and completed, whatever the run's status, since its
// content exists; a batch is never made twice, as the site's primary key
// undoes a second one. The count stays exactly once: the run's own
// record of its batches is keyed likewise, and counting a batch the run
// has counted changes nothing. Cancel and Resume reconcile the run with
// the site's records, counting the batches the site holds and the run
// has not (such as one whose job was given up after its content
// committed), so that a resumed run queues only what the site lacks, and
// one whose batches the site holds all is succeeded. Between a crash and
// the rescue of its batch, the run's done count may lag the site by that
// batch; it never runs ahead of it nor counts a batch twice. The site's
// records stay after the run (one small row a batch); wphost.Uninstall
// drops them with contentgen's other tables.
//
// The batches of runs into a Ledger go to a River queue of their own,
// named from Ledger.LedgerID, and a run remembers its queue: one database
// of jobs may serve its own site and WordPress sites at once, and each
// site's workers take only the batches of its runs, whichever Service
// submitted or resumed them. Get and List report the runs of every site
// the database serves.
//
// A site reached through its REST API (contentgen/wphost/wprest) has no
// transaction that could hold a batch with its record: a batch killed
// halfway would leave part of its posts, and one run again would make
// them twice. Runs are not offered there: the example server answers
// POST /runs with 503 not_configured saying why, and the command line
// refuses with a usage error giving the same reason.
//
// # Runs of comments
//
// The generate call of comments has no count: it gives each target post
// (the posts of PostIDs, or the published posts of PostType)
// CommentsPerPostMin to CommentsPerPostMax comments. A run of comments
// has one, the comments in all, and its batches make that many in batches
// of BatchSize, through contentgen.CommentsRequest.Count: the posts take
// turns in the order of their ids, each getting CommentsPerPostMin to
// CommentsPerPostMax comments a turn (the last turn of a batch what is
// left), replies answering comments of the same turn. Batch i starts at
// the post the batches before it reach on average (FirstPost: i ×
// BatchSize comments at the mean of the two bounds a turn), modulo the
// number of posts, so the run walks the posts and goes round again when
// its count needs more: about Count divided by the posts on each. A batch
// reads only the posts its turns need (through the host's Lister), so a
// run over a million posts costs a batch no more than over a hundred; the
// published posts are those a batch finds, so posts published meanwhile
// join the walk. A run with nothing to comment on is refused at submit.
// A comment on a post deleted while its batch is written is left out, so
// a run ends when all its batches are done, whatever its done count.
package runs
