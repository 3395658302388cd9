package main

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/contentgen/contentgen/contentgen"
	"github.com/contentgen/contentgen/contentgen/wphost"
)

func (a *app) deleteCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "delete",
		Short: "Delete generated items of one kind, or generated posts of a post type",
		Long: `Delete generated items of one kind (--type post, term, user or comment): all
of them, or those of --ids. Items that were not generated are never
touched. Without --force, posts and comments go to the trash when the site
has one.

"delete posts" removes the generated posts of a post type with what was
generated for them.`,
		Example: `  contentgen delete --type user
  contentgen delete --type post --ids 12,13 --force
  contentgen delete posts --post-type book --delete-related-cpts --delete-related-terms`,
		Args: noArgs,
	}
	f := cmd.Flags()
	f.String("type", "", "kind of items: post, term, user or comment (required)")
	f.Int64Slice("ids", nil, "delete only these items (default: all generated items of the kind)")
	f.Bool("force", false, "delete permanently instead of moving to the trash")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		kind, _ := f.GetString("type")
		var ids contentgen.IDFilter // every generated item of the kind
		if f.Changed("ids") {
			list, _ := f.GetInt64Slice("ids")
			ids = contentgen.OnlyIDs(list...)
		}
		force, _ := f.GetBool("force")
		return a.with(cmd, func(ctx context.Context, s *session) error {
			rm, err := s.gen.Delete(ctx, contentgen.ObjectKind(kind), ids, force)
			if err != nil {
				return err
			}
			n := rm.Posts + rm.Terms + rm.Users + rm.Comments + rm.Media
			how := "Deleted"
			if rm.Trashed {
				how = "Moved to the trash"
			}
			msg := fmt.Sprintf("%s %d generated items of type %s", how, n, kind)
			if a.jsonOut {
				return a.writeJSON(map[string]any{"success": true, "deleted": n, "trashed": rm.Trashed, "message": msg})
			}
			a.printf("%s.\n", msg)
			return nil
		})
	}
	cmd.AddCommand(a.deletePostsCmd())
	return cmd
}

func (a *app) deletePostsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "posts",
		Short: "Delete the generated posts of a post type and what was generated with them",
		Example: `  contentgen delete posts --post-type post --delete-related-media --delete-related-terms --delete-related-authors
  contentgen delete posts --post-type post --delete-scope all`,
		Args: noArgs,
	}
	f := cmd.Flags()
	f.SortFlags = false
	f.String("post-type", "", "post type whose generated posts are deleted (required)")
	f.String("delete-scope", "current_type", "current_type or all (every post type)")
	f.Bool("delete-related-media", true, "also delete the media generated for the posts (default: the delete_related_media setting; =false keeps them)")
	f.Bool("delete-related-terms", true, "also delete the terms generated with the posts (default: the delete_related_terms setting; =false keeps them)")
	f.Bool("delete-related-authors", true, "also delete the authors generated with the posts (default: the delete_related_authors setting; =false keeps them)")
	f.Bool("delete-related-comments", true, "also delete the generated comments on posts of the scope (default: the delete_related_comments setting; =false keeps them)")
	f.Bool("delete-related-cpts", false, "also delete the related posts generated for relational fields")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		get := func(name string) bool { v, _ := f.GetBool(name); return v }
		pt, _ := f.GetString("post-type")
		scope, _ := f.GetString("delete-scope")
		if !f.Changed("delete-scope") {
			scope = ""
		}
		req := contentgen.DeletePostsRequest{
			PostType: pt, DeleteScope: scope,
			DeleteRelatedMedia: changedBool(f, "delete-related-media"), DeleteRelatedTerms: changedBool(f, "delete-related-terms"),
			DeleteRelatedAuthors: changedBool(f, "delete-related-authors"), DeleteRelatedComments: changedBool(f, "delete-related-comments"),
			DeleteRelatedPosts: get("delete-related-cpts"),
		}
		return a.with(cmd, func(ctx context.Context, s *session) error {
			rm, err := s.gen.DeletePosts(ctx, req)
			if err != nil {
				return err
			}
			msg := fmt.Sprintf("Deleted %d generated posts", rm.Posts)
			if a.jsonOut {
				return a.writeJSON(map[string]any{
					"success": true, "deleted_count": rm.Posts,
					"deleted_stats": map[string]int{
						"posts": rm.Posts, "media": rm.Media, "terms": rm.Terms, "authors": rm.Users, "comments": rm.Comments,
					},
					"deleted_related_cpts": nonNilMap(rm.RelatedPosts),
					"message":              msg,
				})
			}
			a.printf("%s.\n", msg)
			a.printf("  also deleted: %d media, %d terms, %d authors, %d comments, related posts%s\n",
				rm.Media, rm.Terms, rm.Users, rm.Comments, orNone(perKey(rm.RelatedPosts)))
			return nil
		})
	}
	return cmd
}

