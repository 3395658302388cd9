package runs

import (
	"cmp"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivertype"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
)

// Kind is what a run generates.
type Kind string

// The kinds of runs.
const (
	KindPosts Kind = "posts"
	KindTerms Kind = "terms"
	KindUsers Kind = "users"
	// KindComments makes comments on existing posts: Count comments in
	// all, spread over the posts of the request (see Request).
	KindComments Kind = "comments"
)

// Status is where a run is.
type Status string

// The statuses of a run. Succeeded, Failed and Cancelled are final until
// Resume (of a failed or cancelled run).
const (
	StatusQueued    Status = "queued"
	StatusRunning   Status = "running"
	StatusSucceeded Status = "succeeded"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
)

// Final reports whether no batch of a run in status s runs any more.
func (s Status) Final() bool {
	return s == StatusSucceeded || s == StatusFailed || s == StatusCancelled
}

// Request asks for a run of Count items of Kind, each batch made with the
// request of the matching kind (Posts, Terms or Users; nil means its
// defaults), whose own Count is ignored. The request's Seed, when set, is
// the run's seed; without it Submit draws one (see Run.Seed).
type Request struct {
	Kind  Kind
	Count int64
	Posts *contentgen.PostsRequest
	Terms *contentgen.TermsRequest
	Users *contentgen.UsersRequest
	// Comments is the request of a comments run, whose Count and
	// FirstPost are the run's: each batch makes its count of comments
	// (contentgen.CommentsRequest.Count) on the request's posts (PostIDs,
	// or the published posts of PostType), which take turns, each getting
	// CommentsPerPostMin to CommentsPerPostMax comments a turn. Batch i
	// starts at the post that the comments of the batches before it
	// reach on average, so that the run walks the posts in the order of
	// their ids, round to the first again: Count comments in all, about
	// Count/posts on each.
	Comments *contentgen.CommentsRequest
	// BatchSize is the number of items of a batch, 1 to the
	// Generator's MaxCount; 0 means Options.BatchSize.
	BatchSize int
}

// Worker is a worker that did batches of a run.
type Worker struct {
	Name    string
	Batches int64
	Items   int64
}

// Run is the state of a run.
type Run struct {
	ID     string
	Kind   Kind
	Status Status
	// Done is the number of items made; Total the number asked for.
	Done, Total int64
	// Batches is the number of batches of the run, BatchesDone those
	// recorded as done.
	Batches, BatchesDone int64
	BatchSize            int
	// Errors counts the failed attempts of batches; LastError is the
	// client-safe message of the last.
	Errors    int64
	LastError string
	// Warnings are the distinct warnings of the batches.
	Warnings []string
	// CreatedAt is when the run was submitted; StartedAt when its first
	// batch began (zero before); EndedAt when it reached a final status
	// (zero before).
	CreatedAt, StartedAt, EndedAt time.Time
	// Workers did its batches, by name.
	Workers []Worker
	// Request is the request of the run.
	Request Request
	// BatchTimeout is how long a batch of the run may take before it is
	// cancelled and run again, and how long the batch of a process that
	// died waits before another takes it up (see Options.RescueAfter).
	BatchTimeout time.Duration
	// Seed is the run's seed: its request's, or one Submit drew at
	// random. Batch i is made with a seed derived from Seed and i alone,
	// so that a batch run again (after a crash, or on resume) makes what
	// its first run would have, and two runs without a seed differ
	// whatever the Generator's Config.Seed.
	Seed int64

	// queue is River's queue of the run's batches.
	queue string
}

// NoWorkers, as Options.Workers, makes a Service that submits and reports
// runs without working on them.
const NoWorkers = -1

