package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/contentgen/contentgen/templates"
)

// templateStore is the templates.Store of a DB. Inside an Atomic unit, ts
// is the unit's transaction, which the store uses whatever the context.
type templateStore struct {
	db *DB
	ts *txState
}

var _ templates.Store = (*templateStore)(nil)

// Templates returns the template store of the database. Its methods join
// the transaction their context carries (see InTx); Atomic runs a
// transaction (or a savepoint of the one ctx carries) that holds the
// templates lock, so that units never interleave, also across processes.
func (db *DB) Templates() templates.Store { return &templateStore{db: db} }

// errUnitDone is returned by the Store of an Atomic unit used after the
// unit ended.
var errUnitDone = errors.New("sqlstore: template store of an atomic unit used after the unit ended")

// querier returns where the store's statements run.
func (s *templateStore) querier(ctx context.Context, write bool) (querier, error) {
	if s.ts != nil {
		s.ts.mu.Lock()
		done := s.ts.done
		s.ts.mu.Unlock()
		if done {
			return nil, errUnitDone
		}
		return lockedTx{s.ts}, nil
	}
	if write {
		return s.db.writer(ctx), nil
	}
	return s.db.reader(ctx), nil
}

const templateCols = "id, name, description, post_type, is_default, is_system, field_config, taxonomy_config, parent_id, field_signature, created_at, updated_at"

// encodedTemplate holds the column values of a template.
type encodedTemplate struct {
	fieldConfig, taxonomyConfig string
	signature                   any // string or nil
	created, updated            any // int64 or nil
}

func encodeTemplate(t *templates.Template) (encodedTemplate, error) {
	var e encodedTemplate
	b, err := json.Marshal(t.FieldConfig)
	if err != nil {
		return e, fmt.Errorf("sqlstore: encoding field_config: %w", err)
	}
	e.fieldConfig = string(b)
	if b, err = json.Marshal(t.TaxonomyConfig); err != nil {
		return e, fmt.Errorf("sqlstore: encoding taxonomy_config: %w", err)
	}
	e.taxonomyConfig = string(b)
	if t.FieldSignature != nil {
		if b, err = json.Marshal(t.FieldSignature); err != nil {
			return e, fmt.Errorf("sqlstore: encoding field signature: %w", err)
		}
		e.signature = string(b)
	}
	e.created, e.updated = encTime(t.CreatedAt), encTime(t.UpdatedAt)
	return e, nil
}

// encTime stores a time as microseconds since 1970, the zero time as NULL.
func encTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMicro()
}

func decTime(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return time.UnixMicro(v.Int64).UTC()
}

// scanTemplate reads the templateCols of a row.
func scanTemplate(rows *sql.Rows) (templates.Template, error) {
	var t templates.Template
	var fc, tc string
	var sig sql.NullString
	var created, updated sql.NullInt64
	if err := rows.Scan(&t.ID, &t.Name, &t.Description, &t.PostType, &t.IsDefault, &t.IsSystem,
		&fc, &tc, &t.ParentID, &sig, &created, &updated); err != nil {
		return t, err
	}
	if err := decodeTemplate(&t, fc, tc, sig); err != nil {
		return t, err
	}
	t.CreatedAt, t.UpdatedAt = decTime(created), decTime(updated)
	return t, nil
}

func decodeTemplate(t *templates.Template, fc, tc string, sig sql.NullString) error {
	t.FieldConfig, t.TaxonomyConfig, t.FieldSignature = templates.FieldConfig{}, nil, nil
	if err := json.Unmarshal([]byte(fc), &t.FieldConfig); err != nil {
		return fmt.Errorf("decoding the field_config of template %d: %w", t.ID, err)
	}
	if err := json.Unmarshal([]byte(tc), &t.TaxonomyConfig); err != nil {
		return fmt.Errorf("decoding the taxonomy_config of template %d: %w", t.ID, err)
	}
	if sig.Valid {
		t.FieldSignature = templates.Signature{}
		if err := json.Unmarshal([]byte(sig.String), &t.FieldSignature); err != nil {
			return fmt.Errorf("decoding the field signature of template %d: %w", t.ID, err)
		}
	}
	return nil
}

