package historytest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/history"
)

// doneContexts returns contexts that are done before use: one cancelled,
// one past its deadline.
func doneContexts(t *testing.T) map[string]context.Context {
	t.Helper()
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	expired, cancel2 := context.WithDeadline(t.Context(), time.Now().Add(-time.Minute))
	t.Cleanup(cancel2)
	return map[string]context.Context{"Canceled": cancelled, "DeadlineExceeded": expired}
}

// requireCtxErr checks that err matches the error of the done ctx.
func requireCtxErr(t *testing.T, ctx context.Context, err error, method string) {
	t.Helper()
	require.Errorf(t, err, "%s with a done context", method)
	require.Truef(t, errors.Is(err, ctx.Err()), "%s with a done context returns an error matching %v, got %v", method, ctx.Err(), err)
}

func cancelTests() []test {
	// Each test starts from one stored entry and checks that the call with
	// a done context neither succeeds nor changes the store.
	method := func(name string, call func(ctx context.Context, f *fixture, stored history.Entry) error) test {
		return test{name, func(t *testing.T, f *fixture) {
			stored := f.add(t, history.Entry{ContentType: history.TypePost, ContentID: 1, ContentSubtype: "post", CreatedAt: at(1), Meta: map[string]any{"locale": "de_DE"}})[0]
			for ctxName, ctx := range doneContexts(t) {
				t.Run(ctxName, func(t *testing.T) {
					requireCtxErr(t, ctx, call(ctx, f, stored), name)
					all := f.all(t)
					require.Len(t, all, 1, "%s with a done context leaves the store as it was", name)
					requireEntry(t, stored, all[0])
				})
			}
		}}
	}
	return []test{
		method("Add", func(ctx context.Context, f *fixture, _ history.Entry) error {
			return f.s.Add(ctx, []history.Entry{entry(2, at(2)), entry(3, time.Time{})})
		}),
		method("AddNothing", func(ctx context.Context, f *fixture, _ history.Entry) error {
			return f.s.Add(ctx, nil)
		}),
		method("Get", func(ctx context.Context, f *fixture, stored history.Entry) error {
			_, err := f.s.Get(ctx, stored.ID)
			return err
		}),
		method("GetUnknown", func(ctx context.Context, f *fixture, _ history.Entry) error {
			_, err := f.s.Get(ctx, "unknown")
			return err
		}),
		method("List", func(ctx context.Context, f *fixture, _ history.Entry) error {
			_, _, err := f.s.List(ctx, history.Filter{})
			return err
		}),
		method("ListFiltered", func(ctx context.Context, f *fixture, _ history.Entry) error {
			_, _, err := f.s.List(ctx, history.Filter{ContentType: history.TypePost, MetaEquals: map[string]string{"locale": "de_DE"}, Limit: 1})
			return err
		}),
		method("Delete", func(ctx context.Context, f *fixture, stored history.Entry) error {
			_, err := f.s.Delete(ctx, stored.ID)
			return err
		}),
		method("DeleteNothing", func(ctx context.Context, f *fixture, _ history.Entry) error {
			_, err := f.s.Delete(ctx)
			return err
		}),
		method("Clear", func(ctx context.Context, f *fixture, _ history.Entry) error {
			return f.s.Clear(ctx)
		}),
		method("Stats", func(ctx context.Context, f *fixture, _ history.Entry) error {
			_, err := f.s.Stats(ctx, time.Time{})
			return err
		}),
	}
}

