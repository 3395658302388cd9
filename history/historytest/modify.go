package historytest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/history"
)

func deleteTests() []test {
	return []test{
		{"CountsWhatExisted", func(t *testing.T, f *fixture) {
			in := f.add(t, entry(1, at(1)), entry(2, at(2)), entry(3, at(3)), entry(4, at(4)))
			n, err := f.s.Delete(f.ctx, in[1].ID, "unknown", in[3].ID, "", "0")
			require.NoError(t, err)
			require.Equal(t, 2, n, "Delete counts the entries that existed")
			require.Equal(t, []string{in[2].ID, in[0].ID}, ids(f.all(t)))
			for _, e := range []history.Entry{in[1], in[3]} {
				_, err := f.s.Get(f.ctx, e.ID)
				require.ErrorIs(t, err, history.ErrNotFound)
			}
			requireEntry(t, in[0], f.get(t, in[0].ID), "other entries are untouched")
			requireEntry(t, in[2], f.get(t, in[2].ID), "other entries are untouched")
		}},
		{"SecondDeleteFindsNothing", func(t *testing.T, f *fixture) {
			in := f.add(t, entry(1, at(1)), entry(2, at(2)))
			n, err := f.s.Delete(f.ctx, in[0].ID)
			require.NoError(t, err)
			require.Equal(t, 1, n)
			n, err = f.s.Delete(f.ctx, in[0].ID)
			require.NoError(t, err)
			require.Zero(t, n, "an entry already deleted is unknown")
			require.Equal(t, ids(in[1:]), ids(f.all(t)))
		}},
		{"RepeatedIDCountsOnce", func(t *testing.T, f *fixture) {
			in := f.add(t, entry(1, at(1)), entry(2, at(2)))
			n, err := f.s.Delete(f.ctx, in[0].ID, in[0].ID, in[0].ID)
			require.NoError(t, err)
			require.Equal(t, 1, n)
			require.Equal(t, ids(in[1:]), ids(f.all(t)))
		}},
		{"NoIDs", func(t *testing.T, f *fixture) {
			in := f.add(t, entry(1, at(1)))
			n, err := f.s.Delete(f.ctx)
			require.NoError(t, err)
			require.Zero(t, n)
			n, err = f.s.Delete(f.ctx, []string{}...)
			require.NoError(t, err)
			require.Zero(t, n)
			require.Equal(t, ids(in), ids(f.all(t)))
		}},
		{"UnknownOnly", func(t *testing.T, f *fixture) {
			in := f.add(t, entry(1, at(1)))
			n, err := f.s.Delete(f.ctx, "unknown", "", "1", "999999999999")
			require.NoError(t, err)
			require.Zero(t, n)
			require.Equal(t, ids(in), ids(f.all(t)))
		}},
		{"Everything", func(t *testing.T, f *fixture) {
			in := f.add(t, entry(1, at(1)), entry(2, at(2)), entry(3, at(3)))
			n, err := f.s.Delete(f.ctx, ids(in)...)
			require.NoError(t, err)
			require.Equal(t, 3, n)
			require.Empty(t, f.all(t))
			require.Zero(t, f.stats(t, time.Time{}).Total)
		}},
		{"ThenAdd", func(t *testing.T, f *fixture) {
			// Deleting from the middle must not disturb what is added later.
			in := f.add(t, entry(1, at(1)), entry(2, at(2)), entry(3, at(3)))
			_, err := f.s.Delete(f.ctx, in[1].ID)
			require.NoError(t, err)
			more := f.add(t, entry(4, at(2)), entry(5, at(2)))
			requireUnique(t, append(ids(in), ids(more)...))
			require.Equal(t, []string{in[2].ID, more[1].ID, more[0].ID, in[0].ID}, ids(f.all(t)))
			for _, e := range append([]history.Entry{in[0], in[2]}, more...) {
				requireEntry(t, e, f.get(t, e.ID))
			}
		}},
	}
}

