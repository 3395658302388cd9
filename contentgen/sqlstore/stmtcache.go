package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// stmtCache keeps the statements insertRows writes on SQLite prepared on
// the writing pool, which SQLite would otherwise parse at every run. A
// statement is first run unprepared inside its transaction, where the
// pool's one connection is taken, and prepared before the next
// transaction begins (see prepareWanted).
type stmtCache struct {
	mu     sync.Mutex
	stmts  map[string]*sql.Stmt
	wanted map[string]bool
}

// get returns the prepared statement of query, or nil when it is not
// prepared yet, in which case prepareWanted prepares it.
func (c *stmtCache) get(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st := c.stmts[query]; st != nil {
		return st
	}
	if c.wanted == nil {
		c.wanted = map[string]bool{}
	}
	c.wanted[query] = true
	return nil
}

// prepareWanted prepares on p the statements get was asked for and did
// not have. A statement that fails to prepare is left to run unprepared.
func (c *stmtCache) prepareWanted(ctx context.Context, p *sql.DB) {
	c.mu.Lock()
	wanted := c.wanted
	c.wanted = nil
	c.mu.Unlock()
	for query := range wanted {
		st, err := p.PrepareContext(ctx, query)
		if err != nil {
			continue
		}
		c.mu.Lock()
		if c.stmts == nil {
			c.stmts = map[string]*sql.Stmt{}
		}
		if c.stmts[query] == nil {
			c.stmts[query] = st
			st = nil
		}
		c.mu.Unlock()
		if st != nil {
			_ = st.Close()
		}
	}
}

// pending reports whether statements wait to be prepared.
func (c *stmtCache) pending() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.wanted) > 0
}

// Close closes the prepared statements.
func (c *stmtCache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for _, st := range c.stmts {
		errs = append(errs, st.Close())
	}
	c.stmts, c.wanted = nil, nil
	return errors.Join(errs...)
}
