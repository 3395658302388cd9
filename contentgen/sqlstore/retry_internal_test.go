package sqlstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

// waitForLockWait returns once a session that cond selects waits for a
// row lock: on PostgreSQL cond is a condition on pg_stat_activity, on
// MySQL on information_schema.PROCESSLIST (as p), where a statement
// still running stands for the wait.
func waitForLockWait(t *testing.T, db *DB, cond string, args ...any) {
	t.Helper()
	q := "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND " + cond
	if db.Engine() == "mysql" {
		// A session running a statement in the test's database, other than
		// this query, is waiting: the sessions of the tests only run
		// statements that return at once, or wait for a lock.
		q = `SELECT COUNT(*) FROM information_schema.PROCESSLIST p
WHERE p.COMMAND = 'Query' AND p.ID <> CONNECTION_ID() AND ` + cond
	}
	for {
		var n int
		require.NoError(t, db.r.QueryRowContext(t.Context(), q, args...).Scan(&n))
		if n > 0 {
			return
		}
		time.Sleep(2 * time.Millisecond) // polling what the server reports, not a timing assumption
	}
}

// TestRetryAfterDeadlock makes two transactions lock two rows in opposite
// orders, so that the engine aborts one of them as a deadlock (40P01 on
// PostgreSQL, 1213 on MySQL): DB.retry runs it again after a pause
// between 10 and 200 ms, and the second run succeeds.
func TestRetryAfterDeadlock(t *testing.T) {
	for _, engine := range []string{"postgres", "mysql"} {
		t.Run(engine, func(t *testing.T) {
			ctx := t.Context()
			dsn, opts := testDSN(t, engine)
			db, err := Open(ctx, dsn, opts)
			require.NoError(t, err)
			defer db.Close()
			var pauses []time.Duration
			db.sleep = func(_ context.Context, d time.Duration) error {
				pauses = append(pauses, d)
				return nil
			}
			_, err = db.w.ExecContext(ctx, "CREATE TABLE deadlock_rows (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)")
			require.NoError(t, err)
			_, err = db.w.ExecContext(ctx, "INSERT INTO deadlock_rows (id, n) VALUES (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)")
			require.NoError(t, err)
			bump := db.d.rebind("UPDATE deadlock_rows SET n = n + 1 WHERE id = ?")

			// The other transaction, B, holds row 2 (and, on MySQL, more
			// rows, so that InnoDB picks the lighter A as the victim), then
			// waits for row 1, which A holds.
			conn, err := db.w.Conn(ctx)
			require.NoError(t, err)
			defer conn.Close()
			var bSession int64
			if engine == "postgres" {
				require.NoError(t, conn.QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&bSession))
			} else {
				require.NoError(t, conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&bSession))
			}
			btx, err := conn.BeginTx(ctx, db.d.writeTx())
			require.NoError(t, err)
			if engine == "postgres" {
				// A, not B, checks for the deadlock, and so is aborted.
				_, err = btx.ExecContext(ctx, "SET LOCAL deadlock_timeout = '60s'")
				require.NoError(t, err)
			}
			for _, id := range []int{2, 3, 4, 5} {
				_, err = btx.ExecContext(ctx, bump, id)
				require.NoError(t, err)
			}
			aHolds1 := make(chan struct{})
			bDone := make(chan error, 1)
			go func() {
				<-aHolds1
				_, err := btx.ExecContext(ctx, bump, 1)
				if err == nil {
					err = btx.Commit()
				} else {
					_ = btx.Rollback()
				}
				bDone <- err
			}()

			var errs []error
			runs := 0
			var bErr error
			err = db.retry(ctx, func(ctx context.Context, q querier) error {
				runs++
				if runs == 2 {
					// B got row 1 when the first run was rolled back; let it
					// finish, so that the second run does not collide with it
					// again.
					bErr = <-bDone
				}
				if runs == 1 && engine == "postgres" {
					if _, err := q.ExecContext(ctx, "SET LOCAL deadlock_timeout = '10ms'"); err != nil {
						return err
					}
				}
				if _, err := q.ExecContext(ctx, bump, 1); err != nil {
					return err
				}
				if runs == 1 {
					close(aHolds1)
					if engine == "postgres" {
						waitForLockWait(t, db, "pid = $1", bSession)
					} else {
						waitForLockWait(t, db, "p.ID = ?", bSession)
					}
				}
				_, err := q.ExecContext(ctx, bump, 2)
				if err != nil {
					errs = append(errs, err)
				}
				return err
			})
			require.NoError(t, err)
			require.NoError(t, bErr)
			require.Equal(t, 2, runs, "runs of the transaction")
			require.Len(t, errs, 1)
			require.True(t, db.d.isRetryable(errs[0]), "the first run ended as a deadlock: %v", errs[0])
			if engine == "postgres" {
				require.Equal(t, "40P01", pgCode(errs[0]))
			} else {
				require.EqualValues(t, 1213, mysqlCode(errs[0]))
			}
			require.Len(t, pauses, 1)
			require.GreaterOrEqual(t, pauses[0], 10*time.Millisecond)
			require.LessOrEqual(t, pauses[0], 200*time.Millisecond)
			var n1, n2 int
			require.NoError(t, db.r.QueryRowContext(ctx, "SELECT n FROM deadlock_rows WHERE id = 1").Scan(&n1))
			require.NoError(t, db.r.QueryRowContext(ctx, "SELECT n FROM deadlock_rows WHERE id = 2").Scan(&n2))
			require.Equal(t, []int{2, 2}, []int{n1, n2}, "B's updates and A's second run")
		})
	}
}

