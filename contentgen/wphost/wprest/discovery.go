package wprest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
)

// PluginNamespace is the REST namespace of the companion plugin.
const PluginNamespace = "contentgen/v1"

// ErrPluginMissing is wrapped by the errors of calls that need the
// companion plugin (MUPlugin) on a site that does not have it.
var ErrPluginMissing = errors.New("wprest: the contentgen companion must-use plugin (wp-content/mu-plugins/contentgen.php, see wprest.MUPlugin) is not installed on the site")

// Index is what the site reports at the root of its REST API.
type Index struct {
	Name, Description string
	// URL is the site's home address, without a trailing slash.
	URL string
	// Namespaces are the REST namespaces the site serves.
	Namespaces []string
	// batchable holds "METHOD route" for every endpoint declaring
	// allow_batch v1.
	batchable map[string]bool
}

// HasPlugin reports whether the companion plugin's namespace is served.
func (ix *Index) HasPlugin() bool { return slices.Contains(ix.Namespaces, PluginNamespace) }

// Batchable reports whether the endpoint (method and route pattern as the
// index spells it, such as "/wp/v2/posts" or "/wp/v2/posts/(?P<id>[\\d]+)")
// allows the batch endpoint.
func (ix *Index) Batchable(method, route string) bool { return ix.batchable[method+" "+route] }

// itemRoute is the route pattern of one item of a collection.
func itemRoute(collection string) string { return collection + `/(?P<id>[\d]+)` }

type wireIndex struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	URL         string   `json:"url"`
	Home        string   `json:"home"`
	Namespaces  []string `json:"namespaces"`
	Routes      map[string]struct {
		Endpoints []struct {
			Methods    []string        `json:"methods"`
			AllowBatch json.RawMessage `json:"allow_batch"`
		} `json:"endpoints"`
	} `json:"routes"`
}

// Index reads the API root (GET /wp-json/) once and caches it; Refresh
// reads it again.
func (c *Client) Index(ctx context.Context) (*Index, error) {
	c.mu.Lock()
	ix := c.index
	c.mu.Unlock()
	if ix != nil {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return ix, nil
	}
	return c.Refresh(ctx)
}

// Refresh reads the API root again (after a plugin was installed, say).
func (c *Client) Refresh(ctx context.Context) (*Index, error) {
	var w wireIndex
	if _, err := c.get(ctx, "/", nil, &w); err != nil {
		return nil, err
	}
	ix := &Index{Name: w.Name, Description: w.Description, URL: strings.TrimRight(w.Home, "/"), Namespaces: w.Namespaces, batchable: map[string]bool{}}
	if ix.URL == "" {
		ix.URL = strings.TrimRight(w.URL, "/")
	}
	for route, r := range w.Routes {
		for _, ep := range r.Endpoints {
			var ab struct {
				V1 bool `json:"v1"`
			}
			if len(ep.AllowBatch) == 0 || json.Unmarshal(ep.AllowBatch, &ab) != nil || !ab.V1 {
				continue
			}
			for _, m := range ep.Methods {
				ix.batchable[m+" "+route] = true
			}
		}
	}
	c.mu.Lock()
	c.index = ix
	c.mu.Unlock()
	return ix, nil
}

// CheckAuth checks that the credentials work and that the user has the
// manage_options capability (GET /wp/v2/users/me?context=edit).
func (c *Client) CheckAuth(ctx context.Context) error {
	var me struct {
		ID           int64           `json:"id"`
		Capabilities map[string]bool `json:"capabilities"`
	}
	if _, err := c.get(ctx, "/wp/v2/users/me", url.Values{"context": {"edit"}, "_fields": {"id,capabilities"}}, &me); err != nil {
		return err
	}
	if !me.Capabilities[contentgen.ManageOptions] {
		return fmt.Errorf("wprest: user %q lacks the %s capability", c.user, contentgen.ManageOptions)
	}
	return nil
}

// PostType is a post type as the REST API describes it.
type PostType struct {
	contentgen.PostType
	// RESTBase and RESTNamespace locate its collection:
	// /RESTNamespace/RESTBase.
	RESTBase, RESTNamespace string
}

// Collection returns the route of the type's collection ("/wp/v2/posts").
func (pt PostType) Collection() string { return "/" + pt.RESTNamespace + "/" + pt.RESTBase }

// Taxonomy is a taxonomy as the REST API describes it.
type Taxonomy struct {
	contentgen.Taxonomy
	RESTBase, RESTNamespace string
}

// Collection returns the route of the taxonomy's terms ("/wp/v2/categories").
func (tx Taxonomy) Collection() string { return "/" + tx.RESTNamespace + "/" + tx.RESTBase }

// internalTypes are core post types that are never content.
var internalTypes = map[string]bool{
	"attachment": true, "revision": true, "nav_menu_item": true, "custom_css": true, "customize_changeset": true,
	"oembed_cache": true, "user_request": true, "wp_block": true, "wp_template": true, "wp_template_part": true,
	"wp_global_styles": true, "wp_navigation": true,
}

type wireType struct {
	Name         string          `json:"name"`
	Slug         string          `json:"slug"`
	Description  string          `json:"description"`
	Hierarchical bool            `json:"hierarchical"`
	HasArchive   json.RawMessage `json:"has_archive"`
	Viewable     bool            `json:"viewable"`
	Labels       map[string]any  `json:"labels"`
	Supports     map[string]any  `json:"supports"`
	Taxonomies   []string        `json:"taxonomies"`
	Icon         *string         `json:"icon"`
	RESTBase     string          `json:"rest_base"`
	RESTNS       string          `json:"rest_namespace"`
}

