// Package sqlstore keeps the state of contentgen in one SQL database:
// SQLite, embedded and with no server to install, or PostgreSQL or
// MySQL/MariaDB, which several processes can share. One code path serves
// every engine; a small unexported dialect holds what differs between
// them (placeholders, list parameters, identity columns, bulk inserts,
// upserts, row and advisory locks, error codes, and what to do on
// opening, closing and beginning a transaction).
//
// # Opening
//
// Open takes a DSN and picks the engine from it:
//
//	sqlstore.Open(ctx, "contentgen.db", nil)                // a SQLite file, created when missing
//	sqlstore.Open(ctx, "file:data/cg.db?_pragma=cache_size(-20000)", nil)
//	sqlstore.Open(ctx, ":memory:", nil)                     // SQLite in memory, gone at Close
//	sqlstore.Open(ctx, "postgres://user@host:5432/db", &sqlstore.Options{Schema: "contentgen"})
//	sqlstore.Open(ctx, "wp@tcp(127.0.0.1:3306)/wordpress", &sqlstore.Options{TablePrefix: "wp_contentgen_"})
//
// SQLite runs through the pure-Go driver modernc.org/sqlite (no cgo), in
// WAL mode with a busy timeout (Options.BusyTimeout), foreign keys on and
// synchronous=NORMAL. Writes and transactions go through one connection
// and begin IMMEDIATE, taking the write lock at once, so writers queue
// instead of failing with SQLITE_BUSY halfway; reads run on a pool of
// other connections and see the last commit. Several processes may open
// the same file. A ":memory:" database lives on its one connection, which
// serves reads too. The bulk INSERTs of the stores run prepared on the
// writing connection.
//
// Open runs PRAGMA quick_check on a SQLite file before anything else and
// refuses a damaged one with an error wrapping ErrCorrupt that names the
// file and what to do (restore a backup, or delete it to start afresh):
// such a file would serve some requests and fail others. The check reads
// every page once, about 50 ms for a 45 MB file.
//
// PostgreSQL runs through pgx (github.com/jackc/pgx/v5) behind
// database/sql, which prepares and caches every statement per connection;
// bulk writes of 64 rows or more use COPY, on the connection of their
// transaction. Options.Schema puts the tables in a schema of their own (created when
// missing), so that several installations, or test runs, can share a
// database.
//
// MySQL 8 and MariaDB 10.6 or later run through go-sql-driver/mysql, on
// InnoDB, with utf8mb4, a strict sql_mode and arguments interpolated by
// the client. Text columns have a binary NO PAD collation, so that text
// compares, sorts and is unique by its bytes as on the other engines.
// Text that is indexed has a length, in characters (WordPress's own are
// shorter): 255 for logins, e-mail addresses, post types and statuses,
// taxonomies, roles, meta keys and registered names, 500 for term slugs,
// 700 for state keys; a longer value fails its write. Other text is
// LONGTEXT.
// Transactions that write run at READ COMMITTED, as on PostgreSQL; ids
// taken up front come from a row per table in id_blocks, locked until the
// transaction ends; the templates lock is a row of unit_locks, likewise.
//
// Options.TablePrefix starts the name of every table and index, on every
// engine, so that stores of several prefixes, and the tables of another
// application such as a WordPress site, share one database.
//
// # Migrations
//
// The schema is built by migrations embedded in the binary
// (migrations/NNNN_what.sql, and the same versions written for MySQL in
// migrations/mysql), applied by Open in one transaction and recorded in
// the table schema_version, one row per version. They only go
// forward: a released migration never changes, and Open refuses a
// database whose version is newer than the build. On PostgreSQL an
// advisory lock makes concurrent Opens of one schema wait for each other,
// so a migration never runs twice; on SQLite the immediate transaction
// does the same. MySQL commits each DDL statement on its own: there the
// migrations run on one connection holding a named lock (GET_LOCK), and
// one interrupted halfway is not undone. SchemaVersion reports the
// version.
//
// # Stores
//
// One DB holds every store, each in its own tables:
//
//   - History, a history.Store: Add inserts a batch in one transaction, in
//     bulk (multi-row VALUES on SQLite and MySQL; on PostgreSQL COPY for
//     64 rows or more, else one INSERT from column arrays), and assigns
//     time-ordered UUIDs; List runs
//     a count and one page query on one snapshot, in the order of an index;
//     Stats is two grouped queries. Filter.MetaEquals is answered from a
//     column that indexes the meta values as history.MetaString formats
//     them, so it matches exactly what history.Filter.Matches does.
//
//   - Templates, a templates.Store: Atomic runs a transaction that also
//     holds the templates lock (an advisory lock on PostgreSQL, a row lock
//     on MySQL, the write lock on SQLite), so units never interleave, also
//     across processes.
//
//   - State, a contentgen.StateStore: Update reads the value under a row
//     lock (SELECT ... FOR UPDATE on PostgreSQL and MySQL, the immediate
//     transaction on SQLite) and creates a missing key with INSERT ... ON
//     CONFLICT DO NOTHING (a plain INSERT on MySQL), running fn again
//     when another process created it first; so concurrent updates of a
//     key are never lost.
//
//   - Host, a contentgen.Host: the content platform itself. Post types,
//     taxonomies and roles are registered configuration (RegisterPostType,
//     RegisterTaxonomy, RegisterRole), kept in the database; posts, terms
//     with their hierarchy, term links, users with roles, comments, media
//     records and the meta of each are tables. Every write is one
//     transaction that checks the objects it refers to under a lock (so a
//     concurrent delete cannot slip in), takes its ids up front and
//     inserts each table in bulk; unique slugs, logins and e-mail
//     addresses are constraints, reported as contentgen.ErrHostConflict.
//     Writes lock the rows they delete, and those they refer to, in one
//     order (users, terms, media, posts, comments; by id within a table),
//     and Exist in a transaction keeps the rows it finds, so that a
//     reference deleted meanwhile is found gone before the write, not
//     reported by it. A write of its own transaction (History.Add too)
//     that the engine still aborts as a deadlock, serialisation failure
//     or lock wait timeout is run again after a random pause of 10 to
//     200 ms, up to five runs.
//     Queries read a page and then the terms, roles and meta of the whole
//     page in one query each. Host implements Trasher, Transactor, Exister,
//     PostDeleter, Lister and MediaStorer. Lister (host_list.go) answers
//     the pages of Generator.Content: a listing of posts without a search
//     sums the table post_counts (posts per block of 1024 ids, type,
//     status and generated marker) for its exact total, finds there the
//     block where its page begins, and reads ids from that block on by
//     the primary key, so page 1 and page 2,000 cost about the same on a
//     site of a thousand posts and of fifty thousand; every write that
//     adds, removes, trashes or marks posts updates post_counts in its
//     transaction (countPosts). Other listings count and read with LIMIT
//     and OFFSET by id. with HostOptions.MediaDir a media file exists
//     exactly while its record does, placed once its insert commits and
//     removed once its delete commits. It implements contentgen.Describer
//     too: its Capabilities name the DB's History, Templates and State,
//     SQLBatchSize, and, without a MediaDir, that it keeps media records
//     only; so contentgen.New(host, nil, cfg) builds a Generator that
//     keeps everything in the database, as for any other host.
//
// Each passes its conformance suite (historytest, templatetest,
// hosttest.RunStateStore, hosttest.Run) on every engine.
//
// # Transactions
//
// InTx (and Host.InTx, which is the same transaction) runs a function in
// one transaction and hands it a context that carries it. Every store of
// the same DB called with that context runs in the transaction, so that a
// batch of content and its history entries are committed or undone
// together; nested InTx calls become savepoints (whose release is sent
// with the next savepoint, or left to the commit). A context from another
// DB, or from a transaction that has ended, is ignored. Inside a
// transaction, make every call with the context it hands out: on SQLite a
// write made with another context waits for the one writing connection,
// which the transaction holds, and so never returns (on ":memory:" a read
// does too). Statements of goroutines that share a transaction are run one
// at a time.
//
// Another package joins these transactions through InTxWith, which hands
// its function the Querier of the transaction (Querier(ctx) returns the
// same for a context that carries one), and AfterTx, which runs its
// file changes once the transaction commits or rolls back; registered in
// a savepoint that rolls back, they are undone then. A library with its
// own database/sql code joins them through WithSQLTx, which hands it the
// *sql.Tx itself, and WritePool and ReadPool, the pools db writes and
// reads on: contentgen/runs completes the River job of a batch in the
// transaction of the batch's content this way.
//
// InTxLocked is InTx holding a named lock of the database for the whole
// transaction (an advisory lock on PostgreSQL, a row lock on MySQL, the
// write lock on SQLite): work such as filling a new database with its
// first content, which processes started together must do once, checks
// and does it under the lock, and the processes after the first find it
// done.
//
// # Where a change goes
//
//   - A store's behaviour: its file (history.go, templates.go, state.go,
//     host*.go). Statements are written once, with "?" placeholders (see
//     DB.stmt), and take their table names from db.t, the tables struct
//     of tables.go, which Open builds once from Options.TablePrefix; no
//     statement is rewritten to find its tables.
//   - A write that adds or removes posts, or changes their type, status
//     or generated marker: countPosts before and after it, in its
//     transaction, or the totals of listings go wrong (TestListPostsAcrossBlocks
//     and the Lister checks of hosttest catch it).
//   - A new table, column or index: a new migration, in
//     migrations/NNNN_what.sql and migrations/mysql/NNNN_what.sql, that
//     names its tables by tokens (${posts}, and ${posts}_author for an
//     index of it); a new table also gets its field in tables.
//   - A bulk insert: a rowSet (rows.go) declares each column with its
//     type and the function giving its value in row i, so that a column
//     cannot be paired with another's value; dialect.insertRows writes
//     it (multi-row INSERTs on SQLite and MySQL, one INSERT from column
//     arrays or COPY on PostgreSQL).
//   - Anything that differs between the engines: a method of the dialect
//     interface (dialect.go), implemented by sqliteDialect and
//     postgresDialect (dialect.go) and mysqlDialect (dialect_mysql.go).
//     Code outside the dialects never asks which engine it runs on:
//     migrations and what Open does around them (setUp), Close
//     (tearDown), transactions (beforeTx, writeTx, rawConn, execAll for
//     savepoints), locks, ids, upserts and the errors of conflicts and
//     retries are each a method.
//   - Another package's statements in the same transactions, as
//     contentgen/wphost runs its WordPress tables': InTxWith, Querier,
//     InTxOf and AfterTx (external.go).
//
// Errors of a done context match ctx.Err() with errors.Is; not-found
// results are the stores' own sentinels (history.ErrNotFound,
// templates.ErrNotFound), never sql.ErrNoRows.
package sqlstore
