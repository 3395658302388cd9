package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/go-sql-driver/mysql"
)

// mysqlDialect is MySQL 8 and MariaDB 10.6 or later, on InnoDB.
type mysqlDialect struct {
	// collation is the collation of the text columns the migrations
	// create: a binary one that counts trailing spaces (NO PAD) where the
	// server has one, so that text compares and sorts by its bytes as on
	// the other engines.
	collation string
	// maxPacket is the server's max_allowed_packet: the largest statement
	// it accepts.
	maxPacket int
	// idBlocks and unitLocks are the names of the tables of reserveIDs
	// and lockUnit.
	idBlocks, unitLocks string
}

func (mysqlDialect) name() string            { return "mysql" }
func (mysqlDialect) rebind(q string) string  { return q }
func (mysqlDialect) migrations() []migration { return mysqlMigrations }

// setUp applies the migrations outside a transaction, as MySQL commits
// each DDL statement on its own, on one connection that holds a named
// lock (GET_LOCK) meanwhile.
func (mysqlDialect) setUp(ctx context.Context, db *DB, apply func(ctx context.Context, q querier) error) error {
	conn, err := db.w.Conn(ctx)
	if err != nil {
		return fail(ctx, "connecting", err)
	}
	defer conn.Close()
	name := fmt.Sprintf("contentgen_migrate_%016x", uint64(lockKey(db.scope, "migrate")))
	var got sql.NullInt64
	if err := queryRow(ctx, conn, "SELECT GET_LOCK(?, ?)", []any{name, 600}, &got); err != nil || got.Int64 != 1 {
		if err == nil {
			err = errors.New("timed out")
		}
		return fail(ctx, "locking the schema", err)
	}
	defer func() { _, _ = conn.ExecContext(context.WithoutCancel(ctx), "DO RELEASE_LOCK(?)", name) }()
	return apply(ctx, conn)
}

func (mysqlDialect) tearDown(*DB) error                { return nil }
func (mysqlDialect) beforeTx(context.Context, *sql.DB) {}
func (mysqlDialect) execAll(ctx context.Context, q querier, stmts []string) error {
	return execEach(ctx, q, stmts)
}

// ddl replaces the tokens of the MySQL migrations: ${id}, ${bytes} and
// ${table}, the options closing every CREATE TABLE.
func (d mysqlDialect) ddl(q string) string {
	return strings.NewReplacer(
		"${id}", "BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY",
		"${bytes}", "LONGBLOB",
		"${table}", "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE="+d.collation,
	).Replace(q)
}

// inList writes the list as placeholders, whatever its length: the
// driver interpolates the arguments into the statement (interpolateParams),
// so the server's limit on placeholders does not apply.
// byKey is col: MySQL's planner weighs the range of the key by its
// statistics.
func (mysqlDialect) byKey(col string) string { return col }

func (mysqlDialect) inList(col string, list any) (string, []any) {
	args := listArgs(list)
	return col + " IN (?" + strings.Repeat(",?", len(args)-1) + ")", args
}

// mysqlMaxParams stays under the limit of 65,535 placeholders of a
// prepared statement, should the driver not interpolate one.
const mysqlMaxParams = 60000

// insertRows writes multi-row INSERT statements of up to 500 rows, each
// kept to a quarter of max_allowed_packet (a single larger row goes
// alone; the server refuses it when it exceeds the packet).
func (d mysqlDialect) insertRows(ctx context.Context, q querier, r *rowSet) error {
	maxRows := min(500, mysqlMaxParams/len(r.cols))
	budget := max(d.maxPacket/4, 64<<10)
	tuple := "(?" + strings.Repeat(",?", len(r.cols)-1) + ")"
	head := "INSERT INTO " + r.table + " (" + strings.Join(r.names(), ", ") + ") VALUES "
	var stmt strings.Builder
	args := make([]any, 0, min(r.n, maxRows)*len(r.cols))
	for start := 0; start < r.n; {
		args = args[:0]
		stmt.Reset()
		stmt.WriteString(head)
		size := len(head)
		i := start
		for ; i < r.n && i-start < maxRows; i++ {
			before := len(args)
			args = r.appendRow(args, i)
			rowSize := len(tuple) + 1
			for _, v := range args[before:] {
				if s, ok := v.(string); ok {
					rowSize += 2*len(s) + 3 // escaped, quoted
				} else {
					rowSize += 21
				}
			}
			if i > start && size+rowSize > budget {
				clear(args[before:])
				args = args[:before]
				break
			}
			size += rowSize
			if i > start {
				stmt.WriteByte(',')
			}
			stmt.WriteString(tuple)
		}
		if _, err := q.ExecContext(ctx, stmt.String(), args...); err != nil {
			return err
		}
		start = i
	}
	return nil
}

