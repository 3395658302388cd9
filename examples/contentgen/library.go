package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/templates"
)

// needSubcommand makes cmd, which only groups subcommands, fail with a
// usage error on a missing or unknown subcommand, instead of printing its
// help and succeeding.
func needSubcommand(cmd *cobra.Command) {
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = func(c *cobra.Command, args []string) error {
		var names []string
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				names = append(names, sub.Name())
			}
		}
		if len(args) == 0 {
			return usageErr("%s needs a subcommand: %s", c.CommandPath(), strings.Join(names, ", "))
		}
		return usageErr("unknown command %q for %q (its commands: %s)", args[0], c.CommandPath(), strings.Join(names, ", "))
	}
}

// version is the module version and VCS revision the binary was built
// from, as Go records them.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
			if len(rev) > 12 {
				rev = rev[:12]
			}
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if rev != "" {
		v += " (" + rev + modified + ")"
	}
	return v + " " + bi.GoVersion
}

// dashedError is an error of the demo site's package, which names flags
// with one dash as the server spells them, with the flags of the command
// line named with two.
type dashedError struct {
	msg string
	err error
}

func (e *dashedError) Error() string { return e.msg }
func (e *dashedError) Unwrap() error { return e.err }

// dashed names the persistent flags of the command line in err's message
// with two dashes ("-db x: ..." is "--db x: ...").
func (a *app) dashed(err error) error {
	if err == nil || a.globalFlags == nil {
		return err
	}
	var names []string
	a.globalFlags.VisitAll(func(f *pflag.Flag) { names = append(names, regexp.QuoteMeta(f.Name)) })
	re := regexp.MustCompile(`(^|[^\w-])-(` + strings.Join(names, "|") + `)\b`)
	msg := re.ReplaceAllString(err.Error(), "$1--$2")
	if msg == err.Error() {
		return err
	}
	return &dashedError{msg, err}
}

func (a *app) localesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "locales",
		Short: "List the locales content can be generated in (--locale), and the default",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.with(cmd, func(ctx context.Context, s *session) error {
				list, def, err := s.gen.Settings().Languages(ctx)
				if err != nil {
					return err
				}
				if a.jsonOut {
					out := make([]map[string]any, len(list))
					for i, l := range list {
						out[i] = map[string]any{"code": l.Code, "name": l.Name, "native_name": l.NativeName}
					}
					return a.writeJSON(map[string]any{"success": true, "languages": out, "default": def})
				}
				tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "CODE\tNAME\tNATIVE NAME")
				for _, l := range list {
					mark := ""
					if l.Code == def {
						mark = "  (default)"
					}
					fmt.Fprintf(tw, "%s\t%s\t%s%s\n", l.Code, l.Name, l.NativeName, mark)
				}
				if err := tw.Flush(); err != nil {
					return err
				}
				a.printf("Near codes resolve to the closest of these: de-AT and de_CH give de_DE, en-AU gives en_GB.\n")
				return nil
			})
		},
	}
}

// templateRecord is a template as the API writes it.
func templateRecord(t *templates.Template) map[string]any {
	rec := map[string]any{
		"id": t.ID, "name": t.Name, "description": t.Description, "post_type": t.PostType,
		"is_default": t.IsDefault, "is_system": t.IsSystem,
		"field_config": t.FieldConfig, "taxonomy_config": t.TaxonomyConfig,
	}
	if t.ParentID != 0 {
		rec["parent_id"] = t.ParentID
	}
	return rec
}

// idArg parses the one positional argument of a command as an id.
func idArg(args []string) (int64, error) {
	if len(args) != 1 {
		return 0, usageErr("want one template id, got %d arguments", len(args))
	}
	id, err := strconv.ParseInt(args[0], 10, 64)
	if err != nil || id <= 0 {
		return 0, usageErr("want a template id (a positive integer), got %q", args[0])
	}
	return id, nil
}

