package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// mysqlSQLMode is the sql_mode of the connections, unless the DSN sets
// one (to which NO_BACKSLASH_ESCAPES is added): values that do not fit
// their column fail instead of being truncated, and a backslash is an
// ordinary character in string literals, as on the other engines.
const mysqlSQLMode = "'STRICT_ALL_TABLES,NO_BACKSLASH_ESCAPES,NO_ENGINE_SUBSTITUTION,ERROR_FOR_DIVISION_BY_ZERO'"

// isMySQLDSN reports whether dsn names a MySQL database: it starts with
// "mysql://", or it has the driver's form
// [user[:password]@]net(address)/dbname[?params] with net "tcp" or "unix".
func isMySQLDSN(dsn string) bool {
	if strings.HasPrefix(dsn, "mysql://") {
		return true
	}
	slash := strings.LastIndex(dsn, "/")
	if slash < 0 {
		return false
	}
	// As the driver reads it: the address ends at the last "/", the
	// user and password at the last "@" before it.
	addr := dsn[:slash]
	if at := strings.LastIndex(addr, "@"); at >= 0 {
		addr = addr[at+1:]
	}
	return (strings.HasPrefix(addr, "tcp(") || strings.HasPrefix(addr, "unix(")) && strings.HasSuffix(addr, ")")
}

func (db *DB) openMySQL(ctx context.Context, dsn string, o Options) error {
	cfg, err := mysql.ParseDSN(strings.TrimPrefix(dsn, "mysql://"))
	if err != nil {
		return fmt.Errorf("sqlstore: parsing the MySQL DSN: %w", err)
	}
	if cfg.DBName == "" {
		return fmt.Errorf("sqlstore: the MySQL DSN names no database")
	}
	cfg.ParseTime = true
	cfg.InterpolateParams = true
	cfg.MultiStatements = false
	// An UPDATE reports the rows it matched, as on the other engines, not
	// only those whose values it changed.
	cfg.ClientFoundRows = true
	if err := cfg.Apply(mysql.Charset("utf8mb4", "")); err != nil {
		return fmt.Errorf("sqlstore: configuring MySQL: %w", err)
	}
	if cfg.Params == nil {
		cfg.Params = map[string]string{}
	}
	if mode, ok := cfg.Params["sql_mode"]; ok {
		// The statements write a backslash as an ordinary character.
		cfg.Params["sql_mode"] = "CONCAT_WS(',', " + mode + ", 'NO_BACKSLASH_ESCAPES')"
	} else {
		cfg.Params["sql_mode"] = mysqlSQLMode
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return fmt.Errorf("sqlstore: opening MySQL: %w", err)
	}
	p := sql.OpenDB(conn)
	p.SetMaxOpenConns(o.MaxConns)
	p.SetMaxIdleConns(o.MaxConns)
	p.SetConnMaxIdleTime(5 * time.Minute)
	d := mysqlDialect{idBlocks: db.t.idBlocks, unitLocks: db.t.unitLocks}
	if err := queryRow(ctx, p, "SELECT @@max_allowed_packet", nil, &d.maxPacket); err != nil {
		_ = p.Close()
		return fail(ctx, "connecting to MySQL", err)
	}
	// The first binary NO PAD collation the server has: MariaDB's, then
	// MySQL 8's; MySQL 5.7 has only utf8mb4_bin, which ignores trailing
	// spaces in comparisons.
	err = queryRow(ctx, p, `SELECT COLLATION_NAME FROM information_schema.COLLATIONS
	WHERE COLLATION_NAME IN ('utf8mb4_nopad_bin', 'utf8mb4_0900_bin', 'utf8mb4_bin')
	ORDER BY FIELD(COLLATION_NAME, 'utf8mb4_nopad_bin', 'utf8mb4_0900_bin', 'utf8mb4_bin') LIMIT 1`, nil, &d.collation)
	if err != nil {
		_ = p.Close()
		return fail(ctx, "choosing a collation", err)
	}
	db.d = d
	db.w, db.r = p, p
	db.scope = "mysql:" + cfg.Addr + "/" + cfg.DBName
	return nil
}
