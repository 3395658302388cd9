package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/contentgen/contentgen/contentgen"
)

// Compile-time checks of the interfaces Host implements.
var (
	_ contentgen.Host       = (*Host)(nil)
	_ contentgen.Trasher    = (*Host)(nil)
	_ contentgen.Transactor = (*Host)(nil)
	_ contentgen.Exister    = (*Host)(nil)
)

// ErrInvalid is wrapped by the errors of Host writes whose input breaks a
// rule of the host: an unknown post type, taxonomy, role or status, or a
// registration with a bad name.
var ErrInvalid = errors.New("sqlstore: invalid input")

// HostOptions configures a Host. The zero value (or nil) gives the
// defaults.
type HostOptions struct {
	// Site describes the installation; an empty Name is "contentgen", an
	// empty URL "http://localhost:8080" (a trailing slash is removed), an
	// empty AdminURL the URL plus "/wp-admin", an empty Locale "en_US".
	Site contentgen.Site
	// MediaDir is the directory the bytes of media items are kept in
	// (see StoreMedia); empty keeps records only. It belongs to the
	// database: every file in it that no record names is removed by
	// SweepMedia, which a server should call when it starts.
	MediaDir string
	// MediaURL is the address the files of MediaDir are served at; empty
	// means the site URL plus "/uploads" (see Files).
	MediaURL string
}

// Host is a contentgen.Host over the database: the content platform kept
// in SQL, in the same database (and, through InTx, the same transactions)
// as the history. Post types, taxonomies and roles are registered
// configuration, kept in the database. It implements Trasher, Transactor
// and Exister. It is safe for concurrent use; every write is one
// transaction, so a failing batch stores nothing and readers never see
// part of one.
type Host struct {
	db    *DB
	site  contentgen.Site
	files files
	// ts is the transaction of a Host handed out by InTx, nil otherwise.
	ts *txState
}

// Host returns the content host of the database.
func (db *DB) Host(opts *HostOptions) *Host {
	var o HostOptions
	if opts != nil {
		o = *opts
	}
	site := o.Site
	if site.Name == "" {
		site.Name = "contentgen"
	}
	if site.URL == "" {
		site.URL = "http://localhost:8080"
	}
	site.URL = strings.TrimRight(site.URL, "/")
	if site.AdminURL == "" {
		site.AdminURL = site.URL + "/wp-admin"
	}
	if site.Locale == "" {
		site.Locale = "en_US"
	}
	f := files{dir: o.MediaDir, url: strings.TrimRight(o.MediaURL, "/")}
	if f.url == "" {
		f.url = site.URL + "/uploads"
	}
	return &Host{db: db, site: site, files: f}
}

// errTxEnded is returned by a Host of InTx used after its transaction.
var errTxEnded = errors.New("sqlstore: host of a transaction used after it ended")

// reader returns where the host's reads run.
func (h *Host) reader(ctx context.Context) (querier, error) {
	if h.ts != nil {
		if h.ts.ended() {
			return nil, errTxEnded
		}
		return lockedTx{h.ts}, nil
	}
	return h.db.reader(ctx), nil
}

// write runs fn in a transaction: the Host's own, the one ctx carries, or
// a new one. In a new one, fn is run again when the engine aborted it as
// a deadlock or serialisation failure (see DB.retry): the Host's writes
// only touch the database, so running them again is safe.
func (h *Host) write(ctx context.Context, fn func(ctx context.Context, q querier) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if h.ts != nil {
		if h.ts.ended() {
			return errTxEnded
		}
		ctx = context.WithValue(ctx, txKey{}, h.ts)
	}
	return h.db.retry(ctx, fn)
}

func (ts *txState) ended() bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.done
}

// InTx implements contentgen.Transactor: fn runs in one transaction of the
// database, which the other stores of the DB join when called with the
// context fn receives, so content and its history commit together. Nested
// calls run in savepoints.
func (h *Host) InTx(ctx context.Context, fn func(ctx context.Context, tx contentgen.Host) error) error {
	if fn == nil {
		return fmt.Errorf("%w: nil transaction function", ErrInvalid)
	}
	return h.write(ctx, func(ctx context.Context, _ querier) error {
		return fn(ctx, &Host{db: h.db, site: h.site, files: h.files, ts: h.db.txOf(ctx)})
	})
}

// Registration.

const (
	regPostType = "post_type"
	regTaxonomy = "taxonomy"
	regRole     = "role"
)

var validNameRE = regexp.MustCompile(`^[a-z0-9_-]+$`)

