package site

import (
	"context"
	"errors"
	"fmt"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/runs"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// ErrNoRuns is wrapped by the error of OpenRuns on a site that cannot
// hold runs; the error says why.
var ErrNoRuns = errors.New("runs are not available")

// The reasons a site holds no runs.
var (
	errRunsInMemory = fmt.Errorf("%w here: runs keep their jobs in a database, and -db names memory; give it a SQLite file or a postgres:// URL", ErrNoRuns)
	errRunsOverREST = fmt.Errorf("%w for a WordPress site reached through its REST API: a batch of posts there cannot commit together with the record of it, so a process killed halfway would leave part of a batch, and run again would make it twice; give -wordpress-db to write through the site's database", ErrNoRuns)
)

// OpenRuns opens the runs (package runs) of the site, made by gen, with
// the options o: on a site kept in SQLite or PostgreSQL their jobs are in
// its database, as its content is; on a WordPress site written through
// its database, the content is in the site's database, where each batch
// is recorded with it (runs.Options.Ledger), and the jobs in the SQLite
// file or PostgreSQL database -db names, opened here and closed by Close.
// A site in memory, or a WordPress site reached through its REST API,
// cannot hold runs: the error wraps ErrNoRuns and says why.
func (s *Site) OpenRuns(ctx context.Context, gen *contentgen.Generator, o *runs.Options) (*runs.Service, error) {
	if s.noRuns != nil {
		return nil, s.noRuns
	}
	if s.DB != nil {
		return runs.New(ctx, s.DB, gen, o)
	}
	if s.ledger == nil {
		return nil, errRunsInMemory
	}
	if s.runsDB == nil {
		db, err := sqlstore.Open(ctx, s.runsDSN, &sqlstore.Options{Logger: s.log})
		if err != nil {
			return nil, fmt.Errorf("-db %s, where runs keep their jobs: %w", Redact(s.runsDSN), err)
		}
		s.runsDB = db
		closeSite := s.Close
		s.Close = func() error { return errors.Join(db.Close(), closeSite()) }
	}
	c := runs.Options{}
	if o != nil {
		c = *o
	}
	c.Ledger = s.ledger
	return runs.New(ctx, s.runsDB, gen, &c)
}
