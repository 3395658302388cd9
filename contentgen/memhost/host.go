package memhost

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/contentgen/contentgen/contentgen"
)

// Compile-time checks of the interfaces Host implements.
var (
	_ contentgen.Host        = (*Host)(nil)
	_ contentgen.Trasher     = (*Host)(nil)
	_ contentgen.Transactor  = (*Host)(nil)
	_ contentgen.Exister     = (*Host)(nil)
	_ contentgen.MediaStorer = (*Host)(nil)
)

// ErrInvalid is wrapped by the errors of writes whose input breaks a rule of
// the host: an unknown post type, taxonomy, role or status, a reference to
// a missing object, or a registration with a bad name.
var ErrInvalid = errors.New("memhost: invalid input")

// ErrTxDone is returned by a transaction-bound Host used after its
// transaction ended.
var ErrTxDone = errors.New("memhost: transaction has already ended")

// Default site settings, used for the zero fields of Options.Site.
const (
	// DefaultSiteName is the default Site.Name.
	DefaultSiteName = "Demo Site"
	// DefaultSiteURL is the default Site.URL.
	DefaultSiteURL = "http://localhost:8080"
	// DefaultLocale is the default Site.Locale.
	DefaultLocale = "en_US"
)

// Options configures a Host. The zero value (or nil) gives the defaults.
type Options struct {
	// Site describes the installation; zero fields take DefaultSiteName,
	// DefaultSiteURL, the site URL plus "/wp-admin" and DefaultLocale.
	Site contentgen.Site
	// Roles are the registered roles; nil means StandardRoles().
	Roles []contentgen.Role
	// Now is the clock used for default dates and upload paths;
	// nil means time.Now.
	Now func() time.Time
}

// Host is an in-memory contentgen.Host. It is safe for concurrent use; a
// write is all-or-nothing and readers never see part of one. The zero value
// is not usable: call New (package demosite builds a demo site on one).
//
// The Host returned to the function of InTx is bound to the transaction;
// it shares the methods of Host but cannot register types.
type Host struct {
	// mu guards st; the transaction-bound Hosts of InTx use tx instead.
	mu  sync.RWMutex
	st  *state
	now func() time.Time
	// root is the Host owning st: itself, or the Host whose InTx made
	// this transaction-bound Host.
	root *Host
	tx   *txn
}

// txn is an open transaction or savepoint of a Host.
type txn struct {
	// mu serialises the calls made inside the transaction, which run while
	// root.mu is held by InTx; savepoints share the mutex of their
	// transaction. It also guards done.
	mu     *sync.Mutex
	done   bool
	parent *txn
	root   *Host
}

// open returns t or its innermost enclosing transaction still open, nil
// when none is. t.mu must be held.
func (t *txn) open() *txn {
	for ; t != nil; t = t.parent {
		if !t.done {
			return t
		}
	}
	return nil
}

// txKey is the context key under which InTx passes its transaction, so that
// calls made on the root Host with that context join it.
type txKey struct{}

// New returns an empty Host: no post types, taxonomies or content, the
// site of opts and its roles. Register types with RegisterPostType and
// RegisterTaxonomy, or use package demosite for a ready site.
func New(opts *Options) *Host {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Site.Name == "" {
		o.Site.Name = DefaultSiteName
	}
	o.Site.URL = strings.TrimRight(o.Site.URL, "/")
	if o.Site.URL == "" {
		o.Site.URL = DefaultSiteURL
	}
	if o.Site.AdminURL == "" {
		o.Site.AdminURL = o.Site.URL + "/wp-admin"
	}
	if o.Site.Locale == "" {
		o.Site.Locale = DefaultLocale
	}
	if o.Roles == nil {
		o.Roles = StandardRoles()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	st := newState()
	st.site = o.Site
	if u, err := url.Parse(o.Site.URL); err == nil {
		st.sitePath = strings.TrimRight(u.Path, "/")
	}
	for _, r := range o.Roles {
		st.roles = append(st.roles, cloneRole(r))
	}
	h := &Host{st: st, now: o.Now}
	h.root = h
	return h
}

// validName reports whether name is 1 to maxLen lower-case letters, digits,
// '_' and '-', the rule for post type and taxonomy names.
func validName(name string, maxLen int) bool {
	if name == "" || len(name) > maxLen {
		return false
	}
	for _, r := range name {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' && r != '-' {
			return false
		}
	}
	return true
}

