package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/stdlib"
	msqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// dialect holds what differs between the engines. The stores write their
// SQL once, with "?" placeholders, and ask the dialect for the rest; the
// DB asks it what to do when it opens, closes and begins a transaction.
// Nothing outside the dialects asks which engine it runs on.
type dialect interface {
	// name is "sqlite", "postgres" or "mysql", for DB.Engine and logs.
	name() string
	// migrations are the engine's versions of the schema, in order.
	migrations() []migration
	// setUp readies a database Open has just connected to: it runs
	// apply, which applies the migrations the database lacks, holding a
	// lock that keeps concurrent Opens of the database from applying one
	// twice, and does what else the engine needs before and after.
	setUp(ctx context.Context, db *DB, apply func(ctx context.Context, q querier) error) error
	// tearDown runs once, when Close begins, before the pools close.
	tearDown(db *DB) error
	// beforeTx runs before InTx begins a transaction of its own, on w,
	// the writing pool.
	beforeTx(ctx context.Context, w *sql.DB)
	// execAll runs stmts, statements without arguments, one after the
	// other, stopping at the first that fails.
	execAll(ctx context.Context, q querier, stmts []string) error
	// rebind rewrites the "?" placeholders of q for the engine.
	rebind(q string) string
	// ddl replaces the type tokens of a migration: ${id} (an identity
	// primary key), ${bytes}.
	ddl(q string) string
	// inList returns a condition keeping rows whose column col is one of
	// the values of list (a non-empty []int64 or []string), with its
	// arguments.
	inList(col string, list any) (string, []any)
	// byKey returns a reference to col that the planner does not answer
	// from an index of col, for a query bounded by a short range of the
	// primary key, which is cheaper to read by that key: SQLite, which
	// has no statistics, would otherwise read every row of a post type
	// from an index of types and sort them.
	byKey(col string) string
	// insertRows inserts the rows of r into its table, in order.
	insertRows(ctx context.Context, q querier, r *rowSet) error
	// contains returns a condition true when the text column col contains
	// the argument.
	contains(col string) string
	// forUpdate is the suffix of a SELECT that locks the rows it reads
	// until the transaction ends.
	forUpdate() string
	// lockUnit makes the transaction of q wait for, then hold until it
	// ends, the lock named by key: units of work holding it never run at
	// once, across processes.
	lockUnit(ctx context.Context, q querier, key int64) error
	// reserveIDs takes n new ids of the identity column "id" of table,
	// ascending, never handed out before; the caller inserts rows with
	// them in the same transaction.
	reserveIDs(ctx context.Context, q querier, table string, n int) ([]int64, error)
	// forShare is the suffix of a SELECT that keeps the rows it reads from
	// being deleted or changed until the transaction ends.
	forShare() string
	// readOnly returns the options of a read-only transaction that sees
	// one snapshot of the database.
	readOnly() *sql.TxOptions
	// isConflict reports whether err is a unique constraint violation.
	isConflict(err error) bool
	// writeTx returns the options of the transactions of InTx.
	writeTx() *sql.TxOptions
	// upsert is the suffix of an INSERT that, when a row with the same
	// values of the unique columns conflict exists, sets its columns set
	// to the values of the insert instead. With set empty it leaves the
	// row as it is and inserts nothing, or, on MySQL, fails the statement
	// with a conflict (see isConflict) that leaves the transaction going.
	upsert(conflict, set []string) string
	// upsertAdd is the suffix of an INSERT into table that, when a row
	// with the same values of the unique columns conflict exists, adds
	// the inserted value of col to its own instead.
	upsertAdd(table string, conflict []string, col string) string
	// insertID runs stmt, an INSERT of one row into a table with an
	// identity column "id", and returns the id of the row.
	insertID(ctx context.Context, q querier, stmt string, args []any) (int64, error)
	// rawConn reports whether InTx begins its transactions on a
	// connection of their own, whose driver connection insertRows uses.
	rawConn() bool
	// isRetryable reports whether the transaction that failed with err
	// can be run again as it is (a serialisation failure or deadlock).
	isRetryable(err error) bool
}

