package runs

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivermigrate"
)

// tableNames are the tables of runs, with the DB's table prefix.
type tableNames struct {
	runs, batches, warnings string
}

func newTableNames(prefix string) tableNames {
	return tableNames{runs: prefix + "runs", batches: prefix + "run_batches", warnings: prefix + "run_warnings"}
}

// q writes the "?" placeholders of query as the engine wants them.
func (s *Service) q(query string) string {
	if !s.pg {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// schema creates the tables of runs. The statements only add what is
// missing, so that every process may run them.
func (t tableNames) schema() []string {
	return []string{
		`CREATE TABLE IF NOT EXISTS ` + t.runs + ` (
			id TEXT PRIMARY KEY,
			kind TEXT NOT NULL,
			total BIGINT NOT NULL,
			batch_size INTEGER NOT NULL,
			batches BIGINT NOT NULL,
			request TEXT NOT NULL,
			status TEXT NOT NULL,
			done BIGINT NOT NULL DEFAULT 0,
			batches_done BIGINT NOT NULL DEFAULT 0,
			errors BIGINT NOT NULL DEFAULT 0,
			last_error TEXT NOT NULL DEFAULT '',
			created_at BIGINT NOT NULL,
			started_at BIGINT,
			ended_at BIGINT
		)`,
		`CREATE INDEX IF NOT EXISTS ` + t.runs + `_created ON ` + t.runs + ` (created_at)`,
		`CREATE TABLE IF NOT EXISTS ` + t.batches + ` (
			run_id TEXT NOT NULL REFERENCES ` + t.runs + ` (id) ON DELETE CASCADE,
			batch BIGINT NOT NULL,
			worker TEXT NOT NULL,
			items INTEGER NOT NULL,
			finished_at BIGINT NOT NULL,
			PRIMARY KEY (run_id, batch)
		)`,
		`CREATE TABLE IF NOT EXISTS ` + t.warnings + ` (
			run_id TEXT NOT NULL REFERENCES ` + t.runs + ` (id) ON DELETE CASCADE,
			message TEXT NOT NULL,
			PRIMARY KEY (run_id, message)
		)`,
	}
}

// addBatchesDone adds the column batches_done to a runs table made
// before it had one, counting the batches each run recorded.
func (s *Service) addBatchesDone(ctx context.Context, tx *sql.Tx) error {
	q := `SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = 'batches_done'`
	if s.pg {
		q = `SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = 'batches_done'`
	}
	var n int
	if err := tx.QueryRowContext(ctx, q, strings.ToLower(s.t.runs)).Scan(&n); err != nil {
		return fmt.Errorf("runs: reading the columns of runs: %w", err)
	}
	if n > 0 {
		return nil
	}
	for _, stmt := range []string{
		`ALTER TABLE ` + s.t.runs + ` ADD COLUMN batches_done BIGINT NOT NULL DEFAULT 0`,
		`UPDATE ` + s.t.runs + ` SET batches_done = (SELECT COUNT(*) FROM ` + s.t.batches + ` WHERE ` + s.t.batches + `.run_id = ` + s.t.runs + `.id)`,
	} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("runs: adding batches_done to runs: %w", err)
		}
	}
	return nil
}

// migrate brings River's tables and those of runs up to date. On SQLite
// it runs in one transaction, which holds the database's write lock. On
// PostgreSQL River's migrations cannot share one transaction (a new value
// of an enum type is used in the one that adds it): they run one by one,
// on River's own, while a connection holds an advisory lock, so that
// processes starting together migrate once.
func (s *Service) migrate(ctx context.Context, driver riverdriver.Driver[*sql.Tx]) error {
	m, err := rivermigrate.New(driver, nil)
	if err != nil {
		return fmt.Errorf("runs: %w", err)
	}
	createTables := func(ctx context.Context, tx *sql.Tx) error {
		for _, stmt := range s.t.schema() {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("runs: creating the tables of runs: %w", err)
			}
		}
		return s.addBatchesDone(ctx, tx)
	}
	if !s.pg {
		return s.db.InTxLocked(ctx, "contentgen/runs: migrate", func(ctx context.Context) error {
			return s.db.WithSQLTx(ctx, func(tx *sql.Tx) error {
				if _, err := m.MigrateTx(ctx, tx, rivermigrate.DirectionUp, nil); err != nil {
					return fmt.Errorf("runs: migrating River's tables: %w", err)
				}
				return createTables(ctx, tx)
			})
		})
	}
	conn, err := s.db.WritePool().Conn(ctx)
	if err != nil {
		return fmt.Errorf("runs: migrating: %w", err)
	}
	defer conn.Close()
	const lock = `hashtext('contentgen/runs: migrate')`
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(`+lock+`)`); err != nil {
		return fmt.Errorf("runs: migrating: taking the lock: %w", err)
	}
	defer func() { _, _ = conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(`+lock+`)`) }()
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("runs: migrating River's tables: %w", err)
	}
	return s.db.InTx(ctx, func(ctx context.Context) error {
		return s.db.WithSQLTx(ctx, func(tx *sql.Tx) error { return createTables(ctx, tx) })
	})
}