// RegisterPostType adds a post type. The name must be 1-20 characters of
// a-z, 0-9, '_' and '-'; a registered name fails with an error wrapping
// contentgen.ErrHostConflict. Label defaults to the name; Count is ignored.
// Taxonomies may name taxonomies registered later: the link between a post
// type and a taxonomy holds when either side lists the other. Do not call
// it from inside InTx: it waits for the transaction to end.
func (h *Host) RegisterPostType(pt contentgen.PostType) error {
	if !validName(pt.Name, 20) {
		return fmt.Errorf("%w: post type name %q must be 1-20 characters of a-z, 0-9, _ and -", ErrInvalid, pt.Name)
	}
	if h.tx != nil {
		return fmt.Errorf("%w: cannot register a post type inside a transaction", ErrInvalid)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	st := h.st
	if st.postType(pt.Name) != nil {
		return fmt.Errorf("%w: post type %q is already registered", contentgen.ErrHostConflict, pt.Name)
	}
	c := clonePostType(&pt)
	c.Count = nil
	if c.Label == "" {
		c.Label = c.Name
	}
	c.Taxonomies = slices.Compact(c.Taxonomies)
	for _, tx := range st.taxonomies {
		listsTax := slices.Contains(c.Taxonomies, tx.Name)
		listsType := slices.Contains(tx.PostTypes, c.Name)
		if listsTax && !listsType {
			tx.PostTypes = append(tx.PostTypes, c.Name)
		}
		if listsType && !listsTax {
			c.Taxonomies = append(c.Taxonomies, tx.Name)
		}
	}
	st.postTypes = append(st.postTypes, &c)
	return nil
}

// RegisterTaxonomy adds a taxonomy. The name must be 1-32 characters of
// a-z, 0-9, '_' and '-'; a registered name fails with an error wrapping
// contentgen.ErrHostConflict. Label defaults to the name; Count is ignored.
// PostTypes may name post types registered later. Like RegisterPostType,
// it waits for a running transaction.
func (h *Host) RegisterTaxonomy(tax contentgen.Taxonomy) error {
	if !validName(tax.Name, 32) {
		return fmt.Errorf("%w: taxonomy name %q must be 1-32 characters of a-z, 0-9, _ and -", ErrInvalid, tax.Name)
	}
	if h.tx != nil {
		return fmt.Errorf("%w: cannot register a taxonomy inside a transaction", ErrInvalid)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	st := h.st
	if st.taxonomy(tax.Name) != nil {
		return fmt.Errorf("%w: taxonomy %q is already registered", contentgen.ErrHostConflict, tax.Name)
	}
	c := cloneTaxonomy(&tax)
	c.Count = 0
	if c.Label == "" {
		c.Label = c.Name
	}
	c.PostTypes = slices.Compact(c.PostTypes)
	for _, pt := range st.postTypes {
		listsType := slices.Contains(c.PostTypes, pt.Name)
		listsTax := slices.Contains(pt.Taxonomies, c.Name)
		if listsType && !listsTax {
			pt.Taxonomies = append(pt.Taxonomies, c.Name)
		}
		if listsTax && !listsType {
			c.PostTypes = append(c.PostTypes, pt.Name)
		}
	}
	st.taxonomies = append(st.taxonomies, &c)
	return nil
}

// txOf returns the transaction a call on h with ctx belongs to: h's own,
// or the one InTx put in ctx when h is its root; nil for none.
func (h *Host) txOf(ctx context.Context) *txn {
	if h.tx != nil {
		return h.tx
	}
	if t, ok := ctx.Value(txKey{}).(*txn); ok && t.root == h {
		return t
	}
	return nil
}

// acquire locks the state for a call with ctx and returns the unlock
// function. Calls on a transaction-bound Host, and calls on the root Host
// whose ctx carries one of its open transactions, run inside that
// transaction; others take the Host's lock.
func (h *Host) acquire(ctx context.Context, write bool) (func(), error) {
	if t := h.txOf(ctx); t != nil {
		t.mu.Lock()
		if t.open() != nil {
			return t.mu.Unlock, nil
		}
		t.mu.Unlock()
		if h.tx != nil {
			return nil, ErrTxDone
		}
		// A context left over from an ended transaction: take the lock.
	}
	if write {
		h.mu.Lock()
		return h.mu.Unlock, nil
	}
	h.mu.RLock()
	return h.mu.RUnlock, nil
}

// read runs fn on the state under a read lock, unless ctx is done.
func (h *Host) read(ctx context.Context, fn func(st *state) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	unlock, err := h.acquire(ctx, false)
	if err != nil {
		return err
	}
	defer unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	return fn(h.st)
}

// write runs fn on the state under the write lock, unless ctx is done. fn
// must validate everything before it changes anything, so that a failing
// write leaves the state as it was.
func (h *Host) write(ctx context.Context, fn func(st *state) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	unlock, err := h.acquire(ctx, true)
	if err != nil {
		return err
	}
	defer unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	defer h.st.tidy()
	return fn(h.st)
}

// InTx runs fn in a transaction: when fn returns an error or panics, or
// ctx is done when it returns, every write made through tx is undone and
// the error returned; otherwise the writes are kept.
//
// While fn runs, the transaction holds the Host's lock: other goroutines
// wait and so never see a half-done transaction. fn must therefore write
// through tx (or through h with the context it received, which joins the
// transaction); calling h with another context from fn blocks forever.
// tx may be used from several goroutines started by fn, but not after fn
// returns (ErrTxDone). Calling InTx on tx opens a savepoint: an error of
// the inner fn undoes only the inner writes.
func (h *Host) InTx(ctx context.Context, fn func(ctx context.Context, tx contentgen.Host) error) error {
	if fn == nil {
		return fmt.Errorf("%w: nil transaction function", ErrInvalid)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	root, st := h.root, h.st
	var parent *txn
	if t := h.txOf(ctx); t != nil {
		t.mu.Lock()
		parent = t.open()
		if parent == nil {
			t.mu.Unlock()
			if h.tx != nil {
				return ErrTxDone
			}
			// A context left over from an ended transaction: start anew.
		}
	}
	t := &txn{parent: parent, root: root}
	if parent != nil {
		// A savepoint inside parent, whose lock is held.
		t.mu = parent.mu
		st.push()
		t.mu.Unlock()
	} else {
		root.mu.Lock()
		if err := ctx.Err(); err != nil {
			root.mu.Unlock()
			return err
		}
		t.mu = new(sync.Mutex)
		st.push()
	}
	ok := false
	defer func() {
		// Wait for calls still running inside, then close.
		t.mu.Lock()
		t.done = true
		st.pop(!ok)
		st.tidy()
		t.mu.Unlock()
		if parent == nil {
			root.mu.Unlock()
		}
	}()
	tx := &Host{st: st, now: root.now, root: root, tx: t}
	if err := fn(context.WithValue(ctx, txKey{}, t), tx); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ok = true
	return nil
}

// Site describes the installation.
func (h *Host) Site(ctx context.Context) (contentgen.Site, error) {
	var site contentgen.Site
	err := h.read(ctx, func(st *state) error {
		site = st.site
		return nil
	})
	return site, err
}

// standardStatuses returns the statuses always present in PostType.Count,
// zero when unused.
func standardStatuses() []string {
	return []string{
		contentgen.StatusPublish, contentgen.StatusDraft, contentgen.StatusPending,
		contentgen.StatusPrivate, contentgen.StatusFuture, contentgen.StatusTrash,
	}
}

// PostTypes lists the registered post types in registration order. Count
// has an entry for every standard status (zero when unused) and for any
// other status in use. Taxonomies lists the registered taxonomies linked to
// the type.
func (h *Host) PostTypes(ctx context.Context) ([]contentgen.PostType, error) {
	var out []contentgen.PostType
	err := h.read(ctx, func(st *state) error {
		out = make([]contentgen.PostType, 0, len(st.postTypes))
		for _, pt := range st.postTypes {
			c := clonePostType(pt)
			c.Taxonomies = slices.DeleteFunc(c.Taxonomies, func(name string) bool { return st.taxonomy(name) == nil })
			c.Count = make(map[string]int, 8)
			for _, s := range standardStatuses() {
				c.Count[s] = 0
			}
			for s, n := range st.typeCounts[pt.Name] {
				if n > 0 {
					c.Count[s] = n
				}
			}
			out = append(out, c)
		}
		return nil
	})
	return out, err
}

// Taxonomies lists the registered taxonomies in registration order, with
// Count the number of terms. PostTypes lists the registered post types
// linked to the taxonomy.
func (h *Host) Taxonomies(ctx context.Context) ([]contentgen.Taxonomy, error) {
	var out []contentgen.Taxonomy
	err := h.read(ctx, func(st *state) error {
		out = make([]contentgen.Taxonomy, 0, len(st.taxonomies))
		for _, tx := range st.taxonomies {
			c := cloneTaxonomy(tx)
			c.PostTypes = slices.DeleteFunc(c.PostTypes, func(name string) bool { return st.postType(name) == nil })
			c.Count = st.taxCounts[tx.Name]
			out = append(out, c)
		}
		return nil
	})
	return out, err
}

// Roles lists the registered roles.
func (h *Host) Roles(ctx context.Context) ([]contentgen.Role, error) {
	var out []contentgen.Role
	err := h.read(ctx, func(st *state) error {
		out = make([]contentgen.Role, 0, len(st.roles))
		for _, r := range st.roles {
			out = append(out, cloneRole(r))
		}
		return nil
	})
	return out, err
}

// timestamp returns t without its monotonic clock reading, or the current
// time when t is zero.
func (h *Host) timestamp(t time.Time) time.Time {
	if t.IsZero() {
		t = h.now()
	}
	return t.Round(0)
}

// missingf returns an error wrapping ErrInvalid and
// contentgen.ErrHostReference, for a create naming a missing object.
func missingf(format string, args ...any) error {
	return fmt.Errorf("%w: %w: "+format, append([]any{ErrInvalid, contentgen.ErrHostReference}, args...)...)
}

// invalidf returns an error wrapping ErrInvalid.
func invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

// notFound returns an error wrapping contentgen.ErrHostNotFound.
func notFound(kind contentgen.ObjectKind, id int64) error {
	return fmt.Errorf("%w: %s %d", contentgen.ErrHostNotFound, kind, id)
}
