package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/runs"
	"github.com/contentgen/contentgen/examples/internal/site"
	"github.com/contentgen/contentgen/httpapi"
)

// Runs: a generate command with a count above the per-request limit, or
// --detach, becomes a run (package runs) that this process works on and
// follows with a progress bar; runs list|show|cancel|resume manage them.

// runFlags adds the flags of generate commands that may become runs.
func runFlags(f *pflag.FlagSet) {
	f.Bool("detach", false, fmt.Sprintf("start the generation as a run and return its id at once, for a server (-workers) or 'contentgen runs resume ID' to do; without it a --count above %d becomes a run this command works on and follows", contentgen.DefaultMaxCount))
	f.Int("batch-size", 0, fmt.Sprintf("items per batch of a run, 1-%d (default %d)", contentgen.DefaultMaxCount, contentgen.DefaultMaxCount))
}

// asRun reports whether a generate command with flags f becomes a run.
func asRun(f *pflag.FlagSet) bool {
	detach, _ := f.GetBool("detach")
	count, _ := f.GetInt("count")
	return detach || count > contentgen.DefaultMaxCount
}

// startRun submits req as a run and, unless --detach, works on it and
// follows it to its end.
func (a *app) startRun(cmd *cobra.Command, req runs.Request) error {
	f := cmd.Flags()
	detach, _ := f.GetBool("detach")
	req.BatchSize, _ = f.GetInt("batch-size")
	if !f.Changed("count") {
		return usageErr("--count is required for a run")
	}
	return a.with(cmd, func(ctx context.Context, s *session) error {
		workers := 1
		if detach {
			workers = runs.NoWorkers
		}
		rs, err := a.openRuns(ctx, s, workers)
		if err != nil {
			return err
		}
		run, err := rs.Submit(ctx, req)
		if err != nil {
			return err
		}
		if detach {
			return a.runSummary(run, "queued")
		}
		return a.workOn(ctx, rs, run.ID)
	})
}

// openRuns opens the runs of the session's site, working on workers
// batches at once (runs.NoWorkers: none).
func (a *app) openRuns(ctx context.Context, s *session, workers int) (*runs.Service, error) {
	rs, err := s.site.OpenRuns(ctx, s.gen, &runs.Options{Workers: workers})
	if errors.Is(err, site.ErrNoRuns) {
		return nil, &exitError{exitUsage, a.dashed(err)}
	}
	return rs, err
}

// workOn works on run id until it ends, showing its progress, and stops
// working when ctx is done, leaving the rest for a later resume.
func (a *app) workOn(ctx context.Context, rs *runs.Service, id string) error {
	if err := rs.Start(ctx); err != nil {
		return err
	}
	p := a.newProgress()
	p.rate = true
	start := a.now()
	var last *runs.Run
	err := rs.Follow(ctx, id, func(r *runs.Run) error {
		last = r
		p.event(contentgen.Event{Type: contentgen.EventInfo,
			Message: fmt.Sprintf("run %s: %d of %d %s", r.ID, r.Done, r.Total, r.Kind),
			Items:   string(r.Kind), Done: int(r.Done), Total: int(max(r.Total, 1))})
		return nil
	})
	p.finish()
	stop, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if serr := rs.Stop(stop); err == nil {
		err = serr
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("stopped; the run goes on with 'contentgen runs resume %s': %w", id, err)
		}
		return err
	}
	a.warnings(last.Warnings)
	switch last.Status {
	case runs.StatusFailed:
		return fmt.Errorf("run %s failed after %d of %d %s: %s", last.ID, last.Done, last.Total, last.Kind, last.LastError)
	case runs.StatusCancelled:
		return fmt.Errorf("run %s was cancelled after %d of %d %s", last.ID, last.Done, last.Total, last.Kind)
	}
	return a.runSummary(last, "in "+formatDuration(a.now().Sub(start)))
}

// runSummary prints a run: one line, or the run as JSON.
func (a *app) runSummary(r *runs.Run, how string) error {
	if a.jsonOut {
		return a.writeJSON(struct {
			Success bool              `json:"success"`
			Run     httpapi.RunRecord `json:"run"`
		}{true, httpapi.NewRunRecord(r)})
	}
	a.printf("Run %s: %s, %d of %d %s (%d of %d batches) %s\n", r.ID, r.Status, r.Done, r.Total, r.Kind, r.BatchesDone, r.Batches, how)
	return nil
}

