package wphost

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/contentgen/contentgen/contentgen"
)

// maxDiscoveryBytes bounds the answers of the REST discovery calls.
const maxDiscoveryBytes = 8 << 20

// restType is an entry of GET /wp/v2/types?context=edit.
type restType struct {
	Slug         string            `json:"slug"`
	Name         string            `json:"name"`
	Description  string            `json:"description"`
	Hierarchical bool              `json:"hierarchical"`
	HasArchive   any               `json:"has_archive"`
	Viewable     bool              `json:"viewable"`
	Icon         string            `json:"icon"`
	Labels       map[string]any    `json:"labels"`
	Supports     map[string]any    `json:"supports"`
	Taxonomies   []string          `json:"taxonomies"`
	Visibility   map[string]bool   `json:"visibility"`
	Capabilities map[string]string `json:"capabilities"`
}

// restTaxonomy is an entry of GET /wp/v2/taxonomies?context=edit.
type restTaxonomy struct {
	Slug         string          `json:"slug"`
	Name         string          `json:"name"`
	Hierarchical bool            `json:"hierarchical"`
	Types        []string        `json:"types"`
	Labels       map[string]any  `json:"labels"`
	Visibility   map[string]bool `json:"visibility"`
}

// discover reads the post types and taxonomies PHP registers from the
// site's REST API (those shown in REST), authenticated with the user's
// application password.
func discover(ctx context.Context, o *Options) ([]contentgen.PostType, []contentgen.Taxonomy, error) {
	var types map[string]restType
	if err := restGet(ctx, o, "/wp-json/wp/v2/types?context=edit", &types); err != nil {
		return nil, nil, err
	}
	var taxes map[string]restTaxonomy
	if err := restGet(ctx, o, "/wp-json/wp/v2/taxonomies?context=edit", &taxes); err != nil {
		return nil, nil, err
	}
	var pts []contentgen.PostType
	for key, rt := range types {
		name := rt.Slug
		if name == "" {
			name = key
		}
		pt := contentgen.PostType{
			Name: name, Label: rt.Name, Labels: stringLabels(rt.Labels), Description: rt.Description,
			Public: rt.Viewable, Hierarchical: rt.Hierarchical, MenuIcon: rt.Icon,
			Taxonomies: slices.Clone(rt.Taxonomies),
			Internal:   name == "attachment" || !rt.Viewable,
		}
		switch v := rt.HasArchive.(type) {
		case bool:
			pt.HasArchive = v
		case string:
			pt.HasArchive = v != ""
		}
		for f, on := range rt.Supports {
			if b, ok := on.(bool); !ok || b {
				pt.Supports = append(pt.Supports, f)
			}
		}
		slices.Sort(pt.Supports)
		pts = append(pts, pt)
	}
	slices.SortFunc(pts, func(a, b contentgen.PostType) int { return strings.Compare(a.Name, b.Name) })
	var txs []contentgen.Taxonomy
	for key, rt := range taxes {
		name := rt.Slug
		if name == "" {
			name = key
		}
		txs = append(txs, contentgen.Taxonomy{
			Name: name, Label: rt.Name, Labels: stringLabels(rt.Labels), Hierarchical: rt.Hierarchical,
			Public: rt.Visibility["public"], PostTypes: slices.Clone(rt.Types),
		})
	}
	slices.SortFunc(txs, func(a, b contentgen.Taxonomy) int { return strings.Compare(a.Name, b.Name) })
	return pts, txs, nil
}

// stringLabels keeps the labels that are strings.
func stringLabels(in map[string]any) map[string]string {
	out := make(map[string]string, len(in))
	for k, v := range in {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// restGet GETs path on the site and decodes its JSON answer into dst.
func restGet(ctx context.Context, o *Options, path string, dst any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.URL+path, nil)
	if err != nil {
		return fmt.Errorf("wphost: discovery request: %w", err)
	}
	req.SetBasicAuth(o.User, o.AppPassword)
	req.Header.Set("Accept", "application/json")
	resp, err := o.HTTPClient.Do(req)
	if err != nil {
		return fmt.Errorf("wphost: discovery: GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDiscoveryBytes+1))
	if err != nil {
		return fmt.Errorf("wphost: discovery: reading %s: %w", path, err)
	}
	if len(body) > maxDiscoveryBytes {
		return fmt.Errorf("wphost: discovery: the answer of %s is larger than %d bytes", path, maxDiscoveryBytes)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("wphost: discovery: GET %s answered HTTP %d (check Options.User and Options.AppPassword)", path, resp.StatusCode)
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return fmt.Errorf("wphost: discovery: decoding %s: %w", path, err)
	}
	return nil
}
