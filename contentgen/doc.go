// Package contentgen generates realistic fake content — posts of any post
// type with taxonomy terms, hierarchical term trees, users with roles,
// threaded comments and images — into a content platform, tracks every
// item it made, and removes exactly those items later.
//
// # Pieces
//
// A Generator writes to a Host, the platform's storage, and records each
// created item in a history.Store. Its methods generate (GeneratePosts,
// GenerateTerms, GenerateUsers, GenerateComments), delete what was
// generated (Delete, DeletePosts, DeleteAll) and report the time saved.
// Delete selects by an IDFilter: OnlyIDs(ids...) deletes those of the ids
// that are generated (an empty list deletes nothing), the zero IDFilter
// every generated item of the kind. Five small services hang off it:
// Templates (saved templates and custom fields), Settings (general and AI
// settings, API keys), Media (the media library), History (listing,
// statistics and editing of the history alone) and Content (reading what
// is on the site).
//
// # Reading the site
//
// Every read of content goes through Content, a ContentService: pages
// of posts, terms, users and media (ContentQuery: subtypes, statuses,
// parent, Origin, search, Order, Page and PerPage) with the users,
// terms, featured images and avatars they refer to resolved in one host
// query per kind; one post with its comments; the site, post types,
// taxonomies and roles. A page is listed by the host when it implements
// Lister (filters, order, Limit and Offset, and the exact total, from
// one reading, such as SQL with an index), otherwise by the Generator,
// which reads the host's queries fallbackChunk items at a time and keeps
// only the ids of matches (listing.go); either way the page's objects
// are then read by their ids. A new filter goes into Listing, the
// fallback and the hosts' Listers, and is checked by hosttest. The
// Generator does not hand out its Host: reads go through Content, and a
// program that needs the host itself holds it already, having passed it
// to New.
//
// Package memhost is an in-memory Host for tests and demos, and demosite
// the demo site built on it; hosttest is the conformance suite for other
// Hosts.
//
// # Building a Generator
//
// New is the one way to build a Generator, whatever the backend. The
// host says what it keeps beside its content and what it can keep
// (Describer, Capabilities): the SQL hosts of contentgen/sqlstore and
// contentgen/wphost keep the history, templates and state in their
// database, so New(host, nil, cfg) is all they need, and their batches
// commit with their history entries. The Generator adds what a host
// lacks, in one place: in-memory stores where neither the host nor the
// Config gives one, the default batch size, undoing a batch whose history
// write failed on hosts without transactions (Transactor), and, on hosts
// that keep no media files (no MediaStorer, or Capabilities saying
// MediaRecordsOnly, or StoreMedia failing with errors.ErrUnsupported),
// images recorded by the URL they came from, or left out with a warning
// when they have none. A failed image never fails a run; only a full
// storage (ErrHostFull) does, keeping nothing. Text comes from the locales
// package, images from providers, saved generation configurations from
// templates.
//
// # Tracking and deletion
//
// Every generated object carries the meta MarkerKey = MarkerValue and a
// history entry, written in the same host transaction as the object on
// hosts that have transactions (Transactor) and undone otherwise, so that
// content and its tracking never part. Deletion finds items only through
// those two, so content made by people is never touched.
//
// # Concurrency
//
// A Generator is safe for concurrent use. A batch whose write fails
// because an object it refers to was deleted meanwhile (ErrHostReference)
// or a unique value clashed (ErrHostConflict) is planned again and
// retried a bounded number of times; a clash that survives is an *Error
// with CodeConflict.
//
// # Determinism
//
// A run draws every random choice from one source seeded from the
// request's Seed, else from Config.Seed, else randomly, and every date it
// makes from one reading of Config.Now. With a seed and a fixed clock a
// run is a pure function of the host state, which makes the Generator a
// fixture builder for tests (see package fixture).
//
// # Topics
//
// With the realtext text source, in a locale whose language data has
// topics (locales.Topic), every post of a run is about a topic: that of
// the first of its terms named after one (categories before tags, in the
// order of the post type's taxonomies), else that of its template's name
// or its post type's label, else a drawn one. The topic drives the post's
// title, headings, body, excerpt, the category of its featured image
// (unless the request names one) and the comments under it, a reply
// opening with "@" and the name of the one it answers; comments made
// later on existing posts follow the topic of their terms or text. Terms
// of such runs are named after topics: a tree puts subtopics and words of
// a topic under it ("Travel" > "Road Trips" > "Motel"), and tags made
// beside categories are subtopics and words of the categories' topics.
// A post's first term is drawn at random; its other categories and tags
// are of related topics (the same, the parent, a child or a sibling), and
// terms of other topics are added only when configured counts need them.
// Lorem runs and locales without topics are unchanged.
//
// # AI text
//
// With the ai text source (the text_source setting, PostsRequest.TextSource
// or a template's field configuration) the AI provider of the AI settings
// writes the titles, excerpts, bodies and comments of posts. A run plans
// its posts as a realtext run does (topic, terms, shape, the links and
// images of the body) and asks the provider, with bounded concurrency
// (Config.AITextConcurrency), for each post in Markdown in the run's
// language, about that topic, with that many paragraphs and the elements
// the shape allows. The answer is sanitised (no script, no raw HTML, no
// links or images of the model's: those of the run are placed by the
// Generator) and written in the run's content format with the structure
// rules of the offline bodies (locales.RenderModelMarkdown). Answers are
// cached by prompt and seed in memory and in Config.State, so a run with
// the same seed makes no new request. A run spends at most
// Config.AITokenBudget tokens; PostsResult.AIText reports what it spent
// and wrote. A post the provider does not write (it is not set up, fails,
// is skipped by its breaker after repeated failures, answers with nothing
// usable, or the budget is spent) is written as with realtext, and the
// run ends with one warning that counts them. The history entry of each
// post names the text source that wrote it (meta text_source), and the
// time saved counts posts by text source.
//
// # Errors
//
// Every failure is an *Error carrying a code (CodeInvalidPostType,
// CodeInvalidCount, CodeConflict, ...), a client-safe message and the
// parameter at fault; errors.Is works against ErrInvalidCount and the
// other sentinels. An invalid request writes nothing. A host error that
// wraps ErrHostFull (the storage is full) becomes CodeInsufficientStorage.
package contentgen
