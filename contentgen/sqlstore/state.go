package sqlstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/contentgen/contentgen/contentgen"
)

// stateStore is the contentgen.StateStore of a DB.
type stateStore struct{ db *DB }

var _ contentgen.StateStore = (*stateStore)(nil)

// State returns the state store of the database: settings, keys, counters
// and caches of contentgen, one value per key. Its methods join the
// transaction their context carries (see InTx).
func (db *DB) State() contentgen.StateStore { return &stateStore{db: db} }

// maxStateAttempts bounds the rounds of one Update: a round is run again
// when its transaction fails with a serialisation failure or deadlock, or
// when another process created the key between the read and the insert.
const maxStateAttempts = 16

// errStateRace ends a round of Update whose insert found the key created
// meanwhile.
var errStateRace = errors.New("sqlstore: state key created concurrently")

// Load implements contentgen.StateStore.
func (s *stateStore) Load(ctx context.Context, key string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var v []byte
	err := queryRow(ctx, s.db.reader(ctx), s.db.stmt("SELECT value FROM "+s.db.t.state+" WHERE name = ?"), []any{key}, &v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fail(ctx, "loading state", err)
	}
	return v, nil
}

// Update implements contentgen.StateStore. It reads the row under a lock
// (SELECT ... FOR UPDATE on PostgreSQL and MySQL, the write lock of the
// immediate transaction on SQLite), so that no other Update of the key,
// in any process, runs between the read and the write. A missing key is
// inserted with ON CONFLICT DO NOTHING (on MySQL a plain INSERT, whose
// conflict error says the same); when another Update created it first,
// the round is run again with its value.
func (s *stateStore) Update(ctx context.Context, key string, fn func(old []byte) ([]byte, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var err error
	for range maxStateAttempts {
		err = s.db.inTx(ctx, func(ctx context.Context, q querier) error { return s.update(ctx, q, key, fn) })
		if !errors.Is(err, errStateRace) && !s.db.d.isRetryable(err) {
			return err
		}
		if s.db.txOf(ctx) != nil && s.db.d.isRetryable(err) {
			return err // the outer transaction has failed; it is its caller's to retry
		}
	}
	return err
}

func (s *stateStore) update(ctx context.Context, q querier, key string, fn func(old []byte) ([]byte, error)) error {
	var old []byte
	err := queryRow(ctx, q, s.db.stmt("SELECT value FROM "+s.db.t.state+" WHERE name = ?"+s.db.d.forUpdate()), []any{key}, &old)
	found := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fail(ctx, "reading state", err)
	}
	v, err := fn(old)
	if err != nil {
		return err
	}
	if v == nil {
		v = []byte{} // a value, not NULL: the key exists from now on
	}
	if found {
		if _, err := q.ExecContext(ctx, s.db.stmt("UPDATE "+s.db.t.state+" SET value = ? WHERE name = ?"), v, key); err != nil {
			return fail(ctx, "writing state", err)
		}
		return nil
	}
	res, err := q.ExecContext(ctx, s.db.stmt("INSERT INTO "+s.db.t.state+" (name, value) VALUES (?, ?)"+s.db.d.upsert([]string{"name"}, nil)), key, v)
	if s.db.d.isConflict(err) {
		return errStateRace // MySQL: see dialect.upsert
	}
	if err != nil {
		return fail(ctx, "writing state", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fail(ctx, "writing state", err)
	} else if n == 0 {
		return errStateRace
	}
	return nil
}