func (a *app) templatesGetCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:     "get ID",
		Short:   "Show a template with its field and taxonomy configuration (GET /templates/{id})",
		Example: `  contentgen templates get 2`,
	}
	effective := cmd.Flags().Bool("effective", false, "a variant's configuration merged over its parents' (GET /templates/{id}/effective-config)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		id, err := idArg(args)
		if err != nil {
			return err
		}
		return a.with(cmd, func(ctx context.Context, s *session) error {
			get := s.gen.Templates().Get
			if *effective {
				get = s.gen.Templates().Effective
			}
			t, err := get(ctx, id)
			if err != nil {
				return err
			}
			if a.jsonOut {
				return a.writeJSON(map[string]any{"success": true, "template": templateRecord(&t)})
			}
			a.printf("template %d: %s (post type %s)\n", t.ID, t.Name, t.PostType)
			if t.Description != "" {
				a.printf("  %s\n", t.Description)
			}
			a.printf("  default: %t, system: %t", t.IsDefault, t.IsSystem)
			if t.ParentID != 0 {
				a.printf(", variant of %d", t.ParentID)
			}
			a.printf("\n")
			return a.writeJSON(map[string]any{"field_config": t.FieldConfig, "taxonomy_config": t.TaxonomyConfig})
		})
	}
	return cmd
}

func (a *app) templatesDeleteCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "delete ID",
		Short: "Delete a template and its variants (DELETE /templates/{id})",
		Example: `  contentgen templates delete 5
  contentgen templates delete 5 --new-default-id 7   # hand the default flag on`,
	}
	newDefault := cmd.Flags().Int64("new-default-id", 0, "the template of the same post type that becomes the default when the deleted one was")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		id, err := idArg(args)
		if err != nil {
			return err
		}
		return a.with(cmd, func(ctx context.Context, s *session) error {
			variants, err := s.gen.Templates().Delete(ctx, id, *newDefault)
			if err != nil {
				return err
			}
			msg := fmt.Sprintf("Deleted template %d and %d variants", id, variants)
			if a.jsonOut {
				return a.writeJSON(map[string]any{"success": true, "message": msg, "deleted_variants": variants})
			}
			a.printf("%s.\n", msg)
			return nil
		})
	}
	return cmd
}

func (a *app) templatesExportCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write templates as JSON that templates import (or POST /templates/import) reads",
		Example: `  contentgen templates export --ids 5,6 > templates.json
  contentgen --db other.db templates import templates.json`,
		Args: noArgs,
	}
	ids := cmd.Flags().Int64Slice("ids", nil, "export these templates (default: all)")
	postType := cmd.Flags().String("post-type", "", "export the templates of this post type")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return a.with(cmd, func(ctx context.Context, s *session) error {
			exp, err := s.gen.Templates().Export(ctx, templates.ExportSelection{IDs: *ids, PostType: *postType})
			if err != nil {
				return err
			}
			return a.writeJSON(exp)
		})
	}
	return cmd
}

func (a *app) templatesImportCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "import FILE",
		Short: "Import the templates of an export (- reads stdin); each item is imported whole or not at all",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErr("want one file to import, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			var data []byte
			var err error
			if args[0] == "-" {
				data, err = io.ReadAll(a.stdin)
			} else {
				data, err = os.ReadFile(args[0])
			}
			if err != nil {
				return usageErr("%v", err)
			}
			return a.with(cmd, func(ctx context.Context, s *session) error {
				res, err := s.gen.Templates().Import(ctx, data)
				if err != nil {
					return err
				}
				if a.jsonOut {
					items := make([]map[string]any, len(res.Results))
					for i, r := range res.Results {
						items[i] = map[string]any{"success": r.Success, "name": r.Name, "id": r.ID, "error": r.Error}
					}
					return a.writeJSON(map[string]any{"success": res.Failed == 0, "message": res.Message(), "results": items})
				}
				for _, r := range res.Results {
					if r.Success {
						a.printf("  imported %q as template %d\n", r.Name, r.ID)
					} else {
						a.printf("  %q failed: %s\n", r.Name, r.Error)
					}
				}
				a.printf("%s\n", res.Message())
				if res.Failed > 0 {
					return &exitError{exitFailure, fmt.Errorf("%d templates failed to import", res.Failed)}
				}
				return nil
			})
		},
	}
}

