package runs_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/runs"
	"github.com/contentgen/contentgen/contentgen/sqlstore"
	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/templates"
)

const postgresEnv = "CONTENTGEN_TEST_POSTGRES"

// engine opens a fresh database of one engine.
type engine struct {
	name string
	open func(t *testing.T) *sqlstore.DB
}

func engines() []engine {
	return []engine{
		{"sqlite", func(t *testing.T) *sqlstore.DB {
			return openDB(t, filepath.Join(t.TempDir(), "runs.db"), nil)
		}},
		{"postgres", func(t *testing.T) *sqlstore.DB {
			dsn, schema := freshPostgres(t)
			return openDB(t, dsn, &sqlstore.Options{Schema: schema, MaxConns: 4})
		}},
	}
}

// freshPostgres returns the DSN of the test PostgreSQL and the name of a
// schema of its own, dropped when the test ends; it skips the test when
// there is none.
func freshPostgres(t *testing.T) (dsn, schema string) {
	t.Helper()
	dsn = os.Getenv(postgresEnv)
	if dsn == "" {
		t.Skipf("set %s to a PostgreSQL DSN (such as postgres://postgres@127.0.0.1:5432/test?sslmode=disable) to run the PostgreSQL tests", postgresEnv)
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	schema = "cgruns_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		admin, err := sql.Open("pgx", dsn)
		if err != nil {
			return
		}
		defer admin.Close()
		_, _ = admin.Exec("DROP SCHEMA IF EXISTS " + pgx.Identifier{schema}.Sanitize() + " CASCADE")
	})
	return dsn, schema
}

