package sqlstore

import (
	"errors"
	"regexp"
	"strings"
)

// tableNames are the tables of the package (and their indexes' tables):
// the names Options.TablePrefix applies to.
var tableNames = []string{
	"schema_version", "history", "templates", "template_sync_mark", "state",
	"host_registry", "posts", "terms", "term_links", "users", "user_roles",
	"comments", "media", "meta",
	// MySQL only: see mysqlDialect.reserveIDs and lockUnit.
	"id_blocks", "unit_locks",
}

// tableRef matches a table of the package where a statement names one:
// after FROM, JOIN, INTO, UPDATE, TABLE, EXISTS (of CREATE TABLE IF NOT
// EXISTS) or ON (of CREATE INDEX), and not followed by a "." (a column
// qualified by an alias of the same name).
var tableRef = regexp.MustCompile(`\b(FROM|JOIN|INTO|UPDATE|TABLE|EXISTS|ON)(\s+)(` +
	strings.Join(tableNames, "|") + `)([^\w.]|$)`)

// indexRef matches the name of an index a CREATE INDEX statement makes:
// index names share one namespace per schema on PostgreSQL and SQLite.
var indexRef = regexp.MustCompile(`\bINDEX(\s+)(\w+)(\s+)ON\b`)

// validPrefix checks Options.TablePrefix: letters, digits and "_", so
// that it joins table names without quoting.
func validPrefix(p string) error {
	for _, r := range p {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return errors.New("sqlstore: Options.TablePrefix may hold only ASCII letters, digits and '_'")
		}
	}
	if len(p) > 32 {
		return errors.New("sqlstore: Options.TablePrefix must not be longer than 32 bytes")
	}
	return nil
}

// withPrefix returns q with the package's tables (and the indexes it
// creates) named with prefix.
func withPrefix(q, prefix string) string {
	if prefix == "" {
		return q
	}
	q = tableRef.ReplaceAllString(q, "${1}${2}"+prefix+"${3}${4}")
	return indexRef.ReplaceAllString(q, "INDEX${1}"+prefix+"${2}${3}ON")
}

// stmt returns q, written with "?" placeholders and the tables' own
// names, as the engine runs it: placeholders rebound, tables prefixed.
func (db *DB) stmt(q string) string {
	return db.d.rebind(withPrefix(q, db.prefix))
}

// table returns the name of the package's table base in the database.
func (db *DB) table(base string) string { return db.prefix + base }
