package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/contentgen/contentgen/history"
)

// historyStore is the history.Store of a DB.
type historyStore struct{ db *DB }

var _ history.Store = (*historyStore)(nil)

// History returns the history store of the database. Its methods join the
// transaction their context carries (see InTx).
func (db *DB) History() history.Store { return &historyStore{db: db} }

// historyCols are the columns an entry is read from, in scan order.
const historyCols = "id, content_type, content_id, content_subtype, meta, created_at"

// Add implements history.Store. The entries are inserted in one
// transaction (a savepoint of the transaction ctx carries) by a few bulk
// INSERTs (see dialect.insertRows).
func (s *historyStore) Add(ctx context.Context, entries []history.Entry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	now := time.UnixMicro(s.db.now().UnixMicro()).UTC()
	ids := make([]string, len(entries))
	created := make([]time.Time, len(entries))
	var enc metaEncoder
	type row struct {
		meta, index string
		hasMeta     bool
	}
	rows := make([]row, len(entries))
	for i := range entries {
		e := &entries[i]
		ids[i] = newEntryID()
		created[i] = e.CreatedAt
		if created[i].IsZero() {
			created[i] = now
		}
		meta, index, err := enc.encode(e.Meta)
		if err != nil {
			return fmt.Errorf("sqlstore: history entry %d: encoding meta: %w", i, err)
		}
		rows[i].meta, rows[i].hasMeta, rows[i].index = meta, len(e.Meta) > 0, index
	}
	// Only rows are written: a run the engine aborted as a deadlock can
	// be run again.
	err := s.db.retry(ctx, func(ctx context.Context, q querier) error {
		err := s.db.d.insertRows(ctx, q, newRows(s.db.t.history, len(entries)).
			text("id", func(i int) string { return ids[i] }).
			text("content_type", func(i int) string { return entries[i].ContentType }).
			bigint("content_id", func(i int) int64 { return entries[i].ContentID }).
			text("content_subtype", func(i int) string { return entries[i].ContentSubtype }).
			nullText("meta", func(i int) (string, bool) { return rows[i].meta, rows[i].hasMeta }).
			text("meta_index", func(i int) string { return rows[i].index }).
			bigint("created_at", func(i int) int64 { return created[i].UnixMicro() }).
			text("created_day", func(i int) string { return created[i].UTC().Format(time.DateOnly) }))
		return fail(ctx, "adding history entries", err)
	})
	if err != nil {
		return err
	}
	for i := range entries {
		entries[i].ID = ids[i]
		entries[i].CreatedAt = created[i]
	}
	return nil
}

// Get implements history.Store.
func (s *historyStore) Get(ctx context.Context, id string) (history.Entry, error) {
	if err := ctx.Err(); err != nil {
		return history.Entry{}, err
	}
	var e history.Entry
	found := false
	err := queryEach(ctx, s.db.reader(ctx), s.db.stmt("SELECT "+historyCols+" FROM "+s.db.t.history+" WHERE id = ?"), []any{id},
		func(rows *sql.Rows) error {
			found = true
			var err error
			e, err = scanEntry(rows)
			return err
		})
	if err != nil {
		return history.Entry{}, fail(ctx, "reading a history entry", err)
	}
	if !found {
		return history.Entry{}, history.ErrNotFound
	}
	return e, nil
}

// scanEntry reads the historyCols of a row.
func scanEntry(rows *sql.Rows) (history.Entry, error) {
	var e history.Entry
	var meta sql.NullString
	var created int64
	if err := rows.Scan(&e.ID, &e.ContentType, &e.ContentID, &e.ContentSubtype, &meta, &created); err != nil {
		return e, err
	}
	e.CreatedAt = time.UnixMicro(created).UTC()
	if meta.Valid && meta.String != "" {
		if err := json.Unmarshal([]byte(meta.String), &e.Meta); err != nil {
			return e, fmt.Errorf("decoding the meta of history entry %s: %w", e.ID, err)
		}
	}
	return e, nil
}