func openDB(t *testing.T, dsn string, o *sqlstore.Options) *sqlstore.DB {
	t.Helper()
	db, err := sqlstore.Open(t.Context(), dsn, o)
	require.NoError(t, err)
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// site registers a blog's post types, taxonomies and roles in db and
// returns a Generator writing to it.
func site(t *testing.T, db *sqlstore.DB) *contentgen.Generator {
	t.Helper()
	ctx := t.Context()
	h := db.Host(nil)
	require.NoError(t, h.RegisterPostType(ctx, contentgen.PostType{
		Name: "post", Label: "Posts", Public: true, Supports: []string{"title", "editor", "comments", "author"},
		Taxonomies: []string{"category", "post_tag"},
	}))
	require.NoError(t, h.RegisterTaxonomy(ctx, contentgen.Taxonomy{Name: "category", Hierarchical: true, Public: true, PostTypes: []string{"post"}}))
	require.NoError(t, h.RegisterTaxonomy(ctx, contentgen.Taxonomy{Name: "post_tag", Public: true, PostTypes: []string{"post"}}))
	require.NoError(t, h.RegisterRole(ctx, contentgen.Role{Slug: "administrator", Capabilities: []string{contentgen.ManageOptions}}))
	require.NoError(t, h.RegisterRole(ctx, contentgen.Role{Slug: "editor", Capabilities: []string{"edit_posts"}}))
	_, err := h.CreateUsers(ctx, []contentgen.User{{Login: "admin", Email: "admin@example.com", Roles: []string{"administrator"}}})
	require.NoError(t, err)
	seed := int64(7)
	gen, err := contentgen.New(h, nil, &contentgen.Config{Seed: &seed})
	require.NoError(t, err)
	return gen
}

func service(t *testing.T, db *sqlstore.DB, gen *contentgen.Generator, o *runs.Options) *runs.Service {
	t.Helper()
	if o == nil {
		o = &runs.Options{}
	}
	if o.PollInterval == 0 {
		o.PollInterval = 50 * time.Millisecond
	}
	s, err := runs.New(t.Context(), db, gen, o)
	require.NoError(t, err)
	return s
}

func start(t *testing.T, s *runs.Service) {
	t.Helper()
	require.NoError(t, s.Start(t.Context()))
	t.Cleanup(func() { require.NoError(t, s.Stop(context.Background())) })
}

// follow waits for run id to reach a final status and returns it.
func follow(t *testing.T, s *runs.Service, id string) *runs.Run {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	var last *runs.Run
	require.NoError(t, s.Follow(ctx, id, func(r *runs.Run) error { last = r; return nil }))
	return last
}

// queuedJobs is the number of River jobs of run id's batches that wait
// for a worker.
func queuedJobs(t *testing.T, db *sqlstore.DB, id string) int {
	t.Helper()
	q := `SELECT COUNT(*) FROM river_job WHERE state IN ('available', 'scheduled', 'retryable', 'pending') AND args ->> '$.run' = ?`
	if db.Engine() == "postgres" {
		q = `SELECT COUNT(*) FROM river_job WHERE state IN ('available', 'scheduled', 'retryable', 'pending') AND args ->> 'run' = $1`
	}
	var n int
	require.NoError(t, db.ReadPool().QueryRowContext(t.Context(), q, id).Scan(&n))
	return n
}

// generated returns the generated posts of db's history and checks that
// each is a post that exists, with one entry.
func generatedPosts(t *testing.T, db *sqlstore.DB) int {
	t.Helper()
	entries, total, err := db.History().List(t.Context(), history.Filter{ContentType: history.TypePost})
	require.NoError(t, err)
	seen := map[int64]bool{}
	for _, e := range entries {
		require.False(t, seen[e.ContentID], "post %d has one history entry", e.ContentID)
		seen[e.ContentID] = true
	}
	posts, err := db.Host(nil).Posts(t.Context(), contentgen.PostQuery{Types: []string{"post"}})
	require.NoError(t, err)
	require.Len(t, posts, total, "every generated post exists and has an entry")
	return total
}

// TestRunPosts: a run of more posts than a batch holds is made in batches
// by two concurrent workers, each post once with one history entry, and
// reports what it did.
func TestRunPosts(t *testing.T) {
	for _, e := range engines() {
		t.Run(e.name, func(t *testing.T) {
			db := e.open(t)
			gen := site(t, db)
			s := service(t, db, gen, &runs.Options{Workers: 2, WorkerName: "w1"})
			start(t, s)
			r, err := s.Submit(t.Context(), runs.Request{Kind: runs.KindPosts, Count: 53, BatchSize: 10,
				Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false), Seed: new(int64(3))}})
			require.NoError(t, err)
			require.Equal(t, runs.StatusQueued, r.Status)
			require.EqualValues(t, 53, r.Total)
			require.EqualValues(t, 6, r.Batches)

			r = follow(t, s, r.ID)
			require.Equal(t, runs.StatusSucceeded, r.Status)
			require.EqualValues(t, 53, r.Done)
			require.EqualValues(t, 6, r.BatchesDone)
			// Two batches written at once may clash (a new term's slug)
			// and one be run again: counted, never made twice.
			require.Equal(t, r.Errors == 0, r.LastError == "")
			require.False(t, r.StartedAt.IsZero())
			require.False(t, r.EndedAt.Before(r.StartedAt))
			require.Equal(t, []runs.Worker{{Name: "w1", Batches: 6, Items: 53}}, r.Workers)
			require.Equal(t, 53, generatedPosts(t, db))

			list, err := s.List(t.Context(), 0)
			require.NoError(t, err)
			require.Len(t, list, 1)
			require.Equal(t, r.ID, list[0].ID)
		})
	}
}

