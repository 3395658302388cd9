// Package wphost is the contentgen.Host of a real WordPress site, written
// straight into the site's MySQL or MariaDB tables.
//
// # Two write paths
//
// WordPress can be filled in two ways. This package writes its tables
// directly: multi-row INSERTs, one transaction per batch, thousands of
// posts a second. The package contentgen/wphost/wprest goes through the
// site's REST API instead: slower, but it needs no database access and
// runs every hook that plugins add. Both keep the site as consistent as
// WordPress's own functions would.
//
// # What it needs
//
// Open takes Options: the site's URL with an administrator's login and
// application password (the post types and taxonomies that PHP registers
// are read from /wp-json/wp/v2/types and /wp/v2/taxonomies with
// context=edit; Site.Refresh reads them again), the go-sql-driver/mysql
// DSN of the database, the table prefix ("wp_" by default) and,
// optionally, the uploads directory, where StoreMedia writes files.
// The tables of contentgen itself are created in the same database,
// named with the site's prefix and "contentgen_": the history, templates
// and state through contentgen/sqlstore (wp_contentgen_history, ...), and
// by Open itself the lock of its writes (wp_contentgen_wplock) and the
// record of the batches of runs (wp_contentgen_run_batches).
//
// # Runs
//
// A run of contentgen/runs (generation of any size, in batches that
// survive a crash) keeps its jobs in SQLite or PostgreSQL, as River has
// no MySQL driver, and its content here; the Site is the run's Ledger
// (runs.Options.Ledger). Each batch commits its posts, their history
// entries and its record (RecordRunBatch: the table
// prefix+"contentgen_run_batches", keyed by run and batch, created by
// Open as the other tables of contentgen) in one transaction of the
// site's database (InTx); a batch run again after a crash reads its
// record (RunBatches) and is counted without being made twice. The
// REST path (contentgen/wphost/wprest) has no such transaction and
// cannot hold runs.
//
// # Leaving no trace
//
// Uninstall, after the generated content is deleted
// (Generator.DeleteAll), drops contentgen's own tables and removes the
// empty year and month folders of the uploads directory; WordPress's
// tables are as they were before contentgen came.
//
// # A Generator over the site
//
// The Host says what it keeps (Host.Capabilities): the history, templates
// and state in those tables, media files only with an uploads directory,
// batches of sqlstore.SQLBatchSize. So the Generator is built as for any
// backend, with nothing but the host:
//
//	gen, err := contentgen.New(site.Host(), nil, cfg)
//
// Without an uploads directory, generated images are recorded by the URL
// they came from (attachments whose guid is that URL), and images
// without one (provider_local) are left out with a warning; uploads to
// the media library are refused.
//
// # Reading
//
// Generator.Content reads the site through the Host. Its pages of posts,
// media, terms and users are listed by the Host itself (list.go,
// contentgen.Lister): a COUNT(*) and the page's ids by id with LIMIT and
// OFFSET, on WordPress's own indexes (wp_posts by type and status,
// term_taxonomy by taxonomy); roles are matched in the serialised
// {prefix}capabilities, as Users does.
//
// # What it guarantees
//
// Every write is one transaction (a savepoint of the one its context
// carries). Host.InTx is the transaction of Site.DB, so a Generator over
// the Host commits each batch of content together with its history
// entries, or neither. Objects a write refers to (authors, parents, terms,
// posts, media) are checked under a shared lock inside it, so a concurrent
// delete cannot slip in; writes that need unique values (post slugs, term
// slugs, logins, e-mail addresses, nicenames) take a row lock of the
// table prefix+"contentgen_wplock", as WordPress's tables have no unique
// keys for them.
//
// The rows are those wp_insert_post, wp_insert_term, wp_insert_user,
// wp_insert_comment and wp_insert_attachment write:
//   - posts: post_name from the title as sanitize_title makes it, unique
//     as wp_unique_post_slug makes it (hello-world, hello-world-2, ...;
//     drafts and pending posts have none), post_date in the site's zone
//     (timezone_string or gmt_offset) and post_date_gmt, a guid, the
//     featured image in _thumbnail_id;
//   - term links with term_taxonomy.count recounted as
//     _update_post_term_count counts (published posts), and the cached
//     {taxonomy}_children option deleted when a hierarchical taxonomy
//     changes;
//   - comments (threaded through comment_parent) with the posts'
//     comment_count recounted;
//   - users with a phpass portable hash of a random password (which
//     wp_check_password accepts), a unique user_nicename, and
//     {prefix}capabilities and {prefix}user_level as WordPress serialises
//     them;
//   - attachments with _wp_attached_file and _wp_attachment_metadata as
//     wp_generate_attachment_metadata writes it, their files in the
//     uploads directory under YYYY/MM/ (StoreMedia), removed with them.
//
// Deletes cascade as wp_delete_post, wp_delete_term, wp_delete_user and
// wp_delete_comment do: meta, term links, comments and revisions go,
// children move up, counts are recounted, featured images are cleared,
// and no orphaned meta, term links or comments remain. TrashPosts and
// TrashComments use WordPress's trash (_wp_trash_meta_status,
// _wp_trash_meta_time).
//
// Differences from WordPress's own functions: no action or filter runs
// (no plugin sees the writes), posts of a type with categories get no
// default category when none is given, and the guid is the plain
// permalink (?p=ID) for every status.
package wphost