// Options configures New; nil means the defaults.
type Options struct {
	// Workers is the number of batches this process works on at once; 0
	// means 1, NoWorkers none.
	Workers int
	// WorkerName names this process among a run's workers; "" means the
	// host name and process id.
	WorkerName string
	// BatchSize is the default size of a batch; 0 means
	// contentgen.DefaultMaxCount. It is cut to the Generator's MaxCount.
	BatchSize int
	// PollInterval is how often an idle worker looks for batches on
	// PostgreSQL, and Follow for changes made by other processes; 0
	// means a second.
	PollInterval time.Duration
	// RescueAfter is how long a batch may run: one that runs longer is
	// cancelled, counted as a failed attempt and run again, and the batch
	// of a process that died is taken as lost and run again by another
	// once that time passed since it began (River's rescuer looks every
	// 30 seconds). Set, it is the time of every batch this process
	// submits, works on or rescues. 0 means a time for each run, chosen
	// when it is submitted by what its batches do (Run.BatchTimeout):
	// DefaultBatchTimeout for batches made offline, SlowItemTime an item
	// (at least DefaultBatchTimeout) for batches that fetch images or AI
	// text. Shorter times take lost batches up sooner; a time shorter than
	// a batch takes fails every attempt of it.
	RescueAfter time.Duration
	// MaxAttempts is the number of runs of a failing batch before its run
	// fails; 0 means 10.
	MaxAttempts int
	// Now is the clock of the times of runs; nil means time.Now.
	Now func() time.Time
	// Logger receives failures of batches; nil discards them.
	Logger *slog.Logger
	// Ledger is the database of the Generator's content when it is not
	// the run's database, such as the *wphost.Site of a WordPress site
	// written through its database; nil means the run's database holds
	// the content too (see Ledger).
	Ledger Ledger
}

