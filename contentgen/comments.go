package contentgen

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/contentgen/contentgen/history"
	"github.com/contentgen/contentgen/locales"
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
	// total, when positive, is the number of comments to plan: the posts
	// take turns, each getting min to max, until there are that many.
	// Zero plans min to max on every post.
	total int
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

// commentsRequestPlan is a validated CommentsRequest with its defaults
// applied.
type commentsRequestPlan struct {
	pt PostType
	cp commentPlan
}

// planCommentsRequest validates req against the site and the settings s
// and applies the defaults. Nothing is written, and the posts are not
// read.
func (g *Generator) planCommentsRequest(ctx context.Context, req *CommentsRequest, s Settings) (*commentsRequestPlan, error) {
	name := req.PostType
	if name == "" {
		name = "post"
	}
	pt, err := g.postType(ctx, name)
	if err != nil {
		return nil, err
	}
	v := validator{}
	cp := commentPlan{
		min:        v.intIn("comments_per_post_min", req.CommentsPerPostMin, 1, 1, 100),
		max:        v.intIn("comments_per_post_max", req.CommentsPerPostMax, 15, 1, 100),
		threading:  boolOr(req.EnableThreading, true),
		replyProb:  v.intIn("reply_probability", req.ReplyProbability, 40, 0, 100),
		pendingPct: v.intIn("pending_percentage", req.PendingPercentage, 10, 0, 100),
		anonPct:    v.intIn("anonymous_percentage", req.AnonymousPercentage, 70, 0, 100),
		avatarPct:  v.intIn("avatar_percentage", req.AvatarPercentage, 60, 0, 100),
		provider:   v.enum("avatar_provider", req.AvatarProvider, s.DefaultImageProvider, providers.Slugs()...),
	}
	if v.err == nil && cp.min > cp.max {
		v.fail(invalid("comments_per_post_max", "comments_per_post_max (%d) must not be less than comments_per_post_min (%d)", cp.max, cp.min))
	}
	for _, id := range req.PostIDs {
		if id <= 0 {
			v.fail(invalid("post_ids", "post_ids must hold positive post ids, got %d", id))
		}
	}
	if req.Count != nil {
		cp.total = v.count(req.Count, 0, g.cfg.MaxCount)
	}
	if req.FirstPost < 0 {
		v.fail(invalid("first_post", "first_post must not be negative, got %d", req.FirstPost))
	}
	if v.err != nil {
		return nil, v.err
	}
	if err := g.checkDates(req.DateFrom, req.DateTo, false); err != nil {
		return nil, err
	}
	return &commentsRequestPlan{pt: pt, cp: cp}, nil
}

// GenerateComments creates comments on existing posts.
func (g *Generator) GenerateComments(ctx context.Context, req CommentsRequest) (*Result, error) {
	s, err := g.settings.load(ctx)
	if err != nil {
		return nil, err
	}
	p, err := g.planCommentsRequest(ctx, &req, s)
	if err != nil {
		return nil, err
	}
	pt, cp := p.pt, p.cp
	var posts []Post
	if cp.total > 0 {
		posts, err = g.turnTargets(ctx, pt, &req, cp)
	} else {
		posts, err = g.commentTargets(ctx, pt, req.PostIDs)
	}
	if err != nil {
		return nil, err
	}
	rn, err := g.newRun(ctx, s, req.Seed, req.Locale, nil)
	if err != nil {
		return nil, err
	}
	rn.from, rn.to = req.DateFrom, req.DateTo
	res := &Result{IDs: []int64{}, Posts: len(posts)}
	if s.TextSource == TextSourceAI {
		rn.ai = g.newAIRun(ctx, rn, s)
		defer func() { res.AIText = rn.ai.stats.clone() }()
	}
	var work tally
	defer func() { res.TimeSaved = g.addTimeSaved(ctx, work) }()
	if req.DeleteExisting {
		if res.Deleted, err = g.deleteGenerated(ctx, KindComment, deleteScope{subtypes: []string{pt.Name}}, true); err != nil {
			return nil, err
		}
	}
	var topics map[int64]locales.Topic
	if rn.topical {
		if topics, err = g.postTopics(ctx, rn, pt, posts); err != nil {
			return nil, err
		}
	}
	ids, err := g.makeComments(ctx, rn, posts, topics, cp, "comments")
	res.IDs = append(res.IDs, ids...)
	work.comments += len(ids)
	if err != nil {
		return nil, err
	}
	if rn.ai != nil {
		rn.ai.finish(ctx, rn)
	}
	res.Warnings = append([]string{}, rn.warnings...)
	return res, nil
}