func validName(name string, max int) bool {
	return len(name) <= max && validNameRE.MatchString(name)
}

// register stores the configuration of a post type, taxonomy or role,
// replacing an earlier one of the same name (which keeps its position).
func (h *Host) register(ctx context.Context, kind, name string, config any) error {
	b, err := json.Marshal(config)
	if err != nil {
		return fmt.Errorf("sqlstore: encoding %s %q: %w", kind, name, err)
	}
	return h.write(ctx, func(ctx context.Context, q querier) error {
		var pos int64
		if err := queryRow(ctx, q, h.db.stmt("SELECT COUNT(*) FROM "+h.db.t.hostRegistry+" WHERE kind = ?"), []any{kind}, &pos); err != nil {
			return fail(ctx, "registering "+kind, err)
		}
		_, err := q.ExecContext(ctx, h.db.stmt("INSERT INTO "+h.db.t.hostRegistry+` (kind, name, position, config) VALUES (?, ?, ?, ?)`+
			h.db.d.upsert([]string{"kind", "name"}, []string{"config"})), kind, name, pos, string(b))
		if l, ok := q.(lockedTx); ok {
			// The transaction's reads of the registry see the change.
			l.ts.mu.Lock()
			l.ts.registry = nil
			l.ts.mu.Unlock()
		}
		return fail(ctx, "registering "+kind, err)
	})
}

// RegisterPostType registers pt, or replaces the registration of its
// name. The name must be 1-20 characters of a-z, 0-9, '_' and '-'; Label
// defaults to the name; Count is ignored. Taxonomies may name taxonomies
// registered later; a taxonomy that lists the post type is linked to it
// either way.
func (h *Host) RegisterPostType(ctx context.Context, pt contentgen.PostType) error {
	if !validName(pt.Name, 20) {
		return fmt.Errorf("%w: post type name %q must be 1-20 characters of a-z, 0-9, _ and -", ErrInvalid, pt.Name)
	}
	if pt.Label == "" {
		pt.Label = pt.Name
	}
	pt.Count = nil
	return h.register(ctx, regPostType, pt.Name, pt)
}

// RegisterTaxonomy registers tax, or replaces the registration of its
// name. The name must be 1-32 characters of a-z, 0-9, '_' and '-'; Label
// defaults to the name; Count is ignored.
func (h *Host) RegisterTaxonomy(ctx context.Context, tax contentgen.Taxonomy) error {
	if !validName(tax.Name, 32) {
		return fmt.Errorf("%w: taxonomy name %q must be 1-32 characters of a-z, 0-9, _ and -", ErrInvalid, tax.Name)
	}
	if tax.Label == "" {
		tax.Label = tax.Name
	}
	tax.Count = 0
	return h.register(ctx, regTaxonomy, tax.Name, tax)
}

// RegisterRole registers a role, or replaces the registration of its slug
// (1-64 characters of a-z, 0-9, '_' and '-').
func (h *Host) RegisterRole(ctx context.Context, r contentgen.Role) error {
	if !validName(r.Slug, 64) {
		return fmt.Errorf("%w: role slug %q must be 1-64 characters of a-z, 0-9, _ and -", ErrInvalid, r.Slug)
	}
	return h.register(ctx, regRole, r.Slug, r)
}

// registered reads the configurations of kind in registration order.
func registered[T any](ctx context.Context, h *Host, q querier, kind string) ([]T, error) {
	all, err := h.registry(ctx, q)
	if err != nil {
		return nil, err
	}
	return decodeRegistered[T](all, kind)
}

