package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/examples/internal/site"
)

func (a *app) historyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "history",
		Short: "List what was generated, newest first; stats, prune and clear the history",
		Example: `  contentgen history --type post --limit 10
  contentgen history stats
  contentgen history prune
  contentgen history clear --yes`,
		Args: noArgs,
	}
	f := cmd.Flags()
	f.String("type", "", "post, term, user, comment or media (default: all)")
	f.Int("limit", 50, "entries per page, 1-1000")
	f.Int("offset", 0, "entries to skip")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		kind, _ := f.GetString("type")
		q := contentgen.HistoryQuery{Kind: contentgen.ObjectKind(kind), Limit: changedInt(f, "limit"), Offset: changedInt(f, "offset")}
		return a.with(cmd, func(ctx context.Context, s *session) error {
			items, total, err := s.gen.History().List(ctx, q)
			if err != nil {
				return err
			}
			if a.jsonOut {
				out := make([]map[string]any, len(items))
				for i, it := range items {
					out[i] = map[string]any{
						"id": it.ID, "content_type": it.ContentType, "content_id": it.ContentID,
						"content_subtype": it.ContentSubtype, "meta": it.Meta,
						"created_at":    it.CreatedAt.UTC().Format("2006-01-02 15:04:05"),
						"content_title": it.Title, "content_exists": it.Exists,
					}
				}
				return a.writeJSON(map[string]any{"success": true, "history": out, "total": total})
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "CREATED\tTYPE\tSUBTYPE\tID\tEXISTS\tTITLE")
			for _, it := range items {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%t\t%s\n", it.CreatedAt.UTC().Format("2006-01-02 15:04:05"),
					it.ContentType, it.ContentSubtype, it.ContentID, it.Exists, it.Title)
			}
			tw.Flush()
			a.printf("%d of %d entries\n", len(items), total)
			return nil
		})
	}
	cmd.AddCommand(a.historyStatsCmd(), a.historyPruneCmd(), a.historyClearCmd())
	return cmd
}

func (a *app) historyStatsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "stats",
		Short: "Count the history per kind and subtype, what still exists, and the time saved",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.with(cmd, func(ctx context.Context, s *session) error {
				st, existing, err := s.gen.History().Stats(ctx)
				if err != nil {
					return err
				}
				ts, err := s.gen.TimeSaved(ctx)
				if err != nil {
					return err
				}
				total := ts.Posts + ts.Terms + ts.Users + ts.Comments
				if a.jsonOut {
					sub := make([]map[string]any, len(st.BySubtype))
					for i, c := range st.BySubtype {
						sub[i] = map[string]any{"content_type": c.ContentType, "content_subtype": c.ContentSubtype, "count": c.Count}
					}
					return a.writeJSON(map[string]any{"success": true, "stats": map[string]any{
						"total": st.Total, "by_type": st.ByType, "by_subtype": sub, "existing": existing,
					}, "time_saved": formatDuration(total), "time_saved_seconds": int64(total.Seconds())})
				}
				a.printf("%d history entries\n", st.Total)
				tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "TYPE\tENTRIES\tSTILL EXISTING")
				for _, k := range slices.Sorted(maps.Keys(st.ByType)) {
					fmt.Fprintf(tw, "%s\t%d\t%d\n", k, st.ByType[k], existing[k])
				}
				tw.Flush()
				for _, c := range st.BySubtype {
					if c.ContentSubtype != "" {
						a.printf("  %s %s: %d\n", c.ContentType, c.ContentSubtype, c.Count)
					}
				}
				a.printf("time saved: %s (posts %s, terms %s, users %s, comments %s)\n", formatDuration(total),
					formatDuration(ts.Posts), formatDuration(ts.Terms), formatDuration(ts.Users), formatDuration(ts.Comments))
				return nil
			})
		},
	}
}

func (a *app) historyPruneCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "prune",
		Short: "Remove the entries whose content no longer exists",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.with(cmd, func(ctx context.Context, s *session) error {
				n, err := s.gen.History().Prune(ctx)
				if err != nil {
					return err
				}
				msg := fmt.Sprintf("Removed %d history entries of content that no longer exists", n)
				if a.jsonOut {
					return a.writeJSON(map[string]any{"success": true, "cleaned": n, "message": msg})
				}
				a.printf("%s.\n", msg)
				return nil
			})
		},
	}
}

func (a *app) historyClearCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "clear",
		Short: "Forget the whole history; the content stays, but delete and cleanup no longer find it by its history",
		Args:  noArgs,
	}
	yes := cmd.Flags().BoolP("yes", "y", false, "do not ask for confirmation")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if err := a.confirm(*yes, "Forget the whole history of "+a.siteName()+"?"); err != nil {
			return err
		}
		return a.with(cmd, func(ctx context.Context, s *session) error {
			if err := s.gen.History().Clear(ctx); err != nil {
				return err
			}
			if a.jsonOut {
				return a.writeJSON(map[string]any{"success": true, "message": "History cleared"})
			}
			a.printf("History cleared.\n")
			return nil
		})
	}
	return cmd
}

func (a *app) templatesCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "templates",
		Short: "List, show, delete, export and import the templates that generate posts can use (--template-id)",
	}
	needSubcommand(cmd)
	list := &cobra.Command{
		Use:     "list",
		Short:   "List the templates",
		Example: `  contentgen templates list --post-type book`,
		Args:    noArgs,
	}
	postType := list.Flags().String("post-type", "", "only templates of this post type")
	list.RunE = func(cmd *cobra.Command, _ []string) error {
		return a.with(cmd, func(ctx context.Context, s *session) error {
			ts, err := s.gen.Templates().List(ctx, templatesFilter(*postType))
			if err != nil {
				return err
			}
			if a.jsonOut {
				out := make([]map[string]any, len(ts))
				for i, t := range ts {
					out[i] = map[string]any{"id": t.ID, "name": t.Name, "description": t.Description, "post_type": t.PostType,
						"is_default": t.IsDefault, "is_system": t.IsSystem}
				}
				return a.writeJSON(map[string]any{"success": true, "templates": out, "total": len(ts)})
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tPOST TYPE\tNAME\tDEFAULT\tSYSTEM")
			for _, t := range ts {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%t\t%t\n", t.ID, t.PostType, t.Name, t.IsDefault, t.IsSystem)
			}
			return tw.Flush()
		})
	}
	cmd.AddCommand(list, a.templatesGetCmd(), a.templatesDeleteCmd(), a.templatesExportCmd(), a.templatesImportCmd())
	return cmd
}

// siteName names the site the command acts on: the WordPress site, or the
// database of --db, without passwords.
func (a *app) siteName() string {
	if a.wp.Enabled() {
		return "the WordPress site " + a.wp.URL
	}
	return site.Redact(a.db)
}