// TestRunInvalid: a request that the generate call of its kind would
// refuse is refused when it is submitted, with the error of that call
// naming the parameter, and nothing is recorded; a run whose options stop
// fitting the site after it was submitted fails with the message of its
// batch, and nothing is made.
func TestRunInvalid(t *testing.T) {
	db := engines()[0].open(t)
	gen := site(t, db)
	s := service(t, db, gen, nil)
	ctx := t.Context()
	for _, c := range []struct {
		req   runs.Request
		err   error
		param string
	}{
		{runs.Request{Kind: runs.KindPosts, Count: 0}, contentgen.ErrInvalidCount, "count"},
		{runs.Request{Kind: "media", Count: 3}, contentgen.ErrInvalidParameter, "kind"},
		{runs.Request{Kind: runs.KindPosts, Count: 3, Posts: &contentgen.PostsRequest{DeleteExistingBeforeGenerate: true}}, contentgen.ErrInvalidParameter, "delete_existing_before_generate"},
		{runs.Request{Kind: runs.KindPosts, Count: 1200, Posts: &contentgen.PostsRequest{PostType: "book"}}, contentgen.ErrInvalidPostType, "post_type"},
		{runs.Request{Kind: runs.KindPosts, Count: 1200, Posts: &contentgen.PostsRequest{PostStatus: "gone"}}, contentgen.ErrInvalidParameter, "post_status"},
		{runs.Request{Kind: runs.KindPosts, Count: 1200, Posts: &contentgen.PostsRequest{Locale: "xx_XX"}}, contentgen.ErrInvalidParameter, "locale"},
		{runs.Request{Kind: runs.KindPosts, Count: 1200, Posts: &contentgen.PostsRequest{TemplateID: 99}}, contentgen.ErrNotFound, "template_id"},
		{runs.Request{Kind: runs.KindTerms, Count: 1200, Terms: &contentgen.TermsRequest{Taxonomy: "genre"}}, contentgen.ErrInvalidTaxonomy, "taxonomy"},
		{runs.Request{Kind: runs.KindTerms, Count: 1200, Terms: &contentgen.TermsRequest{Depth: new(9)}}, contentgen.ErrInvalidParameter, "depth"},
		{runs.Request{Kind: runs.KindTerms, Count: 1200, Terms: &contentgen.TermsRequest{GenerateHierarchy: true}}, contentgen.ErrInvalidParameter, "generate_hierarchy"},
		{runs.Request{Kind: runs.KindUsers, Count: 1200, Users: &contentgen.UsersRequest{Role: "wizard"}}, contentgen.ErrInvalidParameter, "role"},
		{runs.Request{Kind: runs.KindUsers, Count: 1200, Users: &contentgen.UsersRequest{AvatarProvider: "nope"}}, contentgen.ErrInvalidParameter, "avatar_provider"},
		{runs.Request{Kind: runs.KindUsers, Count: 1200, BatchSize: 501}, contentgen.ErrInvalidParameter, "batch_size"},
	} {
		_, err := s.Submit(ctx, c.req)
		require.ErrorIs(t, err, c.err, "%+v", c.req)
		var ce *contentgen.Error
		require.ErrorAs(t, err, &ce)
		require.Equal(t, c.param, ce.Param, "%+v: %v", c.req, err)
	}
	list, err := s.List(ctx, 0)
	require.NoError(t, err)
	require.Empty(t, list, "a refused request records no run")
	_, err = s.Get(ctx, "nope")
	require.ErrorIs(t, err, contentgen.ErrNotFound)

	// A Generator whose requests make at most 100 items makes batches of
	// 100 by default and refuses larger ones.
	small, err := contentgen.New(db.Host(nil), nil, &contentgen.Config{MaxCount: 100})
	require.NoError(t, err)
	ss := service(t, db, small, &runs.Options{Workers: runs.NoWorkers})
	editors := &contentgen.UsersRequest{Role: "editor"}
	_, err = ss.Submit(ctx, runs.Request{Kind: runs.KindUsers, Count: 300, BatchSize: 200, Users: editors})
	require.ErrorIs(t, err, contentgen.ErrInvalidParameter)
	r, err := ss.Submit(ctx, runs.Request{Kind: runs.KindUsers, Count: 300, Users: editors})
	require.NoError(t, err)
	require.Equal(t, 100, r.BatchSize)
	_, err = ss.Cancel(ctx, r.ID)
	require.NoError(t, err)

	// The template of a run is deleted before its batches run.
	tpl, err := gen.Templates().Create(ctx, templates.Input{Name: "Short posts", PostType: "post"})
	require.NoError(t, err)
	r, err = s.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: 1200, Posts: &contentgen.PostsRequest{TemplateID: tpl.ID}})
	require.NoError(t, err)
	require.EqualValues(t, 3, r.Batches, "batches of the per-request size by default")
	_, err = gen.Templates().Delete(ctx, tpl.ID, 0)
	require.NoError(t, err)
	start(t, s)
	r = follow(t, s, r.ID)
	require.Equal(t, runs.StatusFailed, r.Status)
	require.NotZero(t, r.Errors)
	require.Contains(t, r.LastError, "template_id")
	require.Zero(t, r.Done)
	require.Zero(t, queuedJobs(t, db, r.ID), "a failed run leaves no batch queued")
}