func clearTests() []test {
	return []test{
		{"RemovesEverything", func(t *testing.T, f *fixture) {
			in := f.add(t, entry(1, at(1)), history.Entry{ContentType: history.TypeTerm, ContentID: 2, ContentSubtype: "category", CreatedAt: at(2)})
			require.NoError(t, f.s.Clear(f.ctx))
			entries, total := f.list(t, history.Filter{})
			require.Empty(t, entries)
			require.Zero(t, total)
			for _, e := range in {
				_, err := f.s.Get(f.ctx, e.ID)
				require.ErrorIs(t, err, history.ErrNotFound)
			}
			n, err := f.s.Delete(f.ctx, ids(in)...)
			require.NoError(t, err)
			require.Zero(t, n, "cleared entries no longer exist")
			requireEmptyStats(t, f.stats(t, time.Time{}))
		}},
		{"Empty", func(t *testing.T, f *fixture) {
			require.NoError(t, f.s.Clear(f.ctx))
			require.NoError(t, f.s.Clear(f.ctx))
			require.Empty(t, f.all(t))
		}},
		{"ThenAdd", func(t *testing.T, f *fixture) {
			f.add(t, entry(1, at(1)), entry(2, at(2)))
			require.NoError(t, f.s.Clear(f.ctx))
			in := f.add(t, entry(3, at(3)))
			require.Equal(t, ids(in), ids(f.all(t)))
			requireEntry(t, in[0], f.get(t, in[0].ID))
			require.Equal(t, 1, f.stats(t, time.Time{}).Total)
		}},
	}
}

// statsFixture is added out of time order by the stats tests.
var statsFixture = []struct {
	typ, sub string
	created  time.Time
}{
	{history.TypePost, "post", time.Date(2024, 3, 5, 23, 59, 59, 0, time.UTC)},
	{history.TypeTerm, "category", time.Date(2024, 3, 2, 22, 30, 0, 0, time.FixedZone("UTC-3", -3*60*60))}, // 2024-03-03 UTC
	{history.TypePost, "post", time.Date(2024, 3, 1, 23, 59, 59, 0, time.UTC)},                             // before since
	{history.TypePost, "post", time.Date(2024, 3, 2, 0, 0, 0, 0, time.UTC)},                                // exactly since
	{history.TypeUser, "author", time.Date(2024, 3, 5, 12, 0, 0, 0, time.UTC)},
	{history.TypePost, "page", time.Date(2024, 3, 6, 1, 30, 0, 0, time.FixedZone("UTC+2", 2*60*60))}, // 2024-03-05 UTC
	{history.TypeMedia, "image", time.Date(2024, 2, 1, 8, 0, 0, 0, time.UTC)},                        // before since
	{history.TypeComment, "", time.Date(2024, 3, 5, 13, 0, 0, 0, time.UTC)},
	{history.TypeTerm, "category", time.Date(2024, 3, 3, 10, 0, 0, 0, time.UTC)},
}

// statsSince is the since argument the stats tests pass.
var statsSince = time.Date(2024, 3, 2, 0, 0, 0, 0, time.UTC)

func addStatsFixture(t *testing.T, f *fixture) []history.Entry {
	t.Helper()
	in := make([]history.Entry, len(statsFixture))
	for i, x := range statsFixture {
		in[i] = history.Entry{ContentType: x.typ, ContentSubtype: x.sub, ContentID: int64(i + 1), CreatedAt: x.created}
	}
	return f.add(t, in...)
}

