package templates_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/templates"
)

// siteError is an error of the embedding program with its own code.
type siteError struct {
	Code  string
	Param string
	cause error
}

func (e *siteError) Error() string { return e.Code + ": " + e.Param }
func (e *siteError) Unwrap() error { return e.cause }

// checkCall records one call of the Check hook.
type checkCall struct {
	PostType string
	TC       templates.TaxonomyConfig
}

// hookSite is a site the hooks of a Library ask: its post types with
// their signatures; a taxonomy named "nope" fails the check with a
// *ParamError wrapped in a siteError, one named "down" with a plain
// siteError.
type hookSite struct {
	mu     sync.Mutex
	sigs   map[string]templates.Signature
	checks []checkCall
	signs  []string
}

func (s *hookSite) check(_ context.Context, postType string, tc templates.TaxonomyConfig) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.checks = append(s.checks, checkCall{postType, tc})
	if _, ok := s.sigs[postType]; !ok {
		return &siteError{Code: "invalid_post_type", Param: "post_type"}
	}
	if _, ok := tc["nope"]; ok {
		return &siteError{Code: "invalid_taxonomy", Param: "taxonomy_config.nope",
			cause: &templates.ParamError{Param: "taxonomy_config.nope", Message: "taxonomy nope is not registered"}}
	}
	if _, ok := tc["down"]; ok {
		return &siteError{Code: "generation_failed", Param: "taxonomy_config"}
	}
	return nil
}

func (s *hookSite) signature(_ context.Context, postType string) templates.Signature {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.signs = append(s.signs, postType)
	return s.sigs[postType]
}

func newHookLibrary(t *testing.T) (*templates.Library, templates.Store, *hookSite) {
	t.Helper()
	site := &hookSite{sigs: map[string]templates.Signature{
		"book": {"isbn:text"}, "event": {}, "unreadable": nil,
	}}
	store := templates.NewMemStore()
	return templates.NewLibrary(store, &templates.LibraryOptions{Check: site.check, Signature: site.signature}), store, site
}

func TestLibraryCheckHook(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	lib, store, site := newHookLibrary(t)

	_, err := lib.Create(ctx, templates.Input{Name: "Ships", PostType: "spaceship"})
	var se *siteError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "invalid_post_type", se.Code, "the hook's error is returned unchanged")
	_, err = lib.Create(ctx, templates.Input{PostType: "spaceship"})
	require.ErrorIs(t, err, templates.ErrInvalid, "Validate runs before the hook")
	require.Len(t, site.checks, 1)

	tc := templates.TaxonomyConfig{"genre": {Mode: templates.ModeNone}}
	books, err := lib.Create(ctx, templates.Input{Name: "Books", PostType: "book", TaxonomyConfig: tc})
	require.NoError(t, err)
	require.Equal(t, checkCall{"book", tc}, site.checks[1])

	_, err = lib.Update(ctx, books.ID, templates.Patch{Name: templates.Ptr("Novels")})
	require.NoError(t, err)
	require.Len(t, site.checks, 2, "Update checks only a changed taxonomy_config")
	_, err = lib.Update(ctx, books.ID, templates.Patch{Name: templates.Ptr("Bad"), TaxonomyConfig: templates.TaxonomyConfig{"nope": {Mode: templates.ModeNone}}})
	require.ErrorAs(t, err, &se)
	require.Equal(t, "invalid_taxonomy", se.Code)
	require.Equal(t, "book", site.checks[2].PostType)
	got, err := lib.Get(ctx, books.ID)
	require.NoError(t, err)
	require.Equal(t, "Novels", got.Name, "a failed check changes nothing")

	_, err = lib.CreateVariant(ctx, books.ID, templates.Patch{})
	require.NoError(t, err)
	require.Len(t, site.checks, 3, "CreateVariant checks only a taxonomy_config it sets")
	_, err = lib.CreateVariant(ctx, books.ID, templates.Patch{TaxonomyConfig: templates.TaxonomyConfig{"down": {Mode: templates.ModeNone}}})
	require.ErrorAs(t, err, &se)
	require.Equal(t, "generation_failed", se.Code)
	list, err := store.List(ctx, templates.Filter{})
	require.NoError(t, err)
	require.Len(t, list, 2, "the books and one variant")

	_, err = lib.Update(ctx, 999999, templates.Patch{TaxonomyConfig: tc})
	require.ErrorIs(t, err, templates.ErrNotFound)
	_, err = lib.CreateVariant(ctx, 999999, templates.Patch{TaxonomyConfig: tc})
	require.ErrorIs(t, err, templates.ErrNotFound)
	require.Len(t, site.checks, 4, "unknown ids are reported before the hook runs")
}