// PostTypes lists the post types the REST API shows
// (GET /wp/v2/types?context=edit), sorted by name, without counts. Types
// registered without show_in_rest are not listed.
func (c *Client) PostTypes(ctx context.Context) ([]PostType, error) {
	var w map[string]wireType
	if _, err := c.get(ctx, "/wp/v2/types", url.Values{"context": {"edit"}}, &w); err != nil {
		return nil, err
	}
	out := make([]PostType, 0, len(w))
	for key, t := range w {
		name := cmpOr(t.Slug, key)
		pt := PostType{PostType: contentgen.PostType{
			Name: name, Label: cmpOr(t.Name, name), Labels: labels(t.Labels), Description: t.Description,
			Public: t.Viewable, Hierarchical: t.Hierarchical, HasArchive: truthy(t.HasArchive),
			Taxonomies: slices.Clone(t.Taxonomies), Internal: internalTypes[name] || !t.Viewable,
		}, RESTBase: cmpOr(t.RESTBase, name), RESTNamespace: cmpOr(t.RESTNS, "wp/v2")}
		if pt.Taxonomies == nil {
			pt.Taxonomies = []string{}
		}
		for f, v := range t.Supports {
			if b, ok := v.(bool); !ok || b {
				pt.Supports = append(pt.Supports, f)
			}
		}
		sort.Strings(pt.Supports)
		if t.Icon != nil {
			pt.MenuIcon = *t.Icon
		}
		out = append(out, pt)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

type wireTaxonomy struct {
	Name         string         `json:"name"`
	Slug         string         `json:"slug"`
	Hierarchical bool           `json:"hierarchical"`
	Labels       map[string]any `json:"labels"`
	Types        []string       `json:"types"`
	Visibility   struct {
		Public bool `json:"public"`
	} `json:"visibility"`
	RESTBase string `json:"rest_base"`
	RESTNS   string `json:"rest_namespace"`
}

// Taxonomies lists the taxonomies the REST API shows
// (GET /wp/v2/taxonomies?context=edit), sorted by name, without counts.
func (c *Client) Taxonomies(ctx context.Context) ([]Taxonomy, error) {
	var w map[string]wireTaxonomy
	if _, err := c.get(ctx, "/wp/v2/taxonomies", url.Values{"context": {"edit"}}, &w); err != nil {
		return nil, err
	}
	out := make([]Taxonomy, 0, len(w))
	for key, t := range w {
		name := cmpOr(t.Slug, key)
		out = append(out, Taxonomy{Taxonomy: contentgen.Taxonomy{
			Name: name, Label: cmpOr(t.Name, name), Labels: labels(t.Labels), Hierarchical: t.Hierarchical,
			Public: t.Visibility.Public, PostTypes: append([]string{}, t.Types...),
		}, RESTBase: cmpOr(t.RESTBase, name), RESTNamespace: cmpOr(t.RESTNS, "wp/v2")})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// StandardRoles are WordPress's default roles, reported by Roles when the
// site lacks the companion plugin (the REST API has no roles endpoint).
func StandardRoles() []contentgen.Role {
	return []contentgen.Role{
		{Slug: "administrator", Name: "Administrator", Capabilities: []string{"manage_options", "edit_others_posts", "publish_posts", "edit_posts", "read"}},
		{Slug: "editor", Name: "Editor", Capabilities: []string{"edit_others_posts", "publish_posts", "edit_posts", "read"}},
		{Slug: "author", Name: "Author", Capabilities: []string{"publish_posts", "edit_posts", "read"}},
		{Slug: "contributor", Name: "Contributor", Capabilities: []string{"edit_posts", "read"}},
		{Slug: "subscriber", Name: "Subscriber", Capabilities: []string{"read"}},
	}
}

// Roles lists the site's roles through the companion plugin, or
// StandardRoles when the site lacks it.
func (c *Client) Roles(ctx context.Context) ([]contentgen.Role, error) {
	ix, err := c.Index(ctx)
	if err != nil {
		return nil, err
	}
	if !ix.HasPlugin() {
		return StandardRoles(), nil
	}
	var w struct {
		Roles []struct {
			Slug         string   `json:"slug"`
			Name         string   `json:"name"`
			Capabilities []string `json:"capabilities"`
		} `json:"roles"`
	}
	if _, err := c.get(ctx, "/"+PluginNamespace+"/roles", nil, &w); err != nil {
		return nil, err
	}
	out := make([]contentgen.Role, 0, len(w.Roles))
	for _, r := range w.Roles {
		out = append(out, contentgen.Role{Slug: r.Slug, Name: r.Name, Capabilities: append([]string{}, r.Capabilities...)})
	}
	return out, nil
}

// Site describes the installation: name and home URL from the API root,
// the language from /wp/v2/settings (en_US when it is not reported).
func (c *Client) Site(ctx context.Context) (contentgen.Site, error) {
	ix, err := c.Refresh(ctx)
	if err != nil {
		return contentgen.Site{}, err
	}
	var settings struct {
		Language string `json:"language"`
	}
	if _, err := c.get(ctx, "/wp/v2/settings", url.Values{"_fields": {"language"}}, &settings); err != nil {
		return contentgen.Site{}, err
	}
	home := cmpOr(ix.URL, c.SiteURL())
	return contentgen.Site{
		Name: cmpOr(ix.Name, home), URL: home, AdminURL: c.SiteURL() + "/wp-admin/",
		Locale: strings.ReplaceAll(cmpOr(settings.Language, "en_US"), "-", "_"),
	}, nil
}

func labels(m map[string]any) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

func truthy(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s != "" && s != "false" && s != "null" && s != `""` && s != "0"
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
