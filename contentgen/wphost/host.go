package wphost

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/go-sql-driver/mysql"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// Host is the contentgen.Host over a WordPress site's tables. It is safe
// for concurrent use. Its transactions (InTx) are those of the site's
// sqlstore.DB, so the history of a Generator built with
// contentgen.New(site.Host(), nil, cfg) joins them.
type Host struct{ s *Site }

var (
	_ contentgen.Host        = (*Host)(nil)
	_ contentgen.Transactor  = (*Host)(nil)
	_ contentgen.Exister     = (*Host)(nil)
	_ contentgen.Trasher     = (*Host)(nil)
	_ contentgen.MediaStorer = (*Host)(nil)
	_ contentgen.Describer   = (*Host)(nil)
)

// Capabilities says that the host keeps the Generator's history,
// templates and state in the site's database (tables named with the
// site's prefix and "contentgen_"), so that contentgen.New(site.Host(),
// nil, cfg) builds a Generator whose batches commit with their history
// entries in one transaction; that it keeps media files only with
// Options.Uploads (without it, generated images are recorded by their
// URLs, and images without one are left out with a warning); and that
// batches of sqlstore.SQLBatchSize suit it.
func (h *Host) Capabilities() contentgen.Capabilities {
	db := h.s.db
	return contentgen.Capabilities{
		History: db.History(), Templates: db.Templates(), State: db.State(),
		MediaRecordsOnly: h.s.o.Uploads == "",
		BatchSize:        sqlstore.SQLBatchSize,
	}
}

// Site describes the installation from its options.
func (h *Host) Site(ctx context.Context) (contentgen.Site, error) {
	if err := ctx.Err(); err != nil {
		return contentgen.Site{}, err
	}
	return h.s.info, nil
}

// PostTypes lists the post types the site registers in REST, with live
// counts per status from the database.
func (h *Host) PostTypes(ctx context.Context) ([]contentgen.PostType, error) {
	counts := map[string]map[string]int{}
	err := h.q(ctx).QueryEach(ctx, "SELECT post_type, post_status, COUNT(*) FROM "+h.s.t.posts+" GROUP BY post_type, post_status", nil,
		func(r *sql.Rows) error {
			var typ, status string
			var n int
			if err := r.Scan(&typ, &status, &n); err != nil {
				return err
			}
			if counts[typ] == nil {
				counts[typ] = map[string]int{}
			}
			counts[typ][status] = n
			return nil
		})
	if err != nil {
		return nil, h.fail(ctx, "counting posts", err)
	}
	h.s.mu.RLock()
	defer h.s.mu.RUnlock()
	out := make([]contentgen.PostType, 0, len(h.s.typeList))
	for _, name := range h.s.typeList {
		pt := h.s.types[name]
		pt.Labels = maps.Clone(pt.Labels)
		pt.Supports = slices.Clone(pt.Supports)
		pt.Taxonomies = slices.Clone(pt.Taxonomies)
		pt.Count = counts[name]
		if pt.Count == nil {
			pt.Count = map[string]int{}
		}
		out = append(out, pt)
	}
	return out, nil
}

// Taxonomies lists the taxonomies the site registers in REST, with live
// term counts.
func (h *Host) Taxonomies(ctx context.Context) ([]contentgen.Taxonomy, error) {
	counts := map[string]int{}
	err := h.q(ctx).QueryEach(ctx, "SELECT taxonomy, COUNT(*) FROM "+h.s.t.termTaxonomy+" GROUP BY taxonomy", nil,
		func(r *sql.Rows) error {
			var tax string
			var n int
			if err := r.Scan(&tax, &n); err != nil {
				return err
			}
			counts[tax] = n
			return nil
		})
	if err != nil {
		return nil, h.fail(ctx, "counting terms", err)
	}
	h.s.mu.RLock()
	defer h.s.mu.RUnlock()
	out := make([]contentgen.Taxonomy, 0, len(h.s.taxList))
	for _, name := range h.s.taxList {
		tx := h.s.taxes[name]
		tx.Labels = maps.Clone(tx.Labels)
		tx.PostTypes = slices.Clone(tx.PostTypes)
		tx.Count = counts[name]
		out = append(out, tx)
	}
	return out, nil
}

// Roles lists the roles of the {prefix}user_roles option.
func (h *Host) Roles(ctx context.Context) ([]contentgen.Role, error) {
	roles, err := h.roles(ctx, h.q(ctx))
	if err != nil {
		return nil, err
	}
	out := make([]contentgen.Role, len(roles))
	for i, r := range roles {
		out[i] = contentgen.Role{Slug: r.slug, Name: r.name, Capabilities: slices.Clone(r.caps)}
	}
	return out, nil
}

