package sqlstore

import (
	"errors"
	"strings"
)

// tables are the names of the package's tables in the database, each
// starting with Options.TablePrefix. Open builds them once; statements
// name their tables through them, and the migrations through tokens (see
// ddl), so no statement is rewritten to find its tables.
type tables struct {
	schemaVersion, history, templates, templateSyncMark, state string
	hostRegistry, posts, terms, termLinks, users, userRoles    string
	comments, media, meta, postCounts                          string
	// MySQL only: see mysqlDialect.reserveIDs and lockUnit.
	idBlocks, unitLocks string

	// tokens replaces the table tokens of the migrations.
	tokens *strings.Replacer
}

// newTables returns the names of the tables with prefix.
func newTables(prefix string) tables {
	t := tables{}
	var pairs []string
	for _, n := range []struct {
		name  string
		field *string
	}{
		{"schema_version", &t.schemaVersion}, {"history", &t.history}, {"templates", &t.templates},
		{"template_sync_mark", &t.templateSyncMark}, {"state", &t.state}, {"host_registry", &t.hostRegistry},
		{"posts", &t.posts}, {"terms", &t.terms}, {"term_links", &t.termLinks}, {"users", &t.users},
		{"user_roles", &t.userRoles}, {"comments", &t.comments}, {"media", &t.media}, {"meta", &t.meta},
		{"post_counts", &t.postCounts},
		{"id_blocks", &t.idBlocks}, {"unit_locks", &t.unitLocks},
	} {
		*n.field = prefix + n.name
		pairs = append(pairs, "${"+n.name+"}", *n.field)
	}
	t.tokens = strings.NewReplacer(pairs...)
	return t
}

// ddl returns the statements of a migration with their table tokens
// replaced: ${posts} is the posts table (t.posts), and so on. An index is
// named after its table (${posts}_author), as index names share one
// namespace per schema on PostgreSQL and SQLite.
func (t *tables) ddl(q string) string { return t.tokens.Replace(q) }

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

// stmt returns q, written with "?" placeholders, as the engine runs it.
func (db *DB) stmt(q string) string { return db.d.rebind(q) }