// commentTargets returns the posts a comments run comments on: those ids
// names, which must exist and be of type pt, or else the published posts
// of pt.
func (g *Generator) commentTargets(ctx context.Context, pt PostType, ids []int64) ([]Post, error) {
	q := PostQuery{Types: []string{pt.Name}, Statuses: []string{StatusPublish}}
	if len(ids) > 0 {
		q = PostQuery{IDs: OnlyIDs(ids...), Types: []string{pt.Name}}
	}
	posts, err := g.host.Posts(ctx, q)
	if err != nil {
		return nil, failed(err, "reading posts")
	}
	if len(ids) > 0 && len(posts) != len(dedupeIDs(ids)) {
		return nil, invalid("post_ids", "post_ids names posts that do not exist or are not of type %q", pt.Name)
	}
	return posts, nil
}

// turnTargets returns the posts a request with Count comments on, in
// the order of their turns: those PostIDs names, or else the published
// posts of pt (as many as Count needs, at least CommentsPerPostMin a
// post), from the one at position FirstPost, in the order of ids and
// modulo their number, round to the first.
func (g *Generator) turnTargets(ctx context.Context, pt PostType, req *CommentsRequest, cp commentPlan) ([]Post, error) {
	if len(req.PostIDs) > 0 {
		posts, err := g.commentTargets(ctx, pt, req.PostIDs)
		if err != nil {
			return nil, err
		}
		k := req.FirstPost % len(posts)
		return append(posts[k:len(posts):len(posts)], posts[:k]...), nil
	}
	q := Listing{Subtypes: []string{pt.Name}, Statuses: []string{StatusPublish}, Limit: 1}
	_, total, err := g.list(ctx, KindPost, q)
	if err != nil {
		return nil, failed(err, "listing posts")
	}
	if total == 0 {
		return nil, invalid("post_type", "post_type %q has no published posts to comment on", pt.Name)
	}
	want := min(total, (cp.total+cp.min-1)/cp.min)
	q.Offset, q.Limit = req.FirstPost%total, want
	ids, _, err := g.list(ctx, KindPost, q)
	if err != nil {
		return nil, failed(err, "listing posts")
	}
	if len(ids) < want {
		q.Offset, q.Limit = 0, want-len(ids)
		more, _, err := g.list(ctx, KindPost, q)
		if err != nil {
			return nil, failed(err, "listing posts")
		}
		ids = dedupeIDs(append(ids, more...))
	}
	posts, err := g.host.Posts(ctx, PostQuery{IDs: OnlyIDs(ids...)})
	if err != nil {
		return nil, failed(err, "reading posts")
	}
	posts = inOrder(ids, posts, func(p *Post) int64 { return p.ID })
	if len(posts) == 0 {
		return nil, invalid("post_type", "post_type %q has no published posts to comment on", pt.Name)
	}
	return posts, nil
}