func TestRetryPause(t *testing.T) {
	for attempt := 1; attempt < 10; attempt++ {
		for range 200 {
			d := retryPause(attempt)
			require.GreaterOrEqual(t, d, 10*time.Millisecond)
			require.LessOrEqual(t, d, min(200*time.Millisecond, 10*time.Millisecond<<attempt))
		}
	}
}

// TestExistLocksWhatItFinds deletes a user in a transaction that stays
// open while another transaction checks, as the Generator does before it
// writes posts, which of two authors exist and writes a post by the first
// one found: the check waits for the delete and finds the user gone, so
// the post goes to the other author instead of failing with a reference
// to a missing user.
func TestExistLocksWhatItFinds(t *testing.T) {
	for _, engine := range []string{"postgres", "mysql"} {
		t.Run(engine, func(t *testing.T) {
			ctx := t.Context()
			dsn, opts := testDSN(t, engine)
			var waiting string
			var waitArg any
			if engine == "postgres" {
				b := make([]byte, 6)
				_, _ = rand.Read(b)
				app := "cgtest_" + hex.EncodeToString(b)
				sep := "?"
				if strings.Contains(dsn, "?") {
					sep = "&"
				}
				dsn += sep + "application_name=" + app
				waiting, waitArg = "application_name = $1", app
			} else {
				cfg, err := mysql.ParseDSN(dsn)
				require.NoError(t, err)
				waiting, waitArg = "p.DB = ?", cfg.DBName
			}
			db, err := Open(ctx, dsn, opts)
			require.NoError(t, err)
			defer db.Close()
			h := db.Host(nil)
			require.NoError(t, h.RegisterPostType(ctx, contentgen.PostType{Name: "post"}))
			require.NoError(t, h.RegisterRole(ctx, contentgen.Role{Slug: "author"}))
			users, err := h.CreateUsers(ctx, []contentgen.User{
				{Login: "gone", Email: "gone@example.com", Roles: []string{"author"}},
				{Login: "stays", Email: "stays@example.com", Roles: []string{"author"}},
			})
			require.NoError(t, err)

			deleted, commit := make(chan struct{}), make(chan struct{})
			var wg sync.WaitGroup
			var delErr error
			wg.Go(func() {
				delErr = h.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
					if err := tx.DeleteUsers(ctx, users[:1], 0); err != nil {
						return err
					}
					close(deleted)
					<-commit
					return nil
				})
			})
			<-deleted
			var author int64
			var post []int64
			var writeErr error
			wg.Go(func() {
				writeErr = h.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
					found, err := tx.(contentgen.Exister).Exist(ctx, contentgen.KindUser, users)
					if err != nil {
						return err
					}
					author = users[1]
					if found[0] {
						author = users[0]
					}
					post, err = tx.CreatePosts(ctx, []contentgen.Post{{Type: "post", Status: contentgen.StatusPublish, Title: "T", AuthorID: author}})
					return err
				})
			})
			waitForLockWait(t, db, waiting, waitArg)
			close(commit)
			wg.Wait()
			require.NoError(t, delErr)
			require.NoError(t, writeErr, "the post refers to a user the check found")
			require.Equal(t, users[1], author)
			got, err := h.Posts(ctx, contentgen.PostQuery{IDs: contentgen.OnlyIDs(post...)})
			require.NoError(t, err)
			require.Len(t, got, 1)
			require.Equal(t, users[1], got[0].AuthorID)
		})
	}
}