func concurrencyTests() []test {
	return []test{
		{"AddListDelete", func(t *testing.T, f *fixture) {
			const (
				workers = 4
				rounds  = 25
				batch   = 3
			)
			var (
				wg   sync.WaitGroup
				mu   sync.Mutex
				errs []error
				kept = map[int][]string{} // worker -> ids it did not delete
			)
			fail := func(err error) {
				mu.Lock()
				defer mu.Unlock()
				errs = append(errs, err)
			}
			for w := range workers {
				wg.Go(func() {
					subtype := fmt.Sprintf("worker-%d", w)
					for r := range rounds {
						in := make([]history.Entry, batch)
						for i := range in {
							in[i] = history.Entry{
								ContentType: history.TypePost, ContentSubtype: subtype,
								ContentID: int64(w*1000 + r*batch + i),
								Meta:      map[string]any{"worker": w, "round": r},
							}
							if r%2 == 0 {
								in[i].CreatedAt = at(r)
							}
						}
						if err := f.s.Add(f.ctx, in); err != nil {
							fail(fmt.Errorf("worker %d: Add: %w", w, err))
							return
						}
						if _, err := f.s.Get(f.ctx, in[0].ID); err != nil {
							fail(fmt.Errorf("worker %d: Get of an entry just added: %w", w, err))
							return
						}
						mine, total, err := f.s.List(f.ctx, history.Filter{ContentSubtypes: []string{subtype}})
						if err != nil {
							fail(fmt.Errorf("worker %d: List: %w", w, err))
							return
						}
						// Each earlier round left batch-1 entries, this one batch.
						if want := r*(batch-1) + batch; total != want || len(mine) != total {
							fail(fmt.Errorf("worker %d round %d: List of own entries: %d of total %d, want %d", w, r, len(mine), total, want))
							return
						}
						if _, _, err := f.s.List(f.ctx, history.Filter{ContentType: history.TypePost, MetaEquals: map[string]string{"round": "0"}, Limit: 5}); err != nil {
							fail(fmt.Errorf("worker %d: List filtered: %w", w, err))
							return
						}
						n, err := f.s.Delete(f.ctx, in[1].ID, "unknown")
						if err != nil || n != 1 {
							fail(fmt.Errorf("worker %d: Delete of an entry just added: %d, %v", w, n, err))
							return
						}
						if _, err := f.s.Stats(f.ctx, at(0)); err != nil {
							fail(fmt.Errorf("worker %d: Stats: %w", w, err))
							return
						}
						mu.Lock()
						kept[w] = append(kept[w], in[0].ID, in[2].ID)
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			require.Empty(t, errs)

			var want []string
			for w := range workers {
				want = append(want, kept[w]...)
			}
			all := f.all(t)
			require.Len(t, all, workers*rounds*(batch-1))
			requireUnique(t, ids(all))
			require.ElementsMatch(t, want, ids(all))
			st := f.stats(t, time.Time{})
			require.Equal(t, workers*rounds*(batch-1), st.Total)
			requireByType(t, map[string]int{history.TypePost: workers * rounds * (batch - 1)}, st.ByType)
			require.Len(t, st.BySubtype, workers)
		}},
		{"ReadersDuringClear", func(t *testing.T, f *fixture) {
			var wg sync.WaitGroup
			errc := make(chan error, 64)
			for w := range 2 {
				wg.Go(func() {
					for r := range 20 {
						if err := f.s.Add(f.ctx, []history.Entry{entry(int64(w*100+r), time.Time{})}); err != nil {
							errc <- err
							return
						}
					}
				})
			}
			wg.Go(func() {
				for range 10 {
					if err := f.s.Clear(f.ctx); err != nil {
						errc <- err
						return
					}
				}
			})
			wg.Go(func() {
				for range 20 {
					entries, total, err := f.s.List(f.ctx, history.Filter{Limit: 3})
					if err != nil {
						errc <- err
						return
					}
					if len(entries) > 3 || len(entries) > total {
						errc <- fmt.Errorf("List returned %d entries of total %d with Limit 3", len(entries), total)
						return
					}
				}
			})
			wg.Wait()
			close(errc)
			for err := range errc {
				require.NoError(t, err)
			}
			require.NoError(t, f.s.Clear(f.ctx))
			require.Empty(t, f.all(t))
		}},
	}
}