func TestLibrarySignatureHook(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	lib, _, site := newHookLibrary(t)

	books, err := lib.Create(ctx, templates.Input{Name: "Books", PostType: "book", FieldSignature: templates.Signature{"ignored:text"}})
	require.NoError(t, err)
	require.Equal(t, templates.Signature{"isbn:text"}, books.FieldSignature, "the hook's signature replaces the input's")

	site.mu.Lock()
	site.sigs["book"] = templates.Signature{"isbn:text", "pages:number"}
	site.mu.Unlock()
	v, err := lib.CreateVariant(ctx, books.ID, templates.Patch{})
	require.NoError(t, err)
	require.Equal(t, templates.Signature{"isbn:text"}, v.FieldSignature, "a variant inherits its parent's signature")
	upd, err := lib.Update(ctx, books.ID, templates.Patch{Description: templates.Ptr("d")})
	require.NoError(t, err)
	require.Equal(t, templates.Signature{"isbn:text", "pages:number"}, upd.FieldSignature, "saving records the current signature")

	odd, err := lib.Create(ctx, templates.Input{Name: "Odd", PostType: "unreadable"})
	require.NoError(t, err)
	require.Nil(t, odd.FieldSignature, "an unknown signature records none")
	empty, err := lib.Create(ctx, templates.Input{Name: "Events", PostType: "event"})
	require.NoError(t, err)
	require.Equal(t, templates.Signature{}, empty.FieldSignature)
	site.mu.Lock()
	site.sigs["event"] = nil
	site.mu.Unlock()
	upd, err = lib.Update(ctx, empty.ID, templates.Patch{Description: templates.Ptr("d")})
	require.NoError(t, err)
	require.Equal(t, templates.Signature{}, upd.FieldSignature, "an unknown signature keeps the stored one on update")

	sys, err := lib.EnsureSystem(ctx, []templates.Input{{Name: "Starter", PostType: "book"}})
	require.NoError(t, err)
	require.Equal(t, templates.Signature{"isbn:text", "pages:number"}, sys[0].FieldSignature)

	site.mu.Lock()
	site.signs = nil
	site.mu.Unlock()
	res, err := lib.Import(ctx, []templates.ImportItem{
		{Template: templates.ExportedTemplate{Name: "A", PostType: "book"}},
		{Template: templates.ExportedTemplate{Name: "B", PostType: "book"}},
	})
	require.NoError(t, err)
	require.Equal(t, 2, res.Imported)
	require.Equal(t, []string{"book"}, site.signs, "Import asks once per post type")
	got, err := lib.Get(ctx, res.Results[1].ID)
	require.NoError(t, err)
	require.Equal(t, templates.Signature{"isbn:text", "pages:number"}, got.FieldSignature)
}

func TestLibraryImportChecks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	lib, store, _ := newHookLibrary(t)

	res, err := lib.Import(ctx, []templates.ImportItem{
		{Template: templates.ExportedTemplate{Name: "Good", PostType: "book"}},
		{Template: templates.ExportedTemplate{Name: "Nope", PostType: "book", TaxonomyConfig: templates.TaxonomyConfig{"nope": {Mode: templates.ModeNone}}}},
		{Template: templates.ExportedTemplate{Name: "Ship", PostType: "spaceship"}},
	})
	require.Error(t, err, "a check error that is no *ParamError stops the import")
	var se *siteError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "invalid_post_type", se.Code)
	require.Empty(t, res.Results)
	list, err := store.List(ctx, templates.Filter{})
	require.NoError(t, err)
	require.Empty(t, list, "a stopped import imports nothing")

	res, err = lib.Import(ctx, []templates.ImportItem{
		{Template: templates.ExportedTemplate{Name: "Good", PostType: "book"}},
		{Template: templates.ExportedTemplate{Name: "Nope", PostType: "book", TaxonomyConfig: templates.TaxonomyConfig{"nope": {Mode: templates.ModeNone}}}},
		{Template: templates.ExportedTemplate{Name: "", PostType: "spaceship"}},
	})
	require.NoError(t, err)
	require.Equal(t, 1, res.Imported)
	require.Equal(t, 2, res.Failed)
	require.Equal(t, "templates[1].taxonomy_config.nope", res.Results[1].Param, "a *ParamError of the check is the item's")
	require.Equal(t, "taxonomy nope is not registered", res.Results[1].Error)
	require.Equal(t, "templates[2].name", res.Results[2].Param, "Validate runs before the check")
}

