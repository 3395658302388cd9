package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/jackc/pgx/v5/stdlib"
	msqlite "modernc.org/sqlite" // registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

// Options configures Open. The zero value (or nil) gives the defaults.
type Options struct {
	// Schema is the PostgreSQL schema that holds the tables; it is
	// created when missing and put first on the search path of every
	// connection. Empty means the connection's own search path (usually
	// "public"). SQLite and MySQL ignore it: on MySQL the database of the
	// DSN holds the tables.
	Schema string
	// TablePrefix starts the name of every table (and index) the package
	// creates and queries, on every engine: with "wp_contentgen_", the
	// posts are in wp_contentgen_posts. Stores of different prefixes in
	// one database are independent. It may hold ASCII letters, digits and
	// "_", at most 32 of them. Empty means the tables' own names; a
	// database keeps the prefix it was created with.
	TablePrefix string
	// MaxConns caps the open connections to PostgreSQL and MySQL, and the
	// reading connections of a SQLite file (SQLite writes on one
	// connection).
	// 0 means 8.
	MaxConns int
	// BusyTimeout is how long SQLite waits for a lock held by another
	// connection or process before it fails. 0 means 10 seconds.
	BusyTimeout time.Duration
	// Now is the clock of the times the stores assign (history CreatedAt);
	// nil means time.Now.
	Now func() time.Time
	// Logger receives the migrations applied; nil discards them.
	Logger *slog.Logger
}

// withDefaults returns a copy of o with the zero fields set.
func (o *Options) withDefaults() (Options, error) {
	var c Options
	if o != nil {
		c = *o
	}
	if c.MaxConns < 0 {
		return c, errors.New("sqlstore: Options.MaxConns must not be negative")
	}
	if c.MaxConns == 0 {
		c.MaxConns = 8
	}
	if c.BusyTimeout < 0 {
		return c, errors.New("sqlstore: Options.BusyTimeout must not be negative")
	}
	if c.BusyTimeout == 0 {
		c.BusyTimeout = 10 * time.Second
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if err := validPrefix(c.TablePrefix); err != nil {
		return c, err
	}
	if strings.ContainsRune(c.Schema, 0) {
		return c, errors.New("sqlstore: Options.Schema must not contain NUL")
	}
	return c, nil
}

// DB is an open database holding every store of contentgen. It is safe
// for concurrent use; its stores share its connections and its
// transactions (see InTx).
type DB struct {
	d dialect
	// w runs writes and transactions; r runs reads outside transactions.
	// They are the same pool except for SQLite files, which write on one
	// connection and read on several.
	w, r *sql.DB
	// scope names the place of the tables (the PostgreSQL schema, the
	// SQLite file, the MySQL database, and the prefix) in lock keys.
	scope string
	// prefix is Options.TablePrefix.
	prefix string
	// t names the tables, with the prefix.
	t   tables
	now func() time.Time
	log *slog.Logger
	// sleep pauses before another run of an aborted transaction (see
	// retry); tests replace it.
	sleep func(ctx context.Context, d time.Duration) error

	closeOnce sync.Once
	closeErr  error
}

// Open opens the database dsn names, applies the migrations it lacks and
// returns it. The engine follows from dsn:
//
//   - "postgres://..." or "postgresql://...": PostgreSQL, through pgx;
//     the DSN is pgx's (libpq URL or key=value settings are accepted
//     after the scheme).
//   - "mysql://DSN", or a DSN whose address is "tcp(...)" or "unix(...)"
//     such as "root@tcp(127.0.0.1:3306)/wordpress": MySQL 8 or MariaDB
//     10.6 and later, through github.com/go-sql-driver/mysql; DSN is that
//     driver's ("user:password@tcp(host:port)/dbname?param=value"). Open
//     sets utf8mb4, a strict sql_mode (unless the DSN sets one) and
//     client-side interpolation of arguments.
//   - ":memory:": a private SQLite database in memory, gone at Close.
//   - "file:PATH?query" or a plain PATH: a SQLite file, created when
//     missing. Query parameters of a "file:" DSN are passed to the
//     driver (modernc.org/sqlite) after the ones Open sets.
//
// opts may be nil. The context bounds the connection and the migrations.
func Open(ctx context.Context, dsn string, opts *Options) (*DB, error) {
	return open(ctx, dsn, opts, len(migrations))
}

// open opens dsn and migrates its schema up to version upTo.
func open(ctx context.Context, dsn string, opts *Options, upTo int) (*DB, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if dsn == "" {
		return nil, errors.New("sqlstore: empty DSN")
	}
	db := &DB{now: o.Now, log: o.Logger, prefix: o.TablePrefix, t: newTables(o.TablePrefix), sleep: sleepCtx}
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		err = db.openPostgres(dsn, o)
	case isMySQLDSN(dsn):
		err = db.openMySQL(ctx, dsn, o)
	default:
		err = db.openSQLite(ctx, dsn, o)
	}
	if err != nil {
		return nil, err
	}
	if db.prefix != "" {
		db.scope += "\x00" + db.prefix
	}
	if err := db.migrate(ctx, upTo); err != nil {
		_ = db.Close()
		return nil, err
	}
	return db, nil
}

