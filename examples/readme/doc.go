// Package readme holds the test of the repository's README: TestREADME
// runs its shell blocks in order, as a user following it would, against
// a server and a command line built from the checkout, so that no
// command it shows can break unnoticed.
//
// Every block fenced as ```sh runs, one after the other, in one bash
// session (variables set by a block stay for the later ones), with
// `set -e -o pipefail`: the first command that fails fails the test,
// naming the block. curl fails on an HTTP error status (--fail-with-body),
// and no answer may carry "success":false. The fence's info string after
// "sh" marks blocks that run differently:
//
//	```sh norun       never run: installs (go install, apt-get), the test
//	                  suite itself, or services the test does not have
//	```sh wordpress   run only on a WordPress site named by the
//	                  CONTENTGEN_TEST_WORDPRESS_* variables that
//	                  .ci/wordpress start prints (.ci/run sets them);
//	                  skipped otherwise, naming the variables
//
// The blocks run in a temporary directory that holds links to README.md
// and templates/ of the checkout, with the command line built from
// examples/contentgen first in PATH as contentgen. Two commands are
// intercepted: `go run ./examples/contentgen ARGS` runs that binary, and
// `go run ./examples/server FLAGS` stops the server a previous block
// started, starts the one built from examples/server in the background
// and returns once it listens; any other go command fails the block. The
// README's address 127.0.0.1:8080 is replaced by a free local port and
// paths under /tmp/ by a directory of the test's own. The site starts
// with provider_local as its default_image_provider, so that no block
// reaches the network. When a wordpress block has started a server, the
// demo server of the blocks before it is started again afterwards, with
// the same flags, for the blocks that follow.
//
// A command's output is checked where the README promises something
// (the expected table of the test), and every block's output must be
// free of "success":false.
package readme