// Get implements templates.Store.
func (s *templateStore) Get(ctx context.Context, id int64) (templates.Template, error) {
	if err := ctx.Err(); err != nil {
		return templates.Template{}, err
	}
	q, err := s.querier(ctx, false)
	if err != nil {
		return templates.Template{}, err
	}
	var t templates.Template
	found := false
	err = queryEach(ctx, q, s.db.stmt("SELECT "+templateCols+" FROM "+s.db.t.templates+" WHERE id = ?"), []any{id},
		func(rows *sql.Rows) error {
			found = true
			var err error
			t, err = scanTemplate(rows)
			return err
		})
	if err != nil {
		return templates.Template{}, fail(ctx, "reading a template", err)
	}
	if !found {
		return templates.Template{}, templates.ErrNotFound
	}
	return t, nil
}

// List implements templates.Store.
func (s *templateStore) List(ctx context.Context, f templates.Filter) ([]templates.Template, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	q, err := s.querier(ctx, false)
	if err != nil {
		return nil, err
	}
	query := "SELECT " + templateCols + " FROM " + s.db.t.templates + " WHERE 1 = 1"
	var args []any
	if f.PostType != "" {
		query += " AND post_type = ?"
		args = append(args, f.PostType)
	}
	if f.IsSystem != nil {
		query += " AND is_system = ?"
		args = append(args, *f.IsSystem)
	}
	if f.DefaultOnly {
		query += " AND is_default = ?"
		args = append(args, true)
	}
	out := []templates.Template{}
	err = queryEach(ctx, q, s.db.stmt(query+" ORDER BY id"), args, func(rows *sql.Rows) error {
		t, err := scanTemplate(rows)
		out = append(out, t)
		return err
	})
	if err != nil {
		return nil, fail(ctx, "listing templates", err)
	}
	return out, nil
}

