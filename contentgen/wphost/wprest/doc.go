// Package wprest is a contentgen.Host over a real WordPress site reached
// only through its REST API, for sites whose database is out of reach.
//
//	h, err := wprest.New(ctx, &wprest.Options{
//		URL: "https://example.com", User: "admin", AppPassword: "abcd efgh ijkl mnop qrst uvwx",
//	})
//	gen, err := contentgen.New(h, historyStore, nil)
//
// # What it needs
//
//   - WordPress 5.6 or later with the REST API at URL/wp-json (pretty
//     permalinks, or a server that routes /wp-json/ to index.php).
//   - A user with the manage_options capability and one of its application
//     passwords (HTTP Basic auth). WordPress refuses application passwords
//     over plain HTTP unless the site's environment type is "local".
//   - The companion must-use plugin, MUPlugin, in wp-content/mu-plugins
//     (InstallMUPlugin writes it there; the file is mu-plugin/contentgen.php
//     in this package). Without it the host works for what is listed below
//     and returns an error wrapping ErrPluginMissing for the rest.
//
// New checks that the site answers and that the credentials work;
// NewClient only validates the options.
//
// # The companion plugin
//
// The REST API writes only meta registered with show_in_rest (and keys
// starting with "_" only with an auth_callback), while contentgen marks what
// it generates with "_"-prefixed meta (contentgen.MarkerKey) and templates
// write arbitrary custom fields. The plugin adds, for users with
// manage_options only (others get 401/403 and a null field):
//
//   - routes under contentgen/v1: read (existence and all meta of posts,
//     media, terms, users or comments, in bulk), write (meta, post parents,
//     featured images and user registration dates, in bulk and in one
//     transaction), query (ids by meta key and value), roles, counts (posts
//     per type and status, terms per taxonomy), comments (comments on posts
//     of any status, in one transaction) and media (media records without
//     files);
//   - a read-only "contentgen" field on REST objects in context edit: all
//     meta, the post parent, and for terms the number of posts of any status
//     but trash that use the term;
//   - two opt-in request parameters of core routes: contentgen_no_default_term
//     (removing a category does not give its posts the default category) and
//     contentgen_trust_type (an upload's type follows its file extension,
//     within the site's allow-list, instead of a look at its content). Users
//     with manage_options can install plugins, so neither grants them more.
//
// Without the plugin the host still discovers post types and taxonomies,
// reports the standard roles, creates, queries, trashes and deletes posts,
// terms, users and comments that carry no meta, uploads media without meta
// (StoreMedia) and answers Exist with queries by id. These need the plugin:
// Meta, SetMeta, any query with MetaKey (which the Generator uses to find
// generated content, so deletion of generated content needs it), creating
// anything with Meta (which the Generator always sets), a post parent on a
// type that is not hierarchical, CreateMedia (records without bytes),
// comments on drafts (WordPress refuses them over REST). Featured images
// then go through featured_media, which WordPress sets only for images it
// can display, and user registration dates are WordPress's.
//
// # How it talks to WordPress
//
// Post types and taxonomies come from /wp/v2/types and /wp/v2/taxonomies in
// context edit; the exported Client offers that discovery (PostTypes,
// Taxonomies, Roles, Site) to other packages. Creates and deletes of posts
// and terms go through POST /batch/v1 (at most 25 requests a batch, with
// validation require-all-validate) when the site's index reports
// allow_batch for the route, which WordPress 6.1 does for posts of every
// type and terms; users, comments and media are sent as single requests.
// Independent requests run concurrently, at most Options.Concurrency at a
// time across the Client. Lists are read 100 a page, following
// X-WP-TotalPages (further pages concurrently). Every response body is read
// up to Options.MaxResponseBytes.
//
// A request answered 429 Too Many Requests or 503 Service Unavailable is
// retried, as are other 5xx answers and network failures of GET and DELETE
// requests (a POST answered 500 may have been carried out, so it is not
// sent again); waits follow Retry-After (capped at two minutes) or grow
// from half a second, and go through Options.Sleep. 4xx answers other than
// 429 are never retried. Every call stops when its context ends.
//
// WordPress has no transaction across REST requests. A create of several
// objects that fails removes what it already created before returning the
// error; meta is written last, in one transaction, so that queries by meta
// (and so the Generator) see a batch whole or not at all. A context that
// ends while requests are in flight may leave objects WordPress finished
// without meta. Term and comment deletes run one after another, so that
// WordPress moves children to the right parent.
//
// # Limits
//
//   - Post types and taxonomies registered without show_in_rest are
//     invisible: they are not listed and cannot be written.
//   - Posts queries cover the statuses publish, future, draft, pending,
//     private and trash of the types that are not internal.
//   - Search is WordPress's search (which also looks at content, slugs and
//     more), narrowed to the fields contentgen's queries name.
//   - Offset and limit are applied after reading the matching items in id
//     order, so a deep offset reads every item before it.
//   - Meta values are strings: the first value of each key, serialised PHP
//     values as stored.
//   - Term slugs and names must be unique where WordPress says so: a clash
//     wraps contentgen.ErrHostConflict.
//   - Posts of type post get the default category when created without
//     one, as WordPress does.
//   - Media bytes (MediaBytes) are fetched only from the site's own origin.
package wprest