// TestRunCancelResume: a cancelled run stops within one batch, keeps what
// it made tracked, and a resumed run makes the rest, no batch twice.
func TestRunCancelResume(t *testing.T) {
	for _, e := range engines() {
		t.Run(e.name, func(t *testing.T) {
			db := e.open(t)
			gen := site(t, db)
			ctx := t.Context()
			// Submitted by a process that does not work, cancelled
			// before any batch ran: nothing is made.
			front := service(t, db, gen, &runs.Options{Workers: runs.NoWorkers})
			r, err := front.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: 40, BatchSize: 5, Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false)}})
			require.NoError(t, err)
			require.Equal(t, 8, queuedJobs(t, db, r.ID))
			r, err = front.Cancel(ctx, r.ID)
			require.NoError(t, err)
			require.Equal(t, runs.StatusCancelled, r.Status)
			require.False(t, r.EndedAt.IsZero())
			require.Zero(t, queuedJobs(t, db, r.ID), "a cancelled run leaves no batch queued")
			// Resumed and cancelled again: each batch is queued once.
			_, err = front.Resume(ctx, r.ID)
			require.NoError(t, err)
			require.Equal(t, 8, queuedJobs(t, db, r.ID))
			_, err = front.Cancel(ctx, r.ID)
			require.NoError(t, err)
			require.Zero(t, queuedJobs(t, db, r.ID))

			w := service(t, db, gen, &runs.Options{Workers: 1, WorkerName: "w"})
			require.NoError(t, w.Start(ctx))
			// Resumed, then cancelled once its first batch is done.
			_, err = w.Resume(ctx, r.ID)
			require.NoError(t, err)
			// What Cancel returns is read after its transaction
			// committed, so it holds every batch counted before; the
			// Done that Follow saw may lag it by batches made since.
			var cancelled *runs.Run
			err = w.Follow(ctx, r.ID, func(r *runs.Run) error {
				if r.Done > 0 && cancelled == nil {
					var err error
					cancelled, err = w.Cancel(ctx, r.ID)
					return err
				}
				return nil
			})
			require.NoError(t, err)
			require.NoError(t, w.Stop(ctx))
			r, err = w.Get(ctx, r.ID)
			require.NoError(t, err)
			require.Equal(t, runs.StatusCancelled, r.Status)
			require.Equal(t, runs.StatusCancelled, cancelled.Status)
			// The one worker writes one batch at a time: at most that
			// batch, begun before the cancel, is counted after it.
			require.GreaterOrEqual(t, r.Done, cancelled.Done)
			require.LessOrEqual(t, r.Done, cancelled.Done+5, "at most the batch being written finishes after the cancel")
			require.EqualValues(t, r.Done, generatedPosts(t, db), "what was made stays tracked")
			require.Zero(t, queuedJobs(t, db, r.ID))

			require.NoError(t, w.Start(ctx))
			t.Cleanup(func() { _ = w.Stop(context.Background()) })
			r, err = w.Resume(ctx, r.ID)
			require.NoError(t, err)
			require.Equal(t, runs.StatusRunning, r.Status)
			r = follow(t, w, r.ID)
			require.Equal(t, runs.StatusSucceeded, r.Status)
			require.EqualValues(t, 40, r.Done)
			require.EqualValues(t, 8, r.BatchesDone)
			require.Equal(t, 40, generatedPosts(t, db))
		})
	}
}

// titles returns the titles of db's posts, oldest first.
func titles(t *testing.T, db *sqlstore.DB) []string {
	t.Helper()
	posts, err := db.Host(nil).Posts(t.Context(), contentgen.PostQuery{Types: []string{"post"}})
	require.NoError(t, err)
	out := make([]string, len(posts))
	for i, p := range posts {
		out[i] = p.Title
	}
	return out
}

// runPosts makes a run of 20 posts in batches of 10 with a fresh
// Generator seeded 7 (as a process started anew would have) and returns
// it when it succeeded.
func runPosts(t *testing.T, db *sqlstore.DB, seed *int64) *runs.Run {
	t.Helper()
	gen, err := contentgen.New(db.Host(nil), nil, &contentgen.Config{Seed: new(int64(7))})
	require.NoError(t, err)
	s := service(t, db, gen, &runs.Options{WorkerName: "w"})
	require.NoError(t, s.Start(t.Context()))
	defer func() { require.NoError(t, s.Stop(context.Background())) }()
	r, err := s.Submit(t.Context(), runs.Request{Kind: runs.KindPosts, Count: 20, BatchSize: 10,
		Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false), AutoTaxonomies: new(false), Seed: seed}})
	require.NoError(t, err)
	r = follow(t, s, r.ID)
	require.Equal(t, runs.StatusSucceeded, r.Status)
	return r
}