// Insert implements templates.Store.
func (s *templateStore) Insert(ctx context.Context, t templates.Template) (templates.Template, error) {
	if err := ctx.Err(); err != nil {
		return templates.Template{}, err
	}
	e, err := encodeTemplate(&t)
	if err != nil {
		return templates.Template{}, err
	}
	q, err := s.querier(ctx, true)
	if err != nil {
		return templates.Template{}, err
	}
	id, err := s.db.d.insertID(ctx, q, s.db.stmt("INSERT INTO "+s.db.t.templates+` (name, description, post_type, is_default, is_system,
	field_config, taxonomy_config, parent_id, field_signature, created_at, updated_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		[]any{t.Name, t.Description, t.PostType, t.IsDefault, t.IsSystem, e.fieldConfig, e.taxonomyConfig,
			t.ParentID, e.signature, e.created, e.updated})
	if err != nil {
		return templates.Template{}, fail(ctx, "inserting a template", err)
	}
	// The result is decoded from what was stored, so that it shares no
	// memory with t.
	out := t
	out.ID = id
	out.LinkedParents = nil
	sig := sql.NullString{}
	if s, ok := e.signature.(string); ok {
		sig = sql.NullString{String: s, Valid: true}
	}
	if err := decodeTemplate(&out, e.fieldConfig, e.taxonomyConfig, sig); err != nil {
		return templates.Template{}, fmt.Errorf("sqlstore: %w", err)
	}
	return out, nil
}

// Put implements templates.Store.
func (s *templateStore) Put(ctx context.Context, t templates.Template) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	e, err := encodeTemplate(&t)
	if err != nil {
		return err
	}
	q, err := s.querier(ctx, true)
	if err != nil {
		return err
	}
	res, err := q.ExecContext(ctx, s.db.stmt("UPDATE "+s.db.t.templates+` SET name = ?, description = ?, post_type = ?,
	is_default = ?, is_system = ?, field_config = ?, taxonomy_config = ?, parent_id = ?, field_signature = ?,
	created_at = ?, updated_at = ? WHERE id = ?`),
		t.Name, t.Description, t.PostType, t.IsDefault, t.IsSystem, e.fieldConfig, e.taxonomyConfig,
		t.ParentID, e.signature, e.created, e.updated, t.ID)
	if err != nil {
		return fail(ctx, "updating a template", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fail(ctx, "updating a template", err)
	}
	if n == 0 {
		return templates.ErrNotFound
	}
	return nil
}

// Delete implements templates.Store.
func (s *templateStore) Delete(ctx context.Context, ids []int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(ids) == 0 {
		return nil
	}
	q, err := s.querier(ctx, true)
	if err != nil {
		return err
	}
	uniq := slices.Clone(ids)
	slices.Sort(uniq)
	uniq = slices.Compact(uniq)
	cond, arg := s.db.d.inList("id", uniq)
	if _, err := q.ExecContext(ctx, s.db.stmt("DELETE FROM "+s.db.t.templates+" WHERE "+cond), arg...); err != nil {
		return fail(ctx, "deleting templates", err)
	}
	return nil
}

// SyncMark implements templates.Store.
func (s *templateStore) SyncMark(ctx context.Context) (templates.SyncMark, error) {
	if err := ctx.Err(); err != nil {
		return templates.SyncMark{}, err
	}
	q, err := s.querier(ctx, false)
	if err != nil {
		return templates.SyncMark{}, err
	}
	var sigs sql.NullString
	var seen sql.NullInt64
	err = queryRow(ctx, q, s.db.stmt("SELECT signatures, seen_at FROM "+s.db.t.templateSyncMark+" WHERE id = 1"), nil, &sigs, &seen)
	if errors.Is(err, sql.ErrNoRows) {
		return templates.SyncMark{}, nil
	}
	if err != nil {
		return templates.SyncMark{}, fail(ctx, "reading the sync mark", err)
	}
	m := templates.SyncMark{SeenAt: decTime(seen)}
	if sigs.Valid {
		if err := json.Unmarshal([]byte(sigs.String), &m.Signatures); err != nil {
			return templates.SyncMark{}, fmt.Errorf("sqlstore: decoding the sync mark: %w", err)
		}
	}
	return m, nil
}

// SetSyncMark implements templates.Store.
func (s *templateStore) SetSyncMark(ctx context.Context, m templates.SyncMark) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	q, err := s.querier(ctx, true)
	if err != nil {
		return err
	}
	if m.Signatures == nil && m.SeenAt.IsZero() {
		if _, err := q.ExecContext(ctx, s.db.stmt("DELETE FROM "+s.db.t.templateSyncMark)); err != nil {
			return fail(ctx, "clearing the sync mark", err)
		}
		return nil
	}
	var sigs any
	if m.Signatures != nil {
		b, err := json.Marshal(m.Signatures)
		if err != nil {
			return fmt.Errorf("sqlstore: encoding the sync mark: %w", err)
		}
		sigs = string(b)
	}
	_, err = q.ExecContext(ctx, s.db.stmt("INSERT INTO "+s.db.t.templateSyncMark+" (id, signatures, seen_at) VALUES (1, ?, ?)"+
		s.db.d.upsert([]string{"id"}, []string{"signatures", "seen_at"})), sigs, encTime(m.SeenAt))
	if err != nil {
		return fail(ctx, "setting the sync mark", err)
	}
	return nil
}

// Atomic implements templates.Store. The unit is a transaction (a
// savepoint when ctx, or the store, already has one) holding the
// templates lock: on PostgreSQL an advisory lock, on MySQL the lock of a
// row of unit_locks, on SQLite the write lock every transaction takes.
func (s *templateStore) Atomic(ctx context.Context, fn func(ctx context.Context, s templates.Store) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.ts != nil {
		if _, err := s.querier(ctx, true); err != nil {
			return err
		}
		ctx = context.WithValue(ctx, txKey{}, s.ts)
	}
	return s.db.inTx(ctx, func(ctx context.Context, q querier) error {
		if err := s.db.d.lockUnit(ctx, q, lockKey(s.db.scope, "templates")); err != nil {
			return fail(ctx, "locking templates", err)
		}
		return fn(ctx, &templateStore{db: s.db, ts: s.db.txOf(ctx)})
	})
}