func (a *app) runsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List, show, cancel and resume runs (generation of any size)",
		Long: fmt.Sprintf(`A run is generation of any size, kept in the site's database: a generate
command with --count above %d (or --detach), or POST /runs of the server.
It is made in batches, each committed with its history, so a run that was
stopped or killed goes on where it stopped when any process works on it
again: the server (-workers), or 'contentgen runs resume ID'.`, contentgen.DefaultMaxCount),
	}
	needSubcommand(cmd)
	list := &cobra.Command{Use: "list", Short: "List the runs, newest first", Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.with(cmd, func(ctx context.Context, s *session) error {
				rs, err := a.openRuns(ctx, s, runs.NoWorkers)
				if err != nil {
					return err
				}
				all, err := rs.List(ctx, 0)
				if err != nil {
					return err
				}
				if a.jsonOut {
					out := make([]httpapi.RunRecord, len(all))
					for i := range all {
						out[i] = httpapi.NewRunRecord(&all[i])
					}
					return a.writeJSON(struct {
						Success bool                `json:"success"`
						Runs    []httpapi.RunRecord `json:"runs"`
					}{true, out})
				}
				if len(all) == 0 {
					a.printf("No runs.\n")
				}
				for i := range all {
					r := &all[i]
					a.printf("%s  %-9s  %-5s  %d/%d  %s\n", r.ID, r.Status, r.Kind, r.Done, r.Total, r.CreatedAt.Format(time.DateTime))
				}
				return nil
			})
		}}
	one := func(use, short string, fn func(ctx context.Context, cmd *cobra.Command, rs *runs.Service, id string) error) *cobra.Command {
		c := &cobra.Command{Use: use + " ID", Short: short, Args: cobra.ExactArgs(1)}
		c.RunE = func(cmd *cobra.Command, args []string) error {
			return a.with(cmd, func(ctx context.Context, s *session) error {
				workers := runs.NoWorkers
				if use == "resume" {
					if detach, _ := cmd.Flags().GetBool("detach"); !detach {
						workers = 1
					}
				}
				rs, err := a.openRuns(ctx, s, workers)
				if err != nil {
					return err
				}
				return fn(ctx, cmd, rs, strings.TrimSpace(args[0]))
			})
		}
		return c
	}
	show := one("show", "Show a run's progress, errors, warnings and workers", func(ctx context.Context, _ *cobra.Command, rs *runs.Service, id string) error {
		r, err := rs.Get(ctx, id)
		if err != nil {
			return err
		}
		if a.jsonOut {
			return a.runSummary(r, "")
		}
		a.printf("Run %s\n  kind:     %s\n  status:   %s\n  done:     %d of %d (%d of %d batches of %d)\n  errors:   %d\n  seed:     %d\n  batch timeout: %s\n",
			r.ID, r.Kind, r.Status, r.Done, r.Total, r.BatchesDone, r.Batches, r.BatchSize, r.Errors, r.Seed, r.BatchTimeout)
		if r.LastError != "" {
			a.printf("  last error: %s\n", r.LastError)
		}
		a.printf("  created:  %s\n", r.CreatedAt.Format(time.DateTime))
		if !r.StartedAt.IsZero() {
			a.printf("  started:  %s\n", r.StartedAt.Format(time.DateTime))
		}
		if !r.EndedAt.IsZero() {
			a.printf("  ended:    %s\n", r.EndedAt.Format(time.DateTime))
		}
		for _, w := range r.Workers {
			a.printf("  worker %s: %d batches, %d items\n", w.Name, w.Batches, w.Items)
		}
		for _, w := range r.Warnings {
			a.printf("  warning: %s\n", w)
		}
		return nil
	})
	cancel := one("cancel", "Cancel a run: it stops within one batch, and what it made stays tracked", func(ctx context.Context, _ *cobra.Command, rs *runs.Service, id string) error {
		r, err := rs.Cancel(ctx, id)
		if err != nil {
			return err
		}
		return a.runSummary(r, "")
	})
	resume := one("resume", "Work on a run until it ends: the rest of a cancelled or failed run, or the batches of one that was stopped", func(ctx context.Context, cmd *cobra.Command, rs *runs.Service, id string) error {
		r, err := rs.Resume(ctx, id)
		if err != nil {
			return err
		}
		if detach, _ := cmd.Flags().GetBool("detach"); detach || r.Status.Final() {
			return a.runSummary(r, "")
		}
		return a.workOn(ctx, rs, id)
	})
	resume.Flags().Bool("detach", false, "queue the rest and return at once, for a server (-workers) to do")
	cmd.AddCommand(list, show, cancel, resume)
	return cmd
}