func (o *Options) withDefaults() (Options, error) {
	var c Options
	if o != nil {
		c = *o
	}
	switch {
	case c.Workers < NoWorkers:
		return c, fmt.Errorf("runs: Options.Workers must be %d (none) or more, got %d", NoWorkers, c.Workers)
	case c.BatchSize < 0 || c.BatchSize > contentgen.DefaultMaxCount:
		return c, fmt.Errorf("runs: Options.BatchSize must be between 0 and %d, got %d", contentgen.DefaultMaxCount, c.BatchSize)
	case c.PollInterval < 0:
		return c, errors.New("runs: Options.PollInterval must not be negative")
	case c.RescueAfter < 0:
		return c, errors.New("runs: Options.RescueAfter must not be negative")
	case c.MaxAttempts < 0:
		return c, errors.New("runs: Options.MaxAttempts must not be negative")
	}
	if c.Workers == 0 {
		c.Workers = 1
	}
	if c.WorkerName == "" {
		host, _ := os.Hostname()
		c.WorkerName = host + "/" + strconv.Itoa(os.Getpid())
	}
	if c.BatchSize == 0 {
		c.BatchSize = contentgen.DefaultMaxCount
	}
	if c.PollInterval == 0 {
		c.PollInterval = time.Second
	}
	if c.MaxAttempts == 0 {
		c.MaxAttempts = 10
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c, nil
}

// Service submits, works on and reports runs. Several Services, in one
// process or several, may share a database: each works on the batches of
// every run.
type Service struct {
	db     *sqlstore.DB
	gen    *contentgen.Generator
	o      Options
	client *river.Client[*sql.Tx]
	t      tableNames
	pg     bool
	// queue is River's queue of the batches of this Service's runs (see
	// queueOf).
	queue string

	mu      sync.Mutex
	changed chan struct{} // closed and replaced when a run changes here
}

const (
	jobKind = "contentgen_run_batch"
	queue   = "contentgen_runs"
)

// batchArgs are the arguments of a batch's job.
type batchArgs struct {
	Run   string `json:"run"`
	Batch int64  `json:"batch"`
	// TimeoutMS is the run's BatchTimeout in milliseconds; 0 (jobs
	// queued before runs had one) means DefaultBatchTimeout.
	TimeoutMS int64 `json:"timeout_ms,omitempty"`
}

// The time a batch may take, unless Options.RescueAfter says otherwise.
const (
	// DefaultBatchTimeout is the time of a batch made offline (lorem or
	// real text, no images): 500 posts take well under a second, so a
	// minute leaves room for a slow disk or a busy machine while a
	// batch of a process that died waits at most about as long.
	DefaultBatchTimeout = time.Minute
	// SlowItemTime is the time an item of a batch that fetches images
	// (featured images, avatars) or AI text may take: each waits on
	// another service, a few at a time. A batch of 500 such items may
	// take 16m40s.
	SlowItemTime = 2 * time.Second
)

func (batchArgs) Kind() string { return jobKind }

// New returns a Service keeping its runs in db, made by gen, whose host
// and history must be db's (db.Host, and New(host, nil, ...)) for a batch
// to commit with its content, or, with Options.Ledger, the Ledger's (a
// WordPress site's: wphost's Site.Host). It creates the tables of River and of runs
// when missing. Start it to work on batches; Stop it before closing db.
func New(ctx context.Context, db *sqlstore.DB, gen *contentgen.Generator, opts *Options) (*Service, error) {
	if db == nil || gen == nil {
		return nil, errors.New("runs: New needs a database and a Generator")
	}
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Service{db: db, gen: gen, o: o, t: newTableNames(db.TablePrefix()), changed: make(chan struct{}), queue: queueOf(db.TablePrefix(), o.Ledger)}
	var driver riverdriver.Driver[*sql.Tx]
	switch db.Engine() {
	case "sqlite":
		driver = riversqlite.New(db.WritePool())
	case "postgres":
		driver = riverdatabasesql.New(db.WritePool())
		s.pg = true
	default:
		return nil, fmt.Errorf("runs: %s has no job queue; use SQLite or PostgreSQL", db.Engine())
	}
	if err := s.migrate(ctx, driver); err != nil {
		return nil, err
	}
	cfg := &river.Config{
		ID:                   sanitizeID(o.WorkerName),
		Logger:               slog.New(slog.DiscardHandler),
		FetchPollInterval:    o.PollInterval,
		FetchCooldown:        min(100*time.Millisecond, o.PollInterval),
		JobTimeout:           cmp.Or(o.RescueAfter, DefaultBatchTimeout),
		RescueStuckJobsAfter: cmp.Or(o.RescueAfter, DefaultBatchTimeout),
		MaxAttempts:          o.MaxAttempts,
		RetryPolicy:          retryPolicy{},
		ErrorHandler:         errorHandler{s: s},
		PollOnly:             true,
	}
	if o.Workers > 0 {
		workers := river.NewWorkers()
		if err := river.AddWorkerSafely(workers, &batchWorker{s: s}); err != nil {
			return nil, fmt.Errorf("runs: %w", err)
		}
		cfg.Workers = workers
		cfg.Queues = map[string]river.QueueConfig{s.queue: {MaxWorkers: o.Workers}}
	}
	client, err := river.NewClient(driver, cfg)
	if err != nil {
		return nil, fmt.Errorf("runs: %w", err)
	}
	s.client = client
	return s, nil
}

// sanitizeID makes name a River client id.
func sanitizeID(name string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r < 0x20 {
			return '_'
		}
		return r
	}, name)
}

// retryPolicy runs a failed batch again after a pause that grows with its
// attempts, at most a minute.
type retryPolicy struct{}

func (retryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	return time.Now().Add(min(time.Duration(job.Attempt)*time.Second, time.Minute))
}

// Start starts working on batches (with Options.Workers, else nothing).
func (s *Service) Start(ctx context.Context) error {
	if s.o.Workers <= 0 {
		return nil
	}
	if err := s.client.Start(ctx); err != nil {
		return fmt.Errorf("runs: starting: %w", err)
	}
	return nil
}