// reserveIDs advances the row of table in the id_blocks table by n and
// returns the n ids before its new value. The row stays locked until the
// transaction ends, so reservations of one table run one at a time; ids
// of a transaction that rolls back are handed out again, as none of its
// rows were kept. A table's first reservation starts after its largest
// id.
func (d mysqlDialect) reserveIDs(ctx context.Context, q querier, table string, n int) ([]int64, error) {
	blocks := d.idBlocks
	if _, err := q.ExecContext(ctx, "INSERT INTO "+blocks+" (name, last_id) VALUES (?, (SELECT COALESCE(MAX(id), 0) FROM "+table+") + ?)"+
		" ON DUPLICATE KEY UPDATE last_id = last_id + ?", table, n, n); err != nil {
		return nil, err
	}
	var last int64
	if err := queryRow(ctx, q, "SELECT last_id FROM "+blocks+" WHERE name = ?", []any{table}, &last); err != nil {
		return nil, err
	}
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = last - int64(n) + int64(i) + 1
	}
	return ids, nil
}

// contains compares bytes: the column's binary collation decides.
func (mysqlDialect) contains(col string) string { return "LOCATE(?, " + col + ") > 0" }
func (mysqlDialect) forUpdate() string          { return " FOR UPDATE" }

// forShare uses the spelling MariaDB and MySQL both accept.
func (mysqlDialect) forShare() string { return " LOCK IN SHARE MODE" }

// lockUnit locks the row of key in the unit_locks table, inserting it the
// first time: InnoDB holds the row lock until the transaction ends (a
// session lock of GET_LOCK would outlive it).
func (d mysqlDialect) lockUnit(ctx context.Context, q querier, key int64) error {
	_, err := q.ExecContext(ctx, "INSERT INTO "+d.unitLocks+" (id) VALUES (?) ON DUPLICATE KEY UPDATE id = id", key)
	return err
}

// readOnly: a REPEATABLE READ transaction reads one snapshot, taken at
// its first read.
func (mysqlDialect) readOnly() *sql.TxOptions {
	return &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead}
}

// writeTx runs the transactions that write at READ COMMITTED, as on
// PostgreSQL: locking reads see the latest rows, and no gap locks are
// taken.
func (mysqlDialect) writeTx() *sql.TxOptions {
	return &sql.TxOptions{Isolation: sql.LevelReadCommitted}
}

func mysqlCode(err error) uint16 {
	var e *mysql.MySQLError
	if errors.As(err, &e) {
		return e.Number
	}
	return 0
}

// isConflict: ER_DUP_ENTRY (1062) and ER_DUP_ENTRY_WITH_KEY_NAME (1586).
func (mysqlDialect) isConflict(err error) bool {
	c := mysqlCode(err)
	return c == 1062 || c == 1586
}

// isRetryable: a deadlock (1213), after which InnoDB has rolled the whole
// transaction back, or a lock wait timeout (1205), which undoes only the
// statement; the caller rolls the rest back before it runs the
// transaction again.
func (mysqlDialect) isRetryable(err error) bool {
	c := mysqlCode(err)
	return c == 1213 || c == 1205
}
func (mysqlDialect) rawConn() bool { return false }

// upsert with set empty adds nothing: an ON DUPLICATE KEY UPDATE that
// changes nothing counts its row as affected under CLIENT_FOUND_ROWS,
// which Open sets, so the caller could not tell it from an insert; and
// INSERT IGNORE would also let values that do not fit through.
func (mysqlDialect) upsert(conflict []string, set []string) string {
	if len(set) == 0 {
		return ""
	}
	parts := make([]string, len(set))
	for i, c := range set {
		parts[i] = c + " = VALUES(" + c + ")"
	}
	return " ON DUPLICATE KEY UPDATE " + strings.Join(parts, ", ")
}

// upsertAdd adds to the column of the row that has the same unique
// values.
func (mysqlDialect) upsertAdd(_ string, _ []string, col string) string {
	return " ON DUPLICATE KEY UPDATE " + col + " = " + col + " + VALUES(" + col + ")"
}

// insertID runs an INSERT into a table with an AUTO_INCREMENT id and
// returns the id of the row.
func (mysqlDialect) insertID(ctx context.Context, q querier, stmt string, args []any) (int64, error) {
	res, err := q.ExecContext(ctx, stmt, args...)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}