// lockKey returns the advisory lock key of name within scope.
func lockKey(scope, name string) int64 {
	h := fnv.New64a()
	h.Write([]byte("contentgen/sqlstore\x00" + scope + "\x00" + name))
	return int64(h.Sum64())
}

type sqliteDialect struct {
	// stmts keeps the statements of insertRows prepared on the writing
	// connection; nil runs them unprepared.
	stmts *stmtCache
	// path is the database's file; empty for one in memory.
	path string
}

func (sqliteDialect) name() string              { return "sqlite" }
func (sqliteDialect) rebind(q string) string    { return q }
func (sqliteDialect) migrations() []migration   { return migrations }
func (postgresDialect) migrations() []migration { return migrations }

// setUp refuses a damaged file (see checkFile), applies the migrations in
// an immediate transaction, which holds the database's write lock, then
// gathers the planner's statistics of tables that lack them, as SQLite
// recommends for connections that live long.
func (d sqliteDialect) setUp(ctx context.Context, db *DB, apply func(ctx context.Context, q querier) error) error {
	if d.path != "" {
		if err := d.checkFile(ctx, db.w); err != nil {
			return err
		}
	}
	if err := db.inTx(ctx, apply); err != nil {
		return err
	}
	_, err := db.w.ExecContext(ctx, "PRAGMA optimize=0x10002")
	return fail(ctx, "optimizing", err)
}

// tearDown refreshes the planner's statistics where the data has changed
// enough, as SQLite recommends before closing (best effort), and closes
// the prepared statements.
func (d sqliteDialect) tearDown(db *DB) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	_, _ = db.w.ExecContext(ctx, "PRAGMA optimize")
	cancel()
	if d.stmts == nil {
		return nil
	}
	return d.stmts.Close()
}

// beforeTx prepares the statements insertRows asked for in earlier
// transactions, before the transaction takes the writing connection.
func (d sqliteDialect) beforeTx(ctx context.Context, w *sql.DB) {
	if d.stmts != nil && d.stmts.pending() {
		d.stmts.prepareWanted(ctx, w)
	}
}

func (sqliteDialect) execAll(ctx context.Context, q querier, stmts []string) error {
	return execEach(ctx, q, stmts)
}