// failingStore fails its Insert after a number of successful ones.
type failingStore struct {
	templates.Store
	mu   *sync.Mutex
	left *int
}

var errDiskFull = errors.New("disk full")

func (s failingStore) Insert(ctx context.Context, t templates.Template) (templates.Template, error) {
	s.mu.Lock()
	if *s.left == 0 {
		s.mu.Unlock()
		return templates.Template{}, errDiskFull
	}
	*s.left--
	s.mu.Unlock()
	return s.Store.Insert(ctx, t)
}

func (s failingStore) Atomic(ctx context.Context, fn func(context.Context, templates.Store) error) error {
	return s.Store.Atomic(ctx, func(ctx context.Context, tx templates.Store) error {
		return fn(ctx, failingStore{Store: tx, mu: s.mu, left: s.left})
	})
}

func TestLibraryImportIsAllOrNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	mem := templates.NewMemStore()
	left := 1
	lib := templates.NewLibrary(failingStore{Store: mem, mu: &sync.Mutex{}, left: &left}, nil)
	items := []templates.ImportItem{
		{Template: templates.ExportedTemplate{Name: "A", PostType: "book"}},
		{Template: templates.ExportedTemplate{Name: "B"}},
		{Template: templates.ExportedTemplate{Name: "C", PostType: "book"}},
	}
	res, err := lib.Import(ctx, items)
	require.ErrorIs(t, err, errDiskFull)
	require.Equal(t, 0, res.Imported)
	require.Equal(t, 3, res.Failed)
	require.Equal(t, "disk full", res.Results[0].Error)
	require.Equal(t, "templates[1].post_type", res.Results[1].Param, "invalid items keep their own reason")
	require.Equal(t, "disk full", res.Results[2].Error)
	list, err := mem.List(ctx, templates.Filter{})
	require.NoError(t, err)
	require.Empty(t, list, "the first insert was undone with the failed unit")

	left = -1
	res, err = lib.Import(ctx, items)
	require.NoError(t, err)
	require.Equal(t, 2, res.Imported)
	require.Equal(t, "Imported 2 templates, 1 failed.", res.Message())
	require.Less(t, res.Results[0].ID, res.Results[2].ID, "items are stored in order")
}

// Concurrent changes of defaults through several Libraries over one store
// keep at most one default per post type.
func TestLibrariesShareOneStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := templates.NewMemStore()
	a, b := templates.NewLibrary(store, nil), templates.NewLibrary(store, nil)
	first, err := a.Create(ctx, templates.Input{Name: "first", PostType: "book", IsDefault: true})
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lib := a
			if i%2 == 1 {
				lib = b
			}
			tpl, err := lib.Create(ctx, templates.Input{Name: fmt.Sprint("t", i), PostType: "book", IsDefault: true})
			errs <- err
			if err != nil {
				return
			}
			_, err = lib.CreateVariant(ctx, tpl.ID, templates.Patch{IsDefault: templates.Ptr(true)})
			errs <- err
			_, err = lib.Update(ctx, first.ID, templates.Patch{IsDefault: templates.Ptr(true)})
			errs <- err
			_, err = lib.Delete(ctx, tpl.ID, first.ID)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	defaults, err := a.List(ctx, templates.Filter{PostType: "book", DefaultOnly: true})
	require.NoError(t, err)
	require.Len(t, defaults, 1)
	require.Equal(t, first.ID, defaults[0].ID)
	all, err := b.List(ctx, templates.Filter{})
	require.NoError(t, err)
	require.Len(t, all, 1, "every template and its variant were deleted")
}