// TestRunSeeds: with a Generator's fixed seed and no seed in the request,
// runs made by processes started anew differ, batch by batch; each run
// records the seed its batches derive theirs from, so that a run with
// that seed in its request makes the same posts.
func TestRunSeeds(t *testing.T) {
	db := engines()[0].open(t)
	site(t, db)
	a := runPosts(t, db, nil)
	b := runPosts(t, db, nil)
	got := titles(t, db)
	require.Len(t, got, 40)
	for i := 0; i < 40; i += 10 {
		for j := i + 10; j < 40; j += 10 {
			require.NotEqual(t, got[i:i+10], got[j:j+10], "batches %d and %d of the two runs repeat each other", i/10, j/10)
		}
	}
	require.NotEqual(t, a.Seed, b.Seed)

	// The same seed in a request, on a site as the first run found it.
	again := engines()[0].open(t)
	site(t, again)
	c := runPosts(t, again, new(a.Seed))
	require.Equal(t, a.Seed, c.Seed)
	require.Equal(t, got[:20], titles(t, again))
}

// hookHost is the host of a DB whose CreatePosts first calls hook with
// the context of the write (a batch's), which may hold it or fail it.
type hookHost struct {
	*sqlstore.Host
	hook func(ctx context.Context) error
}

// InTx hands fn the transaction's host with the hook.
func (h *hookHost) InTx(ctx context.Context, fn func(ctx context.Context, tx contentgen.Host) error) error {
	return h.Host.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
		return fn(ctx, &hookHost{Host: tx.(*sqlstore.Host), hook: h.hook})
	})
}

func (h *hookHost) CreatePosts(ctx context.Context, posts []contentgen.Post) ([]int64, error) {
	if err := h.hook(ctx); err != nil {
		return nil, err
	}
	return h.Host.CreatePosts(ctx, posts)
}

// panicHost is the host of a DB whose CreatePosts panics when given n
// posts: a worker that fails every attempt of the batch of that size,
// outside what Work counts itself.
type panicHost struct {
	*sqlstore.Host
	n int
}

// InTx hands fn the transaction's host, panicking likewise.
func (h *panicHost) InTx(ctx context.Context, fn func(ctx context.Context, tx contentgen.Host) error) error {
	return h.Host.InTx(ctx, func(ctx context.Context, tx contentgen.Host) error {
		return fn(ctx, &panicHost{Host: tx.(*sqlstore.Host), n: h.n})
	})
}

func (h *panicHost) CreatePosts(ctx context.Context, posts []contentgen.Post) ([]int64, error) {
	if len(posts) == h.n {
		panic("the worker fails on this batch")
	}
	return h.Host.CreatePosts(ctx, posts)
}

// jobStates counts the River jobs of run id's batches by state.
func jobStates(t *testing.T, db *sqlstore.DB, id string) map[string]int {
	t.Helper()
	q := `SELECT state, COUNT(*) FROM river_job WHERE args ->> '$.run' = ? GROUP BY state`
	if db.Engine() == "postgres" {
		q = `SELECT state, COUNT(*) FROM river_job WHERE args ->> 'run' = $1 GROUP BY state`
	}
	rows, err := db.ReadPool().QueryContext(t.Context(), q, id)
	require.NoError(t, err)
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var state string
		var n int
		require.NoError(t, rows.Scan(&state, &n))
		out[state] = n
	}
	require.NoError(t, rows.Err())
	return out
}