// Stop stops taking batches and waits, until ctx is done, for those being
// worked on; after ctx is done it cancels them (their batches will be run
// again, by this process or another).
func (s *Service) Stop(ctx context.Context) error {
	if s.o.Workers <= 0 {
		return nil
	}
	err := s.client.Stop(ctx)
	if err != nil && ctx.Err() != nil {
		err = s.client.StopAndCancel(context.WithoutCancel(ctx))
	}
	if err != nil {
		return fmt.Errorf("runs: stopping: %w", err)
	}
	return nil
}

// WorkerName is the name of this process among the workers of runs.
func (s *Service) WorkerName() string { return sanitizeID(s.o.WorkerName) }

// notify wakes the Follow calls of this process.
func (s *Service) notify() {
	s.mu.Lock()
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

func (s *Service) changes() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

// storedRequest is a Request as the runs table keeps it.
type storedRequest struct {
	Posts    *contentgen.PostsRequest    `json:"posts,omitempty"`
	Terms    *contentgen.TermsRequest    `json:"terms,omitempty"`
	Users    *contentgen.UsersRequest    `json:"users,omitempty"`
	Comments *contentgen.CommentsRequest `json:"comments,omitempty"`
	// Queue is River's queue of the run's batches; empty means queue.
	Queue string `json:"queue,omitempty"`
	// Seed is the run's seed; nil in runs recorded before runs had one.
	Seed *int64 `json:"seed,omitempty"`
	// TimeoutMS is the run's BatchTimeout in milliseconds; 0 in runs
	// recorded before runs had one.
	TimeoutMS int64 `json:"batch_timeout_ms,omitempty"`
}

// check validates req as the generate call of its kind validates its
// request (through the Generator's Check methods, with the count of the
// run's first batch), and returns its batch size and the time its
// batches may take.
func (s *Service) check(ctx context.Context, req *Request) (int, time.Duration, error) {
	notForRuns := func(param, why string) error {
		return contentgen.Errorf(contentgen.CodeInvalidParameter, param, "%s is not for runs: %s", param, why)
	}
	const deleteFirst = "a run cannot delete before it generates; delete first, then start the run"
	options := map[Kind]bool{KindPosts: req.Posts != nil, KindTerms: req.Terms != nil, KindUsers: req.Users != nil, KindComments: req.Comments != nil}
	if _, ok := options[req.Kind]; !ok {
		return 0, 0, contentgen.Errorf(contentgen.CodeInvalidParameter, "kind", "kind must be posts, terms, users or comments")
	}
	for k, set := range options {
		if set && k != req.Kind {
			return 0, 0, contentgen.Errorf(contentgen.CodeInvalidParameter, "kind", "kind %s takes the options of %s", req.Kind, req.Kind)
		}
	}
	switch {
	case req.Posts != nil && req.Posts.DeleteExistingBeforeGenerate:
		return 0, 0, notForRuns("delete_existing_before_generate", deleteFirst)
	case req.Terms != nil && req.Terms.DeleteExisting, req.Users != nil && req.Users.DeleteExisting, req.Comments != nil && req.Comments.DeleteExisting:
		return 0, 0, notForRuns("delete_existing", deleteFirst)
	case req.Terms != nil && req.Terms.GenerateHierarchy:
		return 0, 0, notForRuns("generate_hierarchy", "a run makes count flat terms, and a hierarchy is the tree of one request (POST /generate/terms)")
	}
	if req.Count < 1 {
		return 0, 0, contentgen.Errorf(contentgen.CodeInvalidCount, "count", "count must be at least 1")
	}
	maxSize := s.gen.MaxCount()
	size := req.BatchSize
	if size == 0 {
		size = min(s.o.BatchSize, maxSize)
	}
	if size < 1 || size > maxSize {
		return 0, 0, contentgen.Errorf(contentgen.CodeInvalidParameter, "batch_size", "batch_size must be between 1 and %d", maxSize)
	}
	// The options are checked as the first batch's request.
	first := int(min(int64(size), req.Count))
	var c contentgen.Check
	var err error
	switch req.Kind {
	case KindPosts:
		r := deref(req.Posts)
		r.Count = &first
		c, err = s.gen.CheckPosts(ctx, r)
	case KindTerms:
		r := deref(req.Terms)
		r.Count = &first
		c, err = s.gen.CheckTerms(ctx, r)
	case KindUsers:
		r := deref(req.Users)
		r.Count = &first
		c, err = s.gen.CheckUsers(ctx, r)
	case KindComments:
		r := deref(req.Comments)
		r.Count = &first
		c, err = s.gen.CheckComments(ctx, r)
	}
	if err != nil {
		return 0, 0, err
	}
	timeout := DefaultBatchTimeout
	switch {
	case s.o.RescueAfter > 0:
		timeout = s.o.RescueAfter
	case c.Images || c.AIText:
		timeout = max(DefaultBatchTimeout, time.Duration(size)*SlowItemTime)
	}
	return size, timeout, nil
}

// deref returns *p, or the zero T when p is nil.
func deref[T any](p *T) T {
	var v T
	if p != nil {
		v = *p
	}
	return v
}

// Submit records a run and queues its batches, in one transaction, and
// returns it queued. A request that the generate call of its kind would
// refuse now (an unknown post type, taxonomy or role, an option out of
// range) is refused with the same *contentgen.Error, and so is one that
// no run can make (a count below 1, a batch size above the Generator's
// MaxCount, deleting first, a hierarchy of terms); nothing is recorded
// then.
func (s *Service) Submit(ctx context.Context, req Request) (*Run, error) {
	size, timeout, err := s.check(ctx, &req)
	if err != nil {
		return nil, err
	}
	seed := requestSeed(&req)
	if seed == nil {
		var b [8]byte
		_, _ = rand.Read(b[:])
		seed = new(int64(binary.LittleEndian.Uint64(b[:])))
	}
	body, err := json.Marshal(storedRequest{Posts: req.Posts, Terms: req.Terms, Users: req.Users, Comments: req.Comments, Seed: seed, Queue: s.queue, TimeoutMS: timeout.Milliseconds()})
	if err != nil {
		return nil, fmt.Errorf("runs: encoding the request: %w", err)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	batches := (req.Count + int64(size) - 1) / int64(size)
	now := s.o.Now()
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		return s.db.WithSQLTx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO `+s.t.runs+` (id, kind, total, batch_size, batches, request, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
				id.String(), string(req.Kind), req.Count, size, batches, string(body), string(StatusQueued), now.UnixMicro()); err != nil {
				return fmt.Errorf("runs: recording the run: %w", err)
			}
			return s.queueBatches(ctx, tx, id.String(), s.queue, timeout, 0, batches, nil)
		})
	})
	if err != nil {
		return nil, err
	}
	s.notify()
	// The run as recorded, not as read again: a worker may have started
	// it since.
	req.BatchSize = size
	return &Run{ID: id.String(), Kind: req.Kind, Status: StatusQueued, Total: req.Count, Batches: batches, BatchSize: size,
		CreatedAt: time.UnixMicro(now.UnixMicro()).UTC(), Request: req, Seed: *seed, BatchTimeout: timeout}, nil
}