func (a *app) cleanupCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cleanup",
		Short: "Permanently delete all generated content and its history",
		Long: `Permanently delete every generated post (all types), comment, term, user and
generated or uploaded media item, then the history of what is gone. Content
made by hand stays. On a terminal it asks first; elsewhere it needs --yes.`,
		Example: `  contentgen cleanup
  contentgen cleanup --yes --json`,
		Args: noArgs,
	}
	yes := cmd.Flags().BoolP("yes", "y", false, "do not ask for confirmation")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if err := a.confirm(*yes, "Permanently delete all generated content of "+a.siteName()+"?"); err != nil {
			return err
		}
		return a.with(cmd, func(ctx context.Context, s *session) error {
			rm, err := s.gen.DeleteAll(ctx)
			if err != nil {
				return err
			}
			msg := fmt.Sprintf("Deleted %d posts, %d terms, %d users, %d comments and %d media items",
				rm.Posts, rm.Terms, rm.Users, rm.Comments, rm.Media)
			if a.jsonOut {
				return a.writeJSON(map[string]any{"success": true, "message": msg, "stats": map[string]int{
					"posts": rm.Posts, "terms": rm.Terms, "users": rm.Users, "comments": rm.Comments, "media": rm.Media,
				}})
			}
			a.printf("%s.\n", msg)
			return nil
		})
	}
	return cmd
}

func (a *app) uninstallCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "uninstall",
		Short: "Remove everything contentgen made in a WordPress site: generated content, its own tables, empty upload folders",
		Long: `On a WordPress site written through its database (--wordpress-url with
--wordpress-db), delete every generated item as cleanup does, then drop
contentgen's own tables (the site's prefix and contentgen_:
wp_contentgen_history, wp_contentgen_templates, ...) and remove the empty
year and month folders of the uploads directory (--wordpress-uploads).
WordPress's own tables, hand-made content and folders that hold a file
stay. On a terminal it asks first; elsewhere it needs --yes. A later
command on the site makes the tables again.`,
		Example: `  contentgen --wordpress-url http://127.0.0.1:8000 --wordpress-user admin \
    --wordpress-db 'root@tcp(127.0.0.1:3306)/wordpress' \
    --wordpress-uploads /var/www/wordpress/wp-content/uploads uninstall --yes`,
		Args: noArgs,
	}
	yes := cmd.Flags().BoolP("yes", "y", false, "do not ask for confirmation")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if !a.wp.Enabled() || a.wp.DB == "" {
			return usageErr("uninstall works on a WordPress site's database: give --wordpress-url, --wordpress-user and --wordpress-db")
		}
		if err := a.confirm(*yes, "Delete all generated content of "+a.siteName()+" and contentgen's tables?"); err != nil {
			return err
		}
		var rm contentgen.Removed
		if err := a.with(cmd, func(ctx context.Context, s *session) error {
			var err error
			rm, err = s.gen.DeleteAll(ctx)
			return err
		}); err != nil {
			return err
		}
		done, err := wphost.Uninstall(cmd.Context(), &wphost.Options{DSN: a.wp.DB, TablePrefix: a.wp.Prefix, Uploads: a.wp.Uploads})
		if err != nil {
			return failure(cmd, err)
		}
		msg := fmt.Sprintf("Deleted %d posts, %d terms, %d users, %d comments and %d media items; dropped %d tables; removed %d empty folders",
			rm.Posts, rm.Terms, rm.Users, rm.Comments, rm.Media, len(done.Tables), len(done.Folders))
		if a.jsonOut {
			return a.writeJSON(map[string]any{"success": true, "message": msg, "tables": nonNil(done.Tables), "folders": nonNil(done.Folders)})
		}
		a.printf("%s.\n", msg)
		if len(done.Tables) > 0 {
			a.printf("  tables:  %s\n", strings.Join(done.Tables, ", "))
		}
		if len(done.Folders) > 0 {
			a.printf("  folders: %s\n", strings.Join(done.Folders, ", "))
		}
		return nil
	}
	return cmd
}

// confirm asks question on a terminal unless yes is set; without a
// terminal to ask on, yes is required.
func (a *app) confirm(yes bool, question string) error {
	if yes {
		return nil
	}
	if !a.isTerminal(a.stdin) {
		return usageErr("not confirmed: pass --yes when not on a terminal")
	}
	fmt.Fprintf(a.stderr, "%s [y/N] ", question)
	line, _ := bufio.NewReader(a.stdin).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	}
	return &exitError{exitFailure, fmt.Errorf("not confirmed; nothing was deleted")}
}

func nonNilMap(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}

func orNone(s string) string {
	if s == "" {
		return " none"
	}
	return s
}