// TestRunBatchFailsEveryAttempt: a batch whose worker fails on every
// attempt (here by panicking, which Work does not see) is discarded by
// River after its last; the run is told and fails, with every attempt
// counted and the error recorded, and what its other batches made stays
// counted and tracked.
func TestRunBatchFailsEveryAttempt(t *testing.T) {
	for _, e := range engines() {
		t.Run(e.name, func(t *testing.T) {
			db := e.open(t)
			site(t, db)
			// The last batch of 23 posts in batches of 5 has 3.
			gen, err := contentgen.New(&panicHost{Host: db.Host(nil), n: 3}, nil, nil)
			require.NoError(t, err)
			s := service(t, db, gen, &runs.Options{Workers: 1, WorkerName: "w", MaxAttempts: 3})
			require.NoError(t, s.Start(t.Context()))
			r, err := s.Submit(t.Context(), runs.Request{Kind: runs.KindPosts, Count: 23, BatchSize: 5,
				Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false), AutoTaxonomies: new(false)}})
			require.NoError(t, err)
			require.EqualValues(t, 5, r.Batches)

			r = follow(t, s, r.ID)
			require.Equal(t, runs.StatusFailed, r.Status)
			require.False(t, r.EndedAt.IsZero())
			require.EqualValues(t, 3, r.Errors, "each attempt of the batch counts")
			require.Equal(t, "generation failed", r.LastError)
			require.EqualValues(t, 4, r.BatchesDone, "the other batches were done")
			require.EqualValues(t, 20, r.Done)
			require.Equal(t, 20, generatedPosts(t, db), "what the other batches made stays tracked")
			// The run fails as River hears of the last attempt, before it
			// records the job discarded; Stop waits for that.
			require.NoError(t, s.Stop(t.Context()))
			require.Equal(t, map[string]int{"completed": 4, "discarded": 1}, jobStates(t, db, r.ID))
		})
	}
}

// TestRunBatchTimeout: a run's batches may take a time chosen when it is
// submitted by what they do; a batch past it is cancelled, counted as a
// failed attempt, and made by its next.
func TestRunBatchTimeout(t *testing.T) {
	db := engines()[0].open(t)
	gen := site(t, db)
	ctx := t.Context()
	front := service(t, db, gen, &runs.Options{Workers: runs.NoWorkers})
	for _, c := range []struct {
		req  runs.Request
		want time.Duration
	}{
		{runs.Request{Kind: runs.KindPosts, Count: 1000, Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false)}}, runs.DefaultBatchTimeout},
		{runs.Request{Kind: runs.KindTerms, Count: 1000}, runs.DefaultBatchTimeout},
		// The site's posts have no featured images.
		{runs.Request{Kind: runs.KindPosts, Count: 1000}, runs.DefaultBatchTimeout},
		{runs.Request{Kind: runs.KindPosts, Count: 1000, BatchSize: 100, Posts: &contentgen.PostsRequest{TextSource: contentgen.TextSourceAI}}, 100 * runs.SlowItemTime},
		{runs.Request{Kind: runs.KindPosts, Count: 1000, BatchSize: 10, Posts: &contentgen.PostsRequest{TextSource: contentgen.TextSourceAI}}, runs.DefaultBatchTimeout},
		{runs.Request{Kind: runs.KindUsers, Count: 1000, Users: &contentgen.UsersRequest{Role: "editor"}}, 500 * runs.SlowItemTime},
		{runs.Request{Kind: runs.KindPosts, Count: 1000, Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false), TextSource: contentgen.TextSourceAI}}, 500 * runs.SlowItemTime},
	} {
		r, err := front.Submit(ctx, c.req)
		require.NoError(t, err)
		require.Equal(t, c.want, r.BatchTimeout, "%+v", c.req)
		r, err = front.Cancel(ctx, r.ID)
		require.NoError(t, err)
		require.Equal(t, c.want, r.BatchTimeout, "%+v", c.req)
	}

	// The first attempt of the batch holds until it is past its time.
	first := true
	var mu sync.Mutex
	host := &hookHost{Host: db.Host(nil), hook: func(ctx context.Context) error {
		mu.Lock()
		hold := first
		first = false
		mu.Unlock()
		if hold {
			<-ctx.Done()
			return ctx.Err()
		}
		return nil
	}}
	slow, err := contentgen.New(host, nil, nil)
	require.NoError(t, err)
	s := service(t, db, slow, &runs.Options{RescueAfter: 2 * time.Second})
	start(t, s)
	r, err := s.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: 10, Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false)}})
	require.NoError(t, err)
	require.Equal(t, 2*time.Second, r.BatchTimeout, "Options.RescueAfter, when set, is every batch's time")
	r = follow(t, s, r.ID)
	require.Equal(t, runs.StatusSucceeded, r.Status)
	require.EqualValues(t, 1, r.Errors, "the attempt past its time counts")
	require.Contains(t, r.LastError, "took longer than its 2s")
	require.Equal(t, 10, generatedPosts(t, db))
}