// requestSeed is the Seed of req's request of its kind, or nil.
func requestSeed(req *Request) *int64 {
	switch {
	case req.Posts != nil:
		return req.Posts.Seed
	case req.Terms != nil:
		return req.Terms.Seed
	case req.Users != nil:
		return req.Users.Seed
	case req.Comments != nil:
		return req.Comments.Seed
	}
	return nil
}

// batchSeed is the seed of batch b of a run seeded seed: SplitMix64 of
// the two, so that the batches of one run, and of runs with nearby seeds,
// do not share seeds.
func batchSeed(seed, b int64) int64 {
	z := uint64(seed) + uint64(b+1)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return int64(z ^ (z >> 31))
}

// queueBatches inserts the jobs of batches from to to-1 of run into
// River's queue q, each to take at most timeout, but those in done.
func (s *Service) queueBatches(ctx context.Context, tx *sql.Tx, run, q string, timeout time.Duration, from, to int64, done map[int64]bool) error {
	const chunk = 1000
	params := make([]river.InsertManyParams, 0, min(chunk, to-from))
	flush := func() error {
		if len(params) == 0 {
			return nil
		}
		if _, err := s.client.InsertManyFastTx(ctx, tx, params); err != nil {
			return fmt.Errorf("runs: queueing batches: %w", err)
		}
		params = params[:0]
		return nil
	}
	for b := from; b < to; b++ {
		if done[b] {
			continue
		}
		params = append(params, river.InsertManyParams{Args: batchArgs{Run: run, Batch: b, TimeoutMS: timeout.Milliseconds()}, InsertOpts: &river.InsertOpts{Queue: q}})
		if len(params) == chunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

// Get returns the run id, or an error matching contentgen.ErrNotFound.
func (s *Service) Get(ctx context.Context, id string) (*Run, error) {
	runs, err := s.list(ctx, `WHERE id = ?`, id)
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, contentgen.Errorf(contentgen.CodeNotFound, "id", "run not found")
	}
	return &runs[0], nil
}

// List returns the runs, newest first, at most limit (0: 100) of them.
func (s *Service) List(ctx context.Context, limit int) ([]Run, error) {
	if limit <= 0 {
		limit = 100
	}
	return s.list(ctx, `ORDER BY created_at DESC, id DESC LIMIT `+strconv.Itoa(limit))
}

func (s *Service) list(ctx context.Context, tail string, args ...any) ([]Run, error) {
	pool := s.db.ReadPool()
	rows, err := pool.QueryContext(ctx, s.q(`SELECT id, kind, total, batch_size, batches, request, status, done, errors, last_error, created_at, started_at, ended_at FROM `+s.t.runs+` `+tail), args...)
	if err != nil {
		return nil, fmt.Errorf("runs: reading runs: %w", err)
	}
	var out []Run
	for rows.Next() {
		var r Run
		var kind, status, body string
		var created int64
		var started, ended sql.NullInt64
		if err := rows.Scan(&r.ID, &kind, &r.Total, &r.BatchSize, &r.Batches, &body, &status, &r.Done, &r.Errors, &r.LastError, &created, &started, &ended); err != nil {
			rows.Close()
			return nil, fmt.Errorf("runs: reading runs: %w", err)
		}
		r.Kind, r.Status = Kind(kind), Status(status)
		r.CreatedAt = time.UnixMicro(created).UTC()
		if started.Valid {
			r.StartedAt = time.UnixMicro(started.Int64).UTC()
		}
		if ended.Valid {
			r.EndedAt = time.UnixMicro(ended.Int64).UTC()
		}
		var sr storedRequest
		if err := json.Unmarshal([]byte(body), &sr); err != nil {
			rows.Close()
			return nil, fmt.Errorf("runs: decoding the request of run %s: %w", r.ID, err)
		}
		r.Request = Request{Kind: r.Kind, Count: r.Total, BatchSize: r.BatchSize, Posts: sr.Posts, Terms: sr.Terms, Users: sr.Users, Comments: sr.Comments}
		// A run recorded before runs kept their queue is resumed into
		// this Service's.
		r.queue = cmp.Or(sr.Queue, s.queue)
		r.BatchTimeout = cmp.Or(time.Duration(sr.TimeoutMS)*time.Millisecond, DefaultBatchTimeout)
		if sr.Seed != nil {
			r.Seed = *sr.Seed
		} else {
			// A run recorded without a seed: one of its own, the same
			// for every batch and every process.
			h := fnv.New64a()
			h.Write([]byte(r.ID))
			r.Seed = int64(h.Sum64())
		}
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("runs: reading runs: %w", err)
	}
	for i := range out {
		if err := s.details(ctx, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// details reads the workers and warnings of r.
func (s *Service) details(ctx context.Context, r *Run) error {
	pool := s.db.ReadPool()
	rows, err := pool.QueryContext(ctx, s.q(`SELECT worker, COUNT(*), SUM(items) FROM `+s.t.batches+` WHERE run_id = ? GROUP BY worker ORDER BY worker`), r.ID)
	if err != nil {
		return fmt.Errorf("runs: reading workers: %w", err)
	}
	r.Workers = nil
	r.BatchesDone = 0
	for rows.Next() {
		var w Worker
		if err := rows.Scan(&w.Name, &w.Batches, &w.Items); err != nil {
			rows.Close()
			return fmt.Errorf("runs: reading workers: %w", err)
		}
		r.BatchesDone += w.Batches
		r.Workers = append(r.Workers, w)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("runs: reading workers: %w", err)
	}
	rows, err = pool.QueryContext(ctx, s.q(`SELECT message FROM `+s.t.warnings+` WHERE run_id = ? ORDER BY message`), r.ID)
	if err != nil {
		return fmt.Errorf("runs: reading warnings: %w", err)
	}
	defer rows.Close()
	r.Warnings = nil
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return fmt.Errorf("runs: reading warnings: %w", err)
		}
		r.Warnings = append(r.Warnings, m)
	}
	return rows.Err()
}

// Cancel cancels run id and removes its queued batch jobs, in one
// transaction; a batch being written finishes and is counted, one taken
// at that instant does nothing. Everything made stays tracked in
// the history. Cancelling a run in a final status changes nothing. An
// unknown id is an error matching contentgen.ErrNotFound.
func (s *Service) Cancel(ctx context.Context, id string) (*Run, error) {
	if _, err := s.Get(ctx, id); err != nil {
		return nil, err
	}
	err := s.db.InTx(ctx, func(ctx context.Context) error {
		return s.db.WithSQLTx(ctx, func(tx *sql.Tx) error {
			res, err := tx.ExecContext(ctx, s.q(`UPDATE `+s.t.runs+` SET status = ?, ended_at = ? WHERE id = ? AND status IN (?, ?)`),
				string(StatusCancelled), s.o.Now().UnixMicro(), id, string(StatusQueued), string(StatusRunning))
			if err != nil {
				return fmt.Errorf("runs: cancelling: %w", err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return nil
			}
			return s.dropJobs(ctx, tx, id)
		})
	})
	if err != nil {
		return nil, err
	}
	if s.o.Ledger != nil {
		// A batch whose content the site holds is counted, though its
		// job, removed above, will not run again.
		if r, err := s.Get(ctx, id); err != nil {
			return nil, err
		} else if _, err := s.reconcile(ctx, r); err != nil {
			return nil, err
		}
	}
	s.notify()
	return s.Get(ctx, id)
}

// dropJobs deletes, in tx, the jobs of run's batches that no worker is
// working on (available, scheduled, retryable or pending), so that a run
// that stopped leaves nothing queued. A job being worked on stays: its
// batch finds the run stopped, or finishes and is counted. On PostgreSQL
// a job that a worker is taking at that moment is skipped likewise.
func (s *Service) dropJobs(ctx context.Context, tx *sql.Tx, run string) error {
	where := `args ->> '$.run' = @run`
	if s.pg {
		where = `args ->> 'run' = @run`
	}
	const chunk = 10000
	params := river.NewJobDeleteManyParams().
		Kinds(jobKind).
		States(rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStateRetryable, rivertype.JobStatePending).
		Where(where, river.NamedArgs{"run": run}).
		First(chunk)
	for {
		res, err := s.client.JobDeleteManyTx(ctx, tx, params)
		if err != nil {
			return fmt.Errorf("runs: removing the queued batches of run %s: %w", run, err)
		}
		if len(res.Jobs) < chunk {
			return nil
		}
	}
}

// Resume queues again the batches that a cancelled or failed run has not
// done, and makes it queued (running when it had started). A run whose
// batches are all done by then (batches taken before it stopped may
// finish and count after it, see Cancel) is made succeeded instead, with
// nothing queued. Resuming an active or succeeded run changes nothing.
// An unknown id is an error matching contentgen.ErrNotFound.
func (s *Service) Resume(ctx context.Context, id string) (*Run, error) {
	r, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if r.Status != StatusCancelled && r.Status != StatusFailed {
		return r, nil
	}
	if s.o.Ledger != nil {
		// Batches the site holds are counted, not queued again.
		if done, err := s.reconcile(ctx, r); err != nil || done {
			if err != nil {
				return nil, err
			}
			return s.Get(ctx, id)
		}
	}
	err = s.db.InTx(ctx, func(ctx context.Context) error {
		return s.db.WithSQLTx(ctx, func(tx *sql.Tx) error {
			status := StatusQueued
			if !r.StartedAt.IsZero() {
				status = StatusRunning
			}
			res, err := tx.ExecContext(ctx, s.q(`UPDATE `+s.t.runs+` SET status = ?, ended_at = NULL WHERE id = ? AND status IN (?, ?)`),
				string(status), id, string(StatusCancelled), string(StatusFailed))
			if err != nil {
				return fmt.Errorf("runs: resuming: %w", err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return nil
			}
			done := map[int64]bool{}
			rows, err := tx.QueryContext(ctx, s.q(`SELECT batch FROM `+s.t.batches+` WHERE run_id = ?`), id)
			if err != nil {
				return fmt.Errorf("runs: resuming: %w", err)
			}
			for rows.Next() {
				var b int64
				if err := rows.Scan(&b); err != nil {
					rows.Close()
					return fmt.Errorf("runs: resuming: %w", err)
				}
				done[b] = true
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("runs: resuming: %w", err)
			}
			// Jobs a run stopped by an earlier version left queued would
			// run their batches twice.
			if err := s.dropJobs(ctx, tx, id); err != nil {
				return err
			}
			if int64(len(done)) >= r.Batches {
				// Every batch was counted after the run stopped (a
				// batch taken before the cancel, whose content a
				// Ledger holds, counts whatever the run's status, and
				// does not finish a stopped run): no job is left to
				// finish it, so it finishes here.
				if _, err := tx.ExecContext(ctx, s.q(`UPDATE `+s.t.runs+` SET status = ?, ended_at = ? WHERE id = ?`),
					string(StatusSucceeded), s.o.Now().UnixMicro(), id); err != nil {
					return fmt.Errorf("runs: resuming: %w", err)
				}
				return nil
			}
			return s.queueBatches(ctx, tx, id, r.queue, r.BatchTimeout, 0, r.Batches, done)
		})
	})
	if err != nil {
		return nil, err
	}
	s.notify()
	return s.Get(ctx, id)
}

// Follow calls fn with run id now and whenever it changes (a batch done,
// an error, a new status), until it reaches a final status (fn sees it),
// fn returns an error (returned), or ctx is done (ctx.Err()). Changes made
// in this process are seen at once, those of other processes within
// Options.PollInterval.
func (s *Service) Follow(ctx context.Context, id string, fn func(*Run) error) error {
	var last *Run
	for {
		changed := s.changes()
		r, err := s.Get(ctx, id)
		if err != nil {
			return err
		}
		if last == nil || r.Done != last.Done || r.Status != last.Status || r.Errors != last.Errors || len(r.Warnings) != len(last.Warnings) {
			if err := fn(r); err != nil {
				return err
			}
		}
		if r.Status.Final() {
			return nil
		}
		last = r
		t := time.NewTimer(s.o.PollInterval)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-changed:
		case <-t.C:
		}
		t.Stop()
	}
}
