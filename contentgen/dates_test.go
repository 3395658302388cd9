package contentgen_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentgen/contentgen/contentgen"
)

func TestPostAndCommentDatesInTheRange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 21)
	from, to := epoch.AddDate(0, -2, 0), epoch.AddDate(0, -1, 0)
	res, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{
		Count: new(20), DateFrom: from, DateTo: to, AutoComments: true, CommentsPerPostMin: new(2), CommentsPerPostMax: new(5),
	}))
	require.NoError(t, err)
	require.Equal(t, "post", res.PostType, "a request without a post type makes posts")
	posts := f.posts(t, res.IDs)
	byID := map[int64]contentgen.Post{}
	for _, p := range posts {
		require.False(t, p.Date.Before(from), "%s", p.Date)
		require.False(t, p.Date.After(to), "%s", p.Date)
		byID[p.ID] = p
	}
	comments, err := f.host.Comments(ctx, contentgen.CommentQuery{PostIDs: contentgen.OnlyIDs(res.IDs...)})
	require.NoError(t, err)
	require.NotEmpty(t, comments)
	parents := map[int64]contentgen.Comment{}
	for _, c := range comments {
		parents[c.ID] = c
	}
	for _, c := range comments {
		require.False(t, c.Date.Before(byID[c.PostID].Date), "a comment comes after its post")
		require.False(t, c.Date.After(to), "and within the range")
		if c.ParentID != 0 {
			require.False(t, c.Date.Before(parents[c.ParentID].Date), "a reply comes after its parent")
		}
	}

	future, err := f.gen.GeneratePosts(ctx, noImages(contentgen.PostsRequest{Count: new(5), PostStatus: "future", DateTo: epoch.AddDate(0, 0, 10)}))
	require.NoError(t, err)
	for _, p := range f.posts(t, future.IDs) {
		require.True(t, p.Date.After(epoch), "scheduled posts lie after now")
		require.False(t, p.Date.After(epoch.AddDate(0, 0, 10)))
	}
}

func TestDateRangeValidation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t, 22)
	_, err := f.gen.GeneratePosts(ctx, contentgen.PostsRequest{DateFrom: epoch, DateTo: epoch.AddDate(0, 0, -1)})
	requireParam(t, err, contentgen.ErrInvalidParameter, "date_to")
	_, err = f.gen.GeneratePosts(ctx, contentgen.PostsRequest{DateFrom: epoch.Add(time.Hour)})
	requireParam(t, err, contentgen.ErrInvalidParameter, "date_from")
	_, err = f.gen.GenerateComments(ctx, contentgen.CommentsRequest{DateFrom: epoch.Add(time.Hour)})
	requireParam(t, err, contentgen.ErrInvalidParameter, "date_from")
}

func TestParseDate(t *testing.T) {
	t.Parallel()
	day := time.Date(2020, 1, 31, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		in    string
		upper bool
		want  time.Time
		ok    bool
	}{
		{"", false, time.Time{}, true},
		{"", true, time.Time{}, true},
		{"2020-01-31", false, day, true},
		{"2020-01-31", true, day.Add(24*time.Hour - time.Second), true},
		{"2020-01-31 10:20:30", true, day.Add(10*time.Hour + 20*time.Minute + 30*time.Second), true},
		{"2020-01-31T10:20:30", false, day.Add(10*time.Hour + 20*time.Minute + 30*time.Second), true},
		{"2020-01-31T10:20:30+02:00", false, day.Add(8*time.Hour + 20*time.Minute + 30*time.Second), true},
		{"yesterday", false, time.Time{}, false},
		{"2020-13-01", true, time.Time{}, false},
	}
	for _, c := range cases {
		got, ok := contentgen.ParseDate(c.in, c.upper)
		require.Equal(t, c.ok, ok, "%q", c.in)
		require.True(t, c.want.Equal(got), "%q upper=%v: got %s, want %s", c.in, c.upper, got, c.want)
	}
}
