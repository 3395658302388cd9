// Command contentgen generates realistic fake content on the demo site
// from the command line, and removes exactly what it generated.
//
//	go install github.com/contentgen/contentgen/examples/contentgen@latest
//
//	contentgen generate posts --count 500 --post-type post --locale de_DE
//	contentgen generate terms --taxonomy category --generate-hierarchy
//	contentgen generate users --count 20 --role author
//	contentgen generate comments --post-type post
//	contentgen history [--type post] | history stats | history prune | history clear
//	contentgen delete --type user [--ids 3,4] | delete posts --post-type book --delete-related-cpts
//	contentgen cleanup [--yes]
//	contentgen templates list | templates get 2 | templates delete 5 | templates export > t.json | templates import t.json
//	contentgen media list | media download --provider provider_local | media upload FILE
//	contentgen settings [--set name=value]... | locales | --version
//	contentgen generate posts --count 100000 [--detach] | runs list | runs show ID | runs cancel ID | runs resume ID
//
// It works on the same site as examples/server: the SQLite file
// contentgen.db by default (media files in contentgen.db.media), another
// file, a PostgreSQL database (--db postgres://...) or, for one command,
// memory (--db memory). A new database gets the demo site first.
//
// The options of the generate commands are those of the HTTP API in
// kebab case (post_type is --post-type); an option not given takes the
// library's default or the site's setting. A progress bar is drawn on
// stderr when it is a terminal, plain lines otherwise; the summary goes to
// stdout, or the result as JSON with --json. The exit status is 0 on
// success, 2 for a usage error (a bad flag or an invalid value, named in
// the message) and 1 for any other failure.
//
// A --count above the per-request limit (500), or --detach, makes a run:
// the items are made in batches, each committed with its history, in the
// site's database, and the command works on the run and follows it with a
// progress bar of done/total (at most a line a second without a
// terminal). A run that was stopped or killed goes on with 'runs resume',
// or in a server on the same database.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