// execEach is the execAll of SQLite and MySQL: a round trip per
// statement.
func execEach(ctx context.Context, q querier, stmts []string) error {
	for _, s := range stmts {
		if _, err := q.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	return nil
}

func (sqliteDialect) ddl(q string) string {
	return strings.NewReplacer(
		"${id}", "INTEGER PRIMARY KEY AUTOINCREMENT",
		"${bytes}", "BLOB",
	).Replace(q)
}

// maxInlineList is the longest list inList writes as placeholders; longer
// ones go as one JSON array, which costs more per row but has no limit.
const maxInlineList = 256

// listArgs returns the values of an inList list (a []int64 or []string)
// as statement arguments.
func listArgs(list any) []any {
	var args []any
	switch l := list.(type) {
	case []int64:
		args = make([]any, len(l))
		for i, v := range l {
			args[i] = v
		}
	case []string:
		args = make([]any, len(l))
		for i, v := range l {
			args[i] = v
		}
	default:
		panic(fmt.Sprintf("sqlstore: inList of %T", list))
	}
	return args
}

func (sqliteDialect) inList(col string, list any) (string, []any) {
	args := listArgs(list)
	if len(args) > maxInlineList {
		b, _ := json.Marshal(list) // []int64 and []string always encode
		return col + " IN (SELECT value FROM json_each(?))", []any{string(b)}
	}
	return col + " IN (?" + strings.Repeat(",?", len(args)-1) + ")", args
}

// sqliteMaxParams stays under SQLite's default limit of 32766 host
// parameters in one statement.
const sqliteMaxParams = 32000

// sqliteMaxRows is the most rows of one INSERT of insertRows on SQLite.
const sqliteMaxRows = 128

// insertRows writes multi-row INSERT statements of up to sqliteMaxRows
// rows, each a power of two of them, so that a few statements per table
// serve every n; in a transaction they run prepared (see stmtCache),
// which spares parsing them each time.
func (d sqliteDialect) insertRows(ctx context.Context, q querier, r *rowSet) error {
	chunk := sqliteMaxRows
	for chunk*len(r.cols) > sqliteMaxParams {
		chunk /= 2
	}
	tuple := "(?" + strings.Repeat(",?", len(r.cols)-1) + ")"
	head := "INSERT INTO " + r.table + " (" + strings.Join(r.names(), ", ") + ") VALUES "
	args := make([]any, 0, min(r.n, chunk)*len(r.cols))
	l, inTx := q.(lockedTx)
	for start := 0; start < r.n; {
		n := chunk
		for n > r.n-start {
			n /= 2
		}
		args = args[:0]
		for i := start; i < start+n; i++ {
			args = r.appendRow(args, i)
		}
		stmt := head + tuple + strings.Repeat(","+tuple, n-1)
		var err error
		if st := d.prepared(inTx, stmt); st != nil {
			err = l.execStmt(ctx, st, args)
		} else {
			_, err = q.ExecContext(ctx, stmt, args...)
		}
		if err != nil {
			return err
		}
		start += n
	}
	return nil
}

// reserveIDs continues the AUTOINCREMENT sequence of table, which the
// inserts that follow advance; the transaction holds the write lock, so
// no other writer takes the same ids.
func (sqliteDialect) reserveIDs(ctx context.Context, q querier, table string, n int) ([]int64, error) {
	var last int64
	err := queryRow(ctx, q, "SELECT seq FROM sqlite_sequence WHERE name = ?", []any{table}, &last)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = last + int64(i) + 1
	}
	return ids, nil
}

func (sqliteDialect) forShare() string { return "" }

func (sqliteDialect) contains(col string) string { return "instr(" + col + ", ?) > 0" }
func (sqliteDialect) forUpdate() string          { return "" }

// lockUnit does nothing: SQLite transactions begin immediate, holding the
// database's write lock, so they run one at a time already.
func (sqliteDialect) lockUnit(context.Context, querier, int64) error { return nil }

func (sqliteDialect) isConflict(err error) bool {
	var e *msqlite.Error
	return errors.As(err, &e) && (e.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || e.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)
}

func (sqliteDialect) isRetryable(error) bool { return false }
func (sqliteDialect) rawConn() bool          { return false }

// prepared returns the prepared statement of query when there is one and
// it runs in a transaction.
func (d sqliteDialect) prepared(inTx bool, query string) *sql.Stmt {
	if !inTx || d.stmts == nil {
		return nil
	}
	return d.stmts.get(query)
}

// readOnly: a deferred transaction reads one snapshot in WAL mode.
func (sqliteDialect) readOnly() *sql.TxOptions { return &sql.TxOptions{ReadOnly: true} }

func (sqliteDialect) writeTx() *sql.TxOptions              { return nil }
func (sqliteDialect) upsert(conflict, set []string) string { return onConflict(conflict, set) }
func (sqliteDialect) upsertAdd(table string, conflict []string, col string) string {
	return onConflictAdd(table, conflict, col)
}
func (sqliteDialect) insertID(ctx context.Context, q querier, stmt string, args []any) (int64, error) {
	return returningID(ctx, q, stmt, args)
}

// onConflictAdd is the upsertAdd of SQLite and PostgreSQL.
func onConflictAdd(table string, conflict []string, col string) string {
	return " ON CONFLICT (" + strings.Join(conflict, ", ") + ") DO UPDATE SET " + col + " = " + table + "." + col + " + excluded." + col
}