// decodeRegistered decodes the configurations of kind that registry read.
func decodeRegistered[T any](all map[string][]string, kind string) ([]T, error) {
	out := make([]T, 0, len(all[kind]))
	for _, b := range all[kind] {
		var v T
		if err := json.Unmarshal([]byte(b), &v); err != nil {
			return nil, fmt.Errorf("sqlstore: decoding a registered %s: %w", kind, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// registry reads the configurations of every kind, each in registration
// order, in one query. In a transaction it reads them once: the
// transaction keeps them until it registers something or rolls back to
// a savepoint. Registrations of other transactions that commit meanwhile
// are not seen then, as if the one read had come a little later.
func (h *Host) registry(ctx context.Context, q querier) (map[string][]string, error) {
	l, inTx := q.(lockedTx)
	if inTx {
		l.ts.mu.Lock()
		cached := l.ts.registry
		l.ts.mu.Unlock()
		if cached != nil {
			return cached, nil
		}
	}
	all := map[string][]string{}
	err := queryEach(ctx, q, h.db.stmt("SELECT kind, config FROM "+h.db.t.hostRegistry+" ORDER BY kind, position, name"), nil,
		func(rows *sql.Rows) error {
			var kind, b string
			if err := rows.Scan(&kind, &b); err != nil {
				return err
			}
			all[kind] = append(all[kind], b)
			return nil
		})
	if err != nil {
		return nil, fail(ctx, "reading the registrations", err)
	}
	if inTx {
		l.ts.mu.Lock()
		l.ts.registry = all
		l.ts.mu.Unlock()
	}
	return all, nil
}

// Discovery.

// Site implements contentgen.Host.
func (h *Host) Site(ctx context.Context) (contentgen.Site, error) {
	if err := ctx.Err(); err != nil {
		return contentgen.Site{}, err
	}
	return h.site, nil
}

// Roles implements contentgen.Host.
func (h *Host) Roles(ctx context.Context) ([]contentgen.Role, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	q, err := h.reader(ctx)
	if err != nil {
		return nil, err
	}
	return registered[contentgen.Role](ctx, h, q, regRole)
}

// PostTypes implements contentgen.Host: the registered post types, each
// linked to the taxonomies it lists or that list it, with its posts
// counted by status in one grouped query.
func (h *Host) PostTypes(ctx context.Context) ([]contentgen.PostType, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	q, err := h.reader(ctx)
	if err != nil {
		return nil, err
	}
	var types []contentgen.PostType
	var taxes []contentgen.Taxonomy
	counts := map[string]map[string]int{}
	// The registrations and the counts need not come from one snapshot,
	// so that two queries serve without a transaction of their own.
	err = func() error {
		all, err := h.registry(ctx, q)
		if err != nil {
			return err
		}
		if types, err = decodeRegistered[contentgen.PostType](all, regPostType); err != nil {
			return err
		}
		if taxes, err = decodeRegistered[contentgen.Taxonomy](all, regTaxonomy); err != nil {
			return err
		}
		return queryEach(ctx, q, h.db.stmt("SELECT type, status, COUNT(*) FROM "+h.db.t.posts+" GROUP BY type, status"), nil, func(rows *sql.Rows) error {
			var typ, status string
			var n int
			if err := rows.Scan(&typ, &status, &n); err != nil {
				return err
			}
			if counts[typ] == nil {
				counts[typ] = map[string]int{}
			}
			counts[typ][status] = n
			return nil
		})
	}()
	if err != nil {
		return nil, fail(ctx, "reading post types", err)
	}
	for i := range types {
		pt := &types[i]
		for _, tx := range taxes {
			if slices.Contains(tx.PostTypes, pt.Name) && !slices.Contains(pt.Taxonomies, tx.Name) {
				pt.Taxonomies = append(pt.Taxonomies, tx.Name)
			}
		}
		pt.Count = counts[pt.Name]
		if pt.Count == nil {
			pt.Count = map[string]int{}
		}
	}
	return types, nil
}

// Taxonomies implements contentgen.Host: the registered taxonomies, each
// linked to the post types it lists or that list it, with its terms
// counted in one grouped query.
func (h *Host) Taxonomies(ctx context.Context) ([]contentgen.Taxonomy, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	q, err := h.reader(ctx)
	if err != nil {
		return nil, err
	}
	var types []contentgen.PostType
	var taxes []contentgen.Taxonomy
	counts := map[string]int{}
	// As in PostTypes, without a transaction of their own.
	err = func() error {
		all, err := h.registry(ctx, q)
		if err != nil {
			return err
		}
		if types, err = decodeRegistered[contentgen.PostType](all, regPostType); err != nil {
			return err
		}
		if taxes, err = decodeRegistered[contentgen.Taxonomy](all, regTaxonomy); err != nil {
			return err
		}
		return queryEach(ctx, q, h.db.stmt("SELECT taxonomy, COUNT(*) FROM "+h.db.t.terms+" GROUP BY taxonomy"), nil, func(rows *sql.Rows) error {
			var tax string
			var n int
			if err := rows.Scan(&tax, &n); err != nil {
				return err
			}
			counts[tax] = n
			return nil
		})
	}()
	if err != nil {
		return nil, fail(ctx, "reading taxonomies", err)
	}
	for i := range taxes {
		tx := &taxes[i]
		for _, pt := range types {
			if slices.Contains(pt.Taxonomies, tx.Name) && !slices.Contains(tx.PostTypes, pt.Name) {
				tx.PostTypes = append(tx.PostTypes, pt.Name)
			}
		}
		tx.Count = counts[tx.Name]
	}
	return taxes, nil
}

// readTxOn runs fn on one snapshot: q when it is a transaction, else a
// new read-only transaction.
func (db *DB) readTxOn(ctx context.Context, q querier, fn func(ctx context.Context, q querier) error) error {
	if _, ok := q.(lockedTx); ok {
		return fn(ctx, q)
	}
	return db.readTx(ctx, fn)
}

// Query building.

// where collects the conditions of a query and their arguments.
type where struct {
	d dialect
	// meta is the name of the meta table.
	meta  string
	conds []string
	args  []any
	// none is set when a condition selects nothing (an empty IDs filter).
	none bool
}

// where starts the conditions of a query of the Host.
func (h *Host) where() *where { return &where{d: h.db.d, meta: h.db.t.meta} }

func (w *where) add(cond string, args ...any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
}

func (w *where) ids(col string, f contentgen.IDFilter) {
	if !f.Active() {
		return
	}
	if len(f.List()) == 0 {
		w.none = true
		return
	}
	c, a := w.d.inList(col, slices.Clone(f.List()))
	w.add(c, a...)
}

func (w *where) strs(col string, list []string) {
	if len(list) == 0 {
		return
	}
	c, a := w.d.inList(col, slices.Clone(list))
	w.add(c, a...)
}

// hasMeta keeps objects of kind (whose id is in idCol) having key, with
// value when it is not empty.
func (w *where) hasMeta(kind contentgen.ObjectKind, idCol, key, value string) {
	if key == "" {
		return
	}
	if value == "" {
		w.add("EXISTS (SELECT 1 FROM "+w.meta+" m WHERE m.kind = ? AND m.object_id = "+idCol+" AND m.meta_key = ?)", string(kind), key)
		return
	}
	w.add("EXISTS (SELECT 1 FROM "+w.meta+" m WHERE m.kind = ? AND m.object_id = "+idCol+" AND m.meta_key = ? AND m.meta_value = ?)", string(kind), key, value)
}

// search keeps rows where one of cols contains s, ignoring case.
func (w *where) search(s string, cols ...string) {
	if s == "" {
		return
	}
	pattern := "%" + likeEscaper.Replace(strings.ToLower(s)) + "%"
	parts := make([]string, len(cols))
	args := make([]any, len(cols))
	for i, c := range cols {
		parts[i] = "LOWER(" + c + ") LIKE ? ESCAPE '\\'"
		args[i] = pattern
	}
	w.add("("+strings.Join(parts, " OR ")+")", args...)
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// sql returns " WHERE ..." (or "") and the arguments.
func (w *where) sql() string {
	if len(w.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(w.conds, " AND ")
}

// page returns the ORDER BY id, LIMIT and OFFSET of a query and appends
// their arguments.
func (w *where) page(limit, offset int) string {
	l := int64(math.MaxInt64)
	if limit > 0 {
		l = int64(limit)
	}
	w.args = append(w.args, l, int64(max(offset, 0)))
	return " ORDER BY id LIMIT ? OFFSET ?"
}

// Times.

func encDate(t time.Time) int64 {
	if t.IsZero() {
		return math.MinInt64
	}
	return t.UnixMicro()
}

func decDate(v int64) time.Time {
	if v == math.MinInt64 {
		return time.Time{}
	}
	return time.UnixMicro(v).UTC()
}

// SQLBatchSize is the batch size a Host asks of the Generator (see
// Host.Capabilities): a batch is one transaction, and in SQL fewer,
// larger ones cost less per item (a batch of 250 posts holds SQLite's
// write lock for a few tens of milliseconds).
const SQLBatchSize = 250

var _ contentgen.Describer = (*Host)(nil)

// Capabilities says that the host keeps the Generator's history,
// templates and state in its database, so that contentgen.New(host, nil,
// cfg) builds a Generator whose batches commit with their history
// entries in one transaction; that it keeps media files only with a
// HostOptions.MediaDir; and that batches of SQLBatchSize suit it.
func (h *Host) Capabilities() contentgen.Capabilities {
	return contentgen.Capabilities{
		History: h.db.History(), Templates: h.db.Templates(), State: h.db.State(),
		MediaRecordsOnly: h.files.dir == "",
		BatchSize:        SQLBatchSize,
	}
}
