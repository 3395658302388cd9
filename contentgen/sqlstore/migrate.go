package sqlstore

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// migrationFS holds the schema migrations, one file per version, named
// NNNN_what.sql and numbered from 0001 without gaps. A migration never
// changes once released: the schema moves forward by new files only.
// Migrations name their tables by tokens, ${posts} for the posts table
// and ${posts}_author for an index of it, which tables.ddl replaces with
// the names of Options.TablePrefix; ${id} and ${bytes} (and ${table} on
// MySQL) are the dialect's (see dialect.ddl).
//
// migrations/mysql holds the same versions, with the same names, written
// for MySQL, whose DDL differs too much for type tokens (indexed text
// needs a length, there are no partial indexes, DDL commits on its own);
// each makes the same tables, columns and constraints as its generic
// version, plus the tables only MySQL needs.
//
//go:embed migrations/*.sql migrations/mysql/*.sql
var migrationFS embed.FS

// migration is one version of the schema.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations are the versions of the schema, in order; mysqlMigrations
// are the same versions for MySQL.
var (
	migrations      = loadMigrations("migrations")
	mysqlMigrations = loadMigrations("migrations/mysql")
)

func loadMigrations(dir string) []migration {
	names, err := fs.Glob(migrationFS, dir+"/*.sql")
	if err != nil {
		panic(err)
	}
	slices.Sort(names)
	out := make([]migration, 0, len(names))
	for i, name := range names {
		base := path.Base(name)
		num, _, _ := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if err != nil || v != i+1 {
			panic("sqlstore: migration " + name + " is out of sequence")
		}
		b, err := migrationFS.ReadFile(name)
		if err != nil {
			panic(err)
		}
		out = append(out, migration{version: v, name: strings.TrimSuffix(base, ".sql"), sql: string(b)})
	}
	return out
}

// SchemaVersion returns the version of the database's schema: the number
// of migrations applied.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v sql.NullInt64
	err := queryRow(ctx, db.reader(ctx), db.stmt("SELECT MAX(version) FROM "+db.t.schemaVersion), nil, &v)
	if err != nil {
		return 0, fail(ctx, "reading the schema version", err)
	}
	return int(v.Int64), nil
}

// migrate brings the schema up to version upTo (at most len(migrations)),
// under the dialect's lock (see dialect.setUp): on SQLite and PostgreSQL
// in one transaction, on MySQL, which commits each DDL statement on its
// own, one migration at a time.
func (db *DB) migrate(ctx context.Context, upTo int) error {
	return db.d.setUp(ctx, db, func(ctx context.Context, q querier) error {
		return db.applyMigrations(ctx, q, upTo)
	})
}

// applyMigrations applies the migrations from the database's version up
// to version upTo on q.
func (db *DB) applyMigrations(ctx context.Context, q querier, upTo int) error {
	if _, err := q.ExecContext(ctx, db.stmt("CREATE TABLE IF NOT EXISTS "+db.t.schemaVersion+` (
	version INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	applied_at BIGINT NOT NULL
)`)); err != nil {
		return fail(ctx, "creating schema_version", err)
	}
	var have sql.NullInt64
	if err := queryRow(ctx, q, db.stmt("SELECT MAX(version) FROM "+db.t.schemaVersion), nil, &have); err != nil {
		return fail(ctx, "reading the schema version", err)
	}
	cur := int(have.Int64)
	all := db.d.migrations()
	if cur > len(all) {
		return fmt.Errorf("sqlstore: the database has schema version %d, newer than this build knows (%d)", cur, len(all))
	}
	for _, m := range all[cur:max(cur, upTo)] {
		for _, stmt := range splitStatements(db.t.ddl(db.d.ddl(m.sql))) {
			if _, err := q.ExecContext(ctx, stmt); err != nil {
				return fail(ctx, "applying migration "+m.name, err)
			}
		}
		if _, err := q.ExecContext(ctx, db.stmt("INSERT INTO "+db.t.schemaVersion+" (version, name, applied_at) VALUES (?, ?, ?)"),
			m.version, m.name, db.now().UnixMicro()); err != nil {
			return fail(ctx, "recording migration "+m.name, err)
		}
		db.log.Info("sqlstore: migration applied", "version", m.version, "name", m.name, "engine", db.d.name())
	}
	return nil
}

// splitStatements splits a migration into its statements: each ends with
// a ";" at the end of a line. Lines starting with "--" are comments.
func splitStatements(s string) []string {
	var out []string
	var b strings.Builder
	for line := range strings.Lines(s) {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "--") {
			continue
		}
		b.WriteString(line)
		if strings.HasSuffix(t, ";") {
			if stmt := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(b.String()), ";")); stmt != "" {
				out = append(out, stmt)
			}
			b.Reset()
		}
	}
	if stmt := strings.TrimSpace(b.String()); stmt != "" {
		out = append(out, stmt)
	}
	return out
}
