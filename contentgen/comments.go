package contentgen

import (
	"context"
	"strconv"
	"time"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/providers"
)

// commentPlan is a validated set of comment options.
type commentPlan struct {
	min, max   int
	threading  bool
	replyProb  int
	pendingPct int
	anonPct    int
	avatarPct  int
	provider   string
}

// maxThreadDepth is the deepest reply level, as platforms nest by default.
const maxThreadDepth = 5

// plannedComment is a comment before creation; parent indexes into the plan.
type plannedComment struct {
	c      Comment
	parent int // -1 for top level
	depth  int
	avatar bool
}

// GenerateComments creates comments on existing posts.
func (g *Generator) GenerateComments(ctx context.Context, req CommentsRequest) (*ItemsResult, error) {
	name := req.PostType
	if name == "" {
		name = "post"
	}
	pt, err := g.postType(ctx, name)
	if err != nil {
		return nil, err
	}
	var cp commentPlan
	if cp.min, err = intParam(req.CommentsPerPostMin, 1, 1, 100, "comments_per_post_min"); err != nil {
		return nil, err
	}
	if cp.max, err = intParam(req.CommentsPerPostMax, 15, 1, 100, "comments_per_post_max"); err != nil {
		return nil, err
	}
	if cp.min > cp.max {
		return nil, invalid("comments_per_post_max", "comments_per_post_max (%d) must not be less than comments_per_post_min (%d)", cp.max, cp.min)
	}
	cp.threading = boolParam(req.EnableThreading, true)
	for _, pc := range []struct {
		v     *int
		def   int
		dst   *int
		param string
	}{
		{req.ReplyProbability, 40, &cp.replyProb, "reply_probability"},
		{req.PendingPercentage, 10, &cp.pendingPct, "pending_percentage"},
		{req.AnonymousPercentage, 70, &cp.anonPct, "anonymous_percentage"},
		{req.AvatarPercentage, 60, &cp.avatarPct, "avatar_percentage"},
	} {
		if *pc.dst, err = intParam(pc.v, pc.def, 0, 100, pc.param); err != nil {
			return nil, err
		}
	}
	if cp.provider, err = enumParam(req.AvatarProvider, providers.Curated, "avatar_provider", providers.Slugs...); err != nil {
		return nil, err
	}
	var posts []Post
	if len(req.PostIDs) > 0 {
		for _, id := range req.PostIDs {
			if id <= 0 {
				return nil, invalid("post_ids", "post_ids must hold positive post ids, got %d", id)
			}
		}
		if posts, err = g.host.Posts(ctx, PostQuery{IDs: req.PostIDs, Types: []string{pt.Name}}); err != nil {
			return nil, failed(err, "reading posts")
		}
		if len(posts) != len(dedupeIDs(req.PostIDs)) {
			return nil, invalid("post_ids", "post_ids names posts that do not exist or are not of type %q", pt.Name)
		}
	} else if posts, err = g.host.Posts(ctx, PostQuery{Types: []string{pt.Name}, Statuses: []string{StatusPublish}}); err != nil {
		return nil, failed(err, "reading posts")
	}
	rn, err := g.newRun(ctx, req.Seed, req.Locale, nil)
	if err != nil {
		return nil, err
	}
	res := &ItemsResult{IDs: []int64{}}
	if req.DeleteExisting {
		if res.DeletedCount, err = g.deleteGenerated(ctx, KindComment, deleteScope{subtypes: []string{pt.Name}}, true); err != nil {
			return nil, err
		}
	}
	ids, err := g.makeComments(ctx, rn, posts, cp, "comments")
	res.IDs = append(res.IDs, ids...)
	res.Count = len(ids)
	res.TimeSaved = g.addTimeSaved(ctx, KindComment, int64(res.Count)*secondsComment)
	if err != nil {
		return nil, err
	}
	res.Success = true
	res.Message = g.Messages(ctx).CommentsGenerated(res.Count, len(posts))
	return res, nil
}