// where returns the WHERE clause (with its leading " WHERE ", or empty)
// selecting what f selects, and its arguments.
func (s *historyStore) where(f history.Filter) (string, []any) {
	var conds []string
	var args []any
	if f.ContentType != "" {
		conds = append(conds, "content_type = ?")
		args = append(args, f.ContentType)
	}
	if len(f.ContentSubtypes) > 0 {
		c, a := s.db.d.inList("content_subtype", f.ContentSubtypes)
		conds = append(conds, c)
		args = append(args, a...)
	}
	if f.AfterContentID > 0 {
		conds = append(conds, "content_id > ?")
		args = append(args, f.AfterContentID)
	}
	if len(f.ContentIDs) > 0 {
		c, a := s.db.d.inList("content_id", f.ContentIDs)
		conds = append(conds, c)
		args = append(args, a...)
	}
	keys := make([]string, 0, len(f.MetaEquals))
	for k := range f.MetaEquals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if v := f.MetaEquals[k]; v != "" {
			conds = append(conds, s.db.d.contains("meta_index"))
			args = append(args, metaNeedle(k, v))
		} else {
			// An absent key, and one whose value formats as "", are left
			// out of the index.
			conds = append(conds, "NOT "+s.db.d.contains("meta_index"))
			args = append(args, metaKeyNeedle(k))
		}
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// List implements history.Store in two queries on one snapshot: the
// count of matching entries (left out with NoTotal), then the page, which
// the index on (created_at, seq) serves in order, or with ByContentID the
// one on (content_type, content_id).
func (s *historyStore) List(ctx context.Context, f history.Filter) ([]history.Entry, int, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	where, args := s.where(f)
	limit := int64(math.MaxInt64)
	if f.Limit > 0 {
		limit = int64(f.Limit)
	}
	offset := max(f.Offset, 0)
	countSQL := s.db.stmt("SELECT COUNT(*) FROM " + s.db.t.history + where)
	order := " ORDER BY created_at DESC, seq DESC"
	if f.ByContentID {
		order = " ORDER BY content_id, seq"
	}
	pageSQL := s.db.stmt("SELECT " + historyCols + " FROM " + s.db.t.history + where + order + " LIMIT ? OFFSET ?")
	var out []history.Entry
	total := 0
	err := s.db.readTx(ctx, func(ctx context.Context, q querier) error {
		out, total = nil, 0
		if f.NoTotal {
			out = make([]history.Entry, 0, min(limit, 1024))
		} else {
			if err := queryRow(ctx, q, countSQL, args, &total); err != nil {
				return err
			}
			if total <= offset {
				return nil
			}
			out = make([]history.Entry, 0, min(int64(total-offset), limit))
		}
		return queryEach(ctx, q, pageSQL, append(args, limit, offset), func(rows *sql.Rows) error {
			e, err := scanEntry(rows)
			out = append(out, e)
			return err
		})
	})
	if err != nil {
		return nil, 0, fail(ctx, "listing history", err)
	}
	return out, total, nil
}

// Delete implements history.Store.
func (s *historyStore) Delete(ctx context.Context, ids ...string) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if len(ids) == 0 {
		return 0, nil
	}
	uniq := slices.Clone(ids)
	slices.Sort(uniq)
	uniq = slices.Compact(uniq)
	cond, arg := s.db.d.inList("id", uniq)
	res, err := s.db.writer(ctx).ExecContext(ctx, s.db.stmt("DELETE FROM "+s.db.t.history+" WHERE "+cond), arg...)
	if err != nil {
		return 0, fail(ctx, "deleting history entries", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fail(ctx, "deleting history entries", err)
	}
	return int(n), nil
}

// Clear implements history.Store.
func (s *historyStore) Clear(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, err := s.db.writer(ctx).ExecContext(ctx, s.db.stmt("DELETE FROM "+s.db.t.history)); err != nil {
		return fail(ctx, "clearing history", err)
	}
	return nil
}

// Stats implements history.Store in two grouped queries, read in one
// transaction so that they agree.
func (s *historyStore) Stats(ctx context.Context, since time.Time) (history.Stats, error) {
	if err := ctx.Err(); err != nil {
		return history.Stats{}, err
	}
	st := history.Stats{ByType: map[string]int{}}
	read := func(ctx context.Context, q querier) error {
		err := queryEach(ctx, q, s.db.stmt("SELECT content_type, content_subtype, COUNT(*) FROM "+s.db.t.history+" GROUP BY content_type, content_subtype"), nil,
			func(rows *sql.Rows) error {
				var c history.SubtypeCount
				if err := rows.Scan(&c.ContentType, &c.ContentSubtype, &c.Count); err != nil {
					return err
				}
				st.Total += c.Count
				st.ByType[c.ContentType] += c.Count
				st.BySubtype = append(st.BySubtype, c)
				return nil
			})
		if err != nil {
			return err
		}
		var from int64 = math.MinInt64
		if !since.IsZero() {
			from = since.UnixMicro()
		}
		return queryEach(ctx, q, s.db.stmt("SELECT created_day, COUNT(*) FROM "+s.db.t.history+" WHERE created_at >= ? GROUP BY created_day ORDER BY created_day"), []any{from},
			func(rows *sql.Rows) error {
				var d history.DayCount
				if err := rows.Scan(&d.Date, &d.Count); err != nil {
					return err
				}
				st.Daily = append(st.Daily, d)
				return nil
			})
	}
	if err := s.db.readTx(ctx, read); err != nil {
		return history.Stats{}, fail(ctx, "reading history stats", err)
	}
	return st, nil
}

// readTx runs fn in a read-only snapshot: the transaction ctx carries, or
// a new read-only one on the reading pool.
func (db *DB) readTx(ctx context.Context, fn func(ctx context.Context, q querier) error) error {
	if ts := db.txOf(ctx); ts != nil {
		return fn(ctx, lockedTx{ts})
	}
	tx, err := db.r.BeginTx(ctx, db.d.readOnly())
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	if err := fn(ctx, tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil && !errors.Is(err, sql.ErrTxDone) {
		return err
	}
	return nil
}

// The meta index of an entry lists its top-level meta values formatted by
// history.MetaString, each as sep key kv value, between seps; keys whose
// value formats as "" are left out. Filter.MetaEquals becomes a substring
// test on it. The separators (and NUL, which PostgreSQL text cannot hold)
// are escaped inside keys and values, so a needle matches only a whole
// key and value.
const (
	metaSep = "\x1f"
	metaKV  = "\x1e"
)

var metaEscaper = strings.NewReplacer("\x1d", "\x1d0", "\x1e", "\x1d1", "\x1f", "\x1d2", "\x00", "\x1d3")

// metaEncoder encodes the meta of history entries: its JSON, as
// json.Marshal writes it, and its index. It reuses its buffers from one
// entry to the next.
type metaEncoder struct {
	keys       []string
	js, index  []byte
	indexBuild strings.Builder
}

// encode returns the JSON of m (as json.Marshal writes it; "null" for a
// nil map) and its meta index.
func (enc *metaEncoder) encode(m map[string]any) (js, index string, err error) {
	enc.keys = enc.keys[:0]
	for k := range m {
		enc.keys = append(enc.keys, k)
	}
	sort.Strings(enc.keys)
	enc.indexBuild.Reset()
	wrote := false
	for _, k := range enc.keys {
		v := history.MetaString(m[k])
		if v == "" {
			continue
		}
		enc.indexBuild.WriteString(metaSep)
		_, _ = metaEscaper.WriteString(&enc.indexBuild, k)
		enc.indexBuild.WriteString(metaKV)
		_, _ = metaEscaper.WriteString(&enc.indexBuild, v)
		wrote = true
	}
	if wrote {
		enc.indexBuild.WriteString(metaSep)
	}
	index = enc.indexBuild.String()
	if b, ok := enc.appendJSON(enc.js[:0], m); ok {
		enc.js = b
		return string(b), index, nil
	}
	b, err := json.Marshal(m)
	return string(b), index, err
}

// appendJSON appends the JSON of m, its keys in enc.keys, to b as
// json.Marshal writes it, when its values are of the kinds history meta
// usually holds (strings, booleans, integers, string lists, nil); ok is
// false for any other, which json.Marshal encodes instead.
func (enc *metaEncoder) appendJSON(b []byte, m map[string]any) (_ []byte, ok bool) {
	if m == nil {
		return append(b, "null"...), true
	}
	b = append(b, '{')
	for i, k := range enc.keys {
		if i > 0 {
			b = append(b, ',')
		}
		if b, ok = appendJSONString(b, k); !ok {
			return b, false
		}
		b = append(b, ':')
		switch v := m[k].(type) {
		case nil:
			b = append(b, "null"...)
		case string:
			if b, ok = appendJSONString(b, v); !ok {
				return b, false
			}
		case bool:
			b = strconv.AppendBool(b, v)
		case int:
			b = strconv.AppendInt(b, int64(v), 10)
		case int64:
			b = strconv.AppendInt(b, v, 10)
		case []string:
			if v == nil {
				b = append(b, "null"...)
				continue
			}
			b = append(b, '[')
			for j, s := range v {
				if j > 0 {
					b = append(b, ',')
				}
				if b, ok = appendJSONString(b, s); !ok {
					return b, false
				}
			}
			b = append(b, ']')
		default:
			return b, false
		}
	}
	return append(b, '}'), true
}

// appendJSONString appends s quoted, when it holds only printable ASCII
// that json.Marshal writes as it is (no '"', '\\', '<', '>' or '&');
// ok is false otherwise.
func appendJSONString(b []byte, s string) (_ []byte, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return b, false
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
}

// metaNeedle is the substring of the meta index of entries whose key k
// formats as v (not empty).
func metaNeedle(k, v string) string {
	return metaSep + metaEscaper.Replace(k) + metaKV + metaEscaper.Replace(v) + metaSep
}

// metaKeyNeedle is the substring of the meta index of entries that have
// key k with a value that does not format as "".
func metaKeyNeedle(k string) string {
	return metaSep + metaEscaper.Replace(k) + metaKV
}

// newEntryID returns a new entry ID: a UUID of version 7, which starts
// with the time, so that new IDs land at the end of the index.
func newEntryID() string {
	id, err := uuid.NewV7()
	if err != nil {
		return uuid.NewString()
	}
	return id.String()
}