// onConflict is the upsert of SQLite and PostgreSQL.
func onConflict(conflict, set []string) string {
	s := " ON CONFLICT (" + strings.Join(conflict, ", ") + ") DO "
	if len(set) == 0 {
		return s + "NOTHING"
	}
	parts := make([]string, len(set))
	for i, c := range set {
		parts[i] = c + " = excluded." + c
	}
	return s + "UPDATE SET " + strings.Join(parts, ", ")
}

// returningID is the insertID of SQLite and PostgreSQL.
func returningID(ctx context.Context, q querier, stmt string, args []any) (int64, error) {
	var id int64
	err := queryRow(ctx, q, stmt+" RETURNING id", args, &id)
	return id, err
}

type postgresDialect struct{ schema string }

func (postgresDialect) name() string { return "postgres" }

// setUp applies the migrations in a transaction that holds an advisory
// lock, creating the schema of Options.Schema first when it is missing.
func (d postgresDialect) setUp(ctx context.Context, db *DB, apply func(ctx context.Context, q querier) error) error {
	return db.inTx(ctx, func(ctx context.Context, q querier) error {
		if err := d.lockUnit(ctx, q, lockKey(db.scope, "migrate")); err != nil {
			return fail(ctx, "locking the schema", err)
		}
		if d.schema != "" {
			if _, err := q.ExecContext(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{d.schema}.Sanitize()); err != nil {
				return fail(ctx, "creating the schema", err)
			}
		}
		return apply(ctx, q)
	})
}

func (postgresDialect) tearDown(*DB) error                { return nil }
func (postgresDialect) beforeTx(context.Context, *sql.DB) {}

// execAll sends the statements in one round trip: PostgreSQL runs the
// statements of one string without arguments one after the other.
func (postgresDialect) execAll(ctx context.Context, q querier, stmts []string) error {
	_, err := q.ExecContext(ctx, strings.Join(stmts, "; "))
	return err
}

func (postgresDialect) rebind(q string) string {
	n := strings.Count(q, "?")
	if n == 0 {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 3*n)
	i := 0
	for _, r := range q {
		if r == '?' {
			i++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(i))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (postgresDialect) ddl(q string) string {
	return strings.NewReplacer(
		"${id}", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
		"${bytes}", "BYTEA",
	).Replace(q)
}

// byKey is a unary plus, a no-op on any value, which SQLite does not
// answer from an index.
func (sqliteDialect) byKey(col string) string { return "+" + col }

// byKey is col: PostgreSQL's planner weighs the range of the key by its
// statistics.
func (postgresDialect) byKey(col string) string { return col }

func (postgresDialect) inList(col string, list any) (string, []any) {
	return col + " = ANY(?)", []any{list}
}

// copyMinRows is the fewest rows postgresDialect.insertRows sends with
// COPY, which takes a round trip more than one INSERT but sends and
// stores large batches faster.
const copyMinRows = 64

func (postgresDialect) rawConn() bool { return true }

// insertRows sends the rows with COPY when they are many and q is a
// transaction; else it sends each column as one array and inserts the
// rows of their unnest in one statement: one round trip and a statement
// that is prepared once.
func (postgresDialect) insertRows(ctx context.Context, q querier, r *rowSet) error {
	if l, ok := q.(lockedTx); ok && r.n >= copyMinRows {
		return copyRows(ctx, l, r)
	}
	casts := make([]string, len(r.cols))
	args := make([]any, len(r.cols))
	for c, col := range r.cols {
		casts[c] = "$" + strconv.Itoa(c+1) + "::" + r.pgType(c) + "[]"
		switch col.typ {
		case colBigint:
			a := make([]int64, r.n)
			for i := range a {
				a[i] = col.bigintOf(i)
			}
			args[c] = a
		case colText:
			a := make([]string, r.n)
			for i := range a {
				a[i] = col.textOf(i)
			}
			args[c] = a
		default:
			a := make([]pgtype.Text, r.n)
			for i := range a {
				a[i].String, a[i].Valid = col.nullTextOf(i)
			}
			args[c] = a
		}
	}
	_, err := q.ExecContext(ctx, "INSERT INTO "+r.table+" ("+strings.Join(r.names(), ", ")+") SELECT * FROM unnest("+strings.Join(casts, ", ")+")", args...)
	return err
}

// copyRows inserts the rows of r with COPY, on the connection of the
// transaction l.
func copyRows(ctx context.Context, l lockedTx, r *rowSet) error {
	src := &rowSource{r: r, i: -1, row: make([]any, len(r.cols))}
	// Table names are written unquoted, so PostgreSQL folds them to
	// lower case; COPY names the table quoted.
	ident := pgx.Identifier{strings.ToLower(r.table)}
	return l.raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("sqlstore: internal error: PostgreSQL connection of type %T", dc)
		}
		_, err := c.Conn().CopyFrom(ctx, ident, r.names(), src)
		return err
	})
}