func statsTests() []test {
	return []test{
		{"Empty", func(t *testing.T, f *fixture) {
			requireEmptyStats(t, f.stats(t, time.Time{}))
			requireEmptyStats(t, f.stats(t, statsSince))
		}},
		{"Counts", func(t *testing.T, f *fixture) {
			addStatsFixture(t, f)
			st := f.stats(t, statsSince)
			require.Equal(t, 9, st.Total, "Total counts every entry, whatever since")
			requireByType(t, map[string]int{
				history.TypePost: 4, history.TypeTerm: 2, history.TypeUser: 1, history.TypeComment: 1, history.TypeMedia: 1,
			}, st.ByType)
			require.ElementsMatch(t, []history.SubtypeCount{
				{ContentType: history.TypePost, ContentSubtype: "post", Count: 3},
				{ContentType: history.TypePost, ContentSubtype: "page", Count: 1},
				{ContentType: history.TypeTerm, ContentSubtype: "category", Count: 2},
				{ContentType: history.TypeUser, ContentSubtype: "author", Count: 1},
				{ContentType: history.TypeComment, ContentSubtype: "", Count: 1},
				{ContentType: history.TypeMedia, ContentSubtype: "image", Count: 1},
			}, st.BySubtype)
		}},
		{"DailySince", func(t *testing.T, f *fixture) {
			addStatsFixture(t, f)
			st := f.stats(t, statsSince)
			require.Equal(t, []history.DayCount{
				{Date: "2024-03-02", Count: 1},
				{Date: "2024-03-03", Count: 2},
				{Date: "2024-03-05", Count: 4},
			}, st.Daily, "UTC days at or after since, oldest first, days without entries absent")
		}},
		{"DailySinceInOtherZone", func(t *testing.T, f *fixture) {
			addStatsFixture(t, f)
			// The same instant as statsSince.
			since := statsSince.In(time.FixedZone("UTC+5", 5*60*60))
			require.Equal(t, []history.DayCount{
				{Date: "2024-03-02", Count: 1},
				{Date: "2024-03-03", Count: 2},
				{Date: "2024-03-05", Count: 4},
			}, f.stats(t, since).Daily)
		}},
		{"DailyAll", func(t *testing.T, f *fixture) {
			addStatsFixture(t, f)
			require.Equal(t, []history.DayCount{
				{Date: "2024-02-01", Count: 1},
				{Date: "2024-03-01", Count: 1},
				{Date: "2024-03-02", Count: 1},
				{Date: "2024-03-03", Count: 2},
				{Date: "2024-03-05", Count: 4},
			}, f.stats(t, time.Time{}).Daily)
		}},
		{"DailyNoneSince", func(t *testing.T, f *fixture) {
			addStatsFixture(t, f)
			st := f.stats(t, time.Date(2024, 3, 6, 0, 0, 0, 0, time.UTC))
			require.Empty(t, st.Daily)
			require.Equal(t, 9, st.Total)
		}},
		{"DailyFromMidday", func(t *testing.T, f *fixture) {
			addStatsFixture(t, f)
			// Since is an instant, not a day: on 2024-03-05 only the entries
			// from 13:00 on count.
			st := f.stats(t, time.Date(2024, 3, 5, 12, 0, 1, 0, time.UTC))
			require.Equal(t, []history.DayCount{{Date: "2024-03-05", Count: 3}}, st.Daily)
		}},
		{"AfterDelete", func(t *testing.T, f *fixture) {
			in := addStatsFixture(t, f)
			// Remove both categories and the page.
			n, err := f.s.Delete(f.ctx, in[1].ID, in[8].ID, in[5].ID)
			require.NoError(t, err)
			require.Equal(t, 3, n)
			st := f.stats(t, statsSince)
			require.Equal(t, 6, st.Total)
			requireByType(t, map[string]int{
				history.TypePost: 3, history.TypeUser: 1, history.TypeComment: 1, history.TypeMedia: 1,
			}, st.ByType)
			require.ElementsMatch(t, []history.SubtypeCount{
				{ContentType: history.TypePost, ContentSubtype: "post", Count: 3},
				{ContentType: history.TypeUser, ContentSubtype: "author", Count: 1},
				{ContentType: history.TypeComment, ContentSubtype: "", Count: 1},
				{ContentType: history.TypeMedia, ContentSubtype: "image", Count: 1},
			}, st.BySubtype)
			require.Equal(t, []history.DayCount{
				{Date: "2024-03-02", Count: 1},
				{Date: "2024-03-05", Count: 3},
			}, st.Daily)
		}},
		{"AssignedTimes", func(t *testing.T, f *fixture) {
			now := time.Now()
			if f.clock != nil {
				now = time.Date(2025, 6, 7, 23, 30, 0, 0, time.UTC)
				f.clock.Set(now)
			}
			in := f.add(t, entry(1, time.Time{}), entry(2, time.Time{}))
			day := in[0].CreatedAt.UTC().Format(time.DateOnly)
			if in[1].CreatedAt.UTC().Format(time.DateOnly) != day {
				t.Skip("the two entries were added across midnight UTC")
			}
			st := f.stats(t, now.Add(-time.Hour))
			require.Equal(t, []history.DayCount{{Date: day, Count: 2}}, st.Daily)
			if f.clock != nil {
				require.Equal(t, "2025-06-07", day)
			}
		}},
	}
}

// requireByType checks ByType against want; absent types and types with
// a count of zero are the same.
func requireByType(t *testing.T, want, got map[string]int) {
	t.Helper()
	nonzero := make(map[string]int, len(got))
	for k, n := range got {
		require.GreaterOrEqualf(t, n, 0, "ByType[%q]", k)
		if n != 0 {
			nonzero[k] = n
		}
	}
	require.Equal(t, want, nonzero, "ByType")
}

// requireEmptyStats checks the stats of a store without entries.
func requireEmptyStats(t *testing.T, st history.Stats) {
	t.Helper()
	require.Zero(t, st.Total)
	requireByType(t, map[string]int{}, st.ByType)
	require.Empty(t, st.BySubtype)
	require.Empty(t, st.Daily)
}