func (db *DB) openPostgres(dsn string, o Options) error {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return fmt.Errorf("sqlstore: parsing the PostgreSQL DSN: %w", err)
	}
	db.scope = "postgres"
	if o.Schema != "" {
		cfg.RuntimeParams["search_path"] = pgx.Identifier{o.Schema}.Sanitize()
		db.scope = "postgres:" + o.Schema
	}
	p := stdlib.OpenDB(*cfg)
	p.SetMaxOpenConns(o.MaxConns)
	p.SetMaxIdleConns(o.MaxConns)
	p.SetConnMaxIdleTime(5 * time.Minute)
	db.d = postgresDialect{schema: o.Schema}
	db.w, db.r = p, p
	return nil
}

func (db *DB) openSQLite(ctx context.Context, dsn string, o Options) error {
	path, query, memory := splitSQLiteDSN(dsn)
	if path == "" && !memory {
		return fmt.Errorf("sqlstore: DSN %q names no SQLite file", dsn)
	}
	db.d = sqliteDialect{stmts: &stmtCache{}, path: path}
	db.scope = "sqlite:" + path
	params := url.Values{}
	params.Set("_txlock", "immediate")
	params.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", o.BusyTimeout.Milliseconds()))
	params.Add("_pragma", "foreign_keys(1)")
	if memory {
		// One connection holds the database: it is read and written there.
		p, err := sql.Open("sqlite", "file::memory:?"+params.Encode()+query)
		if err != nil {
			return fmt.Errorf("sqlstore: opening SQLite: %w", err)
		}
		oneConn(p)
		db.w, db.r = p, p
		return nil
	}
	params.Add("_pragma", "synchronous(NORMAL)")
	w, err := sql.Open("sqlite", "file:"+path+"?"+params.Encode()+query)
	if err != nil {
		return fmt.Errorf("sqlstore: opening SQLite: %w", err)
	}
	oneConn(w)
	// A DSN that sets its own journal mode keeps it: its parameters come
	// after Open's, as the doc of Open says.
	if !strings.Contains(query, "journal_mode") {
		if err := db.walMode(ctx, w, o.BusyTimeout); err != nil {
			_ = w.Close()
			return err
		}
	}
	r, err := sql.Open("sqlite", "file:"+path+"?"+params.Encode()+query)
	if err != nil {
		_ = w.Close()
		return fmt.Errorf("sqlstore: opening SQLite: %w", err)
	}
	r.SetMaxOpenConns(o.MaxConns)
	r.SetMaxIdleConns(o.MaxConns)
	db.w, db.r = w, r
	return nil
}

// walMode puts the SQLite file of w in WAL mode, which the file keeps
// for every later connection. Switching needs the file's exclusive lock,
// and SQLite answers SQLITE_BUSY at once, without waiting the busy
// timeout, when waiting could deadlock: as when several processes or
// DBs open a new file together and each asks to switch. So a busy
// answer is retried, with short growing pauses, for up to the busy
// timeout.
func (db *DB) walMode(ctx context.Context, w *sql.DB, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	pause := time.Millisecond
	for {
		var mode string
		err := w.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
		if err == nil || isSQLiteCorrupt(err) {
			// A damaged file is refused by checkFile, with the
			// message that says what to do.
			return nil
		}
		if !isSQLiteBusy(err) || time.Now().After(deadline) {
			return fail(ctx, "setting WAL mode", err)
		}
		if err := db.sleep(ctx, pause); err != nil {
			return err
		}
		pause = min(2*pause, 50*time.Millisecond)
	}
}

// oneConn makes p keep exactly one connection, open for its lifetime.
func oneConn(p *sql.DB) {
	p.SetMaxOpenConns(1)
	p.SetMaxIdleConns(1)
	p.SetConnMaxLifetime(0)
	p.SetConnMaxIdleTime(0)
}