// rowSource is a pgx.CopyFromSource over a rowSet.
type rowSource struct {
	r   *rowSet
	i   int
	row []any
}

func (s *rowSource) Next() bool {
	s.i++
	return s.i < s.r.n
}

func (s *rowSource) Values() ([]any, error) {
	s.row = s.r.appendRow(s.row[:0], s.i)
	return s.row, nil
}

func (s *rowSource) Err() error { return nil }

// reserveIDs draws n values from the identity sequence of table.
func (postgresDialect) reserveIDs(ctx context.Context, q querier, table string, n int) ([]int64, error) {
	ids := make([]int64, 0, n)
	err := queryEach(ctx, q, "SELECT nextval(pg_get_serial_sequence($1, 'id')) FROM generate_series(1, $2)", []any{table, n},
		func(rows *sql.Rows) error {
			var id int64
			err := rows.Scan(&id)
			ids = append(ids, id)
			return err
		})
	if err != nil {
		return nil, err
	}
	slices.Sort(ids)
	return ids, nil
}

func (postgresDialect) forShare() string { return " FOR SHARE" }

func (postgresDialect) contains(col string) string { return "strpos(" + col + ", ?) > 0" }
func (postgresDialect) forUpdate() string          { return " FOR UPDATE" }

func (postgresDialect) lockUnit(ctx context.Context, q querier, key int64) error {
	_, err := q.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", key)
	return err
}

func (postgresDialect) readOnly() *sql.TxOptions {
	return &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead}
}

func pgCode(err error) string {
	var e *pgconn.PgError
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func (postgresDialect) isConflict(err error) bool { return pgCode(err) == "23505" }

func (postgresDialect) isRetryable(err error) bool {
	c := pgCode(err)
	return c == "40001" || c == "40P01"
}

func (postgresDialect) writeTx() *sql.TxOptions              { return nil }
func (postgresDialect) upsert(conflict, set []string) string { return onConflict(conflict, set) }
func (postgresDialect) upsertAdd(table string, conflict []string, col string) string {
	return onConflictAdd(table, conflict, col)
}
func (postgresDialect) insertID(ctx context.Context, q querier, stmt string, args []any) (int64, error) {
	return returningID(ctx, q, stmt, args)
}

// isSQLiteCorrupt reports whether err is SQLite's report of a damaged
// database: SQLITE_CORRUPT or SQLITE_NOTADB, with any extended code.
// isSQLiteBusy reports whether err is SQLite's SQLITE_BUSY (any extended
// code).
func isSQLiteBusy(err error) bool {
	var e *msqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}

func isSQLiteCorrupt(err error) bool {
	var e *msqlite.Error
	if !errors.As(err, &e) {
		return false
	}
	c := e.Code() & 0xff
	return c == sqlite3.SQLITE_CORRUPT || c == sqlite3.SQLITE_NOTADB
}
