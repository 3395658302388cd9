package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/examples/internal/site"
	"github.com/contentgen/contentgen/providers/ai"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// siteURL is the address media URLs are made with: the example server's
// default address, so that a site file shared with it serves the files.
const siteURL = "http://127.0.0.1:8080"

// run executes the command line args and returns the exit status. It
// stops generating when the process is interrupted.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, isTerminal: isTerminal, now: time.Now, barThrottle: 50 * time.Millisecond, getenv: os.Getenv}
	return a.execute(ctx, args)
}

// app holds the streams and the global flags of one command line.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// isTerminal reports whether a stream is a terminal.
	isTerminal func(stream any) bool
	now        func() time.Time
	// barThrottle is the least time between two redraws of a progress
	// bar.
	barThrottle time.Duration

	db, media, acfDir string
	// aiBase and aiModel name an OpenAI-compatible endpoint (ai_one).
	aiBase, aiModel string
	jsonOut, quiet  bool
	// wp names a WordPress site to act on instead of the demo site.
	wp site.WordPress
	// getenv reads the environment.
	getenv func(string) string
	// globalFlags are the flags of every command.
	globalFlags *pflag.FlagSet
}

// isTerminal reports whether stream is a file open on a terminal.
func isTerminal(stream any) bool {
	f, ok := stream.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// exitError carries the exit status of a failed command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageErr is a mistake on the command line (exit status 2).
func usageErr(format string, args ...any) error {
	return &exitError{exitUsage, fmt.Errorf(format, args...)}
}

// failure classifies an error of the library: an invalid value of a
// parameter is a usage error naming the flag that set it, anything else
// a failure.
func failure(cmd *cobra.Command, err error) error {
	if err == nil {
		return nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	var ce *contentgen.Error
	if errors.As(err, &ce) && ce.Param != "" && (strings.HasPrefix(string(ce.Code), "invalid_") || ce.Code == contentgen.CodeNotFound) {
		pe := &paramError{flag: flagOf(cmd, ce.Param), err: ce}
		if ce.Param == "locale" {
			pe.hint = "contentgen locales shows their names"
		}
		return &exitError{exitUsage, pe}
	}
	return &exitError{exitFailure, err}
}

// paramError is a library error about a parameter, shown with the flag
// that set it.
type paramError struct {
	flag string
	err  *contentgen.Error
	// hint says where to look for a valid value, when there is a place.
	hint string
}

func (e *paramError) Error() string {
	if e.hint != "" {
		return e.flag + ": " + e.err.Message + " (" + e.hint + ")"
	}
	return e.flag + ": " + e.err.Message
}
func (e *paramError) Unwrap() error { return e.err }

// flagOf names the flag of a library parameter ("taxonomy_config.genre"
// is --taxonomy-config (genre)); a parameter without a flag of its own is
// named as it is.
func flagOf(cmd *cobra.Command, param string) string {
	head, rest, _ := strings.Cut(param, ".")
	name := strings.ReplaceAll(head, "_", "-")
	if cmd.Flags().Lookup(name) == nil {
		return param
	}
	if rest != "" {
		return "--" + name + " (" + rest + ")"
	}
	return "--" + name
}

// execute runs the command line and reports its error, if any, on stderr
// (and as a JSON object on stdout with --json).
func (a *app) execute(ctx context.Context, args []string) int {
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	code := exitUsage // errors of cobra itself: unknown commands, bad arguments
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	fmt.Fprintln(a.stderr, "contentgen:", err)
	if code == exitUsage && cmd != nil {
		fmt.Fprintf(a.stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	if a.jsonOut {
		out := map[string]any{"success": false, "message": err.Error()}
		var ce *contentgen.Error
		if errors.As(err, &ce) {
			out["code"], out["message"] = ce.Code, ce.Message
			if ce.Param != "" {
				out["param"] = ce.Param
			}
		}
		a.writeJSON(out)
	}
	return code
}

func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "contentgen",
		Short: "Generate realistic fake content on a site, and remove exactly what was generated",
		Long: `contentgen generates posts, terms, users and comments on the demo site and
removes exactly what it generated, leaving hand-made content alone.

The site is the one the example server uses: the SQLite file contentgen.db
by default (created with the demo content when new), another file, a
PostgreSQL database (--db postgres://...) or memory (--db memory, gone when
the command ends).

--wordpress-url acts on a real WordPress site instead, with an
administrator's application password (--wordpress-app-password, or the
environment variable ` + site.EnvWordPressPassword + `). With
--wordpress-db, content is written straight into the site's tables and the
history is kept in the same database (the jobs of runs, where --db says);
without it, everything goes through the site's REST API, the history is
kept where --db says, and runs are refused.

Exit status: 0 on success, 2 for a usage error (a bad flag or an invalid
value), 1 for any other failure.`,
		Example: `  contentgen generate posts --count 500 --locale de_DE --image-provider provider_local
  contentgen history stats
  contentgen cleanup --yes
  contentgen --wordpress-url http://127.0.0.1:8000 --wordpress-user admin \
    --wordpress-db 'root@tcp(127.0.0.1:3306)/wordpress' \
    --wordpress-uploads /var/www/wordpress/wp-content/uploads \
    generate posts --count 500 --image-provider provider_local`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &exitError{exitUsage, err}
	})
	pf := root.PersistentFlags()
	a.globalFlags = pf
	root.Version = version()
	root.SetVersionTemplate("contentgen {{.Version}}\n")
	pf.StringVar(&a.db, "db", "contentgen.db", `where the site is kept: a SQLite file, a postgres:// URL, or "memory" (gone when the command ends); with --wordpress-db, where the jobs of runs are kept`)
	pf.StringVar(&a.media, "media", "", "directory of media files (default: the SQLite file's name plus .media, or contentgen-media for PostgreSQL)")
	pf.StringVar(&a.acfDir, "acf-json", "", "directory of ACF local JSON field groups (acf-json) to read custom fields from")
	pf.StringVar(&a.wp.URL, "wordpress-url", "", "act on this WordPress site instead of the demo site, such as http://127.0.0.1:8000")
	pf.StringVar(&a.wp.User, "wordpress-user", "", "an administrator of the WordPress site")
	pf.StringVar(&a.wp.AppPassword, "wordpress-app-password", "", "an application password of that user ("+site.EnvWordPressPassword+" when empty)")
	pf.StringVar(&a.wp.DB, "wordpress-db", "", "DSN of the site's database, such as root@tcp(127.0.0.1:3306)/wordpress: write straight into its tables and keep the history there (REST API only when empty)")
	pf.StringVar(&a.wp.Prefix, "wordpress-prefix", "wp_", "table prefix of the WordPress database")
	pf.StringVar(&a.wp.Uploads, "wordpress-uploads", "", "the site's uploads directory (wp-content/uploads), where images are written with --wordpress-db")
	pf.StringVar(&a.aiBase, "ai-base-url", "", "base URL of an OpenAI-compatible endpoint that writes posts with --text-source ai (ai_one), such as http://localhost:11434/v1 for Ollama; a key is optional ("+site.EnvAIAPIKey+")")
	pf.StringVar(&a.aiModel, "ai-model", "", "model of --ai-base-url, such as llama3.2")
	pf.BoolVar(&a.jsonOut, "json", false, "print the result as JSON on stdout, and nothing else there")
	pf.BoolVarP(&a.quiet, "quiet", "q", false, "print no progress on stderr")
	root.AddCommand(a.generateCmd(), a.deleteCmd(), a.cleanupCmd(), a.historyCmd(), a.templatesCmd(), a.mediaCmd(),
		a.settingsCmd(), a.localesCmd(), a.uninstallCmd(), a.runsCmd())
	return root
}

// session is an open site with its Generator.
type session struct {
	site *site.Site
	gen  *contentgen.Generator
}

// open opens the site of --db, creating the demo site in a new database.
func (a *app) open(ctx context.Context) (*session, error) {
	if a.acfDir != "" {
		if fi, err := os.Stat(a.acfDir); err != nil || !fi.IsDir() {
			return nil, usageErr("--acf-json: %s is not a directory", a.acfDir)
		}
	}
	aiOne, hasAI, err := site.AIEndpoint(a.aiBase, a.aiModel, a.getenv(site.EnvAIAPIKey))
	if err != nil {
		return nil, usageErr("--%s", err)
	}
	var aiProviders map[string]ai.Options
	if hasAI {
		aiProviders = map[string]ai.Options{contentgen.AIOne: aiOne}
	}
	var st *site.Site
	if a.wp.Enabled() {
		wp := a.wp
		if wp.AppPassword == "" {
			wp.AppPassword = a.getenv(site.EnvWordPressPassword)
		}
		if err := wp.Check(); err != nil {
			return nil, &exitError{exitUsage, a.dashed(err)}
		}
		st, err = site.OpenWordPress(ctx, wp, a.db, nil)
	} else {
		st, err = site.Open(ctx, a.db, a.media, contentgen.Site{
			Name: "contentgen demo", URL: siteURL, AdminURL: siteURL + "/admin", Locale: "en_US",
		}, nil)
	}
	if err != nil {
		return nil, &exitError{exitFailure, a.dashed(err)}
	}
	gen, err := st.Generator(ctx, site.GeneratorOptions{ACFDir: a.acfDir, AIProviders: aiProviders})
	if err != nil {
		st.Close()
		return nil, &exitError{exitFailure, a.dashed(err)}
	}
	return &session{site: st, gen: gen}, nil
}

// with opens the site, runs fn and closes the site, classifying fn's
// error.
func (a *app) with(cmd *cobra.Command, fn func(ctx context.Context, s *session) error) error {
	ctx := cmd.Context()
	s, err := a.open(ctx)
	if err != nil {
		return err
	}
	err = fn(ctx, s)
	if cerr := s.site.Close(); err == nil && cerr != nil {
		err = cerr
	}
	return failure(cmd, err)
}

// writeJSON prints v as indented JSON on stdout.
func (a *app) writeJSON(v any) error {
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// printf prints a line of the human summary on stdout.
func (a *app) printf(format string, args ...any) {
	fmt.Fprintf(a.stdout, format, args...)
}

// changed helpers return a flag's value only when it was given, so that
// the library applies its default (or the site's setting) otherwise.
func changedInt(fs *pflag.FlagSet, name string) *int {
	if !fs.Changed(name) {
		return nil
	}
	v, _ := fs.GetInt(name)
	return &v
}

func changedBool(fs *pflag.FlagSet, name string) *bool {
	if !fs.Changed(name) {
		return nil
	}
	v, _ := fs.GetBool(name)
	return &v
}

func changedInt64(fs *pflag.FlagSet, name string) *int64 {
	if !fs.Changed(name) {
		return nil
	}
	v, _ := fs.GetInt64(name)
	return &v
}

// noArgs rejects positional arguments as a usage error.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErr("unexpected argument %q", args[0])
	}
	return nil
}