// splitSQLiteDSN returns the file path of a SQLite DSN, its extra query
// parameters (with a leading "&", or empty) and whether it names a
// database in memory.
func splitSQLiteDSN(dsn string) (path, query string, memory bool) {
	if dsn == ":memory:" {
		return "", "", true
	}
	rest, isURI := strings.CutPrefix(dsn, "file:")
	if !isURI {
		return dsn, "", false
	}
	path, q, _ := strings.Cut(rest, "?")
	if q != "" {
		query = "&" + q
	}
	if path == ":memory:" || strings.Contains(q, "mode=memory") {
		return "", query, true
	}
	return path, query, false
}

// ErrCorrupt is wrapped by the error of Open for a SQLite file that is
// damaged: one that is not a database, or whose pages fail SQLite's
// quick check. Such a file would answer some queries and fail others
// (or answer them wrongly), so Open refuses it; the message names the
// file and what to do.
var ErrCorrupt = errors.New("sqlstore: the SQLite file is damaged")

// maxCorruptionNotes bounds the problems of PRAGMA quick_check that
// ErrCorrupt's message quotes.
const maxCorruptionNotes = 3

// checkFile runs PRAGMA quick_check on the SQLite file on w, which reads
// every page of the file once and checks its structure (not the
// agreement of indexes with their tables, which integrity_check adds at
// several times the cost), and returns ErrCorrupt when it fails.
func (d sqliteDialect) checkFile(ctx context.Context, w *sql.DB) error {
	path := d.path
	var notes []string
	err := queryEach(ctx, w, "PRAGMA quick_check("+strconv.Itoa(maxCorruptionNotes)+")", nil, func(rows *sql.Rows) error {
		var s string
		if err := rows.Scan(&s); err != nil {
			return err
		}
		if s == "ok" {
			return nil
		}
		for line := range strings.Lines(s) {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "***") {
				notes = append(notes, line)
			}
		}
		return nil
	})
	if err != nil {
		if ctx.Err() != nil || !isSQLiteCorrupt(err) {
			return fail(ctx, "checking "+path, err)
		}
		notes = append(notes, err.Error())
	}
	if len(notes) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s fails SQLite's quick check (%s); restore it from a backup, "+
		"or delete it and its -wal and -shm files to start afresh", ErrCorrupt, path, strings.Join(notes, "; "))
}

// Engine returns the name of the engine: "sqlite", "postgres" or
// "mysql" (MySQL or MariaDB).
func (db *DB) Engine() string { return db.d.name() }

// Close closes the database. Stores of the DB fail afterwards; Close may
// be called more than once.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		err := db.d.tearDown(db)
		err = errors.Join(err, db.w.Close())
		if db.r != db.w {
			err = errors.Join(err, db.r.Close())
		}
		if err != nil {
			db.closeErr = fmt.Errorf("sqlstore: closing: %w", err)
		}
	})
	return db.closeErr
}

// querier is what *sql.DB and *sql.Tx have in common. Queries go through
// queryEach and queryRow, which read every row before they return.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// fail turns an error of the driver into the error a store returns: the
// context's error when ctx is done (the driver's own is then only a
// consequence), else err wrapped with what was being done.
func fail(ctx context.Context, what string, err error) error {
	if err == nil {
		return nil
	}
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("sqlstore: %s: %w", what, cerr)
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("sqlstore: %s: %w", what, err)
	}
	if isBadText(err) {
		return fmt.Errorf("sqlstore: %s: %w", what, &contentgen.Error{Code: contentgen.CodeInvalidParameter, Err: err,
			Message: "a text holds a character the database cannot store (such as NUL)"})
	}
	return fmt.Errorf("sqlstore: %s: %w", what, markFull(err))
}

// isBadText reports whether err is PostgreSQL's refusal of a text it
// cannot store: character_not_in_repertoire (22021, a NUL in text) or
// untranslatable_character (22P05, a \u0000 in jsonb).
func isBadText(err error) bool {
	c := pgCode(err)
	return c == "22021" || c == "22P05"
}

// isFull reports whether err says that the storage is full: SQLITE_FULL
// (the disk, or max_page_count), PostgreSQL's disk_full (53100), MySQL's
// ER_RECORD_FILE_FULL (1114) and ER_DISK_FULL (1021), or ENOSPC from a
// file write.
func isFull(err error) bool {
	var se *msqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		return true
	}
	if pgCode(err) == "53100" {
		return true
	}
	if c := mysqlCode(err); c == 1114 || c == 1021 {
		return true
	}
	return errors.Is(err, syscall.ENOSPC)
}

// markFull wraps err with contentgen.ErrHostFull when it says that the
// storage is full (see isFull), so that callers tell it apart without
// knowing the engine.
func markFull(err error) error {
	if err == nil || errors.Is(err, contentgen.ErrHostFull) || !isFull(err) {
		return err
	}
	return fmt.Errorf("%w: %w", contentgen.ErrHostFull, err)
}