// makeComments plans comments for posts and creates them level by level,
// so that every reply's parent exists when it is written.
func (g *Generator) makeComments(ctx context.Context, rn *run, posts []Post, cp commentPlan, origin string) ([]int64, error) {
	if len(posts) == 0 || cp.max == 0 {
		return nil, nil
	}
	users, err := g.host.Users(ctx, UserQuery{})
	if err != nil {
		return nil, failed(err, "listing users")
	}
	now := g.now()
	var plan []plannedComment
	for _, post := range posts {
		start := post.Date
		if start.IsZero() || !start.Before(now) {
			start = now.Add(-30 * 24 * time.Hour)
		}
		first := len(plan)
		n := rn.between(cp.min, cp.max)
		for j := 0; j < n; j++ {
			pc := plannedComment{parent: -1}
			after := start
			if cp.threading && j > 0 && rn.percent(cp.replyProb) {
				parent := first + rn.r.IntN(j)
				if plan[parent].depth+1 < maxThreadDepth {
					pc.parent = parent
					pc.depth = plan[parent].depth + 1
					after = plan[parent].c.Date
				}
			}
			pc.c = rn.makeComment(post.ID, after, now, cp, users)
			pc.avatar = cp.avatarPct > 0 && rn.percent(cp.avatarPct)
			plan = append(plan, pc)
		}
	}
	created := make([]int64, len(plan))
	var all []int64
	for depth := 0; depth < maxThreadDepth; depth++ {
		var idx []int
		for i := range plan {
			if plan[i].depth == depth {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			break
		}
		err := chunks(len(idx), g.batch, func(lo, hi int) error {
			batch := make([]Comment, 0, hi-lo)
			for _, i := range idx[lo:hi] {
				c := plan[i].c
				if plan[i].parent >= 0 {
					c.ParentID = created[plan[i].parent]
				}
				batch = append(batch, c)
			}
			ids, err := g.createComments(ctx, rn, batch, posts, origin)
			for k, id := range ids {
				created[idx[lo+k]] = id
			}
			all = append(all, ids...)
			return err
		})
		if err != nil {
			return all, err
		}
	}
	rn.info("Created %d comments", len(all))
	var want []int64
	for i := range plan {
		if plan[i].avatar {
			want = append(want, created[i])
		}
	}
	if err := g.avatars(ctx, rn, KindComment, want, cp.provider); err != nil {
		return all, err
	}
	return all, nil
}

// makeComment makes up one comment dated between after and now.
func (rn *run) makeComment(postID int64, after, now time.Time, cp commentPlan, users []User) Comment {
	span := now.Sub(after)
	if span <= 0 {
		span = time.Hour
	}
	c := Comment{
		PostID:  postID,
		Content: rn.w.Comment(),
		Status:  CommentApproved,
		Date:    after.Add(time.Duration(rn.r.Int64N(int64(span)))).Truncate(time.Second),
		Meta:    trackMeta(1),
	}
	if rn.percent(cp.pendingPct) {
		c.Status = CommentPending
	}
	if len(users) == 0 || rn.percent(cp.anonPct) {
		p := rn.w.Person()
		c.AuthorName = p.Display
		c.AuthorEmail = rn.w.Email(p, rn.between(1, 999))
		if rn.percent(30) {
			c.AuthorURL = "https://" + rn.w.Domain()
		}
	} else {
		u := users[rn.r.IntN(len(users))]
		c.UserID = u.ID
		c.AuthorName = u.DisplayName
		c.AuthorEmail = u.Email
		c.AuthorURL = u.URL
	}
	return c
}

// createComments writes one batch of comments and tracks them.
func (g *Generator) createComments(ctx context.Context, rn *run, batch []Comment, posts []Post, origin string) ([]int64, error) {
	types := make(map[int64]string, len(posts))
	for _, p := range posts {
		types[p.ID] = p.Type
	}
	var ids []int64
	err := g.withTx(ctx, func(ctx context.Context, h Host) error {
		var err error
		if ids, err = h.CreateComments(ctx, batch); err != nil {
			return failed(err, "creating comments")
		}
		entries := make([]history.Entry, len(ids))
		for i, id := range ids {
			entries[i] = history.Entry{
				ContentType:    history.TypeComment,
				ContentID:      id,
				ContentSubtype: types[batch[i].PostID],
				Meta: map[string]any{
					"post_id":   strconv.FormatInt(batch[i].PostID, 10),
					"parent_id": strconv.FormatInt(batch[i].ParentID, 10),
					"status":    batch[i].Status,
					"anonymous": batch[i].UserID == 0,
					"locale":    rn.locale,
					"origin":    origin,
					"run_id":    rn.id,
				},
			}
		}
		return g.record(ctx, entries, func(ctx context.Context) error {
			if _, ok := g.host.(Transactor); ok {
				return nil
			}
			return g.host.DeleteComments(ctx, ids)
		})
	})
	return ids, err
}