// TestRunsOfTablePrefixesStayApart: two sites in one database, told apart
// by sqlstore's TablePrefix, share River's tables (which take no prefix);
// the workers of each take only its own batches.
func TestRunsOfTablePrefixesStayApart(t *testing.T) {
	for _, e := range []struct {
		name string
		open func(t *testing.T, prefix string) *sqlstore.DB
	}{
		{"sqlite", func() func(*testing.T, string) *sqlstore.DB {
			var file string
			return func(t *testing.T, prefix string) *sqlstore.DB {
				if file == "" {
					file = filepath.Join(t.TempDir(), "sites.db")
				}
				return openDB(t, file, &sqlstore.Options{TablePrefix: prefix})
			}
		}()},
		{"postgres", func() func(*testing.T, string) *sqlstore.DB {
			var dsn, schema string
			return func(t *testing.T, prefix string) *sqlstore.DB {
				if dsn == "" {
					dsn, schema = freshPostgres(t)
				}
				return openDB(t, dsn, &sqlstore.Options{Schema: schema, TablePrefix: prefix, MaxConns: 4})
			}
		}()},
	} {
		t.Run(e.name, func(t *testing.T) {
			ctx := t.Context()
			dbA, dbB := e.open(t, "a_"), e.open(t, "b_")
			genA, genB := site(t, dbA), site(t, dbB)
			frontA := service(t, dbA, genA, &runs.Options{Workers: runs.NoWorkers})
			ra, err := frontA.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: 30, BatchSize: 10, Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false)}})
			require.NoError(t, err)

			// B's worker makes B's run and leaves A's batches alone,
			// though they were queued first.
			workerB := service(t, dbB, genB, &runs.Options{WorkerName: "b"})
			start(t, workerB)
			rb, err := workerB.Submit(ctx, runs.Request{Kind: runs.KindPosts, Count: 20, BatchSize: 10, Posts: &contentgen.PostsRequest{SetFeaturedImage: new(false)}})
			require.NoError(t, err)
			rb = follow(t, workerB, rb.ID)
			require.Equal(t, runs.StatusSucceeded, rb.Status)
			require.Equal(t, 3, queuedJobs(t, dbA, ra.ID), "A's batches wait for A's workers")
			ra, err = frontA.Get(ctx, ra.ID)
			require.NoError(t, err)
			require.Equal(t, runs.StatusQueued, ra.Status)

			workerA := service(t, dbA, genA, &runs.Options{WorkerName: "a"})
			start(t, workerA)
			ra = follow(t, workerA, ra.ID)
			require.Equal(t, runs.StatusSucceeded, ra.Status)
			require.Equal(t, []runs.Worker{{Name: "a", Batches: 3, Items: 30}}, ra.Workers)
			require.Equal(t, 30, generatedPosts(t, dbA))
			require.Equal(t, 20, generatedPosts(t, dbB))
		})
	}
}

// commentsPerPost counts db's comments by post.
func commentsPerPost(t *testing.T, db *sqlstore.DB) map[int64]int {
	t.Helper()
	cs, err := db.Host(nil).Comments(t.Context(), contentgen.CommentQuery{})
	require.NoError(t, err)
	out := map[int64]int{}
	for _, c := range cs {
		out[c.PostID]++
	}
	return out
}