// makeComments plans comments for posts and creates them level by level,
// so that every reply's parent exists when it is written. The comments on
// a post with a topic in topics are about that topic.
func (g *Generator) makeComments(ctx context.Context, rn *run, posts []Post, topics map[int64]locales.Topic, cp commentPlan, origin string) ([]int64, error) {
	if len(posts) == 0 || cp.max == 0 {
		return nil, nil
	}
	users, err := g.host.Users(ctx, UserQuery{})
	if err != nil {
		return nil, failed(err, "listing users")
	}
	plan := rn.planComments(posts, topics, cp, users)
	if rn.ai != nil {
		if err := rn.ai.writeComments(ctx, posts, topics, plan); err != nil {
			return nil, err
		}
	}
	types := typesOf(posts)
	created := make([]int64, len(plan))
	var all []int64
	var buf commentBatch
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
		err := chunks(len(idx), g.cfg.BatchSize, func(lo, hi int) error {
			ids, made, err := g.createComments(ctx, rn, plan, idx[lo:hi], created, types, origin, &buf)
			for k, id := range ids {
				created[made[k]] = id
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
		if plan[i].avatar && created[i] != 0 {
			want = append(want, created[i])
		}
	}
	if err := g.avatars(ctx, rn, KindComment, want, cp.provider); err != nil {
		return all, err
	}
	return all, nil
}

// postTypes gives the post type of the posts a run comments on, which
// mostly share one: a map by id only when they do not.
type postTypes struct {
	one  string
	byID map[int64]string
}

func typesOf(posts []Post) postTypes {
	var t postTypes
	for i, p := range posts {
		if i == 0 {
			t.one = p.Type
		} else if p.Type != t.one {
			t.byID = make(map[int64]string, len(posts))
			for _, p := range posts {
				t.byID[p.ID] = p.Type
			}
			break
		}
	}
	return t
}

// of is the type of post id, one of the posts.
func (t postTypes) of(id int64) string {
	if t.byID == nil {
		return t.one
	}
	return t.byID[id]
}

// planComments makes up the comments of posts, with their thread
// structure, dated between each post (or its parent comment) and now.
func (rn *run) planComments(posts []Post, topics map[int64]locales.Topic, cp commentPlan, users []User) []plannedComment {
	// Room for the expected number and a margin above it (a sixteenth,
	// more than three standard deviations of a large run), so that the
	// plan is not copied as it grows; with a total, that many.
	expected := len(posts) * (cp.min + cp.max) / 2
	size := expected + expected/16 + 16
	if cp.total > 0 {
		size = cp.total
	}
	plan := make([]plannedComment, 0, size)
	defer rn.w.SetTopic(locales.Topic{})
	// visit gives post its turn: min to max comments (with a total, no
	// more than are left), replies answering comments of the same turn.
	visit := func(post Post) {
		if topics != nil {
			rn.w.SetTopic(topics[post.ID])
		}
		start, now := rn.commentSpan(post.Date)
		first := len(plan)
		n := rn.between(cp.min, cp.max)
		if cp.total > 0 {
			n = min(n, cp.total-len(plan))
		}
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
			// A comment speaks of the post's subject; a reply answers its
			// parent.
			var content string
			if pc.parent >= 0 {
				content = rn.w.Reply(post.Title, plan[pc.parent].c.Content)
			} else {
				content = rn.w.CommentOn(post.Title)
			}
			pc.c = rn.makeComment(post.ID, content, after, now, cp, users)
			if rn.topical && pc.parent >= 0 {
				// A reply in a topical run addresses the comment it answers.
				pc.c.Content = "@" + plan[pc.parent].c.AuthorName + " " + pc.c.Content
			}
			pc.avatar = cp.avatarPct > 0 && rn.percent(cp.avatarPct)
			plan = append(plan, pc)
		}
	}
	if cp.total > 0 {
		for i := 0; len(plan) < cp.total; i++ {
			visit(posts[i%len(posts)])
		}
		return plan
	}
	for _, post := range posts {
		visit(post)
	}
	return plan
}

// commentSpan is when the comments on a post dated posted are written:
// after the post and the run's DateFrom, up to the clock reading or the
// run's DateTo. Comments on a scheduled post follow it within a week.
func (rn *run) commentSpan(posted time.Time) (start, end time.Time) {
	end = rn.now
	if !rn.to.IsZero() && rn.to.Before(end) {
		end = rn.to
	}
	switch {
	case posted.IsZero():
		start = end.AddDate(0, 0, -30)
	case !posted.Before(end):
		return posted, posted.AddDate(0, 0, 7)
	default:
		start = posted
	}
	if rn.from.After(start) && rn.from.Before(end) {
		start = rn.from
	}
	return start, end
}

// makeComment makes up one comment with content dated between after and
// now.
func (rn *run) makeComment(postID int64, content string, after, now time.Time, cp commentPlan, users []User) Comment {
	span := now.Sub(after)
	if span <= 0 {
		span = time.Hour
	}
	c := Comment{
		PostID:  postID,
		Content: content,
		Status:  CommentApproved,
		Date:    after.Add(time.Duration(rn.r.Int64N(int64(span)))).Truncate(time.Second),
		Meta:    rn.marker,
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

// createComments writes the planned comments idx in one tracked write and
// returns their ids with the plan indexes they belong to. When a retry
// finds that a post, parent comment or commenting user was deleted
// meanwhile, the comments of a deleted post are dropped, a reply to a
// deleted comment becomes a top-level comment and a deleted user's
// comment becomes anonymous.
// The arrays of buf are the batch's until the next call.
func (g *Generator) createComments(ctx context.Context, rn *run, plan []plannedComment, idx []int, created []int64, types postTypes, origin string, buf *commentBatch) ([]int64, []int, error) {
	var made []int
	var batch []Comment
	ids, err := g.writeTracked(ctx, batchWrite{kind: KindComment, plan: func(ctx context.Context, attempt int) error {
		clear(buf.comments)
		batch = slices.Grow(buf.comments[:0], len(idx))
		made = buf.made[:0]
		defer func() { buf.comments, buf.made = batch, made }()
		gone, err := g.goneRefs(ctx, plan, idx, created, attempt)
		if err != nil {
			return err
		}
		for _, i := range idx {
			c := plan[i].c
			if plan[i].parent >= 0 {
				c.ParentID = created[plan[i].parent]
			}
			switch {
			case gone.posts[c.PostID]:
				continue
			case c.ParentID != 0 && gone.comments[c.ParentID]:
				c.ParentID = 0
			}
			if c.UserID != 0 && gone.users[c.UserID] {
				c.UserID = 0
			}
			batch = append(batch, c)
			made = append(made, i)
		}
		return nil
	}, write: func(ctx context.Context, h Host) ([]int64, []history.Entry, error) {
		ids, err := h.CreateComments(ctx, batch)
		if err != nil {
			return nil, nil, err
		}
		clear(buf.entries)
		entries := slices.Grow(buf.entries[:0], len(ids))[:len(ids)]
		buf.entries = entries
		// The values the entries share are boxed once, and every entry's
		// map starts as a copy of one with them (see postMeta).
		shared := map[string]any{
			"post_id":   "",
			"parent_id": noParent,
			"status":    "",
			"anonymous": false,
			"locale":    rn.locale,
			"origin":    origin,
			"run_id":    rn.id,
		}
		var lastPost int64
		var postID any
		for i, id := range ids {
			c := &batch[i]
			if postID == nil || c.PostID != lastPost {
				lastPost, postID = c.PostID, strconv.FormatInt(c.PostID, 10)
			}
			meta := maps.Clone(shared)
			meta["post_id"] = postID
			if c.ParentID != 0 {
				meta["parent_id"] = strconv.FormatInt(c.ParentID, 10)
			}
			meta["status"] = statusValue(c.Status)
			meta["anonymous"] = c.UserID == 0
			entries[i] = history.Entry{
				ContentType:    history.TypeComment,
				ContentID:      id,
				ContentSubtype: types.of(c.PostID),
				CreatedAt:      rn.now,
				Meta:           meta,
			}
		}
		return ids, entries, nil
	}})
	return ids, made, err
}

// commentBatch holds the arrays the batches of a comment run reuse: a
// batch is done with them once written.
type commentBatch struct {
	comments []Comment
	made     []int
	entries  []history.Entry
}

// noParent is the parent_id meta value of a top-level comment.
var noParent any = "0"

// goneSet holds the ids of objects a comment batch refers to that no
// longer exist.
type goneSet struct {
	posts, comments, users map[int64]bool
}

// goneRefs finds the posts, parent comments and users of the planned
// comments idx that were deleted; on the first attempt it assumes none.
func (g *Generator) goneRefs(ctx context.Context, plan []plannedComment, idx []int, created []int64, attempt int) (goneSet, error) {
	var gs goneSet
	if attempt == 0 {
		return gs, nil
	}
	var posts, parents, users []int64
	for _, i := range idx {
		c := &plan[i].c
		posts = append(posts, c.PostID)
		if plan[i].parent >= 0 {
			parents = append(parents, created[plan[i].parent])
		}
		if c.UserID != 0 {
			users = append(users, c.UserID)
		}
	}
	var err error
	if gs.posts, err = g.missing(ctx, KindPost, posts); err != nil {
		return gs, err
	}
	if gs.comments, err = g.missing(ctx, KindComment, parents); err != nil {
		return gs, err
	}
	gs.users, err = g.missing(ctx, KindUser, users)
	return gs, err
}

// missing returns the ids of a kind that do not exist on the host.
func (g *Generator) missing(ctx context.Context, kind ObjectKind, ids []int64) (map[int64]bool, error) {
	live, err := g.existing(ctx, kind, ids)
	if err != nil {
		return nil, err
	}
	out := map[int64]bool{}
	for _, id := range ids {
		if !live[id] {
			out[id] = true
		}
	}
	return out, nil
}
