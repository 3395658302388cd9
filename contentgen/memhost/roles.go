package memhost

import "github.com/contentgen/contentgen/contentgen"

// Slugs of the standard roles.
const (
	// RoleAdministrator may do everything, including manage_options.
	RoleAdministrator = "administrator"
	// RoleEditor publishes and manages everyone's posts and pages.
	RoleEditor = "editor"
	// RoleAuthor publishes and manages their own posts.
	RoleAuthor = "author"
	// RoleContributor writes posts but cannot publish them.
	RoleContributor = "contributor"
	// RoleSubscriber can only read.
	RoleSubscriber = "subscriber"
)

// StandardRoles returns a new copy of the five usual roles of a content
// platform with their usual capabilities: administrator (everything,
// including manage_options), editor and author (publish_posts and less),
// contributor (edit_posts) and subscriber (read).
func StandardRoles() []contentgen.Role {
	subscriber := []string{"read"}
	contributor := append([]string{"edit_posts", "delete_posts"}, subscriber...)
	author := append([]string{
		"upload_files", "publish_posts", "edit_published_posts", "delete_published_posts",
	}, contributor...)
	editor := append([]string{
		"moderate_comments", "manage_categories", "manage_links", "unfiltered_html",
		"edit_others_posts", "delete_others_posts", "edit_private_posts", "read_private_posts", "delete_private_posts",
		"edit_pages", "edit_others_pages", "edit_published_pages", "publish_pages",
		"delete_pages", "delete_others_pages", "delete_published_pages",
		"edit_private_pages", "read_private_pages", "delete_private_pages",
	}, author...)
	administrator := append([]string{
		contentgen.ManageOptions, "switch_themes", "edit_themes", "activate_plugins", "edit_plugins",
		"edit_users", "edit_files", "import", "export", "unfiltered_upload", "edit_dashboard",
		"update_plugins", "delete_plugins", "install_plugins", "update_themes", "install_themes",
		"delete_themes", "update_core", "list_users", "remove_users", "promote_users",
		"create_users", "delete_users", "edit_theme_options",
	}, editor...)
	return []contentgen.Role{
		{Slug: RoleAdministrator, Name: "Administrator", Capabilities: administrator},
		{Slug: RoleEditor, Name: "Editor", Capabilities: editor},
		{Slug: RoleAuthor, Name: "Author", Capabilities: author},
		{Slug: RoleContributor, Name: "Contributor", Capabilities: contributor},
		{Slug: RoleSubscriber, Name: "Subscriber", Capabilities: subscriber},
	}
}