// TestRunComments: a run of comments makes its count of comments in all,
// batch after batch walking the published posts (or the posts it names),
// each with one history entry; it is refused when there is nothing to
// comment on.
func TestRunComments(t *testing.T) {
	for _, e := range engines() {
		t.Run(e.name, func(t *testing.T) {
			db := e.open(t)
			gen := site(t, db)
			ctx := t.Context()
			s := service(t, db, gen, &runs.Options{WorkerName: "w"})
			_, err := s.Submit(ctx, runs.Request{Kind: runs.KindComments, Count: 100})
			require.ErrorIs(t, err, contentgen.ErrInvalidParameter, "no post to comment on yet")
			var ce *contentgen.Error
			require.ErrorAs(t, err, &ce)
			require.Equal(t, "post_type", ce.Param)
			_, err = s.Submit(ctx, runs.Request{Kind: runs.KindComments, Count: 100, Comments: &contentgen.CommentsRequest{DeleteExisting: true}})
			require.ErrorIs(t, err, contentgen.ErrInvalidParameter)
			_, err = s.Submit(ctx, runs.Request{Kind: runs.KindComments, Count: 100, Comments: &contentgen.CommentsRequest{PostIDs: []int64{99}}})
			require.ErrorIs(t, err, contentgen.ErrInvalidParameter)

			posts, err := gen.GeneratePosts(ctx, contentgen.PostsRequest{Count: new(30), SetFeaturedImage: new(false), AutoTaxonomies: new(false)})
			require.NoError(t, err)
			start(t, s)
			noAvatars := new(0)
			r, err := s.Submit(ctx, runs.Request{Kind: runs.KindComments, Count: 250, BatchSize: 40,
				Comments: &contentgen.CommentsRequest{CommentsPerPostMin: new(2), CommentsPerPostMax: new(6), AvatarPercentage: noAvatars, Seed: new(int64(5))}})
			require.NoError(t, err)
			require.EqualValues(t, 7, r.Batches)
			r = follow(t, s, r.ID)
			require.Equal(t, runs.StatusSucceeded, r.Status)
			require.EqualValues(t, 250, r.Done)
			per := commentsPerPost(t, db)
			require.Len(t, per, 30, "the batches walk every post")
			all := 0
			for _, n := range per {
				all += n
			}
			require.Equal(t, 250, all)
			_, total, err := db.History().List(ctx, history.Filter{ContentType: history.TypeComment})
			require.NoError(t, err)
			require.Equal(t, 250, total, "every comment is tracked")

			// Three posts named, round and round.
			three := posts.IDs[:3]
			r, err = s.Submit(ctx, runs.Request{Kind: runs.KindComments, Count: 90, BatchSize: 20,
				Comments: &contentgen.CommentsRequest{PostIDs: three, CommentsPerPostMin: new(3), CommentsPerPostMax: new(3), AvatarPercentage: noAvatars}})
			require.NoError(t, err)
			r = follow(t, s, r.ID)
			require.Equal(t, runs.StatusSucceeded, r.Status)
			require.EqualValues(t, 90, r.Done)
			after := commentsPerPost(t, db)
			for _, id := range three {
				require.GreaterOrEqual(t, after[id]-per[id], 25, "post %d", id)
			}
			all = 0
			for _, n := range after {
				all += n
			}
			require.Equal(t, 250+90, all, "only the three named posts got the run's comments")
		})
	}
}

// TestRunsTableFromBefore: a runs table made before runs counted their
// batches in it gets the count of the batches it recorded, and its runs
// go on.
func TestRunsTableFromBefore(t *testing.T) {
	db := engines()[0].open(t)
	gen := site(t, db)
	ctx := t.Context()
	for _, stmt := range []string{
		`CREATE TABLE runs (id TEXT PRIMARY KEY, kind TEXT NOT NULL, total BIGINT NOT NULL, batch_size INTEGER NOT NULL,
			batches BIGINT NOT NULL, request TEXT NOT NULL, status TEXT NOT NULL, done BIGINT NOT NULL DEFAULT 0,
			errors BIGINT NOT NULL DEFAULT 0, last_error TEXT NOT NULL DEFAULT '', created_at BIGINT NOT NULL,
			started_at BIGINT, ended_at BIGINT)`,
		`CREATE TABLE run_batches (run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE, batch BIGINT NOT NULL,
			worker TEXT NOT NULL, items INTEGER NOT NULL, finished_at BIGINT NOT NULL, PRIMARY KEY (run_id, batch))`,
		`INSERT INTO runs (id, kind, total, batch_size, batches, request, status, done, created_at, started_at)
			VALUES ('old', 'posts', 20, 10, 2, '{"posts":{"SetFeaturedImage":false}}', 'cancelled', 10, 1, 1)`,
		`INSERT INTO run_batches (run_id, batch, worker, items, finished_at) VALUES ('old', 0, 'w', 10, 1)`,
	} {
		_, err := db.WritePool().ExecContext(ctx, stmt)
		require.NoError(t, err)
	}
	s := service(t, db, gen, &runs.Options{WorkerName: "w"})
	var done int
	require.NoError(t, db.ReadPool().QueryRowContext(ctx, `SELECT batches_done FROM runs WHERE id = 'old'`).Scan(&done))
	require.Equal(t, 1, done)
	start(t, s)
	r, err := s.Resume(ctx, "old")
	require.NoError(t, err)
	r = follow(t, s, r.ID)
	require.Equal(t, runs.StatusSucceeded, r.Status, "the second batch ends the run")
	require.EqualValues(t, 20, r.Done)
}
