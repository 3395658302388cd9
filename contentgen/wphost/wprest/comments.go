package wprest

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"

	"github.com/contentgen/contentgen/contentgen"
)

type wireComment struct {
	ID          int64      `json:"id"`
	Post        int64      `json:"post"`
	Parent      int64      `json:"parent"`
	Author      int64      `json:"author"`
	AuthorName  string     `json:"author_name"`
	AuthorEmail string     `json:"author_email"`
	AuthorURL   string     `json:"author_url"`
	Content     rendered   `json:"content"`
	Status      string     `json:"status"`
	DateGMT     string     `json:"date_gmt"`
	Extra       *wireExtra `json:"contentgen"`
}

// Comment statuses on the wire and in contentgen.
func wireCommentStatus(s string) string {
	switch s {
	case contentgen.CommentPending:
		return "hold"
	case "", contentgen.CommentApproved:
		return "approved"
	}
	return s
}

func commentStatus(s string) string {
	switch s {
	case "hold", "0", "unapproved":
		return contentgen.CommentPending
	case "approved", "approve", "1":
		return contentgen.CommentApproved
	}
	return s
}

// CreateComments creates comments. With the plugin they are stored in one
// transaction (all or nothing), on posts of any status, with their meta.
// Without it each goes through POST /wp/v2/comments, which WordPress
// refuses on drafts and for closed comments, and meta is refused.
func (h *Host) CreateComments(ctx context.Context, comments []contentgen.Comment) ([]int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(comments) == 0 {
		return []int64{}, nil
	}
	hasPlugin, err := h.HasPlugin(ctx)
	if err != nil {
		return nil, err
	}
	bodies := make([]map[string]any, len(comments))
	for i, c := range comments {
		if c.PostID <= 0 {
			return nil, invalid("comments["+strconv.Itoa(i)+"].PostID", "a post is required")
		}
		b := map[string]any{
			"post": c.PostID, "parent": c.ParentID, "author_name": c.AuthorName, "author_email": c.AuthorEmail,
			"author_url": c.AuthorURL, "content": c.Content, "status": wireCommentStatus(c.Status),
		}
		if c.UserID > 0 {
			b["author"] = c.UserID
		}
		if !c.Date.IsZero() {
			b["date_gmt"] = formatDate(c.Date)
			if hasPlugin {
				b["date_gmt"] = formatDBDate(c.Date)
			}
		}
		if len(c.Meta) > 0 {
			if !hasPlugin {
				return nil, fmt.Errorf("CreateComments with meta needs the companion plugin: %w", ErrPluginMissing)
			}
			b["meta"] = maps.Clone(c.Meta)
		}
		bodies[i] = b
	}
	if hasPlugin {
		var out struct {
			IDs []int64 `json:"ids"`
		}
		for chunk := range slices.Chunk(bodies, pluginMax) {
			var got struct {
				IDs []int64 `json:"ids"`
			}
			if err := h.c.post(ctx, "/"+PluginNamespace+"/comments", map[string]any{"comments": chunk}, &got); err != nil {
				h.undo(ctx, "comments", func(ctx context.Context) error { return h.deleteComments(ctx, out.IDs, true) })
				return nil, fmt.Errorf("wprest: CreateComments: %w", err)
			}
			out.IDs = append(out.IDs, got.IDs...)
		}
		if len(out.IDs) != len(comments) {
			return nil, fmt.Errorf("wprest: CreateComments: %d comments answered %d ids", len(comments), len(out.IDs))
		}
		return out.IDs, nil
	}
	// Replies may name comments of the same call only in a later call, so
	// the comments of one call are independent: send them concurrently.
	ids := make([]int64, len(comments))
	err = parallelAll(ctx, len(bodies), func(ctx context.Context, i int) error {
		var out struct {
			ID int64 `json:"id"`
		}
		req := &request{method: http.MethodPost, path: "/wp/v2/comments", query: url.Values{"_fields": {"id"}}, body: bodies[i]}
		if _, err := h.c.do(ctx, req, &out); err != nil {
			return err
		}
		ids[i] = out.ID
		return nil
	})
	if err != nil {
		h.undo(ctx, "comments", func(ctx context.Context) error { return h.deleteComments(ctx, ids, true) })
		return nil, fmt.Errorf("wprest: CreateComments: %w", err)
	}
	return ids, nil
}

// Comments returns the comments matching q, ordered by id (comments of
// every status unless Statuses filters).
func (h *Host) Comments(ctx context.Context, q contentgen.CommentQuery) ([]contentgen.Comment, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ids, none, err := h.idRestriction(ctx, contentgen.KindComment, q.IDs, q.MetaKey, q.MetaValue)
	if err != nil || none {
		return []contentgen.Comment{}, err
	}
	posts := []string{""}
	if q.PostIDs.Active() {
		list := distinctSorted(q.PostIDs.List())
		if len(list) == 0 {
			return []contentgen.Comment{}, nil
		}
		posts = includeChunks(list)
	}
	statuses := []string{"any"}
	if len(q.Statuses) > 0 {
		statuses = nil
		for _, s := range q.Statuses {
			w := wireCommentStatus(s)
			if w == "approved" {
				w = "approve"
			}
			statuses = append(statuses, w)
		}
	}
	type job struct{ include, post, status string }
	var jobs []job
	for _, inc := range includeChunks(ids) {
		for _, p := range posts {
			for _, s := range statuses {
				jobs = append(jobs, job{inc, p, s})
			}
		}
	}
	results := make([][]wireComment, len(jobs))
	limit := want(q.Offset, q.Limit)
	err = parallel(ctx, len(jobs), func(ctx context.Context, i int) error {
		v := url.Values{
			"context": {"edit"}, "orderby": {"id"}, "order": {"asc"}, "status": {jobs[i].status}, "type": {"comment"},
			"_fields": {"id,post,parent,author,author_name,author_email,author_url,content,status,date_gmt,contentgen"},
		}
		if jobs[i].include != "" {
			v.Set("include", jobs[i].include)
		}
		if jobs[i].post != "" {
			v.Set("post", jobs[i].post)
		}
		var err error
		results[i], err = listAll[wireComment](ctx, h.c, "/wp/v2/comments", v, limit)
		return err
	})
	if err != nil {
		return nil, err
	}
	seen := map[int64]bool{}
	var out []contentgen.Comment
	for _, res := range results {
		for _, w := range res {
			if seen[w.ID] {
				continue
			}
			seen[w.ID] = true
			out = append(out, contentgen.Comment{
				ID: w.ID, PostID: w.Post, ParentID: w.Parent, UserID: w.Author, AuthorName: w.AuthorName,
				AuthorEmail: w.AuthorEmail, AuthorURL: w.AuthorURL, Content: w.Content.Raw,
				Status: commentStatus(w.Status), Date: parseDate(w.DateGMT), Meta: w.Extra.meta(),
			})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return page(out, q.Offset, q.Limit), nil
}

// DeleteComments removes comments permanently, one after another so that
// WordPress moves the replies of each removed comment to its parent.
func (h *Host) DeleteComments(ctx context.Context, ids []int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return h.deleteComments(ctx, ids, true)
}

// TrashComments moves comments to the trash.
func (h *Host) TrashComments(ctx context.Context, ids []int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return h.deleteComments(ctx, ids, false)
}

func (h *Host) deleteComments(ctx context.Context, ids []int64, force bool) error {
	ids = distinctSorted(ids)
	q := url.Values{}
	if force {
		q.Set("force", "true")
	}
	return h.deleteMany(ctx, "/wp/v2/comments", ids, q, force)
}