// role is a role of the user_roles option.
type role struct {
	slug, name string
	caps       []string
	level      int
}

// roles reads and decodes the user_roles option.
func (h *Host) roles(ctx context.Context, q sqlstore.Querier) ([]role, error) {
	name := h.s.t.prefix + "user_roles"
	opts, err := h.s.options(ctx, q, name)
	if err != nil {
		return nil, h.fail(ctx, "reading the roles", err)
	}
	v, err := phpUnserialize(opts[name])
	if err != nil {
		return nil, fmt.Errorf("wphost: the option %s: %w", name, err)
	}
	arr, _ := v.(phpArray)
	var out []role
	for _, e := range arr {
		slug, ok := e.Key.(string)
		if !ok {
			continue
		}
		r := role{slug: slug}
		def, _ := e.Value.(phpArray)
		if n, ok := def.get("name"); ok {
			r.name, _ = n.(string)
		}
		caps, _ := def.get("capabilities")
		capArr, _ := caps.(phpArray)
		for _, c := range capArr {
			k, ok := c.Key.(string)
			if !ok || !phpTruthy(c.Value) {
				continue
			}
			r.caps = append(r.caps, k)
			if lv, ok := strings.CutPrefix(k, "level_"); ok {
				if n, err := strconv.Atoi(lv); err == nil && n > r.level {
					r.level = n
				}
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// phpTruthy reports whether a PHP value is true in a boolean context.
func phpTruthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int64:
		return x != 0
	case float64:
		return x != 0
	case string:
		return x != "" && x != "0"
	case phpArray:
		return len(x) > 0
	}
	return false
}

// InTx runs fn in one transaction of the site's database; fn receives
// this Host, and the context it receives carries the transaction (also
// for the history, templates and state of Site.DB).
func (h *Host) InTx(ctx context.Context, fn func(ctx context.Context, tx contentgen.Host) error) error {
	if fn == nil {
		return fmt.Errorf("%w: InTx with a nil function", ErrInvalid)
	}
	return h.s.db.InTx(ctx, func(ctx context.Context) error { return fn(ctx, h) })
}

// Exist reports, per id in order, whether an object of kind exists.
func (h *Host) Exist(ctx context.Context, kind contentgen.ObjectKind, ids []int64) ([]bool, error) {
	out := make([]bool, len(ids))
	if len(ids) == 0 {
		return out, ctx.Err()
	}
	var query string
	uniq := dedupe(ids)
	in := marks(len(uniq))
	switch kind {
	case contentgen.KindPost:
		query = "SELECT ID FROM " + h.s.t.posts + " WHERE ID IN (" + in + ") AND post_type NOT IN ('attachment', 'revision')"
	case contentgen.KindMedia:
		query = "SELECT ID FROM " + h.s.t.posts + " WHERE ID IN (" + in + ") AND post_type = 'attachment'"
	case contentgen.KindTerm:
		query = "SELECT term_id FROM " + h.s.t.termTaxonomy + " WHERE term_id IN (" + in + ")"
	case contentgen.KindUser:
		query = "SELECT ID FROM " + h.s.t.users + " WHERE ID IN (" + in + ")"
	case contentgen.KindComment:
		query = "SELECT comment_ID FROM " + h.s.t.comments + " WHERE comment_ID IN (" + in + ")"
	default:
		return nil, fmt.Errorf("%w: unknown object kind %q", ErrInvalid, kind)
	}
	found, err := h.idSet(ctx, h.q(ctx), query, int64Args(uniq))
	if err != nil {
		return nil, h.fail(ctx, "checking existence", err)
	}
	for i, id := range ids {
		out[i] = found[id]
	}
	return out, nil
}

// q returns the querier of the transaction in ctx, or of the pool.
func (h *Host) q(ctx context.Context) sqlstore.Querier { return h.s.db.Querier(ctx) }

// write runs fn in a transaction (a savepoint of the one ctx carries).
func (h *Host) write(ctx context.Context, what string, fn func(ctx context.Context, q sqlstore.Querier) error) error {
	return h.fail(ctx, what, h.s.db.InTxWith(ctx, fn))
}

// lockWrites takes the row lock that serialises contentgen's writes that
// need unique values (slugs, logins, e-mail addresses), held until the
// transaction ends; WordPress's tables have no unique keys for them.
func (h *Host) lockWrites(ctx context.Context, q sqlstore.Querier) error {
	return q.QueryEach(ctx, "SELECT name FROM "+h.s.t.lock+" WHERE name = 'write' FOR UPDATE", nil, func(*sql.Rows) error { return nil })
}

// fail wraps err with what was being done; the context's error when ctx
// is done; a duplicate key becomes ErrHostConflict.
func (h *Host) fail(ctx context.Context, what string, err error) error {
	if err == nil {
		return nil
	}
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("wphost: %s: %w", what, errors.Join(cerr, err))
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) && me.Number == 1062 && !errors.Is(err, contentgen.ErrHostConflict) {
		return fmt.Errorf("wphost: %s: %w: %w", what, contentgen.ErrHostConflict, err)
	}
	if strings.HasPrefix(err.Error(), "wphost: ") {
		return err
	}
	return fmt.Errorf("wphost: %s: %w", what, err)
}

// idSet runs a query returning one id column and returns the set.
func (h *Host) idSet(ctx context.Context, q sqlstore.Querier, query string, args []any) (map[int64]bool, error) {
	out := map[int64]bool{}
	err := q.QueryEach(ctx, query, args, func(r *sql.Rows) error {
		var id int64
		if err := r.Scan(&id); err != nil {
			return err
		}
		out[id] = true
		return nil
	})
	return out, err
}

// insertIDs inserts n rows into table in multi-row statements and returns
// their ids in order: consecutive from each statement's first id where
// the server's auto-increment mode guarantees it, else one statement per
// row.
func (h *Host) insertIDs(ctx context.Context, q sqlstore.Querier, table string, cols []string, n int, row func(i int) []any) ([]int64, error) {
	ids := make([]int64, 0, n)
	if !h.s.consecutive {
		for i := range n {
			res, err := q.ExecContext(ctx, "INSERT INTO "+table+" ("+strings.Join(cols, ", ")+") VALUES ("+marks(len(cols))+")", row(i)...)
			if err != nil {
				return nil, err
			}
			id, err := res.LastInsertId()
			if err != nil {
				return nil, err
			}
			ids = append(ids, id)
		}
		return ids, nil
	}
	err := insertRows(ctx, q, table, cols, n, row, func(first int64, rows int) {
		for i := range rows {
			ids = append(ids, first+int64(i))
		}
	})
	return ids, err
}

// maxStatementBytes bounds one multi-row INSERT (well under MariaDB's
// default max_allowed_packet of 16 MiB).
const maxStatementBytes = 4 << 20

// insertRows inserts n rows in multi-row statements of at most 1,000
// rows and about 4 MiB; done, when not nil, gets each statement's first
// id and row count.
func insertRows(ctx context.Context, q sqlstore.Querier, table string, cols []string, n int, row func(i int) []any, done func(first int64, rows int)) error {
	head := "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES "
	tuple := "(" + marks(len(cols)) + ")"
	var b strings.Builder
	var args []any
	for start := 0; start < n; {
		b.Reset()
		args = args[:0]
		b.WriteString(head)
		size, i := 0, start
		for ; i < n && i-start < 1000 && (i == start || size < maxStatementBytes); i++ {
			if i > start {
				b.WriteByte(',')
			}
			b.WriteString(tuple)
			vals := row(i)
			for _, v := range vals {
				if s, ok := v.(string); ok {
					size += len(s) + 3
				} else {
					size += 12
				}
			}
			args = append(args, vals...)
		}
		res, err := q.ExecContext(ctx, b.String(), args...)
		if err != nil {
			return err
		}
		if done != nil {
			first, err := res.LastInsertId()
			if err != nil {
				return err
			}
			done(first, i-start)
		}
		start = i
	}
	return nil
}

// marks returns n comma-separated placeholders.
func marks(n int) string {
	if n <= 0 {
		return "NULL"
	}
	return "?" + strings.Repeat(",?", n-1)
}

// int64Args returns ids as statement arguments.
func int64Args(ids []int64) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// dedupe returns the distinct positive ids, in first-seen order.
func dedupe(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if id > 0 && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// likeArg returns s as a LIKE pattern matching it anywhere, with the
// escape character '!'.
func likeArg(s string) string {
	r := strings.NewReplacer("!", "!!", "%", "!%", "_", "!_")
	return "%" + r.Replace(s) + "%"
}

// invalidf returns an error wrapping ErrInvalid.
func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

// missingf returns an error wrapping contentgen.ErrHostReference.
func missingf(format string, args ...any) error {
	return fmt.Errorf("wphost: %w: "+format, append([]any{contentgen.ErrHostReference}, args...)...)
}

// conflictf returns an error wrapping contentgen.ErrHostConflict.
func conflictf(format string, args ...any) error {
	return fmt.Errorf("wphost: %w: "+format, append([]any{contentgen.ErrHostConflict}, args...)...)
}