func (a *app) mediaCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "media",
		Short: "List, add and upload items of the media library",
	}
	needSubcommand(cmd)

	list := &cobra.Command{
		Use:   "list",
		Short: "List images, or files of a type, a page at a time (GET /media/images, /media/files)",
		Example: `  contentgen media list --per-page 5
  contentgen media list --files --file-type document`,
		Args: noArgs,
	}
	lf := list.Flags()
	files := lf.Bool("files", false, "list files other than images")
	fileType := lf.String("file-type", "", "with --files: pdf, document, spreadsheet or archive (default: all)")
	search := lf.String("search", "", "images whose title contains this")
	lf.Int("per-page", 20, "items per page, 1-100 (default 20 images or 50 files)")
	lf.Int("page", 1, "page, from 1")
	list.RunE = func(cmd *cobra.Command, _ []string) error {
		q := contentgen.LibraryQuery{Images: !*files, Search: *search, FileType: *fileType,
			PerPage: changedInt(lf, "per-page"), Page: changedInt(lf, "page")}
		return a.with(cmd, func(ctx context.Context, s *session) error {
			items, total, err := s.gen.Media().List(ctx, q)
			if err != nil {
				return err
			}
			if a.jsonOut {
				out := make([]map[string]any, len(items))
				for i, m := range items {
					out[i] = map[string]any{"id": m.ID, "title": m.Title, "filename": m.Filename, "mime_type": m.MIMEType,
						"url": m.URL, "width": m.Width, "height": m.Height, "filesize": m.Filesize}
				}
				return a.writeJSON(map[string]any{"success": true, "media": out, "total": total})
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tTYPE\tSIZE\tFILE\tURL")
			for _, m := range items {
				size := strconv.FormatInt(m.Filesize, 10) + " B"
				if m.Width > 0 {
					size = fmt.Sprintf("%dx%d", m.Width, m.Height)
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", m.ID, m.MIMEType, size, m.Filename, m.URL)
			}
			tw.Flush()
			a.printf("%d of %d items\n", len(items), total)
			return nil
		})
	}

	download := &cobra.Command{
		Use:     "download",
		Short:   "Add images from an image provider to the library, as generated items (POST /media/download)",
		Example: `  contentgen media download --count 3 --provider provider_local --category architecture --aspect-ratio 16:9`,
		Args:    noArgs,
	}
	df := download.Flags()
	df.Int("count", 5, "number of images, 1-20")
	provider := df.String("provider", "", "provider_local (offline), provider_keyword, provider_curated or provider_random (default: provider_random)")
	category := df.String("category", "", "image category hint (nature, architecture, people, food, ...)")
	df.Int("width", 1200, "width, 100-4000")
	df.Int("height", 0, "height (default: the width over --aspect-ratio)")
	ratio := df.String("aspect-ratio", "", "aspect ratio such as 16:9 (default 3:2)")
	df.Int64("seed", 0, "fix every random choice")
	download.RunE = func(cmd *cobra.Command, _ []string) error {
		req := contentgen.DownloadRequest{Count: changedInt(df, "count"), Provider: *provider, Category: *category,
			Width: changedInt(df, "width"), Height: changedInt(df, "height"), AspectRatio: *ratio, Seed: changedInt64(df, "seed")}
		return a.with(cmd, func(ctx context.Context, s *session) error {
			p := a.newProgress()
			start := a.now()
			res, err := s.gen.Media().Download(ctx, req)
			p.finish()
			if err != nil {
				return err
			}
			return a.resultSummary("images", res, a.now().Sub(start))
		})
	}

	upload := &cobra.Command{
		Use:     "upload FILE...",
		Short:   "Upload files to the library; their content must be of an allowed type (POST /media/upload)",
		Example: `  contentgen media upload cover.jpg notes.pdf`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErr("name the files to upload")
			}
			return nil
		},
	}
	upload.RunE = func(cmd *cobra.Command, args []string) error {
		return a.with(cmd, func(ctx context.Context, s *session) error {
			var out []map[string]any
			for _, name := range args {
				data, err := os.ReadFile(name)
				if err != nil {
					return usageErr("%v", err)
				}
				m, err := s.gen.Media().Upload(ctx, filepath.Base(name), data)
				if err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
				out = append(out, map[string]any{"id": m.ID, "filename": m.Filename, "mime_type": m.MIMEType, "url": m.URL})
				if !a.jsonOut {
					a.printf("Uploaded %s as media %d (%s): %s\n", name, m.ID, m.MIMEType, m.URL)
				}
			}
			if a.jsonOut {
				return a.writeJSON(map[string]any{"success": true, "media": out})
			}
			return nil
		})
	}
	cmd.AddCommand(list, download, upload)
	return cmd
}
